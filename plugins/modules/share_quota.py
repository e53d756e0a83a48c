#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_quota
short_description: Set the Manila quotas of a project, a user, a share type or a quota class
version_added: 0.1.0
description:
  - Makes the Manila quotas of a project match the task, changing only the
    quotas that differ; optionally the quotas of one O(user) of the project or
    of one O(share_type) in it, or the defaults of a O(quota_class).
  - Every quota name newer than the negotiated API is refused before any
    write (share type quotas need 2.39, C(share_groups) and
    C(share_group_snapshots) 2.40, C(share_replicas) and C(replica_gigabytes)
    2.53, C(per_share_gigabytes) 2.62, C(backups) and C(backup_gigabytes) 2.80,
    C(encryption_keys) 2.90).
  - Manila writes the quota names of one update one by one and refuses at the
    first it will not take, after the earlier names are written. Unless
    O(force=true), the task reads the quotas' use (and, for a O(user) or a
    O(share_type), the project's limits) and fails before any write, naming
    each quota, the value asked and the limit it hits, where Manila would
    refuse a limit below what is used and reserved (also where the current
    limit is -1); for a user or a share type, a limit above the project's, or
    -1 while the project's limit is not -1. A limit above 2147483647 (what
    Manila's database holds) is refused before any request, even with
    O(force=true).
  - One refusal cannot be known before the write. Manila also refuses a
    project limit below the sum of the quotas of the project's users, and no
    API lists a project's user quotas. The task sends the limits it lowers first, so that
    when only one is lowered, such a refusal comes before anything is
    written. When Manila refuses after it wrote some names, the task fails
    with C(changed=true), names the limits that were written (old and new) in
    its message and C(accepted_writes), and returns the limits as Manila
    then shows them in RV(quotas).
  - O(state=absent) for a project makes Manila delete, with the project's
    limits, every user quota in the project and the project's usage counts and
    reservations (Manila counts the use again at its next reservation, so
    M(openkeel.manila.share_quota_info) shows 0 in use until then); the share
    type quotas of the project stay. Since no API lists user quotas, the task
    cannot tell whether there are any, and refuses before any write unless
    O(delete_user_quotas=true). For a user or a share type, Manila deletes
    its usage counts and reservations with its limits. The diff shows these
    effects.
  - Setting quotas is for admins (Manila's default policy). A member's task
    that would change a quota fails before any write; members read their
    quotas with M(openkeel.manila.share_quota_info).
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
attributes:
  check_mode:
    support: full
    description: Reads only; reports the same C(changed) and diff as a real run.
  diff_mode:
    support: full
    description:
      - The limit of each quota the task names, before and after.
      - With O(state=absent), also what Manila deletes with the limits, under
        the key C(side effects of the reset) (user quotas, usage counts and
        reservations).
options:
  project:
    description:
      - The project (name or ID). Default, the project of the task's own
        token. A name is looked up in Keystone.
      - Mutually exclusive with O(quota_class).
    type: str
  user:
    description:
      - The quotas of this user ID in the project instead of the project's.
        A user's quotas never set follow the project's.
      - A user takes every quota name, C(share_networks) too. Its limits can
        be neither above the project's nor -1 while the project's are not
        (unless O(force=true)).
    type: str
  share_type:
    description:
      - The quotas of this share type (name or ID) in the project instead of
        the project's (API 2.39+). A type takes neither C(share_networks) nor
        the share group quotas.
    type: str
  quota_class:
    description:
      - The quota class whose limits to set, instead of a project's. The class
        C(default) holds the defaults of every project without quotas of its
        own. A class cannot be reset (O(state=absent)).
    type: str
  quotas:
    description:
      - Manila quota names and their limits; -1 is unlimited. Names left out
        are left as they are.
      - Names are C(shares), C(gigabytes), C(snapshots), C(snapshot_gigabytes),
        C(share_networks), C(share_groups), C(share_group_snapshots),
        C(share_replicas), C(replica_gigabytes), C(per_share_gigabytes),
        C(backups), C(backup_gigabytes) and C(encryption_keys).
      - Limits are whole numbers from -1 to 2147483647. Text that spells one counts as that number, so a
        template such as C("{{ used + 1 }}") works on every ansible-core release (before
        2.19 templates give text).
      - Required with O(state=present).
    type: dict
  state:
    description:
      - V(present) sets O(quotas); V(absent) deletes the quotas of the project
        (or user, or type), so that they are the defaults again (for a user or
        a type, the project's quotas).
      - V(absent) for a project also deletes every user quota in it and the
        project's usage counts; it needs O(delete_user_quotas=true).
    type: str
    choices: [present, absent]
    default: present
  force:
    description:
      - Send the limits even where they are below what is already used and
        reserved. Manila then keeps the resources and refuses new ones until
        the use falls below the limit; nothing is deleted.
      - With it, Manila also takes a user's or a share type's limit above the
        project's, -1 for them while the project's limit is not, and a project
        limit below the sum of its users' quotas. The task then checks none of
        these.
    type: bool
    default: false
  delete_user_quotas:
    description:
      - With O(state=absent) for a project (neither O(user) nor
        O(share_type)), accept that Manila deletes every user quota in the
        project, and the project's usage counts and reservations, with the
        project's limits. Manila lists no user quotas, so the task cannot
        tell whether any exist; without this option such a task fails before
        any write.
      - To bring back the default limits but keep the user quotas, set the
        limits of the defaults (M(openkeel.manila.share_quota_info) returns
        them) with O(state=present) instead; they are then the project's own.
      - Ignored otherwise.
    type: bool
    default: false
notes:
  - The quota names and C(force) are those of C(openstack share quota set).
'''

EXAMPLES = r'''
- name: The file share quotas of a team's project
  openkeel.manila.share_quota:
    cloud: admin
    project: team-a
    quotas:
      shares: 20
      gigabytes: 2000
      snapshots: 40
      share_networks: 2
      per_share_gigabytes: 500

- name: Its gold shares are limited further
  openkeel.manila.share_quota:
    cloud: admin
    project: team-a
    share_type: gold
    quotas:
      shares: 5
      gigabytes: 500

- name: Back to the defaults
  openkeel.manila.share_quota:
    cloud: admin
    project: team-a
    state: absent
    delete_user_quotas: true
'''

RETURN = r'''
quotas:
  description:
    - The limits of the project (user, type or class) after the task, quota
      name to limit (-1 unlimited). In check mode, as they would be.
    - When Manila refused an update after it had written some of the names,
      the limits as Manila then shows them (the task fails with
      C(changed=true)).
  returned: always
  type: dict
  sample: {"shares": 20, "gigabytes": 2000, "snapshots": 40, "snapshot_gigabytes": 1000,
           "share_networks": 2, "per_share_gigabytes": 500}
  contains:
    shares:
      description: The most shares allowed; -1 is unlimited.
      type: int
    gigabytes:
      description: The most GiB of shares allowed; -1 is unlimited.
      type: int
    snapshots:
      description: The most snapshots allowed; -1 is unlimited.
      type: int
    snapshot_gigabytes:
      description: The most GiB of snapshots allowed; -1 is unlimited.
      type: int
    share_networks:
      description: The most share networks (not for a share type) allowed; -1 is unlimited.
      type: int
    share_groups:
      description: The most share groups (not for a share type) allowed; -1 is unlimited (API 2.40+).
      type: int
    share_group_snapshots:
      description: The most share group snapshots (not for a share type) allowed; -1 is unlimited (API 2.40+).
      type: int
    share_replicas:
      description: The most share replicas allowed; -1 is unlimited (API 2.53+).
      type: int
    replica_gigabytes:
      description: The most GiB of share replicas allowed; -1 is unlimited (API 2.53+).
      type: int
    per_share_gigabytes:
      description: The largest size in GiB of one share allowed; -1 is unlimited (API 2.62+).
      type: int
    backups:
      description: The most share backups allowed; -1 is unlimited (API 2.80+).
      type: int
    backup_gigabytes:
      description: The most GiB of share backups allowed; -1 is unlimited (API 2.80+).
      type: int
    encryption_keys:
      description: The most encryption keys allowed; -1 is unlimited (API 2.90+).
      type: int
project_id:
  description: The ID of the project (absent for a quota class).
  returned: when a project was the target
  type: str
  sample: 6a0d1e0b4c7e4f4e9b1e2d3c4b5a6978
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
  sample: '2.99'
'''

from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule
from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput
from ansible_collections.openkeel.manila.plugins.module_utils.quotas import (
    RESET,
    QuotaAPI,
    Scope,
    USER_QUOTAS_REFUSAL,
    below_use,
    limits_of,
    plan_absent,
    plan_present,
    refusal_message,
    refusals,
    required_features,
    resolve_project,
    send_order,
    validate,
)


class ShareQuotaModule(ManilaModule):
    argument_spec = dict(
        project=dict(type='str'),
        user=dict(type='str'),
        share_type=dict(type='str'),
        quota_class=dict(type='str'),
        quotas=dict(type='dict'),
        state=dict(type='str', default='present', choices=['present', 'absent']),
        force=dict(type='bool', default=False),
        delete_user_quotas=dict(type='bool', default=False),
    )
    module_kwargs = dict(
        mutually_exclusive=[('user', 'share_type'), ('quota_class', 'project'),
                            ('quota_class', 'user'), ('quota_class', 'share_type')],
        required_if=[('state', 'present', ('quotas',))],
    )

    def run(self):
        p = self.params
        self.scope = scope = Scope(user_id=p['user'], share_type=p['share_type'],
                                   quota_class=p['quota_class'])
        self.quotas = validate(p['quotas'] or {}, scope)
        if p['state'] == 'absent' and scope.quota_class:
            raise InvalidInput('A quota class cannot be reset (Manila has no delete for '
                               'classes); set its quotas with state=present instead.')
        for feature, what in required_features(self.quotas, scope):
            self.client.require(feature, what)
        if not scope.quota_class:
            scope.project_id = resolve_project(self.client, p['project'])
        self.api = QuotaAPI(self.client)
        self.converge()

    # -- the hooks of the converge template (base.ManilaModule) ------------
    def find_current(self):
        """The limits in force (never None: state=absent resets them)."""
        return self.api.limits(self.scope)

    def plan(self, current):
        scope = self.scope
        if self.params['state'] == 'absent':
            if scope.user_id or scope.share_type:
                reference = self.api.project_limits(scope.project_id)
            else:
                reference = self.api.defaults(scope.project_id)
            plan = plan_absent(current, reference, scope)
            plan.reference = reference
            if plan.changed:
                self.refuse_member(scope)
                if not (scope.user_id or scope.share_type or self.params['delete_user_quotas']):
                    raise InvalidInput(USER_QUOTAS_REFUSAL % scope.describe())
            return plan
        plan = plan_present(current, self.quotas)
        if plan.changed:
            self.refuse_member(scope)
            if not scope.quota_class and not self.params['force']:
                details = self.api.details(scope)
                project = None
                if scope.user_id or scope.share_type:
                    project = self.api.project_limits(scope.project_id)
                below = below_use(plan, details)
                others = refusals(scope, plan.body, details, project)
                if below or others:
                    raise InvalidInput(refusal_message(scope, below, others))
            plan.body = send_order(scope, plan.body, current)
        return plan

    @staticmethod
    def predict(plan, current):
        if plan.action == RESET:
            return dict(current, **limits_of(plan.after))
        return dict(current, **plan.body)

    def apply_update(self, plan, actual):
        now = self.api.update(self.scope, plan.body, force=self.params['force'],
                              before=actual)
        return now or self.predict(plan, actual)

    def apply_reset(self, plan, actual):
        self.api.reset(self.scope, plan.reference)
        return self.api.limits(self.scope)

    def result(self, plan, resource):
        extra = {'quotas': resource}
        if self.scope.project_id:
            extra['project_id'] = self.scope.project_id
        return extra

    def refuse_member(self, scope):
        """Fail before any write when the token has no admin role."""
        own = self.client.token_project()
        if own is not None and 'admin' not in own['roles']:
            raise InvalidInput(
                'Changing the quotas of %s needs an admin (Manila\'s policy); this task '
                'runs as a user with the roles %s of project %s. Nothing was changed. '
                'Members read their quotas with openkeel.manila.share_quota_info.' % (
                    scope.describe(), ', '.join(sorted(own['roles'])) or 'none',
                    own['name']))


def main():
    ShareQuotaModule()()


if __name__ == '__main__':
    main()
