#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_pool_info
short_description: List the storage pools the OpenStack Manila scheduler knows
version_added: 0.1.0
description:
  - Returns the scheduler's pools (C(GET /scheduler-stats/pools/detail)) with
    their capabilities, so a playbook can choose a migration target and check
    that it exists.
  - The filters are applied by Manila. O(host), O(backend) and O(pool) match
    whole values here (Manila itself matches regular expressions at the start
    of a value; this module anchors and escapes them), unless O(regex) is set.
  - Listing pools is admin-only under Manila's default policy.
  - Never fails because nothing matched.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
  - openkeel.manila.attributes.info_module
options:
  name:
    description:
      - A full pool name C(host@backend#pool); only that pool is returned.
    type: str
  host:
    description: The host part of the pool name (for example V(storage1)).
    type: str
  backend:
    description: The backend part (the share service's config section).
    type: str
  pool:
    description: The pool part.
    type: str
  share_type:
    description:
      - Name or ID of a share type; only pools whose capabilities satisfy its
        extra specs are returned. An unknown type fails the task.
    type: str
  regex:
    description:
      - Pass O(host), O(backend) and O(pool) to Manila as regular expressions
        (matched at the start of the value) instead of whole values.
    type: bool
    default: false
  detail:
    description: Include each pool's capabilities.
    type: bool
    default: true
seealso:
  - module: openkeel.manila.share_migration
'''

EXAMPLES = r'''
- name: Pools that can hold gold shares
  openkeel.manila.share_pool_info:
    cloud: admin
    share_type: gold
  register: gold_pools

- name: Does the target exist?
  openkeel.manila.share_pool_info:
    cloud: admin
    name: storage@beta#pool_b
  register: target
  failed_when: target.pools | length != 1
'''

RETURN = r'''
pools:
  description:
    - The matching pools. Listing pools is admin-only by Manila's default policy (a member gets
      an error saying so).
  returned: always
  type: list
  elements: dict
  sample: [{"name": "manila@alpha#pool-a", "host": "manila", "backend": "alpha", "pool": "pool-a",
            "capabilities": {"share_backend_name": "ALPHA", "storage_protocol": "NFS_CIFS",
                             "vendor_name": "Open Source",
                             "driver_version": "1.0",
                             "total_capacity_gb": 1230.0,
                             "free_capacity_gb": 1210.0,
                             "reserved_percentage": 0,
                             "driver_handles_share_servers": false,
                             "snapshot_support": true,
                             "replication_domain": "replica_domain_1",
                             "timestamp": "2026-12-01T10:00:00.000000"}}]
  contains:
    name:
      description: Full pool name, C(host@backend#pool) (what migration takes as C(host)).
      type: str
    host:
      description: Host part.
      type: str
    backend:
      description: Backend part.
      type: str
    pool:
      description: Pool part.
      type: str
    capabilities:
      description:
        - What the scheduler knows of the pool, as the backend's driver reports it; besides the
          fields below, each driver adds keys of its own. Only with O(detail).
      returned: with O(detail)
      type: dict
      contains:
        share_backend_name:
          description: The backend's name.
          type: str
        storage_protocol:
          description: The protocols it serves, for example V(NFS_CIFS).
          type: str
        vendor_name:
          description: The driver's vendor.
          type: str
        driver_version:
          description: The driver's version.
          type: str
        total_capacity_gb:
          description: The pool's size in GiB (a number, or V(unknown) / V(infinite)).
          type: raw
        free_capacity_gb:
          description: Its free space in GiB (a number, or V(unknown) / V(infinite)).
          type: raw
        allocated_capacity_gb:
          description: The GiB Manila has placed there.
          type: raw
        reserved_percentage:
          description: The part kept free, in percent.
          type: int
        driver_handles_share_servers:
          description: Whether the backend makes share servers (DHSS).
          type: bool
        snapshot_support:
          description: Whether the pool takes snapshots.
          type: bool
        create_share_from_snapshot_support:
          description: Whether it creates shares from snapshots.
          type: bool
        revert_to_snapshot_support:
          description: Whether it reverts shares to snapshots.
          type: bool
        mount_snapshot_support:
          description: Whether its snapshots can be mounted.
          type: bool
        thin_provisioning:
          description: Whether it thin-provisions (a bool, or a list of both).
          type: raw
        replication_type:
          description: The replication types it offers (one text, or a list of them; absent for none).
          type: raw
        replication_domain:
          description: Its replication domain (replicas go to pools of the same one).
          type: str
        timestamp:
          description: When the scheduler last heard from the backend.
          type: str
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
  sample: '2.99'
'''

from ansible_collections.openkeel.manila.plugins.module_utils import scheduler_pools
from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule


class SharePoolInfoModule(ManilaModule):
    argument_spec = dict(
        name=dict(type='str'),
        host=dict(type='str'),
        backend=dict(type='str'),
        pool=dict(type='str'),
        share_type=dict(type='str'),
        regex=dict(type='bool', default=False),
        detail=dict(type='bool', default=True),
    )
    module_kwargs = dict(mutually_exclusive=[('name', 'host'), ('name', 'backend'),
                                             ('name', 'pool'), ('name', 'regex')])

    def run(self):
        p = self.params
        filters = dict(host=p['host'], backend=p['backend'], pool=p['pool'])
        if p['name']:
            host, backend, pool = scheduler_pools.parse_pool_name(p['name'], option='name')
            filters = dict(host=host, backend=backend, pool=pool)
        if not p['regex']:
            filters = dict((k, scheduler_pools.exact(v) if v else None) for k, v in filters.items())
        pools = scheduler_pools.list_pools(self.client, share_type=p['share_type'],
                                           detail=p['detail'], **filters)
        if p['name']:
            pools = [pool for pool in pools if pool.get('name') == p['name']]
        pools.sort(key=lambda pool: pool.get('name') or '')
        self.finish(pools=pools)


def main():
    SharePoolInfoModule()()


if __name__ == '__main__':
    main()
