#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_snapshot
short_description: Take, change, delete OpenStack Manila share snapshots and revert shares to them
version_added: 0.1.0
description:
  - Makes one snapshot of a Manila share match the task, changing only what
    differs.
  - V(present) takes the snapshot of O(share) and waits until it is
    available; renames it (by O(id)), changes its description and converges
    its metadata (merge, or exact with O(purge_metadata); API 2.73+).
  - V(absent) deletes it and waits until it is gone.
  - V(reverted) reverts the share to the snapshot, an explicit action that no
    other state implies. Manila reverts a share only to its latest snapshot
    and only when its share type had C(revert_to_snapshot_support); both are
    checked before any write, and an older snapshot is refused naming the
    latest. The revert is recorded on the snapshot, in its metadata (key
    C(openkeel_reverted_at), API 2.73+), so a second run does not revert again
    and throw away what was written since; O(always_revert) reverts on every
    run.
  - Only a revert seen finished is recorded as done. With O(wait=false) (or
    a wait that runs out of time) it is recorded as requested (key
    C(openkeel_revert_requested_at)); the next run reports a share still
    C(reverting) (not changed, with a warning; O(wait=true) waits), fails on
    C(reverting_error) with Manila's user message and forgets the request,
    or records the finished revert (changed).
  - A snapshot of a share whose type has C(mount_snapshot_support) is
    returned with its export locations (API 2.32+).
  - Waits fail at once when the snapshot (or the reverted share) reaches an
    error state, with Manila's user messages.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
  - openkeel.manila.manage.snapshot
attributes:
  check_mode:
    support: full
    description: Reads only; reports the same C(changed) and diff as a real run.
  diff_mode:
    support: full
    description:
      - Before and after views of the snapshot (C(reverted) tells whether the share was reverted
        to it, C(revert_requested) whether a revert to it was requested and not yet seen finished).
options:
  state:
    description:
      - V(present) makes the snapshot exist as described (with O(manage),
        from a snapshot on the storage that Manila does not know).
      - V(absent) deletes it.
      - V(unmanaged) releases it from Manila without deleting it on the
        storage (admin only; no such snapshot is no change; see O(manage)).
      - V(reverted) reverts the share to the existing snapshot (never takes
        one), once; see O(always_revert). Name, description and metadata
        are converged as with V(present).
    type: str
    choices: [present, absent, reverted, unmanaged]
    default: present
  share:
    description:
      - Name or ID of the share the snapshot belongs to. Required to take a
        snapshot; with O(name) it narrows the lookup to this share's
        snapshots (snapshot names are often reused across shares).
    type: str
  name:
    description:
      - Name of the snapshot. Without O(id) it identifies the snapshot (two
        snapshots with the name fail the task, listing their IDs).
      - No snapshot is taken under a UUID-shaped name (most likely a mistyped
        or deleted snapshot's ID), the task fails instead; give an ID as O(id).
      - With O(id), the name the snapshot should have (a rename).
    type: str
  id:
    description:
      - ID of an existing snapshot. It then identifies the snapshot and
        O(name) becomes its desired name.
    type: str
  description:
    description: Description of the snapshot.
    type: str
  metadata:
    description:
      - Metadata the snapshot should carry (API 2.73+). Keys are merged into
        the existing ones unless O(purge_metadata) is set. Values are stored
        as strings.
      - Checked before any request with Manila's rules - a key of 1 to 255
        characters, a value of 1 to 1023 characters; an empty string as a
        value is refused.
      - A key with no value (null, C(~) or nothing after the colon in YAML) is removed
        if the snapshot has it, with or without O(purge_metadata); it is
        never stored as the text C(None).
      - Keys starting with C(__) belong to Manila, C(openkeel_reverted_at) and
        C(openkeel_revert_requested_at) to O(state=reverted); none can be set
        here and all are kept.
    type: dict
  purge_metadata:
    description:
      - Remove metadata keys not listed in O(metadata) (the kept keys above
        excepted). Has no effect when O(metadata) is not given.
    type: bool
    default: false
  always_revert:
    description:
      - With O(state=reverted), revert on every run, also when the snapshot
        records an earlier revert (for example to reset a test share to a
        golden snapshot). Each such run discards what was written to the
        share since.
      - Needed on clouds older than API 2.73, where the revert cannot be
        recorded.
    type: bool
    default: false
  wait:
    description:
      - Wait until the snapshot is available (or gone), or the reverted share
        is available again.
      - With O(state=reverted) and V(false), the revert is recorded as
        requested, not as done (see above).
    type: bool
    default: true
  timeout:
    description:
      - Seconds to wait for each asynchronous step.
    type: int
    default: 180
seealso:
  - module: openkeel.manila.share_snapshot_info
  - module: openkeel.manila.share
'''

EXAMPLES = r'''
- name: Snapshot the projects share before the upgrade
  openkeel.manila.share_snapshot:
    cloud: mycloud
    share: projects
    name: projects-before-upgrade
    description: Taken before the application upgrade
    metadata:
      ticket: CHG-1234

- name: The upgrade went wrong; put the share back as it was
  openkeel.manila.share_snapshot:
    cloud: mycloud
    share: projects
    name: projects-before-upgrade
    state: reverted

- name: Release a snapshot from Manila, keeping it on the storage (admin)
  openkeel.manila.share_snapshot:
    cloud: mycloud
    share: legacy
    name: nightly
    state: unmanaged

- name: Bring it under Manila again (admin)
  openkeel.manila.share_snapshot:
    cloud: mycloud
    share: legacy
    name: nightly
    manage:
      provider_location: /path/to/fake/snapshot/snapshot_1

- name: Delete the snapshot
  openkeel.manila.share_snapshot:
    cloud: mycloud
    share: projects
    name: projects-before-upgrade
    state: absent
'''

RETURN = r'''
snapshot:
  description:
    - The snapshot as Manila shows it at the negotiated microversion, with
      its export locations. Empty after a deletion.
    - When a wait fails (the snapshot went to an error state, or the timeout
      ran out), the snapshot as the last read of the wait showed it, with
      the status that ended the wait (C(error), C(manage_error), ...).
    - A member does not see C(provider_location), nor an export location's C(is_admin_only)
      and C(share_snapshot_instance_id) (and no admin-only export location at all).
  returned: always
  type: dict
  sample: {"id": "3f2e1d0c-aaaa-4bbb-8ccc-dddddddddddd", "name": "nightly", "description": null,
           "share_id": "0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a", "share_size": 10, "size": 10,
           "share_proto": "NFS", "status": "available", "created_at": "2026-12-01T02:00:00.000000",
           "project_id": "6a0d1e0b4c7e4f4e9b1e2d3c4b5a6978", "metadata": {}, "export_locations": []}
  contains:
    id:
      description: Snapshot ID.
      type: str
    name:
      description: Snapshot name.
      type: str
    description:
      description: Snapshot description.
      type: str
    share_id:
      description: ID of the share it belongs to.
      type: str
    share_size:
      description: The share's size in GiB when the snapshot was taken.
      type: int
    size:
      description: Size in GiB.
      type: int
    share_proto:
      description: The share's protocol.
      type: str
    status:
      description: Snapshot status, for example V(available), V(creating) or V(error).
      type: str
    created_at:
      description: When Manila took it (UTC).
      type: str
    user_id:
      description: The user who took it (API 2.17+).
      type: str
    project_id:
      description: The project it belongs to (API 2.17+).
      type: str
    provider_location:
      description: Where the backend keeps it (API 2.12+; admins only, members do not see it).
      type: str
    metadata:
      description:
        - Its metadata, free-form keys (API 2.73+), C(openkeel_reverted_at) (a revert seen
          finished) and C(openkeel_revert_requested_at) (a revert requested and not yet seen
          finished) included.
      type: dict
      elements: str
    export_locations:
      description:
        - Where the snapshot can be mounted (shares whose type has
          C(mount_snapshot_support), API 2.32+); empty otherwise.
      type: list
      elements: dict
      contains:
        id:
          description: Export location ID.
          type: str
        path:
          description: The path a client mounts.
          type: str
        is_admin_only:
          description:
            - Whether the location is for admins only. Admins only see this field; members are not
              shown admin-only locations at all.
          type: bool
        share_snapshot_instance_id:
          description: The snapshot instance the location belongs to (admins only).
          type: str
share:
  description:
    - With O(state=reverted), the share the snapshot belongs to (after the
      revert, when one was made), as far as the task read it; empty when it
      did not need to.
  returned: when O(state=reverted)
  type: dict
  sample: {"id": "0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a", "name": "projects", "size": 10,
           "status": "available", "share_proto": "NFS",
           "share_type": "5e3a6c1e-8a1d-4a44-9a3b-2f6f0b8c9d11", "share_type_name": "default",
           "availability_zone": "nova", "share_network_id": null,
           "project_id": "6a0d1e0b4c7e4f4e9b1e2d3c4b5a6978", "is_public": false,
           "metadata": {"owner": "team-a"}, "access_rules_status": "active",
           "created_at": "2026-12-01T10:00:00.000000"}
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
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
  sample: '2.99'
'''

from ansible_collections.openkeel.manila.plugins.module_utils import lookups, manage
from ansible_collections.openkeel.manila.plugins.module_utils.base import wait_argument_spec
from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput
from ansible_collections.openkeel.manila.plugins.module_utils.snapshots import (
    SnapshotAPI,
    task_metadata,
)
from ansible_collections.openkeel.manila.plugins.module_utils.tasks.manage import (
    SnapshotManageHooks,
)
from ansible_collections.openkeel.manila.plugins.module_utils.tasks.snapshot import SnapshotTask


class ShareSnapshotModule(SnapshotManageHooks, SnapshotTask):
    """Options, input and lookups; the converge hooks are tasks/snapshot.py's
    SnapshotTask, and those of manage and unmanage tasks/manage.py's."""

    argument_spec = dict(
        state=dict(type='str', default='present',
                   choices=['present', 'absent', 'reverted', 'unmanaged']),
        share=dict(type='str'),
        name=dict(type='str'),
        id=dict(type='str'),
        description=dict(type='str'),
        metadata=dict(type='dict'),
        purge_metadata=dict(type='bool', default=False),
        always_revert=dict(type='bool', default=False),
        manage=manage.SNAPSHOT_MANAGE_SPEC,
        **wait_argument_spec(180)
    )
    module_kwargs = dict(required_one_of=[('name', 'id')])

    def run(self):
        self.validate_input()
        p = self.params
        self.snapshots = SnapshotAPI(self.client, p['timeout'])
        self.known_share = None
        snapshot = self.find_current()
        if p['state'] == 'present' and snapshot is not None:
            snapshot = self.snapshots.wait_if_busy(snapshot, p['wait'])
        return self.converge_on(snapshot)

    # -- before any request ------------------------------------------------
    def validate_input(self):
        p = self.params
        if p['always_revert'] and p['state'] != 'reverted':
            raise InvalidInput('always_revert only applies with state=reverted.')
        task_metadata(p['metadata'])
        if p['manage'] is not None:
            manage.check_snapshot_manage_input(p)

    # -- lookups -----------------------------------------------------------
    def share_id(self):
        """The ID of O(share) (read once, by the rules of lookups.find): None when
        not given, or (state=absent) when the share does not exist."""
        ref = self.params['share']
        if not ref:
            return None
        if self.known_share is None:
            if self.params['state'] in ('absent', 'unmanaged'):
                self.known_share = lookups.find(self.client, 'share', ref)
                if self.known_share is None:
                    return None
            else:
                self.known_share = lookups.require(self.client, 'share', ref, option='share')
        return self.known_share['id']

    def share_record(self, share_id=None):
        """The share (O(share), or ``share_id``), read once."""
        if self.known_share is None:
            ref = self.params['share'] or share_id
            if not ref:
                raise InvalidInput('share is required to take a snapshot (the name or ID '
                                   'of the share to snapshot).')
            self.known_share = lookups.require(
                self.client, 'share', ref, option='share' if self.params['share'] else None)
        return self.known_share

    def find_current(self):
        p = self.params
        if p['id']:
            snapshot = self.snapshots.get(p['id'])
            if snapshot is not None and p['share'] and snapshot['share_id'] != self.share_id():
                raise InvalidInput('Snapshot %s belongs to share %s, not to share %s.' % (
                    p['id'], snapshot['share_id'], p['share']))
            return snapshot
        share_id = self.share_id()
        if p['share'] and share_id is None:
            return None     # absent, unmanaged: the share is gone, so are its snapshots
        return self.snapshots.find_by_name(p['name'], share_id)

    def desired(self):
        p = self.params
        return dict((k, p[k]) for k in ('name', 'description', 'metadata'))


def main():
    ShareSnapshotModule()()


if __name__ == '__main__':
    main()
