#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_capabilities_info
short_description: What an OpenStack Manila cloud can do, per share type and per pool
version_added: 0.1.0
description:
  - Returns the negotiated API version and, per share type and (for admins)
    per pool, the replication type and the snapshot, revert, mount-snapshot
    and share group support, so that a role can decide before it acts.
  - With O(require_replication) the task fails, naming the reason, when the
    cloud (or O(share_type)) cannot replicate shares; a disaster recovery
    play then stops at once, before any write.
  - Pools are listed by the scheduler, which Manila lets only admins read;
    for other users C(pools) is empty and C(pools_visible) false.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
  - openkeel.manila.attributes.info_module
options:
  share_type:
    description: Only this share type (name or ID).
    type: str
  require_replication:
    description:
      - Fail unless a share type (O(share_type) when given) has a
        C(replication_type) and, where the pools are visible, a pool
        reports that replication type.
    type: bool
    default: false
seealso:
  - module: openkeel.manila.share_replica
  - module: openkeel.manila.share_pool_info
'''

EXAMPLES = r'''
- name: Can this cloud replicate the gold type?
  openkeel.manila.share_capabilities_info:
    cloud: mycloud
    share_type: gold
    require_replication: true
  register: caps
'''

RETURN = r'''
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
  sample: '2.99'
server_max_version:
  description: The newest microversion the cloud offers.
  returned: always
  type: str
  sample: '2.99'
share_types:
  description:
    - Per share type what its extra specs say (the required ones and the optional ones together),
      as booleans.
  returned: always
  type: list
  elements: dict
  sample: [{"name": "replicated-readable", "id": "5e3a6c1e-8a1d-4a44-9a3b-2f6f0b8c9d11",
            "replication_type": "readable", "availability_zones": [], "snapshot_support": true,
            "create_share_from_snapshot_support": true, "revert_to_snapshot_support": null,
            "mount_snapshot_support": null, "driver_handles_share_servers": false}]
  contains:
    name:
      description: Share type name.
      type: str
    id:
      description: Share type ID.
      type: str
    replication_type:
      description: V(writable), V(readable) or V(dr) (null when the type has none).
      type: str
    availability_zones:
      description: The availability zones the type is limited to (empty for all).
      type: list
      elements: str
    snapshot_support:
      description: Whether snapshots can be taken (null when the type does not say).
      type: bool
    create_share_from_snapshot_support:
      description: Whether shares can be created from snapshots (null when the type does not say).
      type: bool
    revert_to_snapshot_support:
      description: Whether a share can be reverted to a snapshot (null when the type does not say).
      type: bool
    mount_snapshot_support:
      description: Whether snapshots can be mounted (null when the type does not say).
      type: bool
    driver_handles_share_servers:
      description: Whether shares of the type need a share network (DHSS).
      type: bool
pools:
  description:
    - Per pool what it reports. Empty for users who may not list pools (members; see
      RV(pools_visible)).
  returned: always
  type: list
  elements: dict
  sample: [{"name": "manila@alpha#pool-a", "replication_type": "readable",
            "replication_domain": "replica_domain_1", "share_group_support": true,
            "snapshot_support": true, "create_share_from_snapshot_support": true,
            "revert_to_snapshot_support": true, "mount_snapshot_support": false}]
  contains:
    name:
      description: The pool, C(host@backend#pool).
      type: str
    replication_type:
      description:
        - As the pool reports it - one text, or a list of them (NetApp pools report a list); a
          share type whose C(replication_type) is any of them can be replicated there, as
          Manila's scheduler matches it. Null when the pool reports none.
      type: raw
    replication_domain:
      description: The pool's replication domain (replicas go to pools of the same one).
      type: str
    share_group_support:
      description: Whether the pool reports share group statistics.
      type: bool
    snapshot_support:
      description: Whether snapshots can be taken (null when the pool does not say).
      type: bool
    create_share_from_snapshot_support:
      description: Whether shares can be created from snapshots (null when the pool does not say).
      type: bool
    revert_to_snapshot_support:
      description: Whether a share can be reverted to a snapshot (null when the pool does not say).
      type: bool
    mount_snapshot_support:
      description: Whether snapshots can be mounted (null when the pool does not say).
      type: bool
pools_visible:
  description: Whether this user may list the pools (admins).
  returned: always
  type: bool
  sample: true
replication:
  description: Whether a share of these types can be replicated here.
  returned: always
  type: dict
  sample: {"supported": true, "types": ["replicated-readable"], "reason": null}
  contains:
    supported:
      description:
        - Whether replication is possible. For a member (no pools to see), the share types
          decide.
      type: bool
    types:
      description:
        - The share types with a replication type; when replication is supported and the pools
          are visible, those whose replication type a pool offers.
      type: list
      elements: str
    reason:
      description: Why not, when not supported (null otherwise).
      type: str
'''

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils import scheduler_pools
from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    ManilaError,
)

TYPE_FLAGS = ('snapshot_support', 'create_share_from_snapshot_support',
              'revert_to_snapshot_support', 'mount_snapshot_support',
              'driver_handles_share_servers')
POOL_FLAGS = ('snapshot_support', 'create_share_from_snapshot_support',
              'revert_to_snapshot_support', 'mount_snapshot_support')


def flag(value):
    """Manila's extra spec or capability value as a bool (None when not given)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    return str(value).strip().lower().replace('<is>', '').strip() in ('true', '1', 'yes')


def type_view(share_type):
    specs = dict(share_type.get('required_extra_specs') or {})
    specs.update(share_type.get('extra_specs') or {})
    view = {'name': share_type.get('name'), 'id': share_type['id'],
            'replication_type': specs.get('replication_type') or None,
            'availability_zones': [z for z in (specs.get('availability_zones') or '').split(',')
                                   if z]}
    for key in TYPE_FLAGS:
        view[key] = flag(specs.get(key))
    return view


def pool_view(pool):
    caps = pool.get('capabilities') or {}
    view = {'name': pool.get('name'), 'replication_type': caps.get('replication_type'),
            'replication_domain': caps.get('replication_domain'),
            'share_group_support': bool(caps.get('share_group_stats')
                                        or caps.get('consistent_snapshot_support'))}
    for key in POOL_FLAGS:
        view[key] = flag(caps.get(key))
    return view


def replication_types(value):
    """The replication types a pool reports: one text, or a list of them (NetApp reports
    a list; Manila's scheduler matches a type against each of its values)."""
    if not value:
        return set()
    if isinstance(value, (list, tuple)):
        return set(str(v) for v in value if v)
    return set([str(value)])


def replication_summary(types, pools, pools_visible, only_type=None):
    """{supported, types, reason}: can a share of these types be replicated here?"""
    replicated = [t for t in types if t['replication_type']]
    names = [t['name'] for t in replicated]
    if not replicated:
        which = 'share type %s has no' % only_type if only_type else 'no share type has a'
        return {'supported': False, 'types': [], 'reason': (
            '%s replication_type extra spec; Manila replicates only shares of a type that '
            'has one.' % which)}
    if pools_visible:
        offered = set()
        for pool in pools:
            offered |= replication_types(pool['replication_type'])
        usable = [t['name'] for t in replicated if t['replication_type'] in offered]
        if not usable:
            return {'supported': False, 'types': names, 'reason': (
                'share type(s) %s ask for replication_type %s, and no pool reports it '
                '(pools report: %s); the backends need a replication_domain.' % (
                    ', '.join(names), ', '.join(sorted(set(t['replication_type']
                                                           for t in replicated))),
                    ', '.join(sorted(offered)) or 'none'))}
        names = usable
    return {'supported': True, 'types': names, 'reason': None}


class ShareCapabilitiesInfoModule(ManilaModule):
    argument_spec = dict(
        share_type=dict(type='str'),
        require_replication=dict(type='bool', default=False),
    )

    def run(self):
        p = self.params
        if p['share_type']:
            types = [lookups.require(self.client, 'share_type', p['share_type'],
                                     option='share_type')]
        else:
            types = self.client.get('types', query={'is_public': 'all'}).get('share_types', [])
        types = sorted((type_view(t) for t in types), key=lambda t: t['name'] or '')
        try:
            pools = [pool_view(pool) for pool in scheduler_pools.list_pools(self.client)]
            visible = True
        except ManilaError as exc:
            if exc.status != 403:
                raise
            pools, visible = [], False
        pools.sort(key=lambda pool: pool['name'] or '')
        replication = replication_summary(types, pools, visible, p['share_type'])
        result = dict(share_types=types, pools=pools, pools_visible=visible,
                      replication=replication,
                      server_max_version=str(self.client.server_max))
        if p['require_replication'] and not replication['supported']:
            raise CannotConverge('This cloud cannot replicate shares: %s'
                                 % replication['reason'], result=result)
        self.finish(**result)


def main():
    ShareCapabilitiesInfoModule()()


if __name__ == '__main__':
    main()
