#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_info
short_description: List OpenStack Manila shares with server-side filters
version_added: 0.1.0
description:
  - Returns every share matching the filters. Manila applies the filters
    itself; results are paged internally, so large clouds work.
  - A filter the negotiated API version cannot apply is refused with an error
    (Manila would silently drop it and return every share).
  - Never fails because nothing matched.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
  - openkeel.manila.attributes.info_module
options:
  name:
    description:
      - Exact share name, or a share ID.
      - A UUID-shaped value is tried as a share ID first (one request), then as a
        name when no share has that ID, as in openstack.cloud; the share with that ID
        must also match the other filters given. Any other value costs no extra request.
    type: str
  name_pattern:
    description: Part of the name (Manila's C(name~) filter, API 2.36+).
    type: str
  status:
    description: Share status, for example V(available) or V(error).
    type: str
  share_type:
    description: Share type name or ID.
    type: str
  share_network:
    description: Share network name or ID.
    type: str
  snapshot:
    description: Name or ID of the snapshot the shares were created from.
    type: str
  export_location:
    description:
      - Export location path, or export location ID (API 2.35+).
    type: str
  metadata:
    description: Metadata every returned share carries.
    type: dict
  availability_zone:
    description: Availability zone name (API 2.97+).
    type: str
  is_soft_deleted:
    description: List shares in the recycle bin instead (API 2.69+).
    type: bool
    default: false
  is_public:
    description: Include public shares of other projects.
    type: bool
    default: false
  project:
    description:
      - Only shares of this project ID (admins; implies O(all_projects)).
      - Manila ignores it for a user without the admin role and answers with
        the user's own shares; the task then fails instead (unless the ID is
        the user's own project).
    type: str
  all_projects:
    description:
      - Shares of every project (admins). A user without the admin role gets a
        failure, not the own shares Manila would answer with.
    type: bool
    default: false
  with_export_locations:
    description: Add each share's export locations (one request per share).
    type: bool
    default: false
'''

EXAMPLES = r'''
- name: Shares whose name contains "db"
  openkeel.manila.share_info:
    cloud: mycloud
    name_pattern: db
  register: found

- name: Shares in error, every project (admin)
  openkeel.manila.share_info:
    cloud: mycloud
    status: error
    all_projects: true

- name: One share and where to mount it
  openkeel.manila.share_info:
    cloud: mycloud
    name: projects
    with_export_locations: true
'''

RETURN = r'''
shares:
  description:
    - The matching shares as Manila shows them at the negotiated version.
    - Which fields appear depends on the microversion (each field says from which one); a member
      does not see C(host) and C(share_server_id), nor an export location's C(is_admin_only)
      and C(share_instance_id) (and no admin-only export location at all).
  returned: always
  type: list
  elements: dict
  sample: [{"id": "0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a", "name": "projects", "size": 10,
            "status": "available", "share_proto": "NFS",
            "share_type": "5e3a6c1e-8a1d-4a44-9a3b-2f6f0b8c9d11", "share_type_name": "default",
            "availability_zone": "nova", "share_network_id": null,
            "project_id": "6a0d1e0b4c7e4f4e9b1e2d3c4b5a6978", "is_public": false,
            "metadata": {"owner": "team-a"}, "access_rules_status": "active",
            "created_at": "2026-12-01T10:00:00.000000",
            "export_locations": [{"id": "5c1e7c43-7d1b-4d4f-9f62-2b8d5f3b6a10",
                                  "path": "10.0.0.5:/shares/share-1a2b",
                                  "preferred": true}]}]
  contains:
    id:
      description: Share ID.
      type: str
    name:
      description: Share name.
      type: str
    description:
      description: Share description.
      type: str
    size:
      description: Size in GiB.
      type: int
    status:
      description: Share status, for example V(available), V(creating) or V(error).
      type: str
    share_proto:
      description: Protocol, for example V(NFS), V(CIFS) or V(CEPHFS).
      type: str
    share_type:
      description: The share type's ID (API 2.6+; below, its name).
      type: str
    share_type_name:
      description: The share type's name (API 2.6+).
      type: str
    availability_zone:
      description: The availability zone of the share.
      type: str
    share_network_id:
      description: The share network (null for a share type without share servers).
      type: str
    snapshot_id:
      description: The snapshot the share was created from (null for none).
      type: str
    project_id:
      description: The project that owns the share.
      type: str
    user_id:
      description: The user who created the share (API 2.16+).
      type: str
    is_public:
      description: Whether every project may see the share.
      type: bool
    metadata:
      description: All metadata, free-form keys, Manila's own keys included.
      type: dict
      elements: str
    created_at:
      description: When the share was created (UTC, ISO 8601).
      type: str
    task_state:
      description: The migration task state (API 2.5+; null without a migration).
      type: str
    access_rules_status:
      description: V(active), V(syncing) or V(error) - whether the access rules are applied (API 2.10+).
      type: str
    replication_type:
      description: The share type's replication type (API 2.11+; null when not replicated).
      type: str
    has_replicas:
      description: Whether the share has replicas (API 2.11+).
      type: bool
    snapshot_support:
      description: Whether snapshots can be taken (API 2.2+).
      type: bool
    create_share_from_snapshot_support:
      description: Whether shares can be created from its snapshots (API 2.24+).
      type: bool
    revert_to_snapshot_support:
      description: Whether the share can be reverted to a snapshot (API 2.27+).
      type: bool
    mount_snapshot_support:
      description: Whether its snapshots can be mounted (API 2.32+).
      type: bool
    share_group_id:
      description: The share group the share belongs to (API 2.31+).
      type: str
    progress:
      description: How far the creation has come, for example V(100%) (API 2.54+).
      type: str
    is_soft_deleted:
      description: Whether the share is in the recycle bin (API 2.69+).
      type: bool
    scheduled_to_be_deleted_at:
      description: When Manila deletes a share in the recycle bin for good (API 2.69+).
      type: str
    host:
      description: The pool the share lives on, C(host@backend#pool) (admins only; members do not see it).
      type: str
    share_server_id:
      description: The share server (admins only; members do not see it).
      type: str

    export_locations:
      description:
        - The export locations, Manila's preferred ones first (members see no admin-only ones).
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
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
  sample: '2.99'
'''

import json

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule
from ansible_collections.openkeel.manila.plugins.module_utils.shares import ShareAPI

# option -> feature that the server needs to apply it
FILTER_FEATURES = {
    'name_pattern': 'name_pattern_filter',
    'export_location': 'export_location_filter',
    'availability_zone': 'availability_zone_filter',
    'is_soft_deleted': 'soft_delete',
}

# Filters given by name or ID: (option, lookup kind, Manila's filter).
REFERENCE_FILTERS = (('share_type', 'share_type', 'share_type_id'),
                     ('share_network', 'share_network', 'share_network_id'),
                     ('snapshot', 'snapshot', 'snapshot_id'))


def filtered(query, unfiltering=('name',)):
    """Whether a listing query has a filter besides the name."""
    return any(v is not None for k, v in query.items() if k not in unfiltering)


class ShareInfoModule(ManilaModule):
    argument_spec = dict(
        name=dict(type='str'),
        name_pattern=dict(type='str'),
        status=dict(type='str'),
        share_type=dict(type='str'),
        share_network=dict(type='str'),
        snapshot=dict(type='str'),
        export_location=dict(type='str'),
        metadata=dict(type='dict'),
        availability_zone=dict(type='str'),
        is_soft_deleted=dict(type='bool', default=False),
        is_public=dict(type='bool', default=False),
        project=dict(type='str'),
        all_projects=dict(type='bool', default=False),
        with_export_locations=dict(type='bool', default=False),
    )

    def run(self):
        p = self.params
        lookups.refuse_other_projects(self.client, 'shares', p['project'], p['all_projects'])
        for option, feature in FILTER_FEATURES.items():
            if p[option]:
                self.client.require(feature, 'The %s filter' % option)
        query = self.query()

        def listing(name):
            return lookups.list_all(self.client, 'shares/detail', 'shares', dict(query, name=name))
        shares = lookups.listed_by_name_or_id(
            self.client, 'share', p['name'], listing, other_filters=filtered(query),
            keep=lambda share: bool(share.get('is_soft_deleted')) == p['is_soft_deleted'])
        if p['with_export_locations']:
            api = ShareAPI(self.client)
            shares = [dict(s, export_locations=api.export_locations(s['id']))
                      for s in shares]
        self.finish(shares=shares)

    def query(self):
        p = self.params
        query = {
            'name': p['name'],
            'name~': p['name_pattern'],
            'status': p['status'],
            'availability_zone': p['availability_zone'],
        }
        for option, kind, key in REFERENCE_FILTERS:
            if p[option]:
                query[key] = lookups.resolve_id(self.client, kind, p[option], option=option)
        if p['export_location']:
            key = 'export_location_id' if lookups.looks_like_uuid(p['export_location']) \
                else 'export_location_path'
            query[key] = p['export_location']
        if p['metadata']:
            query['metadata'] = json.dumps(dict(
                (str(k), str(v)) for k, v in p['metadata'].items()), sort_keys=True)
        if p['is_soft_deleted']:
            query['is_soft_deleted'] = 'true'
        if p['is_public']:
            query['is_public'] = 'true'
        if p['project'] or p['all_projects']:
            query['all_tenants'] = '1'
        if p['project']:
            query['project_id'] = p['project']
        return query


def main():
    ShareInfoModule()()


if __name__ == '__main__':
    main()
