# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.waiter import poll_delays
from ansible_collections.openkeel.manila.plugins.module_utils.access import (
    STALE_ERROR_GRACE,
    AccessAPI,
    diff_view,
    filter_rules,
    plan_rules,
    predicted_rules,
    prepare_rules,
    pending_rules,
    required_features,
    same_rule,
    share_needs_wait_for_rules,
    validate_target,
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
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    FakeClock,
    ScriptedResponse,
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
