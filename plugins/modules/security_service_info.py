#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: security_service_info
short_description: List OpenStack Manila security services
version_added: 0.1.0
description:
  - Returns the security services matching the filters, each with the IDs of
    the share networks it is attached to. Manila applies the filters itself.
  - Passwords are never returned.
  - Manila returns at most its C(osapi_max_limit) (1000 by default) services
    to one listing, and this listing cannot be paged (Manila treats paging
    parameters of an admin as filters).
  - Never fails because nothing matched.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
  - openkeel.manila.attributes.info_module
options:
  name:
    description:
      - Exact name, or a security service ID.
      - A UUID-shaped value is tried as a security service ID first (one request), then as a
        name when no security service has that ID, as in openstack.cloud; the security service with that ID
        must also match the other filters given. Any other value costs no extra request.
    type: str
  id:
    description: Service ID (a UUID; any other value is refused).
    type: str
  type:
    description: Only services of this type.
    type: str
    choices: [active_directory, kerberos, ldap]
  server:
    description: Exact server.
    type: str
  domain:
    description: Exact domain.
    type: str
  user:
    description: Exact user.
    type: str
  dns_ip:
    description: Exact DNS server.
    type: str
  share_network:
    description: Only the services attached to this share network (name or ID).
    type: str
  all_projects:
    description:
      - Services of every project (admins). A user without the admin role gets
        a failure, not the own services Manila would answer with.
    type: bool
    default: false
'''

EXAMPLES = r'''
- name: The services attached to a share network
  openkeel.manila.security_service_info:
    cloud: mycloud
    share_network: app-net
  register: attached

- name: Every Active Directory service of every project (admin)
  openkeel.manila.security_service_info:
    cloud: mycloud
    type: active_directory
    all_projects: true
'''

RETURN = r'''
security_services:
  description: The matching services, without passwords.
  returned: always
  type: list
  elements: dict
  sample: [{"id": "b1c2d3e4-5555-4666-8777-888899990000", "name": "corp-ad", "type": "active_directory",
            "share_networks": ["c2d3e4f5-6666-4777-8888-999900001111"]}]
  contains:
    id:
      description: Service ID.
      type: str
    name:
      description: Name.
      type: str
    description:
      description: Description.
      type: str
    type:
      description: V(active_directory), V(kerberos) or V(ldap).
      type: str
    dns_ip:
      description: DNS server.
      type: str
    server:
      description: Directory server.
      type: str
    domain:
      description: Domain.
      type: str
    user:
      description: User (its password is never returned).
      type: str
    ou:
      description: Organizational unit (API 2.44+).
      type: str
    default_ad_site:
      description: Default AD site (API 2.76+).
      type: str
    project_id:
      description: The project that owns the service.
      type: str
    status:
      description: Always V(new) (Manila keeps the field for compatibility).
      type: str
    created_at:
      description: When the service was made.
      type: str
    updated_at:
      description: When it last changed.
      type: str
    share_networks:
      description: IDs of the share networks it is attached to.
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
from ansible_collections.openkeel.manila.plugins.module_utils.security_services import (
    SERVICE_TYPES,
    public_view,
)

FILTERS = ('name', 'id', 'type', 'server', 'domain', 'user', 'dns_ip')


class SecurityServiceInfoModule(ManilaModule):
    argument_spec = dict(
        name=dict(type='str'),
        id=dict(type='str'),
        type=dict(type='str', choices=list(SERVICE_TYPES)),
        server=dict(type='str'),
        domain=dict(type='str'),
        user=dict(type='str'),
        dns_ip=dict(type='str'),
        share_network=dict(type='str'),
        all_projects=dict(type='bool', default=False),
    )

    def run(self):
        p = self.params
        lookups.check_id_filters(p, ('id',))
        lookups.refuse_other_projects(self.client, 'security services', None, p['all_projects'])
        query = dict((k, p[k]) for k in FILTERS)
        if p['share_network']:
            query['share_network_id'] = lookups.resolve_id(
                self.client, 'share_network', p['share_network'], option='share_network')
        if p['all_projects']:
            query['all_tenants'] = 1
        # One request: Manila takes limit/offset of an admin's listing for
        # filters on the services and matches none, so this listing cannot
        # page; Manila returns up to its osapi_max_limit (1000) services.

        def listing(name):
            return self.client.get('security-services/detail', query=dict(query, name=name)).get(
                'security_services', [])
        found = lookups.listed_by_name_or_id(
            self.client, 'security_service', p['name'], listing,
            other_filters=any(v is not None for k, v in query.items() if k != 'name'))
        self.finish(security_services=[public_view(s) for s in found])


def main():
    SecurityServiceInfoModule()()


if __name__ == '__main__':
    main()
