#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_replica_info
short_description: List the replicas of an OpenStack Manila share
version_added: 0.1.0
description:
  - Returns the replicas of one share (or every replica this user may see)
    with their status, C(replica_state), zone and, from API 2.47, their
    export locations.
  - Below API 2.56 the experimental header is sent (replication was
    experimental in Manila until then).
  - Never fails because nothing matched.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
  - openkeel.manila.attributes.info_module
options:
  share:
    description: Name or ID of the share whose replicas to list.
    type: str
  replica_state:
    description: Only replicas in this replica_state.
    type: str
    choices: [active, in_sync, out_of_sync, error]
  with_export_locations:
    description:
      - Add each replica's export locations (API 2.47+; one request per
        replica).
    type: bool
    default: true
seealso:
  - module: openkeel.manila.share_replica
'''

EXAMPLES = r'''
- name: The replicas of the projects share
  openkeel.manila.share_replica_info:
    cloud: mycloud
    share: projects
  register: found

- name: Where the active replica is mounted
  ansible.builtin.debug:
    msg: "{{ (found.replicas | selectattr('replica_state', 'eq', 'active') | first).export_locations }}"
'''

RETURN = r'''
replicas:
  description:
    - The replicas, active first, as Manila shows them; with
      O(with_export_locations) each has C(export_locations) (empty below
      API 2.47; Manila's preferred ones first) and C(export_paths) (the
      paths a client mounts, the preferred one first, admin-only locations
      left out, as the C(export_paths) of M(openkeel.manila.shares)).
  returned: always
  type: list
  elements: dict
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
'''

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule
from ansible_collections.openkeel.manila.plugins.module_utils.replicas import ReplicaAPI
from ansible_collections.openkeel.manila.plugins.module_utils.states import REPLICA_STATE_ACTIVE


class ShareReplicaInfoModule(ManilaModule):
    argument_spec = dict(
        share=dict(type='str'),
        replica_state=dict(type='str', choices=['active', 'in_sync', 'out_of_sync', 'error']),
        with_export_locations=dict(type='bool', default=True),
    )

    def run(self):
        p = self.params
        api = ReplicaAPI(self.client)
        api.require()
        share_id = None
        if p['share']:
            share_id = lookups.resolve_id(self.client, 'share', p['share'], option='share')
        replicas = api.list_for_share(share_id)
        if p['replica_state']:
            replicas = [r for r in replicas if r.get('replica_state') == p['replica_state']]
        replicas.sort(key=lambda r: (r.get('replica_state') != REPLICA_STATE_ACTIVE,
                                     str(r.get('created_at') or ''), r['id']))
        if p['with_export_locations']:
            replicas = [api.with_exports(r) for r in replicas]
        self.finish(replicas=replicas)


def main():
    ShareReplicaInfoModule()()


if __name__ == '__main__':
    main()
