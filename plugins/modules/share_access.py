#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_access
short_description: Make the access rules of an OpenStack Manila share what the task says
version_added: 0.1.0
description:
  - Converges the access rules of one Manila share to a list, the way Manila
    itself identifies rules - by access type and target. IP targets compare
    as networks, so V(10.0.0.1) and V(10.0.0.1/32) are the same rule.
  - Adds missing rules, changes the access level of a rule in place (API
    2.88+; on older APIs by denying and allowing the rule again, with a
    warning), sets rule metadata, and with O(purge_rules) or O(state=absent)
    denies rules.
  - Every rule is checked before any request is sent, with the rules Manila
    applies (strict networks, IPv6 only from API 2.38, user and group names,
    certificate common names, cephx IDs from API 2.13). One invalid rule fails
    the task and nothing is written.
  - Waits until every rule it touched is V(active), denied rules are gone and
    the share's C(access_rules_status) is V(active). A rule that goes to
    V(error), whether it was being allowed or denied, fails the task at once
    with Manila's reason.
  - Rules whose target is hidden from this user by a visibility lock (shown
    as C(******)) cannot be matched; they are left alone, with a warning.
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
    description: The share's rules before and after (type, target, level, metadata).
options:
  share:
    description:
      - Name or ID of the share. Manila names are not unique; two shares
        with the name fail the task.
    type: str
    required: true
  rules:
    description:
      - The access rules. The same target given twice with the same settings
        counts once; with different levels (or metadata or locks) the task
        fails before any request.
    type: list
    elements: dict
    default: []
    suboptions:
      access_type:
        description:
          - V(ip) (an address or network; IPv6 needs API 2.38), V(user) (a
            user or group name), V(cert) (a TLS certificate common name) or
            V(cephx) (a Ceph auth ID without the C(client.) prefix; API 2.13).
          - Which types work depends on the share's protocol and driver.
        type: str
        required: true
        choices: [ip, user, cert, cephx]
      access_to:
        description:
          - The target. An ip rule must be an exact network
            (V(10.0.0.0/24), not V(10.0.0.5/24)), without an IPv6 zone.
          - No target may contain a control character (a newline, a tab);
            a cephx target no space, a user target no space at either end.
        type: str
        required: true
      access_level:
        description:
          - Read-write or read-only.
        type: str
        choices: [rw, ro]
        default: rw
      metadata:
        description:
          - Metadata of the rule (API 2.45+). Keys are set on an existing rule
            when they differ; keys not listed are kept.
          - Checked before any request with Manila's rules (a key of 1 to 255
            characters, a value of 1 to 1023); an empty or null value is refused.
        type: dict
      lock_deletion:
        description:
          - Lock the new rule against deletion (API 2.82+). Applies when the
            rule is created. Manila then also locks the share's deletion.
        type: bool
        default: false
      lock_visibility:
        description:
          - Hide the new rule's target and key from other users (API 2.82+).
            Applies when the rule is created.
        type: bool
        default: false
      lock_reason:
        description:
          - Why the rule is locked; needs O(rules[].lock_deletion) or
            O(rules[].lock_visibility).
        type: str
  state:
    description:
      - V(present) makes the listed rules exist with the listed levels;
        V(absent) denies the listed rules (their level does not matter).
    type: str
    choices: [present, absent]
    default: present
  purge_rules:
    description:
      - With O(state=present), deny every rule of the share that is not
        listed, so that the share ends with exactly O(rules). Hidden rules
        are never denied.
    type: bool
    default: false
  unrestrict:
    description:
      - Remove the deletion lock of a rule this task denies (API 2.82+). Only
        who placed the lock, or an admin, can. Without it a locked rule fails
        the task.
    type: bool
    default: false
  return_access_keys:
    description:
      - Return the cephx C(access_key) of each rule in O(rules). By default
        no key is returned - a key is a secret and would otherwise land in
        job output, facts and AWX artifacts.
      - Costs one more listing of the share's rules (a read, also in check
        mode). Put C(no_log) on a task that sets it, and on every task that
        handles the key afterwards.
      - Manila has keys for cephx rules only (API 2.21+, once the rule is
        active); other rules get C(access_key=null).
    type: bool
    default: false
  wait:
    description:
      - Wait until the rules are applied and the share's
        C(access_rules_status) is V(active).
      - A level change without API 2.88 always waits for the old rule to be
        denied before allowing it again.
    type: bool
    default: true
  timeout:
    description:
      - Seconds to wait for each asynchronous step.
    type: int
    default: 180
notes:
  - Rules are denied after new ones are allowed, so access is never narrower
    than needed while the task runs. The exception is a level change below
    API 2.88, where the rule is briefly absent.
  - A rule found in V(error) that the task lists is denied and allowed again.
  - The rule changes to one share are sent one at a time, each once Manila
    has finished the one before (the share's C(access_rules_status) is
    V(active) or V(error) again), also with O(wait=false), because Manila can
    lose a change that reaches it while it applies another one.
'''

EXAMPLES = r'''
- name: Two clients may mount the share, one of them read-only
  openkeel.manila.share_access:
    cloud: mycloud
    share: projects
    rules:
      - access_type: ip
        access_to: 10.0.0.0/24
      - access_type: ip
        access_to: 192.168.10.7
        access_level: ro

- name: Exactly these rules, every other rule denied
  openkeel.manila.share_access:
    cloud: mycloud
    share: projects
    purge_rules: true
    rules:
      - access_type: ip
        access_to: 10.0.0.0/24
        metadata:
          owner: batch

- name: Windows users on a CIFS share
  openkeel.manila.share_access:
    cloud: mycloud
    share: team-docs
    rules:
      - access_type: user
        access_to: alice
      - access_type: user
        access_to: auditors
        access_level: ro

- name: A CephFS client (its cephx key is a secret and is not returned)
  openkeel.manila.share_access:
    cloud: mycloud
    share: cephfs-data
    rules:
      - access_type: cephx
        access_to: app1

- name: The same client, and its key for the ceph client configuration
  openkeel.manila.share_access:
    cloud: mycloud
    share: cephfs-data
    rules:
      - access_type: cephx
        access_to: app1
    return_access_keys: true
  register: cephfs_access
  no_log: true   # the result holds the key

- name: Write the keyring of app1 (the key stays out of the job output)
  ansible.builtin.copy:
    dest: /etc/ceph/ceph.client.app1.keyring
    mode: "0600"
    content: |
      [client.app1]
          key = {{ cephfs_access.rules | selectattr('access_to', 'equalto', 'app1') | map(attribute='access_key') | first }}
  no_log: true

- name: Take one client away
  openkeel.manila.share_access:
    cloud: mycloud
    share: projects
    state: absent
    rules:
      - access_type: ip
        access_to: 192.168.10.7
'''

RETURN = r'''
rules:
  description:
    - The share's rules as they end up, as Manila lists them. In check mode,
      the rules as they would be (new rules have no ID).
    - A rule's C(access_key) (the cephx secret) is returned only with
      O(return_access_keys).
  returned: always
  type: list
  elements: dict
  sample: [{"id": "a4c5d6e7-1111-4222-8333-444455556666", "access_type": "ip", "access_to": "10.0.0.0/24",
            "access_level": "rw", "state": "active", "metadata": {}}]
  contains:
    id:
      description: Rule ID.
      type: str
    access_type:
      description: ip, user, cert or cephx.
      type: str
    access_to:
      description: The target (C(******) when hidden by a visibility lock).
      type: str
    access_level:
      description: rw or ro.
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
    access_key:
      description:
        - The cephx key of the rule (null for other rules, and for a rule
          Manila has not given a key yet, such as a new rule in check mode).
      type: str
      returned: with O(return_access_keys)
share:
  description: The share's ID, name and C(access_rules_status).
  returned: always
  type: dict
  sample: {"id": "0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a", "name": "projects", "access_rules_status": "active"}
  contains:
    id:
      description: Share ID.
      type: str
    name:
      description: Share name.
      type: str
    access_rules_status:
      description: V(active), V(syncing) or V(error) - whether Manila has applied the share's rules (API 2.10+).
      type: str
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
  sample: '2.99'
'''

from ansible_collections.openkeel.manila.plugins.module_utils.access import (
    AccessAPI,
    apply_rules_plan,
    diff_view,
    explain_plan,
    plan_rules,
    predicted_rules,
    prepare_rules,
    required_features,
    rule_argument_spec,
    share_needs_wait_for_rules,
    with_access_keys,
)
from ansible_collections.openkeel.manila.plugins.module_utils.base import (
    ManilaModule,
    wait_argument_spec,
)
from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput
from ansible_collections.openkeel.manila.plugins.module_utils.shares import ShareAPI
from ansible_collections.openkeel.manila.plugins.module_utils.states import ACCESS_DENY_STATES


class ShareAccessModule(ManilaModule):
    argument_spec = dict(
        share=dict(type='str', required=True),
        rules=dict(type='list', elements='dict', default=[], options=rule_argument_spec()),
        state=dict(type='str', default='present', choices=['present', 'absent']),
        purge_rules=dict(type='bool', default=False),
        unrestrict=dict(type='bool', default=False),
        return_access_keys=dict(type='bool', default=False, no_log=False),
        **wait_argument_spec(180)
    )

    def run(self):
        p = self.params
        if p['purge_rules'] and p['state'] == 'absent':
            raise InvalidInput('purge_rules only applies with state=present.')
        client = self.client
        self.desired = prepare_rules(p['rules'], client.version)
        for feature, what in required_features(self.desired, p['state']):
            client.require(feature, what)
        if p['unrestrict']:
            client.require('access_rule_locks', 'unrestrict')
        self.shares = ShareAPI(client, p['timeout'])
        self.access = AccessAPI(client, p['timeout'])
        self.converge()

    # -- the hooks of the converge template (base.ManilaModule) ------------
    def find_current(self):
        """The share's rules (never None: state=absent removes rules of a share
        that must exist)."""
        self.share = self.shares.require(self.params['share'])
        return self.access.list(self.share['id'])

    def plan(self, current):
        p = self.params
        plan = plan_rules(current, self.desired, p['state'], p['purge_rules'],
                          update_in_place=self.client.supports('update_access_level'))
        explain_plan(plan, self.client.version, self.warn)
        plan.before = dict(rules=live_view(current))
        plan.after = plan.before
        if plan.changed:
            plan.predicted = predicted_rules(current, plan)
            plan.after = dict(rules=diff_view(plan.predicted))
        return plan

    @staticmethod
    def predict(plan, current):
        return plan.predicted

    def apply(self, plan, current):
        p = self.params
        if share_needs_wait_for_rules(self.client, self.share, p['wait']):
            self.share = self.shares.wait(self.share)
        rules = apply_rules_plan(self.access, self.shares, self.share, plan, p['unrestrict'],
                                 p['wait'], self.warn)
        plan.after = dict(rules=live_view(rules))
        return rules

    def result(self, plan, resource):
        share = self.share
        rules = list(resource)
        if self.params['return_access_keys']:
            rules = with_access_keys(self.access, share['id'], rules)
        return dict(rules=rules, share=dict(id=share['id'], name=share.get('name'),
                                            access_rules_status=share.get('access_rules_status')))


def live_view(rules):
    """The diff view of the rules that are not on their way out."""
    return diff_view(r for r in rules if r.get('state') not in ACCESS_DENY_STATES)


def main():
    ShareAccessModule()()


if __name__ == '__main__':
    main()
