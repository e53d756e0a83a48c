#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_replica
short_description: Keep a replica of an OpenStack Manila share, promote it, delete it
version_added: 0.1.0
description:
  - Makes the replicas of one Manila share match the task.
  - V(present) without O(id) makes sure the share has a replica besides the
    active one (in O(availability_zone) when given) and waits until it is
    C(in_sync). With O(resync) a replica that is C(out_of_sync) is resynced
    (admins; Manila's default policy).
  - V(active) promotes the replica named by O(id) (or the one in
    O(availability_zone)) and waits until Manila shows it active and the
    former active replica as a replica. It is ok when it already is.
    With O(availability_zone), the oldest replica there that is C(in_sync)
    and C(available) is promoted, before an older one out of sync.
    Manila promotes only a replica whose status is C(available); one that
    is C(out_of_sync) or in C(replica_state) C(error) only for an admin
    (Manila's C(promote_share_replica) check; the policy lets members
    promote the others). The module refuses what Manila would refuse,
    before any write, in check mode too; it tells an admin by the C(host)
    that Manila shows only to admins.
    The promotion fails only when the promoted replica goes to an error
    state; another replica of the share in error does not fail a promotion
    that succeeded, the task warns about it.
  - V(absent) deletes the replica O(id) (or every replica besides the active
    one, in O(availability_zone) when given); the active replica is never
    deleted.
  - A share whose type has no C(replication_type) is refused before any
    write. Replicas in an error state fail the task with Manila's user
    messages.
  - Below API 2.56 replication is experimental in Manila; the module then
    sends the experimental header.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
attributes:
  check_mode:
    support: full
    description: Reads only; reports the same C(changed) and diff as a real run.
  diff_mode:
    support: full
    description: Before and after views of the share's replicas.
options:
  share:
    description: Name or ID of the share.
    type: str
    required: true
  id:
    description: ID of one replica of the share.
    type: str
  availability_zone:
    description:
      - The zone of the replica to make, promote or delete.
    type: str
  share_network:
    description:
      - Name or ID of the share network of a new replica (API 2.72+); by
        default the share's.
    type: str
  state:
    description:
      - V(present) keeps a replica, V(active) promotes one, V(absent) deletes.
    type: str
    choices: [present, absent, active]
    default: present
  quiesce_wait_time:
    description:
      - Seconds the driver may wait for the active replica to quiesce when
        promoting (API 2.75+).
    type: int
  resync:
    description:
      - With V(present), ask Manila to resync the replica when it is
        C(out_of_sync) (admin-only by Manila's default policy).
    type: bool
    default: false
  wait:
    description: Wait until the replica is in_sync, promoted or gone.
    type: bool
    default: true
  timeout:
    description: Seconds to wait.
    type: int
    default: 600
seealso:
  - module: openkeel.manila.share_replica_info
  - module: openkeel.manila.share_capabilities_info
'''

EXAMPLES = r'''
- name: Keep a replica of the projects share
  openkeel.manila.share_replica:
    cloud: mycloud
    share: projects
  register: replica

- name: Fail over to it
  openkeel.manila.share_replica:
    cloud: mycloud
    share: projects
    id: "{{ replica.replica.id }}"
    state: active

- name: Drop the replicas besides the active one
  openkeel.manila.share_replica:
    cloud: mycloud
    share: projects
    state: absent
'''

RETURN = r'''
replica:
  description:
    - The replica the task made, found, promoted or resynced, with its
      export locations (API 2.47+). Empty after a deletion.
    - When a wait fails, the replica as the last read of the wait showed it
      (its C(status) and C(replica_state) then say where it stopped), without
      its export locations.
  returned: always
  type: dict
  contains:
    id:
      description: Replica ID.
      type: str
    status:
      description: Its status (C(available) when at rest).
      type: str
    replica_state:
      description: C(active), C(in_sync), C(out_of_sync) or C(error).
      type: str
    availability_zone:
      description: Its zone.
      type: str
    host:
      description: Its pool (admins only; Manila hides it from others).
      type: str
    export_locations:
      description:
        - Its export locations (API 2.47+; empty before), Manila's preferred
          ones first.
      type: list
      elements: dict
    export_paths:
      description:
        - The paths a client mounts, Manila's preferred one first,
          admin-only locations left out (as the C(export_paths) of
          M(openkeel.manila.shares)).
      type: list
      elements: str
replicas:
  description: The share's replicas as Manila shows them after the task.
  returned: always
  type: list
  elements: dict
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
'''

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.base import (
    ManilaModule,
    wait_argument_spec,
)
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    InvalidInput,
    WaitFailed,
)
from ansible_collections.openkeel.manila.plugins.module_utils.replicas import (
    ReplicaAPI,
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


class ShareReplicaModule(ManilaModule):
    argument_spec = dict(
        share=dict(type='str', required=True),
        id=dict(type='str'),
        availability_zone=dict(type='str'),
        share_network=dict(type='str'),
        state=dict(type='str', default='present', choices=['present', 'absent', 'active']),
        quiesce_wait_time=dict(type='int'),
        resync=dict(type='bool', default=False),
        **wait_argument_spec(600)
    )

    def run(self):
        p = self.params
        self.validate_input()
        self.api = ReplicaAPI(self.client, p['timeout'])
        self.api.require()
        if p['share_network']:
            self.client.require('replica_share_network', 'share_network for a replica')
        if p['quiesce_wait_time']:
            self.client.require('replica_quiesce_wait_time', 'quiesce_wait_time')
        self.share = self.replicas = None
        self.converge()

    def validate_input(self):
        p = self.params
        if p['quiesce_wait_time'] is not None and p['quiesce_wait_time'] < 1:
            raise InvalidInput('quiesce_wait_time must be a positive number of seconds, '
                               'got %s.' % p['quiesce_wait_time'])
        if p['quiesce_wait_time'] and p['state'] != 'active':
            raise InvalidInput('quiesce_wait_time only applies with state=active.')
        if p['resync'] and p['state'] != 'present':
            raise InvalidInput('resync only applies with state=present.')
        if p['share_network'] and p['state'] != 'present':
            raise InvalidInput('share_network only applies with state=present.')

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


def main():
    ShareReplicaModule()()


if __name__ == '__main__':
    main()
