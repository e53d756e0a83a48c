#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share
short_description: Create, change and delete OpenStack Manila shares
version_added: 0.1.0
description:
  - Makes one Manila share match the task, changing only what differs.
  - Creates the share and waits until it is available; extends or shrinks it
    to O(size); renames it and changes its description and visibility;
    converges its metadata; deletes it, or moves it to the recycle bin.
  - Fields that cannot change in place (protocol, type, network, availability
    zone, source snapshot) are never changed silently; a difference fails the
    task and says so.
  - Never resets the share's task state, so a running migration is safe. Keeps a
    Manila delete lock on the share as desired state (O(deletion_lock)).
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
  - openkeel.manila.deletion_lock
  - openkeel.manila.manage.share
attributes:
  check_mode:
    support: full
    description: Reads only; reports the same C(changed) and diff as a real run.
  diff_mode:
    support: full
    description: Before and after views of the share.
options:
  state:
    description:
      - V(present) makes the share exist as described (with O(manage), from
        storage Manila does not know); V(absent) deletes it; V(unmanaged)
        releases it from Manila without deleting its data (see O(manage)).
    type: str
    choices: [present, absent, unmanaged]
    default: present
  name:
    description:
      - Name or ID of the share. Without O(id) it identifies the share (Manila
        names are not unique; two shares with the name fail the task).
      - A UUID-shaped value is tried as a share ID first, then as a name when
        no share has that ID, as in openstack.cloud. A share is never created
        with a UUID-shaped name, so a mistyped or deleted ID with
        O(state=present) fails instead of creating a share.
      - With O(id), the name the share should have (a rename).
    type: str
  id:
    description:
      - ID of an existing share. It then identifies the share and O(name)
        becomes its desired name.
    type: str
  size:
    description:
      - Size in GiB. Required to create a share, unless it is made from
        O(snapshot) (the snapshot's size is then used).
      - A different size on an existing share extends or shrinks it. With
        O(wait), the task waits until Manila shows the share available at the
        new size; a share Manila puts back to available at its old size (a
        scheduler with no room for an extend) fails the task with Manila's
        user messages.
    type: int
  share_proto:
    description:
      - Protocol, for example V(NFS) or V(CIFS) (case does not matter).
        Required to create a share.
    type: str
  share_type:
    description:
      - Share type name or ID. When omitted the cloud's default type is used;
        a cloud without one fails the task, asking for this option.
    type: str
  share_network:
    description:
      - Share network name or ID (for types that handle share servers).
      - When the share type (O(share_type), or the cloud's default type) says
        whether it handles share servers (C(driver_handles_share_servers)), a
        create with a share network and a type that does not, or without one
        and a type that does (unless made from O(snapshot)), fails before any
        write (Manila would make a share that goes to error, or refuse it).
    type: str
  availability_zone:
    description:
      - Availability zone to create the share in.
    type: str
  snapshot:
    description:
      - Name or ID of a share snapshot to create the share from.
      - The new share has the protocol of the snapshot's share, and another
        O(share_proto) is refused before any write.
    type: str
  description:
    description:
      - Description of the share.
    type: str
  metadata:
    description:
      - Metadata the share should carry. Keys are merged into the existing
        ones unless O(purge_metadata) is set. Values are stored as strings.
      - Checked before any request with Manila's rules - a key of 1 to 255
        characters, a value of 1 to 1023 characters; an empty string as a
        value is refused.
      - A key with no value (null, C(~) or nothing after the colon in YAML) is removed
        if the share has it, with or without O(purge_metadata); it is
        never stored as the text C(None).
      - Keys starting with C(__) belong to Manila and are never touched.
    type: dict
  purge_metadata:
    description:
      - Remove metadata keys not listed in O(metadata) (Manila's own C(__)
        keys are kept). Has no effect when O(metadata) is not given.
    type: bool
    default: false
  is_public:
    description:
      - Whether the share is visible to every project. Making a share public
        needs admin rights under Manila's default policy.
      - When omitted an existing share keeps its visibility.
    type: bool
  scheduler_hints:
    description:
      - Scheduler hints for creation (API 2.65+), C(only_host) (2.67+, a pool
        name), C(same_host) and C(different_host) (the ID of a share, or several
        separated by commas). Any other key is refused, as are names where
        share IDs are asked for (Manila would put the share in error).
    type: dict
  mount_point_name:
    description:
      - Custom mount point name (API 2.84+); only used at creation.
    type: str
  soft_delete:
    description:
      - With O(state=absent), move the share to the recycle bin instead of
        deleting it (API 2.69+).
    type: bool
    default: false
  restore:
    description:
      - With O(state=present), restore the share from the recycle bin when
        only a soft-deleted share matches.
    type: bool
    default: false
  delete_snapshots:
    description:
      - With O(state=absent), delete the share's snapshots first and wait
        until they are gone (Manila deletes no share that has snapshots).
        Also with O(soft_delete), and then the snapshots are deleted for good.
      - Without it, a share with snapshots fails the task before any write,
        naming them.
    type: bool
    default: false
  wait:
    description:
      - Wait until the share is available (or gone).
    type: bool
    default: true
  timeout:
    description:
      - Seconds to wait for each asynchronous step.
    type: int
    default: 180
'''

EXAMPLES = r'''
- name: A 10 GiB NFS share on the default type
  openkeel.manila.share:
    cloud: mycloud
    name: projects
    size: 10
    share_proto: NFS
    metadata:
      team: data

- name: Grow it to 20 GiB
  openkeel.manila.share:
    cloud: mycloud
    name: projects
    size: 20

- name: Rename a share by ID
  openkeel.manila.share:
    cloud: mycloud
    id: 0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a
    name: projects-archive

- name: Into the recycle bin
  openkeel.manila.share:
    cloud: mycloud
    name: projects-archive
    state: absent
    soft_delete: true

- name: Release a share from Manila, keeping its data (admin)
  openkeel.manila.share:
    cloud: mycloud
    name: legacy
    state: unmanaged

- name: Bring the export under Manila again (admin)
  openkeel.manila.share:
    cloud: mycloud
    name: legacy
    manage:
      export_path: 10.0.0.10:/exports/legacy
      host: manila@alpha#pool1
      protocol: NFS

- name: Delete a share and its snapshots
  openkeel.manila.share:
    cloud: mycloud
    name: scratch
    state: absent
    delete_snapshots: true
'''

RETURN = r'''
share:
  description:
    - The share as Manila shows it at the negotiated microversion, with its
      export locations (preferred first). Empty after a deletion.
    - When a wait fails (the share went to an error state, or the timeout
      ran out), the share as the last read of the wait showed it, with the
      status that ended the wait (C(error), C(extending_error),
      C(manage_error), ...), without its export locations.
    - Which fields appear depends on the microversion (each field says from which one); a member
      does not see C(host) and C(share_server_id), nor an export location's C(is_admin_only)
      and C(share_instance_id) (and no admin-only export location at all).
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
                                 "preferred": true}]}
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
deleted_snapshots:
  description:
    - The snapshots deleted before the share (O(delete_snapshots)), newest
      first; in check mode, those that would be.
  returned: when O(state=absent)
  type: list
  elements: dict
  sample: [{"id": "3f2e1d0c-aaaa-4bbb-8ccc-dddddddddddd", "name": "nightly", "status": "available",
            "created_at": "2026-12-01T02:00:00.000000"}]
  contains:
    id:
      description: Snapshot ID.
      type: str
    name:
      description: Snapshot name.
      type: str
    status:
      description: The snapshot's status before its deletion.
      type: str
    created_at:
      description: When the snapshot was taken.
      type: str
deletion_locks:
  description:
    - The share's delete locks after the task (in check mode, as they would be), as this user may
      list them. The diff shows C(deletion_lock).
  returned: when O(deletion_lock) is given, or with O(state=absent) (API 2.81+)
  type: list
  elements: dict
  sample: [{"id": "e1f2a3b4-0000-4000-8000-000000000001", "lock_reason": "production data",
            "user_id": "9b1e2d3c4b5a69786a0d1e0b4c7e4f4e",
            "project_id": "6a0d1e0b4c7e4f4e9b1e2d3c4b5a6978", "lock_context": "user",
            "created_at": "2026-12-01T10:05:00.000000"}]
  contains:
    id:
      description: Lock ID.
      type: str
    lock_reason:
      description: Why it was set (null when no reason was given).
      type: str
    user_id:
      description: The user who set it.
      type: str
    project_id:
      description: The project of that user.
      type: str
    lock_context:
      description: V(user), V(admin) or V(service) - who may remove it.
      type: str
    created_at:
      description: When it was set.
      type: str
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
  sample: '2.99'
'''

from ansible_collections.openkeel.manila.plugins.module_utils import manage, share_steps
from ansible_collections.openkeel.manila.plugins.module_utils.base import wait_argument_spec
from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput
from ansible_collections.openkeel.manila.plugins.module_utils.locks import (
    ShareLockTask,
    check_lock_input,
)
from ansible_collections.openkeel.manila.plugins.module_utils.shares import (
    ShareAPI,
    check_share_task,
)
from ansible_collections.openkeel.manila.plugins.module_utils.tasks.manage import ShareManageHooks
from ansible_collections.openkeel.manila.plugins.module_utils.tasks.share import ShareTask


def module_argument_spec():
    """The share fields (share_steps.SHARE_FIELDS, shared with the fleet's
    entries), then the options of this module only."""
    return share_steps.argument_spec(
        state=dict(type='str', default='present', choices=['present', 'absent', 'unmanaged']),
        snapshot=dict(type='str'),
        purge_metadata=dict(type='bool', default=False),
        scheduler_hints=dict(type='dict'),
        mount_point_name=dict(type='str'),
        delete_snapshots=dict(type='bool', default=False),
        manage=manage.SHARE_MANAGE_SPEC,
        **wait_argument_spec(180)
    )


class ShareModule(ShareManageHooks, ShareTask):
    """Options, input and lookups; the converge hooks are tasks/share.py's ShareTask,
    and those of manage and unmanage tasks/manage.py's."""

    argument_spec = module_argument_spec()
    module_kwargs = dict(required_one_of=[('name', 'id')])

    def run(self):
        self.validate_input()
        p = self.params
        self.locks = ShareLockTask(self.client, p['deletion_lock'], p['lock_reason'],
                                   self.check_mode)
        self.shares = ShareAPI(self.client, p['timeout'])
        share = self.find_share()
        if p['state'] == 'present':
            share = None if self.to_manage(share) else self.share_to_converge(share)
        return self.converge_on(share)

    # -- before any request ------------------------------------------------
    def validate_input(self):
        p = self.params
        manage.check_share_task(p, check_share_task)
        problems = check_lock_input(p['deletion_lock'], p['lock_reason'], p['state'])
        if problems:
            raise InvalidInput(' '.join(problems))

    def find_share(self):
        if self.params['id']:
            return self.shares.get(self.params['id'])
        return self.shares.find(self.params['name'])

    def desired(self, **resolved):
        p = self.params
        desired = share_steps.desired_state(p, 'scheduler_hints', 'mount_point_name')
        desired.update(manage.desired_fields(p), **resolved)
        return desired


def main():
    ShareModule()()


if __name__ == '__main__':
    main()
