# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Shares: the plan (desired vs actual, pure functions) and the share calls.

``plan_share`` answers "what must happen to this share" from the share
Manila shows (or None) and the desired state; ``ShareAPI`` sends it.  The
``share`` module and the fleet form use the same two.

Every write of ``ShareAPI`` goes through ``client.write_once``: a lost
answer or a 5xx is followed by a look at what Manila shows, never by a blind
second request.  A create is followed by ``settle_namesakes``: when other
tasks created the same name at the same moment, the oldest share stays and
the newer ones are removed by the tasks that made them.

What is not a share's own lives elsewhere: the metadata checks and changes
and the PUT body that snapshots share are metadata.py's, how a message names
a share (``share_label``) is lookups.py's, the statuses are states.py's.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    InvalidInput,
    WaitFailed,
)
from ansible_collections.openkeel.manila.plugins.module_utils.lookups import share_label
from ansible_collections.openkeel.manila.plugins.module_utils.metadata import (
    as_metadata_value,
    metadata_changes,
    metadata_to_send,
    normalize_metadata,
    send_metadata_plan,
    update_body,
    update_fields,
    user_metadata,
)
from ansible_collections.openkeel.manila.plugins.module_utils.resource import (
    NOTHING,
    Plan,
    ResourceAPI,
    apply_to_view,
    if_found,
    left_as_read,
)
from ansible_collections.openkeel.manila.plugins.module_utils.states import (
    SHARE_AVAILABLE,
    SHARE_CREATING_STATES,
    SHARE_ERROR_STATES,
    SHARE_LEAVING_STATES,
)
from ansible_collections.openkeel.manila.plugins.module_utils.values import too_long
from ansible_collections.openkeel.manila.plugins.module_utils.waiter import (
    GONE,
    wait_for_status,
    wait_until,
)

# The fields shown in a before/after diff.
DIFF_FIELDS = ('name', 'description', 'size', 'share_proto', 'share_type_name',
               'availability_zone', 'share_network_id', 'snapshot_id',
               'is_public', 'metadata', 'status')

# Plan actions.
CREATE = 'create'
UPDATE = 'update'
DELETE = 'delete'
SOFT_DELETE = 'soft_delete'
RESTORE = 'restore'

# Create options sent as they are when given (besides the required ones).
CREATE_OPTIONS = ('description', 'share_type', 'share_network_id', 'snapshot_id',
                  'availability_zone', 'is_public', 'scheduler_hints',
                  'mount_point_name')

# The protocols Manila knows (manila.common.constants.SUPPORTED_SHARE_PROTOCOLS);
# a cloud enables some of them.
SHARE_PROTOCOLS = ('NFS', 'CIFS', 'GLUSTERFS', 'HDFS', 'CEPHFS', 'MAPRFS')

# Fields that cannot change in place: (task option, share field).
IMMUTABLE_FIELDS = (('share_network', 'share_network_id'),
                    ('availability_zone', 'availability_zone'),
                    ('snapshot', 'snapshot_id'))


# -- what Manila would refuse ----------------------------------------------------

# The scheduler hints Manila knows (manila/share/api.py, the affinity filters and
# OnlyHostFilter); same_host and different_host hold share IDs, comma-separated.
SCHEDULER_HINTS = ('same_host', 'different_host', 'only_host')
SHARE_ID_HINTS = ('same_host', 'different_host')


def check_scheduler_hints(hints, option='scheduler_hints'):
    """InvalidInput for scheduler hints Manila would ignore or fail the share on."""
    if not hints:
        return
    unknown = sorted(str(k) for k in hints if k not in SCHEDULER_HINTS)
    if unknown:
        raise InvalidInput('%s: unknown hint(s) %s; Manila knows %s, and would ignore '
                           'any other.' % (option, ', '.join(unknown), ', '.join(SCHEDULER_HINTS)))
    for key in SHARE_ID_HINTS:
        value = hints.get(key)
        if value is None:
            continue
        items = value.split(',') if isinstance(value, str) else None
        if not items or not all(lookups.looks_like_uuid(i.strip()) for i in items):
            raise InvalidInput(
                '%s.%s must be the ID of a share, or several separated by commas (not '
                'names), got %r; the scheduler puts no share beside an unknown one and '
                'the share goes to error.' % (option, key, value))
    only_host = hints.get('only_host')
    if only_host is not None and not (isinstance(only_host, str) and only_host.strip()):
        raise InvalidInput('%s.only_host must be a pool name (host@backend#pool), got %r.'
                           % (option, only_host))


def check_share_input(share_proto=None, name=None, description=None, metadata=None,
                      scheduler_hints=None):
    """What Manila would refuse in a share's fields, before any request."""
    if share_proto is not None and share_proto.upper() not in SHARE_PROTOCOLS:
        raise InvalidInput('share_proto %r is not a protocol Manila knows: %s.'
                           % (share_proto, ', '.join(SHARE_PROTOCOLS)))
    problem = too_long([('name', name), ('description', description)])
    if problem:
        raise InvalidInput(problem)
    normalize_metadata(metadata)
    check_scheduler_hints(scheduler_hints)


# Options that apply with one state only: (option, state).
ONE_STATE_OPTIONS = (('soft_delete', 'absent'), ('restore', 'present'),
                     ('delete_snapshots', 'absent'))


def share_input_problems(p, one_state=ONE_STATE_OPTIONS):
    """What Manila would refuse in a ``share`` task's or a ``shares``
    entry's fields, before any request: one sentence naming the option per
    problem, in order (the metadata is normalize_metadata's).
    ``one_state``: the options of one state that ``p`` has."""
    if p['size'] is not None and p['size'] < 1:
        yield 'size must be at least 1 (GiB), got %s.' % p['size']
    for option, state in one_state:
        if p[option] and p['state'] != state:
            yield '%s only applies with state=%s.' % (option, state)
    try:
        check_share_input(p['share_proto'], p['name'], p['description'],
                          scheduler_hints=p.get('scheduler_hints'))
    except InvalidInput as exc:
        yield exc.message


def check_share_task(p):
    """The options of a ``share`` task, checked before any request."""
    for problem in share_input_problems(p):
        raise InvalidInput(problem)
    normalize_metadata(p['metadata'])


# -- what cannot change --------------------------------------------------------

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
    for option, field in IMMUTABLE_FIELDS:
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


# -- request bodies --------------------------------------------------------------

def create_body(desired):
    """The POST /shares body: the required fields and every option given."""
    body = {
        'share_proto': desired['share_proto'].upper(),
        'size': desired['size'],
        'name': desired['name'],
    }
    body.update((k, desired[k]) for k in CREATE_OPTIONS if desired.get(k) is not None)
    metadata = metadata_to_send(normalize_metadata(desired.get('metadata')))
    if metadata:
        body['metadata'] = metadata
    return body


# -- views -------------------------------------------------------------------------

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
    after = apply_to_view(diff_view(share), update, metadata_set, metadata_delete)
    if size is not None:
        after['size'] = size
    return after


def sort_export_locations(locations):
    """Preferred export locations first (2.14+), then as Manila listed them."""
    return sorted(locations, key=lambda loc: not loc.get('preferred', False))


def racing(namesakes):
    """True when some of several namesakes are still being created or deleted:
    tasks racing for the name, not a standing ambiguity."""
    return any(s.get('status') in SHARE_CREATING_STATES
               or s.get('status') in SHARE_LEAVING_STATES for s in namesakes)


# -- the plan ----------------------------------------------------------------------

class SharePlan(Plan):
    """What to do to one share, and the diff it makes.

    ``action`` is one of create, update, nothing, delete, soft_delete,
    restore; ``body`` the create body; ``update`` the PUT body;
    ``new_size`` a resize; ``metadata_set``/``metadata_delete`` the metadata
    changes; ``snapshots`` the share's snapshots to delete before it;
    ``before``/``after`` the diff views.
    """

    def __init__(self, action, before=None, after=None, body=None, update=None,
                 new_size=None, metadata_set=None, metadata_delete=None):
        super(SharePlan, self).__init__(action, before, after)
        self.body = body
        self.update = update or {}
        self.new_size = new_size
        self.metadata_set = metadata_set or {}
        self.metadata_delete = metadata_delete or []
        self.snapshots = []


def check_convergeable(share):
    """Refuse a share in an error state (it cannot be changed, only deleted)."""
    status = share.get('status')
    if status in SHARE_ERROR_STATES:
        raise CannotConverge(
            '%s is in status %s and cannot be converged. Delete it (state=absent) '
            'and create it again, or ask an admin to repair it.' % (share_label(share), status))


def check_create_options(desired, options=('name', 'share_proto', 'size')):
    """Fail for the first of ``options`` that a create needs and the task lacks."""
    for option in options:
        if not desired.get(option):
            raise InvalidInput('%s is required to create a share.' % option)


def plan_create(desired):
    """Create a share; ``desired`` has the references resolved (IDs)."""
    check_create_options(desired)
    body = create_body(desired)
    after = diff_view(dict(body, share_type_name=desired.get('share_type'),
                           status='available'))
    return SharePlan(CREATE, before={}, after=after, body=body)


def plan_update(share, desired, purge_metadata=False, rename=False):
    """Bring an existing share (at rest, not in error) to ``desired``.

    ``rename``: ``desired['name']`` is the name the share should have (the
    task identified it by ID); otherwise the name only identified it.
    """
    check_convergeable(share)
    differences = immutable_differences(share, desired)
    if differences:
        raise InvalidInput(immutable_error(share, differences))
    update = update_body(share, name=desired.get('name') if rename else None,
                         description=desired.get('description'),
                         is_public=desired.get('is_public'))
    size = desired.get('size')
    new_size = size if size not in (None, share['size']) else None
    md_set, md_delete = {}, []
    if desired.get('metadata') is not None:
        md_set, md_delete = metadata_changes(share.get('metadata'), desired['metadata'],
                                             purge_metadata)
    action = UPDATE if (update or new_size or md_set or md_delete) else NOTHING
    return SharePlan(action, before=diff_view(share),
                     after=predicted_after(share, update, new_size, md_set, md_delete),
                     update=update, new_size=new_size, metadata_set=md_set,
                     metadata_delete=md_delete)


def plan_restore(share, restore):
    """A share in the recycle bin that the task wants present."""
    if not restore:
        raise CannotConverge(
            '%s is in the recycle bin (soft-deleted). Set restore=true to bring it '
            'back, or delete it for good with state=absent and its id.' % share_label(share))
    return SharePlan(RESTORE, before=diff_view(share),
                     after=diff_view(dict(share, is_soft_deleted=False)))


def plan_absent(share, soft_delete=False):
    """Delete the share, or move it to the recycle bin."""
    if share is None or (soft_delete and share.get('is_soft_deleted')):
        return SharePlan(NOTHING, before=diff_view(share), after=diff_view(share))
    return SharePlan(SOFT_DELETE if soft_delete else DELETE, before=diff_view(share), after={})


# -- calls -------------------------------------------------------------------------

class ResizeWatch(object):
    """Whether a resize is over, judged on the share as each poll reads it.

    Done: the share is ready at its new size.  Refused: it is ready at
    another size on two reads in a row; a scheduler that finds no room for an
    extend puts the share back to available at its old size, with a user
    message.  One such read alone is not enough: Manila 2023.2 and older can
    show a share's new status with its old size for a moment (the share and
    its instance are read in two queries while the resize is written), so a
    wait that trusted the status alone returned the old size.  Anything
    else: not yet."""

    def __init__(self, new_size, ready=(SHARE_AVAILABLE,)):
        self.new_size = new_size
        self.ready = frozenset(ready)
        self.stale_reads = 0

    def done(self, share):
        return (share is not None and share.get('status') in self.ready
                and share.get('size') == self.new_size)

    def refused(self, share):
        """Words for a resize Manila did not make, or None (after each read)."""
        if share.get('status') not in self.ready or share.get('size') == self.new_size:
            self.stale_reads = 0
            return None
        self.stale_reads += 1
        if self.stale_reads < 2:
            return None
        return ('is %s at %s GiB, not %s GiB: Manila did not resize it'
                % (share.get('status'), share.get('size'), self.new_size))


class ShareAPI(ResourceAPI):
    """The share calls: the shared ones (resource.ResourceAPI), and resize,
    soft delete, restore and export locations."""

    kind = 'share'
    racing = staticmethod(racing)
    update_shown = staticmethod(update_fields)

    def recycled_namesakes(self, name):
        """Every share in the recycle bin named exactly ``name`` (one request)."""
        return lookups.list_by_name(self.client, 'share', name, {'is_soft_deleted': 'true'})

    def find_by_name(self, name, soft_deleted=False):
        """The share named ``name``, or None; AmbiguousName for several.

        Several namesakes of which some are still being created or deleted
        are other tasks racing for the name (see settle_namesakes): the
        lookup waits (up to the timeout) until they settle, then decides.
        """
        if soft_deleted:
            return lookups.single('share', name, self.recycled_namesakes(name))
        return self.find_named(name)

    def default_share_type(self):
        return (if_found(self.client.get, 'types/default') or {}).get('share_type')

    def remove_namesake(self, resource, wait=True):
        """A newer namesake of this task's is deleted once it is at rest, so
        that no storage is left behind (remove_own)."""
        self.remove_own(resource)
        if wait:
            self.wait_gone(resource)

    def remove_own(self, share):
        """Delete a share this task just made, once it is at rest (never while
        it is being created: that would leave storage behind)."""
        at_rest = frozenset(self.states.ready) | self.states.error
        if share.get('status') not in at_rest:
            share = wait_for_status(
                self.client, lambda: self.get(share['id']), at_rest | frozenset([GONE]), (),
                share_label(share), self.timeout)
            if share is None:
                return
        if_found(self.delete, share['id'])

    def resize(self, share_id, new_size, current_size):
        action = 'extend' if new_size > current_size else 'shrink'

        def applied():
            share = self.get(share_id) or {}
            busy = 'extending' if action == 'extend' else 'shrinking'
            return True if share.get('size') == new_size or share.get('status') == busy else None
        self.client.write_once(
            lambda: self.client.action('shares/%s' % share_id, action, {'new_size': new_size}),
            applied, 'the %s of share %s to %s GiB' % (action, share_id, new_size))

    def wait_resized(self, share, new_size):
        """Wait until a resized share is ready at ``new_size`` (ResizeWatch):
        an error state, or Manila leaving the share at another size, fails
        the wait with Manila's user messages about it."""
        watch = ResizeWatch(new_size, self.states.ready)

        def failure(found):
            if found.get('status') in self.states.error:
                return 'went to %s' % found.get('status')
            return watch.refused(found)
        try:
            return wait_until(self.client, lambda: self.get(share['id']), watch.done,
                              self.label(share), 'a size of %s GiB' % new_size, self.timeout,
                              failure=failure, describe=lambda found: found.get('status'),
                              explain=self.explainer(share))
        except WaitFailed as exc:
            raise left_as_read(exc, self.kind)

    def soft_delete(self, share_id):
        def applied():
            share = self.get(share_id)
            return True if share is None or share.get('is_soft_deleted') else None
        self.client.write_once(
            lambda: self.client.action('shares/%s' % share_id, 'soft_delete', None,
                                       feature='soft_delete'),
            applied, 'moving share %s to the recycle bin' % share_id)

    def restore(self, share_id):
        def applied():
            share = self.get(share_id)
            return True if share is not None and not share.get('is_soft_deleted') else None
        self.client.write_once(
            lambda: self.client.action('shares/%s' % share_id, 'restore', None,
                                       feature='soft_delete'),
            applied, 'the restore of share %s' % share_id)

    def export_locations(self, share_id):
        body = self.client.get('shares/%s/export_locations' % share_id)
        return sort_export_locations(body.get('export_locations', []))

    def apply_update(self, share, plan):
        """Send an update plan's PUT, metadata and resize; return the share as
        Manila now has it, without waiting for a resize to finish."""
        share_id = share['id']
        if plan.update:
            # Manila answers a PUT with the whole share: no read-back needed.
            share = self.update(share_id, plan.update)
        share = send_metadata_plan(self, share, plan)
        if plan.new_size:
            self.resize(share_id, plan.new_size, share['size'])
            share = dict(share, status='extending' if plan.new_size > share['size']
                         else 'shrinking')
        return share


# -- many shares at once (the fleet form) ------------------------------------------
# The fleet module plans each share with the functions above; these helpers only
# add what a list of shares needs: matching against one listing, the ownership
# marker and what purge would delete.

def marker_items(marker):
    """The ownership marker as metadata items ({} when there is none)."""
    if not marker:
        return {}
    return {str(marker['key']): as_metadata_value(marker['value'])}


def with_marker(metadata, marker):
    """The metadata a task wants, plus the marker; None stays None without a marker."""
    items = marker_items(marker)
    if not items:
        return metadata
    return dict(metadata or {}, **items)


def carries_marker(share, marker):
    """True when the share's metadata holds the marker's key with its value."""
    items = marker_items(marker)
    metadata = share.get('metadata') or {}
    return bool(items) and all(metadata.get(k) == v for k, v in items.items())


def match_in_listing(listing, name=None, share_id=None):
    """The share of a listing with this ID, or the one with this name.

    None when there is none; AmbiguousName (listing the IDs) when two shares
    carry the name.
    """
    if share_id:
        for share in listing:
            if share['id'] == share_id:
                return share
        return None
    return lookups.single('share', name, [s for s in listing if s.get('name') == name])


def purge_candidates(listing, marker, listed_names, listed_ids):
    """The shares purge deletes: they carry the marker and the task names none of them.

    A share whose name or ID the task lists is never a candidate, even when
    its entry failed (two shares with one name, for example).
    """
    return [s for s in listing
            if carries_marker(s, marker) and s['id'] not in listed_ids
            and s.get('name') not in listed_names]


def export_paths(locations):
    """The paths a client mounts: preferred first, admin-only ones left out.

    Members never see admin-only locations, nor the ``is_admin_only`` field.
    """
    return [loc['path'] for loc in sort_export_locations(locations or [])
            if not loc.get('is_admin_only') and loc.get('path')]


def check_create_features(client, params):
    """The create options this cloud's microversion must offer."""
    if params['scheduler_hints']:
        client.require('scheduler_hints', 'scheduler_hints')
        if 'only_host' in params['scheduler_hints']:
            client.require('only_host_hint', 'The only_host scheduler hint')
    if params['mount_point_name']:
        client.require('mount_point_name', 'mount_point_name')
