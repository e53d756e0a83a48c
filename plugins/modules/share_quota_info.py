#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_quota_info
short_description: Read the Manila quotas of a project, with use and reservations
version_added: 0.1.0
description:
  - Returns the Manila quotas of a project (or of one O(user) of it, or of one
    O(share_type) in it), each with its limit, what is in use and what is
    reserved, and the defaults; or the limits of a O(quota_class).
  - Members read the quotas of their own project (the default); other
    projects need an admin.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
  - openkeel.manila.attributes.info_module
options:
  project:
    description:
      - The project (name or ID). Default, the project of the task's own
        token. A name other than the task's own project is looked up in
        Keystone, which members may not do.
    type: str
  user:
    description: The quotas of this user ID in the project.
    type: str
  share_type:
    description: The quotas of this share type (name or ID) in the project (API 2.39+).
    type: str
  quota_class:
    description:
      - The limits of this quota class instead of a project's (admins). Its
        quotas have no use; C(defaults) is then not returned.
    type: str
'''

EXAMPLES = r'''
- name: How much room has my project?
  openkeel.manila.share_quota_info:
    cloud: mycloud
  register: room

- name: Shares left
  ansible.builtin.debug:
    msg: >-
      {{ room.quotas.shares.limit - room.quotas.shares.in_use - room.quotas.shares.reserved }}
      shares left

- name: A team's gold quotas (admin)
  openkeel.manila.share_quota_info:
    cloud: admin
    project: team-a
    share_type: gold
'''

RETURN = r'''
quotas:
  description:
    - Quota name to its limit (-1 unlimited), what is in use and what is
      reserved (by operations under way). For a quota class, C(in_use) and
      C(reserved) are 0.
    - Which names appear depends on the negotiated API (C(share_groups) and
      C(share_group_snapshots) 2.40, C(share_replicas) and C(replica_gigabytes)
      2.53, C(per_share_gigabytes) 2.62, C(backups) and C(backup_gigabytes) 2.80,
      C(encryption_keys) 2.90); a share type shows neither C(share_networks)
      nor the share group quotas.
    - Right after a project's quotas were deleted (M(openkeel.manila.share_quota)
      with O(openkeel.manila.share_quota#module:state=absent)), C(in_use) and
      C(reserved) are 0 until Manila's next reservation counts them again.
  returned: always
  type: dict
  sample: {"shares": {"limit": 50, "in_use": 3, "reserved": 0},
           "gigabytes": {"limit": 1000, "in_use": 30, "reserved": 0}}
  contains:
    shares:
      description: The limit of shares, its use and reservations.
      type: dict
      contains:
        limit:
          description: The limit (-1 unlimited).
          type: int
        in_use:
          description: How much is in use (0 for a quota class).
          type: int
        reserved:
          description: How much operations under way have reserved (0 for a quota class).
          type: int
    gigabytes:
      description: The limit of GiB of shares, its use and reservations.
      type: dict
      contains:
        limit:
          description: The limit (-1 unlimited).
          type: int
        in_use:
          description: How much is in use (0 for a quota class).
          type: int
        reserved:
          description: How much operations under way have reserved (0 for a quota class).
          type: int
    snapshots:
      description: The limit of snapshots, its use and reservations.
      type: dict
      contains:
        limit:
          description: The limit (-1 unlimited).
          type: int
        in_use:
          description: How much is in use (0 for a quota class).
          type: int
        reserved:
          description: How much operations under way have reserved (0 for a quota class).
          type: int
    snapshot_gigabytes:
      description: The limit of GiB of snapshots, its use and reservations.
      type: dict
      contains:
        limit:
          description: The limit (-1 unlimited).
          type: int
        in_use:
          description: How much is in use (0 for a quota class).
          type: int
        reserved:
          description: How much operations under way have reserved (0 for a quota class).
          type: int
    share_networks:
      description: The limit of share networks (not for a share type), its use and reservations.
      type: dict
      contains:
        limit:
          description: The limit (-1 unlimited).
          type: int
        in_use:
          description: How much is in use (0 for a quota class).
          type: int
        reserved:
          description: How much operations under way have reserved (0 for a quota class).
          type: int
    share_groups:
      description: The limit of share groups (not for a share type) (API 2.40+), its use and reservations.
      type: dict
      contains:
        limit:
          description: The limit (-1 unlimited).
          type: int
        in_use:
          description: How much is in use (0 for a quota class).
          type: int
        reserved:
          description: How much operations under way have reserved (0 for a quota class).
          type: int
    share_group_snapshots:
      description: The limit of share group snapshots (not for a share type) (API 2.40+), its use and reservations.
      type: dict
      contains:
        limit:
          description: The limit (-1 unlimited).
          type: int
        in_use:
          description: How much is in use (0 for a quota class).
          type: int
        reserved:
          description: How much operations under way have reserved (0 for a quota class).
          type: int
    share_replicas:
      description: The limit of share replicas (API 2.53+), its use and reservations.
      type: dict
      contains:
        limit:
          description: The limit (-1 unlimited).
          type: int
        in_use:
          description: How much is in use (0 for a quota class).
          type: int
        reserved:
          description: How much operations under way have reserved (0 for a quota class).
          type: int
    replica_gigabytes:
      description: The limit of GiB of share replicas (API 2.53+), its use and reservations.
      type: dict
      contains:
        limit:
          description: The limit (-1 unlimited).
          type: int
        in_use:
          description: How much is in use (0 for a quota class).
          type: int
        reserved:
          description: How much operations under way have reserved (0 for a quota class).
          type: int
    per_share_gigabytes:
      description: The limit of the size in GiB of one share (API 2.62+), its use and reservations.
      type: dict
      contains:
        limit:
          description: The limit (-1 unlimited).
          type: int
        in_use:
          description: How much is in use (0 for a quota class).
          type: int
        reserved:
          description: How much operations under way have reserved (0 for a quota class).
          type: int
    backups:
      description: The limit of share backups (API 2.80+), its use and reservations.
      type: dict
      contains:
        limit:
          description: The limit (-1 unlimited).
          type: int
        in_use:
          description: How much is in use (0 for a quota class).
          type: int
        reserved:
          description: How much operations under way have reserved (0 for a quota class).
          type: int
    backup_gigabytes:
      description: The limit of GiB of share backups (API 2.80+), its use and reservations.
      type: dict
      contains:
        limit:
          description: The limit (-1 unlimited).
          type: int
        in_use:
          description: How much is in use (0 for a quota class).
          type: int
        reserved:
          description: How much operations under way have reserved (0 for a quota class).
          type: int
    encryption_keys:
      description: The limit of encryption keys (API 2.90+), its use and reservations.
      type: dict
      contains:
        limit:
          description: The limit (-1 unlimited).
          type: int
        in_use:
          description: How much is in use (0 for a quota class).
          type: int
        reserved:
          description: How much operations under way have reserved (0 for a quota class).
          type: int
defaults:
  description: The default limits (the quota class C(default)), quota name to limit.
  returned: when a project was read
  type: dict
  sample: {"shares": 50, "gigabytes": 1000}
  contains:
    shares:
      description: The most shares allowed by default; -1 is unlimited.
      type: int
    gigabytes:
      description: The most GiB of shares allowed by default; -1 is unlimited.
      type: int
    snapshots:
      description: The most snapshots allowed by default; -1 is unlimited.
      type: int
    snapshot_gigabytes:
      description: The most GiB of snapshots allowed by default; -1 is unlimited.
      type: int
    share_networks:
      description: The most share networks (not for a share type) allowed by default; -1 is unlimited.
      type: int
    share_groups:
      description: The most share groups (not for a share type) allowed by default; -1 is unlimited (API 2.40+).
      type: int
    share_group_snapshots:
      description: The most share group snapshots (not for a share type) allowed by default; -1 is unlimited (API 2.40+).
      type: int
    share_replicas:
      description: The most share replicas allowed by default; -1 is unlimited (API 2.53+).
      type: int
    replica_gigabytes:
      description: The most GiB of share replicas allowed by default; -1 is unlimited (API 2.53+).
      type: int
    per_share_gigabytes:
      description: The largest size in GiB of one share allowed by default; -1 is unlimited (API 2.62+).
      type: int
    backups:
      description: The most share backups allowed by default; -1 is unlimited (API 2.80+).
      type: int
    backup_gigabytes:
      description: The most GiB of share backups allowed by default; -1 is unlimited (API 2.80+).
      type: int
    encryption_keys:
      description: The most encryption keys allowed by default; -1 is unlimited (API 2.90+).
      type: int
project_id:
  description: The ID of the project.
  returned: when a project was read
  type: str
  sample: 6a0d1e0b4c7e4f4e9b1e2d3c4b5a6978
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
  sample: '2.99'
'''

from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule
from ansible_collections.openkeel.manila.plugins.module_utils.quotas import (
    QuotaAPI,
    Scope,
    required_features,
    resolve_project,
)


class ShareQuotaInfoModule(ManilaModule):
    argument_spec = dict(
        project=dict(type='str'),
        user=dict(type='str'),
        share_type=dict(type='str'),
        quota_class=dict(type='str'),
    )
    module_kwargs = dict(
        mutually_exclusive=[('user', 'share_type'), ('quota_class', 'project'),
                            ('quota_class', 'user'), ('quota_class', 'share_type')],
    )

    def run(self):
        p = self.params
        scope = Scope(user_id=p['user'], share_type=p['share_type'],
                      quota_class=p['quota_class'])
        for feature, what in required_features({}, scope):
            self.client.require(feature, what)
        api = QuotaAPI(self.client)
        if scope.quota_class:
            limits = api.limits(scope)
            return self.finish(quotas=dict(
                (name, {'limit': limit, 'in_use': 0, 'reserved': 0})
                for name, limit in limits.items()))
        scope.project_id = resolve_project(self.client, p['project'])
        self.finish(quotas=api.details(scope), defaults=api.defaults(scope.project_id),
                    project_id=scope.project_id)


def main():
    ShareQuotaInfoModule()()


if __name__ == '__main__':
    main()
