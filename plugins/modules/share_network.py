#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_network
short_description: Create, change and delete OpenStack Manila share networks, their subnets and security services
version_added: 0.1.0
description:
  - Makes one Manila share network match the task. Share types that handle
    share servers (C(driver_handles_share_servers=true)) need one to create
    a share on.
  - O(subnets) is the network's list of subnets, one per availability zone
    (API 2.51+); subnets are created and deleted to match it. O(neutron_net_id)
    and O(neutron_subnet_id) set the default subnet alone.
  - O(security_services) attaches services; with O(purge_security_services)
    it is the exact set, and a service replaces the attached one of its type.
  - What Manila forbids while share servers use the network is refused before
    any write, with the reason - changing the default subnet's neutron IDs,
    deleting a subnet that shares use, detaching a security service, adding
    or replacing one below API 2.63. From API 2.63 a service is added to (or
    replaced on) a network in use after Manila's feasibility check, and the
    task waits until the share servers are updated.
  - From API 2.63, what Manila checks before it changes the security services
    of a network in use is read first, and the task is refused before any
    write (its rename and subnet changes too) when the backends cannot update
    share servers in use (C(security_service_update_support) false), a share
    server is not active (admins), a share on the network is not available or
    its access rules are not applied, or a share is in the recycle bin. The
    backends' feasibility check of the first change is also asked before the
    task's other changes are sent.
  - Share servers are admin-only in Manila's default policy. For a member,
    a network counts as in use when it has shares, and a share uses the
    subnet that served its zone when it was created; when Manila still
    refuses (share servers remain after their last share), the failure says
    so.
  - When a security service change fails, the error adds Manila's user
    messages of that security service (Manila files none under the network).
  - Share networks are project resources, so members manage their own.
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
    description: Name, description, subnets and security services before and after.
options:
  state:
    description:
      - V(present) makes the network exist as described; V(absent) deletes it
        (its extra subnets first). A network that shares (also in the recycle
        bin), share groups or share servers Manila did not create (seen by
        admins) use is refused before any subnet is deleted, naming them.
    type: str
    choices: [present, absent]
    default: present
  name:
    description:
      - Name of the network. Without O(id) it identifies the network (two
        networks with the name fail the task).
      - With O(id), the name the network should have (a rename).
      - At most 255 characters, and not empty or blank.
    type: str
  id:
    description:
      - ID of an existing network. It then identifies the network and O(name)
        becomes its desired name.
    type: str
  description:
    description: Description (at most 255 characters). An empty string clears it.
    type: str
  neutron_net_id:
    description:
      - The Neutron network of the default subnet (the one that serves every
        availability zone). Give O(neutron_subnet_id) with it.
      - Other subnets are left alone. Cannot be combined with O(subnets).
    type: str
  neutron_subnet_id:
    description: The Neutron subnet of the default subnet, with O(neutron_net_id).
    type: str
  subnets:
    description:
      - Every subnet of the network (API 2.51+), at most one per availability
        zone; subnets not listed are deleted. An entry without
        O(subnets[].availability_zone) is the default subnet, which serves
        every zone.
      - A new network is created with the default subnet (or the first entry
        when there is none), then the others are added.
      - A subnet whose neutron IDs differ is changed in place when it is the
        default subnet, otherwise deleted and created again.
      - Availability zones are checked against the cloud before any write.
    type: list
    elements: dict
    suboptions:
      availability_zone:
        description: The zone the subnet serves; leave out for the default subnet.
        type: str
      neutron_net_id:
        description: Neutron network ID (with O(subnets[].neutron_subnet_id)).
        type: str
      neutron_subnet_id:
        description: Neutron subnet ID (with O(subnets[].neutron_net_id)).
        type: str
  security_services:
    description:
      - Security services (names or IDs) the network has, at most one of each
        type. Services already attached are matched by name or ID without a
        request; the others must exist.
      - Others stay attached unless O(purge_security_services) is set.
    type: list
    elements: str
  purge_security_services:
    description:
      - Detach every service that O(security_services) does not list; a listed
        service replaces an attached one of the same type.
    type: bool
    default: false
  wait:
    description:
      - Wait until the network is V(active) again after a change to its
        security services that its share servers must apply (API 2.63+).
    type: bool
    default: true
  timeout:
    description: Seconds to wait.
    type: int
    default: 180
notes:
  - The Neutron IDs are stored as given; clouds with the standalone network
    plugin (no Neutron) ignore them.
'''

EXAMPLES = r'''
- name: A share network on a Neutron subnet, joined to the LDAP directory
  openkeel.manila.share_network:
    cloud: mycloud
    name: app-net
    description: NFS for the app tier
    neutron_net_id: 7ac8e0f1-77a5-4e0b-9c74-1c0e8c1c3a10
    neutron_subnet_id: 4e0f54f2-3b1d-4a63-8f54-94a5b6f0b1c2
    security_services:
      - corp-ldap

- name: One subnet per availability zone, and nothing else
  openkeel.manila.share_network:
    cloud: mycloud
    name: app-net
    subnets:
      - neutron_net_id: 7ac8e0f1-77a5-4e0b-9c74-1c0e8c1c3a10
        neutron_subnet_id: 4e0f54f2-3b1d-4a63-8f54-94a5b6f0b1c2
      - availability_zone: nova
        neutron_net_id: 7ac8e0f1-77a5-4e0b-9c74-1c0e8c1c3a10
        neutron_subnet_id: 9d1c6f4e-5b1a-4f7e-8c2d-3e4f5a6b7c8d

- name: Exactly these security services (the listed LDAP service replaces the attached one)
  openkeel.manila.share_network:
    cloud: mycloud
    name: app-net
    security_services:
      - corp-ldap
    purge_security_services: true

- name: Delete the network
  openkeel.manila.share_network:
    cloud: mycloud
    name: app-net
    state: absent
'''

RETURN = r'''
share_network:
  description:
    - The network as Manila shows it at the negotiated version, with the
      security services attached to it. Empty after a deletion. In check
      mode, the network as it is (or would be created).
    - When a wait fails (the network went to C(error), or the timeout ran
      out), the network as the last read of the wait showed it, without the
      list of its security services.
  returned: always
  type: dict
  sample: {"id": "2b0c3d6e-1f0a-4c41-9a3c-5d6e7f809a1b", "name": "app-net", "description": null,
           "project_id": "6a0d1e0b4c7e4f4e9b1e2d3c4b5a6978", "status": "active",
           "created_at": "2026-12-01T09:00:00.000000",
           "share_network_subnets": [{"id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                                      "availability_zone": null,
                                      "neutron_net_id": "4e5f6a7b-8c9d-4e0f-8a1b-2c3d4e5f6a7b",
                                      "neutron_subnet_id": "5f6a7b8c-9d0e-4f1a-8b2c-3d4e5f6a7b8c",
                                      "network_type": null,
                                      "segmentation_id": null,
                                      "cidr": null, "ip_version": null,
                                      "gateway": null, "mtu": null}],
           "security_services": [{"id": "5f3b8b1e-2a43-4f0e-a2a4-4bd5d4c0f1aa", "name": "corp-ldap",
                                  "type": "ldap"}]}
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

from ansible_collections.openkeel.manila.plugins.module_utils.base import (
    ManilaModule,
    wait_argument_spec,
)
from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput
from ansible_collections.openkeel.manila.plugins.module_utils.share_networks import (
    CREATE,
    DELETE,
    NetworkPlan,
    ShareNetworkAPI,
    Usage,
    check_can_change_services,
    check_network_input,
    create_body,
    diff_view,
    existing_subnets,
    first_subnet,
    in_use_refusals,
    network_label,
    normalize_subnets,
    plan_network,
    predicted_after,
    predicted_network,
    result_view,
    subnet_entry,
)


class ShareNetworkModule(ManilaModule):
    argument_spec = dict(
        state=dict(type='str', default='present', choices=['present', 'absent']),
        name=dict(type='str'),
        id=dict(type='str'),
        description=dict(type='str'),
        neutron_net_id=dict(type='str'),
        neutron_subnet_id=dict(type='str'),
        subnets=dict(type='list', elements='dict', options=dict(
            availability_zone=dict(type='str'),
            neutron_net_id=dict(type='str'),
            neutron_subnet_id=dict(type='str'),
        )),
        security_services=dict(type='list', elements='str'),
        purge_security_services=dict(type='bool', default=False),
        **wait_argument_spec(180)
    )
    module_kwargs = dict(
        required_one_of=[('name', 'id')],
        required_together=[('neutron_net_id', 'neutron_subnet_id')],
        mutually_exclusive=[('subnets', 'neutron_net_id'), ('subnets', 'neutron_subnet_id')],
    )

    def run(self):
        p = self.params
        check_network_input(p)
        self.desired = dict(name=p['name'], description=p['description'])
        if p['subnets'] is not None:
            self.desired['subnets'] = normalize_subnets(p['subnets'])
            self.desired['purge_subnets'] = True
            if p['state'] == 'present':
                self.client.require('share_network_subnets', 'subnets')
        elif p['neutron_net_id']:
            self.desired['subnets'] = [subnet_entry(None, p['neutron_net_id'],
                                                    p['neutron_subnet_id'])]
        self.api = ShareNetworkAPI(self.client, p['timeout'])
        self.converge()

    # -- the hooks of the converge template (base.ManilaModule) --------------
    def find_current(self):
        """The network; also its ``attached`` services and the task's (``services``)."""
        p = self.params
        network = self.api.find(p['name'], p['id'])
        self.attached = self.api.security_services(network['id']) if network else []
        self.services = None
        if p['state'] == 'present' and p['security_services'] is not None:
            self.services = self.api.resolve_services(p['security_services'], self.attached)
        return network

    def plan(self, current):
        if self.params['state'] == 'absent':
            return self.plan_absent(current)
        if current is None:
            return self.plan_create()
        return self.plan_update(current)

    def plan_create(self):
        p = self.params
        if p['id']:
            raise InvalidInput('No share network with ID %s exists; a network cannot be '
                               'created with a given ID (leave out "id" to create one).'
                               % p['id'])
        subnets = self.desired.get('subnets') or []
        self.api.check_zones([s['availability_zone'] for s in subnets])
        plan = NetworkPlan(CREATE)
        plan.first = first_subnet(subnets)
        plan.predicted = predicted_network(self.desired, plan.first)
        rest = plan_network(plan.predicted, self.desired, [], self.services,
                            p['purge_security_services'])
        plan.after = predicted_after(plan.predicted, [], rest)
        return plan

    def plan_update(self, network):
        plan = plan_network(network, self.desired, self.attached, self.services,
                            self.params['purge_security_services'],
                            rename=bool(self.params['id']))
        plan.before = diff_view(network, self.attached)
        if not plan.changed:
            plan.after = plan.before
            return plan
        if plan.service_changes:
            check_can_change_services(network)
        self.api.check_zones([s['availability_zone'] for s in plan.subnet_creates])
        if plan.update_neutron or plan.subnet_deletes or plan.service_changes:
            usage = Usage(self.client, network['id'])
            reasons = in_use_refusals(plan, network, usage,
                                      self.client.supports('share_network_in_use_updates'))
            if reasons:
                raise InvalidInput('%s cannot be changed as the task asks, and nothing was '
                                   'changed: %s.' % (network_label(network), '; '.join(reasons)))
        plan.after = predicted_after(network, self.attached, plan)
        return plan

    def plan_absent(self, network):
        plan = NetworkPlan(DELETE)
        plan.before = diff_view(network, self.attached)
        # Everything Manila would refuse the deletion for, before the first
        # extra subnet is deleted.
        reasons = Usage(self.client, network['id']).delete_blockers()
        if reasons:
            raise InvalidInput('%s cannot be deleted, and nothing was changed: %s.' % (
                network_label(network), '; '.join(reasons)))
        return plan

    def predict(self, plan, current):
        if plan.action == CREATE:
            # Check mode shows the services the task declares as attached.
            self.attached = self.services
            return dict(plan.predicted, share_network_subnets=[
                dict(s, id=None) for s in plan.after['subnets']])
        return None if plan.action == DELETE else current

    def apply_create(self, plan, current):
        p = self.params
        network = self.api.create(create_body(self.desired, plan.first))
        # Another task may have created a network of this name at the same moment.
        network, adopted = self.api.settle_namesakes(network)
        if adopted:
            # Converge on it as on a network this task had found.
            self.attached = self.api.security_services(network['id'])
            return self.adopt(plan, network)
        rest = plan_network(network, self.desired, [], self.services,
                            p['purge_security_services'])
        # fresh: no share servers yet, so no feasibility checks and no waits
        self.api.apply(network, rest, p['wait'], fresh=True)
        return self.read_back(plan, network['id'])

    def apply_update(self, plan, network):
        self.api.apply(network, plan, self.params['wait'])
        return self.read_back(plan, network['id'])

    def apply_delete(self, plan, network):
        subnets = existing_subnets(network)
        if len(subnets) > 1:
            keep = first_subnet(subnets)
            for subnet in subnets:
                if subnet is not keep:
                    self.api.delete_subnet(network['id'], subnet['id'])
        self.api.delete(network['id'])

    def read_back(self, plan, network_id):
        """The network as Manila has it after the writes (the diff's after)."""
        network = self.api.get(network_id)
        self.attached = self.api.security_services(network_id)
        plan.after = diff_view(network, self.attached)
        return network

    def result(self, plan, resource):
        return dict(share_network=result_view(resource, self.attached) if resource else {})


def main():
    ShareNetworkModule()()


if __name__ == '__main__':
    main()
