#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: security_service
short_description: Create, change and delete OpenStack Manila security services
version_added: 0.1.0
description:
  - Makes one Manila security service (the LDAP, Kerberos or Active Directory
    settings a share server joins) match the task, changing only what differs.
  - The type, and every setting newer than the negotiated API (O(ou) needs
    2.44, O(default_ad_site) 2.76), are checked before any request that writes.
  - While a share network the service is attached to has share servers,
    Manila lets only O(name) and O(description) change. The task then fails
    before any write, naming the share networks, and says how to change the
    other settings (a new service swapped into the share network, API 2.63+).
  - The password is never returned, and never shown in a diff.
  - Services are project resources, so members manage their own.
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
    description: The settings before and after (a password change shows as C((changed))).
options:
  state:
    description:
      - V(present) makes the service exist as described; V(absent) deletes it.
      - Manila refuses to delete a service attached to a share network; the
        task then fails naming the networks, before any write.
    type: str
    choices: [present, absent]
    default: present
  name:
    description:
      - Name of the service. Without O(id) it identifies the service (two
        services with the name fail the task).
      - With O(id), the name the service should have (a rename).
    type: str
  id:
    description:
      - ID of an existing service. It then identifies the service and O(name)
        becomes its desired name.
    type: str
  type:
    description:
      - The kind of directory service. Required to create a service.
      - An existing service changes type as Manila allows - like every setting
        but O(name) and O(description), not while a share network the service
        is attached to has share servers (the task then fails before any
        write, naming the share networks); attached to share networks without
        share servers, or to none, it changes.
    type: str
    choices: [active_directory, kerberos, ldap]
  description:
    description: Description. An empty string clears it.
    type: str
  dns_ip:
    description:
      - The DNS server share servers use, as an IP address (several separated
        by commas for a driver that takes more than one); not a host name.
      - At most 64 characters; the other settings (O(name), O(description),
        O(server), O(domain), O(user), O(password), O(ou),
        O(default_ad_site)) at most 255 each, checked before any request.
    type: str
  server:
    description:
      - The directory server's host name or address. An active_directory
        service takes O(server) or O(default_ad_site), not both.
    type: str
  domain:
    description: The domain (or realm for kerberos).
    type: str
  user:
    description: The user share servers bind or join with.
    type: str
  password:
    description:
      - That user's password. Never returned and never logged.
      - Sent when the service is created, and afterwards only with
        O(update_password=always).
    type: str
  update_password:
    description:
      - V(on_create) sends O(password) only when the service is created, so
        an existing service keeps its password.
      - V(always) makes the service's password O(password). Manila 23 shows
        the password to whoever may read the service, so it is compared and
        sent only when it differs; on a Manila that hides it, it is sent on
        every run (and the task reports a change, with a warning).
    type: str
    choices: [always, on_create]
    default: on_create
  ou:
    description: The organizational unit (API 2.44+).
    type: str
  default_ad_site:
    description:
      - The Active Directory site the share servers use to find domain
        controllers, instead of O(server) (API 2.76+).
    type: str
notes:
  - Option names follow Manila's API and C(openstack share security service
    create).
  - A setting left out is left as it is; an empty string clears it.
'''

EXAMPLES = r'''
- name: The LDAP directory that share servers join
  openkeel.manila.security_service:
    cloud: mycloud
    name: corp-ldap
    type: ldap
    server: ldap.example.com
    dns_ip: 10.0.0.53
    user: manila-bind
    password: "{{ ldap_bind_password }}"

- name: Active Directory, found through its site (API 2.76)
  openkeel.manila.security_service:
    cloud: mycloud
    name: corp-ad
    type: active_directory
    domain: corp.example.com
    default_ad_site: Datacenter-East
    dns_ip: 10.0.0.53
    user: Administrator
    password: "{{ ad_join_password }}"
    ou: OU=Manila,DC=corp,DC=example,DC=com

- name: Rotate the bind password
  openkeel.manila.security_service:
    cloud: mycloud
    name: corp-ldap
    password: "{{ new_ldap_bind_password }}"
    update_password: always

- name: Delete the Active Directory service
  openkeel.manila.security_service:
    cloud: mycloud
    name: corp-ad
    state: absent
'''

RETURN = r'''
security_service:
  description:
    - The service as Manila shows it at the negotiated version, without its
      password. Empty after a deletion. In check mode, the service as it
      would be (a new one has no ID).
  returned: always
  type: dict
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
      description: IDs of the share networks it is attached to (when found by name).
      type: list
      elements: str
  sample: {"id": "5f3b8b1e-2a43-4f0e-a2a4-4bd5d4c0f1aa", "name": "corp-ldap", "type": "ldap",
           "server": "ldap.example.com", "dns_ip": "10.0.0.53", "user": "manila-bind"}
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
  sample: '2.99'
'''

from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule
from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput
from ansible_collections.openkeel.manila.plugins.module_utils.resource import (
    CREATE,
    NOTHING,
    UPDATE,
)
from ansible_collections.openkeel.manila.plugins.module_utils.security_services import (
    FIELDS,
    SERVICE_TYPES,
    SecurityServiceAPI,
    in_use_error,
    label,
    plan_absent,
    plan_create,
    plan_update,
    public_view,
    required_features,
    validate,
)


class SecurityServiceModule(ManilaModule):
    argument_spec = dict(
        state=dict(type='str', default='present', choices=['present', 'absent']),
        name=dict(type='str'),
        id=dict(type='str'),
        type=dict(type='str', choices=list(SERVICE_TYPES)),
        description=dict(type='str'),
        dns_ip=dict(type='str'),
        server=dict(type='str'),
        domain=dict(type='str'),
        user=dict(type='str'),
        password=dict(type='str', no_log=True),
        update_password=dict(type='str', default='on_create', choices=['always', 'on_create'],
                             no_log=False),
        ou=dict(type='str'),
        default_ad_site=dict(type='str'),
    )
    module_kwargs = dict(required_one_of=[('name', 'id')])

    def run(self):
        p = self.params
        self.desired = dict((k, p[k]) for k in ('type', 'password') + FIELDS)
        if p['state'] == 'present':
            validate(self.desired, p['update_password'])
            for feature, field in required_features(self.desired):
                self.client.require(feature, field)
        self.api = SecurityServiceAPI(self.client)
        self.converge()

    # -- the hooks of the converge template (base.ManilaModule) ------------
    def find_current(self):
        return self.api.find(self.params['name'], self.params['id'])

    def plan(self, current):
        p = self.params
        if p['state'] == 'absent':
            networks = self.api.networks_of(current)
            if networks:
                raise InvalidInput(
                    '%s is attached to share network(s) %s; Manila deletes no service that '
                    'is attached. Detach it first (the share network\'s security_services '
                    'without it, purge_security_services=true).' % (
                        label(current), ', '.join(networks)))
            return plan_absent(current)
        if current is None:
            if p['id']:
                raise InvalidInput('No security service with ID %s exists; a service cannot '
                                   'be created with a given ID (leave out "id" to create '
                                   'one).' % p['id'])
            return plan_create(self.desired)
        plan = plan_update(current, self.desired, rename=bool(p['id']),
                           update_password=p['update_password'])
        if plan.action == NOTHING:
            return plan
        restricted = plan.restricted()
        if restricted:
            networks = self.api.networks_in_use(self.api.networks_of(current))
            if networks:
                raise InvalidInput(in_use_error(current, restricted, networks,
                                                self.client.supports(
                                                    'share_network_in_use_updates')))
        if plan.password_unknown:
            self.warn('Manila does not show the password of %s, so it cannot be compared: '
                      'update_password=always sends it on every run.' % label(current))
        return plan

    @staticmethod
    def predict(plan, current):
        if plan.action == CREATE:
            return plan.body
        if plan.action == UPDATE:
            return dict(current, **dict((k, v) for k, v in plan.body.items()
                                        if k != 'password'))
        return None

    def apply_create(self, plan, current):
        service = self.api.create(plan.body)
        # Another task may have created a service of this name at the same moment.
        service, adopted = self.api.settle_namesakes(service)
        return self.adopt(plan, service) if adopted else service

    def apply_update(self, plan, service):
        updated = self.api.update(service['id'], plan.body)
        if 'share_networks' in service:
            updated = dict(updated, share_networks=service['share_networks'])
        return updated

    def apply_delete(self, plan, service):
        self.api.delete(service['id'])

    def result(self, plan, resource):
        return dict(security_service=public_view(resource))


def main():
    SecurityServiceModule()()


if __name__ == '__main__':
    main()
