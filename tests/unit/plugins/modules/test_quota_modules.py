# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""share_quota and share_quota_info on scripted HTTP: projects resolved through
Keystone, refusals before any write (a member, a limit below use, a name
too new for the cloud), check mode, absent."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Fail,
    run_module,
    run_scripted,
)

from ansible_collections.openkeel.manila.plugins.modules import share_limits_info
from ansible_collections.openkeel.manila.plugins.modules import share_quota
from ansible_collections.openkeel.manila.plugins.modules import share_quota_info
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    expect,
    ok,
)

OWN = '0000000000000000000000000000000a'
TEAM = '0000000000000000000000000000000b'
IDENTITY = 'http://127.0.0.1:5000/v3/'
# The diff key of what a reset deletes besides the limits (as documented).
RESET_SIDE_EFFECTS = 'side effects of the reset'


class Access(object):
    def __init__(self, roles):
        self.project_id = OWN
        self.project_name = 'admin'
        self.role_names = roles


class Auth(object):
    def __init__(self, roles):
        self.roles = roles

    def get_access(self, session):
        return Access(self.roles)


def identity(path, answer):
    return expect('GET', IDENTITY + path, answer, version=None)


MODULES = {
    'share_quota': (share_quota, share_quota.ShareQuotaModule),
    'share_quota_info': (share_quota_info, share_quota_info.ShareQuotaInfoModule),
    'share_limits_info': (share_limits_info, share_limits_info.ShareLimitsInfoModule),
}


def run(monkeypatch, module, args, exchanges, max_version='2.99', check_mode=False,
        roles=('admin', 'member')):
    def prepare(client, session):
        session.auth = Auth(list(roles))
        client.identity_url = 'http://127.0.0.1:5000/v3'
    return run_scripted(monkeypatch, MODULES[module][0], args, exchanges, max_version=max_version,
                        check_mode=check_mode, diff=True, prepare=prepare)


def fails(monkeypatch, module, args, exchanges, **kwargs):
    """The result of a run that must fail."""
    outcome, session = run(monkeypatch, module, args, exchanges, **kwargs)
    assert isinstance(outcome, Fail), outcome.result
    assert session.writes() == []
    return outcome.result


def quota_set(**limits):
    return ok({'quota_set': dict(limits, id=TEAM)})


def detail(limit, in_use=0, reserved=0):
    return {'limit': limit, 'in_use': in_use, 'reserved': reserved}


def test_a_project_name_is_resolved_and_only_what_differs_is_sent(monkeypatch):
    outcome, session = run(monkeypatch, 'share_quota', {
        'project': 'team-a', 'quotas': {'shares': 20, 'gigabytes': 1000}}, [
        identity('projects?name=team-a', ok({'projects': [{'id': TEAM, 'name': 'team-a'}]})),
        ('GET', '/v2/quota-sets/' + TEAM, quota_set(shares=50, gigabytes=1000)),
        ('GET', '/v2/quota-sets/%s/detail' % TEAM, ok({'quota_set': {
            'shares': detail(50, 3), 'gigabytes': detail(1000, 30)}})),
        expect('PUT', '/v2/quota-sets/' + TEAM, quota_set(shares=20, gigabytes=1000),
               body={'quota_set': {'shares': 20}}),
    ])
    result = outcome.result
    assert result['changed'] is True and result['project_id'] == TEAM
    assert result['quotas'] == {'shares': 20, 'gigabytes': 1000}
    assert result['diff'] == {'before': {'shares': 50, 'gigabytes': 1000},
                              'after': {'shares': 20, 'gigabytes': 1000}}
    assert len(session.writes()) == 1


def test_no_change_sends_no_write(monkeypatch):
    outcome, session = run(monkeypatch, 'share_quota', {'quotas': {'shares': 50}}, [
        ('GET', '/v2/quota-sets/' + OWN, quota_set(shares=50)),
    ])
    assert outcome.result['changed'] is False and session.writes() == []


def test_a_templated_number_is_compared_and_sent_as_a_number(monkeypatch):
    # ansible-core 2.16 to 2.18 template "{{ used + 1 }}" to the text '51'
    outcome, session = run(monkeypatch, 'share_quota', {'quotas': {'shares': '50'}}, [
        ('GET', '/v2/quota-sets/' + OWN, quota_set(shares=50)),
    ])
    assert outcome.result['changed'] is False and session.writes() == []
    outcome, session = run(monkeypatch, 'share_quota', {'quotas': {'shares': '51'}}, [
        ('GET', '/v2/quota-sets/' + OWN, quota_set(shares=50)),
        ('GET', '/v2/quota-sets/%s/detail' % OWN, ok({'quota_set': {'shares': detail(50)}})),
        expect('PUT', '/v2/quota-sets/' + OWN, quota_set(shares=51),
               body={'quota_set': {'shares': 51}}),
    ])
    assert outcome.result['changed'] is True and outcome.result['quotas'] == {'shares': 51}


def test_check_mode_reports_the_change_without_a_write(monkeypatch):
    outcome, session = run(monkeypatch, 'share_quota', {'project': TEAM,
                                                        'quotas': {'shares': 60}}, [
        identity('projects/' + TEAM, ok({'project': {'id': TEAM}})),
        ('GET', '/v2/quota-sets/' + TEAM, quota_set(shares=50)),
        ('GET', '/v2/quota-sets/%s/detail' % TEAM, ok({'quota_set': {'shares': detail(50)}})),
    ], check_mode=True)
    assert outcome.result['changed'] is True and outcome.result['quotas'] == {'shares': 60}
    assert session.writes() == []


def test_a_limit_below_use_fails_before_any_write_unless_forced(monkeypatch):
    reads = [('GET', '/v2/quota-sets/' + OWN, quota_set(shares=50)),
             ('GET', '/v2/quota-sets/%s/detail' % OWN, ok({'quota_set': {
                 'shares': detail(50, 4, 1)}}))]
    failed = fails(monkeypatch, 'share_quota', {'quotas': {'shares': 2}}, reads)
    assert 'shares 5 in use and reserved, 2 asked' in failed['msg']
    assert 'force=true' in failed['msg']
    outcome, session = run(monkeypatch, 'share_quota', {'quotas': {'shares': 2}, 'force': True}, [
        reads[0],
        expect('PUT', '/v2/quota-sets/' + OWN, quota_set(shares=2),
               body={'quota_set': {'shares': 2, 'force': True}}),
    ])
    assert outcome.result['changed'] is True and len(session.writes()) == 1


def test_a_member_is_refused_before_any_write(monkeypatch):
    failed = fails(monkeypatch, 'share_quota', {'quotas': {'shares': 3}}, [
        ('GET', '/v2/quota-sets/' + OWN, quota_set(shares=50)),
    ], roles=('member', 'reader'))
    message = failed['msg']
    assert 'needs an admin' in message and 'share_quota_info' in message
    assert 'member, reader' in message


def test_a_name_too_new_fails_before_any_request_to_manila(monkeypatch):
    failed = fails(monkeypatch, 'share_quota', {'quotas': {'shares': 3, 'backups': 2}}, [],
                   max_version='2.79')
    assert failed['msg'] == (
        'The quota backups needs Manila API 2.80; this cloud offers 2.79.')


def test_an_unknown_project_and_a_member_asking_keystone(monkeypatch):
    failed = fails(monkeypatch, 'share_quota', {'project': 'nobody', 'quotas': {'shares': 3}}, [
        identity('projects?name=nobody', ok({'projects': []}))])
    assert "No project 'nobody' exists in Keystone." == failed['msg']
    failed = fails(monkeypatch, 'share_quota_info', {'project': 'team-a'}, [
        identity('projects?name=team-a', ok({'error': {'code': 403, 'message': 'no'}},
                                            status=403))], roles=('member',))
    assert 'only the task\'s own project (admin)' in failed['msg']


def test_absent_resets_a_project_to_the_defaults(monkeypatch):
    outcome, session = run(monkeypatch, 'share_quota', {'state': 'absent',
                                                        'delete_user_quotas': True}, [
        ('GET', '/v2/quota-sets/' + OWN, quota_set(shares=20, gigabytes=1000)),
        ('GET', '/v2/quota-sets/%s/defaults' % OWN, quota_set(shares=50, gigabytes=1000)),
        ('DELETE', '/v2/quota-sets/' + OWN, ok(status=202)),
        ('GET', '/v2/quota-sets/' + OWN, quota_set(shares=50, gigabytes=1000)),
    ])
    assert outcome.result['changed'] is True
    after = dict(outcome.result['diff']['after'])
    assert after.pop(RESET_SIDE_EFFECTS).startswith('every user quota of the project deleted')
    assert after == {'shares': 50, 'gigabytes': 1000}
    assert outcome.result['quotas'] == {'shares': 50, 'gigabytes': 1000}
    assert len(session.writes()) == 1


def test_absent_for_a_type_compares_with_the_project(monkeypatch):
    outcome, session = run(monkeypatch, 'share_quota', {'state': 'absent',
                                                        'share_type': 'gold'}, [
        ('GET', '/v2/quota-sets/%s?share_type=gold' % OWN, quota_set(shares=20)),
        ('GET', '/v2/quota-sets/' + OWN, quota_set(shares=20)),
    ])
    assert outcome.result['changed'] is False and session.writes() == []


def test_a_class_cannot_be_reset(monkeypatch):
    failed = run_module(monkeypatch, share_quota, {'quota_class': 'gold', 'state': 'absent'}, None,
                        expect=Fail)
    assert 'A quota class cannot be reset' in failed.result['msg']


def test_info_returns_use_reservations_and_defaults(monkeypatch):
    outcome, _session = run(monkeypatch, 'share_quota_info', {}, [
        ('GET', '/v2/quota-sets/%s/detail' % OWN, ok({'quota_set': {
            'id': OWN, 'shares': detail(50, 2, 1)}})),
        ('GET', '/v2/quota-sets/%s/defaults' % OWN, quota_set(shares=50)),
    ], roles=('member',))
    assert outcome.result['quotas'] == {'shares': detail(50, 2, 1)}
    assert outcome.result['defaults'] == {'shares': 50}
    assert outcome.result['changed'] is False


def test_limits_info(monkeypatch):
    outcome, _session = run(monkeypatch, 'share_limits_info', {}, [
        ('GET', '/v2/limits', ok({'limits': {'rate': [], 'absolute': {
            'maxTotalShares': 50, 'totalSharesUsed': 2}}}))])
    assert outcome.result['limits'] == {'maxTotalShares': 50, 'totalSharesUsed': 2}


# -- issue 36: what Manila refuses after writing the earlier names, refused before any write
def test_a_limit_below_use_is_refused_where_the_limit_is_unlimited_too(monkeypatch):
    failed = fails(monkeypatch, 'share_quota', {'quotas': {'snapshots': 5, 'shares': 2}}, [
        ('GET', '/v2/quota-sets/' + OWN, quota_set(shares=-1, snapshots=50)),
        ('GET', '/v2/quota-sets/%s/detail' % OWN, ok({'quota_set': {
            'shares': detail(-1, 4, 1), 'snapshots': detail(50)}})),
    ])
    assert 'quotas.shares 2, below the 5 in use and reserved' in failed['msg']
    assert 'force=true' in failed['msg'] and 'nothing was changed' in failed['msg']


def test_a_user_limit_above_the_projects_is_refused_naming_the_limit(monkeypatch):
    failed = fails(monkeypatch, 'share_quota', {'user': 'u1', 'quotas': {'shares': 60}}, [
        ('GET', '/v2/quota-sets/%s?user_id=u1' % OWN, quota_set(shares=50)),
        ('GET', '/v2/quota-sets/%s/detail?user_id=u1' % OWN, ok({'quota_set': {
            'shares': detail(50, 1)}})),
        ('GET', '/v2/quota-sets/' + OWN, quota_set(shares=50)),
    ])
    assert failed['msg'] == (
        'Manila would refuse these limits of user u1 of project %s: quotas.shares 60, above '
        'the project\'s limit 50. Manila writes quota names one by one and refuses at the '
        'first it will not take, after the earlier ones are written; nothing was changed. '
        'Change the limits, or set force=true to set them anyway (nothing is deleted).' % OWN)


def test_unlimited_for_a_type_while_the_project_has_a_limit_is_refused(monkeypatch):
    failed = fails(monkeypatch, 'share_quota', {'share_type': 'gold',
                                                'quotas': {'gigabytes': -1, 'shares': 5}}, [
        ('GET', '/v2/quota-sets/%s?share_type=gold' % OWN, quota_set(shares=50, gigabytes=100)),
        ('GET', '/v2/quota-sets/%s/detail?share_type=gold' % OWN, ok({'quota_set': {
            'shares': detail(50), 'gigabytes': detail(100)}})),
        ('GET', '/v2/quota-sets/' + OWN, quota_set(shares=50, gigabytes=100)),
    ])
    assert "quotas.gigabytes unlimited (-1), while the project's limit is 100" in failed['msg']
    assert 'quotas.shares' not in failed['msg']


def test_a_limit_above_what_manila_can_hold_fails_before_any_request(monkeypatch):
    failed = fails(monkeypatch, 'share_quota', {'quotas': {'shares': 1, 'gigabytes': 2 ** 31}},
                   [])
    assert failed['msg'] == (
        'Invalid quotas, nothing was changed: quotas.gigabytes is 2147483648, above the '
        'largest limit Manila can hold (2147483647); use -1 for unlimited.')


def test_a_refusal_after_a_write_reports_changed_and_what_was_written(monkeypatch):
    outcome, session = run(monkeypatch, 'share_quota', {
        'quotas': {'shares': 20, 'gigabytes': 500}}, [
        ('GET', '/v2/quota-sets/' + OWN, quota_set(shares=50, gigabytes=1000)),
        ('GET', '/v2/quota-sets/%s/detail' % OWN, ok({'quota_set': {
            'shares': detail(50, 1), 'gigabytes': detail(1000, 10)}})),
        expect('PUT', '/v2/quota-sets/' + OWN,
               ok({'badRequest': {'code': 400, 'message': 'Quota limit must be greater '
                                  'than 800.'}}, status=400),
               body={'quota_set': {'shares': 20, 'gigabytes': 500}}),
        ('GET', '/v2/quota-sets/' + OWN, quota_set(shares=20, gigabytes=1000)),
    ])
    assert isinstance(outcome, Fail)
    result = outcome.result
    assert result['changed'] is True and len(session.writes()) == 1
    assert result['quotas'] == {'shares': 20, 'gigabytes': 1000}
    assert result['accepted_writes'] == ['PUT quota-sets/%s (shares, before the refusal)' % OWN]
    assert ('Manila refused quotas.gigabytes 500 of project %s: Quota limit must be greater '
            'than 800. It had already written shares 50 -> 20' % OWN) in result['msg']


def test_a_refusal_that_wrote_nothing_stays_unchanged(monkeypatch):
    outcome, session = run(monkeypatch, 'share_quota', {'quotas': {'shares': 20}}, [
        ('GET', '/v2/quota-sets/' + OWN, quota_set(shares=50)),
        ('GET', '/v2/quota-sets/%s/detail' % OWN, ok({'quota_set': {'shares': detail(50)}})),
        ('PUT', '/v2/quota-sets/' + OWN,
         ok({'badRequest': {'code': 400, 'message': 'Quota limit must be greater than 30.'}},
            status=400)),
        ('GET', '/v2/quota-sets/' + OWN, quota_set(shares=50)),
    ])
    assert isinstance(outcome, Fail) and outcome.result.get('changed') is not True
    assert ('Manila refused quotas.shares 20 of project %s: Quota limit must be greater than '
            '30. Nothing was written.' % OWN) in outcome.result['msg']
    assert outcome.result['quotas'] == {'shares': 50}


def test_absent_on_a_project_needs_delete_user_quotas(monkeypatch):
    failed = fails(monkeypatch, 'share_quota', {'state': 'absent'}, [
        ('GET', '/v2/quota-sets/' + OWN, quota_set(shares=20)),
        ('GET', '/v2/quota-sets/%s/defaults' % OWN, quota_set(shares=50)),
    ])
    assert 'also deletes every user quota' in failed['msg']
    assert 'no listing' in failed['msg'] and 'delete_user_quotas=true' in failed['msg']


def test_absent_in_check_mode_shows_what_the_reset_deletes(monkeypatch):
    outcome, session = run(monkeypatch, 'share_quota', {
        'state': 'absent', 'delete_user_quotas': True}, [
        ('GET', '/v2/quota-sets/' + OWN, quota_set(shares=20)),
        ('GET', '/v2/quota-sets/%s/defaults' % OWN, quota_set(shares=50)),
    ], check_mode=True)
    diff = outcome.result['diff']
    assert 'kept' in diff['before'][RESET_SIDE_EFFECTS]
    assert 'usage counts and reservations deleted' in diff['after'][RESET_SIDE_EFFECTS]
    assert outcome.result['quotas'] == {'shares': 50} and session.writes() == []


def test_a_user_may_take_share_networks_and_the_encryption_keys_quota_is_set(monkeypatch):
    outcome, session = run(monkeypatch, 'share_quota', {
        'user': 'u1', 'quotas': {'share_networks': 3, 'encryption_keys': 7}}, [
        ('GET', '/v2/quota-sets/%s?user_id=u1' % OWN,
         quota_set(share_networks=10, encryption_keys=100)),
        ('GET', '/v2/quota-sets/%s/detail?user_id=u1' % OWN, ok({'quota_set': {
            'share_networks': detail(10), 'encryption_keys': detail(100)}})),
        ('GET', '/v2/quota-sets/' + OWN, quota_set(share_networks=10, encryption_keys=100)),
        expect('PUT', '/v2/quota-sets/%s?user_id=u1' % OWN,
               quota_set(share_networks=3, encryption_keys=7),
               body={'quota_set': {'share_networks': 3, 'encryption_keys': 7}}),
    ])
    assert outcome.result['quotas'] == {'share_networks': 3, 'encryption_keys': 7}
    failed = fails(monkeypatch, 'share_quota', {'quotas': {'encryption_keys': 7}}, [],
                   max_version='2.89')
    assert failed['msg'] == 'The quota encryption_keys needs Manila API 2.90; this cloud offers 2.89.'


def test_info_shows_the_encryption_keys_quota(monkeypatch):
    outcome, _session = run(monkeypatch, 'share_quota_info', {}, [
        ('GET', '/v2/quota-sets/%s/detail' % OWN, ok({'quota_set': {
            'id': OWN, 'encryption_keys': detail(100, 2)}})),
        ('GET', '/v2/quota-sets/%s/defaults' % OWN, quota_set(encryption_keys=100)),
    ], roles=('member',))
    assert outcome.result['quotas'] == {'encryption_keys': detail(100, 2)}
    assert outcome.result['defaults'] == {'encryption_keys': 100}


def test_the_limits_docs_give_the_versions_manila_gives():
    import yaml
    returned = yaml.safe_load(share_limits_info.RETURN)['limits']['description'][0]
    assert 'replica limits 2.53' in returned and 'share group limits 2.58' in returned
    options = yaml.safe_load(share_quota.DOCUMENTATION)['options']
    assert 'takes every quota name, C(share_networks) too' in ' '.join(
        options['user']['description'])
