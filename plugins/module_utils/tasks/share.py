# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The share module's hooks on the converge template (base.ManilaModule).

``ShareTask`` is the base of the share module, which keeps its options, reads
its input, sets ``self.shares`` (a shares.ShareAPI) and ``self.locks`` (a
locks.ShareLockTask) and hands the task to ``converge_on``; the manage and
unmanage actions are tasks/manage.py's ShareManageHooks, in front of this class.  Here is what the template asks
of it: the plan of each state (create, update, restore; delete or soft
delete with the share's snapshots), check mode's view, the writes, and the
result with the share's deletion locks converged.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils import lookups, share_steps
from ansible_collections.openkeel.manila.plugins.module_utils.base import (
    ManilaModule,
    create_and_settle,
)
from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput
from ansible_collections.openkeel.manila.plugins.module_utils.resource import NOTHING
from ansible_collections.openkeel.manila.plugins.module_utils.shares import (
    RESTORE,
    SOFT_DELETE,
    UPDATE,
    check_create_features,
    check_create_options,
    diff_view,
)
from ansible_collections.openkeel.manila.plugins.module_utils.snapshots import (
    SnapshotAPI,
    brief,
    plan_share_snapshots,
)
from ansible_collections.openkeel.manila.plugins.module_utils.states import SHARE_BUSY_STATES

# The references a create names (task option = lookups kind), resolved before
# the create is sent.
CREATE_REFERENCES = share_steps.CREATE_REFERENCES


def check_snapshot_protocol(snapshot, share_proto):
    """InvalidInput for a share of another protocol than the snapshot's share
    (the snapshot shows it: ``share_proto``): Manila creates it, and clients of
    the new protocol get the data of a file system made for the other one."""
    theirs = (snapshot or {}).get('share_proto')
    if not theirs or not share_proto or theirs.upper() == share_proto.upper():
        return
    raise InvalidInput(
        'share_proto is %s, but snapshot %s is of a %s share: a share created from a '
        'snapshot has the protocol of the snapshot\'s share (set share_proto: %s).'
        % (share_proto, snapshot.get('name') or snapshot.get('id'), theirs.upper(),
           theirs.upper()))


class ShareTask(ManilaModule):
    """The share module's hooks (the module sets ``shares``, ``locks`` and
    ``desired(**resolved)``)."""

    gone_diff = {}
    default_type = None   # the cloud's default share type, when a create reads it

    def share_to_converge(self, share):
        """The share a task with state=present converges on: the one found (at
        rest), else a namesake in the recycle bin (None: one to create)."""
        p = self.params
        if share is None:
            if p['id'] or not self.client.supports('soft_delete'):
                return None
            return self.shares.find_by_name(p['name'], soft_deleted=True)
        if share.get('is_soft_deleted'):
            return share
        return self.shares.wait_if_busy(share, p['wait'])

    # -- plans ---------------------------------------------------------------------
    def plan(self, current):
        share = current
        if self.params['state'] == 'absent':
            self.locks.guard_absent(share)
            return self.plan_deletion(share)
        p = self.params
        return share_steps.plan_present(
            share, lambda: self.desired(
                share_network_id=self.reference_id('share_network', share),
                snapshot_id=self.reference_id('snapshot', share)),
            restore=p['restore'], purge_metadata=p['purge_metadata'], rename=bool(p['id']),
            create=self.plan_create)

    def plan_create(self):
        """The options, features and references a create needs, checked and
        looked up before anything is sent (check mode too)."""
        p = self.params
        share_steps.refuse_create(p['id'], p['name'])
        check_create_options(p, ('name', 'share_proto'))
        check_create_features(self.client, p)
        references = self.create_references()
        share_steps.check_share_servers(references.get('share_type', self.default_type),
                                        p['share_network'], p['snapshot'])
        snapshot = references.get('snapshot')
        check_snapshot_protocol(snapshot, p['share_proto'])
        size = p['size'] or (snapshot['size'] if snapshot else None)
        check_create_options(dict(size=size), ('size',))
        return share_steps.plan_new(self.desired(
            size=size, snapshot_id=snapshot['id'] if snapshot else None,
            share_network_id=references['share_network']['id']
            if references.get('share_network') else None))

    def plan_deletion(self, share):
        """Delete the share or move it to the recycle bin (nothing for one
        already there), with the snapshots to delete first (``plan.snapshots``:
        refused unless delete_snapshots)."""
        p = self.params
        plan = share_steps.plan_deletion(self.client, share, p['soft_delete'])
        if plan.action != NOTHING:
            snapshots = SnapshotAPI(self.client, p['timeout']).list_for_share(share['id'])
            plan.snapshots = plan_share_snapshots(share, snapshots, p['delete_snapshots'])
        return plan

    def reference_id(self, kind, share=None):
        """The ID of the share network or snapshot the task names (the one the
        share already refers to needs no lookup)."""
        value = self.params[kind]
        known = (share.get('%s_id' % kind),) if share else ()
        return lookups.resolve_id(self.client, kind, value, known) if value else None

    def create_references(self):
        """Every resource the create names, looked up before anything is sent:
        an unknown one fails the task naming the option (check mode too)."""
        p = self.params
        found = share_steps.create_references(self.client, p)
        if not p['share_type']:
            self.default_type = self.shares.default_share_type()
            share_steps.require_share_type(None, self.default_type)
        return found

    @staticmethod
    def predict(plan, current):
        if plan.action == RESTORE:
            return dict(current, is_soft_deleted=False)
        return current if plan.action == UPDATE else {}

    # -- writes ----------------------------------------------------------------------
    def apply_create(self, plan, current):
        """create -> wait -> settle namesakes; a namesake another task created at
        the same moment is adopted (converged on as a share the task had found)."""
        share, adopt = create_and_settle(self, self.shares, plan.body, 'share',
                                         SHARE_BUSY_STATES)
        if adopt:
            return self.adopt(plan, self.shares.wait_if_busy(share))
        plan.after = diff_view(share)
        return share

    def apply_update(self, plan, share):
        share = share_steps.send_update(self.shares, share, plan)
        if plan.new_size:
            share = self.settled(share, plan.new_size)
        plan.after = diff_view(share)
        return share

    def apply_restore(self, plan, share):
        return dict(self.settled(share_steps.send_restore(self.shares, share)),
                    is_soft_deleted=False)

    def settled(self, share, new_size=None):
        """The share after an asynchronous change: waited for (a resize until
        the share shows ``new_size``), or read (no wait)."""
        if not self.params['wait']:
            return self.shares.get(share['id'])
        if new_size:
            return self.shares.wait_resized(share, new_size)
        return self.shares.wait(share)

    def apply_delete(self, plan, share):
        """The snapshots, then the share: deleted or soft-deleted, right after
        its delete locks when the task lifts them.  When writes come before
        the share's own (snapshots, locks), the share's deletion is sent
        first, while they still hold it back: Manila refuses it naming every
        lock, those of other projects that no listing shows this user too,
        and a lock the task does not lift ends the task before any write
        (locks.ShareLockTask.send_deletion)."""
        wait, soft = self.params['wait'], plan.action == SOFT_DELETE
        sent = False
        if (plan.snapshots or self.locks.lifts) and self.locks.api.supported():
            sent = self.locks.send_deletion(self.shares, share, soft, first=True)
            if sent:   # Manila took it at once: the snapshots were gone meanwhile
                plan.snapshots = []
        if not sent:
            if plan.snapshots:
                SnapshotAPI(self.client, self.params['timeout']).delete_all(plan.snapshots)
            if wait and not soft:
                share = self.shares.wait_if_busy(share)
            self.locks.before_delete(share['id'])
            self.locks.send_deletion(self.shares, share, soft)
        if wait and not soft:
            self.shares.wait_gone(share)
        return {}

    apply_soft_delete = apply_delete

    # -- result ----------------------------------------------------------------------
    def result(self, plan, resource):
        """The share (with its export locations when present) and its deletion
        locks, converged with a present share (``result_changed``)."""
        share, present, result = resource or {}, self.params['state'] == 'present', {}
        if present:
            self.locks.converge(share)
            if share.get('id'):
                share = dict(share, export_locations=self.shares.export_locations(share['id']))
        else:
            result['deleted_snapshots'] = [brief(s) for s in plan.snapshots] if plan else []
        if plan is not None:
            plan.before, plan.after = self.locks.merge(plan.before, plan.after, result,
                                                       gone=not present)
        return dict(result, share=share)

    def result_changed(self):
        return self.locks.changed
