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
  description: The matching shares as Manila shows them at the negotiated version.
  returned: always
  type: list
  elements: dict
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
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
