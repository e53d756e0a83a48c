#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_snapshot_instance_info
short_description: Show where an OpenStack Manila snapshot really lives (its instances)
version_added: 0.1.0
description:
  - Returns a snapshot's instances (C(GET /snapshot-instances/detail)), or
    every snapshot instance Manila has, each with the share instance it was
    taken of, its status and the driver's C(provider_location), as
    C(openstack share snapshot instance list) does; with their export
    locations where the share type mounts snapshots.
  - One request for the instances, and one per instance for its export
    locations (O(export_locations)).
  - Snapshot instances are admin-only under Manila's default policy; a
    member gets a clear refusal (HTTP 403).
  - Never fails because nothing matched, except for a O(snapshot) that does
    not exist.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
  - openkeel.manila.attributes.info_module
options:
  snapshot:
    description:
      - Name or ID of the snapshot whose instances to return; a name is
        looked for in every project. Without it, every snapshot instance of
        the cloud.
    type: str
  export_locations:
    description:
      - Add each instance's export locations (one request per instance; empty
        unless the share type mounts snapshots).
    type: bool
    default: false
seealso:
  - module: openkeel.manila.share_snapshot_info
  - module: openkeel.manila.share_instance_info
'''

EXAMPLES = r'''
- name: Where does the snapshot of the projects share live?
  openkeel.manila.share_snapshot_instance_info:
    cloud: admin
    snapshot: projects-before-upgrade
  register: snapshot_instances
'''

RETURN = r'''
snapshot_instances:
  description: The matching snapshot instances, oldest first.
  returned: always
  type: list
  elements: dict
  sample:
    - id: 2c1b0a9f-8e7d-4c6b-9a5f-4e3d2c1b0a9f
      snapshot_id: 7f6e5d4c-3b2a-4190-8f7e-6d5c4b3a2190
      share_id: 8a3b2c1d-0e9f-4a8b-9c7d-6e5f4a3b2c1d
      share_instance_id: 6b3a0f2e-9d4c-4b1a-8e7f-2c5d4e3f2a1b
      status: available
      progress: 100%
      provider_location: snapshot-2c1b0a9f
      created_at: '2026-12-04T10:10:00.000000'
      updated_at: '2026-12-04T10:10:02.000000'
  contains:
    id:
      description: The instance's ID.
      type: str
    snapshot_id:
      description: The snapshot it belongs to.
      type: str
    share_id:
      description: The share the snapshot was taken of.
      type: str
    share_instance_id:
      description: The share instance it was taken of.
      type: str
    status:
      description: Its status (C(available), C(creating), C(error), ...).
      type: str
    progress:
      description: How far it is, for example C(100%).
      type: str
    provider_location:
      description: The driver's name for it on the backend.
      type: str
    created_at:
      description: When it was created.
      type: str
    updated_at:
      description: When it last changed.
      type: str
    export_locations:
      description: Its export locations; only with O(export_locations).
      type: list
      elements: dict
      contains:
        id:
          description: The export location's ID.
          type: str
        path:
          description: What a client mounts.
          type: str
        is_admin_only:
          description: Whether it is for admins only.
          type: bool
        share_snapshot_instance_id:
          description: The instance it belongs to.
          type: str
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
'''

from ansible_collections.openkeel.manila.plugins.module_utils import instances
from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule


class ShareSnapshotInstanceInfoModule(ManilaModule):
    argument_spec = dict(
        snapshot=dict(type='str'),
        export_locations=dict(type='bool', default=False),
    )

    def run(self):
        p = self.params
        snapshot_id = None
        if p['snapshot']:
            snapshot_id = instances.resolve(self.client, 'snapshot', p['snapshot'], 'snapshot')
        found = instances.snapshot_instances(self.client, snapshot_id)
        if p['export_locations']:
            found = instances.with_export_locations(self.client, found, snapshot=True)
        self.finish(snapshot_instances=found)


def main():
    ShareSnapshotInstanceInfoModule()()


if __name__ == '__main__':
    main()
