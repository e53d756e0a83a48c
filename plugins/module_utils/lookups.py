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
  it counts, until the count is reached), each item once; pools are matched
  exactly, not as the regular expressions Manila takes.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime
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
    'message': Kind('user message', 'messages', 'messages', 'messages/%s', 'message',
                    name_filter=False),
    'share_network': Kind('share network', 'share-networks/detail',
                          'share_networks', 'share-networks/%s', 'share_network'),
    'share_type': Kind('share type', 'types', 'share_types', 'types/%s',
                       'share_type', name_filter=False,
                       listing_query={'is_public': 'all'}),
    # No GET by ID: an ID is matched in the (short) listing too.
    'availability_zone': Kind('availability zone', 'availability-zones',
                              'availability_zones', None, None, name_filter=False),
    'security_service': Kind('security service', 'security-services/detail',
                             'security_services', 'security-services/%s',
                             'security_service'),
    'resource_lock': Kind('resource lock', 'resource-locks', 'resource_locks',
                          'resource-locks/%s', 'resource_lock', name_filter=False),
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


# -- writes that take effect once: what ``observe`` looks for ---------------------
# ``client.write_once(send, observe, what)`` asks ``observe()`` after a lost
# answer or a 5xx.  These build the observers every API class uses: a create is
# seen by its name, a change by reading the resource, a deletion by its absence.

def oldest(resources):
    """The resource that keeps a name several tasks created at once: the oldest
    (created_at, then ID, so that every task picks the same one)."""
    return min(resources, key=lambda r: (r.get('created_at') or '', r['id']))


def present_namesakes(client, kind, name, extra_filters=None, leaving=()):
    """Every resource of ``kind`` named ``name``, without those on their way out
    (a status in ``leaving``)."""
    return [r for r in list_by_name(client, kind, name, extra_filters)
            if r.get('status') not in leaving]


def made_by_name(client, kind, name, extra_filters=None, leaving=()):
    """An observer for a create: the resource named ``name`` (with several, the
    oldest, as settle_namesakes chooses), or None."""
    def observe():
        found = present_namesakes(client, kind, name, extra_filters, leaving)
        return oldest(found) if found else None
    return observe


def create_once(client, kind, send, name, extra_filters=None, leaving=()):
    """Send a create through write_once, seeing it by its name."""
    return client.write_once(send, made_by_name(client, kind, name, extra_filters, leaving),
                             'the create of %s %r' % (KINDS[kind].label, name))


def shows(resource, expected):
    """True when ``resource`` has every field of ``expected`` with its value
    (a field the resource does not show counts as not seen)."""
    return resource is not None and all(
        key in resource and shown_as_sent(resource[key], value) for key, value in expected.items())


def shown_as_sent(shown, wanted):
    """Whether a field Manila shows has the value a write sent (an empty text
    and none are the same; a boolean compares as one)."""
    if wanted in ('', None):
        return shown in ('', None)
    if isinstance(wanted, bool):
        return shown is wanted or str(shown).lower() == str(wanted).lower()
    return shown == wanted


def changed_to(client, kind, resource_id, expected):
    """An observer for a change: the resource (read by ID) when it shows
    ``expected`` (field: value), else None."""
    def observe():
        found = get_by_id(client, kind, resource_id)
        return found if shows(found, expected) else None
    return observe


def holds_items(client, kind, resource_id, items, field='metadata'):
    """An observer for a metadata (or extra spec) update: True when the
    resource's ``field`` holds every item, else None."""
    def observe():
        found = get_by_id(client, kind, resource_id) or {}
        held = found.get(field) or {}
        return True if all(held.get(k) == v for k, v in items.items()) else None
    return observe


def lacks_key(client, kind, resource_id, key, field='metadata'):
    """An observer for the removal of one metadata (or extra spec) key."""
    def observe():
        found = get_by_id(client, kind, resource_id) or {}
        return True if key not in (found.get(field) or {}) else None
    return observe


def gone_or_leaving(client, kind, resource_id, leaving=()):
    """An observer for a deletion: True when the resource is gone or on its
    way out (a status in ``leaving``), else None."""
    def observe():
        found = get_by_id(client, kind, resource_id)
        return True if found is None or found.get('status') in leaving else None
    return observe


def settle_namesakes(client, kind, mine, remove, extra_filters=None, leaving=()):
    """After creating ``mine``: make sure its name ends up on one resource.

    Tasks that create the same name at the same moment each find none and
    each create one.  Afterwards each looks again: the oldest namesake (by
    created_at, then ID) stays; a task whose own resource is newer removes it
    (``remove(mine)``: the API class knows when that is safe) and converges
    on the oldest, with a warning.  Returns ``(resource, adopted)``: the one
    that keeps the name, and whether it is another task's.
    """
    label = KINDS[kind].label
    name = mine.get('name')
    present = present_namesakes(client, kind, name, extra_filters, leaving)
    if not any(r['id'] == mine['id'] for r in present):
        present.append(mine)
    keeper = oldest(present)
    others = sorted(r['id'] for r in present if r['id'] != keeper['id'])
    if keeper['id'] == mine['id']:
        if others:
            client.warn(
                'Other tasks created %ss named %r at the same time (%s); this task keeps '
                '%s, the oldest, and the tasks that made the others remove them.'
                % (label, name, ', '.join(others), mine['id']))
        return mine, False
    client.warn(
        'Another task created %s %r (%s) at the same time as this one; the %s this '
        'task created (%s) was deleted, and the task converged on %s instead.'
        % (label, name, keeper['id'], label, mine['id'], keeper['id']))
    remove(mine)
    return keeper, True


def pages(client, path, list_key, query=None, page_size=PAGE_SIZE):
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
        answer = client.get(path, query=page_query)
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


def list_all(client, path, list_key, query=None, page_size=PAGE_SIZE):
    """Every item of a listing, each once (see pages())."""
    return list(pages(client, path, list_key, query, page_size))


def list_messages(client, filters=None, limit=None, keep=None, past=None):
    """Manila's user messages (2.37+), newest first, paged (see pages()).

    ``filters`` are Manila's own (resource_id, resource_type, action_id,
    message_level, request_id, created_since/created_before at 2.52+).
    ``keep(message)`` filters on this side; ``past(message)`` says the
    listing (newest first) has gone past what is wanted, ending it early.
    At most ``limit`` messages (None: all); without ``keep`` and ``past``
    the page asked for is ``limit`` long, so that a full first page is the
    only request.
    """
    query = dict(filters or {})
    query.update(sort_key='created_at', sort_dir='desc')
    page_size = PAGE_SIZE
    if keep is None and past is None and limit is not None:
        page_size = min(limit, PAGE_SIZE)
    found = []
    if limit is not None and limit < 1:
        return found
    for message in pages(client, 'messages', 'messages', query, page_size):
        if past is not None and past(message):
            return found
        if keep is None or keep(message):
            found.append(message)
            if limit is not None and len(found) >= limit:
                return found
    return found


def newest_messages(client, filters, limit):
    """Up to ``limit`` of Manila's newest user messages in one request (a
    page as long as the cloud's osapi_max_limit allows: enough to explain)."""
    query = dict(filters, sort_key='created_at', sort_dir='desc', limit=limit)
    return client.get('messages', query=query).get('messages', [])


# How far back a relative time reaches: "90s", "30m", "1h", "2d", "1w".
RELATIVE_TIME_RE = re.compile(r'^\s*(\d+)\s*([smhdw])\s*$')
TIME_UNITS = {'s': 'seconds', 'm': 'minutes', 'h': 'hours', 'd': 'days', 'w': 'weeks'}


def parse_time(value, option, now):
    """A task's point in time as an aware UTC datetime.

    ``value`` is a relative age ("1h": one hour before ``now``) or an ISO 8601
    timestamp (without a zone it is UTC).  InvalidInput names ``option``.
    """
    text = str(value).strip()
    match = RELATIVE_TIME_RE.match(text)
    if match:
        amount, unit = int(match.group(1)), match.group(2)
        return now - datetime.timedelta(**{TIME_UNITS[unit]: amount})
    try:
        moment = datetime.datetime.fromisoformat(text.replace('Z', '+00:00'))
    except ValueError:
        raise InvalidInput(
            '%s must be an ISO 8601 time such as 2026-01-31T08:00:00Z, or an age '
            'such as 30m, 1h, 2d or 1w (s, m, h, d, w), got %r.' % (option, value))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return moment.astimezone(datetime.timezone.utc)


def manila_time(moment):
    """An aware datetime as Manila's filters take it (UTC, RFC 3339)."""
    return moment.astimezone(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')


def created_at(resource):
    """A resource's ``created_at`` (naive UTC in Manila's answers), aware UTC."""
    moment = datetime.datetime.fromisoformat(str(resource['created_at']).replace('Z', '+00:00'))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return moment


def user_messages(client, resource_id, limit=3):
    """Manila's newest user messages for a resource, as one sentence (2.37+).

    These explain why an asynchronous operation failed ("No storage could be
    allocated for this share request..."). Empty when the cloud is too old.
    ``resource_id`` may be a list of IDs: the messages of each (one request each).
    """
    if not client.supports('user_messages'):
        return ''
    texts = []
    ids = [resource_id] if isinstance(resource_id, str) else list(resource_id)
    for one_id in ids:
        for message in newest_messages(client, {'resource_id': one_id}, limit):
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
