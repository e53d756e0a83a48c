# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Share snapshots: the plan (desired vs actual, pure functions) and the calls.

The ``plan_*`` functions answer "what must happen to this snapshot" from what
Manila shows and the task; ``SnapshotAPI`` sends it.  The hooks of the
``share_snapshot`` module (tasks/snapshot.py) use both, and those of the
``share`` module ask ``plan_share_snapshots`` whether a share's snapshots stand
in the way of its deletion.

A revert is recorded on the snapshot, in its metadata key ``REVERT_MARKER``
(API 2.73+): Manila keeps no trace of a revert, and without one a second run
would revert again and throw away what was written since.  Only a revert seen
finished is recorded there: one the task did not see to its end (``wait``
false, or a wait that ran out of time) is recorded as requested
(``REVERT_REQUESTED``), and a later run finds out what became of it
(``requested_revert_outcome``, ``SnapshotAPI.follow_revert_request``).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils import manila_messages
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    Conflict,
    InvalidInput,
    WaitTimeout,
    reword,
    same_details,
)
from ansible_collections.openkeel.manila.plugins.module_utils.lookups import share_label
from ansible_collections.openkeel.manila.plugins.module_utils.metadata import (
    metadata_changes,
    metadata_to_send,
    normalize_metadata,
    send_metadata_plan,
    update_body,
    update_fields,
    user_metadata,
)
from ansible_collections.openkeel.manila.plugins.module_utils.shares import ShareAPI
from ansible_collections.openkeel.manila.plugins.module_utils.kinds import snapshot_label
from ansible_collections.openkeel.manila.plugins.module_utils.resource import (
    NOTHING,
    Plan,
    ResourceAPI,
    apply_to_view,
    if_found,
)
from ansible_collections.openkeel.manila.plugins.module_utils.states import (
    ACCESS_RULES_STATUS_ACTIVE,
    SHARE_BUSY_STATES,
    SHARE_ERROR_STATES,
    SHARE_REVERT_FAILED,
    SHARE_REVERTING_STATES,
    SNAPSHOT_AVAILABLE,
    SNAPSHOT_BUSY_STATES,
    SNAPSHOT_DEFERRED_DELETE_STATES,
    SNAPSHOT_DELETABLE_STATES,
    SNAPSHOT_ERROR_STATES,
    SNAPSHOT_LEAVING_STATES,
    SNAPSHOT_RESTORING,
)
from ansible_collections.openkeel.manila.plugins.module_utils.waiter import wait_until

# The snapshot metadata key that records a revert to the snapshot (UTC time),
# written once the revert was seen finished.
REVERT_MARKER = 'openkeel_reverted_at'
# The key that records a revert Manila accepted and no run has seen finished yet
# (UTC time of the request).
REVERT_REQUESTED = 'openkeel_revert_requested_at'
# The keys state=reverted keeps; no task sets or purges them.
REVERT_KEYS = (REVERT_MARKER, REVERT_REQUESTED)
# Manila's user message action of a revert (manila/message/message_field.py).
REVERT_ACTION_ID = '006'
# What a later run makes of a requested revert.
REVERT_IN_PROGRESS = 'in progress'
REVERT_FAILED = 'failed'
REVERT_FINISHED = 'finished'

# The fields shown in a before/after diff.
DIFF_FIELDS = ('name', 'description', 'share_id', 'size', 'status')

# Plan actions.
CREATE = 'create'
UPDATE = 'update'
DELETE = 'delete'
REVERT = 'revert'


def names_and_ids(snapshots):
    """Names and IDs for a message, newest first: 'a (id), b (id)'."""
    return ', '.join('%s (%s)' % (s.get('name'), s['id']) for s in newest_first(snapshots))


# -- metadata ------------------------------------------------------------------

def task_metadata(metadata):
    """Snapshot metadata a task may set: the share's rules, and not the revert marker."""
    normalized = normalize_metadata(metadata)
    for key in REVERT_KEYS:
        if key in normalized:
            raise InvalidInput('metadata key %s is kept by state=reverted (it records a '
                               'revert); leave it out of metadata.' % key)
    return normalized


def snapshot_metadata_changes(snapshot, desired, purge):
    """(keys to set, keys to delete); Manila's ``__`` keys and the marker are kept."""
    current = dict((k, v) for k, v in user_metadata(snapshot.get('metadata')).items()
                   if k not in REVERT_KEYS)
    return metadata_changes(current, task_metadata(desired), purge)


def reverted_at(snapshot):
    """When this collection reverted the share to the snapshot (None: never)."""
    return (snapshot.get('metadata') or {}).get(REVERT_MARKER)


def revert_requested_at(snapshot):
    """When Manila accepted a revert to the snapshot that no run has seen
    finished yet (None: there is none)."""
    return (snapshot.get('metadata') or {}).get(REVERT_REQUESTED)


def requested_revert_outcome(share, snapshot):
    """What became of a requested revert, from the share and the snapshot.

    In progress while the share is reverting (or the snapshot restoring);
    failed when the share is in reverting_error (Manila's manager sets it when
    the driver fails); finished otherwise (a failure Manila reported and an
    admin repaired since is found in its user messages: ``revert_failures``).
    """
    if (share.get('status') in SHARE_REVERTING_STATES
            or snapshot.get('status') == SNAPSHOT_RESTORING):
        return REVERT_IN_PROGRESS
    if share.get('status') == SHARE_REVERT_FAILED:
        return REVERT_FAILED
    return REVERT_FINISHED


# -- views ---------------------------------------------------------------------

def diff_view(snapshot):
    """The part of a snapshot shown in diff mode (``{}`` for none)."""
    if not snapshot:
        return {}
    view = dict((k, snapshot.get(k)) for k in DIFF_FIELDS)
    metadata = user_metadata(snapshot.get('metadata'))
    view['reverted'] = metadata.pop(REVERT_MARKER, None) is not None
    view['revert_requested'] = metadata.pop(REVERT_REQUESTED, None) is not None
    view['metadata'] = metadata
    return view


def predicted_after(snapshot, update=None, metadata_set=None, metadata_delete=None):
    """What the snapshot will look like after the planned changes (for diffs)."""
    return apply_to_view(diff_view(snapshot), update, metadata_set, metadata_delete)


def order_key(snapshot):
    """Manila's order for "latest" (created_at, then ID; both compare as text)."""
    return (str(snapshot.get('created_at') or ''), snapshot['id'])


def newest_first(snapshots):
    """Snapshots newest first, as Manila orders them to find the latest."""
    return sorted(snapshots, key=order_key, reverse=True)


def latest_snapshot(snapshots):
    """The snapshot Manila reverts a share to: its newest, deferred deletions left out."""
    candidates = [s for s in snapshots
                  if s.get('status') not in SNAPSHOT_DEFERRED_DELETE_STATES]
    return newest_first(candidates)[0] if candidates else None


# -- the plan ------------------------------------------------------------------------

class SnapshotPlan(Plan):
    """What to do to one snapshot, and the diff it makes.

    ``action`` is create, update, nothing, delete or revert; ``body`` the
    create body; ``update`` the PUT body; ``metadata_set``/``metadata_delete``
    the metadata changes (also with a revert, which can come with them);
    ``record_revert`` whether the revert is written to the marker.
    """

    def __init__(self, action, before=None, after=None, body=None, update=None,
                 metadata_set=None, metadata_delete=None, record_revert=False):
        super(SnapshotPlan, self).__init__(action, before, after)
        self.body = body
        self.update = update or {}
        self.metadata_set = metadata_set or {}
        self.metadata_delete = metadata_delete or []
        self.record_revert = record_revert


def check_share_can_snapshot(share):
    """Refuse, before any write, a share Manila would not snapshot."""
    if not share.get('snapshot_support', True):
        raise InvalidInput(
            '%s cannot be snapshotted: it was created from a share type without '
            'snapshot_support=True (%s). A share keeps the capabilities its type had '
            'when it was created.' % (share_label(share), share.get('share_type_name')))
    if share.get('is_soft_deleted'):
        raise InvalidInput('%s is in the recycle bin; Manila snapshots no share there. '
                           'Restore it first (openkeel.manila.share restore=true).'
                           % share_label(share))
    if share.get('status') in SHARE_ERROR_STATES:
        raise CannotConverge('%s is in status %s; Manila snapshots only an available share.'
                             % (share_label(share), share.get('status')))


def plan_create(share, desired):
    """Snapshot ``share``; ``desired`` holds name, description, metadata."""
    if not desired.get('name'):
        raise InvalidInput('name is required to create a snapshot.')
    check_share_can_snapshot(share)
    body = {'share_id': share['id'], 'name': desired['name']}
    if desired.get('description') is not None:
        body['description'] = desired['description']
    metadata = metadata_to_send(task_metadata(desired.get('metadata')))
    if metadata:
        body['metadata'] = metadata
    after = diff_view(dict(body, status=SNAPSHOT_AVAILABLE, size=share.get('size')))
    return SnapshotPlan(CREATE, before={}, after=after, body=body)


def check_convergeable(snapshot):
    status = snapshot.get('status')
    if status in SNAPSHOT_ERROR_STATES:
        raise CannotConverge(
            '%s is in status %s and cannot be changed. Delete it (state=absent) and take '
            'it again, or ask an admin to repair it.' % (snapshot_label(snapshot), status))


def plan_update(snapshot, desired, purge_metadata=False, rename=False):
    """Bring an existing snapshot (at rest, not in error) to ``desired``."""
    check_convergeable(snapshot)
    update = update_body(snapshot, name=desired.get('name') if rename else None,
                         description=desired.get('description'))
    md_set, md_delete = {}, []
    if desired.get('metadata') is not None:
        md_set, md_delete = snapshot_metadata_changes(snapshot, desired['metadata'],
                                                      purge_metadata)
    action = UPDATE if (update or md_set or md_delete) else NOTHING
    return SnapshotPlan(action, before=diff_view(snapshot),
                        after=predicted_after(snapshot, update, md_set, md_delete),
                        update=update, metadata_set=md_set, metadata_delete=md_delete)


def plan_absent(snapshot):
    if snapshot is None:
        return SnapshotPlan(NOTHING)
    status = snapshot.get('status')
    if status not in SNAPSHOT_DELETABLE_STATES and status not in SNAPSHOT_BUSY_STATES:
        raise CannotConverge(
            '%s is in status %s, in which Manila deletes no snapshot; an admin can '
            'force-delete it (openstack share snapshot delete --force).'
            % (snapshot_label(snapshot), status))
    return SnapshotPlan(DELETE, before=diff_view(snapshot), after={})


def check_revertable(share, snapshot, snapshots):
    """Refuse, before any write, a revert Manila would refuse (the ones it can see)."""
    if snapshot['share_id'] != share['id']:
        raise InvalidInput('%s belongs to share %s, not to %s.' % (
            snapshot_label(snapshot), snapshot['share_id'], share_label(share)))
    if not share.get('revert_to_snapshot_support'):
        raise InvalidInput(
            '%s cannot be reverted to a snapshot: it was created from a share type '
            'without revert_to_snapshot_support=True (%s). A share keeps the capabilities '
            'its type had when it was created.' % (share_label(share),
                                                   share.get('share_type_name')))
    latest = latest_snapshot(snapshots)
    if latest is not None and latest['id'] != snapshot['id']:
        newer = [s for s in newest_first(snapshots)
                 if order_key(s) > order_key(snapshot)
                 and s.get('status') not in SNAPSHOT_DEFERRED_DELETE_STATES]
        raise InvalidInput(
            'Manila only reverts a share to its latest snapshot. The latest snapshot of '
            'share %s (%s) is %s (%s), taken %s; snapshot %s (%s) is older. To go further '
            'back, delete the newer snapshots first (this discards them): %s.' % (
                share.get('name'), share['id'], latest.get('name'), latest['id'],
                latest.get('created_at'), snapshot.get('name'), snapshot['id'],
                names_and_ids(newer)))
    if share.get('status') in SHARE_ERROR_STATES:
        raise CannotConverge('%s is in status %s; Manila reverts only an available share.'
                             % (share_label(share), share.get('status')))
    rules = share.get('access_rules_status')
    if rules is not None and rules not in ACCESS_RULES_STATUS_ACTIVE:
        raise CannotConverge(
            '%s has access rules in status %s; Manila reverts a share only while its '
            'rules are active. Fix the rules (openkeel.manila.share_access) and run again.'
            % (share_label(share), rules))


def needs_revert(snapshot, always=False):
    """False when the marker says the share was reverted to the snapshot (and
    the task does not ask for a revert on every run)."""
    return always or not reverted_at(snapshot)


def plan_revert(share, snapshot, snapshots, always=False, base=None, wait=True):
    """Revert ``share`` to ``snapshot`` unless the marker says it was done.

    ``snapshots`` are every snapshot of the share (to find the latest);
    ``always`` reverts even when the marker is there; ``base`` is the plan of
    the snapshot's other changes (name, metadata), kept in the result.
    Without ``wait`` the revert is recorded as requested, not as done.
    """
    base = base or plan_update(snapshot, {})
    if not needs_revert(snapshot, always):
        return base
    check_revertable(share, snapshot, snapshots)
    record = dict(reverted=True, revert_requested=False) if wait else dict(revert_requested=True)
    return SnapshotPlan(REVERT, before=base.before,
                        after=dict(base.after, **record),
                        update=base.update, metadata_set=base.metadata_set,
                        metadata_delete=base.metadata_delete, record_revert=True)


# -- a share's snapshots, when the share is deleted --------------------------------------

def plan_share_snapshots(share, snapshots, delete_snapshots):
    """The snapshots to delete before ``share``; refuses when the task did not allow it.

    Returns [] for a share without snapshots.  Every snapshot must be in a
    status Manila deletes (or on its way to one): checked before any write.
    """
    if not snapshots:
        return []
    if not delete_snapshots:
        raise InvalidInput(
            '%s has %d snapshot(s): %s. Manila deletes no share that has snapshots: set '
            'delete_snapshots=true to delete them first, or delete them with '
            'openkeel.manila.share_snapshot state=absent.' % (
                share_label(share), len(snapshots), names_and_ids(snapshots)))
    stuck = [s for s in snapshots if s.get('status') not in SNAPSHOT_DELETABLE_STATES
             and s.get('status') not in SNAPSHOT_BUSY_STATES]
    if stuck:
        raise CannotConverge(
            '%s cannot be deleted: its snapshot(s) %s are in a status in which Manila '
            'deletes no snapshot (%s); an admin can force-delete them (openstack share '
            'snapshot delete --force).' % (share_label(share), names_and_ids(stuck),
                                           ', '.join(sorted(set(s['status'] for s in stuck)))))
    return newest_first(snapshots)


def brief(snapshot):
    """A snapshot in a result that lists several: ID, name, status."""
    return dict((k, snapshot.get(k)) for k in ('id', 'name', 'status', 'created_at'))


def _revert_of(share, snapshot):
    return 'share %s (%s) to snapshot %s (%s)' % (share.get('name'), share['id'],
                                                  snapshot.get('name'), snapshot['id'])


def revert_in_progress(share, snapshot):
    """The warning of a run that finds a requested revert still under way."""
    return ('The revert of %s, requested at %s, is still in progress (share %s, '
            'snapshot %s); run again (or with wait=true) to record it once it is done.' % (
                _revert_of(share, snapshot),
                revert_requested_at(snapshot), share.get('status'), snapshot.get('status')))


def with_revert_keys(snapshot, items, drop=None):
    """The snapshot with its metadata as a revert record leaves it."""
    metadata = dict(snapshot.get('metadata') or {})
    metadata.update(items)
    metadata.pop(drop, None)
    return dict(snapshot, metadata=metadata)


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')


def racing_snapshots(namesakes):
    """True when some of several namesakes are being taken or deleted."""
    return any(s.get('status') == 'creating' or s.get('status') in SNAPSHOT_LEAVING_STATES
               for s in namesakes)


# -- calls ---------------------------------------------------------------------------

# Manila answers a revert with 409 for five reasons (manila/api/v2/shares.py
# _revert); each is told by a phrase of its message.  The latest-snapshot one is
# checked here before any write, but Manila's own check also sees snapshots this
# user cannot list (another project's).
REVERT_CONFLICTS = (
    ('not the most recent snapshot', InvalidInput,
     'Manila only reverts a share to its latest snapshot, and refused: %s'),
    ('has access rules that are not', CannotConverge,
     'Manila reverts a share only while all its access rules are active, and refused: %s '
     'Fix the rules (openkeel.manila.share_access) and run again.'),
    ('may not be reverted while it has an active task', CannotConverge,
     'Manila reverts no share while a task (a migration) runs on it, and refused: %s '
     'Run again when the task is over.'),
    ('to be reverted to a snapshot', CannotConverge,
     'Manila reverts only an available share, and refused: %s Run again once it is '
     'available (with wait=true a busy share is waited for).'),
    ('to be restored', CannotConverge,
     'Manila reverts a share only to an available snapshot, and refused: %s'),
)


def revert_refused(exc):
    """Manila's 409 to a revert, with the reason it gave (unknown ones as they came)."""
    text = exc.message or ''
    for phrase, cls, template in REVERT_CONFLICTS:
        if phrase in text:
            return same_details(exc, cls, template % text)
    return exc


class SnapshotAPI(ResourceAPI):
    """The snapshot calls: the shared ones (resource.ResourceAPI), and the
    revert (with its record on the snapshot), export locations and the
    deletion of a share's snapshots."""

    kind = 'snapshot'
    racing = staticmethod(racing_snapshots)
    update_shown = staticmethod(update_fields)

    def namesake_filters(self, resource):
        """A snapshot's name is settled among the snapshots of its share."""
        return {'share_id': resource['share_id']}

    def find_by_name(self, name, share_id=None):
        """The snapshot named ``name`` (of the share), or None; AmbiguousName for
        several, unless some are being taken or deleted: tasks racing for the
        name, waited for until they settle (see settle_namesakes)."""
        extra = {'share_id': share_id} if share_id else None
        return self.find_named(name, extra)

    def list_for_share(self, share_id):
        """Every snapshot of a share, in every project the user may see."""
        return lookups.list_all(self.client, 'snapshots/detail', 'snapshots', {
            'share_id': share_id, 'all_tenants': '1'})

    # -- writes: each through write_once (see client.write_once) ---------------
    def create(self, body):
        """Take the snapshot ``body`` describes, at most once: after a lost answer
        or a 5xx it is looked up by its name on its share.  Follow with
        ``settle_namesakes``."""
        if body.get('metadata'):
            self.client.require('snapshot_metadata', 'Snapshot metadata')
        return super(SnapshotAPI, self).create(body)

    def remove_namesake(self, resource, wait=True):
        """A newer snapshot of this task's is deleted once it is at rest
        (Manila deletes none while it is being created)."""
        settled = self.wait_if_busy(resource)
        if settled is None:
            return
        if not if_found(self.delete, settled['id']):
            return
        if wait:
            self.wait_gone(settled)

    @reword(Conflict, revert_refused)
    def revert(self, share_id, snapshot_id):
        # Manila keeps no trace of a revert once it is done; while it runs, the
        # share is reverting and the snapshot restoring: that is what is seen.
        def reverting():
            share = lookups.get_by_id(self.client, 'share', share_id) or {}
            if share.get('status') in SHARE_REVERTING_STATES:
                return True
            snapshot = self.get(snapshot_id) or {}
            return True if snapshot.get('status') == SNAPSHOT_RESTORING else None
        self.client.write_once(
            lambda: self.client.action('shares/%s' % share_id, 'revert',
                                       {'snapshot_id': snapshot_id},
                                       feature='revert_to_snapshot'),
            reverting, 'the revert of share %s to snapshot %s' % (share_id, snapshot_id))

    def export_locations(self, snapshot_id):
        if not self.client.supports('snapshot_export_locations'):
            return []
        body = self.client.get('snapshots/%s/export-locations' % snapshot_id)
        return body.get('share_snapshot_export_locations', [])

    def apply_update(self, snapshot, plan):
        """Send a plan's PUT and metadata changes; the snapshot as Manila now has it."""
        snapshot_id = snapshot['id']
        if plan.update:
            snapshot = self.update(snapshot_id, plan.update)
        return send_metadata_plan(self, snapshot, plan)

    def record_revert(self, snapshot):
        """Record a revert seen finished (and forget its request, if any)."""
        stamp = utc_now()
        self.set_metadata(snapshot['id'], {REVERT_MARKER: stamp})
        snapshot = with_revert_keys(snapshot, {REVERT_MARKER: stamp})
        return self.forget_revert_request(snapshot)

    def record_revert_request(self, snapshot):
        """Record a revert Manila accepted that this task does not see finished."""
        stamp = utc_now()
        self.set_metadata(snapshot['id'], {REVERT_REQUESTED: stamp})
        return with_revert_keys(snapshot, {REVERT_REQUESTED: stamp})

    def forget_revert_request(self, snapshot):
        if revert_requested_at(snapshot) is None:
            return snapshot
        self.delete_metadata_key(snapshot['id'], REVERT_REQUESTED)
        return with_revert_keys(snapshot, {}, drop=REVERT_REQUESTED)

    def revert_failures(self, share_id, since):
        """Manila's user messages of a failed revert of the share, from ``since``
        (a UTC time as this module writes it) on; [] below API 2.37."""
        if not self.client.supports('user_messages'):
            return []
        messages = manila_messages.newest_messages(
            self.client, {'resource_id': share_id, 'action_id': REVERT_ACTION_ID}, 3)
        return [m for m in messages if str(m.get('created_at') or '')[:19] >= since[:19]]

    def follow_revert_request(self, share, snapshot, wait=True, check_mode=False):
        """What became of the revert the snapshot records as requested.

        Returns ``(share, snapshot, finished)``: a revert still under way is
        waited for with ``wait`` and reported unfinished without it; a
        finished one is recorded (REVERT_MARKER).  A failed one raises
        CannotConverge with Manila's user messages, and its request is
        forgotten: the share as it is decides the next run (Manila refuses a
        revert of a share in reverting_error; once repaired, state=reverted
        reverts it again).  Check mode writes nothing.
        """
        requested = revert_requested_at(snapshot)
        outcome = requested_revert_outcome(share, snapshot)
        if outcome == REVERT_IN_PROGRESS and wait:
            share_id = share['id']
            share = wait_until(
                self.client, lambda: lookups.get_by_id(self.client, 'share', share_id),
                lambda s: s is not None and s.get('status') not in SHARE_REVERTING_STATES,
                share_label(share), 'the revert to finish', self.timeout,
                describe=lambda s: s.get('status'))
            snapshot = self.wait_if_busy(self.get(snapshot['id']) or snapshot)
            outcome = requested_revert_outcome(share, snapshot)
        if outcome == REVERT_IN_PROGRESS:
            return share, snapshot, False
        failures = self.revert_failures(share['id'], requested)
        if outcome == REVERT_FAILED or failures:
            said = ' | '.join(m.get('user_message') or '' for m in failures)
            raise CannotConverge(
                'The revert of %s, requested at %s, failed (the share is now in status '
                '%s). %s%s' % (
                    _revert_of(share, snapshot), requested,
                    share.get('status'),
                    'Manila says: %s' % said if said else
                    'Manila has no user message about it.',
                    '' if check_mode else self._forget_failed(snapshot)))
        if check_mode:
            return share, with_revert_keys(snapshot, {REVERT_MARKER: utc_now()},
                                           drop=REVERT_REQUESTED), True
        return share, self.record_revert(snapshot), True

    def _forget_failed(self, snapshot):
        self.forget_revert_request(snapshot)
        return (' The snapshot no longer records the request: the share as it is decides '
                'the next run (Manila reverts no share in reverting_error; once an admin '
                'has repaired it, state=reverted reverts it again).')

    # -- waits ---------------------------------------------------------------
    def wait_out(self, resource):
        """A busy snapshot (creating, deleting, ...) waited for until it rests
        (or is gone: None)."""
        snapshot_id = resource['id']
        return wait_until(
            self.client, lambda: self.get(snapshot_id),
            lambda s: s is None or s.get('status') not in SNAPSHOT_BUSY_STATES,
            snapshot_label(resource), 'it to finish %s' % resource.get('status'),
            self.timeout, describe=lambda s: s.get('status'),
            explain=self.explainer(resource))

    def delete_all(self, snapshots):
        """Delete a share's snapshots (as planned) and wait until every one is gone."""
        pending = []
        for snapshot in snapshots:
            snapshot = self.wait_if_busy(snapshot)
            if snapshot is None:
                continue
            if snapshot.get('status') in SNAPSHOT_DELETABLE_STATES:
                self.delete(snapshot['id'])
            pending.append(snapshot)
        for snapshot in pending:
            self.wait_gone(snapshot)

    def revert_share(self, share, snapshot, wait=True):
        """Send the revert; with ``wait``, wait for the share to be available again."""
        shares = ShareAPI(self.client, self.timeout)
        self.revert(share['id'], snapshot['id'])
        if not wait:
            return dict(share, status='reverting')
        return shares.wait(share)

    def revert_and_record(self, share, snapshot, wait=True, record=True):
        """Revert, and record (with ``record``) only what the task sees: a
        revert seen finished (REVERT_MARKER), or one whose end the task does
        not see (``wait`` false, or a wait that ran out of time) as requested
        (REVERT_REQUESTED).  A revert that fails is not recorded: Manila
        leaves the share in reverting_error, which the next run finds.
        Returns ``(share, snapshot)``."""
        try:
            share = self.revert_share(share, snapshot, wait)
        except WaitTimeout as exc:
            if not record:
                raise
            self.record_revert_request(snapshot)
            raise WaitTimeout('%s The snapshot records the revert as requested (key %s); '
                              'a later run finds out how it ended.'
                              % (exc.message, REVERT_REQUESTED), exc.resource, exc.state)
        if not wait:
            return share, self.record_revert_request(snapshot) if record else snapshot
        # Manila frees the share a moment before the snapshot.
        snapshot = self.wait_if_busy(self.get(snapshot['id']) or snapshot)
        return share, self.record_revert(snapshot) if record else snapshot

    def wait_share_if_busy(self, share, wait=True):
        if share.get('status') not in SHARE_BUSY_STATES:
            return share
        return ShareAPI(self.client, self.timeout).wait_if_busy(share, wait)
