# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The share_snapshot module's hooks on the converge template (base.ManilaModule).

``SnapshotTask`` is the base of the module, which keeps its options, reads its
input, sets ``self.snapshots`` (a snapshots.SnapshotAPI) and
``self.known_share``, looks the snapshot and its share up (``share_record``,
``desired``) and hands every task to ``converge_on``; its manage and unmanage
are tasks/manage.py's ``SnapshotManageHooks``, in front of this class.  Here
is the plan of each state (take, update, delete; with state=reverted, the
follow-up of an earlier run's revert request, the metadata changes and the
revert), check mode's view, the writes and the result.  The pure parts (the
plans, the revert marker) and the calls are snapshots.py's.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.base import (
    ManilaModule,
    create_and_settle,
)
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    InvalidInput,
    UnsupportedFeature,
)
from ansible_collections.openkeel.manila.plugins.module_utils.resource import (
    CREATE,
    DELETE,
    NOTHING,
)
from ansible_collections.openkeel.manila.plugins.module_utils.snapshots import (
    REVERT_MARKER,
    SnapshotPlan,
    diff_view,
    needs_revert,
    plan_absent,
    plan_create,
    plan_revert,
    plan_update,
    revert_in_progress,
    revert_requested_at,
)
from ansible_collections.openkeel.manila.plugins.module_utils.states import SNAPSHOT_BUSY_STATES


class SnapshotTask(ManilaModule):
    """The share_snapshot module's hooks (the module sets ``snapshots``,
    ``known_share``, ``share_record(share_id=None)`` and ``desired()``)."""

    gone_diff = {}
    # state=reverted: an earlier run's revert request was seen to its end and
    # recorded by this task (the task's ``changed``, even with nothing else to do)
    recorded = False

    # -- plans ---------------------------------------------------------------------
    def plan(self, current):
        state = self.params['state']
        if state == 'absent':
            return plan_absent(current)
        if state == 'reverted':
            return self.plan_reverted(current)
        if current is None:
            return self.plan_take()
        return self.plan_changes(current)

    def plan_take(self):
        """The plan to take the snapshot (the create plan)."""
        p = self.params
        if p['id']:
            raise InvalidInput(
                'No snapshot with ID %s exists; a snapshot cannot be taken with a given ID '
                '(leave out "id" and give "share" and "name").' % p['id'])
        if lookups.looks_like_uuid(p['name']):
            # As share does for shares: a UUID given as a name is most likely a
            # mistyped or deleted snapshot's ID, not the name of a new snapshot.
            raise InvalidInput(
                'No snapshot is named %s, and no snapshot is taken under a UUID-shaped '
                'name: to manage a snapshot by its ID give it as "id" (is the snapshot '
                'deleted, or of another share?), or give the new snapshot a name that is '
                'not a UUID.' % p['name'])
        share = self.share_record()
        if p['metadata']:
            self.client.require('snapshot_metadata', 'Snapshot metadata')
        return plan_create(share, self.desired())

    def plan_changes(self, snapshot):
        p = self.params
        if p['metadata'] is not None:
            self.client.require('snapshot_metadata', 'Snapshot metadata')
        return plan_update(snapshot, self.desired(), purge_metadata=p['purge_metadata'],
                           rename=bool(p['id']))

    def check_can_revert(self, snapshot):
        """Refusals of state=reverted before any request that could write."""
        p = self.params
        if snapshot is None:
            where = ' of share %s' % p['share'] if p['share'] else ''
            raise InvalidInput(
                'No snapshot %s%s exists; state=reverted reverts a share to an existing '
                'snapshot and never takes one (take it with state=present first).'
                % (p['id'] or p['name'], where))
        self.client.require('revert_to_snapshot', 'Reverting a share to a snapshot')
        if not p['always_revert'] and not self.client.supports('snapshot_metadata'):
            raise UnsupportedFeature(
                'state=reverted records the revert in the snapshot\'s metadata (key %s) so '
                'that a second run does not revert again; snapshot metadata needs Manila API '
                '2.73 and this cloud offers %s. Set always_revert=true to revert on every '
                'run instead.' % (REVERT_MARKER, self.client.version))

    def plan_reverted(self, snapshot):
        """state=reverted: follow up an earlier run's revert request, then
        plan the metadata changes and the revert (action ``revert``, or the
        update of the snapshot's other fields when the marker says it was
        reverted).  ``plan.current`` is the snapshot as read last and
        ``plan.share`` the share the result shows."""
        p = self.params
        self.check_can_revert(snapshot)
        before, share = diff_view(snapshot), None
        if revert_requested_at(snapshot) and self.client.supports('snapshot_metadata'):
            # A revert an earlier run did not see to its end: how did it end?
            share, snapshot, self.recorded = self.snapshots.follow_revert_request(
                self.share_record(snapshot['share_id']), snapshot, p['wait'], self.check_mode)
            self.known_share = share
            if not self.recorded:
                self.warn(revert_in_progress(share, snapshot))
                return self.with_snapshot(SnapshotPlan(NOTHING, before, before), snapshot, share)
        snapshot = self.snapshots.wait_if_busy(snapshot, p['wait'])
        if snapshot is None:
            raise InvalidInput('Snapshot %s was deleted meanwhile; nothing to revert to.'
                               % (p['id'] or p['name']))
        plan = self.plan_changes(snapshot)
        if needs_revert(snapshot, p['always_revert']):
            share = self.share_record(snapshot['share_id'])
            plan = plan_revert(share, snapshot,
                               self.snapshots.list_for_share(snapshot['share_id']),
                               always=p['always_revert'], base=plan, wait=p['wait'])
        if self.recorded:    # the diff shows the record too
            plan.before = before
            if plan.action == NOTHING:
                plan.after = diff_view(snapshot)
        return self.with_snapshot(plan, snapshot, share)

    @staticmethod
    def with_snapshot(plan, snapshot, share):
        plan.current, plan.share = snapshot, share
        return plan

    @staticmethod
    def predict(plan, current):
        return None if plan.action in (CREATE, DELETE) else current

    # -- writes ----------------------------------------------------------------------
    def apply_create(self, plan, current):
        """Take the snapshot: settle the share -> create -> wait -> settle
        namesakes; a namesake another task took at the same moment is adopted."""
        self.snapshots.wait_share_if_busy(self.share_record(), self.params['wait'])
        snapshot, adopt = create_and_settle(self, self.snapshots, plan.body, 'snapshot',
                                            SNAPSHOT_BUSY_STATES, taken='taken')
        if adopt:
            # Converge on it as on a snapshot this task had found.
            return self.adopt(plan, self.snapshots.wait_if_busy(snapshot) or snapshot)
        plan.after = diff_view(snapshot)
        return snapshot

    def apply_update(self, plan, snapshot):
        snapshot = self.snapshots.apply_update(snapshot, plan)
        plan.after = diff_view(snapshot)
        return snapshot

    def apply_revert(self, plan, snapshot):
        """The snapshot's other changes, then the revert of its share,
        recorded in the snapshot's marker (API 2.73+)."""
        wait = self.params['wait']
        share = self.snapshots.wait_share_if_busy(plan.share, wait)
        snapshot = self.snapshots.apply_update(snapshot, plan)
        plan.share, snapshot = self.snapshots.revert_and_record(
            share, snapshot, wait,
            plan.record_revert and self.client.supports('snapshot_metadata'))
        plan.after = diff_view(snapshot)
        return snapshot

    def apply_delete(self, plan, snapshot):
        if snapshot['status'] != 'deleting':
            snapshot = self.snapshots.wait_if_busy(snapshot, self.params['wait'])
            if snapshot is not None:
                plan_absent(snapshot)   # what it settled in may be undeletable
                self.snapshots.delete(snapshot['id'])
        if snapshot is not None and self.params['wait']:
            self.snapshots.wait_gone(snapshot)

    # -- result ----------------------------------------------------------------------
    def result(self, plan, resource):
        result = dict(snapshot=self.snapshot_view(resource))
        if self.params['state'] == 'reverted':
            # The share as the revert left it; unless the task sent the plan,
            # the one it read (O(share), or the snapshot's).
            sent = plan.changed and not self.check_mode
            result['share'] = (plan.share if sent else plan.share or self.known_share) or {}
        return result

    def result_changed(self):
        return self.recorded

    def snapshot_view(self, snapshot):
        """The snapshot as returned, with its export locations ([]: not mountable)."""
        if not snapshot:
            return {}
        mountable = self.mountable(snapshot)
        return dict(snapshot, export_locations=self.snapshots.export_locations(
            snapshot['id']) if mountable else [])

    def mountable(self, snapshot):
        """Whether the snapshot may have export locations (unknown: ask Manila)."""
        share = self.known_share
        if share is not None and share.get('id') == snapshot.get('share_id'):
            return bool(share.get('mount_snapshot_support'))
        return True
