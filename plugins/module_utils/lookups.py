# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Finding Manila resources by name or ID: every kind, one set of rules.

- A UUID-shaped value is tried as an ID first (one GET of the resource), and
  as a name when no resource has that ID, as openstack.cloud does: a
  resource whose name looks like a UUID is still found.  The ``name``
  option of the info modules follows the same rule (listed_by_name_or_id).
- A name is one request with Manila's own ``name`` filter where the listing
  has one; kinds without it (share types) are matched in one listing, with
  private types included (``is_public=all``).
- Two resources with one name are an error listing their IDs, for every kind.
- Listings page with limit/offset until Manila has nothing more (or, where
  it counts, until the count is reached), each item once.

How each kind is listed and read is its row in the kinds table (kinds.py,
``KINDS``, imported here for the callers that know it as ``lookups.KINDS``);
a kind whose every call needs a feature (``Kind.feature``) reads with it.
Beside it are the words that name one share in a message: ``share_label``
(kinds.py's) opens a sentence, ``share_in_sentence`` sits inside one.

The neighbours: writes.py (writes that take effect once and the name races
of creates), manila_messages.py (user messages and points in time),
scheduler_pools.py (pool names and listings).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    AmbiguousName,
    Forbidden,
    InvalidInput,
    NotFound,
)
from ansible_collections.openkeel.manila.plugins.module_utils import kinds
from ansible_collections.openkeel.manila.plugins.module_utils.kinds import KINDS

# The kinds table's rows and the label of a share, by the names lookups' callers know.
Kind = kinds.Kind
share_label = kinds.share_label

UUID_RE = re.compile(r'^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?'
                     r'[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$')

# The page size asked for: Manila's default osapi_max_limit.  Operators may
# set it lower, and Manila then answers with shorter pages without saying so.
PAGE_SIZE = 1000

# Listings that give the number of matches with ``with_count=true``, and the
# microversion feature that brings it: their paging stops at that number, so
# a listing that fits one page costs one request.
COUNTED_LISTINGS = {
    'shares': 'share_list_count',
    'shares/detail': 'share_list_count',
    'snapshots': 'snapshot_list_count',
    'snapshots/detail': 'snapshot_list_count',
    'resource-locks': 'resource_locks',
}
# Filters that Manila drops from a share listing asked for with ``with_count``
# (seen on Manila 23.0: ``all_tenants=1&project_id=P&with_count=true`` lists the
# shares of every project): such a listing pages until an empty page instead.
UNCOUNTED_FILTERS = ('project_id',)


def share_in_sentence(share):
    """'share NAME (ID)' (or 'share ID' without a name), lower case: a share
    named inside a sentence (share_label opens one)."""
    if share.get('name'):
        return 'share %s (%s)' % (share['name'], share.get('id'))
    return 'share %s' % share.get('id')


def looks_like_uuid(value):
    return bool(value) and bool(UUID_RE.match(str(value)))


def check_id_filters(params, options):
    """InvalidInput for the first of ``options`` (filters that take an ID) whose
    value is not UUID-shaped: Manila matches nothing and the task would return
    an empty list for a mistyped ID or a name given as an ID."""
    for option in options:
        value = params.get(option)
        if value is not None and not looks_like_uuid(value):
            raise InvalidInput(
                '%s %r is not an ID (a UUID such as 1b6f0c1e-...): Manila would match '
                'nothing. Check the value, or filter by name where the module takes one.'
                % (option, value))


def refuse_other_projects(client, what, project=None, all_projects=False):
    """InvalidInput when a user without the admin role asks for the ``what``
    (plural: "shares") of another project or of every project.

    Manila ignores ``all_tenants`` and ``project_id`` for such a user (its
    list_all_projects policy) and answers with the user's own, which a task
    would return as if they were another project's.  Nothing is asked from
    Keystone without those options; a session that cannot say (a test
    double) is let through.
    """
    if not (project or all_projects):
        return
    own = client.token_project()
    if own is None or 'admin' in own['roles']:
        return
    if project and project == own['id']:
        return
    option = 'project' if project else 'all_projects'
    raise InvalidInput(
        '%s: only admins can list another project\'s %s (or those of every project); '
        'this task runs as a user with the roles %s of project %s, for whom Manila '
        'ignores the filter and would answer with this project\'s own %s.' % (
            option, what, ', '.join(sorted(own['roles'])) or 'none', own['name'], what))


def get_by_id(client, kind, resource_id, query=None):
    """The resource with this ID, or None when Manila says it does not exist."""
    spec = KINDS[kind]
    if spec.item is None:
        found = client.get(spec.listing, query=dict(spec.listing_query, **(query or {})))
        return single(kind, resource_id, [item for item in found.get(spec.list_key, [])
                                          if item.get('id') == resource_id])
    try:
        return client.get(spec.item % resource_id, query=query,
                          feature=spec.feature).get(spec.item_key)
    except NotFound:
        return None


def list_by_name(client, kind, name, extra_filters=None):
    """Every resource of ``kind`` named exactly ``name`` (one request)."""
    spec = KINDS[kind]
    query = dict(spec.listing_query)
    if spec.name_filter:
        query['name'] = name
    query.update(extra_filters or {})
    found = client.get(spec.listing, query=query, feature=spec.feature).get(spec.list_key, [])
    return [item for item in found if item.get('name') == name]


def single(kind, name, matches):
    """The one match, None for none; AmbiguousName (with the IDs) for several."""
    if not matches:
        return None
    if len(matches) > 1:
        raise AmbiguousName(
            '%d %ss are named %r (IDs: %s); use an ID to say which one.' % (
                len(matches), KINDS[kind].label, name,
                ', '.join(sorted(m['id'] for m in matches))))
    return matches[0]


def find(client, kind, name_or_id, extra_filters=None):
    """One resource by ID or exact name; None if absent.

    A UUID-shaped value is tried as an ID first (one GET), then as a name
    when no resource has that ID (one more request).  ``extra_filters`` only
    narrow the name listing.
    """
    if looks_like_uuid(name_or_id):
        found = get_by_id(client, kind, name_or_id)
        if found is not None:
            return found
    return single(kind, name_or_id, list_by_name(client, kind, name_or_id, extra_filters))


def listed_by_name_or_id(client, kind, name, listing, other_filters=False, keep=None):
    """What an info module's ``name`` option finds, by the rules of find().

    ``listing(name)`` sends the module's filtered listing with ``name`` as
    Manila's exact name filter (None: without a name filter) and returns the
    items.  A UUID-shaped ``name`` is tried as an ID first (one GET): the
    resource with that ID is the answer when the module has no other filter
    (``other_filters`` false; ``keep(resource)``, if given, must hold), else
    ``listing(None)`` narrowed to that ID (the resource must match the other
    filters too).  When no resource has that ID that this user may read, or
    ``name`` is not UUID-shaped, ``listing(name)``: the same requests as a
    plain name filter.
    """
    if name is not None and looks_like_uuid(name):
        try:
            found = get_by_id(client, kind, name)
        except Forbidden:
            # Manila answers 403, not 404, for some kinds (security services) of
            # another project: not visible to this user, so not found by ID.
            found = None
        if found is not None:
            if not other_filters:
                return [found] if keep is None or keep(found) else []
            return [item for item in listing(None) if item.get('id') == found['id']]
    return listing(name)


def require(client, kind, name_or_id, extra_filters=None, option=None):
    """Like find(), but a missing resource is an error naming it.

    ``option``: the task option that named it; the error is then an
    InvalidInput that starts with the option (a bad reference in the task,
    found before any write).
    """
    found = find(client, kind, name_or_id, extra_filters)
    if found is None:
        if option:
            raise missing_input(kind, name_or_id, option)
        raise NotFound('No %s with the name or ID %r was found.' % (
            KINDS[kind].label, name_or_id), status=404)
    return found


def missing_input(kind, name_or_id, option):
    """The InvalidInput for a task option that names a resource which does not exist."""
    return InvalidInput('%s: no %s with the name or ID %r exists (or this user cannot see '
                        'it).' % (option, KINDS[kind].label, name_or_id))


def resolve_id(client, kind, name_or_id, known_ids=(), option=None):
    """The ID of a resource given by name or ID, by the rules of find().

    ``known_ids``: IDs known to exist (for example those a share already
    refers to); such a value is taken as it is, without a request.
    ``option``: the task option that named it (see require()).
    """
    if name_or_id in known_ids:
        return name_or_id
    return require(client, kind, name_or_id, option=option)['id']


def pages(client, path, list_key, query=None, page_size=PAGE_SIZE, kind_feature=None):
    """Every item of a listing, once, paging with limit/offset (a generator).

    Manila has no marker for these listings, and a page shorter than the
    ``limit`` asked for is no sign of the end: Manila caps every page at its
    ``osapi_max_limit`` (1000 by default, often lower) without a next link
    (it adds ``*_links`` only to a page exactly as long as asked for).  So
    the paging goes on until a page is empty or, for the listings that count
    their matches (``COUNTED_LISTINGS``, at the microversions that have
    ``with_count``), until the offset reaches the count: such a listing that
    fits one page is one request, the others one more (the empty page).
    A listing filtered by project is not counted (``UNCOUNTED_FILTERS``).
    An item whose ID came before is left out (offsets shift when resources
    are created meanwhile), and a page with nothing new ends the listing
    (a server that ignores ``offset`` cannot make it loop).  The next page
    is asked for only when the caller wants more items.
    """
    feature = COUNTED_LISTINGS.get(path)
    counted = (feature is not None and client.supports(feature)
               and not any((query or {}).get(key) for key in UNCOUNTED_FILTERS))
    seen = set()
    offset = 0
    while True:
        page_query = dict(query or {})
        if counted:
            page_query['with_count'] = 'true'
        page_query.update(limit=page_size, offset=offset)
        answer = client.get(path, query=page_query, feature=kind_feature)
        page = answer.get(list_key) or []
        fresh = 0
        for item in page:
            item_id = item.get('id') if isinstance(item, dict) else None
            if item_id is not None:
                if item_id in seen:
                    continue
                seen.add(item_id)
            fresh += 1
            yield item
        offset += len(page)
        count = answer.get('count') if counted else None
        if not fresh or (isinstance(count, int) and offset >= count):
            return


def list_all(client, path, list_key, query=None, page_size=PAGE_SIZE, kind_feature=None):
    """Every item of a listing, each once (see pages(); ``kind_feature``: the
    feature of the listed kind, which every page carries)."""
    return list(pages(client, path, list_key, query, page_size, kind_feature))
