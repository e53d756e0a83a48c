# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""share_access when it writes, on scripted HTTP: the exact requests, in order, of an
allow, a purge, a level change (in place from 2.88, by denial and a new allow below),
a rule in error replaced, metadata, unrestrict, the waits for the rules and the share's
access_rules_status, a rule that goes to error, twins another task made at the same
moment, and wait=false."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.modules import share_access as module
from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Exit,
    Fail,
    run_scripted,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    expect,
)

SHARE_ID = '11111111-2222-3333-4444-555555555555'
SHARE_PATH = '/v2/shares/' + SHARE_ID
ACTION = '/v2/shares/%s/action' % SHARE_ID
LIST = '/v2/share-access-rules?share_id=' + SHARE_ID
MESSAGES = '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % SHARE_ID

GET_SHARE = 'GET ' + SHARE_PATH
GET_RULES = 'GET ' + LIST
POST_ACTION = 'POST ' + ACTION


def share(status='active'):
    return {'id': SHARE_ID, 'name': 'projects', 'size': 1, 'share_proto': 'NFS',
            'status': 'available', 'access_rules_status': status}


def share_get(status='active'):
    return ('GET', SHARE_PATH, ScriptedResponse(200, {'share': share(status)}))


def rule(rule_id, access_to, level='rw', state='active', access_type='ip', **extra):
    found = dict(id=rule_id, access_type=access_type, access_to=access_to, access_level=level,
                 state=state, metadata={})
    found.update(extra)
    return found


def listing(*rules):
    return ('GET', LIST, ScriptedResponse(200, {'access_list': [dict(r) for r in rules]}))


def allow(answer, access_to, level='rw', access_type='ip', **more):
    body = dict(access_type=access_type, access_to=access_to, access_level=level, **more)
    return expect('POST', ACTION, ScriptedResponse(200, {'access': answer}),
                  body={'allow_access': body})


def deny(rule_id, **more):
    return expect('POST', ACTION, ScriptedResponse(202),
                  body={'deny_access': dict(access_id=rule_id, **more)})


def ip(access_to, level='rw', **extra):
    return dict(access_type='ip', access_to=access_to, access_level=level, **extra)


def view(*rules):
    """The diff view of rules (type, target, level, metadata), sorted as diff_view sorts."""
    return sorted((dict(access_type=r['access_type'], access_to=r['access_to'],
                        access_level=r['access_level'], metadata=r.get('metadata') or {})
                   for r in rules), key=lambda r: (r['access_type'], r['access_to']))


def run(monkeypatch, args, exchanges, max_version='2.99', fails=False):
    outcome, session = run_scripted(monkeypatch, module, dict(dict(share=SHARE_ID), **args), exchanges,
                                    max_version=max_version, diff=True, expect=Fail if fails else Exit)
    if not fails:
        assert not isinstance(outcome, Fail), outcome.result
    return outcome.result, session


def replaced(old, new):
    """The exchanges of a rule replaced: ``old`` denied and waited out, then ``new`` (same
    target) allowed and waited for, the share's status read after each."""
    return [deny(old['id']),
            listing(dict(old, state='denying')),
            listing(),
            share_get('active'),
            allow(dict(new, state='queued_to_apply'), new['access_to']),
            listing(new),
            share_get('active')]


def no_warnings(result):
    return 'warnings' not in result or result['warnings'] == []


# -- allow ---------------------------------------------------------------------------------

def test_new_rules_are_allowed_one_at_a_time_and_waited_for_until_active(monkeypatch):
    # The second allow waits until Manila is done with the first (syncing, then active);
    # the end waits until both rules are active and the share's status settled.
    n1 = rule('n1', '10.0.0.1')
    n2 = rule('n2', 'alice', level='ro', access_type='user')
    result, session = run(monkeypatch, {'rules': [ip('10.0.0.1'), dict(access_type='user', access_to='alice',
                                                                       access_level='ro')]}, [
        share_get(), listing(),
        allow(dict(n1, state='queued_to_apply'), '10.0.0.1'),
        share_get('syncing'), share_get('active'),
        allow(dict(n2, state='queued_to_apply'), 'alice', level='ro', access_type='user'),
        listing(n1, dict(n2, state='applying')),
        listing(n1, n2),
        share_get('active'),
    ])
    assert session.requests() == ['GET /', GET_SHARE, GET_RULES, POST_ACTION, GET_SHARE, GET_SHARE,
                                  POST_ACTION, GET_RULES, GET_RULES, GET_SHARE]
    assert result['changed'] is True
    assert result['rules'] == [n1, n2]
    assert result['share'] == {'id': SHARE_ID, 'name': 'projects', 'access_rules_status': 'active'}
    assert result['diff'] == {'before': {'rules': []}, 'after': {'rules': view(n1, n2)}}
    assert no_warnings(result)


def test_without_wait_the_rules_are_read_once_after_the_allow(monkeypatch):
    n1 = rule('n1', '10.0.0.1', state='queued_to_apply')
    result, session = run(monkeypatch, {'rules': [ip('10.0.0.1')], 'wait': False}, [
        share_get(), listing(),
        allow(n1, '10.0.0.1'),
        listing(n1),
    ])
    assert session.requests() == ['GET /', GET_SHARE, GET_RULES, POST_ACTION, GET_RULES]
    assert result['changed'] is True
    assert result['rules'] == [n1]
    assert result['share']['access_rules_status'] == 'active'   # as read: not waited for


def test_without_wait_two_writes_still_go_one_at_a_time(monkeypatch):
    n1 = rule('n1', '10.0.0.1', state='queued_to_apply')
    n2 = rule('n2', '10.0.0.2', state='queued_to_apply')
    result, session = run(monkeypatch, {'rules': [ip('10.0.0.1'), ip('10.0.0.2')], 'wait': False}, [
        share_get(), listing(),
        allow(n1, '10.0.0.1'),
        share_get('syncing'), share_get('active'),
        allow(n2, '10.0.0.2'),
        listing(n1, n2),
    ])
    assert session.requests() == ['GET /', GET_SHARE, GET_RULES, POST_ACTION, GET_SHARE, GET_SHARE,
                                  POST_ACTION, GET_RULES]
    assert result['rules'] == [n1, n2]


def test_the_first_write_waits_for_a_share_that_is_still_syncing(monkeypatch):
    n1 = rule('n1', '10.0.0.1')
    result, session = run(monkeypatch, {'rules': [ip('10.0.0.1')]}, [
        share_get('syncing'), listing(),
        share_get('syncing'), share_get('active'),
        allow(dict(n1, state='queued_to_apply'), '10.0.0.1'),
        listing(n1),
        share_get('active'),
    ])
    assert session.requests() == ['GET /', GET_SHARE, GET_RULES, GET_SHARE, GET_SHARE, POST_ACTION,
                                  GET_RULES, GET_SHARE]
    # the share was read as syncing; the result says what it settled to
    assert result['share']['access_rules_status'] == 'active'


# -- purge ---------------------------------------------------------------------------------

KEEP = rule('keep', '10.0.0.1')
OLD = rule('old', '10.0.0.2')


def test_purge_allows_first_then_denies_and_waits_until_the_rule_is_gone(monkeypatch):
    n3 = rule('n3', '10.0.0.3')
    result, session = run(monkeypatch, {'rules': [ip('10.0.0.1'), ip('10.0.0.3')], 'purge_rules': True}, [
        share_get(), listing(KEEP, OLD),
        allow(dict(n3, state='queued_to_apply'), '10.0.0.3'),
        share_get('active'),
        deny('old'),
        listing(KEEP, dict(OLD, state='denying'), n3),
        listing(KEEP, n3),
        share_get('active'),
    ])
    assert session.requests() == ['GET /', GET_SHARE, GET_RULES, POST_ACTION, GET_SHARE, POST_ACTION,
                                  GET_RULES, GET_RULES, GET_SHARE]
    assert [list(body) for body in session.bodies('POST')] == [['allow_access'], ['deny_access']]
    assert result['rules'] == [KEEP, n3]
    assert result['diff'] == {'before': {'rules': view(KEEP, OLD)}, 'after': {'rules': view(KEEP, n3)}}


def test_without_purge_an_unlisted_rule_stays(monkeypatch):
    n3 = rule('n3', '10.0.0.3')
    result, session = run(monkeypatch, {'rules': [ip('10.0.0.1'), ip('10.0.0.3')]}, [
        share_get(), listing(KEEP, OLD),
        allow(n3, '10.0.0.3'),
        listing(KEEP, OLD, n3),
        share_get('active'),
    ])
    assert [c for c in session.requests() if not c.startswith('GET')] == [POST_ACTION]
    assert result['rules'] == [KEEP, OLD, n3]


def test_absent_denies_the_listed_rule_and_waits_until_it_is_gone(monkeypatch):
    result, session = run(monkeypatch, {'rules': [ip('10.0.0.2/32', level='ro')], 'state': 'absent'}, [
        share_get(), listing(KEEP, OLD),
        deny('old'),
        listing(KEEP, dict(OLD, state='queued_to_deny')),
        listing(KEEP),
        share_get('active'),
    ])
    assert session.requests() == ['GET /', GET_SHARE, GET_RULES, POST_ACTION, GET_RULES, GET_RULES,
                                  GET_SHARE]
    assert session.bodies('POST') == [{'deny_access': {'access_id': 'old'}}]
    assert result['changed'] is True
    assert result['rules'] == [KEEP]


def test_unrestrict_removes_the_deletion_lock_of_a_denied_rule(monkeypatch):
    locked = rule('locked', '10.0.0.2')
    result, session = run(monkeypatch, {'rules': [ip('10.0.0.2')], 'state': 'absent', 'unrestrict': True}, [
        share_get(), listing(KEEP, locked),
        deny('locked', unrestrict=True),
        listing(KEEP),
        share_get('active'),
    ])
    assert session.bodies('POST') == [{'deny_access': {'access_id': 'locked', 'unrestrict': True}}]
    assert result['rules'] == [KEEP]


def test_a_locked_rule_without_unrestrict_fails_the_task_as_forbidden(monkeypatch):
    locked = rule('locked', '10.0.0.2')
    result, session = run(monkeypatch, {'rules': [ip('10.0.0.2')], 'state': 'absent'}, [
        share_get(), listing(KEEP, locked),
        expect('POST', ACTION, ScriptedResponse(403, {'forbidden': {
            'code': 403, 'message': 'Cannot deny access for share since it has been locked.'}}),
            body={'deny_access': {'access_id': 'locked'}}),
    ], fails=True)
    assert result['status'] == 403
    assert 'locked' in result['msg'] and 'unrestrict' in result['msg']
    assert session.requests()[-1] == POST_ACTION


# -- level changes -------------------------------------------------------------------------

def test_a_level_changes_in_place_from_2_88(monkeypatch):
    r1 = rule('r1', '10.0.0.1', level='ro')
    changed = dict(r1, access_level='rw')
    result, session = run(monkeypatch, {'rules': [ip('10.0.0.1')]}, [
        share_get(), listing(r1),
        expect('PUT', '/v2/share-access-rules/r1', ScriptedResponse(200, {'access': dict(changed, state='queued_to_apply')}),
               body={'update_access': {'access_level': 'rw'}}),
        listing(dict(changed, state='queued_to_apply')),
        listing(changed),
        share_get('active'),
    ], max_version='2.88')
    assert session.requests() == ['GET /', GET_SHARE, GET_RULES, 'PUT /v2/share-access-rules/r1', GET_RULES,
                                  GET_RULES, GET_SHARE]
    assert result['rules'] == [changed]
    assert result['diff'] == {'before': {'rules': view(r1)}, 'after': {'rules': view(changed)}}
    assert no_warnings(result)


LEVEL_WARNING = ('Manila API 2.87 cannot change an access level in place (that needs 2.88): '
                 'ip:10.0.0.1 is denied and allowed again, so the client has no access for a short while.')


def test_below_2_88_a_level_changes_by_denial_then_a_new_allow_once_the_old_rule_is_gone(monkeypatch):
    r1 = rule('r1', '10.0.0.1', level='ro')
    n1 = rule('n1', '10.0.0.1')
    result, session = run(monkeypatch, {'rules': [ip('10.0.0.1')]}, [
        share_get(), listing(r1)] + replaced(r1, n1), max_version='2.87')
    assert session.requests() == ['GET /', GET_SHARE, GET_RULES, POST_ACTION, GET_RULES, GET_RULES,
                                  GET_SHARE, POST_ACTION, GET_RULES, GET_SHARE]
    assert [list(body) for body in session.bodies('POST')] == [['deny_access'], ['allow_access']]
    assert result['rules'] == [n1]
    assert result['diff'] == {'before': {'rules': view(r1)}, 'after': {'rules': view(n1)}}
    assert result['warnings'] == [LEVEL_WARNING]


def test_a_listed_rule_in_error_is_denied_and_allowed_again_and_the_status_recovers(monkeypatch):
    broken = rule('broken', '10.0.0.1', state='error')
    n1 = rule('n1', '10.0.0.1')
    result, session = run(monkeypatch, {'rules': [ip('10.0.0.1')]}, [
        share_get('error'), listing(broken)] + replaced(broken, n1))
    assert session.requests() == ['GET /', GET_SHARE, GET_RULES, POST_ACTION, GET_RULES, GET_RULES,
                                  GET_SHARE, POST_ACTION, GET_RULES, GET_SHARE]
    assert result['rules'] == [n1]
    # read as error before the task; active once its rules settled
    assert result['share']['access_rules_status'] == 'active'
    assert no_warnings(result)   # not a level change


def test_a_new_rule_and_a_replacement_are_both_waited_for(monkeypatch):
    r1 = rule('r1', '10.0.0.1', level='ro')
    n5 = rule('n5', '10.0.0.5')
    n1 = rule('n1', '10.0.0.1')
    result, session = run(monkeypatch, {'rules': [ip('10.0.0.1'), ip('10.0.0.5')]}, [
        share_get(), listing(r1),
        allow(dict(n5, state='queued_to_apply'), '10.0.0.5'),
        share_get('active'),
        deny('r1'),
        listing(dict(r1, state='denying'), dict(n5, state='applying')),
        listing(dict(n5, state='applying')),
        share_get('active'),
        allow(dict(n1, state='queued_to_apply'), '10.0.0.1'),
        listing(dict(n5, state='applying'), n1),
        listing(n5, n1),
        share_get('active'),
    ], max_version='2.87')
    assert session.requests() == ['GET /', GET_SHARE, GET_RULES, POST_ACTION, GET_SHARE, POST_ACTION,
                                  GET_RULES, GET_RULES, GET_SHARE, POST_ACTION, GET_RULES, GET_RULES,
                                  GET_SHARE]
    assert [b.get('allow_access', b.get('deny_access')) for b in session.bodies('POST')] == [
        ip('10.0.0.5'), {'access_id': 'r1'}, ip('10.0.0.1')]
    assert result['rules'] == [n5, n1]
    assert result['warnings'] == [LEVEL_WARNING]


# -- metadata ------------------------------------------------------------------------------

def test_metadata_is_set_on_the_existing_rule_without_waiting_for_a_sync(monkeypatch):
    r1 = rule('r1', '10.0.0.1', metadata={'owner': 'batch'})
    n2 = rule('n2', '10.0.0.2')
    tagged = dict(r1, metadata={'owner': 'batch', 'env': 'prod'})
    result, session = run(monkeypatch, {'rules': [ip('10.0.0.1', metadata={'owner': 'batch', 'env': 'prod'}),
                                                  ip('10.0.0.2')]}, [
        share_get(), listing(r1),
        allow(dict(n2, state='queued_to_apply'), '10.0.0.2'),
        expect('PUT', '/v2/share-access-rules/r1/metadata', ScriptedResponse(200, {'metadata': {'env': 'prod'}}),
               body={'metadata': {'env': 'prod'}}),
        listing(tagged, n2),
        share_get('active'),
    ])
    # metadata makes Manila sync nothing: it is sent right after the allow
    assert session.requests() == ['GET /', GET_SHARE, GET_RULES, POST_ACTION,
                                  'PUT /v2/share-access-rules/r1/metadata', GET_RULES, GET_SHARE]
    assert result['rules'] == [tagged, n2]
    assert result['diff']['after'] == {'rules': view(tagged, n2)}


# -- waits that end badly ------------------------------------------------------------------

def test_a_rule_that_goes_to_error_fails_the_task_with_manilas_reason(monkeypatch):
    n1 = rule('n1', '10.0.0.1')
    result, session = run(monkeypatch, {'rules': [ip('10.0.0.1')]}, [
        share_get(), listing(),
        allow(dict(n1, state='queued_to_apply'), '10.0.0.1'),
        listing(dict(n1, state='applying')),
        listing(dict(n1, state='error')),
        ('GET', MESSAGES, ScriptedResponse(200, {'messages': [
            {'user_message': 'update access rules: the access level or type may be unsupported.'}]})),
    ], fails=True)
    assert session.requests() == ['GET /', GET_SHARE, GET_RULES, POST_ACTION, GET_RULES, GET_RULES,
                                  'GET ' + MESSAGES]
    assert result['changed'] is True            # the allow was accepted
    assert len(result['accepted_writes']) == 1
    assert 'ip:10.0.0.1, rw, n1' in result['msg']
    assert 'the access level or type may be unsupported' in result['msg']


def test_a_denial_that_goes_to_error_fails_the_task_at_once(monkeypatch):
    # Manila marks the rule queued_to_deny before it answers the deny: error
    # afterwards is a denial that failed, not one still to come
    result, session = run(monkeypatch, {'rules': [ip('10.0.0.1')], 'purge_rules': True}, [
        share_get(), listing(KEEP, OLD),
        deny('old'),
        listing(KEEP, dict(OLD, state='denying')),
        listing(KEEP, dict(OLD, state='error')),
        ('GET', MESSAGES, ScriptedResponse(200, {'messages': []})),
    ], fails=True)
    assert session.requests() == ['GET /', GET_SHARE, GET_RULES, POST_ACTION, GET_RULES, GET_RULES,
                                  'GET ' + MESSAGES]
    assert result['changed'] is True            # the deny was accepted
    assert 'ip:10.0.0.2, rw, old' in result['msg']
    assert 'timed out' not in result['msg'] and 'still' not in result['msg']


OTHER_WARNING = ("The rules of this task are active, but the share's access_rules_status is error "
                 "because of other rules in error: ip:10.0.0.9 (x9).")


def test_a_share_in_error_because_of_another_rule_warns_and_names_that_rule(monkeypatch):
    x9 = rule('x9', '10.0.0.9', state='error')
    a2 = rule('a2', '10.0.0.2')
    n1 = rule('n1', '10.0.0.1')
    result, session = run(monkeypatch, {'rules': [ip('10.0.0.1')]}, [
        share_get('error'), listing(x9, a2),
        allow(dict(n1, state='queued_to_apply'), '10.0.0.1'),
        listing(x9, a2, n1),
        share_get('error'),
    ])
    assert session.requests() == ['GET /', GET_SHARE, GET_RULES, POST_ACTION, GET_RULES, GET_SHARE]
    assert result['rules'] == [x9, a2, n1]
    assert result['share']['access_rules_status'] == 'error'
    assert result['warnings'] == [OTHER_WARNING]


def test_a_stale_error_status_no_listed_rule_explains_is_waited_out(monkeypatch):
    n1 = rule('n1', '10.0.0.1')
    result, session = run(monkeypatch, {'rules': [ip('10.0.0.1')]}, [
        share_get(), listing(),
        allow(dict(n1, state='queued_to_apply'), '10.0.0.1'),
        listing(n1),
        share_get('error'),
        share_get('active'),
    ])
    assert session.requests()[-2:] == [GET_SHARE, GET_SHARE]
    assert result['share']['access_rules_status'] == 'active'
    assert no_warnings(result)


# -- twins: another task allowed the same target at the same moment -----------------------

OLDER = rule('tw5', '10.0.0.5', created_at='2026-12-01T10:00:00.000000')


def test_a_newer_twin_this_task_made_is_denied_and_the_task_converges_on_the_older(monkeypatch):
    n5 = rule('n5', '10.0.0.5', created_at='2026-12-01T10:00:01.000000')
    result, session = run(monkeypatch, {'rules': [ip('10.0.0.5')]}, [
        share_get(), listing(),
        allow(dict(n5, state='queued_to_apply'), '10.0.0.5'),
        listing(OLDER, n5),
        deny('n5'),
        listing(OLDER, dict(n5, state='queued_to_deny')),
        listing(OLDER),
        share_get('active'),
    ])
    assert session.requests() == ['GET /', GET_SHARE, GET_RULES, POST_ACTION, GET_RULES, POST_ACTION,
                                  GET_RULES, GET_RULES, GET_SHARE]
    assert session.bodies('POST')[-1] == {'deny_access': {'access_id': 'n5'}}
    assert result['rules'] == [OLDER]
    assert len(result['warnings']) == 1 and 'tw5' in result['warnings'][0] and 'n5' in result['warnings'][0]


def test_a_twin_of_a_new_rule_is_settled_also_when_a_rule_is_replaced(monkeypatch):
    r1 = rule('r1', '10.0.0.1', level='ro')
    n1 = rule('n1', '10.0.0.1')
    n5 = rule('n5', '10.0.0.5', created_at='2026-12-01T10:00:01.000000')
    result, session = run(monkeypatch, {'rules': [ip('10.0.0.1'), ip('10.0.0.5')]}, [
        share_get(), listing(r1),
        allow(dict(n5, state='queued_to_apply'), '10.0.0.5'),
        share_get('active'),
        deny('r1'),
        listing(OLDER, n5),
        share_get('active'),
        allow(dict(n1, state='queued_to_apply'), '10.0.0.1'),
        listing(OLDER, n5, n1),
        deny('n5'),
        listing(OLDER, n1),
        share_get('active'),
    ], max_version='2.87')
    assert session.bodies('POST')[-1] == {'deny_access': {'access_id': 'n5'}}
    assert result['rules'] == [OLDER, n1]
    assert LEVEL_WARNING in result['warnings'] and len(result['warnings']) == 2


def test_without_wait_a_newer_twin_is_denied_and_the_rules_read_once_more(monkeypatch):
    n5 = rule('n5', '10.0.0.5', state='queued_to_apply', created_at='2026-12-01T10:00:01.000000')
    leaving = dict(n5, state='queued_to_deny')
    result, session = run(monkeypatch, {'rules': [ip('10.0.0.5')], 'wait': False}, [
        share_get(), listing(),
        allow(n5, '10.0.0.5'),
        listing(OLDER, n5),
        deny('n5'),
        listing(OLDER, leaving),
    ])
    assert session.requests() == ['GET /', GET_SHARE, GET_RULES, POST_ACTION, GET_RULES, POST_ACTION,
                                  GET_RULES]
    assert result['rules'] == [OLDER, leaving]
    assert result['diff']['after'] == {'rules': view(OLDER)}


# -- targets refused before any request (issue 37) ------------------------------------------

def test_a_target_with_a_newline_or_a_space_is_refused_before_the_share_is_read(monkeypatch):
    rules = [dict(access_type='user', access_to='alice\nbob'),
             dict(access_type='cephx', access_to='al ice'),
             ip('fe80::1%eth0')]
    result, session = run(monkeypatch, {'rules': rules}, [], fails=True)
    assert session.requests() in ([], ['GET /'])
    assert 'rules[0]' in result['msg'] and 'control character' in result['msg']
    assert 'rules[1]' in result['msg'] and 'cannot contain a space' in result['msg']
    assert 'rules[2]' in result['msg'] and 'IPv6 zone' in result['msg']
