#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: shares
short_description: Converge many OpenStack Manila shares and their access rules in one task
version_added: 0.1.0
description:
  - The fleet form of M(openkeel.manila.share) and M(openkeel.manila.share_access) -
    a list of shares, each as C(share) takes it, with its access rules as
    C(share_access) takes them, made to match in one task. Each share is planned
    by the same code as those two modules, so they agree on what to do.
  - One Keystone token, one microversion negotiation, and one paged listing of the
    project's shares finds every share of the list (not one lookup per share).
  - Writes go a few at a time (O(concurrency)); a write is sent again only after a
    5xx when Manila shows it was not applied (a lost answer is looked up, never sent
    blindly again), or after a rate limit's answer (429), which never reached Manila
    (and lowers O(concurrency) for a while). Waits are one poll loop over every busy
    share, one listing per poll (or a GET per waiting share, when few wait in a long listing) - for the shares, then for their rules.
  - One share that cannot converge (over quota, a type the scheduler cannot
    place, a change that cannot be made in place) does not stop the others; the
    task fails at the end naming every share that did not converge and why.
    Invalid input (a rule Manila would refuse, a share listed twice) fails the task before any request.
  - Each entry is checked with the checks of M(openkeel.manila.share), before any
    write and in check mode too. An unknown O(shares[].share_proto), a
    O(shares[].name) or O(shares[].description) longer than Manila takes fail
    the task before any request; a create with O(shares[].id), under a
    UUID-shaped name, of a type or zone Manila does not know, or with a share
    network that does not suit the type's share servers fails its entry, naming
    the option.
  - Before its first write (and in check mode), a run that creates or extends
    shares checks what Manila would reserve against the quotas of the project,
    of each share type and of the users (the task's user for a create, the
    share's owner for an extend), and fails naming the numbers when it does not
    fit; a replicated type also counts C(share_replicas) and
    C(replica_gigabytes), and one type named by name and by ID counts once.
    Room that other tasks take meanwhile cannot be known; Manila then refuses
    each create beyond the quota alone.
  - With O(marker) the task owns its shares, and O(purge) deletes the owned
    shares the list no longer names, unless they are locked (see those options).
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
attributes:
  check_mode:
    support: full
    description:
      - Reads only; reports per share the same C(changed), changes and diff as a
        real run, and which shares O(purge) would delete.
  diff_mode:
    support: full
    description: Before and after views of each share that changes, with its rules.
options:
  shares:
    description:
      - The shares, each identified by O(shares[].name) (or O(shares[].id)). A share may be listed once.
    type: list
    elements: dict
    required: true
    suboptions:
      name:
        description:
          - Name of the share. Without O(shares[].id) it identifies the share
            (two shares with the name fail this entry); with it, the name the share should have.
          - At most 255 characters. No share is created under a UUID-shaped name
            (a mistyped ID, most likely); such an entry fails. Use O(shares[].id)
            for a share known by its ID.
        type: str
      id:
        description: ID of an existing share; O(shares[].name) then renames it.
        type: str
      state:
        description:
          - V(present) makes the share exist as described; V(absent) deletes it (its rules go with it).
        type: str
        choices: [present, absent]
        default: present
      size:
        description:
          - Size in GiB. Required to create the share; a different size extends or shrinks an existing one.
          - With O(wait), a resize is over when Manila shows the share available at the new size; a share
            Manila puts back to available at its old size (no room for an extend) fails its entry with
            Manila's user messages.
        type: int
      share_proto:
        description:
          - Protocol, for example V(NFS) or V(CIFS) (case does not matter). Required to create the share.
          - One Manila knows (V(NFS), V(CIFS), V(GLUSTERFS), V(HDFS), V(CEPHFS), V(MAPRFS)); another fails the task before any request.
        type: str
      share_type:
        description:
          - Share type name or ID; the cloud's default type when omitted (a cloud without one fails this entry).
          - A type Manila does not know fails the entry before any write (the quota preflight
            reads each type's quotas, and Manila answers that read with 404 for no type it
            knows); when the preflight cannot run, Manila refuses the create itself.
        type: str
      share_network:
        description:
          - Share network name or ID (for types that handle share servers).
          - When the cloud's default type is used and says whether it handles share
            servers (C(driver_handles_share_servers)), a share network with a type that
            does not, or none with a type that does, fails the entry before any write.
        type: str
      availability_zone:
        description:
          - Availability zone to create the share in. Looked up before any write (one
            request per zone a create names); one Manila does not know fails the entry.
        type: str
      description:
        description: Description of the share, at most 255 characters.
        type: str
      metadata:
        description:
          - Metadata the share should carry, merged into the existing keys unless
            purged. Manila's own C(__) keys are never touched.
          - Checked for every share before the first request of the task, as
            M(openkeel.manila.share) checks it (Manila's rules; an empty value is
            refused); a key with no value (null) is removed if the share has it.
        type: dict
      purge_metadata:
        description:
          - Remove metadata keys not listed (the marker is kept). Defaults to
            O(purge_metadata); no effect without O(shares[].metadata).
        type: bool
      is_public:
        description:
          - Whether the share is visible to every project (admin-only under
            Manila's default policy). Unchanged when omitted.
        type: bool
      soft_delete:
        description: With V(absent), move the share to the recycle bin (API 2.69+).
        type: bool
        default: false
      restore:
        description:
          - With V(present), restore the share from the recycle bin when only a soft-deleted share matches.
        type: bool
        default: false
      access_rules:
        description:
          - The access rules of the share, as O(openkeel.manila.share_access#module:rules)
            takes them. When omitted the rules are left as they are (and still
            returned). Ignored with O(shares[].state=absent).
        type: list
        elements: dict
        suboptions:
          access_type:
            description: V(ip), V(user), V(cert) or V(cephx).
            type: str
            required: true
            choices: [ip, user, cert, cephx]
          access_to:
            description: The target; an ip rule must be an exact network.
            type: str
            required: true
          access_level:
            description: Read-write or read-only.
            type: str
            choices: [rw, ro]
            default: rw
          metadata:
            description:
              - Metadata of the rule (API 2.45+), by Manila's rules (a key of 1 to
                255 characters, a value of 1 to 1023); a null value is refused.
            type: dict
          lock_deletion:
            description: Lock the new rule against deletion (API 2.82+).
            type: bool
            default: false
          lock_visibility:
            description: Hide the new rule's target from other users (API 2.82+).
            type: bool
            default: false
          lock_reason:
            description: Why the rule is locked.
            type: str
      purge_rules:
        description:
          - Deny the rules of the share that O(shares[].access_rules) does not list. Defaults to O(purge_rules).
        type: bool
      deletion_lock:
        description:
          - As O(openkeel.manila.share#module:deletion_lock) (API 2.81+) - a Manila delete
            lock as desired state; V(absent) on a locked share fails before any write
            unless it says V(false). O(purge) never deletes a locked share (RV(kept_locked)).
          - A share whose deletion Manila refuses for a lock this user cannot list (an
            admin's, another project's) is kept, by O(purge) and by V(absent) alike; it is
            in RV(kept_locked), its result is RV(shares[].skipped) with the reason, and it
            does not fail. With V(false), the share's deletion is sent first, while its
            locks hold it back, so that such a lock lifts nothing. Check mode cannot know
            of such a lock.
        type: bool
      lock_reason:
        description: Why the share is locked, with O(shares[].deletion_lock=true).
        type: str
  purge_metadata:
    description: Default of O(shares[].purge_metadata).
    type: bool
    default: false
  purge_rules:
    description: Default of O(shares[].purge_rules).
    type: bool
    default: false
  marker:
    description:
      - A metadata item that marks the shares this task owns. It is set on every
        share of the list that is present (created with it, or added to an
        existing share), and it is what O(purge) looks for.
      - A share of the list that carries the key with another value is owned by
        another task and is left untouched, whatever its entry asks (no change,
        no deletion, its rules as they are); its result (RV(shares[].skipped))
        and a warning say so. O(purge) never deletes it either.
    type: dict
    suboptions:
      key:
        description: The metadata key, for example V(managed-by).
        type: str
        required: true
      value:
        description: Its value, for example the name of the job or repository.
        type: str
        required: true
  purge:
    description:
      - Delete every share of the project that carries O(marker) and whose name
        and ID the list does not name. Shares without the marker are never
        touched, nor are shares with a delete lock (RV(kept_locked), and a warning). The result's RV(purged) says which shares were (or, in check
        mode, would be) deleted. Needs O(marker).
    type: bool
    default: false
  concurrency:
    description:
      - How many requests are sent at once at most (1 to 8), polls included, on the task's
        one session. More than the API server has workers for does not make it faster.
      - Each new answer of Manila's rate limit (429, or its rate-limit 413) halves how many go at once,
        down to one; each round of that many jobs (the writes or reads of one share) without one adds
        one again, up to this number - not while Manila answers writes over twice as slowly as at first
        (a kind of write's median of its last five answers against its first five). See RV(pace).
    type: int
    default: 4
  wait:
    description:
      - Wait until every share is available (or gone) and its rules are active.
        Without waiting, rules of a share that is not available yet cannot be applied;
        that share fails and a later run applies them.
    type: bool
    default: true
  timeout:
    description:
      - Seconds each wait of each share may take (available or gone, then its rules applied).
    type: int
    default: 600
notes:
  - Requests to Manila for a run that changes nothing - the versions document,
    one listing page per 1000 shares, the access rules and the export locations
    of each share (and one listing of the delete locks with O(shares[].deletion_lock)).
  - The shares change side by side, but the rule changes to one share are
    sent one at a time, each once Manila has finished the one before, because
    Manila can lose a change that reaches it while it applies another one (a wait in the poll loop).
'''

EXAMPLES = r'''
- name: Three shares with their clients, in one task
  openkeel.manila.shares:
    cloud: mycloud
    marker:
      key: managed-by
      value: storage-repo
    shares:
      - name: home
        size: 10
        share_proto: NFS
        access_rules:
          - access_type: ip
            access_to: 10.0.0.0/24
          - access_type: ip
            access_to: 192.168.10.7
            access_level: ro
      - name: scratch
        size: 5
        share_proto: NFS
        metadata:
          team: hpc
        access_rules:
          - access_type: ip
            access_to: 10.0.1.0/24
      - name: software
        size: 1
        share_proto: CIFS
        access_rules:
          - access_type: user
            access_to: alice
  register: fleet

- name: Where to mount each of them
  ansible.builtin.debug:
    msg: "{{ item.name }}: {{ item.export_paths | first | default('-') }}"
  loop: "{{ fleet.shares }}"
  loop_control:
    label: "{{ item.name }}"

- name: Exactly this list - marked shares that are no longer listed are deleted
  openkeel.manila.shares:
    cloud: mycloud
    marker:
      key: managed-by
      value: storage-repo
    purge: true
    purge_rules: true
    shares:
      - name: home
        access_rules:
          - access_type: ip
            access_to: 10.0.0.0/24
'''

RETURN = r'''
shares:
  description:
    - One result per entry of O(shares), in the same order.
  returned: unless the input was refused before any request
  type: list
  elements: dict
  sample: [{"name": "projects", "id": "0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a", "state": "present",
            "changed": true, "changes": ["created", "allowed ip:10.0.0.0/24 (rw)"],
            "share": {"id": "0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a", "name": "projects", "size": 10,
                      "status": "available", "share_proto": "NFS",
                      "share_type": "5e3a6c1e-8a1d-4a44-9a3b-2f6f0b8c9d11",
                      "share_type_name": "default", "availability_zone": "nova",
                      "share_network_id": null,
                      "project_id": "6a0d1e0b4c7e4f4e9b1e2d3c4b5a6978",
                      "is_public": false, "metadata": {"owner": "team-a"},
                      "access_rules_status": "active",
                      "created_at": "2026-12-01T10:00:00.000000",
                      "export_locations": [{"id": "5c1e7c43-7d1b-4d4f-9f62-2b8d5f3b6a10",
                                            "path": "10.0.0.5:/shares/share-1a2b",
                                            "preferred": true}]},
            "export_paths": ["10.0.0.5:/shares/share-1a2b"],
            "rules": [{"id": "a4c5d6e7-1111-4222-8333-444455556666", "access_type": "ip",
                       "access_to": "10.0.0.0/24", "access_level": "rw",
                       "state": "active", "metadata": {}}], "failed": false, "skipped": false}]
  contains:
    name:
      description: The share's name (as given, or as Manila has it).
      type: str
    id:
      description: The share's ID (none for a share that check mode would create).
      type: str
    state:
      description: The state the task asked for.
      type: str
    changed:
      description: Whether this share or its rules changed (or would, in check mode).
      type: bool
    changes:
      description: What changed, in words, for example V(created), V(resized to 2 GiB), V(allowed ip:10.0.0.0/24 (rw)).
      type: list
      elements: str
    share:
      description:
        - The share as Manila shows it, with its C(export_locations) (preferred
          first). Empty when it is gone or check mode would create it.
        - The fields of RV(openkeel.manila.share#module:share); a member does not see C(host)
          and C(share_server_id), nor an export location's C(is_admin_only) and
          C(share_instance_id).
      type: dict
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
    export_paths:
      description:
        - The paths a client mounts, Manila's preferred one first, admin-only locations left out.
      type: list
      elements: str
    rules:
      description:
        - The share's access rules as Manila lists them (with C(state)); in check
          mode the rules as they would be.
        - A rule's C(access_key) (the cephx secret) is never returned.
      type: list
      elements: dict
      contains:
        id:
          description: Rule ID.
          type: str
        access_type:
          description: V(ip), V(user), V(cert) or V(cephx).
          type: str
        access_to:
          description: The target (C(******) when hidden by a visibility lock of another user).
          type: str
        access_level:
          description: V(rw) or V(ro).
          type: str
        state:
          description: Rule state, for example V(active) or V(error).
          type: str
        metadata:
          description: Rule metadata, free-form keys (API 2.45+).
          type: dict
          elements: str
        created_at:
          description: When the rule was made (API 2.33+).
          type: str
        updated_at:
          description: When the rule last changed (API 2.33+).
          type: str
    failed:
      description: Whether this share did not converge.
      type: bool
    skipped:
      description:
        - Whether this share was left untouched because it carries O(marker)'s
          key with another value (another task owns it).
        - Also true for a share with V(absent) kept because Manila refused its
          deletion for a delete lock this user cannot list (RV(kept_locked)).
      type: bool
    msg:
      description: Why it did not converge, or why it was skipped.
      type: str
      returned: when failed or skipped
    deletion_locks:
      description: The share's delete locks, as RV(openkeel.manila.share#module:deletion_locks).
      type: list
      elements: dict
      returned: when the task names a deletion_lock, deletes or purges (API 2.81+)
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
purged:
  description: The shares O(purge) deleted (in check mode, would delete), with C(id) and C(name).
  returned: unless the input was refused before any request
  type: list
  elements: dict
  sample: [{"id": "7d8e9f00-1111-4222-8333-444455556666", "name": "old-data"}]
  contains:
    id:
      description: Share ID.
      type: str
    name:
      description: Share name.
      type: str
kept_locked:
  description:
    - The shares O(purge) kept because they are locked, with C(id), C(name), C(deletion_locks).
    - Also the shares (purged or with V(absent)) whose deletion Manila refused for locks
      this user cannot list; of those locks, C(deletion_locks) shows the C(id) only
      (Manila names no more of them).
  returned: unless the input was refused before any request
  type: list
  elements: dict
  sample: [{"id": "8e9f0011-2222-4333-8444-555566667777", "name": "ledger",
            "deletion_locks": [{"id": "e1f2a3b4-0000-4000-8000-000000000001",
                                "lock_reason": "production data",
                                "user_id": "9b1e2d3c4b5a69786a0d1e0b4c7e4f4e",
                                "project_id": "6a0d1e0b4c7e4f4e9b1e2d3c4b5a6978",
                                "lock_context": "user",
                                "created_at": "2026-12-01T10:05:00.000000"}]}]
  contains:
    id:
      description: Share ID.
      type: str
    name:
      description: Share name.
      type: str
    deletion_locks:
      description:
        - The share's delete locks (those that this user cannot list with their C(id) only).
      type: list
      elements: dict
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
manila_requests:
  description: How many requests the task sent to Manila (the versions document included, Keystone's not).
  returned: unless the input was refused before any request
  type: int
  sample: 42
concurrency:
  description: The O(concurrency) the task ran with (what the role share_provision passed, say).
  returned: unless the input was refused before any request
  type: int
  sample: 4
pace:
  description:
    - How many requests went at once (see O(concurrency)) - C(final) what it ended at, C(lowest),
      and how often it was C(lowered) (a rate limit), C(raised), and C(held) (slow answers).
  returned: unless the input was refused before any request
  type: dict
  sample: {final: 4, lowest: 2, lowered: 1, raised: 2, held: 0}
  contains:
    final:
      description: How many requests went at once at the end.
      type: int
    lowest:
      description: The fewest at once during the task.
      type: int
    lowered:
      description: How often the pace was lowered (Manila answered with a rate limit).
      type: int
    raised:
      description: How often it was raised again.
      type: int
    held:
      description: How often it was held (slow answers).
      type: int
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
  sample: '2.99'
'''

from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule, wait_argument_spec
from ansible_collections.openkeel.manila.plugins.module_utils.fleet import Fleet, module_argument_spec, validate_desired


class SharesModule(ManilaModule):
    argument_spec = module_argument_spec(wait_argument_spec(600))

    def run(self):
        items = validate_desired(self.params)  # before connecting: bad input sends nothing
        fleet = Fleet(self.client, self.params, check_mode=self.check_mode)
        purged = fleet.converge(items)
        outcome = fleet.outcome(items, purged)
        if outcome.msg:
            self.fail(outcome.msg, changed=outcome.changed, **outcome.result)
        self.finish(outcome.changed, outcome.before, outcome.after, **outcome.result)


def main():
    SharesModule()()


if __name__ == '__main__':
    main()
