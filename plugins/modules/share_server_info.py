#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_server_info
short_description: List OpenStack Manila share servers and the shares on each
version_added: 0.1.0
description:
  - Returns Manila's share servers (C(GET /share-servers)), the servers a
    backend that handles share servers (share types with
    C(driver_handles_share_servers=true)) creates on a share network for its
    shares, as C(openstack share server list) does, each with the shares it
    holds. This is where a storage team finds the server left behind after a
    network's shares were deleted, or the one to drain before maintenance.
  - The filters are applied by Manila, in one request; the shares on each
    server are one more request per server (O(with_shares)). With
    O(share_network), O(share_network_subnet) or O(project), the O(host) and
    O(status) filters are matched in Manila's answer instead (Manila 23.0
    fails such a combined listing with HTTP 500).
  - Share servers are admin-only under Manila's default policy; a member gets
    a clear refusal (HTTP 403).
  - Never fails because nothing matched.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
  - openkeel.manila.attributes.info_module
options:
  id:
    description:
      - ID of one share server; only it is returned (none when it does not
        exist), with its C(backend_details) and C(created_at). The other
        filters do not apply then.
    type: str
  share_network:
    description:
      - Only servers on this share network, by name or ID (Manila matches
        both; networks of several projects with one name all match, so give
        an ID to be exact).
    type: str
  share_network_subnet:
    description: Only servers on this share network subnet (its ID).
    type: str
  host:
    description:
      - Only servers on this backend host, as Manila names it
        (C(host@backend), for example V(storage1@delta)); matched whole.
    type: str
  status:
    description: Only servers in this status.
    type: str
    choices: [active, creating, deleting, error, inactive, manage_error,
              manage_starting, network_change, server_migrating,
              server_migrating_to, unmanage_error, unmanage_starting]
  project:
    description: Only servers of this project (its ID).
    type: str
  with_shares:
    description:
      - Add C(shares), the shares of every project on each server (one
        request per server). V(false) sends the listing only.
    type: bool
    default: true
seealso:
  - module: openkeel.manila.share_network
  - module: openkeel.manila.share_service_info
'''

EXAMPLES = r'''
- name: Share servers that hold no share
  openkeel.manila.share_server_info:
    cloud: admin
  register: servers

- name: Say which
  ansible.builtin.debug:
    msg: "{{ servers.share_servers | selectattr('shares', 'equalto', []) | map(attribute='id') | list }}"

- name: The servers of one network, without their shares
  openkeel.manila.share_server_info:
    cloud: admin
    share_network: app-net
    with_shares: false
  register: network_servers
'''

RETURN = r'''
share_servers:
  description: The matching share servers, sorted by host and ID.
  returned: always
  type: list
  elements: dict
  sample:
    - id: 5c2a0e7e-8b1d-4f7a-9a36-0f4e3b2d1c90
      host: storage1@delta
      status: active
      share_network_id: 0b0d1a57-2f4e-4f3c-9a52-5a7d3c6e8f10
      share_network_name: team-net
      project_id: 9705762f3d084319946992f119b197c0
      updated_at: '2026-12-04T10:00:01.000000'
      is_auto_deletable: true
      identifier: 5c2a0e7e-8b1d-4f7a-9a36-0f4e3b2d1c90
      share_network_subnet_ids: [3f1e2d4c-5b6a-4789-8a0b-1c2d3e4f5a6b]
      shares:
        - id: 8a3b2c1d-0e9f-4a8b-9c7d-6e5f4a3b2c1d
          name: team-data
          status: available
          size: 10
          share_proto: NFS
          project_id: 9705762f3d084319946992f119b197c0
  contains:
    id:
      description: The server's ID.
      type: str
    host:
      description: The backend it lives on, C(host@backend).
      type: str
    status:
      description: Its status (C(active), C(error), C(deleting), ...).
      type: str
    share_network_id:
      description: The share network it serves.
      type: str
    share_network_name:
      description: That network's name (its ID when it has none).
      type: str
    project_id:
      description: The project of that network.
      type: str
    updated_at:
      description: When Manila last changed it.
      type: str
    created_at:
      description: When it was created; only for a server asked for by O(id).
      type: str
    backend_details:
      description:
        - What the driver keeps about the server (addresses, names of the
          virtual machine or vserver), as strings; only for a server asked
          for by O(id). Free-form keys, the driver's own.
      type: dict
      elements: str
    is_auto_deletable:
      description:
        - Whether Manila deletes it once its last share is gone (API 2.49+).
      type: bool
    identifier:
      description: The driver's name for it (API 2.49+).
      type: str
    share_network_subnet_id:
      description: The subnet it serves (API 2.51 to 2.69).
      type: str
    share_network_subnet_ids:
      description: The subnets it serves (API 2.70+).
      type: list
      elements: str
    task_state:
      description: A share server migration under way (API 2.57+).
      type: str
    source_share_server_id:
      description: The server it is migrated from (API 2.57+).
      type: str
    security_service_update_support:
      description: Whether its security services may change while in use (API 2.63+).
      type: bool
    network_allocation_update_support:
      description: Whether its network allocations may change (API 2.70+).
      type: bool
    encryption_key_ref:
      description: The encryption key it uses (API 2.90+).
      type: str
    shares:
      description:
        - The shares of every project on it, sorted by name; only with
          O(with_shares).
      type: list
      elements: dict
      contains:
        id:
          description: The share's ID.
          type: str
        name:
          description: Its name.
          type: str
        status:
          description: Its status.
          type: str
        size:
          description: Its size in GiB.
          type: int
        share_proto:
          description: Its protocol.
          type: str
        project_id:
          description: Its project.
          type: str
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
'''

from ansible_collections.openkeel.manila.plugins.module_utils import share_servers
from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule
from ansible_collections.openkeel.manila.plugins.module_utils.states import SHARE_SERVER_STATUSES


class ShareServerInfoModule(ManilaModule):
    argument_spec = dict(
        id=dict(type='str'),
        share_network=dict(type='str'),
        share_network_subnet=dict(type='str'),
        host=dict(type='str'),
        status=dict(type='str', choices=sorted(SHARE_SERVER_STATUSES)),
        project=dict(type='str'),
        with_shares=dict(type='bool', default=True),
    )
    module_kwargs = dict(mutually_exclusive=[
        ('id', name) for name in ('share_network', 'share_network_subnet', 'host', 'status',
                                  'project')])

    def run(self):
        p = self.params
        if p['id']:
            found = share_servers.get_server(self.client, p['id'])
            servers = [found] if found else []
        else:
            servers = share_servers.list_servers(
                self.client, host=p['host'], status=p['status'],
                share_network=p['share_network'],
                share_network_subnet_id=p['share_network_subnet'], project_id=p['project'])
        if p['with_shares']:
            servers = share_servers.with_shares(self.client, servers)
        self.finish(share_servers=servers)


def main():
    ShareServerInfoModule()()


if __name__ == '__main__':
    main()
