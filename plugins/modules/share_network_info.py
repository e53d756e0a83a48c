#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_network_info
short_description: List OpenStack Manila share networks with their subnets
version_added: 0.1.0
description:
  - Returns the share networks matching the filters, with their subnets (API
    2.51+) and, on request, the security services attached to each. Manila
    applies the filters itself.
  - Never fails because nothing matched.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
  - openkeel.manila.attributes.info_module
options:
  name:
    description:
      - Exact name, or a share network ID.
      - A UUID-shaped value is tried as a share network ID first (one request), then as a
        name when no share network has that ID, as in openstack.cloud; the share network with that ID
        must also match the other filters given. Any other value costs no extra request.
    type: str
  id:
    description: Network ID (a UUID; any other value is refused).
    type: str
  name_pattern:
    description: Part of the name (Manila's C(name~) filter, API 2.36+).
    type: str
  security_service:
    description: Only networks this security service (name or ID) is attached to.
    type: str
  neutron_net_id:
    description: Only networks with a subnet on this Neutron network (its ID, a UUID).
    type: str
  neutron_subnet_id:
    description: Only networks with a subnet on this Neutron subnet (its ID, a UUID).
    type: str
  project:
    description:
      - Only networks of this project ID (admins). A user without the admin
        role gets a failure (unless the ID is the user's own project), not the
        own networks Manila would answer with.
    type: str
  all_projects:
    description:
      - Networks of every project (admins). A user without the admin role gets
        a failure, not the own networks Manila would answer with.
    type: bool
    default: false
  with_security_services:
    description: Add each network's attached security services (one request per network).
    type: bool
    default: false
'''

EXAMPLES = r'''
- name: One network, with its security services
  openkeel.manila.share_network_info:
    cloud: mycloud
    name: app-net
    with_security_services: true
  register: net

- name: Which networks use the LDAP directory?
  openkeel.manila.share_network_info:
    cloud: mycloud
    security_service: corp-ldap
'''

RETURN = r'''
share_networks:
  description: The matching networks as Manila shows them at the negotiated version.
  returned: always
  type: list
  elements: dict
  sample: [{"id": "2b0c3d6e-1f0a-4c41-9a3c-5d6e7f809a1b", "name": "app-net", "description": null,
            "project_id": "6a0d1e0b4c7e4f4e9b1e2d3c4b5a6978", "status": "active",
            "created_at": "2026-12-01T09:00:00.000000",
            "share_network_subnets": [{"id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                                       "availability_zone": null,
                                       "neutron_net_id": "4e5f6a7b-8c9d-4e0f-8a1b-2c3d4e5f6a7b",
                                       "neutron_subnet_id": "5f6a7b8c-9d0e-4f1a-8b2c-3d4e5f6a7b8c",
                                       "network_type": null,
                                       "segmentation_id": null,
                                       "cidr": null,
                                       "ip_version": null,
                                       "gateway": null, "mtu": null}],
            "security_services": [{"id": "5f3b8b1e-2a43-4f0e-a2a4-4bd5d4c0f1aa", "name": "corp-ldap",
                                   "type": "ldap"}]}]
  contains:
    id:
      description: Network ID.
      type: str
    name:
      description: Name.
      type: str
    description:
      description: Description.
      type: str
    project_id:
      description: The project that owns the network.
      type: str
    status:
      description: V(active), V(network_change) or V(error) (API 2.63+).
      type: str
    security_service_update_support:
      description: Whether its security services can change while it has share servers (API 2.63+).
      type: bool
    network_allocation_update_support:
      description: Whether subnets can be added while it has share servers (API 2.70+).
      type: bool
    created_at:
      description: When the network was made.
      type: str
    updated_at:
      description: When it last changed.
      type: str
    share_network_subnets:
      description:
        - Its subnets (API 2.51+; below, the network itself has C(neutron_net_id),
          C(neutron_subnet_id) and the other fields of one subnet).
      type: list
      elements: dict
      contains:
        id:
          description: Subnet ID.
          type: str
        availability_zone:
          description: The availability zone of the subnet (null for the network's default subnet).
          type: str
        neutron_net_id:
          description: The Neutron network.
          type: str
        neutron_subnet_id:
          description: The Neutron subnet.
          type: str
        network_type:
          description: The segmentation kind, for example V(vlan) or V(flat) (known once a share server exists).
          type: str
        segmentation_id:
          description: The VLAN or tunnel ID.
          type: int
        cidr:
          description: The subnet's address range.
          type: str
        ip_version:
          description: V(4) or V(6).
          type: int
        gateway:
          description: The subnet's gateway.
          type: str
        mtu:
          description: The subnet's MTU.
          type: int
        metadata:
          description: The subnet's metadata, free-form keys (API 2.78+).
          type: dict
          elements: str
        created_at:
          description: When the subnet was made.
          type: str
        updated_at:
          description: When it last changed.
          type: str
    security_services:
      description: The attached security services.
      returned: with O(with_security_services)
      type: list
      elements: dict
      contains:
        id:
          description: Service ID.
          type: str
        name:
          description: Service name.
          type: str
        type:
          description: V(active_directory), V(kerberos) or V(ldap).
          type: str
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
  sample: '2.99'
'''

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule
from ansible_collections.openkeel.manila.plugins.module_utils.share_networks import (
    ShareNetworkAPI,
    result_view,
)


class ShareNetworkInfoModule(ManilaModule):
    argument_spec = dict(
        name=dict(type='str'),
        id=dict(type='str'),
        name_pattern=dict(type='str'),
        security_service=dict(type='str'),
        neutron_net_id=dict(type='str'),
        neutron_subnet_id=dict(type='str'),
        project=dict(type='str'),
        all_projects=dict(type='bool', default=False),
        with_security_services=dict(type='bool', default=False),
    )

    def run(self):
        p = self.params
        lookups.check_id_filters(p, ('id', 'neutron_net_id', 'neutron_subnet_id'))
        lookups.refuse_other_projects(self.client, 'share networks', p['project'], p['all_projects'])
        if p['name_pattern']:
            self.client.require('name_pattern_filter', 'The name_pattern filter')
        query = {
            'name': p['name'],
            'id': p['id'],
            'name~': p['name_pattern'],
            'neutron_net_id': p['neutron_net_id'],
            'neutron_subnet_id': p['neutron_subnet_id'],
        }
        if p['security_service']:
            query['security_service_id'] = lookups.resolve_id(
                self.client, 'security_service', p['security_service'], option='security_service')
        if p['project'] or p['all_projects']:
            query['all_tenants'] = 1
        if p['project']:
            query['project_id'] = p['project']

        def listing(name):
            return lookups.list_all(self.client, 'share-networks/detail', 'share_networks',
                                    dict(query, name=name))
        networks = lookups.listed_by_name_or_id(
            self.client, 'share_network', p['name'], listing,
            other_filters=any(v is not None for k, v in query.items() if k != 'name'))
        if p['with_security_services']:
            api = ShareNetworkAPI(self.client)
            networks = [result_view(n, api.security_services(n['id'])) for n in networks]
        self.finish(share_networks=networks)


def main():
    ShareNetworkInfoModule()()


if __name__ == '__main__':
    main()
