#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_migration_info
short_description: Read the migration state of an OpenStack Manila share
version_added: 0.1.0
description:
  - Returns where a share lives, whether a migration is in flight, where it
    is going, its task state, and its progress as Manila reports it.
  - Changes nothing; polling with it is safe (the role
    P(openkeel.manila.share_migrate#role) prints its progress line from it).
  - Reads the share; with a migration in flight also its instances (for the
    destination) and the migration progress (C(GET
    /shares/{id}/migration-progress) on API 2.98+, the
    C(migration_get_progress) action below). Both are admin-only under
    Manila's default policy.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
  - openkeel.manila.attributes.info_module
options:
  share:
    description: Name or ID of the share.
    type: str
    required: true
seealso:
  - module: openkeel.manila.share_migration
'''

EXAMPLES = r'''
- name: Where is the migration of projects?
  openkeel.manila.share_migration_info:
    cloud: admin
    share: projects
  register: moving

- name: Say it
  ansible.builtin.debug:
    msg: "{{ moving.migration.total_progress }}% ({{ moving.migration.task_state }})"
'''

RETURN = r'''
share:
  description:
    - The share as Manila shows it (ID, name, host, status, task_state, ...).
    - The fields of RV(openkeel.manila.share#module:share). Migration is admin-only by Manila's
      default policy; a member who may read the share does not see C(host) and C(share_server_id).
  returned: always
  type: dict
  sample: {"id": "0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a", "name": "projects", "size": 10,
           "status": "available", "share_proto": "NFS",
           "share_type": "5e3a6c1e-8a1d-4a44-9a3b-2f6f0b8c9d11", "share_type_name": "default",
           "availability_zone": "nova", "share_network_id": null,
           "project_id": "6a0d1e0b4c7e4f4e9b1e2d3c4b5a6978", "is_public": false,
           "metadata": {"owner": "team-a"}, "access_rules_status": "active",
           "created_at": "2026-12-01T10:00:00.000000", "host": "manila@alpha#pool-a",
           "task_state": "migration_success"}
  contains:
    id:
      description: Share ID.
      type: str
    name:
      description: Share name.
      type: str
    description:
      description: Share description.
      type: str
    size:
      description: Size in GiB.
      type: int
    status:
      description: Share status, for example V(available), V(creating) or V(error).
      type: str
    share_proto:
      description: Protocol, for example V(NFS), V(CIFS) or V(CEPHFS).
      type: str
    share_type:
      description: The share type's ID (API 2.6+; below, its name).
      type: str
    share_type_name:
      description: The share type's name (API 2.6+).
      type: str
    availability_zone:
      description: The availability zone of the share.
      type: str
    share_network_id:
      description: The share network (null for a share type without share servers).
      type: str
    snapshot_id:
      description: The snapshot the share was created from (null for none).
      type: str
    project_id:
      description: The project that owns the share.
      type: str
    user_id:
      description: The user who created the share (API 2.16+).
      type: str
    is_public:
      description: Whether every project may see the share.
      type: bool
    metadata:
      description: All metadata, free-form keys, Manila's own keys included.
      type: dict
      elements: str
    created_at:
      description: When the share was created (UTC, ISO 8601).
      type: str
    task_state:
      description: The migration task state (API 2.5+; null without a migration).
      type: str
    access_rules_status:
      description: V(active), V(syncing) or V(error) - whether the access rules are applied (API 2.10+).
      type: str
    replication_type:
      description: The share type's replication type (API 2.11+; null when not replicated).
      type: str
    has_replicas:
      description: Whether the share has replicas (API 2.11+).
      type: bool
    snapshot_support:
      description: Whether snapshots can be taken (API 2.2+).
      type: bool
    create_share_from_snapshot_support:
      description: Whether shares can be created from its snapshots (API 2.24+).
      type: bool
    revert_to_snapshot_support:
      description: Whether the share can be reverted to a snapshot (API 2.27+).
      type: bool
    mount_snapshot_support:
      description: Whether its snapshots can be mounted (API 2.32+).
      type: bool
    share_group_id:
      description: The share group the share belongs to (API 2.31+).
      type: str
    progress:
      description: How far the creation has come, for example V(100%) (API 2.54+).
      type: str
    is_soft_deleted:
      description: Whether the share is in the recycle bin (API 2.69+).
      type: bool
    scheduled_to_be_deleted_at:
      description: When Manila deletes a share in the recycle bin for good (API 2.69+).
      type: str
    host:
      description: The pool the share lives on, C(host@backend#pool) (admins only; members do not see it).
      type: str
    share_server_id:
      description: The share server (admins only; members do not see it).
      type: str
migration:
  description: The migration's state.
  returned: always
  type: dict
  sample: {"task_state": "migration_driver_phase1_done", "total_progress": 100, "details": {},
           "source_host": "manila@alpha#pool-a", "destination_host": "manila@beta#pool-b",
           "in_flight": true, "phase1_done": true, "failed": false}
  contains:
    task_state:
      description: Manila's task state (None when no migration ever ran).
      type: str
    total_progress:
      description: Percent done as Manila reports it (None without a migration in flight).
      type: int
    details:
      description: Driver-specific progress details, free-form keys (API 2.59+; empty when the driver gives none).
      type: dict
      elements: raw
    source_host:
      description: The pool the share lives on (or leaves).
      type: str
    destination_host:
      description: The pool a migration in flight goes to.
      type: str
    in_flight:
      description: Whether a migration is in flight.
      type: bool
    phase1_done:
      description: Whether the data is copied and the migration awaits its cutover.
      type: bool
    failed:
      description: Whether the last migration ended in an error task state.
      type: bool
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
  sample: '2.99'
'''

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule
from ansible_collections.openkeel.manila.plugins.module_utils.migration import (
    MigrationAPI,
    in_flight,
    summarize,
)
from ansible_collections.openkeel.manila.plugins.module_utils.states import (
    MIGRATION_ERROR_STATES,
    MIGRATION_PHASE1_DONE_STATES,
)


class ShareMigrationInfoModule(ManilaModule):
    argument_spec = dict(
        share=dict(type='str', required=True),
    )

    def run(self):
        self.client.require('migration', 'Share migration')
        api = MigrationAPI(self.client)
        share = lookups.require(self.client, 'share', self.params['share'])
        if 'host' not in share:
            self.warn('Manila does not show this user the share\'s host: share '
                      'migration and its details are admin-only by default.')
        progress = source = destination = None
        moving = in_flight(share)
        if moving:
            source, destination = api.hosts(share['id'])
            progress = api.progress(share['id'])
        migration = summarize(share, progress, source, destination)
        migration['in_flight'] = moving
        migration['phase1_done'] = migration['task_state'] in MIGRATION_PHASE1_DONE_STATES
        migration['failed'] = migration['task_state'] in MIGRATION_ERROR_STATES
        self.finish(share=share, migration=migration)


def main():
    ShareMigrationInfoModule()()


if __name__ == '__main__':
    main()
