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
  contains:
    id:
      description: Network ID.
      type: str
    name:
      description: Name.
      type: str
    status:
      description: V(active), V(network_change) or V(error) (API 2.63+).
      type: str
    share_network_subnets:
      description: Its subnets (API 2.51+).
      type: list
      elements: dict
    security_services:
      description: Attached services (C(id), C(name), C(type)), with O(with_security_services).
      type: list
      elements: dict
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
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
