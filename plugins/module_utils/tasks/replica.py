# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The share_replica module's hooks on the converge template (base.ManilaModule).

``ReplicaTask`` is the base of the share_replica module, which keeps its
options, checks its input, sets ``self.api`` (a replicas.ReplicaAPI) and
``self.share``/``self.replicas`` (None) and calls ``converge``.  Here is what
the template asks of it: the share's replicas as they are, the plan (a
replicas.ReplicaPlan), check mode's view, the writes of each action (create,
resync, promote, delete) with their waits, and the result: the replica with
its export locations and the share's replicas.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule
from ansible_collections.openkeel.manila.plugins.module_utils.errors import WaitFailed
from ansible_collections.openkeel.manila.plugins.module_utils.replicas import (
    ReplicaInError,
    label,
    others_in_error,
    plan as plan_replicas,
    view,
    views,
)
from ansible_collections.openkeel.manila.plugins.module_utils.shares import ShareAPI
from ansible_collections.openkeel.manila.plugins.module_utils.states import (
    REPLICA_BUSY_STATES,
    REPLICA_STATE_OUT_OF_SYNC,
)
from ansible_collections.openkeel.manila.plugins.module_utils.waiter import (
    explain_safely,
    user_message_explainer,
)


class ReplicaTask(ManilaModule):
    """The share_replica module's hooks (the module sets ``api``, ``share``
    and ``replicas``)."""

    # -- the converge template's hooks -----------------------------------------
    def find_current(self):
        """The share's replicas (None: with state=absent, the share is gone and
        its replicas went with it)."""
        p = self.params
        if p['state'] == 'absent':
            self.share = lookups.find(self.client, 'share', p['share'])
            if self.share is None:
                return None
        else:
            self.share = lookups.require(self.client, 'share', p['share'], option='share')
        self.desired = dict((k, p[k]) for k in ('state', 'id', 'availability_zone', 'resync'))
        if p['share_network']:
            self.desired['share_network'] = lookups.resolve_id(
                self.client, 'share_network', p['share_network'], option='share_network')
        if p['availability_zone']:
            lookups.require(self.client, 'availability_zone', p['availability_zone'],
                            option='availability_zone')
        self.replicas = self.api.list_for_share(self.share['id'])
        return self.replicas

    def plan(self, current):
        try:
            return plan_replicas(self.share, current, self.desired)
        except ReplicaInError as exc:
            extra = explain_safely(user_message_explainer(self.client, exc.replica['id']),
                                   exc.replica)
            return self.fail('%s %s' % (exc, extra) if extra else str(exc),
                             replica=view(exc.replica))

    def diff_of(self, plan):
        return {'replicas': plan.before}, {'replicas': plan.after}

    def as_is(self, plan, current):
        """The replica the task names; with wait, one still syncing is waited for."""
        replica = plan.targets[0] if plan.targets else {}
        if replica and not self.check_mode and self.params['state'] == 'present' \
                and self.params['wait'] and replica.get('status') in REPLICA_BUSY_STATES:
            replica = self.waited(self.api.wait_in_sync, replica)
        return self.warn_out_of_sync(replica)

    def predict(self, plan, current):
        return self.warn_out_of_sync(plan.targets[0] if plan.targets else {})

    def warn_out_of_sync(self, replica):
        if replica and replica.get('replica_state') == REPLICA_STATE_OUT_OF_SYNC:
            self.warn('Replica %s is out_of_sync; resync=true asks Manila to resync '
                      'it (admins).' % replica['id'])
        return replica

    # -- the actions -------------------------------------------------------
    def apply_create(self, plan, replicas):
        share = ShareAPI(self.client, self.params['timeout']).wait_if_busy(
            self.share, self.params['wait'])
        known = [t['id'] for t in self.api.list_for_share(share['id'])]
        replica = self.api.create(plan.body, known)
        if self.params['wait']:
            replica = self.waited(self.api.wait_in_sync, replica)
        return replica

    def apply_resync(self, plan, replicas):
        replica = plan.targets[0]
        self.api.resync(replica['id'])
        if self.params['wait']:
            replica = self.waited(self.api.wait_in_sync, replica)
        return replica

    def apply_promote(self, plan, replicas):
        replica = plan.targets[0]
        self.api.promote(replica['id'], self.params['quiesce_wait_time'])
        if self.params['wait']:
            try:
                settled = self.api.wait_promoted(self.share['id'], replica['id'])
            except WaitFailed as exc:
                # The replica as the wait last read it (the share's replicas).
                read = [r for r in exc.resource or () if r['id'] == replica['id']]
                self.fail('%s' % exc, replica=view(read[0] if read else replica))
            for other in others_in_error(settled, replica['id']):
                self.warn('%s is in status %s, replica_state %s; the promotion of replica '
                          '%s succeeded without it.' % (label(other), other.get('status'),
                                                        other.get('replica_state'),
                                                        replica['id']))
            replica = self.api.get(replica['id']) or replica
        return replica

    def apply_delete(self, plan, replicas):
        for replica in plan.targets:
            replica = self.api.wait_if_busy(replica)
            if replica is not None:
                self.api.delete(replica['id'])
        if self.params['wait']:
            for replica in plan.targets:
                self.waited(self.api.wait_gone, replica)
        return {}

    def waited(self, wait, replica):
        try:
            return wait(replica)
        except WaitFailed as exc:
            self.fail('%s %s is left in that state; delete it with state=absent and '
                      'id=%s.' % (exc, 'Replica %s' % replica['id'], replica['id']),
                      replica=view(exc.resource or replica))
        return None

    # -- result ------------------------------------------------------------
    def result(self, plan, resource):
        """The replica (with its export locations) and the share's replicas (as
        read before a task that changed nothing or ran in check mode, else read
        again: the diff's ``after``)."""
        if plan is None:
            return dict(replica={}, replicas=[])
        replica = resource
        if replica and replica.get('id') and replica['id'] != '(new)':
            replica = self.api.with_exports(replica)
        if plan.changed and not self.check_mode:
            self.replicas = self.api.list_for_share(self.share['id'])
        if not self.check_mode:
            plan.after = views(self.replicas)
        return dict(replica=replica or {}, replicas=self.replicas)
