#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_instance_info
short_description: Show where an OpenStack Manila share really lives (its instances)
version_added: 0.1.0
description:
  - Returns a share's instances (C(GET /shares/{id}/instances)), or every
    share instance Manila has (C(GET /share_instances)), each with its host,
    share server, status and export locations on the backend, as
    C(openstack share instance list) and C(openstack share instance export
    location list) do. A share has one instance; a migration or a replica
    adds more.
  - One request for the instances, and one per instance for its export
    locations (O(export_locations)).
  - Share instances are admin-only under Manila's default policy; a member
    gets a clear refusal (HTTP 403).
  - Never fails because nothing matched, except for a O(share) that does not
    exist.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
  - openkeel.manila.attributes.info_module
options:
  share:
    description:
      - Name or ID of the share whose instances to return; a name is looked
        for in every project. Without it, every share instance of the cloud.
    type: str
  export_location_path:
    description:
      - Only the instance with an export location of this path (Manila API
        2.35+); finds the share behind a path a client mounts.
    type: str
  export_location_id:
    description: Only the instance with the export location of this ID (API 2.35+).
    type: str
  export_locations:
    description:
      - Add each instance's export locations (one request per instance),
        preferred first, admin-only ones included.
    type: bool
    default: true
seealso:
  - module: openkeel.manila.share_info
  - module: openkeel.manila.share_snapshot_instance_info
  - module: openkeel.manila.share_migration_info
'''

EXAMPLES = r'''
- name: Where does the projects share live?
  openkeel.manila.share_instance_info:
    cloud: admin
    share: projects
  register: projects_instances

- name: Say it
  ansible.builtin.debug:
    msg: "{{ projects_instances.share_instances | map(attribute='host') | list }}"

- name: Which share is behind the path a client mounts?
  openkeel.manila.share_instance_info:
    cloud: admin
    export_location_path: "{{ projects_instances.share_instances[0].export_locations[0].path }}"
    export_locations: false
  register: behind_path
'''

RETURN = r'''
share_instances:
  description: The matching share instances, oldest first.
  returned: always
  type: list
  elements: dict
  sample:
    - id: 6b3a0f2e-9d4c-4b1a-8e7f-2c5d4e3f2a1b
      share_id: 8a3b2c1d-0e9f-4a8b-9c7d-6e5f4a3b2c1d
      status: available
      host: storage1@alpha#pool1
      availability_zone: nova
      share_network_id: null
      share_server_id: null
      share_type_id: 1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b
      access_rules_status: active
      replica_state: null
      cast_rules_to_readonly: false
      progress: 100%
      created_at: '2026-12-04T10:00:00.000000'
      updated_at: '2026-12-04T10:00:05.000000'
      export_locations:
        - id: 4d3c2b1a-0f9e-4d8c-8b7a-6f5e4d3c2b1a
          path: 10.0.0.10:/shares/share-6b3a0f2e
          preferred: true
          is_admin_only: false
          share_instance_id: 6b3a0f2e-9d4c-4b1a-8e7f-2c5d4e3f2a1b
  contains:
    id:
      description: The instance's ID.
      type: str
    share_id:
      description: The share it belongs to.
      type: str
    status:
      description: Its status (C(available), C(migrating), C(error), ...).
      type: str
    host:
      description: The pool it lives on, C(host@backend#pool).
      type: str
    availability_zone:
      description: Its availability zone.
      type: str
    share_network_id:
      description: Its share network, for a type with share servers.
      type: str
    share_server_id:
      description: Its share server, for a type with share servers.
      type: str
    share_type_id:
      description: Its share type.
      type: str
    access_rules_status:
      description: Whether its access rules are applied (C(active), C(syncing), C(error)).
      type: str
    replica_state:
      description: Its replica state, for a share with replicas (C(active), C(in_sync), ...).
      type: str
    cast_rules_to_readonly:
      description: Whether its rules are applied read-only (a secondary replica).
      type: bool
    progress:
      description: How far its creation is (API 2.54+), for example C(100%).
      type: str
    created_at:
      description: When it was created.
      type: str
    updated_at:
      description: When it last changed (API 2.71+).
      type: str
    export_locations:
      description: Its export locations, preferred first; only with O(export_locations).
      type: list
      elements: dict
      contains:
        id:
          description: The export location's ID.
          type: str
        path:
          description: What a client mounts.
          type: str
        preferred:
          description: Whether the driver prefers it.
          type: bool
        is_admin_only:
          description: Whether it is for admins only (a backend's own network).
          type: bool
        share_instance_id:
          description: The instance it belongs to.
          type: str
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
'''

from ansible_collections.openkeel.manila.plugins.module_utils import instances
from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule


class ShareInstanceInfoModule(ManilaModule):
    argument_spec = dict(
        share=dict(type='str'),
        export_location_path=dict(type='str'),
        export_location_id=dict(type='str'),
        export_locations=dict(type='bool', default=True),
    )
    module_kwargs = dict(mutually_exclusive=[
        ('share', 'export_location_path'), ('share', 'export_location_id'),
        ('export_location_path', 'export_location_id')])

    def run(self):
        p = self.params
        share_id = None
        if p['share']:
            share_id = instances.resolve(self.client, 'share', p['share'], 'share')
        found = instances.share_instances(self.client, share_id, p['export_location_path'],
                                          p['export_location_id'])
        if p['export_locations']:
            found = instances.with_export_locations(self.client, found)
        self.finish(share_instances=found)


def main():
    ShareInstanceInfoModule()()


if __name__ == '__main__':
    main()
