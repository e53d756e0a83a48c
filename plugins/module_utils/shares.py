# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Shares: desired-vs-actual as pure functions, plus the share calls."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

try:
    from urllib.parse import quote
except ImportError:  # pragma: no cover - Python 2 is not supported
    from urllib import quote

from ansible_collections.openkeel.manila.plugins.module_utils import resources
from ansible_collections.openkeel.manila.plugins.module_utils.client import (
    NotFound,
    looks_like_uuid,
)
from ansible_collections.openkeel.manila.plugins.module_utils.states import (
    SHARE_BUSY_STATES,
    SHARE_ERROR_STATES,
)
from ansible_collections.openkeel.manila.plugins.module_utils.waiter import (
    GONE,
    wait_for,
)

# Keys Manila sets for itself (scheduler affinity and the like).
RESERVED_METADATA_PREFIX = '__'

# The fields shown in a before/after diff.
DIFF_FIELDS = ('name', 'description', 'size', 'share_proto', 'share_type_name',
               'availability_zone', 'share_network_id', 'snapshot_id',
               'is_public', 'metadata', 'status')


# -- pure functions: what differs and what to send ----------------------------

def user_metadata(metadata):
    """The metadata keys a user owns (Manila's ``__`` keys left out)."""
    return dict((k, v) for k, v in (metadata or {}).items()
                if not k.startswith(RESERVED_METADATA_PREFIX))


def metadata_changes(current, desired, purge):
    """(keys to set with their values, keys to delete) to reach ``desired``.

    Values are compared as Manila stores them: strings.  Reserved ``__`` keys
    are never set or deleted.
    """
    current = user_metadata(current)
    desired = dict((str(k), _as_metadata_value(v)) for k, v in (desired or {}).items())
    reserved = sorted(k for k in desired if k.startswith(RESERVED_METADATA_PREFIX))
    if reserved:
        raise ValueError('metadata keys starting with "__" are reserved for '
                         'Manila and cannot be set here: %s' % ', '.join(reserved))
    to_set = dict((k, v) for k, v in desired.items() if current.get(k) != v)
    to_delete = sorted(k for k in current if k not in desired) if purge else []
    return to_set, to_delete


def _as_metadata_value(value):
    if isinstance(value, bool):
        return 'True' if value else 'False'
    return str(value)


def same_share_type(share, wanted):
    """True when ``wanted`` (a name or an ID) is the share's type."""
    return wanted in (share.get('share_type'), share.get('share_type_name'))


def immutable_differences(share, desired):
    """[(option, current, wanted)] for fields that cannot change in place.

    ``desired`` holds share_proto, share_type, share_network_id,
    availability_zone and snapshot_id (None: not asked for).
    """
    found = []
    proto = desired.get('share_proto')
    if proto and proto.upper() != (share.get('share_proto') or '').upper():
        found.append(('share_proto', share.get('share_proto'), proto))
    share_type = desired.get('share_type')
    if share_type and not same_share_type(share, share_type):
        found.append(('share_type', share.get('share_type_name') or share.get('share_type'),
                      share_type))
    for option, field in (('share_network', 'share_network_id'),
                          ('availability_zone', 'availability_zone'),
                          ('snapshot', 'snapshot_id')):
        wanted = desired.get(field)
        if wanted and wanted != share.get(field):
            found.append((option, share.get(field), wanted))
    return found


def immutable_error(share, differences):
    details = '; '.join('%s is %r, the task asks for %r' % d for d in differences)
    hint = ''
    if any(d[0] in ('share_type', 'share_network') for d in differences):
        hint = (' To move a share to another type, network or backend, use '
                'openkeel.manila.share_migration.')
    return ('Share %s (%s) cannot be changed in place: %s. Delete and re-create '
            'it, or change the task.%s' % (share.get('name'), share['id'],
                                           details, hint))


def update_body(share, name=None, description=None, is_public=None):
    """The PUT /shares/{id} body for what differs (Manila's display_* keys)."""
    body = {}
    if name is not None and name != share.get('name'):
        body['display_name'] = name
    if description is not None and description != (share.get('description') or ''):
        body['display_description'] = description
    if is_public is not None and bool(is_public) != bool(share.get('is_public')):
        body['is_public'] = is_public
    return body


def create_body(params, share_type=None, share_network_id=None, snapshot_id=None):
    body = {
        'share_proto': params['share_proto'].upper(),
        'size': params['size'],
        'name': params['name'],
    }
    optional = {
        'description': params.get('description'),
        'share_type': share_type,
        'share_network_id': share_network_id,
        'snapshot_id': snapshot_id,
        'availability_zone': params.get('availability_zone'),
        'is_public': params.get('is_public'),
        'scheduler_hints': params.get('scheduler_hints'),
        'mount_point_name': params.get('mount_point_name'),
    }
    body.update((k, v) for k, v in optional.items() if v is not None)
    metadata = params.get('metadata')
    if metadata:
        body['metadata'] = metadata_changes({}, metadata, False)[0]
    return body


def diff_view(share):
    """The part of a share shown in diff mode (``{}`` for no share)."""
    if not share:
        return {}
    view = dict((k, share.get(k)) for k in DIFF_FIELDS)
    view['metadata'] = user_metadata(share.get('metadata'))
    return view


def predicted_after(share, update=None, size=None, metadata_set=None,
                    metadata_delete=None):
    """What the share will look like after the planned changes (for diffs)."""
    after = diff_view(share)
    update = update or {}
    if 'display_name' in update:
        after['name'] = update['display_name']
    if 'display_description' in update:
        after['description'] = update['display_description']
    if 'is_public' in update:
        after['is_public'] = update['is_public']
    if size is not None:
        after['size'] = size
    metadata = dict(after['metadata'])
    metadata.update(metadata_set or {})
    for key in metadata_delete or []:
        metadata.pop(key, None)
    after['metadata'] = metadata
    return after


def sort_export_locations(locations):
    """Preferred export locations first (2.14+), then as Manila listed them."""
    return sorted(locations, key=lambda loc: not loc.get('preferred', False))


# -- calls ------------------------------------------------------------------

class ShareAPI(object):
    def __init__(self, client, timeout=180):
        self.client = client
        self.timeout = timeout

    def get(self, share_id):
        return resources.get_by_id(self.client, 'share', share_id)

    def find(self, name_or_id):
        return resources.find(self.client, 'share', name_or_id)

    def find_by_name(self, name, soft_deleted=False):
        extra = {'is_soft_deleted': 'true'} if soft_deleted else None
        return resources.single('share', name, resources.list_by_name(
            self.client, 'share', name, extra))

    def default_share_type(self):
        try:
            return self.client.get('types/default').get('share_type')
        except NotFound:
            return None

    def resolve_id(self, kind, name_or_id):
        """The ID of a share network or snapshot named by name or ID."""
        if looks_like_uuid(name_or_id):
            return name_or_id
        return resources.require(self.client, kind, name_or_id)['id']

    def create(self, body):
        return self.client.post('shares', {'share': body})['share']

    def update(self, share_id, body):
        return self.client.put('shares/%s' % share_id, {'share': body})['share']

    def set_metadata(self, share_id, items):
        self.client.post('shares/%s/metadata' % share_id, {'metadata': items})

    def delete_metadata_key(self, share_id, key):
        self.client.delete('shares/%s/metadata/%s' % (share_id, quote(key, safe='')))

    def resize(self, share_id, new_size, current_size):
        action = 'extend' if new_size > current_size else 'shrink'
        self.client.action('shares/%s' % share_id, action, {'new_size': new_size})

    def delete(self, share_id):
        self.client.delete('shares/%s' % share_id)

    def soft_delete(self, share_id):
        self.client.action('shares/%s' % share_id, 'soft_delete', None,
                           feature='soft_delete')

    def restore(self, share_id):
        self.client.action('shares/%s' % share_id, 'restore', None,
                           feature='soft_delete')

    def export_locations(self, share_id):
        body = self.client.get('shares/%s/export_locations' % share_id)
        return sort_export_locations(body.get('export_locations', []))

    def wait(self, share, targets=('available',), what=None):
        share_id = share['id']
        label = what or 'Share %s (%s)' % (share.get('name'), share_id)
        return wait_for(
            fetch=lambda: self.get(share_id),
            targets=targets,
            errors=SHARE_ERROR_STATES,
            timeout=self.timeout,
            what=label,
            explain=lambda _share: resources.user_messages(self.client, share_id),
        )

    def wait_gone(self, share):
        return self.wait(share, targets=(GONE,))

    def wait_until_settled(self, share):
        """Wait while the share is busy (creating, extending, ...)."""
        if share.get('status') in SHARE_BUSY_STATES:
            return self.wait(share)
        return share
