# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The delete lock calls (LockAPI) on scripted HTTP and the words that name a
lock: the listing of another project's share (all_projects), every write
after a 5xx answer (the look that finds it made, or sends it again), the
refusal of an older cloud by each call, which lock a plan changes (the oldest),
and the exact refusals a locked share's deletion or unmanaging gets."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import kinds, resource as base_resource
from ansible_collections.openkeel.manila.plugins.module_utils.errors import NotFound, UnsupportedFeature
from ansible_collections.openkeel.manila.plugins.module_utils.resource import if_found
from ansible_collections.openkeel.manila.plugins.module_utils.locks import (
    LockAPI,
    absent_refusal,
    check_lock_input,
    lock_words,
    plan_locks,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    GONE,
    ScriptedResponse,
    expect,
    make_client,
    share_locks,
)

SHARE_ID = '11111111-2222-3333-4444-555555555555'
USER_ID = 'aaaaaaaa0000000000000000000000a1'
PROJECT_ID = 'bbbbbbbb0000000000000000000000b1'
OTHER_PROJECT = 'cccccccc0000000000000000000000c1'
LOCK = {'id': 'lock-b', 'resource_id': SHARE_ID, 'resource_type': 'share',
        'resource_action': 'delete', 'lock_reason': 'payroll', 'user_id': USER_ID,
        'project_id': PROJECT_ID, 'lock_context': 'user', 'created_at': '2026-12-01T10:00:00.000000'}
# Older than LOCK although its ID sorts after it.
OLDER = dict(LOCK, id='lock-z', lock_reason=None, created_at='2026-11-30T10:00:00.000000')
RULE_LOCK = dict(LOCK, id='lock-rule',
                 lock_reason='Locked by access lock: 77777777-0000-0000-0000-000000000007')
LISTING = ('/v2/resource-locks?resource_type=share&resource_action=delete&resource_id=%s'
           '&with_count=true&limit=1000&offset=0' % SHARE_ID)
UNAVAILABLE = ScriptedResponse(503, {'computeFault': {'code': 503, 'message': 'busy'}})


def listed(*locks):
    return share_locks(SHARE_ID, *locks)


# -- the words a user reads -----------------------------------------------------------

def test_a_lock_is_named_with_its_reason_its_owner_and_an_admin_context():
    assert lock_words(LOCK) == (
        "lock lock-b (reason 'payroll', set by user %s of project %s)" % (USER_ID, PROJECT_ID))
    assert lock_words(dict(LOCK, lock_reason=None, lock_context='admin')) == (
        'lock lock-b (no reason given, set by user %s of project %s as admin)'
        % (USER_ID, PROJECT_ID))
    assert lock_words(dict(LOCK, lock_context=None)) == lock_words(LOCK)


def test_the_refusal_of_a_deletion_names_every_lock_oldest_first_and_the_fix():
    named = '%s; %s' % (lock_words(OLDER), lock_words(LOCK))
    assert absent_refusal('Share data (x)', [LOCK, OLDER], None) == (
        'Share data (x) is locked against deletion: %s. Nothing was deleted. To delete it, '
        'lift the lock in the same task: deletion_lock=false with state=absent.' % named)


def test_the_refusal_of_unmanaging_says_to_lift_the_lock_with_state_present():
    assert absent_refusal('Share data (x)', [LOCK], None, 'unmanage') == (
        'Share data (x) is locked against deletion, which Manila applies to unmanaging too: '
        '%s. Nothing was changed. Lift the lock first (deletion_lock=false with '
        'state=present).' % lock_words(LOCK))


def test_lifting_the_locks_leaves_those_of_access_rules_which_still_refuse():
    assert absent_refusal('Share data (x)', [LOCK, OLDER], False) is None
    assert absent_refusal('Share data (x)', [LOCK, RULE_LOCK], False) == (
        'Share data (x) is locked against deletion by the lock of an access rule: %s. '
        'Nothing was deleted: remove the rule, or its lock, first '
        '(openkeel.manila.share_access).' % lock_words(RULE_LOCK))


def test_a_reason_of_the_maximum_length_is_accepted_one_more_is_refused():
    assert check_lock_input(True, 'x' * 1023, 'present') == []
    assert check_lock_input(True, 'x' * 1024, 'present') == [
        'lock_reason can have at most 1023 characters, got 1024.']


# -- which lock a plan changes ----------------------------------------------------------

def test_a_new_reason_goes_to_the_oldest_lock_by_creation_time():
    plan = plan_locks([LOCK, OLDER], True, 'audit')
    assert plan.update == (OLDER, 'audit')
    assert plan.words() == ['reason of its deletion lock']
    assert plan.before == {'deletion_lock': True, 'lock_reason': None}
    assert plan.after == {'deletion_lock': True, 'lock_reason': 'audit'}
    assert plan.predicted() == [LOCK, dict(OLDER, lock_reason='audit')]


def test_locks_made_at_the_same_time_go_by_id():
    same_time = dict(OLDER, created_at=LOCK['created_at'])
    plan = plan_locks([same_time, LOCK], True, 'audit')
    assert plan.update == (LOCK, 'audit')


def test_the_words_of_a_lift():
    plan = plan_locks([LOCK, RULE_LOCK], False)
    assert plan.remove == [LOCK] and plan.words() == ['deletion lock lifted']
    assert plan.predicted() == [RULE_LOCK]


# -- LockAPI ---------------------------------------------------------------------------

def test_the_locks_of_a_share_of_another_project_are_asked_of_every_project():
    client, session = make_client([
        ('GET', LISTING.replace('&with_count', '&all_projects=true&with_count'),
         ScriptedResponse(200, {'resource_locks': [LOCK], 'count': 1})),
        listed(),
    ])
    client.token_project = lambda: {'id': OTHER_PROJECT, 'name': 'admin', 'roles': ['admin']}
    api = LockAPI(client)
    assert api.for_share({'id': SHARE_ID, 'project_id': PROJECT_ID}) == [LOCK]
    assert api.for_share({'id': SHARE_ID, 'project_id': OTHER_PROJECT}) == []


@pytest.mark.parametrize('project', [None, {'id': PROJECT_ID, 'name': 'p', 'roles': []}])
def test_the_locks_of_a_share_of_this_project_are_asked_of_this_project(project):
    client, session = make_client([listed(LOCK), listed(LOCK)])
    client.token_project = lambda: project
    api = LockAPI(client)
    assert api.for_share({'id': SHARE_ID, 'project_id': PROJECT_ID}) == [LOCK]
    assert api.for_share({'id': SHARE_ID}) == [LOCK]


def test_a_create_answered_with_a_5xx_is_found_among_the_new_locks_with_its_reason():
    made = dict(LOCK, id='lock-new', lock_reason='keep')
    no_reason = dict(LOCK, id='lock-none', lock_reason=None)
    other_reason = dict(LOCK, id='lock-other', lock_reason='other')
    known = dict(LOCK, id='lock-known', lock_reason='keep')
    client, session = make_client([
        ('POST', '/v2/resource-locks', UNAVAILABLE),
        listed(known, no_reason, other_reason, made),
    ])
    assert LockAPI(client).create(SHARE_ID, 'keep', ['lock-known']) == made
    assert [c.method for c in session.writes()] == ['POST']
    assert 'Manila shows that it took effect' in client.warnings[0]


def test_a_create_without_reason_answered_with_a_5xx_is_found_as_the_lock_without_one():
    made = dict(LOCK, id='lock-new', lock_reason=None)
    client, session = make_client([
        ('POST', '/v2/resource-locks', UNAVAILABLE),
        listed(RULE_LOCK, dict(LOCK, id='lock-other', lock_reason='other'), made),
    ])
    assert LockAPI(client).create(SHARE_ID, '', [RULE_LOCK['id']]) == made
    assert [c.method for c in session.writes()] == ['POST']


def test_a_create_that_a_5xx_left_unmade_is_sent_once_more():
    made = dict(LOCK, id='lock-new', lock_reason='keep')
    body = {'resource_lock': {'resource_id': SHARE_ID, 'resource_type': 'share',
                              'resource_action': 'delete', 'lock_reason': 'keep'}}
    client, session = make_client([
        expect('POST', '/v2/resource-locks', UNAVAILABLE, body=body),
        listed(RULE_LOCK, dict(LOCK, lock_reason='keep')),
        expect('POST', '/v2/resource-locks', ScriptedResponse(200, {'resource_lock': made}),
               body=body),
    ])
    assert LockAPI(client).create(SHARE_ID, 'keep', [RULE_LOCK['id'], LOCK['id']]) == made
    assert 'sent again and succeeded' in client.warnings[0]


def test_a_reason_change_answered_with_a_5xx_is_read_back():
    changed = dict(LOCK, lock_reason='audit')
    client, session = make_client([
        expect('PUT', '/v2/resource-locks/lock-b', UNAVAILABLE,
               body={'resource_lock': {'lock_reason': 'audit'}}),
        ('GET', '/v2/resource-locks/lock-b', ScriptedResponse(200, {'resource_lock': changed})),
    ])
    assert LockAPI(client).update_reason(LOCK, 'audit') == changed
    assert [c.method for c in session.writes()] == ['PUT']


def test_a_reason_change_not_shown_after_a_5xx_is_sent_once_more():
    changed = dict(LOCK, lock_reason='audit')
    client, session = make_client([
        ('PUT', '/v2/resource-locks/lock-b', UNAVAILABLE),
        ('GET', '/v2/resource-locks/lock-b', ScriptedResponse(200, {'resource_lock': LOCK})),
        ('PUT', '/v2/resource-locks/lock-b', ScriptedResponse(200, {'resource_lock': changed})),
    ])
    assert LockAPI(client).update_reason(LOCK, 'audit') == changed


def test_a_removal_answered_with_a_5xx_is_done_when_the_lock_is_gone():
    client, session = make_client([
        ('DELETE', '/v2/resource-locks/lock-b', UNAVAILABLE),
        ('GET', '/v2/resource-locks/lock-b', GONE),
    ])
    assert LockAPI(client).delete(LOCK) is True
    assert [c.method for c in session.writes()] == ['DELETE']


def test_a_removal_of_a_lock_still_shown_after_a_5xx_is_sent_once_more():
    client, session = make_client([
        ('DELETE', '/v2/resource-locks/lock-b', UNAVAILABLE),
        ('GET', '/v2/resource-locks/lock-b', ScriptedResponse(200, {'resource_lock': LOCK})),
        ('DELETE', '/v2/resource-locks/lock-b', ScriptedResponse(204)),
    ])
    assert LockAPI(client).delete(LOCK) is True
    assert [c.method for c in session.writes()] == ['DELETE', 'DELETE']


def test_apply_changes_only_the_lock_it_updates_and_adds_the_new_one():
    changed = dict(OLDER, lock_reason='audit')
    client, session = make_client([
        ('PUT', '/v2/resource-locks/lock-z', ScriptedResponse(200, {'resource_lock': changed})),
    ])
    plan = plan_locks([LOCK, OLDER, RULE_LOCK], True, 'audit')
    assert LockAPI(client).apply(SHARE_ID, plan) == [LOCK, changed, RULE_LOCK]


def test_apply_creates_a_lock_beside_those_of_access_rules():
    made = dict(LOCK, id='lock-new', lock_reason='keep')
    client, session = make_client([
        expect('POST', '/v2/resource-locks', ScriptedResponse(200, {'resource_lock': made}),
               body={'resource_lock': {'resource_id': SHARE_ID, 'resource_type': 'share',
                                       'resource_action': 'delete', 'lock_reason': 'keep'}}),
    ])
    plan = plan_locks([RULE_LOCK], True, 'keep')
    assert LockAPI(client).apply(SHARE_ID, plan) == [RULE_LOCK, made]


@pytest.mark.parametrize('call', [
    lambda api: api.create(SHARE_ID, 'keep'),
    lambda api: api.update_reason(LOCK, 'audit'),
    lambda api: api.delete(LOCK),
])
def test_every_write_refuses_an_older_cloud_before_sending(call):
    client, session = make_client([], max_version='2.80')
    with pytest.raises(UnsupportedFeature) as caught:
        call(LockAPI(client))
    assert str(caught.value).startswith('resource locks needs Manila API 2.81; this cloud '
                                        'offers 2.80.')
    assert session.writes() == []


# -- on the base (issue 35) ------------------------------------------------------

def test_the_lock_calls_are_the_bases_with_the_lock_row():
    assert issubclass(LockAPI, base_resource.ResourceAPI) and LockAPI.kind == 'resource_lock'
    assert LockAPI.feature == kinds.KINDS['resource_lock'].feature == 'resource_locks'


def test_a_lock_is_removed_by_itself_or_by_its_id():
    client, session = make_client([
        expect('DELETE', '/v2/resource-locks/l1', ScriptedResponse(204)),
        expect('DELETE', '/v2/resource-locks/l2', ScriptedResponse(204)),
        expect('DELETE', '/v2/resource-locks/l3', GONE),
        expect('DELETE', '/v2/resource-locks/l4', GONE),
    ])
    api = LockAPI(client)
    assert api.delete({'id': 'l1'}) is True
    assert api.delete('l2') is True
    assert if_found(api.delete, 'l3') is None
    with pytest.raises(NotFound):
        api.delete('l4')
    assert api.deletion_words('l1') == 'the removal of lock l1'


def test_locks_below_2_81_are_refused_before_any_request():
    client, session = make_client([], max_version='2.80')
    api = LockAPI(client)
    assert not api.supported()
    with pytest.raises(UnsupportedFeature) as err:
        api.list('s1')
    assert 'resource locks needs Manila API 2.81' in str(err.value)
    assert len(session.calls) == 1
