# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The share module's delete lock (deletion_lock, API 2.81) on scripted HTTP:
the exact requests of a lock, a no-op, check mode, a refused deletion, a lifted
lock, an old server; the integration target share_lock runs the same on the
real cloud."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Fail,
    run_scripted,
)

from ansible_collections.openkeel.manila.plugins.module_utils import locks as locks_utils
from ansible_collections.openkeel.manila.plugins.module_utils import resource
from ansible_collections.openkeel.manila.plugins.modules import share as share_module
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    GONE,
    ScriptedResponse,
    share_locks,
)

SHARE_ID = '11111111-2222-3333-4444-555555555555'
LOCK_ID = '99999999-0000-0000-0000-000000000001'
USER_ID = 'aaaaaaaa0000000000000000000000a1'
PROJECT_ID = 'bbbbbbbb0000000000000000000000b1'
SHARE = {'id': SHARE_ID, 'name': 'data', 'size': 1, 'share_proto': 'NFS', 'status': 'available',
         'share_type': 'aaaaaaaa-0000-0000-0000-000000000000', 'share_type_name': 'default',
         'share_network_id': None, 'availability_zone': 'nova', 'snapshot_id': None,
         'is_public': False, 'metadata': {}, 'description': None}
LOCK = {'id': LOCK_ID, 'resource_id': SHARE_ID, 'resource_type': 'share',
        'resource_action': 'delete', 'lock_reason': 'payroll', 'user_id': USER_ID,
        'project_id': PROJECT_ID, 'lock_context': 'user', 'created_at': '2026-12-01T10:00:00.000000'}
RULE_LOCK = dict(LOCK, id='99999999-0000-0000-0000-000000000002',
                 lock_reason='Locked by access lock: 77777777-0000-0000-0000-000000000007')
BY_NAME = ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [SHARE]}))
EXPORTS = ('GET', '/v2/shares/%s/export_locations' % SHARE_ID,
           ScriptedResponse(200, {'export_locations': [{'path': '10.0.0.1:/a', 'preferred': True}]}))
NO_SNAPSHOTS = ('GET', '/v2/snapshots/detail?share_id=%s&all_tenants=1&with_count=true&limit=1000'
                '&offset=0' % SHARE_ID, ScriptedResponse(200, {'snapshots': [], 'count': 0}))


def run(monkeypatch, args, exchanges, max_version='2.99', check_mode=False):
    return run_scripted(monkeypatch, share_module, args, exchanges, max_version=max_version,
                        check_mode=check_mode, diff=True)


def test_lock_is_created_with_its_reason_and_shown(monkeypatch):
    made = dict(LOCK, lock_reason='keep')
    outcome, session = run(monkeypatch, {'name': 'data', 'deletion_lock': True, 'lock_reason': 'keep'}, [
        BY_NAME,
        share_locks(SHARE_ID),
        ('POST', '/v2/resource-locks', ScriptedResponse(200, {'resource_lock': made})),
        EXPORTS,
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert session.bodies('POST') == [{'resource_lock': {
        'resource_id': SHARE_ID, 'resource_type': 'share', 'resource_action': 'delete',
        'lock_reason': 'keep'}}]
    assert outcome.result['changed'] is True
    assert outcome.result['diff']['before']['deletion_lock'] is False
    assert outcome.result['diff']['after'] == dict(outcome.result['diff']['before'],
                                                   deletion_lock=True, lock_reason='keep')
    assert [x['id'] for x in outcome.result['deletion_locks']] == [LOCK_ID]
    assert outcome.result['deletion_locks'][0]['user_id'] == USER_ID


def test_a_locked_share_is_a_no_op_of_four_requests(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'deletion_lock': True, 'lock_reason': 'payroll'}, [
        BY_NAME, share_locks(SHARE_ID, LOCK), EXPORTS])
    assert outcome.result['changed'] is False
    assert session.requests() == [
        'GET /', 'GET /v2/shares/detail?name=data',
        'GET /v2/resource-locks?resource_type=share&resource_action=delete&resource_id=%s'
        '&with_count=true&limit=1000&offset=0' % SHARE_ID,
        'GET /v2/shares/%s/export_locations' % SHARE_ID]


def test_without_a_reason_any_lock_of_the_share_will_do(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'deletion_lock': True}, [
        BY_NAME, share_locks(SHARE_ID, LOCK), EXPORTS])
    assert outcome.result['changed'] is False


def test_another_reason_is_updated_in_place(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'deletion_lock': True, 'lock_reason': 'audit'}, [
        BY_NAME, share_locks(SHARE_ID, LOCK),
        ('PUT', '/v2/resource-locks/' + LOCK_ID, ScriptedResponse(200, {'resource_lock': dict(
            LOCK, lock_reason='audit')})),
        EXPORTS])
    assert outcome.result['changed'] is True
    assert session.bodies('PUT') == [{'resource_lock': {'lock_reason': 'audit'}}]
    assert outcome.result['deletion_locks'][0]['lock_reason'] == 'audit'


def test_check_mode_sends_no_write_and_shows_the_lock(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'deletion_lock': True}, [
        BY_NAME, share_locks(SHARE_ID), EXPORTS], check_mode=True)
    assert outcome.result['changed'] is True
    assert session.writes() == []
    assert outcome.result['diff']['after']['deletion_lock'] is True


def test_deletion_lock_false_removes_the_locks_of_the_share_not_those_of_rules(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'deletion_lock': False}, [
        BY_NAME, share_locks(SHARE_ID, LOCK, RULE_LOCK),
        ('DELETE', '/v2/resource-locks/' + LOCK_ID, ScriptedResponse(204)),
        EXPORTS])
    assert outcome.result['changed'] is True
    assert [c.path for c in session.writes()] == ['/v2/resource-locks/' + LOCK_ID]
    assert [x['id'] for x in outcome.result['deletion_locks']] == [RULE_LOCK['id']]
    assert outcome.result['diff']['after']['deletion_lock'] is False


def test_absent_on_a_locked_share_is_refused_naming_the_lock(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'state': 'absent', 'delete_snapshots': True}, [
        BY_NAME, share_locks(SHARE_ID, LOCK)])
    assert isinstance(outcome, Fail)
    msg = outcome.result['msg']
    for words in (LOCK_ID, "'payroll'", USER_ID, PROJECT_ID, 'deletion_lock=false'):
        assert words in msg
    assert msg == locks_utils.absent_refusal('Share data (%s)' % SHARE_ID, [LOCK], None)
    assert session.writes() == []
    assert outcome.result['deletion_locks'][0]['id'] == LOCK_ID


def test_absent_with_deletion_lock_false_lifts_the_lock_then_deletes(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'state': 'absent', 'deletion_lock': False}, [
        BY_NAME, share_locks(SHARE_ID, LOCK), NO_SNAPSHOTS,
        # the deletion first, while the lock holds: Manila names every lock (issue 36)
        ('DELETE', '/v2/shares/' + SHARE_ID, locked_by(LOCK_ID)),
        ('DELETE', '/v2/resource-locks/' + LOCK_ID, ScriptedResponse(204)),
        ('DELETE', '/v2/shares/' + SHARE_ID, ScriptedResponse(202)),
        ('GET', '/v2/shares/' + SHARE_ID, GONE)])
    assert not isinstance(outcome, Fail), outcome.result
    assert [(c.method, c.path) for c in session.writes()] == [
        ('DELETE', '/v2/shares/' + SHARE_ID),
        ('DELETE', '/v2/resource-locks/' + LOCK_ID), ('DELETE', '/v2/shares/' + SHARE_ID)]
    assert outcome.result['deletion_locks'] == []


def test_absent_lifting_in_check_mode_writes_nothing(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'state': 'absent', 'deletion_lock': False}, [
        BY_NAME, share_locks(SHARE_ID, LOCK), NO_SNAPSHOTS], check_mode=True)
    assert outcome.result['changed'] is True and session.writes() == []
    assert outcome.result['diff']['before']['deletion_lock'] is True
    assert outcome.result['diff']['after'] == {}  # the share is gone
    assert outcome.result['deletion_locks'] == []  # as they will be: lifted


def test_the_lock_of_an_access_rule_is_not_lifted_by_the_share_task(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'state': 'absent', 'deletion_lock': False}, [
        BY_NAME, share_locks(SHARE_ID, LOCK, RULE_LOCK)])
    assert isinstance(outcome, Fail)
    assert RULE_LOCK['id'] in outcome.result['msg'] and 'share_access' in outcome.result['msg']
    assert session.writes() == []


@pytest.mark.parametrize('args', [
    {'name': 'data', 'deletion_lock': True},
    {'name': 'data', 'deletion_lock': False, 'state': 'absent'},
])
def test_an_older_cloud_is_refused_before_any_request(monkeypatch, args):
    outcome, session = run(monkeypatch, args, [], max_version='2.80')
    assert isinstance(outcome, Fail)
    assert 'deletion_lock needs Manila API 2.81; this cloud offers 2.80' in outcome.result['msg']
    assert session.requests() == ['GET /']


def test_absent_on_an_older_cloud_reads_no_locks(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'state': 'absent'}, [
        BY_NAME, NO_SNAPSHOTS,
        ('DELETE', '/v2/shares/' + SHARE_ID, ScriptedResponse(202)),
        ('GET', '/v2/shares/' + SHARE_ID, GONE)], max_version='2.80')
    assert outcome.result['changed'] is True
    assert 'deletion_locks' not in outcome.result


@pytest.mark.parametrize('args, words', [
    ({'name': 'data', 'lock_reason': 'x'}, 'lock_reason only applies with deletion_lock=true'),
    ({'name': 'data', 'deletion_lock': False, 'lock_reason': 'x'},
     'lock_reason only applies with deletion_lock=true'),
    ({'name': 'data', 'deletion_lock': True, 'state': 'absent'}, 'deletion_lock=true contradicts state=absent'),
    ({'name': 'data', 'deletion_lock': True, 'lock_reason': 'x' * 1024}, 'at most 1023 characters'),
    ({'name': 'data', 'deletion_lock': False, 'state': 'unmanaged'},
     'deletion_lock does not apply with state=unmanaged'),
])
def test_bad_lock_input_sends_nothing(monkeypatch, args, words):
    outcome, session = run(monkeypatch, args, [])
    assert isinstance(outcome, Fail)
    assert words in outcome.result['msg']
    assert session.requests() == ['GET /']  # the scripted client's own negotiation


OLDER = dict(LOCK, id='99999999-0000-0000-0000-000000000003', lock_reason=None,
             created_at='2026-11-30T10:00:00.000000')
# (locks, deletion_lock, lock_reason) -> the action of plan_locks
LOCK_PLANS = [
    ([], None, None, 'nothing'),
    ([LOCK], None, None, 'nothing'),
    ([], True, None, 'create'),
    ([], True, 'payroll', 'create'),
    ([RULE_LOCK], True, None, 'create'),
    ([LOCK], True, None, 'nothing'),
    ([LOCK], True, 'payroll', 'nothing'),
    ([LOCK], True, 'audit', 'update'),
    ([OLDER, LOCK], True, 'payroll', 'nothing'),
    ([OLDER, LOCK], True, 'audit', 'update'),
    ([], False, None, 'nothing'),
    ([RULE_LOCK], False, None, 'nothing'),
    ([LOCK], False, None, 'delete'),
    ([OLDER, LOCK, RULE_LOCK], False, None, 'delete'),
]


@pytest.mark.parametrize('locks, deletion_lock, lock_reason, action', LOCK_PLANS)
def test_lock_plan_shape(locks, deletion_lock, lock_reason, action):
    """The plan shape (resource.Plan): ``changed`` is ``action != NOTHING``, and
    it is what a lock plan's ``changed`` always was: a create, an update or a
    removal."""
    plan = locks_utils.plan_locks(locks, deletion_lock, lock_reason)
    steps = plan.create is not None or plan.update is not None or bool(plan.remove)
    assert isinstance(plan, resource.Plan) and plan.action == action
    assert plan.changed is steps is (plan.action != resource.NOTHING)


@pytest.mark.parametrize('create, update, remove, action', [
    (None, None, None, 'nothing'),
    (None, None, [], 'nothing'),
    ('', None, None, 'create'),
    (None, (LOCK, 'x'), None, 'update'),
    (None, None, [LOCK], 'delete'),
    ('', (LOCK, 'x'), None, 'update'),
    ('', None, [LOCK], 'update'),
    (None, (LOCK, 'x'), [LOCK], 'update'),
    ('', (LOCK, 'x'), [LOCK], 'update'),
])
def test_lock_plan_action_of_its_steps(create, update, remove, action):
    plan = locks_utils.LockPlan([LOCK], create=create, update=update, remove=remove)
    steps = plan.create is not None or plan.update is not None or bool(plan.remove)
    assert plan.action == action
    assert plan.changed is steps is (plan.action != resource.NOTHING)


def test_plan_words_and_views():
    plan = locks_utils.plan_locks([LOCK, RULE_LOCK], True, 'payroll')
    assert not plan.changed
    plan = locks_utils.plan_locks([RULE_LOCK], True)
    assert plan.create == '' and plan.words() == ['locked against deletion']
    assert plan.before == {'deletion_lock': False} and plan.after['deletion_lock'] is True
    assert locks_utils.plan_locks([LOCK], None).changed is False
    assert 'as admin' in locks_utils.lock_words(dict(LOCK, lock_context='admin'))


NONE_BY_NAME = ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': []}))
NONE_SOFT_DELETED = ('GET', '/v2/shares/detail?name=data&is_soft_deleted=true',
                     ScriptedResponse(200, {'shares': []}))


def test_a_no_op_shows_the_locks_of_the_share(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'deletion_lock': True}, [
        BY_NAME, share_locks(SHARE_ID, LOCK, RULE_LOCK), EXPORTS])
    assert outcome.result['changed'] is False
    assert outcome.result['deletion_locks'] == [locks_utils.brief(LOCK),
                                                locks_utils.brief(RULE_LOCK)]


def test_a_share_check_mode_would_create_is_shown_locked_without_a_lock_read(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'size': 1, 'share_proto': 'NFS',
                                         'deletion_lock': True, 'lock_reason': 'keep'}, [
        NONE_BY_NAME, NONE_SOFT_DELETED,
        ('GET', '/v2/types/default', ScriptedResponse(200, {'share_type': {
            'id': SHARE['share_type'], 'name': 'default'}})),
    ], check_mode=True)
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['changed'] is True
    assert session.writes() == []
    assert outcome.result['diff']['before'] == {}
    assert outcome.result['diff']['after']['deletion_lock'] is True
    assert outcome.result['diff']['after']['lock_reason'] == 'keep'
    assert outcome.result['deletion_locks'] == [dict(
        id=None, lock_reason='keep', user_id=None, project_id=None, lock_context=None,
        created_at=None)]


def test_absent_of_a_missing_share_reads_no_locks(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'state': 'absent'}, [NONE_BY_NAME])
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['changed'] is False
    assert session.writes() == []


def test_absent_of_a_share_in_the_recycle_bin_reads_no_locks(monkeypatch):
    binned = dict(SHARE, is_soft_deleted=True)
    outcome, session = run(monkeypatch, {'id': SHARE_ID, 'state': 'absent'}, [
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': binned})),
        NO_SNAPSHOTS,
    ], check_mode=True)
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['changed'] is True
    assert session.requests() == ['GET /', 'GET /v2/shares/' + SHARE_ID,
                                  'GET ' + NO_SNAPSHOTS[1]]


# -- locks this user cannot list (issue 36) ------------------------------------------
# Manila lists a member's own project's locks only, but refuses a deletion for the
# locks of every project, naming them all, before any other check of the deletion.
HIDDEN_ID = '99999999-0000-0000-0000-0000000000ad'
SNAP_ID = 'aaaaaaaa-0000-0000-0000-000000000002'
SNAP = {'id': SNAP_ID, 'name': 'tuesday', 'share_id': SHARE_ID, 'status': 'available', 'size': 1,
        'created_at': '2026-12-01T10:00:00.000000', 'description': None}
ONE_SNAPSHOT = (NO_SNAPSHOTS[0], NO_SNAPSHOTS[1], ScriptedResponse(200, {'snapshots': [SNAP], 'count': 1}))


def locked_by(*ids):
    """Manila's 403 to a share's deletion that delete locks hold."""
    return ScriptedResponse(403, {'forbidden': {'code': 403, 'message': (
        'Resource lock/s [%s] prevent delete action.' % ', '.join(ids))}})


def test_delete_snapshots_first_asks_manila_and_a_lock_it_names_deletes_nothing(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'state': 'absent', 'delete_snapshots': True}, [
        BY_NAME, share_locks(SHARE_ID), ONE_SNAPSHOT,
        ('DELETE', '/v2/shares/' + SHARE_ID, locked_by(HIDDEN_ID))])
    assert isinstance(outcome, Fail)
    assert not outcome.result.get('changed') and 'accepted_writes' not in outcome.result
    assert [(c.method, c.path) for c in session.writes()] == [('DELETE', '/v2/shares/' + SHARE_ID)]
    assert outcome.result['msg'].startswith(
        'Share data (%s) is locked against deletion by lock this user cannot see: %s.' % (
            SHARE_ID, HIDDEN_ID))
    assert 'Nothing was deleted' in outcome.result['msg']
    assert [x['id'] for x in outcome.result['deletion_locks']] == [HIDDEN_ID]


def test_delete_snapshots_goes_on_when_manila_refuses_the_share_for_its_snapshots(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'state': 'absent', 'delete_snapshots': True}, [
        BY_NAME, share_locks(SHARE_ID), ONE_SNAPSHOT,
        ('DELETE', '/v2/shares/' + SHARE_ID, ScriptedResponse(403, {'forbidden': {
            'code': 403, 'message': 'Share still has 1 dependent snapshots.'}})),
        ('DELETE', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(202)),
        ('GET', '/v2/snapshots/' + SNAP_ID, GONE),
        ('DELETE', '/v2/shares/' + SHARE_ID, ScriptedResponse(202)),
        ('GET', '/v2/shares/' + SHARE_ID, GONE)])
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['changed'] is True
    assert [s['id'] for s in outcome.result['deleted_snapshots']] == [SNAP_ID]


def test_lifting_first_asks_manila_and_a_lock_of_another_project_lifts_nothing(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'state': 'absent', 'deletion_lock': False}, [
        BY_NAME, share_locks(SHARE_ID, LOCK), NO_SNAPSHOTS,
        ('DELETE', '/v2/shares/' + SHARE_ID, locked_by(LOCK_ID, HIDDEN_ID))])
    assert isinstance(outcome, Fail)
    assert not outcome.result.get('changed') and 'accepted_writes' not in outcome.result
    assert [c.path for c in session.writes()] == ['/v2/shares/' + SHARE_ID]
    assert HIDDEN_ID in outcome.result['msg'] and LOCK_ID not in outcome.result['msg']
    assert [x['id'] for x in outcome.result['deletion_locks']] == [LOCK_ID, HIDDEN_ID]


def test_a_refusal_by_the_locks_the_task_lifts_goes_on(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'state': 'absent', 'deletion_lock': False}, [
        BY_NAME, share_locks(SHARE_ID, LOCK), NO_SNAPSHOTS,
        ('DELETE', '/v2/shares/' + SHARE_ID, locked_by(LOCK_ID)),
        ('DELETE', '/v2/resource-locks/' + LOCK_ID, ScriptedResponse(204)),
        ('DELETE', '/v2/shares/' + SHARE_ID, ScriptedResponse(202)),
        ('GET', '/v2/shares/' + SHARE_ID, GONE)])
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['deletion_locks'] == []


def test_a_deletion_refused_by_a_lock_nobody_listed_says_so(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'state': 'absent'}, [
        BY_NAME, share_locks(SHARE_ID), NO_SNAPSHOTS,
        ('DELETE', '/v2/shares/' + SHARE_ID, locked_by(HIDDEN_ID))])
    assert isinstance(outcome, Fail)
    assert not outcome.result.get('changed') and 'accepted_writes' not in outcome.result
    assert 'cannot see' in outcome.result['msg'] and 'policy' not in outcome.result['msg']
