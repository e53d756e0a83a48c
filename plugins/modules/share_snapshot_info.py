#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_snapshot_info
short_description: List OpenStack Manila share snapshots with server-side filters
version_added: 0.1.0
description:
  - Returns every snapshot matching the filters, newest first (the order in
    which Manila picks a share's latest snapshot, the only one it reverts
    to). Manila applies the filters itself; results are paged internally.
  - A filter the negotiated API version cannot apply is refused with an error
    (Manila would silently drop it and return every snapshot).
  - Never fails because nothing matched.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
  - openkeel.manila.attributes.info_module
options:
  share:
    description: Name or ID of the share whose snapshots to list.
    type: str
  name:
    description:
      - Exact snapshot name, or a snapshot ID.
      - A UUID-shaped value is tried as a snapshot ID first (one request), then as a
        name when no snapshot has that ID, as in openstack.cloud; the snapshot with that ID
        must also match the other filters given. Any other value costs no extra request.
    type: str
  name_pattern:
    description: Part of the name (Manila's C(name~) filter, API 2.36+).
    type: str
  status:
    description: Snapshot status, for example V(available) or V(error).
    type: str
  metadata:
    description: Metadata every returned snapshot carries (API 2.73+).
    type: dict
  project:
    description:
      - Only snapshots of this project ID (admins; implies O(all_projects)).
      - Manila ignores it for a user without the admin role and answers with
        the user's own snapshots; the task then fails instead (unless the ID
        is the user's own project).
    type: str
  all_projects:
    description:
      - Snapshots of every project (admins). A user without the admin role
        gets a failure, not the own snapshots Manila would answer with.
    type: bool
    default: false
  with_export_locations:
    description:
      - Add each snapshot's export locations (API 2.32+; one request per
        snapshot). Only snapshots of shares whose type has
        C(mount_snapshot_support) have any.
    type: bool
    default: false
seealso:
  - module: openkeel.manila.share_snapshot
'''

EXAMPLES = r'''
- name: The snapshots of a share, newest first
  openkeel.manila.share_snapshot_info:
    cloud: mycloud
    share: projects
  register: snaps

- name: The one Manila would revert the share to
  ansible.builtin.debug:
    msg: "{{ snaps.snapshots[0].name }} ({{ snaps.snapshots[0].created_at }})"
  when: snaps.snapshots | length > 0

- name: Snapshots in error, every project (admin)
  openkeel.manila.share_snapshot_info:
    cloud: mycloud
    status: error
    all_projects: true

- name: Where to mount the snapshots tagged for a ticket
  openkeel.manila.share_snapshot_info:
    cloud: mycloud
    metadata:
      ticket: CHG-1234
    with_export_locations: true
'''

RETURN = r'''
snapshots:
  description:
    - The matching snapshots as Manila shows them at the negotiated version,
      newest first; with O(with_export_locations) each has
      C(export_locations).
    - A member does not see C(provider_location), nor an export location's C(is_admin_only)
      and C(share_snapshot_instance_id) (and no admin-only export location at all).
  returned: always
  type: list
  elements: dict
  sample: [{"id": "3f2e1d0c-aaaa-4bbb-8ccc-dddddddddddd", "name": "nightly", "description": null,
            "share_id": "0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a", "share_size": 10, "size": 10,
            "share_proto": "NFS", "status": "available",
            "created_at": "2026-12-01T02:00:00.000000",
            "project_id": "6a0d1e0b4c7e4f4e9b1e2d3c4b5a6978", "metadata": {},
            "export_locations": []}]
  contains:
    id:
      description: Snapshot ID.
      type: str
    name:
      description: Snapshot name.
      type: str
    description:
      description: Snapshot description.
      type: str
    share_id:
      description: ID of the share it belongs to.
      type: str
    share_size:
      description: The share's size in GiB when the snapshot was taken.
      type: int
    size:
      description: Size in GiB.
      type: int
    share_proto:
      description: The share's protocol.
      type: str
    status:
      description: Snapshot status, for example V(available), V(creating) or V(error).
      type: str
    created_at:
      description: When Manila took it (UTC).
      type: str
    user_id:
      description: The user who took it (API 2.17+).
      type: str
    project_id:
      description: The project it belongs to (API 2.17+).
      type: str
    provider_location:
      description: Where the backend keeps it (API 2.12+; admins only, members do not see it).
      type: str
    metadata:
      description: Its metadata, free-form keys (API 2.73+).
      type: dict
      elements: str
    export_locations:
      description: Where the snapshot can be mounted (API 2.32+; empty when it cannot be).
      returned: with O(with_export_locations)
      type: list
      elements: dict
      contains:
        id:
          description: Export location ID.
          type: str
        path:
          description: The path a client mounts.
          type: str
        is_admin_only:
          description:
            - Whether the location is for admins only. Admins only see this field; members are not
              shown admin-only locations at all.
          type: bool
        share_snapshot_instance_id:
          description: The snapshot instance the location belongs to (admins only).
          type: str
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
  sample: '2.99'
'''

import json

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule
from ansible_collections.openkeel.manila.plugins.module_utils.snapshots import SnapshotAPI

# option -> (feature the server needs to apply it, how the error names it)
OPTION_FEATURES = {
    'name_pattern': ('name_pattern_filter', 'The name_pattern filter'),
    'metadata': ('snapshot_metadata', 'The metadata filter'),
    'with_export_locations': ('snapshot_export_locations', 'Snapshot export locations'),
}


class ShareSnapshotInfoModule(ManilaModule):
    argument_spec = dict(
        share=dict(type='str'),
        name=dict(type='str'),
        name_pattern=dict(type='str'),
        status=dict(type='str'),
        metadata=dict(type='dict'),
        project=dict(type='str'),
        all_projects=dict(type='bool', default=False),
        with_export_locations=dict(type='bool', default=False),
    )

    def run(self):
        p = self.params
        lookups.refuse_other_projects(self.client, 'snapshots', p['project'], p['all_projects'])
        for option, (feature, what) in OPTION_FEATURES.items():
            if p[option]:
                self.client.require(feature, what)
        query = self.query()

        def listing(name):
            return lookups.list_all(self.client, 'snapshots/detail', 'snapshots',
                                    dict(query, name=name))
        snapshots = lookups.listed_by_name_or_id(
            self.client, 'snapshot', p['name'], listing, other_filters=any(
                v is not None for k, v in query.items()
                if k not in ('name', 'sort_key', 'sort_dir')))
        if p['with_export_locations']:
            api = SnapshotAPI(self.client)
            snapshots = [dict(s, export_locations=api.export_locations(s['id']))
                         for s in snapshots]
        self.finish(snapshots=snapshots)

    def query(self):
        p = self.params
        query = {
            'share_id': lookups.resolve_id(self.client, 'share', p['share'], option='share')
            if p['share'] else None,
            'name': p['name'],
            'name~': p['name_pattern'],
            'status': p['status'],
        }
        if p['metadata']:
            query['metadata'] = json.dumps(dict(
                (str(k), str(v)) for k, v in p['metadata'].items()), sort_keys=True)
        if p['project'] or p['all_projects']:
            query['all_tenants'] = '1'
        if p['project']:
            query['project_id'] = p['project']
        query.update(sort_key='created_at', sort_dir='desc')
        return query


def main():
    ShareSnapshotInfoModule()()


if __name__ == '__main__':
    main()
