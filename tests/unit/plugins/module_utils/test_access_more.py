# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Access rules, more: the warnings explain_plan gives (hidden rules, level changes
by replacement), an AccessPlan built with its diff views, and plan_writes as the
fleet calls it (no unrestrict unless asked)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils.access import (
    UPDATE,
    AccessAPI,
    AccessPlan,
    explain_plan,
    plan_rules,
    prepare_rules,
)
from ansible_collections.openkeel.manila.plugins.module_utils.microversions import APIVersion
from ansible_collections.openkeel.manila.plugins.module_utils.resource import NOTHING
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    expect,
    make_client,
)

SHARE_ID = '11111111-2222-3333-4444-555555555555'
ACTION = '/v2/shares/%s/action' % SHARE_ID


def rule(rule_id, access_to, level='rw', state='active', access_type='ip'):
    return dict(id=rule_id, access_type=access_type, access_to=access_to, access_level=level,
                state=state, metadata={})


def warnings_of(existing, desired, version='2.87', **kwargs):
    said = []
    plan = plan_rules(existing, prepare_rules(desired), update_in_place=APIVersion(version) >= APIVersion('2.88'),
                      **kwargs)
    explain_plan(plan, APIVersion(version), said.append)
    return plan, said


def test_hidden_rules_are_named_by_id_in_order():
    existing = [rule('zz', '******'), rule('aa', '******', access_type='user'), rule('r1', '10.0.0.1')]
    plan, said = warnings_of(existing, [dict(access_type='ip', access_to='10.0.0.1')], purge=True)
    assert [r['id'] for r in plan.hidden] == ['zz', 'aa']
    assert said == ['2 rule(s) of this share have targets hidden from this user by a visibility lock '
                    '(shown as ******); they cannot be matched and were left alone (IDs: aa, zz).']


def test_one_level_change_by_replacement_is_named():
    _plan, said = warnings_of([rule('r1', '10.0.0.1', level='ro')],
                              [dict(access_type='ip', access_to='10.0.0.1')])
    assert said == ['Manila API 2.87 cannot change an access level in place (that needs 2.88): '
                    'ip:10.0.0.1 is denied and allowed again, so the client has no access for a short while.']


def test_several_level_changes_by_replacement_are_named_together():
    _plan, said = warnings_of([rule('r1', '10.0.0.1', level='ro'), rule('r2', 'bobby', access_type='user')],
                              [dict(access_type='ip', access_to='10.0.0.1'),
                               dict(access_type='user', access_to='bobby', access_level='ro')])
    assert said == ['Manila API 2.87 cannot change an access level in place (that needs 2.88): '
                    'ip:10.0.0.1, user:bobby are denied and allowed again, so the client has no access '
                    'for a short while.']


def test_a_rule_in_error_replaced_is_no_level_change():
    plan, said = warnings_of([rule('r1', '10.0.0.1', state='error'), rule('r2', '10.0.0.2', level='ro')],
                             [dict(access_type='ip', access_to='10.0.0.1'),
                              dict(access_type='ip', access_to='10.0.0.2')])
    assert [c['id'] for c, _r in plan.replace] == ['r1', 'r2']
    # only r2 changes level; r1 is replaced because it is in error
    assert len(said) == 1 and 'ip:10.0.0.2 is denied' in said[0] and '10.0.0.1' not in said[0]


def test_only_a_rule_in_error_replaced_gives_no_warning():
    plan, said = warnings_of([rule('r1', '10.0.0.1', level='ro', state='error')],
                             [dict(access_type='ip', access_to='10.0.0.1')])
    assert plan.action == UPDATE and said == []


def test_in_place_level_changes_and_nothing_hidden_give_no_warning():
    plan, said = warnings_of([rule('r1', '10.0.0.1', level='ro')],
                             [dict(access_type='ip', access_to='10.0.0.1')], version='2.88')
    assert [(c['id'], level) for c, level in plan.update] == [('r1', 'rw')]
    assert said == []


def test_an_access_plan_keeps_the_diff_views_it_is_given():
    before = {'rules': [{'access_type': 'ip', 'access_to': '10.0.0.1'}]}
    after = {'rules': []}
    plan = AccessPlan(before, after)
    assert plan.before is before and plan.after is after
    assert plan.action == NOTHING and plan.changed is False
    plan.remove.append(rule('r1', '10.0.0.1'))
    assert plan.action == UPDATE and plan.changed is True


def test_an_access_plan_without_views_has_empty_ones():
    plan = AccessPlan()
    assert (plan.before, plan.after) == ({}, {})
    assert (plan.add, plan.update, plan.replace, plan.metadata, plan.remove, plan.hidden,
            plan.unchanged) == ([], [], [], [], [], [], [])


def test_plan_writes_deny_without_unrestrict_unless_asked():
    # share_access passes unrestrict; the fleet's rule writes rely on the default
    plan = plan_rules([rule('r1', '10.0.0.1'), rule('r2', '10.0.0.2')],
                      prepare_rules([dict(access_type='ip', access_to='10.0.0.1')]), purge=True)
    client, session = make_client([
        expect('POST', ACTION, ScriptedResponse(202), body={'deny_access': {'access_id': 'r2'}}),
    ], max_version='2.99')
    writes = AccessAPI(client).plan_writes(SHARE_ID, plan)
    assert [(kind, syncs) for kind, syncs, _send in writes] == [('deny', True)]
    assert writes[0][2]() == 'r2'
    assert session.bodies('POST') == [{'deny_access': {'access_id': 'r2'}}]
