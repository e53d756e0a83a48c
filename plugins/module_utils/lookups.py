# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Finding Manila resources by name or ID: every kind, one set of rules.

- A UUID-shaped value is tried as an ID first (one GET of the resource), and
  as a name when no resource has that ID, as openstack.cloud does: a
  resource whose name looks like a UUID is still found.
- A name is one request with Manila's own ``name`` filter where the listing
  has one; kinds without it (share types) are matched in one listing, with
  private types included (``is_public=all``).
- Two resources with one name are an error listing their IDs, for every kind.
- Listings page with limit/offset; pools are matched exactly, not as the
  regular expressions Manila takes.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    AmbiguousName,
    Forbidden,
    InvalidInput,
    ManilaError,
    NotFound,
    reword,
    same_details,
)

UUID_RE = re.compile(r'^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?'
                     r'[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$')

PAGE_SIZE = 1000

# Manila's pool names: host@backend#pool (no spaces, one of each separator).
POOL_NAME_RE = re.compile(r'^([^@#\s]+)@([^@#\s]+)#([^@#\s]+)$')


class Kind(object):
    """How one kind of resource is listed and read."""

    def __init__(self, label, listing, list_key, item, item_key,
                 name_filter=True, listing_query=None):
        self.label = label
        self.listing = listing
        self.list_key = list_key
        self.item = item
        self.item_key = item_key
        # False: the listing has no server-side name filter (match in it).
        self.name_filter = name_filter
        self.listing_query = listing_query or {}


KINDS = {
    'share': Kind('share', 'shares/detail', 'shares', 'shares/%s', 'share'),
    'snapshot': Kind('share snapshot', 'snapshots/detail', 'snapshots',
                     'snapshots/%s', 'snapshot'),
    'share_network': Kind('share network', 'share-networks/detail',
                          'share_networks', 'share-networks/%s', 'share_network'),
    'share_type': Kind('share type', 'types', 'share_types', 'types/%s',
                       'share_type', name_filter=False,
                       listing_query={'is_public': 'all'}),
    # No GET by ID: an ID is matched in the (short) listing too.
    'availability_zone': Kind('availability zone', 'availability-zones',
                              'availability_zones', None, None, name_filter=False),
}


def looks_like_uuid(value):
    return bool(value) and bool(UUID_RE.match(str(value)))


def get_by_id(client, kind, resource_id, query=None):
    """The resource with this ID, or None when Manila says it does not exist."""
    spec = KINDS[kind]
    if spec.item is None:
        found = client.get(spec.listing, query=dict(spec.listing_query, **(query or {})))
        return single(kind, resource_id, [item for item in found.get(spec.list_key, [])
                                          if item.get('id') == resource_id])
    try:
        return client.get(spec.item % resource_id, query=query).get(spec.item_key)
    except NotFound:
        return None


def list_by_name(client, kind, name, extra_filters=None):
    """Every resource of ``kind`` named exactly ``name`` (one request)."""
    spec = KINDS[kind]
    query = dict(spec.listing_query)
    if spec.name_filter:
        query['name'] = name
    query.update(extra_filters or {})
    found = client.get(spec.listing, query=query).get(spec.list_key, [])
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


def require(client, kind, name_or_id, extra_filters=None, option=None):
    """Like find(), but a missing resource is an error naming it.

    ``option``: the task option that named it; the error is then an
    InvalidInput that starts with the option (a bad reference in the task,
    found before any write).
    """
    found = find(client, kind, name_or_id, extra_filters)
    if found is None:
        if option:
            raise InvalidInput('%s: no %s with the name or ID %r exists (or this user '
                               'cannot see it).' % (option, KINDS[kind].label, name_or_id))
        raise NotFound('No %s with the name or ID %r was found.' % (
            KINDS[kind].label, name_or_id), status=404)
    return found


def resolve_id(client, kind, name_or_id, known_ids=(), option=None):
    """The ID of a resource given by name or ID, by the rules of find().

    ``known_ids``: IDs known to exist (for example those a share already
    refers to); such a value is taken as it is, without a request.
    ``option``: the task option that named it (see require()).
    """
    if name_or_id in known_ids:
        return name_or_id
    return require(client, kind, name_or_id, option=option)['id']


def list_all(client, path, list_key, query=None, page_size=PAGE_SIZE):
    """Every item of a listing, paging with limit/offset (Manila has no marker)."""
    items = []
    offset = 0
    while True:
        page_query = dict(query or {})
        page_query.update(limit=page_size, offset=offset)
        page = client.get(path, query=page_query).get(list_key, [])
        items.extend(page)
        if len(page) < page_size:
            return items
        offset += page_size


def user_messages(client, resource_id, limit=3):
    """Manila's newest user messages for a resource, as one sentence (2.37+).

    These explain why an asynchronous operation failed ("No storage could be
    allocated for this share request..."). Empty when the cloud is too old.
    """
    if not client.supports('user_messages'):
        return ''
    body = client.get('messages', query={
        'resource_id': resource_id, 'sort_key': 'created_at',
        'sort_dir': 'desc', 'limit': limit})
    texts = []
    for message in body.get('messages', []):
        text = message.get('user_message')
        if text and text not in texts:
            texts.append(text)
    if not texts:
        return ''
    return 'Manila says: %s' % ' | '.join(texts)


# -- pools ----------------------------------------------------------------------

def parse_pool_name(name, option='host'):
    """(host, backend, pool) of ``host@backend#pool``; InvalidInput otherwise."""
    match = POOL_NAME_RE.match(name or '')
    if not match:
        raise InvalidInput(
            '%s must be a full pool name "host@backend#pool" (as '
            'openkeel.manila.share_pool_info lists them), got %r.' % (option, name))
    return match.groups()


def exact(value):
    """A Manila pool filter (a regular expression matched at the start) for one value."""
    return '%s$' % re.escape(value)


@reword(Forbidden, lambda exc: same_details(
    exc, ManilaError, 'Listing the scheduler\'s pools is admin-only by default '
    '(Manila said: %s)' % exc.message))
def list_pools(client, host=None, backend=None, pool=None, share_type=None,
               detail=True):
    """The scheduler's pools; the filters are Manila's regular expressions."""
    query = {'host': host, 'backend': backend, 'pool': pool, 'share_type': share_type}
    path = 'scheduler-stats/pools/detail' if detail else 'scheduler-stats/pools'
    return client.get(path, query=query).get('pools', [])


def require_pool(client, name):
    """The pool named exactly ``name``; an error listing the pools when there is none."""
    host, backend, pool = parse_pool_name(name)
    for candidate in list_pools(client, host=exact(host), backend=exact(backend),
                                pool=exact(pool), detail=False):
        if candidate.get('name') == name:
            return candidate
    known = sorted(p.get('name') for p in list_pools(client, detail=False))
    raise InvalidInput('host: no pool named %s is known to the scheduler. Pools: %s.' % (
        name, ', '.join(known) or 'none'))
