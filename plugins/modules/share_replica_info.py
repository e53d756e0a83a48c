#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_replica_info
short_description: List the replicas of an OpenStack Manila share
version_added: 0.1.0
description:
  - Returns the replicas of one share (or every replica this user may see)
    with their status, C(replica_state), zone and, from API 2.47, their
    export locations.
  - Below API 2.56 the experimental header is sent (replication was
    experimental in Manila until then).
  - Never fails because nothing matched.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
  - openkeel.manila.attributes.info_module
options:
  share:
    description: Name or ID of the share whose replicas to list.
    type: str
  replica_state:
    description: Only replicas in this replica_state.
    type: str
    choices: [active, in_sync, out_of_sync, error]
  with_export_locations:
    description:
      - Add each replica's export locations (API 2.47+; one request per
        replica).
    type: bool
    default: true
seealso:
  - module: openkeel.manila.share_replica
'''

EXAMPLES = r'''
- name: The replicas of the projects share
  openkeel.manila.share_replica_info:
    cloud: mycloud
    share: projects
  register: found

- name: Where the active replica is mounted
  ansible.builtin.debug:
    msg: "{{ (found.replicas | selectattr('replica_state', 'eq', 'active') | first).export_locations }}"
'''

RETURN = r'''
replicas:
  description:
    - The replicas, active first, as Manila shows them; with
      O(with_export_locations) each has C(export_locations) (empty below
      API 2.47; Manila's preferred ones first) and C(export_paths) (the
      paths a client mounts, the preferred one first, admin-only locations
      left out, as the C(export_paths) of M(openkeel.manila.shares)).
    - A member does not see C(host), C(share_server_id) and C(cast_rules_to_readonly), nor an
      export location's C(is_admin_only) and C(share_instance_id).
  returned: always
  type: list
  elements: dict
  sample: [{"id": "a1c3e5a7-1111-4222-8333-444455556666", "share_id": "0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a",
            "status": "available", "replica_state": "active", "availability_zone": "nova",
            "share_network_id": null, "created_at": "2026-12-01T10:00:00.000000",
            "updated_at": "2026-12-01T11:02:00.000000",
            "export_locations": [{"id": "7e3a9e65-8e2c-4e5f-a073-3c9e6f4c7b21",
                                  "path": "10.0.0.5:/shares/share-r1",
                                  "preferred": true,
                                  "replica_state": "active",
                                  "availability_zone": "nova"}],
            "export_paths": ["10.0.0.5:/shares/share-r1"]},
           {"id": "b2d4e6f8-1111-4222-8333-444455556666", "share_id": "0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a",
            "status": "available", "replica_state": "in_sync", "availability_zone": "nova-b",
            "share_network_id": null, "created_at": "2026-12-01T11:00:00.000000",
            "updated_at": "2026-12-01T11:02:00.000000",
            "export_locations": [{"id": "6d2f8d54-8e2c-4e5f-a073-3c9e6f4c7b21",
                                  "path": "10.0.1.5:/shares/share-r2",
                                  "preferred": true,
                                  "replica_state": "in_sync",
                                  "availability_zone": "nova-b"}],
            "export_paths": ["10.0.1.5:/shares/share-r2"]}]
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
      returned: with O(with_export_locations)
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
      returned: with O(with_export_locations)
      type: list
      elements: str
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
  sample: '2.99'
'''

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule
from ansible_collections.openkeel.manila.plugins.module_utils.replicas import ReplicaAPI
from ansible_collections.openkeel.manila.plugins.module_utils.states import REPLICA_STATE_ACTIVE


class ShareReplicaInfoModule(ManilaModule):
    argument_spec = dict(
        share=dict(type='str'),
        replica_state=dict(type='str', choices=['active', 'in_sync', 'out_of_sync', 'error']),
        with_export_locations=dict(type='bool', default=True),
    )

    def run(self):
        p = self.params
        api = ReplicaAPI(self.client)
        api.require()
        share_id = None
        if p['share']:
            share_id = lookups.resolve_id(self.client, 'share', p['share'], option='share')
        replicas = api.list_for_share(share_id)
        if p['replica_state']:
            replicas = [r for r in replicas if r.get('replica_state') == p['replica_state']]
        replicas.sort(key=lambda r: (r.get('replica_state') != REPLICA_STATE_ACTIVE,
                                     str(r.get('created_at') or ''), r['id']))
        if p['with_export_locations']:
            replicas = [api.with_exports(r) for r in replicas]
        self.finish(replicas=replicas)


def main():
    ShareReplicaInfoModule()()


if __name__ == '__main__':
    main()
