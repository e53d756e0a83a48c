#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_migration
short_description: Move an OpenStack Manila share to another pool, as a desired state
version_added: 0.1.0
description:
  - Declares on which pool (C(host@backend#pool)) a Manila share lives, and
    runs Manila's two-phase migration to get it there.
  - With O(state=completed) the share ends on O(host); with
    O(state=phase1_done) the data is copied but the cutover waits for a later
    run (a maintenance window); O(state=cancelled) cancels a migration in
    flight.
  - Resumable. A run that finds a migration to the same pool in flight picks
    it up where it is, and never starts a second one. A migration in flight to
    another pool is an error that names that pool.
  - Never resets the share's task state (that would throw the migration's
    state away).
  - Migration is admin-only under Manila's default policy. It needs API 2.29
    or newer; up to 2.95 the calls carry Manila's experimental header, and
    progress comes from C(GET /shares/{id}/migration-progress) on 2.98+ and
    from the C(migration_get_progress) action below.
  - Only the pool, type and network are compared. A share already on O(host)
    (with the requested type and network) is left alone.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
attributes:
  check_mode:
    support: full
    description: Reads only (the share, its instances, the pools) and reports what it would do.
  diff_mode:
    support: full
    description: The share's host and task state before and after.
options:
  share:
    description: Name or ID of the share.
    type: str
    required: true
  host:
    description:
      - The target pool, C(host@backend#pool) as
        M(openkeel.manila.share_pool_info) lists it. It must be known to the
        scheduler; an unknown pool fails the task before any change.
      - Required with O(state=completed) and O(state=phase1_done). With
        O(state=cancelled) it is optional and, when given, the migration in
        flight must be going there.
    type: str
  state:
    description:
      - V(completed) starts the migration if needed, waits for phase 1, cuts
        over and waits until the share is available on O(host).
      - V(phase1_done) starts the migration if needed and stops once the
        data is copied, without cutting over; a later run with
        V(completed) finishes it.
      - V(cancelled) cancels a migration in flight; with none in flight,
        nothing changes.
    type: str
    choices: [completed, phase1_done, cancelled]
    default: completed
  new_share_type:
    description: Name or ID of the share type the share gets on its new pool.
    type: str
  new_share_network:
    description:
      - Name or ID of the share network the share moves to (types that
        handle share servers only).
    type: str
  writable:
    description:
      - Whether clients may keep writing during the migration.
      - Defaults to V(true), or to V(false) when
        O(force_host_assisted_migration) is set.
    type: bool
  preserve_metadata:
    description:
      - Whether file metadata must be preserved.
      - Defaults to V(true), or to V(false) when
        O(force_host_assisted_migration) is set.
    type: bool
  preserve_snapshots:
    description:
      - Whether the share's snapshots move with it.
      - Defaults to V(true), or to V(false) when
        O(force_host_assisted_migration) is set.
    type: bool
  nondisruptive:
    description: Whether clients must keep access without remounting.
    type: bool
    default: false
  force_host_assisted_migration:
    description:
      - Skip the driver-assisted migration and copy through Manila's data
        service.
      - Manila refuses it together with O(writable), O(preserve_metadata),
        O(preserve_snapshots) or O(nondisruptive) set to V(true); that is
        checked before any request.
    type: bool
    default: false
  wait:
    description:
      - Wait for the migration to reach the desired state.
      - With V(false), the task sends only the next request the plan needs
        (start, complete or cancel) and returns; run it again to go on.
    type: bool
    default: true
  timeout:
    description: Seconds to wait for each phase (copy, cutover, cancel).
    type: int
    default: 3600
notes:
  - Progress cannot be printed by a module while it runs; the role
    P(openkeel.manila.share_migrate#role) polls with
    M(openkeel.manila.share_migration_info) and prints a line per poll.
seealso:
  - module: openkeel.manila.share_migration_info
  - module: openkeel.manila.share_pool_info
'''

EXAMPLES = r'''
- name: The share lives on the beta pool
  openkeel.manila.share_migration:
    cloud: admin
    share: projects
    host: storage@beta#pool_b

- name: Copy the data now, cut over later
  openkeel.manila.share_migration:
    cloud: admin
    share: projects
    host: storage@beta#pool_b
    state: phase1_done

- name: In the maintenance window, cut over
  openkeel.manila.share_migration:
    cloud: admin
    share: projects
    host: storage@beta#pool_b
    state: completed

- name: Changed our minds
  openkeel.manila.share_migration:
    cloud: admin
    share: projects
    state: cancelled
'''

RETURN = r'''
action:
  description:
    - What the task did. V(start) started a migration, V(resume) picked one up,
      V(complete) cut over one whose data was copied, V(cancel) cancelled one,
      V(nothing) found the share as wanted.
  returned: always
  type: str
  sample: start
msg:
  description: A sentence saying why.
  returned: always
  type: str
  sample: share projects (0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a) is on manila@alpha#pool-a; moving it to manila@beta#pool-b.
share:
  description:
    - The share after the task, with its export locations (after a cutover, the new ones).
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
           "created_at": "2026-12-01T10:00:00.000000",
           "export_locations": [{"id": "5c1e7c43-7d1b-4d4f-9f62-2b8d5f3b6a10",
                                 "path": "10.0.0.5:/shares/share-1a2b",
                                 "preferred": true}], "host": "manila@alpha#pool-a",
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

    export_locations:
      description:
        - The export locations, Manila's preferred ones first (members see no admin-only ones).
      type: list
      elements: dict
      contains:
        id:
          description: Export location ID.
          type: str
        path:
          description: The path a client mounts, for example V(10.0.0.5:/shares/share-1a2b).
          type: str
        preferred:
          description: Whether Manila prefers this location (API 2.14+); the preferred ones come first.
          type: bool
        metadata:
          description: The export location's metadata, free-form keys (API 2.87+).
          type: dict
          elements: str
        is_admin_only:
          description:
            - Whether the location is for admins only. Admins only see this field; members are not
              shown admin-only locations at all.
          type: bool
        share_instance_id:
          description: The share instance the location belongs to (admins only).
          type: str
migration:
  description: The migration's state as Manila reports it.
  returned: always
  type: dict
  sample: {"task_state": "migration_driver_phase1_done", "total_progress": 100, "details": {},
           "source_host": "manila@alpha#pool-a", "destination_host": "manila@beta#pool-b"}
  contains:
    task_state:
      description: For example V(migration_driver_phase1_done) or V(migration_success).
      type: str
    total_progress:
      description: Percent copied (None when Manila does not say).
      type: int
    details:
      description: Driver-specific progress details, free-form keys (API 2.59+; empty when the driver gives none).
      type: dict
      elements: raw
    source_host:
      description: The pool the share is leaving (or lives on).
      type: str
    destination_host:
      description: The pool a migration in flight goes to.
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
from ansible_collections.openkeel.manila.plugins.module_utils.migration import (
    Migration,
    resolve_flags,
    validate_request,
)
from ansible_collections.openkeel.manila.plugins.module_utils.shares import ShareAPI


class ShareMigrationModule(ManilaModule):
    argument_spec = dict(
        share=dict(type='str', required=True),
        host=dict(type='str'),
        state=dict(type='str', default='completed',
                   choices=['completed', 'phase1_done', 'cancelled']),
        new_share_type=dict(type='str'),
        new_share_network=dict(type='str'),
        writable=dict(type='bool'),
        preserve_metadata=dict(type='bool'),
        preserve_snapshots=dict(type='bool'),
        nondisruptive=dict(type='bool', default=False),
        force_host_assisted_migration=dict(type='bool', default=False),
        **wait_argument_spec(3600)
    )

    def run(self):
        p = self.params
        flags = resolve_flags(p)
        validate_request(p['state'], p['host'], flags)
        self.migration = Migration(self.client, p['share'], p['state'], p['host'],
                                   p['new_share_type'], p['new_share_network'], flags,
                                   p['timeout'])
        self.sent = []
        self.converge()

    # -- the converge template's hooks -----------------------------------------
    def find_current(self):
        """The share as the migration goes on from (read, or waited for while
        Manila picks a destination)."""
        self.migration.prepare()
        return self.migration.share

    def plan(self, current):
        plan = self.migration.plan
        plan.before = where(self.migration.before)
        plan.after = dict(plan.before)
        if plan.changed:
            plan.after = {'host': self.params['host'] or plan.before['host'],
                          'task_state': self.migration.predicted_task_state()}
        return plan

    def as_is(self, plan, current):
        """A migration in flight that needs no write is still waited for."""
        return current if self.check_mode else self.apply(plan, current)

    def apply(self, plan, current):
        self.sent = self.migration.run(self.params['wait'])
        plan.after = where(self.migration.share)
        return self.migration.share

    def applied_changes(self, plan):
        return self.migration.sent_writes(self.sent)

    def result(self, plan, resource):
        ran = not self.check_mode
        share = dict(resource, export_locations=ShareAPI(
            self.client).export_locations(resource['id']))
        return dict(action=plan.action,
                    msg=plan.reason if ran else '(check mode) ' + plan.reason,
                    share=share, migration=self.migration.summary(ran))


def where(share):
    """The diff's view of a share: where it lives and its migration's state."""
    return {'host': share.get('host'), 'task_state': share.get('task_state')}


def main():
    ShareMigrationModule()()


if __name__ == '__main__':
    main()
