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
    2.53, C(per_share_gigabytes) 2.62, C(backups) and C(backup_gigabytes) 2.80).
  - Manila refuses a limit below what the project already uses and reserves.
    The task checks every quota first and fails before any write, naming the
    numbers, unless O(force=true).
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
    description: The limit of each quota the task names, before and after.
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
        C(backups) and C(backup_gigabytes).
      - Limits are whole numbers. Text that spells one counts as that number, so a
        template such as C("{{ used + 1 }}") works on every ansible-core release (before
        2.19 templates give text).
      - Required with O(state=present).
    type: dict
  state:
    description:
      - V(present) sets O(quotas); V(absent) deletes the quotas of the project
        (or user, or type), so that they are the defaults again (for a user or
        a type, the project's quotas).
    type: str
    choices: [present, absent]
    default: present
  force:
    description:
      - Send the limits even where they are below what is already used and
        reserved. Manila then keeps the resources and refuses new ones until
        the use falls below the limit; nothing is deleted.
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
'''

RETURN = r'''
quotas:
  description:
    - The limits of the project (user, type or class) after the task, quota
      name to limit (-1 unlimited). In check mode, as they would be.
  returned: always
  type: dict
  sample: {"shares": 20, "gigabytes": 2000, "snapshots": 40, "snapshot_gigabytes": 1000,
           "share_networks": 2, "per_share_gigabytes": 500}
project_id:
  description: The ID of the project (absent for a quota class).
  returned: when a project was the target
  type: str
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
    below_use,
    below_use_message,
    plan_absent,
    plan_present,
    required_features,
    resolve_project,
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
            plan = plan_absent(current, reference)
            plan.reference = reference
            if plan.changed:
                self.refuse_member(scope)
            return plan
        plan = plan_present(current, self.quotas)
        if plan.changed:
            self.refuse_member(scope)
            if not scope.quota_class and not self.params['force']:
                found = below_use(plan, self.api.details(scope))
                if found:
                    raise InvalidInput(below_use_message(scope, found))
        return plan

    @staticmethod
    def predict(plan, current):
        return dict(current, **(plan.after if plan.action == RESET else plan.body))

    def apply_update(self, plan, actual):
        now = self.api.update(self.scope, plan.body, force=self.params['force'])
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
