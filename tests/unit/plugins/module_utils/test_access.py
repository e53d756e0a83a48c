# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Access rules: validation, every planner branch, the limits of each check at both
sides, and the exact requests of every AccessAPI call (strict scripted HTTP)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import itertools

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import kinds, resource as base_resource
from ansible_collections.openkeel.manila.plugins.module_utils import access, lookups, resource
from ansible_collections.openkeel.manila.plugins.module_utils.metadata import as_metadata_value
from ansible_collections.openkeel.manila.plugins.module_utils.waiter import poll_delays
from ansible_collections.openkeel.manila.plugins.module_utils.access import (
    STALE_ERROR_GRACE,
    UPDATE,
    AccessAPI,
    diff_view,
    explain_plan,
    filter_rules,
    plan_rules,
    predicted_rules,
    prepare_rules,
    pending_rules,
    required_features,
    same_rule,
    share_needs_wait_for_rules,
    validate_target,
    AccessPlan,
    failed_rules,
    metadata_to_set,
    normalize_rule,
    rule_argument_spec,
    rule_key,
    without_secrets,
)
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    CheckModeWrite,
    InvalidInput,
    ManilaError,
    UnsupportedFeature,
    WaitFailed,
    WaitTimeout,
)
from ansible_collections.openkeel.manila.plugins.module_utils.microversions import APIVersion
from ansible_collections.openkeel.manila.plugins.module_utils.resource import NOTHING
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    FakeClock,
    ScriptedResponse,
    expect,
    make_client,
)

SHARE_ID = '11111111-2222-3333-4444-555555555555'
V = APIVersion

# -- validation: a table of what Manila accepts and refuses --------------------

VALID = [
    ('ip', '10.0.0.1', '2.29'),
    ('ip', '10.0.0.1/32', '2.29'),
    ('ip', '10.0.0.0/24', '2.29'),
    ('ip', '0.0.0.0/0', '2.29'),
    ('ip', 'fd00::/64', '2.38'),
    ('ip', '2001:db8::1', '2.99'),
    ('user', 'alice', '2.29'),
    ('user', 'abcd', '2.29'),
    ('user', 'a' * 255, '2.29'),
    ('user', 'Domain Users', '2.29'),
    ('user', '/abc', '2.29'),           # Manila does not check the first character
    ('user', 'first.last', '2.29'),
    ('cert', 'client.example.com', '2.29'),
    ('cert', 'x', '2.29'),
    ('cert', 'x' * 64, '2.29'),
    ('cert', '  padded  ', '2.29'),      # Manila checks the stripped name
    ('cephx', 'app1', '2.13'),
    ('cephx', 'app-1_x', '2.99'),
]

INVALID = [
    ('ip', '10.0.0.5/24', '2.99', '10.0.0.0/24'),        # host bits: say which network
    ('ip', '10.0.0.256', '2.99', 'not a valid'),
    ('ip', 'ten', '2.99', 'not a valid'),
    ('ip', '10.0.0.0/33', '2.99', 'not a valid'),
    ('ip', 'fd00::1', '2.37', '2.38'),
    ('ip', 'fd00::1/64', '2.99', 'fd00::/64'),
    ('user', 'abc', '2.99', '4-255'),
    ('user', 'a' * 256, '2.99', '4-255'),
    ('user', 'al:ice', '2.99', ':'),
    ('user', 'DOM\\alice', '2.99', '\\'),
    ('user', 'a,b,c', '2.99', ','),
    ('user', '....', '2.99', 'periods or spaces'),
    ('user', ' . . ', '2.99', 'periods or spaces'),
    ('user', '', '2.99', '4-255'),
    ('cert', '', '2.99', '1-64'),
    ('cert', '   ', '2.99', '1-64'),
    ('cert', 'x' * 65, '2.99', '1-64'),
    ('cephx', 'client.app1', '2.99', 'periods'),
    ('cephx', 'app1', '2.12', '2.13'),
    ('cephx', u'\u00e4pp', '2.99', 'printable'),
    ('cephx', '', '2.99', 'empty'),
    ('nfs', '10.0.0.1', '2.99', 'access_type'),
    # issue 37: a newline is a second line in an exports or smb.conf file
    ('user', 'alice\nbob', '2.99', 'control character'),
    ('user', 'alice\tbob', '2.99', "'\\t'"),
    ('user', 'alice\x00', '2.99', 'control character'),
    ('user', u'alice\u2028bob', '2.99', 'control character'),
    ('user', ' alice', '2.99', 'begin or end with a space'),
    ('user', 'alice ', '2.99', 'begin or end with a space'),
    ('cephx', 'al ice', '2.99', 'cannot contain a space'),
    ('cephx', 'alice\n', '2.99', 'control character'),
    ('cert', 'client.example.com\r\n', '2.99', 'control character'),
    ('ip', '10.0.0.1\n', '2.99', 'control character'),
    ('ip', '10.0.0.1\x0b/32', '2.99', 'control character'),
    ('ip', 'fe80::1%eth0', '2.99', 'IPv6 zone'),
    ('ip', 'fe80::%1/64', '2.99', 'IPv6 zone'),
]


@pytest.mark.parametrize('access_type,access_to,version', VALID)
def test_valid_targets(access_type, access_to, version):
    validate_target(access_type, access_to, V(version))


@pytest.mark.parametrize('access_type,access_to,version,needle', INVALID)
def test_invalid_targets(access_type, access_to, version, needle):
    with pytest.raises(InvalidInput) as err:
        validate_target(access_type, access_to, V(version))
    assert needle in str(err.value)


def test_strict_network_error_names_both_meanings():
    with pytest.raises(InvalidInput) as err:
        validate_target('ip', '10.0.0.5/24', V('2.99'))
    assert '10.0.0.0/24' in str(err.value) and '10.0.0.5 ' in str(err.value)


# -- matching ---------------------------------------------------------------------

@pytest.mark.parametrize('a,b,same', [
    (('ip', '10.0.0.1'), ('ip', '10.0.0.1/32'), True),
    (('ip', '10.0.0.0/24'), ('ip', '10.0.0.0/24'), True),
    (('ip', '10.0.0.1'), ('ip', '10.0.0.2'), False),
    (('ip', '10.0.0.0/24'), ('ip', '10.0.0.0/25'), False),
    (('ip', 'FD00::1'), ('ip', 'fd00:0::1/128'), True),
    (('user', 'alice'), ('user', 'alice'), True),
    (('user', 'alice'), ('user', 'Alice'), False),
    (('user', 'alice'), ('cert', 'alice'), False),
    (('ip', '******'), ('ip', '******'), False),      # hidden targets never match
])
def test_matching(a, b, same):
    assert same_rule(dict(access_type=a[0], access_to=a[1]),
                     dict(access_type=b[0], access_to=b[1])) is same


def rule(access_to, level='rw', access_type='ip', state='active', rule_id=None, metadata=None):
    return dict(id=rule_id or 'id-%s' % access_to, access_type=access_type,
                access_to=access_to, access_level=level, state=state,
                metadata=metadata or {}, access_key=None)


def want(access_to, level='rw', access_type='ip', **extra):
    return dict(dict(access_type=access_type, access_to=access_to, access_level=level), **extra)


# -- preparing the task's list ------------------------------------------------------

def test_duplicates_with_the_same_level_are_one_rule():
    rules = prepare_rules([want('10.0.0.1'), want('10.0.0.1/32'), want('10.0.0.2')], V('2.99'))
    assert [r['access_to'] for r in rules] == ['10.0.0.1', '10.0.0.2']


def test_duplicates_with_different_levels_are_an_error():
    with pytest.raises(InvalidInput) as err:
        prepare_rules([want('10.0.0.1'), want('10.0.0.1/32', 'ro')], V('2.99'))
    message = str(err.value)
    assert 'rules[0] and rules[1]' in message and 'access_level' in message
    assert 'nothing was changed' in message


def test_every_invalid_rule_is_reported_at_once():
    with pytest.raises(InvalidInput) as err:
        prepare_rules([want('10.0.0.1'), want('10.0.0.5/24'), want('ab', access_type='user')],
                      V('2.99'))
    assert 'rules[1]' in str(err.value) and 'rules[2]' in str(err.value)
    assert 'rules[0]' not in str(err.value)


def test_defaults_and_metadata_as_strings():
    rules = prepare_rules([dict(access_type='ip', access_to=' 10.0.0.1 ', metadata={'n': 1, 'b': True})],
                          V('2.99'))
    assert rules[0]['access_level'] == 'rw'
    assert rules[0]['access_to'] == '10.0.0.1'
    assert rules[0]['metadata'] == {'n': '1', 'b': 'True'}


@pytest.mark.parametrize('extra,needle', [
    (dict(metadata={'k': ''}), 'empty value'),
    (dict(metadata={'k' * 256: 'v'}), 'longer than 255'),
    (dict(lock_reason='why'), 'lock_reason'),
    (dict(access_level='rx'), 'rw or ro'),
])
def test_invalid_rule_settings(extra, needle):
    with pytest.raises(InvalidInput) as err:
        prepare_rules([want('10.0.0.1', **extra)], V('2.99'))
    assert needle in str(err.value)


def test_required_features():
    rules = prepare_rules([want('10.0.0.1', metadata={'a': 'b'}),
                           want('10.0.0.2', lock_deletion=True)], V('2.99'))
    assert [f for f, _w in required_features(rules, 'present')] == [
        'access_rule_metadata', 'access_rule_locks']
    assert required_features(rules, 'absent') == []


# -- planning -----------------------------------------------------------------------

EXISTING = [
    rule('10.0.0.1/32'),
    rule('10.0.0.0/24', 'ro'),
    rule('192.168.0.9'),
    rule('******', rule_id='hidden'),
    rule('10.9.9.9', state='queued_to_deny'),
]


def plan_for(desired, **kwargs):
    return plan_rules(EXISTING, prepare_rules(desired, V('2.99')), **kwargs)


def test_nothing_to_do_when_everything_matches():
    plan = plan_for([want('10.0.0.1'), want('10.0.0.0/24', 'ro')])
    assert not plan.changed
    assert [r['id'] for r in plan.unchanged] == ['id-10.0.0.1/32', 'id-10.0.0.0/24']
    assert [r['id'] for r in plan.hidden] == ['hidden']


def test_add_and_change_level_in_place():
    plan = plan_for([want('10.0.0.1', 'ro'), want('172.16.0.1')])
    assert [r['access_to'] for r in plan.add] == ['172.16.0.1']
    assert [(c['id'], level) for c, level in plan.update] == [('id-10.0.0.1/32', 'ro')]
    assert not plan.replace and not plan.remove


def test_level_change_below_2_88_replaces_the_rule():
    plan = plan_for([want('10.0.0.1', 'ro')], update_in_place=False)
    assert not plan.update
    assert [(c['id'], r['access_level']) for c, r in plan.replace] == [('id-10.0.0.1/32', 'ro')]


def test_purge_removes_unlisted_visible_rules_only():
    plan = plan_for([want('10.0.0.1')], purge=True)
    assert sorted(r['id'] for r in plan.remove) == ['id-10.0.0.0/24', 'id-192.168.0.9']


def test_absent_removes_listed_rules_whatever_their_level():
    plan = plan_for([want('10.0.0.0/24', 'rw'), want('10.7.7.7')], state='absent')
    assert [r['id'] for r in plan.remove] == ['id-10.0.0.0/24']
    assert not plan.add


def test_a_rule_being_denied_is_not_a_match():
    plan = plan_for([want('10.9.9.9')])
    assert [r['access_to'] for r in plan.add] == ['10.9.9.9']


def test_a_listed_rule_in_error_is_replaced():
    existing = [rule('alice', access_type='user', state='error')]
    plan = plan_rules(existing, prepare_rules([want('alice', access_type='user')], V('2.99')))
    assert [c['id'] for c, _r in plan.replace] == ['id-alice']


def test_metadata_only_sets_differences():
    existing = [rule('10.0.0.1', metadata={'a': '1', 'b': '2'})]
    plan = plan_rules(existing, prepare_rules([want('10.0.0.1', metadata={'a': '1', 'c': 3})],
                                              V('2.99')))
    assert [(c['id'], items) for c, items in plan.metadata] == [('id-10.0.0.1', {'c': '3'})]


def test_predicted_rules_and_diff():
    plan = plan_for([want('10.0.0.1', 'ro'), want('172.16.0.1')], purge=True)
    after = diff_view(predicted_rules(EXISTING, plan))
    assert [(r['access_to'], r['access_level']) for r in after] == [
        ('******', 'rw'), ('10.0.0.1/32', 'ro'), ('172.16.0.1', 'rw')]


def test_filter_rules_matches_ip_as_network():
    rules = [rule('10.0.0.1'), rule('10.0.0.2', 'ro', metadata={'o': 'x'}), rule('bob', access_type='user')]
    assert [r['id'] for r in filter_rules(rules, 'ip', '10.0.0.1/32')] == ['id-10.0.0.1']
    assert [r['id'] for r in filter_rules(rules, access_level='ro')] == ['id-10.0.0.2']
    assert [r['id'] for r in filter_rules(rules, metadata={'o': 'x'})] == ['id-10.0.0.2']


def test_what_a_wait_still_waits_for():
    rules = [rule('a', state='active'), rule('b', state='applying')]
    assert pending_rules(rules, ['id-a'], []) == []
    assert pending_rules(rules, ['id-a', 'id-b'], []) == ['ip:b is applying']
    assert pending_rules(rules, ['id-a'], ['id-b']) == ['ip:b is still applying']
    assert pending_rules(rules, ['id-a'], ['id-gone']) == []
    assert pending_rules(rules, ['id-x'], []) == ['rule id-x is missing from the listing']


@pytest.mark.parametrize('share, wait, outcome', [
    ({'status': 'available'}, True, False),
    ({'status': 'creating'}, True, True),
    ({'status': 'extending'}, False, 'busy (extending)'),
    ({'status': 'migrating', 'task_state': 'migration_in_progress'}, True, 'until the migration'),
    ({'status': 'available', 'is_soft_deleted': True}, True, 'recycle bin'),
])
def test_when_a_share_takes_rule_changes(share, wait, outcome):
    share = dict(share, id=SHARE_ID, name='data')
    client, _session = make_client([])
    if isinstance(outcome, bool):
        assert share_needs_wait_for_rules(client, share, wait) is outcome
    else:
        with pytest.raises(CannotConverge) as err:
            share_needs_wait_for_rules(client, share, wait)
        assert outcome in str(err.value)


def test_rules_of_a_share_in_error_need_2_74():
    share = {'id': SHARE_ID, 'name': 'data', 'status': 'error'}
    old, _session = make_client([], max_version='2.73')
    with pytest.raises(UnsupportedFeature) as err:
        share_needs_wait_for_rules(old, share, True)
    assert '2.74' in str(err.value)
    new, _session = make_client([], max_version='2.74')
    assert share_needs_wait_for_rules(new, share, True) is False


@pytest.mark.parametrize('status', ['extending_error', 'shrinking_error', 'reverting_error',
                                    'shrinking_possible_data_loss_error', 'manage_error',
                                    'backup_restoring_error'])
@pytest.mark.parametrize('version', ['2.29', '2.73', '2.74'])
def test_other_error_statuses_take_rule_changes_below_2_74(status, version):
    # Manila adds only 'error' to the refused statuses below 2.74
    # (manila/share/api.py _any_invalid_share_instance).
    share = {'id': SHARE_ID, 'name': 'data', 'status': status}
    client, session = make_client([], max_version=version)
    assert share_needs_wait_for_rules(client, share, True) is False
    assert session.writes() == []


# -- calls on scripted HTTP -----------------------------------------------------------

def listing(*rules):
    return ScriptedResponse(200, {'access_list': list(rules)})


def test_below_2_45_the_listing_is_the_access_list_action_even_in_check_mode():
    client, session = make_client([
        ('POST', '/v2/shares/%s/action' % SHARE_ID, listing(rule('10.0.0.1'))),
    ], max_version='2.44', check_mode=True)
    rules = AccessAPI(client).list(SHARE_ID)
    assert [r['access_to'] for r in rules] == ['10.0.0.1']
    assert session.bodies('POST') == [{'access_list': None}]
    assert session.calls[-1].headers['X-OpenStack-Manila-API-Version'] == '2.44'


def test_check_mode_still_refuses_real_writes():
    client, _session = make_client([], max_version='2.44', check_mode=True)
    with pytest.raises(CheckModeWrite):
        AccessAPI(client).allow(SHARE_ID, want('10.0.0.1'))


def test_below_2_45_a_wait_polls_the_action_until_active():
    client, session = make_client([
        ('POST', '/v2/shares/%s/action' % SHARE_ID,
         ScriptedResponse(200, {'access': dict(rule('10.0.0.1', state='queued_to_apply'),
                                               id='r1')})),
        ('POST', '/v2/shares/%s/action' % SHARE_ID, listing(dict(rule('10.0.0.1', state='applying'), id='r1'))),
        ('POST', '/v2/shares/%s/action' % SHARE_ID, listing(dict(rule('10.0.0.1'), id='r1'))),
    ], max_version='2.44')
    api = AccessAPI(client, timeout=30)
    new = api.allow(SHARE_ID, prepare_rules([want('10.0.0.1')], V('2.44'))[0])
    rules = api.wait_rules(SHARE_ID, touched=[new['id']])
    assert rules[0]['state'] == 'active'
    bodies = session.bodies('POST')
    assert bodies[0] == {'allow_access': {'access_type': 'ip', 'access_to': '10.0.0.1',
                                          'access_level': 'rw'}}
    assert bodies[1:] == [{'access_list': None}, {'access_list': None}]


def test_cephx_keys_never_leave_the_api_class():
    key = 'AQBv0qhjAAAAABAAg5M0Zc3N8tJ4F3LwHs+T0g=='
    client, session = make_client([
        ('POST', '/v2/shares/%s/action' % SHARE_ID,
         ScriptedResponse(200, {'access': dict(rule('app1', access_type='cephx', state='queued_to_apply'),
                                               id='c1')})),
        ('GET', '/v2/share-access-rules?share_id=%s' % SHARE_ID,
         listing(dict(rule('app1', access_type='cephx', state='applying'), id='c1'))),
        ('GET', '/v2/share-access-rules?share_id=%s' % SHARE_ID,
         listing(dict(rule('app1', access_type='cephx'), id='c1', access_key=key))),
    ], max_version='2.99')
    api = AccessAPI(client, timeout=30)
    new = api.allow(SHARE_ID, prepare_rules([want('app1', access_type='cephx')], V('2.99'))[0])
    rules = api.wait_rules(SHARE_ID, touched=[new['id']])
    assert rules[0]['id'] == 'c1' and rules[0]['state'] == 'active'
    assert key not in repr(rules) and 'access_key' not in rules[0]
    assert session.bodies('POST') == [{'allow_access': {
        'access_type': 'cephx', 'access_to': 'app1', 'access_level': 'rw'}}]


def test_level_change_in_place_on_2_88():
    client, session = make_client([
        ('PUT', '/v2/share-access-rules/r1', ScriptedResponse(200, {'access': {'id': 'r1'}})),
    ], max_version='2.88')
    AccessAPI(client).update_level('r1', 'ro')
    assert session.bodies('PUT') == [{'update_access': {'access_level': 'ro'}}]


def test_level_change_in_place_needs_2_88():
    client, _session = make_client([], max_version='2.87')
    with pytest.raises(ManilaError) as err:
        AccessAPI(client).update_level('r1', 'ro')
    assert '2.88' in str(err.value)


def test_deny_with_unrestrict_and_the_locked_rule_error():
    client, session = make_client([
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(202)),
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(403, {'forbidden': {
            'code': 403, 'message': "Cannot deny access for share since it has been locked."}})),
    ], max_version='2.82')
    api = AccessAPI(client)
    api.deny(SHARE_ID, rule('10.0.0.1'), unrestrict=True)
    assert session.bodies('POST') == [{'deny_access': {'access_id': 'id-10.0.0.1', 'unrestrict': True}}]
    with pytest.raises(ManilaError) as err:
        api.deny(SHARE_ID, rule('10.0.0.1'))
    assert 'unrestrict=true' in str(err.value) and 'locked' in str(err.value)


def test_a_rule_in_error_fails_the_wait_with_manilas_message():
    client, _session = make_client([
        ('GET', '/v2/share-access-rules?share_id=%s' % SHARE_ID,
         listing(dict(rule('cn1', access_type='cert', state='error'), id='e1'))),
        ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % SHARE_ID,
         ScriptedResponse(200, {'messages': [
             {'user_message': 'update access rules: the access level or type may be unsupported.'}]})),
    ], max_version='2.99')
    with pytest.raises(WaitFailed) as err:
        AccessAPI(client, timeout=30).wait_rules(SHARE_ID, touched=['e1'])
    message = str(err.value)
    assert message == (
        'Share %s has this access rule in error (cert:cn1, rw, e1) while waiting for its access '
        'rules to settle. Manila says: update access rules: the access level or type may be '
        'unsupported. The rule is left in error: remove it with state=absent, or run the task '
        'again to retry it.' % SHARE_ID)


def test_list_sends_filters_as_manila_reads_them():
    client, session = make_client([
        ('GET', '/v2/share-access-rules?share_id=%s&access_type=user&metadata=%%7B%%27o%%27%%3A+%%27x%%27%%7D'
         % SHARE_ID, listing()),
    ], max_version='2.99')
    AccessAPI(client).list(SHARE_ID, dict(access_type='user', access_level=None,
                                          metadata={'o': 'x'}))


def test_a_wait_that_times_out_says_what_is_pending():
    clock = FakeClock()
    pending = listing(dict(rule('10.0.0.1', state='applying'), id='r1'),
                      dict(rule('10.0.0.2', state='denying'), id='r2'))
    polls = 6   # 0.5 + 0.75 + 1.125 + 1.69 + 0.94 (the rest of the 5 s)
    client, session = make_client([
        ('GET', '/v2/share-access-rules?share_id=%s' % SHARE_ID, pending),
    ] * polls + [
        ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % SHARE_ID,
         ScriptedResponse(200, {'messages': []})),
    ], max_version='2.99', clock=clock)
    with pytest.raises(WaitTimeout) as err:
        AccessAPI(client, timeout=5).wait_rules(SHARE_ID, touched=['r1'], denied=['r2'])
    message = str(err.value)
    assert 'ip:10.0.0.1 is applying; ip:10.0.0.2 is still denying' in message
    assert clock.now == pytest.approx(5.0)
    assert len(session.calls) == 1 + polls + 1


def test_wait_share_status_returns_error_instead_of_raising():
    share = {'id': SHARE_ID, 'access_rules_status': 'syncing'}
    client, _session = make_client([
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': share})),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': dict(share, access_rules_status='error')})),
    ])
    api = AccessAPI(client, timeout=30)
    from ansible_collections.openkeel.manila.plugins.module_utils import lookups
    settled = api.wait_share_status(SHARE_ID, lambda share_id: lookups.get_by_id(client, 'share', share_id))
    assert settled['access_rules_status'] == 'error'


def share_status_script(*statuses):
    return [('GET', '/v2/shares/' + SHARE_ID,
             ScriptedResponse(200, {'share': {'id': SHARE_ID, 'access_rules_status': status}}))
            for status in statuses]


def test_wait_share_status_waits_out_an_error_no_rule_explains():
    """The rule in error was denied and left the listing, but the share manager
    has not yet set the share back to active: keep polling until it has."""
    clock = FakeClock()
    client, _session = make_client(share_status_script('error', 'error', 'active'), clock=clock)
    api = AccessAPI(client, timeout=300)
    settled = api.wait_share_status(SHARE_ID, lambda share_id: lookups.get_by_id(client, 'share', share_id),
                                    rules=[dict(rule('10.0.0.1'), id='r1')])
    assert settled['access_rules_status'] == 'active'
    assert clock.now < STALE_ERROR_GRACE


def test_wait_share_status_believes_a_lasting_error_after_the_grace():
    clock = FakeClock()
    slept, sleeps, delays = 0, 0, poll_delays()
    while slept < STALE_ERROR_GRACE:
        slept += next(delays)
        sleeps += 1
    client, _session = make_client(share_status_script(*['error'] * (sleeps + 1)), clock=clock)
    api = AccessAPI(client, timeout=300)
    settled = api.wait_share_status(SHARE_ID, lambda share_id: lookups.get_by_id(client, 'share', share_id),
                                    rules=[dict(rule('10.0.0.1'), id='r1')])
    assert settled['access_rules_status'] == 'error'
    assert clock.now == pytest.approx(slept)


class GraceClock(FakeClock):
    """A monotonic clock that starts anywhere, and whose every pause lasts the grace."""

    def __init__(self):
        super(GraceClock, self).__init__()
        self.now = 1000.0

    def sleep(self, seconds):
        FakeClock.sleep(self, STALE_ERROR_GRACE)


def test_wait_share_status_believes_a_lasting_error_at_exactly_the_grace():
    clock = GraceClock()
    client, _session = make_client(share_status_script('error', 'error'), clock=clock)
    api = AccessAPI(client, timeout=300)
    settled = api.wait_share_status(SHARE_ID, lambda share_id: lookups.get_by_id(client, 'share', share_id),
                                    rules=[dict(rule('10.0.0.1'), id='r1')])
    assert settled['access_rules_status'] == 'error'
    assert clock.now == 1000.0 + STALE_ERROR_GRACE


def test_wait_share_status_believes_an_error_a_listed_rule_explains():
    clock = FakeClock()
    client, _session = make_client(share_status_script('error'), clock=clock)
    api = AccessAPI(client, timeout=300)
    settled = api.wait_share_status(SHARE_ID, lambda share_id: lookups.get_by_id(client, 'share', share_id),
                                    rules=[dict(rule('10.0.0.1', state='error'), id='r1')])
    assert settled['access_rules_status'] == 'error'
    assert clock.now == 0


def test_set_metadata_puts_only_the_items_given():
    client, session = make_client([
        ('PUT', '/v2/share-access-rules/r1/metadata', ScriptedResponse(200, {'metadata': {}})),
    ])
    AccessAPI(client).set_metadata('r1', {'a': '1'})
    assert session.bodies('PUT') == [{'metadata': {'a': '1'}}]


def test_send_plan_allows_first_then_changes_then_denies_and_replaces_later():
    existing = [dict(rule('10.0.0.1', level='ro'), id='old-level'),
                dict(rule('10.0.0.2', state='error'), id='broken'),
                dict(rule('10.0.0.3'), id='extra')]
    plan = plan_rules(existing, prepare_rules([
        {'access_type': 'ip', 'access_to': '10.0.0.1'},
        {'access_type': 'ip', 'access_to': '10.0.0.2'},
        {'access_type': 'ip', 'access_to': '10.0.0.9'}]), purge=True)
    action = '/v2/shares/%s/action' % SHARE_ID
    client, session = make_client([
        ('POST', action, ScriptedResponse(200, {'access': {'id': 'new'}})),
        ('PUT', '/v2/share-access-rules/old-level', ScriptedResponse(200, {'access': {'id': 'old-level'}})),
        ('POST', action, ScriptedResponse(202)),
        ('POST', action, ScriptedResponse(202)),
        ('POST', action, ScriptedResponse(200, {'access': {'id': 'again'}})),
    ])
    api = AccessAPI(client)
    touched, denied = api.send_plan(SHARE_ID, plan)
    assert (touched, denied) == (['new', 'old-level'], ['broken', 'extra'])
    assert api.send_replacements(SHARE_ID, plan) == ['again']
    posted = session.bodies('POST')
    assert [list(body)[0] for body in posted] == ['allow_access', 'deny_access', 'deny_access',
                                                  'allow_access']
    assert posted[-1]['allow_access']['access_to'] == '10.0.0.2'


# -- rules by ID (as listed) and wanted rules with every option, for the tests below --

def rule_with_id(rid, access_type='ip', access_to='10.0.0.1', level='rw', state='active', **extra):
    return dict(id=rid, access_type=access_type, access_to=access_to, access_level=level,
                state=state, **extra)


def wanted_rule(access_type='ip', access_to='10.0.0.1', level='rw', metadata=None, **extra):
    return dict(access_type=access_type, access_to=access_to, access_level=level,
                metadata=metadata, **extra)


LIST = '/v2/share-access-rules?share_id=' + SHARE_ID


# -- the option spec ---------------------------------------------------------------------

def test_rule_argument_spec():
    spec = rule_argument_spec()
    assert spec['access_type'] == dict(type='str', required=True, choices=['ip', 'user', 'cert', 'cephx'])
    assert spec['access_to'] == dict(type='str', required=True)
    assert spec['access_level'] == dict(type='str', default='rw', choices=['rw', 'ro'])
    assert spec['metadata'] == dict(type='dict')
    assert spec['lock_deletion'] == dict(type='bool', default=False)
    assert spec['lock_visibility'] == dict(type='bool', default=False)
    assert spec['lock_reason'] == dict(type='str')


# -- limits at both sides -------------------------------------------------------------------

@pytest.mark.parametrize('access_type,access_to,version,ok', [
    ('user', 'abcd', None, True),
    ('user', 'abc', None, False),
    ('user', 'a' * 255, None, True),
    ('user', 'a' * 256, None, False),
    ('user', '\nabc', None, False),
    ('user', 'a\nbc', None, False),      # Manila takes it; a second line in an exports file (issue 37)
    ('user', '"abc', None, True),        # the first character may be anything else
    ('user', 'ab|c', None, False),
    ('user', 'a|bc', None, False),
    ('user', '|abc', None, True),
    ('user', '|.|.', None, False),
    ('user', '. a.', None, True),
    ('cert', 'x' * 64, None, True),
    ('cert', 'x' * 65, None, False),
    ('cert', '   ', None, False),
    ('cephx', 'alice', V('2.13'), True),
    ('cephx', 'alice', V('2.12'), False),
    ('cephx', 'alice', None, True),
    ('cephx', '', None, False),
    ('cephx', 'client.alice', None, False),
    ('cephx', 'al\u00e9', None, False),
    ('ip', 'fd00::1', V('2.38'), True),
    ('ip', 'fd00::1', V('2.37'), False),
    ('ip', 'fd00::1', None, True),
    ('ip', ' 10.0.0.1 ', None, True),
    ('ip', '10.0.0.1/33', None, False),
    ('IP', '10.0.0.1', None, False),
    ('ip', None, None, False),
])
def test_target_limits(access_type, access_to, version, ok):
    if ok:
        validate_target(access_type, access_to, version)
    else:
        with pytest.raises(InvalidInput):
            validate_target(access_type, access_to, version)


def test_a_ceph_id_with_every_printable_character_fails_on_its_period():
    import string
    with pytest.raises(InvalidInput) as err:
        validate_target('cephx', string.digits + string.ascii_letters + string.punctuation)
    assert 'cannot contain periods' in str(err.value)


def test_target_messages():
    with pytest.raises(InvalidInput) as err:
        validate_target('nfs', 'x')
    assert str(err.value) == "access_type 'nfs' is not one of ip, user, cert, cephx."
    with pytest.raises(InvalidInput) as err:
        validate_target('user', None)
    assert str(err.value) == 'a user rule needs access_to.'
    with pytest.raises(InvalidInput) as err:
        validate_target('user', 'ab:c;d')
    assert "cannot contain : ;" in str(err.value)
    with pytest.raises(InvalidInput) as err:
        validate_target('user', '\nabc')
    assert 'cannot contain a newline' in str(err.value)
    with pytest.raises(InvalidInput) as err:
        validate_target('ip', '10.0.0.9/24')
    assert 'did you mean 10.0.0.0/24 (the network) or 10.0.0.9 (the single address)?' in str(err.value)
    with pytest.raises(InvalidInput) as err:
        validate_target('ip', 'nonsense')
    assert 'did you mean' not in str(err.value)


@pytest.mark.parametrize('metadata,ok', [
    ({'k' * 255: 'v'}, True),
    ({'k' * 256: 'v'}, False),
    ({'k': 'v' * 1023}, True),
    ({'k': 'v' * 1024}, False),
    ({'': 'v'}, False),
    ({'k': ''}, False),
    ({'k': 0}, True),          # '0' is a value
    ({'k': False}, True),      # 'False' is a value
    ({'k': None}, False),      # not the text 'None'
])
def test_metadata_limits(metadata, ok):
    raw = wanted_rule(metadata=metadata)
    if ok:
        assert normalize_rule(raw)['metadata'] == dict((k, as_metadata_value(v))
                                                       for k, v in metadata.items())
    else:
        with pytest.raises(InvalidInput) as err:
            normalize_rule(raw)
        assert str(err.value).startswith("ip rule '10.0.0.1': ")


def test_normalize_rule_defaults_and_cleanup():
    got = normalize_rule({'access_type': ' IP ', 'access_to': ' 10.0.0.1 '})
    assert got == dict(access_type='ip', access_to='10.0.0.1', access_level='rw', metadata=None,
                       lock_deletion=False, lock_visibility=False, lock_reason=None)
    got = normalize_rule({'access_type': 'user', 'access_to': 'al ice', 'access_level': 'ro',
                          'lock_visibility': 1, 'lock_reason': 'mine', 'metadata': {1: True}})
    assert got == dict(access_type='user', access_to='al ice', access_level='ro',
                       metadata={'1': 'True'}, lock_deletion=False, lock_visibility=True,
                       lock_reason='mine')
    assert normalize_rule(wanted_rule(lock_deletion=True, lock_reason='r'))['lock_deletion'] is True
    with pytest.raises(InvalidInput) as err:
        normalize_rule(wanted_rule(level='rx'))
    assert "access_level must be rw or ro, not 'rx'" in str(err.value)
    with pytest.raises(InvalidInput) as err:
        normalize_rule(wanted_rule(lock_reason='r'))
    assert 'lock_reason only applies' in str(err.value)
    with pytest.raises(InvalidInput):
        normalize_rule({'access_to': '10.0.0.1'})


def test_prepare_rules_folds_and_reports_every_problem():
    rules = [wanted_rule(), wanted_rule(access_to='10.0.0.1/32'), wanted_rule(access_to='10.0.0.2'),
             wanted_rule(access_type='user', access_to='ab'), wanted_rule(access_to='10.0.0.2', level='ro'),
             wanted_rule(access_to='10.0.0.3'), wanted_rule(access_to='10.0.0.3', lock_deletion=True)]
    with pytest.raises(InvalidInput) as err:
        prepare_rules(rules)
    text = str(err.value)
    assert text.startswith('Invalid access rules, nothing was changed: rules[3]: ')
    assert ("rules[2] and rules[4] name the same rule (ip:10.0.0.2 and ip:10.0.0.2) with "
            "different settings (access_level 'rw' vs 'ro'); give it once.") in text
    assert 'rules[5] and rules[6]' in text and 'lock_deletion False vs True' in text
    prepared = prepare_rules(rules[:3])
    assert [r['access_to'] for r in prepared] == ['10.0.0.1', '10.0.0.2']
    assert all('index' not in r for r in prepared)
    assert prepare_rules(None) == [] and prepare_rules([]) == []


def test_prepare_rules_compares_with_the_first_twin_only():
    rules = [wanted_rule(access_to='10.0.0.4'), wanted_rule(access_to='10.0.0.5'), wanted_rule(access_to='10.0.0.5', level='ro')]
    with pytest.raises(InvalidInput) as err:
        prepare_rules(rules)
    assert 'rules[1] and rules[2]' in str(err.value)


def test_required_features_table():
    assert required_features([wanted_rule(metadata={'a': 'b'})], 'absent') == []
    assert required_features([wanted_rule()], 'present') == []
    assert required_features([wanted_rule(metadata={'a': 'b'}), wanted_rule(lock_visibility=True)], 'present') == [
        ('access_rule_metadata', 'Access rule metadata'), ('access_rule_locks', 'Access rule locks')]
    assert required_features([wanted_rule(lock_deletion=True)], 'present') == [
        ('access_rule_locks', 'Access rule locks')]


# -- matching ---------------------------------------------------------------------------------

def test_rule_keys():
    assert rule_key('ip', ' 10.0.0.1') == rule_key('ip', '10.0.0.1/32')
    assert rule_key('ip', '10.0.0.9/24') == ('ip', rule_key('ip', '10.0.0.0/24')[1])
    assert rule_key('ip', 'host.example') == ('ip', 'host.example')
    assert rule_key('user', 'Alice') == ('user', 'Alice')
    assert rule_key('user', None) is None
    assert rule_key('ip', '******') is None
    assert not same_rule({'access_type': 'ip', 'access_to': '******'},
                         {'access_type': 'ip', 'access_to': '******'})
    assert not same_rule({'access_type': 'user', 'access_to': 'abcd'},
                         {'access_type': 'cert', 'access_to': 'abcd'})


# -- planning: every branch -------------------------------------------------------------------

def test_plan_branches_present():
    existing = [
        rule_with_id('same'),
        rule_with_id('level', access_to='10.0.0.2', level='ro'),
        rule_with_id('meta', access_to='10.0.0.3', metadata={'a': '1'}),
        rule_with_id('err', access_to='10.0.0.4', state='error'),
        rule_with_id('gone', access_to='10.0.0.5', state='denying'),
        rule_with_id('hidden', access_to='******'),
        rule_with_id('other', access_to='10.0.0.9'),
        rule_with_id('both', access_to='10.0.0.6', level='ro', metadata={}),
    ]
    desired = [wanted_rule(), wanted_rule(access_to='10.0.0.2'), wanted_rule(access_to='10.0.0.3', metadata={'a': '2'}),
               wanted_rule(access_to='10.0.0.4'), wanted_rule(access_to='10.0.0.5'), wanted_rule(access_to='10.0.0.7'),
               wanted_rule(access_to='10.0.0.6', metadata={'b': '1'})]
    plan = plan_rules(existing, desired, purge=False)
    assert [r['id'] for r in plan.unchanged] == ['same']
    assert [(c['id'], lvl) for c, lvl in plan.update] == [('level', 'rw'), ('both', 'rw')]
    assert [(c['id'], items) for c, items in plan.metadata] == [('meta', {'a': '2'}), ('both', {'b': '1'})]
    assert [(c['id'], r['access_to']) for c, r in plan.replace] == [('err', '10.0.0.4')]
    assert [r['access_to'] for r in plan.add] == ['10.0.0.5', '10.0.0.7']
    assert [r['id'] for r in plan.hidden] == ['hidden']
    assert plan.remove == [] and plan.changed
    purged = plan_rules(existing, desired, purge=True)
    assert [r['id'] for r in purged.remove] == ['other']


def test_plan_below_2_88_replaces_level_changes_and_keeps_metadata_out():
    existing = [rule_with_id('level', level='ro', metadata={'a': '1'})]
    plan = plan_rules(existing, [wanted_rule(metadata={'a': '2'})], update_in_place=False)
    assert [(c['id'], r['access_level']) for c, r in plan.replace] == [('level', 'rw')]
    assert plan.update == [] and plan.metadata == [] and plan.unchanged == []


def test_plan_absent_and_purge_only_when_present():
    existing = [rule_with_id('a'), rule_with_id('b', access_to='10.0.0.2'), rule_with_id('c', access_to='10.0.0.3', level='ro')]
    plan = plan_rules(existing, [wanted_rule(), wanted_rule(access_to='10.0.0.3'), wanted_rule(access_to='10.0.0.8')],
                      state='absent', purge=True)
    assert [r['id'] for r in plan.remove] == ['a', 'c']
    assert plan.add == [] and plan.update == [] and plan.unchanged == []
    empty = plan_rules([], [], purge=True)
    assert not empty.changed


@pytest.mark.parametrize('field', ['add', 'update', 'replace', 'metadata', 'remove'])
def test_each_kind_of_step_is_a_change(field):
    plan = AccessPlan()
    assert plan.changed is False
    getattr(plan, field).append('x')
    assert plan.changed is True
    plan = AccessPlan()
    plan.hidden.append('x')
    plan.unchanged.append('x')
    assert plan.changed is False


STEP_FIELDS = ('add', 'update', 'replace', 'metadata', 'remove')
STEP_SETS = [fields for n in range(len(STEP_FIELDS) + 1)
             for fields in itertools.combinations(STEP_FIELDS, n)]


@pytest.mark.parametrize('fields', STEP_SETS, ids=['+'.join(f) or 'none' for f in STEP_SETS])
def test_access_plan_action_follows_its_steps(fields):
    """The plan shape (resource.Plan): ``changed`` is ``action != NOTHING``, and
    it is what a rule plan's ``changed`` always was: a step of any kind."""
    plan = AccessPlan()
    plan.hidden.append('x')
    plan.unchanged.append('x')
    for field in fields:
        getattr(plan, field).append('x')
    steps = bool(plan.add or plan.update or plan.replace or plan.metadata or plan.remove)
    assert isinstance(plan, resource.Plan)
    assert plan.action == (access.UPDATE if fields else resource.NOTHING)
    assert plan.changed is steps is (plan.action != resource.NOTHING)


@pytest.mark.parametrize('desired,kwargs', [
    ([], {}),
    ([want('10.0.0.1'), want('10.0.0.0/24', 'ro')], {}),
    ([want('10.0.0.1', 'ro'), want('172.16.0.1')], dict(purge=True)),
    ([want('10.0.0.1', 'ro')], dict(update_in_place=False)),
    ([want('10.0.0.0/24'), want('10.9.9.9')], dict(state='absent')),
], ids=['empty', 'matches', 'add-level-purge', 'replace', 'absent'])
def test_access_plan_views_are_the_diff_of_share_access(desired, kwargs):
    """``before``: the live rules (not those being denied); ``after``: the
    rules the plan leaves, as share_access shows them in check mode."""
    plan = plan_for(desired, **kwargs)
    live = [r for r in EXISTING if r['state'] != 'queued_to_deny']
    assert plan.before == dict(rules=diff_view(live))
    assert plan.after == dict(rules=diff_view(predicted_rules(EXISTING, plan)))


def test_metadata_to_set():
    assert metadata_to_set({'a': '1'}, None) == {}
    assert metadata_to_set(None, {'a': '1'}) == {'a': '1'}
    assert metadata_to_set({'a': '1', 'b': '2'}, {'a': '1', 'b': '3', 'c': '4'}) == {'b': '3', 'c': '4'}


def test_diff_view_sorts_and_fills():
    rules = [rule_with_id('2', access_type='user', access_to='bob'), rule_with_id('1', metadata={'a': '1'}),
             dict(access_type=None, access_to=None)]
    view = diff_view(rules)
    assert view == [
        dict(access_type=None, access_to=None, access_level=None, metadata={}),
        dict(access_type='ip', access_to='10.0.0.1', access_level='rw', metadata={'a': '1'}),
        dict(access_type='user', access_to='bob', access_level='rw', metadata={}),
    ]
    assert diff_view([rule_with_id('a', access_to='10.0.0.2'), rule_with_id('b', access_to='10.0.0.10')])[0][
        'access_to'] == '10.0.0.10'
    assert diff_view([dict(access_type='ip', access_to='10.0.0.1'), dict(access_type='ip', access_to=None)])[
        0]['access_to'] is None
    assert diff_view([dict(access_type='ip', access_to='1'), dict(access_type=None, access_to='2')])[
        0]['access_type'] is None


def test_predicted_rules_apply_every_step():
    existing = [rule_with_id('keep'), rule_with_id('lvl', access_to='10.0.0.2', level='ro'),
                rule_with_id('meta', access_to='10.0.0.3', metadata={'a': '1'}),
                rule_with_id('meta2', access_to='10.0.0.8'),
                rule_with_id('rm', access_to='10.0.0.4'), rule_with_id('rep', access_to='10.0.0.5', state='error'),
                rule_with_id('going', access_to='10.0.0.6', state='queued_to_deny')]
    plan = AccessPlan()
    plan.update = [(existing[1], 'rw')]
    plan.metadata = [(existing[2], {'b': '2'}), (existing[3], {'c': '3'})]
    plan.remove = [existing[4]]
    plan.replace = [(existing[5], wanted_rule(access_to='10.0.0.5', level='ro', metadata={'x': 'y'}))]
    plan.add = [wanted_rule(access_to='10.0.0.7')]
    after = predicted_rules(existing, plan)
    assert [r.get('id') for r in after] == ['keep', 'lvl', 'meta', 'meta2', None, None]
    assert after[1]['access_level'] == 'rw' and existing[1]['access_level'] == 'ro'
    assert after[2]['metadata'] == {'a': '1', 'b': '2'} and existing[2]['metadata'] == {'a': '1'}
    assert after[3]['metadata'] == {'c': '3'}
    assert after[4] == dict(access_type='ip', access_to='10.0.0.7', access_level='rw', metadata={},
                            state='active')
    assert after[5] == dict(access_type='ip', access_to='10.0.0.5', access_level='ro',
                            metadata={'x': 'y'}, state='active')


def test_filter_rules_every_filter():
    rules = [rule_with_id('a', metadata={'k': 'v', 'o': 'p'}), rule_with_id('b', access_to='10.0.0.0/24', level='ro'),
             rule_with_id('c', access_type='user', access_to='alice'), rule_with_id('d', access_to='10.0.0.1')]

    def ids(found):
        return [r['id'] for r in found]
    assert ids(filter_rules(rules)) == ['a', 'b', 'c', 'd']
    assert ids(filter_rules(rules, access_type='ip')) == ['a', 'b', 'd']
    # (share_access_info requires access_type with access_to)
    assert ids(filter_rules(rules, access_type='ip', access_to='10.0.0.1/32')) == ['a', 'd']
    assert ids(filter_rules(rules, access_type='ip', access_to='10.0.0.0/24')) == ['b']
    assert ids(filter_rules(rules, access_level='ro')) == ['b']
    assert ids(filter_rules(rules, metadata={'k': 'v'})) == ['a']
    assert ids(filter_rules(rules, metadata={'k': 'v', 'o': 'x'})) == []
    assert ids(filter_rules(rules, access_type='ip', access_to='alice')) == []
    assert ids(filter_rules(rules, access_type='user', access_to='alice')) == ['c']


def test_pending_and_failed_rules():
    rules = [rule_with_id('a'), rule_with_id('b', state='queued_to_apply'), rule_with_id('c', state='error'),
             rule_with_id('d', state='denying')]
    assert pending_rules(rules, ['a'], []) == []
    assert pending_rules(rules, ['b', 'x', 'a'], ['d', 'y']) == [
        'ip:10.0.0.1 is queued_to_apply', 'rule x is missing from the listing',
        'ip:10.0.0.1 is still denying']
    assert [r['id'] for r in failed_rules(rules, {'a', 'c'})] == ['c']
    assert failed_rules(rules, {'a'}) == []


@pytest.mark.parametrize('status,wait,version,outcome', [
    ('available', False, '2.99', False),
    ('creating', True, '2.99', True),
    ('extending', False, '2.99', CannotConverge),
    ('migrating', True, '2.99', CannotConverge),
    ('server_migrating_to', True, '2.99', CannotConverge),
    ('error', True, '2.74', False),
    ('error', True, '2.73', UnsupportedFeature),
    # Manila refuses only 'error' below 2.74 (manila/share/api.py _any_invalid_share_instance).
    ('extending_error', False, '2.73', False),
    ('reverting_error', False, '2.29', False),
])
def test_share_needs_wait_for_rules(status, wait, version, outcome):
    client, _session = make_client([], max_version=version)
    share = {'id': SHARE_ID, 'name': 'data', 'status': status, 'task_state': 'data_copying_in_progress'}
    if isinstance(outcome, bool):
        assert share_needs_wait_for_rules(client, share, wait) is outcome
    else:
        with pytest.raises(outcome) as err:
            share_needs_wait_for_rules(client, share, wait)
        assert ('Share data (%s)' % SHARE_ID) in str(err.value) or outcome is UnsupportedFeature


def test_a_soft_deleted_share_cannot_take_rule_changes():
    client, _session = make_client([])
    with pytest.raises(CannotConverge) as err:
        share_needs_wait_for_rules(client, {'id': SHARE_ID, 'name': 'd', 'status': 'available',
                                            'is_soft_deleted': True}, True)
    assert 'recycle bin' in str(err.value)


# -- the calls, on the wire ---------------------------------------------------------------------

def test_without_secrets():
    assert without_secrets({'id': 'a', 'access_key': 's'}) == {'id': 'a'}
    assert without_secrets(None) == {}


def test_list_with_filters_and_without():
    client, _session = make_client([
        expect('GET', LIST + "&access_type=ip&metadata=%7B%27k%27%3A+%27v%27%7D",
               listing(rule_with_id('a', access_key='secret'))),
        expect('GET', LIST, ScriptedResponse(200, {})),
    ])
    api = AccessAPI(client)
    assert api.list(SHARE_ID, {'access_type': 'ip', 'access_to': None, 'metadata': {'k': 'v'}}) == [rule_with_id('a')]
    assert api.list(SHARE_ID, {'metadata': None}) == []


def test_list_below_2_45_is_the_access_list_action():
    client, _session = make_client([
        expect('POST', '/v2/shares/%s/action' % SHARE_ID, listing(rule_with_id('a')), body={'access_list': None})],
        max_version='2.44', check_mode=True)
    assert AccessAPI(client).list(SHARE_ID, {'access_type': 'ip'}) == [rule_with_id('a')]


def test_find_skips_rules_on_their_way_out():
    client, _session = make_client([
        expect('GET', LIST, listing(rule_with_id('old', state='denying'), rule_with_id('b', access_to='10.0.0.2'),
                                    rule_with_id('new'))),
        expect('GET', LIST, listing(rule_with_id('old', state='deleted'))),
    ])
    api = AccessAPI(client)
    assert api.find(SHARE_ID, wanted_rule())['id'] == 'new'
    assert api.find(SHARE_ID, wanted_rule()) is None


ACTION = '/v2/shares/%s/action' % SHARE_ID


@pytest.mark.parametrize('extra,version,body', [
    ({}, '2.29', {'access_type': 'ip', 'access_to': '10.0.0.1', 'access_level': 'rw'}),
    ({'metadata': {'a': 'b'}}, '2.45',
     {'access_type': 'ip', 'access_to': '10.0.0.1', 'access_level': 'rw', 'metadata': {'a': 'b'}}),
    ({'lock_deletion': True}, '2.82',
     {'access_type': 'ip', 'access_to': '10.0.0.1', 'access_level': 'rw', 'lock_deletion': True,
      'lock_visibility': False}),
    ({'lock_visibility': True, 'lock_reason': 'why'}, '2.82',
     {'access_type': 'ip', 'access_to': '10.0.0.1', 'access_level': 'rw', 'lock_deletion': False,
      'lock_visibility': True, 'lock_reason': 'why'}),
])
def test_allow_bodies(extra, version, body):
    answer = ScriptedResponse(200, {'access': dict(rule_with_id('new'), access_key='secret')})
    client, _session = make_client([expect('POST', ACTION, answer, body={'allow_access': body})],
                                   max_version=version)
    assert AccessAPI(client).allow(SHARE_ID, dict(wanted_rule(), **extra)) == rule_with_id('new')


@pytest.mark.parametrize('extra,version,needle', [
    ({'metadata': {'a': 'b'}}, '2.44', 'Access rule metadata needs Manila API 2.45'),
    ({'lock_deletion': True}, '2.81', 'Access rule locks needs Manila API 2.82'),
    ({'lock_visibility': True}, '2.81', 'Access rule locks needs Manila API 2.82'),
])
def test_allow_gates(extra, version, needle):
    client, session = make_client([], max_version=version)
    with pytest.raises(UnsupportedFeature) as err:
        AccessAPI(client).allow(SHARE_ID, dict(wanted_rule(), **extra))
    assert needle in str(err.value) and len(session.calls) == 1


def test_an_allow_without_an_access_in_the_answer():
    client, _session = make_client([expect('POST', ACTION, ScriptedResponse(200, {}))])
    assert AccessAPI(client).allow(SHARE_ID, wanted_rule()) == {}


def test_an_allow_refused_for_another_reason_is_raised():
    refused = ScriptedResponse(400, {'badRequest': {'code': 400, 'message': 'Invalid rule'}})
    client, _session = make_client([expect('POST', ACTION, refused)])
    with pytest.raises(ManilaError) as err:
        AccessAPI(client).allow(SHARE_ID, wanted_rule())
    assert err.value.status == 400


def test_an_allow_that_exists_but_cannot_be_found_is_raised():
    exists = ScriptedResponse(400, {'badRequest': {'code': 400, 'message': 'Share access ip:10.0.0.1 exists'}})
    client, _session = make_client([expect('POST', ACTION, exists), expect('GET', LIST, listing())])
    with pytest.raises(ManilaError) as err:
        AccessAPI(client).allow(SHARE_ID, wanted_rule())
    assert 'exists' in str(err.value)


def test_a_conflict_that_says_exists_is_not_the_exists_answer():
    conflict = ScriptedResponse(409, {'conflict': {'code': 409, 'message': 'exists'}})
    client, _session = make_client([expect('POST', ACTION, conflict)])
    with pytest.raises(ManilaError) as err:
        AccessAPI(client).allow(SHARE_ID, wanted_rule())
    assert err.value.status == 409


def test_deny_bodies_and_the_unrestrict_gate():
    client, session = make_client([
        expect('POST', ACTION, ScriptedResponse(202), body={'deny_access': {'access_id': 'r1'}}),
        expect('POST', ACTION, ScriptedResponse(202),
               body={'deny_access': {'access_id': 'r1', 'unrestrict': True}}),
    ], max_version='2.82')
    api = AccessAPI(client)
    api.deny(SHARE_ID, rule_with_id('r1'))
    api.deny(SHARE_ID, rule_with_id('r1'), unrestrict=True)
    client, session = make_client([], max_version='2.81')
    with pytest.raises(UnsupportedFeature) as err:
        AccessAPI(client).deny(SHARE_ID, rule_with_id('r1'), unrestrict=True)
    assert str(err.value).startswith('unrestrict needs Manila API 2.82')


@pytest.mark.parametrize('unrestrict,hint', [
    (False, 'Set unrestrict=true to drop its deletion lock'),
    (True, 'Only who placed the lock, or an admin, can remove it.'),
])
def test_a_locked_rule_says_how_to_deny_it(unrestrict, hint):
    locked = ScriptedResponse(403, {'forbidden': {'code': 403, 'message': 'locked'}})
    client, _session = make_client([expect('POST', ACTION, locked)])
    with pytest.raises(ManilaError) as err:
        AccessAPI(client).deny(SHARE_ID, rule_with_id('r1'), unrestrict)
    assert 'Rule r1 (ip:10.0.0.1) cannot be denied' in str(err.value)
    assert hint in str(err.value) and err.value.status == 403


def test_a_lost_deny_looks_at_the_rule_state():
    from keystoneauth1 import exceptions as ksa_exc
    lost = ksa_exc.ConnectFailure('Connection aborted.')
    client, session = make_client([
        expect('POST', ACTION, lost),
        expect('GET', LIST, listing(rule_with_id('r1', state='active'))),
        expect('GET', LIST, listing(rule_with_id('r1', state='queued_to_deny'))),
    ], clock=FakeClock())
    AccessAPI(client).deny(SHARE_ID, rule_with_id('r1'))
    assert len(session.writes()) == 1 and client.warnings


def test_get_update_level_and_set_metadata():
    client, _session = make_client([
        expect('GET', '/v2/share-access-rules/r1',
               ScriptedResponse(200, {'access': dict(rule_with_id('r1'), access_key='k')})),
        expect('GET', '/v2/share-access-rules/r2', ScriptedResponse(404, {'itemNotFound': {
            'code': 404, 'message': 'no'}})),
        expect('PUT', '/v2/share-access-rules/r1',
               ScriptedResponse(200, {'access': dict(rule_with_id('r1', level='ro'), access_key='k')}),
               body={'update_access': {'access_level': 'ro'}}),
        expect('PUT', '/v2/share-access-rules/r1/metadata',
               ScriptedResponse(200, {'metadata': {'a': 'b'}}), body={'metadata': {'a': 'b'}}),
    ])
    api = AccessAPI(client)
    assert api.get('r1') == rule_with_id('r1')
    assert api.get('r2') is None
    assert api.update_level('r1', 'ro') == rule_with_id('r1', level='ro')
    assert api.set_metadata('r1', {'a': 'b'}) is None


def test_update_level_needs_2_88():
    client, session = make_client([], max_version='2.87')
    with pytest.raises(UnsupportedFeature):
        AccessAPI(client).update_level('r1', 'ro')
    client, session = make_client([], max_version='2.44')
    with pytest.raises(UnsupportedFeature):
        AccessAPI(client).set_metadata('r1', {'a': 'b'})


def test_lost_level_and_metadata_changes_are_looked_up():
    from keystoneauth1 import exceptions as ksa_exc
    lost = ksa_exc.ConnectFailure('Connection aborted.')
    client, session = make_client([
        expect('PUT', '/v2/share-access-rules/r1', lost),
        expect('GET', '/v2/share-access-rules/r1', ScriptedResponse(200, {'access': rule_with_id('r1', level='rw')})),
        expect('GET', '/v2/share-access-rules/r1', ScriptedResponse(200, {'access': rule_with_id('r1', level='ro')})),
        expect('PUT', '/v2/share-access-rules/r1/metadata', lost),
        expect('GET', '/v2/share-access-rules/r1',
               ScriptedResponse(200, {'access': rule_with_id('r1', metadata={'a': 'x', 'b': 'c'})})),
        expect('GET', '/v2/share-access-rules/r1',
               ScriptedResponse(404, {'itemNotFound': {'code': 404, 'message': 'gone'}})),
        expect('GET', '/v2/share-access-rules/r1',
               ScriptedResponse(200, {'access': rule_with_id('r1', metadata={'a': 'b', 'b': 'c'})})),
    ], clock=FakeClock())
    api = AccessAPI(client)
    assert api.update_level('r1', 'ro')['access_level'] == 'ro'
    api.set_metadata('r1', {'a': 'b'})
    assert len(session.writes()) == 2


def test_send_plan_and_replacements_in_order():
    plan = AccessPlan()
    plan.add = [wanted_rule(access_to='10.0.0.7')]
    plan.update = [(rule_with_id('u'), 'ro')]
    plan.metadata = [(rule_with_id('m'), {'a': 'b'})]
    plan.replace = [(rule_with_id('rp', state='error'), wanted_rule(access_to='10.0.0.5'))]
    plan.remove = [rule_with_id('rm')]
    allow7 = {'allow_access': {'access_type': 'ip', 'access_to': '10.0.0.7', 'access_level': 'rw'}}
    allow5 = {'allow_access': {'access_type': 'ip', 'access_to': '10.0.0.5', 'access_level': 'rw'}}
    client, session = make_client([
        expect('POST', ACTION, ScriptedResponse(200, {'access': rule_with_id('n7')}), body=allow7),
        expect('PUT', '/v2/share-access-rules/u', ScriptedResponse(200, {'access': rule_with_id('u')}),
               body={'update_access': {'access_level': 'ro'}}),
        expect('PUT', '/v2/share-access-rules/m/metadata', ScriptedResponse(200, {}),
               body={'metadata': {'a': 'b'}}),
        expect('POST', ACTION, ScriptedResponse(202),
               body={'deny_access': {'access_id': 'rp', 'unrestrict': True}}),
        expect('POST', ACTION, ScriptedResponse(202),
               body={'deny_access': {'access_id': 'rm', 'unrestrict': True}}),
        expect('POST', ACTION, ScriptedResponse(200, {'access': rule_with_id('n5')}), body=allow5),
    ])
    api = AccessAPI(client)
    assert api.send_plan(SHARE_ID, plan, unrestrict=True) == (['n7', 'u'], ['rp', 'rm'])
    assert api.send_replacements(SHARE_ID, plan) == ['n5']


def test_send_plan_paces_each_write_that_makes_manila_sync():
    # Manila can lose a rule change sent while it applies the one before:
    # pace() runs before every allow, level change and deny, not before a
    # metadata change (Manila does not sync the share for those).
    plan = AccessPlan()
    plan.add = [wanted_rule(access_to='10.0.0.7'), wanted_rule(access_to='10.0.0.8')]
    plan.update = [(rule_with_id('u'), 'ro')]
    plan.metadata = [(rule_with_id('m'), {'a': 'b'})]
    plan.replace = [(rule_with_id('rp', state='error'), wanted_rule(access_to='10.0.0.5'))]
    plan.remove = [rule_with_id('rm')]
    client, session = make_client([
        expect('POST', ACTION, ScriptedResponse(200, {'access': rule_with_id('n7')})),
        expect('POST', ACTION, ScriptedResponse(200, {'access': rule_with_id('n8')})),
        expect('PUT', '/v2/share-access-rules/u', ScriptedResponse(200, {'access': rule_with_id('u')})),
        expect('PUT', '/v2/share-access-rules/m/metadata', ScriptedResponse(200, {})),
        expect('POST', ACTION, ScriptedResponse(202)),
        expect('POST', ACTION, ScriptedResponse(202)),
        expect('POST', ACTION, ScriptedResponse(200, {'access': rule_with_id('n5')})),
    ])
    order = []

    def pace():
        order.append('pace')

    api = AccessAPI(client)
    real_request = session.request

    def request(url, method, **kwargs):
        order.append('%s %s' % (method, url.rsplit('/v2/', 1)[1]))
        return real_request(url, method, **kwargs)

    session.request = request
    assert api.send_plan(SHARE_ID, plan, pace=pace) == (['n7', 'n8', 'u'], ['rp', 'rm'])
    assert api.send_replacements(SHARE_ID, plan, pace=pace) == ['n5']
    action = 'POST shares/%s/action' % SHARE_ID
    assert order == ['pace', action, 'pace', action, 'pace', 'PUT share-access-rules/u',
                     'PUT share-access-rules/m/metadata', 'pace', action, 'pace', action,
                     'pace', action]


def test_pacer_waits_for_the_write_before():
    clock = FakeClock()
    client, session = make_client([
        expect('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': {
            'id': SHARE_ID, 'access_rules_status': 'syncing'}})),
        expect('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': {
            'id': SHARE_ID, 'access_rules_status': 'active'}})),
    ], clock=clock)
    api = AccessAPI(client, timeout=60)

    def get_share(share_id):
        return client.get('shares/%s' % share_id)['share']

    for settled in ('active', 'error'):
        pace = api.pacer({'id': SHARE_ID, 'access_rules_status': settled}, get_share)
        pace()      # the share was read settled: the first write goes at once
        assert session.requests()[1:] == []     # after the versions document
    pace()          # the second write waits until Manila is done with the first
    assert session.requests()[1:] == ['GET /v2/shares/' + SHARE_ID] * 2 and len(clock.sleeps) == 1


def test_pacer_waits_before_the_first_write_on_a_syncing_share():
    for status in ('syncing', None):
        client, session = make_client([
            expect('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': {
                'id': SHARE_ID, 'access_rules_status': 'active'}}))], clock=FakeClock())
        pace = AccessAPI(client).pacer({'id': SHARE_ID, 'access_rules_status': status},
                                       lambda share_id: client.get('shares/' + share_id)['share'])
        pace()
        assert session.requests()[1:] == ['GET /v2/shares/' + SHARE_ID]


def test_settle_twins_without_wait():
    twins = [rule_with_id('old', created_at='2026-01-01T00:00:00'), rule_with_id('mine', created_at='2026-01-01T00:00:01'),
             rule_with_id('alone', access_to='10.0.0.2')]
    client, session = make_client([
        expect('POST', ACTION, ScriptedResponse(202), body={'deny_access': {'access_id': 'mine'}}),
        expect('GET', LIST, listing(twins[0], twins[2])),
    ])
    rules, kept = AccessAPI(client).settle_twins(SHARE_ID, ['mine', 'alone', 'unknown'], twins, wait=False)
    assert kept == ['old', 'alone', 'unknown'] and [r['id'] for r in rules] == ['old', 'alone']
    assert 'Another task allowed access rule ip:10.0.0.1 on share %s at the same time (old)' % SHARE_ID \
        in client.warnings[0]
    # nothing denied: the rules given are returned as they are, without a request
    client, session = make_client([])
    rules, kept = AccessAPI(client).settle_twins(SHARE_ID, ['old'], twins[:1] + [
        rule_with_id('x', state='denying', created_at='2025')], wait=False)
    assert kept == ['old'] and rules[0]['id'] == 'old'


def test_settle_twins_keeper_waits_a_bounded_time_for_the_others():
    clock = FakeClock()
    twins = [rule_with_id('mine', created_at='2026-01-01T00:00:00'), rule_with_id('theirs', created_at='2026-01-01T00:00:01')]
    exchanges = [expect('GET', LIST, listing(*twins))]
    client, session = make_client(exchanges + [expect('GET', LIST, listing(twins[0]))], clock=clock)
    rules, kept = AccessAPI(client, timeout=600).settle_twins(SHARE_ID, ['mine'], twins)
    assert kept == ['mine'] and [r['id'] for r in rules] == ['mine']
    assert client.warnings == []


def test_wait_share_status():
    clock = FakeClock()
    shares = iter([{'access_rules_status': 'syncing'}, {'access_rules_status': 'queued'},
                   {'access_rules_status': 'error'}])
    client, _session = make_client([], clock=clock)
    got = AccessAPI(client, timeout=60).wait_share_status(SHARE_ID, lambda share_id: next(shares))
    assert got == {'access_rules_status': 'error'} and len(clock.sleeps) == 2
    shares = iter([{'access_rules_status': 'active'}])
    assert AccessAPI(client).wait_share_status(SHARE_ID, lambda share_id: next(shares)) == {
        'access_rules_status': 'active'}


def test_access_api_defaults():
    client, _session = make_client([])
    api = AccessAPI(client)
    assert api.client is client and api.timeout == 180


def test_send_plan_does_not_unrestrict_unless_asked():
    plan = AccessPlan()
    plan.remove = [rule_with_id('rm')]
    client, _session = make_client([
        expect('POST', ACTION, ScriptedResponse(202), body={'deny_access': {'access_id': 'rm'}})])
    assert AccessAPI(client).send_plan(SHARE_ID, plan) == ([], ['rm'])


def test_settle_twins_loser_waits_for_its_twin_to_go():
    clock = FakeClock()
    old = rule_with_id('old', created_at='2026-01-01T00:00:00')
    mine = rule_with_id('mine', created_at='2026-01-01T00:00:01')
    going = rule_with_id('going', created_at='2025-01-01T00:00:00', state='denying')
    client, _session = make_client([
        expect('POST', ACTION, ScriptedResponse(202), body={'deny_access': {'access_id': 'mine'}}),
        expect('GET', LIST, listing(old, dict(mine, state='denying'))),
        expect('GET', LIST, listing(old)),
    ], clock=clock)
    rules, kept = AccessAPI(client, timeout=100).settle_twins(SHARE_ID, ['mine'], [going, old, mine])
    assert kept == ['old'] and rules == [old] and len(clock.sleeps) == 1


def polls_within(timeout):
    """How many reads a wait_until makes before it times out after ``timeout`` seconds."""
    from ansible_collections.openkeel.manila.plugins.module_utils.waiter import poll_delays
    count, now = 1, 0.0
    for delay in poll_delays():
        if now >= timeout:
            return count
        now += min(delay, timeout - now)
        count += 1


MESSAGES = '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % SHARE_ID


@pytest.mark.parametrize('timeout,waited', [(600, 60), (3, 3)])
def test_settle_twins_keeper_gives_up_waiting_with_a_warning(timeout, waited):
    clock = FakeClock()
    mine = rule_with_id('mine', created_at='2026-01-01T00:00:00')
    theirs = [rule_with_id('t2', created_at='2026-01-01T00:00:02'), rule_with_id('t1', created_at='2026-01-01T00:00:01')]
    polls = [expect('GET', LIST, listing(mine, *theirs)) for _i in range(polls_within(waited))]
    client, _session = make_client(polls + [
        expect('GET', MESSAGES, ScriptedResponse(200, {'messages': []})),
        expect('GET', LIST, listing(mine, theirs[0])),
    ], clock=clock)
    rules, kept = AccessAPI(client, timeout=timeout).settle_twins(SHARE_ID, ['mine'], [mine] + theirs)
    assert kept == ['mine'] and [r['id'] for r in rules] == ['mine', 't2']
    assert clock.now == waited
    assert client.warnings == ['Access rules t1, t2 on share %s duplicate rules this task made; the '
                               'tasks that made them did not remove them within 60 seconds.' % SHARE_ID]


@pytest.mark.parametrize('failed,words', [
    (['e1'], 'has this access rule in error (ip:10.0.0.1, rw, e1)'),
    (['e1', 'e2'], 'has these access rules in error (ip:10.0.0.1, rw, e1, ip:10.0.0.1, rw, e2)'),
])
def test_wait_rules_failure_words(failed, words):
    rules = [rule_with_id(rid, state='error') for rid in failed]
    client, _session = make_client([
        expect('GET', LIST, listing(*rules)),
        expect('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % SHARE_ID,
               ScriptedResponse(200, {'messages': []})),
    ])
    with pytest.raises(WaitFailed) as err:
        AccessAPI(client).wait_rules(SHARE_ID, touched=failed)
    text = str(err.value)
    assert text.startswith('Share %s %s while waiting for its access rules to settle.' % (SHARE_ID, words))
    assert text.endswith('The rule is left in error: remove it with state=absent, or run the '
                         'task again to retry it.')


def test_wait_rules_timeout_says_what_is_pending():
    clock = FakeClock()
    client, _session = make_client([expect('GET', LIST, listing(rule_with_id('a', state='queued_to_apply')))
                                    for _i in range(polls_within(1))]
                                   + [expect('GET', MESSAGES, ScriptedResponse(200, {'messages': []}))],
                                   clock=clock)
    with pytest.raises(WaitTimeout) as err:
        AccessAPI(client, timeout=1).wait_rules(SHARE_ID, touched=['a'], what='The rules')
    assert ('The rules is still settling its access rules (ip:10.0.0.1 is queued_to_apply) after 1 '
            'seconds') in str(err.value)


def test_a_user_name_of_capital_xs_is_a_name():
    validate_target('user', 'XXXX')
    validate_target('user', 'X.X.')


def test_the_version_reaches_the_checks_of_every_rule():
    with pytest.raises(InvalidInput):
        normalize_rule(wanted_rule(access_to='fd00::1'), V('2.37'))
    with pytest.raises(InvalidInput) as err:
        prepare_rules([wanted_rule(access_to='fd00::1')], V('2.37'))
    assert 'IPv6 access rules need Manila API 2.38' in str(err.value)
    with pytest.raises(InvalidInput) as err:
        normalize_rule({'access_to': '10.0.0.1'})
    assert "access_type '' is not one of" in str(err.value)


def test_below_2_88_every_rule_is_planned_after_a_replacement():
    existing = [rule_with_id('a', level='ro'), rule_with_id('b', access_to='10.0.0.2', level='ro')]
    plan = plan_rules(existing, [wanted_rule(), wanted_rule(access_to='10.0.0.2'), wanted_rule(access_to='10.0.0.3')],
                      update_in_place=False)
    assert [c['id'] for c, _r in plan.replace] == ['a', 'b']
    assert [r['access_to'] for r in plan.add] == ['10.0.0.3']


def test_settle_twins_goes_on_after_a_rule_it_keeps():
    mine_old = rule_with_id('k', created_at='2026-01-01T00:00:00')
    theirs_new = rule_with_id('t', created_at='2026-01-01T00:00:05')
    their_old = rule_with_id('o', access_to='10.0.0.2', created_at='2026-01-01T00:00:00')
    mine_new = rule_with_id('m', access_to='10.0.0.2', created_at='2026-01-01T00:00:05')
    client, _session = make_client([
        expect('POST', ACTION, ScriptedResponse(202), body={'deny_access': {'access_id': 'm'}}),
        expect('GET', LIST, listing(mine_old, theirs_new, their_old)),
    ])
    rules, kept = AccessAPI(client).settle_twins(SHARE_ID, ['k', 'm'], [mine_old, theirs_new, their_old, mine_new],
                                                 wait=False)
    assert kept == ['k', 'o']


def test_settle_twins_waits_for_the_kept_rule_to_be_active():
    clock = FakeClock()
    old = rule_with_id('old', created_at='2026-01-01T00:00:00', state='queued_to_apply')
    mine = rule_with_id('mine', created_at='2026-01-01T00:00:01')
    client, _session = make_client([
        expect('POST', ACTION, ScriptedResponse(202), body={'deny_access': {'access_id': 'mine'}}),
        expect('GET', LIST, listing(old)),
        expect('GET', LIST, listing(dict(old, state='active'))),
    ], clock=clock)
    rules, kept = AccessAPI(client, timeout=100).settle_twins(SHARE_ID, ['mine'], [old, mine])
    assert kept == ['old'] and rules[0]['state'] == 'active'


def test_wait_share_status_timeout_says_the_status():
    clock = FakeClock()
    client, _session = make_client([], clock=clock)
    with pytest.raises(WaitTimeout) as err:
        AccessAPI(client, timeout=1).wait_share_status(SHARE_ID, lambda share_id: {'access_rules_status': 'syncing'})
    assert 'Share %s is still access_rules_status syncing after 1 seconds' % SHARE_ID in str(err.value)


# -- the warnings explain_plan gives (hidden rules, level changes by replacement), an
# AccessPlan built with its diff views, and plan_writes as the fleet calls it --------

def rule_of(rule_id, access_to, level='rw', state='active', access_type='ip'):
    return dict(id=rule_id, access_type=access_type, access_to=access_to, access_level=level,
                state=state, metadata={})


def warnings_of(existing, desired, version='2.87', **kwargs):
    said = []
    plan = plan_rules(existing, prepare_rules(desired), update_in_place=APIVersion(version) >= APIVersion('2.88'),
                      **kwargs)
    explain_plan(plan, APIVersion(version), said.append)
    return plan, said


def test_hidden_rules_are_named_by_id_in_order():
    existing = [rule_of('zz', '******'), rule_of('aa', '******', access_type='user'), rule_of('r1', '10.0.0.1')]
    plan, said = warnings_of(existing, [dict(access_type='ip', access_to='10.0.0.1')], purge=True)
    assert [r['id'] for r in plan.hidden] == ['zz', 'aa']
    assert said == ['2 rule(s) of this share have targets hidden from this user by a visibility lock '
                    '(shown as ******); they cannot be matched and were left alone (IDs: aa, zz).']


def test_one_level_change_by_replacement_is_named():
    _plan, said = warnings_of([rule_of('r1', '10.0.0.1', level='ro')],
                              [dict(access_type='ip', access_to='10.0.0.1')])
    assert said == ['Manila API 2.87 cannot change an access level in place (that needs 2.88): '
                    'ip:10.0.0.1 is denied and allowed again, so the client has no access for a short while.']


def test_several_level_changes_by_replacement_are_named_together():
    _plan, said = warnings_of([rule_of('r1', '10.0.0.1', level='ro'), rule_of('r2', 'bobby', access_type='user')],
                              [dict(access_type='ip', access_to='10.0.0.1'),
                               dict(access_type='user', access_to='bobby', access_level='ro')])
    assert said == ['Manila API 2.87 cannot change an access level in place (that needs 2.88): '
                    'ip:10.0.0.1, user:bobby are denied and allowed again, so the client has no access '
                    'for a short while.']


def test_a_rule_in_error_replaced_is_no_level_change():
    plan, said = warnings_of([rule_of('r1', '10.0.0.1', state='error'), rule_of('r2', '10.0.0.2', level='ro')],
                             [dict(access_type='ip', access_to='10.0.0.1'),
                              dict(access_type='ip', access_to='10.0.0.2')])
    assert [c['id'] for c, _r in plan.replace] == ['r1', 'r2']
    # only r2 changes level; r1 is replaced because it is in error
    assert len(said) == 1 and 'ip:10.0.0.2 is denied' in said[0] and '10.0.0.1' not in said[0]


def test_only_a_rule_in_error_replaced_gives_no_warning():
    plan, said = warnings_of([rule_of('r1', '10.0.0.1', level='ro', state='error')],
                             [dict(access_type='ip', access_to='10.0.0.1')])
    assert plan.action == UPDATE and said == []


def test_in_place_level_changes_and_nothing_hidden_give_no_warning():
    plan, said = warnings_of([rule_of('r1', '10.0.0.1', level='ro')],
                             [dict(access_type='ip', access_to='10.0.0.1')], version='2.88')
    assert [(c['id'], level) for c, level in plan.update] == [('r1', 'rw')]
    assert said == []


def test_an_access_plan_keeps_the_diff_views_it_is_given():
    before = {'rules': [{'access_type': 'ip', 'access_to': '10.0.0.1'}]}
    after = {'rules': []}
    plan = AccessPlan(before, after)
    assert plan.before is before and plan.after is after
    assert plan.action == NOTHING and plan.changed is False
    plan.remove.append(rule_of('r1', '10.0.0.1'))
    assert plan.action == UPDATE and plan.changed is True


def test_an_access_plan_without_views_has_empty_ones():
    plan = AccessPlan()
    assert (plan.before, plan.after) == ({}, {})
    assert (plan.add, plan.update, plan.replace, plan.metadata, plan.remove, plan.hidden,
            plan.unchanged) == ([], [], [], [], [], [], [])


def test_plan_writes_deny_without_unrestrict_unless_asked():
    # share_access passes unrestrict; the fleet's rule writes rely on the default
    plan = plan_rules([rule_of('r1', '10.0.0.1'), rule_of('r2', '10.0.0.2')],
                      prepare_rules([dict(access_type='ip', access_to='10.0.0.1')]), purge=True)
    client, session = make_client([
        expect('POST', ACTION, ScriptedResponse(202), body={'deny_access': {'access_id': 'r2'}}),
    ], max_version='2.99')
    writes = AccessAPI(client).plan_writes(SHARE_ID, plan)
    assert [(kind, syncs) for kind, syncs, _send in writes] == [('deny', True)]
    assert writes[0][2]() == 'r2'
    assert session.bodies('POST') == [{'deny_access': {'access_id': 'r2'}}]


# -- on the base (issue 35) ------------------------------------------------------

def test_the_rule_calls_are_the_bases_with_the_access_rule_row():
    assert issubclass(AccessAPI, base_resource.ResourceAPI) and AccessAPI.kind == 'access_rule'
    assert AccessAPI.states.leaving == kinds.KINDS['access_rule'].statuses.leaving
    assert kinds.KINDS['access_rule'].status_field == 'state'


def test_a_rule_that_is_gone_reads_as_none_and_one_there_without_secrets():
    client, session = make_client([
        expect('GET', '/v2/share-access-rules/a1', ScriptedResponse(
            404, {'itemNotFound': {'code': 404, 'message': 'not found'}})),
        expect('GET', '/v2/share-access-rules/a2', ScriptedResponse(200, {'access': {
            'id': 'a2', 'state': 'active', 'access_key': 'secret'}})),
    ])
    api = AccessAPI(client)
    assert api.get('a1') is None
    assert api.get('a2') == {'id': 'a2', 'state': 'active'}
