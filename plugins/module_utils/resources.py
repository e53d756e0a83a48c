# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Finding Manila resources by name or ID, and reading Manila's user messages.

A lookup by name is one request with a server-side filter, never a full
listing matched on the client.  A UUID-shaped value is an ID.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils.client import (
    ManilaError,
    NotFound,
    looks_like_uuid,
)

# kind -> (detail listing path, list key, item path, item key, label)
KINDS = {
    'share': ('shares/detail', 'shares', 'shares/%s', 'share', 'share'),
    'snapshot': ('snapshots/detail', 'snapshots', 'snapshots/%s', 'snapshot',
                 'share snapshot'),
    'share_network': ('share-networks/detail', 'share_networks',
                      'share-networks/%s', 'share_network', 'share network'),
}

PAGE_SIZE = 1000


class AmbiguousName(ManilaError):
    """More than one resource carries the name."""


def get_by_id(client, kind, resource_id, query=None):
    """The resource with this ID, or None when Manila says it does not exist."""
    _listing, _key, item_path, item_key, _label = KINDS[kind]
    try:
        return client.get(item_path % resource_id, query=query).get(item_key)
    except NotFound:
        return None


def list_by_name(client, kind, name, extra_filters=None):
    """Every resource of ``kind`` named exactly ``name`` (one filtered request)."""
    listing, list_key, _item, _key, _label = KINDS[kind]
    query = {'name': name}
    query.update(extra_filters or {})
    return client.get(listing, query=query).get(list_key, [])


def find(client, kind, name_or_id, extra_filters=None):
    """One resource by ID (UUID-shaped value) or exact name; None if absent.

    Several resources with the name: AmbiguousName listing their IDs.
    """
    if looks_like_uuid(name_or_id):
        return get_by_id(client, kind, name_or_id)
    matches = list_by_name(client, kind, name_or_id, extra_filters)
    return single(kind, name_or_id, matches)


def single(kind, name, matches):
    if not matches:
        return None
    if len(matches) > 1:
        raise AmbiguousName(
            '%d %ss are named %r (IDs: %s); use an ID to say which one.' % (
                len(matches), KINDS[kind][4], name,
                ', '.join(sorted(m['id'] for m in matches))))
    return matches[0]


def require(client, kind, name_or_id, extra_filters=None):
    """Like find(), but a missing resource is an error naming it."""
    found = find(client, kind, name_or_id, extra_filters)
    if found is None:
        raise NotFound('No %s with the name or ID %r was found.' % (
            KINDS[kind][4], name_or_id), status=404)
    return found


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
