#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_limits_info
short_description: Read Manila's absolute limits and usage of the task's project
version_added: 0.1.0
description:
  - Returns Manila's absolute limits and usage (C(maxTotalShares),
    C(totalSharesUsed), C(maxTotalShareGigabytes), ...) of the project the
    task's token is scoped to, as C(openstack share limits show --absolute)
    does. Members may read them.
  - For a per-quota view with reservations, or of another project, see
    M(openkeel.manila.share_quota_info).
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
  - openkeel.manila.attributes.info_module
options: {}
'''

EXAMPLES = r'''
- name: Manila's limits of my project
  openkeel.manila.share_limits_info:
    cloud: mycloud
  register: limits

- name: Shares left
  ansible.builtin.debug:
    msg: "{{ limits.limits.maxTotalShares - limits.limits.totalSharesUsed }} shares left"
'''

RETURN = r'''
limits:
  description:
    - Manila's absolute limits, by Manila's names; -1 is unlimited. Which
      names appear depends on the negotiated API (share group limits 2.58,
      replica limits 2.53, backups 2.80).
  returned: always
  type: dict
  sample: {"maxTotalShares": 50, "totalSharesUsed": 3, "maxTotalShareGigabytes": 1000,
           "totalShareGigabytesUsed": 30, "maxTotalShareSnapshots": 50,
           "totalShareSnapshotsUsed": 0, "maxTotalShareNetworks": 10,
           "totalShareNetworksUsed": 1, "maxTotalSnapshotGigabytes": 1000,
           "totalSnapshotGigabytesUsed": 0}
  contains:
    maxTotalShares:
      description: The most shares the project may have; -1 is unlimited.
      type: int
    totalSharesUsed:
      description: The shares the project has.
      type: int
    maxTotalShareGigabytes:
      description: The most GiB of shares the project may have; -1 is unlimited.
      type: int
    totalShareGigabytesUsed:
      description: The GiB of shares the project has.
      type: int
    maxTotalShareSnapshots:
      description: The most snapshots the project may have; -1 is unlimited.
      type: int
    totalShareSnapshotsUsed:
      description: The snapshots the project has.
      type: int
    maxTotalSnapshotGigabytes:
      description: The most GiB of snapshots the project may have; -1 is unlimited.
      type: int
    totalSnapshotGigabytesUsed:
      description: The GiB of snapshots the project has.
      type: int
    maxTotalShareNetworks:
      description: The most share networks the project may have; -1 is unlimited.
      type: int
    totalShareNetworksUsed:
      description: The share networks the project has.
      type: int
    maxTotalShareReplicas:
      description: The most share replicas the project may have (API 2.53+); -1 is unlimited.
      type: int
    totalShareReplicasUsed:
      description: The share replicas the project has (API 2.53+).
      type: int
    maxTotalReplicaGigabytes:
      description: The most GiB of share replicas the project may have (API 2.53+); -1 is unlimited.
      type: int
    totalReplicaGigabytesUsed:
      description: The GiB of share replicas the project has (API 2.53+).
      type: int
    maxTotalShareGroups:
      description: The most share groups the project may have (API 2.58+); -1 is unlimited.
      type: int
    totalShareGroupsUsed:
      description: The share groups the project has (API 2.58+).
      type: int
    maxTotalShareGroupSnapshots:
      description: The most share group snapshots the project may have (API 2.58+); -1 is unlimited.
      type: int
    totalShareGroupSnapshotsUsed:
      description: The share group snapshots the project has (API 2.58+).
      type: int
    maxTotalShareBackups:
      description: The most share backups the project may have (API 2.80+); -1 is unlimited.
      type: int
    totalShareBackupsUsed:
      description: The share backups the project has (API 2.80+).
      type: int
    maxTotalBackupGigabytes:
      description: The most GiB of share backups the project may have (API 2.80+); -1 is unlimited.
      type: int
    totalBackupGigabytesUsed:
      description: The GiB of share backups the project has (API 2.80+).
      type: int
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
  sample: '2.99'
'''

from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule
from ansible_collections.openkeel.manila.plugins.module_utils.quotas import QuotaAPI


class ShareLimitsInfoModule(ManilaModule):
    argument_spec = dict()

    def run(self):
        self.finish(limits=QuotaAPI(self.client).absolute_limits())


def main():
    ShareLimitsInfoModule()()


if __name__ == '__main__':
    main()
