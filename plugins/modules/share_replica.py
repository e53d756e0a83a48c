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
    - A member does not see C(host), C(share_server_id) and C(cast_rules_to_readonly), nor an
      export location's C(is_admin_only) and C(share_instance_id).
  returned: always
  type: dict
  sample: {"id": "b2d4e6f8-1111-4222-8333-444455556666", "share_id": "0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a",
           "status": "available", "replica_state": "in_sync", "availability_zone": "nova-b",
           "share_network_id": null, "created_at": "2026-12-01T11:00:00.000000",
           "updated_at": "2026-12-01T11:02:00.000000",
           "export_locations": [{"id": "6d2f8d54-8e2c-4e5f-a073-3c9e6f4c7b21",
                                 "path": "10.0.1.5:/shares/share-r2",
                                 "preferred": true,
                                 "replica_state": "in_sync",
                                 "availability_zone": "nova-b"}],
           "export_paths": ["10.0.1.5:/shares/share-r2"]}
  contains:
    id:
      description: Replica ID.
      type: str
    share_id:
      description: The share it is a replica of.
      type: str
    status:
      description: Its status (V(available) when at rest).
      type: str
    replica_state:
      description: V(active), V(in_sync), V(out_of_sync) or V(error).
      type: str
    availability_zone:
      description: Its zone.
      type: str
    share_network_id:
      description: Its share network (null for a share type without share servers).
      type: str
    created_at:
      description: When it was made.
      type: str
    updated_at:
      description: When it last changed.
      type: str
    metadata:
      description: Its metadata, free-form keys (API 2.95+).
      type: dict
      elements: str
    host:
      description: Its pool, C(host@backend#pool) (admins only; Manila hides it from members).
      type: str
    share_server_id:
      description: Its share server (admins only).
      type: str
    cast_rules_to_readonly:
      description: Whether Manila applies the share's rules read-only to it (API 2.30+; admins only).
      type: bool
    export_locations:
      description:
        - Its export locations (API 2.47+; empty before), Manila's preferred ones first.
          Members see no admin-only ones.
      type: list
      elements: dict
      contains:
        id:
          description: Export location ID.
          type: str
        path:
          description: The path a client mounts, for example V(10.0.0.5:/shares/share-1a2b).
          type: str
        preferred:
          description: Whether Manila prefers this location (API 2.14+); the preferred ones come first.
          type: bool
        metadata:
          description: The export location's metadata, free-form keys (API 2.87+).
          type: dict
          elements: str
        is_admin_only:
          description:
            - Whether the location is for admins only. Admins only see this field; members are not
              shown admin-only locations at all.
          type: bool
        share_instance_id:
          description: The share instance the location belongs to (admins only).
          type: str

        replica_state:
          description: The state of the replica the location belongs to.
          type: str
        availability_zone:
          description: The zone of that replica.
          type: str
    export_paths:
      description:
        - The paths a client mounts, Manila's preferred one first,
          admin-only locations left out (as the C(export_paths) of
          M(openkeel.manila.shares)).
      type: list
      elements: str
replicas:
  description:
    - The share's replicas as Manila shows them after the task (without their export locations).
    - A member does not see C(host), C(share_server_id) and C(cast_rules_to_readonly).
  returned: always
  type: list
  elements: dict
  sample: [{"id": "a1c3e5a7-1111-4222-8333-444455556666", "share_id": "0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a",
            "status": "available", "replica_state": "active", "availability_zone": "nova",
            "share_network_id": null, "created_at": "2026-12-01T10:00:00.000000",
            "updated_at": "2026-12-01T11:02:00.000000"},
           {"id": "b2d4e6f8-1111-4222-8333-444455556666", "share_id": "0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a",
            "status": "available", "replica_state": "in_sync", "availability_zone": "nova-b",
            "share_network_id": null, "created_at": "2026-12-01T11:00:00.000000",
            "updated_at": "2026-12-01T11:02:00.000000"}]
  contains:
    id:
      description: Replica ID.
      type: str
    share_id:
      description: The share it is a replica of.
      type: str
    status:
      description: Its status (V(available) when at rest).
      type: str
    replica_state:
      description: V(active), V(in_sync), V(out_of_sync) or V(error).
      type: str
    availability_zone:
      description: Its zone.
      type: str
    share_network_id:
      description: Its share network (null for a share type without share servers).
      type: str
    created_at:
      description: When it was made.
      type: str
    updated_at:
      description: When it last changed.
      type: str
    metadata:
      description: Its metadata, free-form keys (API 2.95+).
      type: dict
      elements: str
    host:
      description: Its pool, C(host@backend#pool) (admins only; Manila hides it from members).
      type: str
    share_server_id:
      description: Its share server (admins only).
      type: str
    cast_rules_to_readonly:
      description: Whether Manila applies the share's rules read-only to it (API 2.30+; admins only).
      type: bool
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
  sample: '2.99'
'''

from ansible_collections.openkeel.manila.plugins.module_utils.base import wait_argument_spec
from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput
from ansible_collections.openkeel.manila.plugins.module_utils.replicas import ReplicaAPI
from ansible_collections.openkeel.manila.plugins.module_utils.tasks.replica import ReplicaTask


class ShareReplicaModule(ReplicaTask):
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


def main():
    ShareReplicaModule()()


if __name__ == '__main__':
    main()
