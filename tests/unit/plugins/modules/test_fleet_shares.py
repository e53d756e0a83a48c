# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fleet module (openkeel.manila.shares) on scripted HTTP, one request at a
time (concurrency 1), for what the local cloud cannot show exactly: the request
sequence of a no-op, what check mode leaves out, a quota refusal among good
shares, a share whose access_rules_status was already error."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import threading

from keystoneauth1 import access as ksa_access
from keystoneauth1 import exceptions as ksa_exc
from keystoneauth1.identity import base as ksa_identity

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Fail,
    run_module,
    run_scripted,
)

from ansible_collections.openkeel.manila.plugins.modules import shares as fleet_module
from ansible_collections.openkeel.manila.plugins.module_utils.client import ManilaClient
from ansible_collections.openkeel.manila.plugins.module_utils.fleet import Fleet
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    FakeClock,
    ScriptedResponse,
    ScriptedSession,
    share_locks,
    versions_exchange,
)

LISTING = '/v2/shares/detail?with_count=true&limit=1000&offset=0'
MARKER = {'key': 'owner', 'value': 'repo'}


def uuid(n):
    return '%08d-0000-4000-8000-000000000000' % n


def share(n, name=None, **fields):
    view = {'id': uuid(n), 'name': name or 'data%d' % n, 'size': 1, 'share_proto': 'NFS',
            'status': 'available', 'share_type': uuid(900), 'share_type_name': 'default',
            'share_network_id': None, 'availability_zone': 'nova', 'snapshot_id': None,
            'is_public': False, 'metadata': {'owner': 'repo'}, 'description': None,
            'access_rules_status': 'active', 'is_soft_deleted': False}
    view.update(fields)
    return view


def rule(n, target, level='rw', state='active'):
    return {'id': 'r%d-%s' % (n, target), 'access_type': 'ip', 'access_to': target,
            'access_level': level, 'state': state, 'access_key': None, 'metadata': {}}


def listing(*shares):
    return ('GET', LISTING, ScriptedResponse(200, {'shares': list(shares), 'count': len(shares)}))


def rules_of(n, *rules):
    return ('GET', '/v2/share-access-rules?share_id=%s' % uuid(n),
            ScriptedResponse(200, {'access_list': list(rules)}))


def exports_of(n):
    return ('GET', '/v2/shares/%s/export_locations' % uuid(n), ScriptedResponse(200, {
        'export_locations': [{'path': '10.0.0.2:/s%d' % n, 'preferred': False},
                             {'path': '10.0.0.1:/s%d' % n, 'preferred': True}]}))


def run(monkeypatch, args, exchanges, check_mode=False, max_version='2.99'):
    return run_scripted(monkeypatch, fleet_module, dict(args, concurrency=1), exchanges,
                        max_version=max_version, check_mode=check_mode)


def entry(n, **fields):
    item = {'name': 'data%d' % n, 'size': 1, 'share_proto': 'NFS',
            'access_rules': [{'access_type': 'ip', 'access_to': '10.0.%d.0/24' % n}]}
    item.update(fields)
    return item


def test_a_no_op_is_one_listing_then_rules_and_exports_per_share(monkeypatch):
    existing = [share(n) for n in (1, 2, 3)]
    outcome, session = run(monkeypatch, {'shares': [entry(n) for n in (1, 2, 3)], 'marker': MARKER}, [
        listing(*existing),
        rules_of(1, rule(1, '10.0.1.0/24')), exports_of(1),
        rules_of(2, rule(2, '10.0.2.0/24')), exports_of(2),
        rules_of(3, rule(3, '10.0.3.0/24')), exports_of(3),
    ])
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert result['changed'] is False
    # 2 x N + 2: versions document, one listing, rules and exports of each share
    assert len(session.calls) == 2 * 3 + 2
    assert result['manila_requests'] == len(session.calls)
    assert result['concurrency'] == 1
    assert result['pace'] == dict(final=1, lowest=1, lowered=0, raised=0, held=0)
    assert [r['name'] for r in result['shares']] == ['data1', 'data2', 'data3']
    assert result['shares'][0]['export_paths'] == ['10.0.0.1:/s1', '10.0.0.2:/s1']
    assert result['shares'][0]['rules'][0]['access_to'] == '10.0.1.0/24'
    assert result['purged'] == []


def test_check_mode_plans_create_update_rules_and_purge_without_writing(monkeypatch):
    unmarked = share(7, name='handmade', metadata={})
    leftover = share(8, name='old')
    outcome, session = run(monkeypatch, {
        'shares': [entry(1, size=2), entry(2)], 'marker': MARKER, 'purge': True,
        'purge_rules': True}, [
        listing(share(1, metadata={}), unmarked, leftover),
        share_locks(),
        rules_of(1, rule(1, '10.0.1.0/24', level='ro'), rule(1, '10.9.9.9')), exports_of(1),
        ('GET', '/v2/shares/detail?is_soft_deleted=true&with_count=true&limit=1000&offset=0',
         ScriptedResponse(200, {'shares': [], 'count': 0})),
        ('GET', '/v2/types/default', ScriptedResponse(200, {'share_type': {'id': uuid(900)}})),
    ], check_mode=True)
    result = outcome.result
    assert session.writes() == []
    assert result['changed'] is True
    first, second = result['shares']
    assert first['changes'] == ['resized to 2 GiB', 'metadata', 'level of ip:10.0.1.0/24 to rw',
                                'denied ip:10.9.9.9']
    assert [r['access_level'] for r in first['rules']] == ['rw']
    assert second['changes'] == ['created', 'allowed ip:10.0.2.0/24 (rw)']
    assert second['share'] == {} and second['id'] is None
    # only the marked share that the list does not name; never the unmarked one
    assert result['purged'] == [{'id': uuid(8), 'name': 'old'}]


def test_a_refused_create_fails_that_share_only_and_names_it(monkeypatch):
    created = share(2, status='creating', access_rules_status='active')
    outcome, session = run(monkeypatch, {'shares': [entry(1), entry(2)], 'timeout': 60}, [
        listing(),
        ('GET', '/v2/shares/detail?is_soft_deleted=true&with_count=true&limit=1000&offset=0',
         ScriptedResponse(200, {'shares': [], 'count': 0})),
        ('GET', '/v2/types/default', ScriptedResponse(200, {'share_type': {'id': uuid(900)}})),
        ('POST', '/v2/shares', ScriptedResponse(413, {'overLimit': {
            'code': 413, 'message': 'ShareLimitExceeded: Maximum number of shares allowed (1) exceeded'}})),
        ('POST', '/v2/shares', ScriptedResponse(200, {'share': created})),
        listing(created),
        listing(dict(created, status='available')),
        # no other task made a share of this name meanwhile (settle_namesakes)
        ('GET', '/v2/shares/detail?name=data2', ScriptedResponse(200, {'shares': [
            dict(created, status='available')]})),
        ('POST', '/v2/shares/%s/action' % uuid(2), ScriptedResponse(200, {'access': rule(2, '10.0.2.0/24', state='queued_to_apply')})),
        listing(dict(created, status='available', access_rules_status='syncing')),
        listing(dict(created, status='available')),
        rules_of(2, rule(2, '10.0.2.0/24')),
        exports_of(2),
    ])
    result = outcome.result
    assert isinstance(outcome, Fail)
    assert result['msg'].startswith('1 of 2 shares did not converge: shares[0] (data1): ')
    assert 'Maximum number of shares' in result['msg'] and 'HTTP 413' in result['msg']
    bad, good = result['shares']
    assert bad['failed'] is True and bad['changed'] is False and bad['id'] is None
    assert good['failed'] is False and good['changed'] is True
    assert good['rules'][0]['state'] == 'active' and good['export_paths'][0] == '10.0.0.1:/s2'
    assert result['changed'] is True
    assert result['manila_requests'] == len(session.calls)
    # no GET per share while waiting: every poll was the one listing
    assert not [c for c in session.calls if c.path == '/v2/shares/' + uuid(2)]


def test_a_share_going_to_error_is_named_with_manilas_reason(monkeypatch):
    created = share(1, status='creating')
    outcome, session = run(monkeypatch, {'shares': [entry(1, share_type='nowhere')]}, [
        listing(),
        ('GET', '/v2/shares/detail?is_soft_deleted=true&with_count=true&limit=1000&offset=0',
         ScriptedResponse(200, {'shares': [], 'count': 0})),
        ('POST', '/v2/shares', ScriptedResponse(200, {'share': created})),
        listing(dict(created, status='error')),
        ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % uuid(1),
         ScriptedResponse(200, {'messages': [{'user_message': 'allocate host: No storage could be allocated.'}]})),
    ])
    assert isinstance(outcome, Fail)
    message = outcome.result['shares'][0]['msg']
    assert 'went to error while waiting for available' in message
    assert 'No storage could be allocated' in message and 'state=absent' in message
    assert outcome.result['shares'][0]['id'] == uuid(1)


def test_rules_of_a_share_whose_status_was_already_error_are_read_until_active(monkeypatch):
    broken = share(1, access_rules_status='error')
    stuck = rule(1, '10.0.1.0/24', state='error')
    outcome, session = run(monkeypatch, {'shares': [entry(1, access_rules=[
        {'access_type': 'ip', 'access_to': '10.0.5.0/24'}])]}, [
        listing(broken),
        rules_of(1, stuck), exports_of(1),
        ('POST', '/v2/shares/%s/action' % uuid(1), ScriptedResponse(200, {'access': rule(1, '10.0.5.0/24', state='queued_to_apply')})),
        listing(broken),   # not syncing: the status cannot tell when the rule is done
        rules_of(1, stuck, rule(1, '10.0.5.0/24', state='applying')),
        listing(broken),
        rules_of(1, stuck, rule(1, '10.0.5.0/24', state='applying')),
        listing(broken),
        rules_of(1, stuck, rule(1, '10.0.5.0/24')),
    ])
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert [r['state'] for r in result['shares'][0]['rules']] == ['error', 'active']
    assert 'because of other rules: ip:10.0.1.0/24' in result['warnings'][0]


def test_invalid_input_fails_before_any_request_naming_every_problem(monkeypatch):
    outcome, session = run(monkeypatch, {'purge': True, 'shares': [
        entry(1), entry(1), entry(2, size=0), entry(3, metadata={'owner': 'me'})],
        'marker': MARKER}, [])
    assert isinstance(outcome, Fail)
    message = outcome.result['msg']
    assert message.startswith('Invalid shares, nothing was sent:')
    assert "shares[1] (data1) and shares[0] both give name 'data1'" in message
    assert 'shares[2] (data2): size must be at least 1' in message
    assert 'shares[3] (data3): metadata owner=me contradicts the marker owner=repo' in message
    assert len(session.calls) == 1  # the versions document of the scripted client only


def test_purge_needs_a_marker_and_rules_are_checked_before_any_write(monkeypatch):
    outcome, session = run(monkeypatch, {'purge': True, 'shares': []}, [])
    assert isinstance(outcome, Fail) and 'purge needs marker' in outcome.result['msg']
    outcome, session = run(monkeypatch, {'shares': [entry(1, access_rules=[
        {'access_type': 'ip', 'access_to': '10.0.0.5/24'}])]}, [])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'].startswith('shares[0] (data1): Invalid access rules')
    assert session.writes() == [] and len(session.calls) == 1


def test_two_shares_with_one_name_fail_that_entry_and_are_never_purged(monkeypatch):
    twin_a, twin_b = share(1, name='twin'), share(2, name='twin')
    outcome, session = run(monkeypatch, {'shares': [{'name': 'twin'}], 'marker': MARKER,
                                         'purge': True}, [
        listing(twin_a, twin_b),
        share_locks(),
    ], check_mode=True)
    assert isinstance(outcome, Fail)
    assert uuid(1) in outcome.result['msg'] and uuid(2) in outcome.result['msg']
    assert outcome.result['purged'] == []


def test_a_share_by_id_outside_the_listing_is_read_by_id_and_reported(monkeypatch):
    elsewhere = share(5, name='theirs', status='error')
    outcome, session = run(monkeypatch, {'shares': [{'id': uuid(5)}]}, [
        listing(),
        ('GET', '/v2/shares/' + uuid(5), ScriptedResponse(200, {'share': elsewhere})),
        rules_of(5, rule(5, '10.0.0.0/24')), exports_of(5),
    ], check_mode=True)
    # a share in error cannot be converged, but what it has is still returned
    assert isinstance(outcome, Fail)
    result = outcome.result['shares'][0]
    assert 'status error' in result['msg']
    assert result['rules'][0]['access_to'] == '10.0.0.0/24' and result['export_paths']


# -- races with other tasks ---------------------------------------------------------------

def test_a_create_that_lost_the_race_for_its_name_removes_its_share_and_converges(monkeypatch):
    older = share(1, name='data2', created_at='2026-01-01T10:00:00.000000')
    mine = share(2, status='creating', created_at='2026-01-01T10:00:00.300000')
    outcome, session = run(monkeypatch, {'shares': [entry(2, access_rules=None, share_type='default')]}, [
        listing(),
        ('GET', '/v2/shares/detail?is_soft_deleted=true&with_count=true&limit=1000&offset=0',
         ScriptedResponse(200, {'shares': [], 'count': 0})),
        ('POST', '/v2/shares', ScriptedResponse(200, {'share': mine})),
        listing(older, dict(mine, status='available')),
        # settle_namesakes: the other task's share is older, this one goes
        ('GET', '/v2/shares/detail?name=data2', ScriptedResponse(200, {'shares': [
            older, dict(mine, status='available')]})),
        ('DELETE', '/v2/shares/' + uuid(2), ScriptedResponse(202)),
        ('GET', '/v2/shares/' + uuid(2), ScriptedResponse(404, {'itemNotFound': {
            'code': 404, 'message': 'not found'}})),
        rules_of(1, rule(1, '10.0.1.0/24')),
        exports_of(1),
    ])
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert [c.method for c in session.writes()] == ['POST', 'DELETE']
    converged = result['shares'][0]
    assert converged['id'] == uuid(1) and converged['changed'] is True
    assert converged['export_paths'][0] == '10.0.0.1:/s1'
    assert 'Another task created share' in result['warnings'][0]


def test_a_rule_allowed_twice_at_once_is_denied_by_the_task_that_made_the_newer(monkeypatch):
    older = dict(rule(9, '10.0.1.0/24'), created_at='2026-01-01T10:00:00', access_key='cephx-secret')
    mine = dict(rule(1, '10.0.1.0/24'), created_at='2026-01-01T10:00:01', access_key='cephx-secret')
    outcome, session = run(monkeypatch, {'shares': [entry(1)]}, [
        listing(share(1)),
        rules_of(1), exports_of(1),
        ('POST', '/v2/shares/%s/action' % uuid(1), ScriptedResponse(200, {'access': dict(
            mine, state='queued_to_apply')})),
        listing(share(1)),
        # settle_twins: another task allowed the same target a moment earlier
        rules_of(1, older, mine),
        ('POST', '/v2/shares/%s/action' % uuid(1), ScriptedResponse(202)),
        rules_of(1, older),
    ])
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert session.bodies('POST')[1] == {'deny_access': {'access_id': mine['id']}}
    rules = result['shares'][0]['rules']
    assert [r['id'] for r in rules] == [older['id']]
    assert 'access_key' not in rules[0]
    assert 'Another task allowed access rule ip:10.0.1.0/24' in result['warnings'][0]


# -- a poll that fails (issue 21, item 15) --------------------------------------------------

BINNED = ('GET', '/v2/shares/detail?is_soft_deleted=true&with_count=true&limit=1000&offset=0',
          ScriptedResponse(200, {'shares': [], 'count': 0}))


def failed_poll():
    """One poll whose listing fails: the client's read and its three retries, all 500."""
    return [('GET', LISTING, ScriptedResponse(500, {'computeFault': {
        'code': 500, 'message': 'listing broke'}}))] * 4


def test_a_poll_that_fails_after_the_clients_retries_is_polled_again(monkeypatch):
    created = share(2, status='creating')
    outcome, session = run(monkeypatch, {'shares': [entry(2, access_rules=None, share_type='default')]}, [
        listing(),
        BINNED,
        ('POST', '/v2/shares', ScriptedResponse(200, {'share': created})),
    ] + failed_poll() + [
        listing(dict(created, status='available')),
        ('GET', '/v2/shares/detail?name=data2', ScriptedResponse(200, {'shares': [
            dict(created, status='available')]})),
        exports_of(2),
    ])
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert result['changed'] is True and result['shares'][0]['share']['status'] == 'available'
    assert result['manila_requests'] == len(session.calls)


def test_polls_that_keep_failing_leave_every_share_a_result_and_changed(monkeypatch):
    created = share(2, status='creating')
    outcome, session = run(monkeypatch, {'shares': [
        entry(1), entry(2, access_rules=None, share_type='default')]}, [
        listing(share(1)),
        rules_of(1, rule(1, '10.0.1.0/24')), exports_of(1),
        BINNED,
        ('POST', '/v2/shares', ScriptedResponse(200, {'share': created})),
    ] + failed_poll() * 3)
    result = outcome.result
    assert isinstance(outcome, Fail)
    assert result['changed'] is True
    unchanged, made = result['shares']
    assert unchanged['failed'] is False and unchanged['changed'] is False
    assert unchanged['export_paths'] == ['10.0.0.1:/s1', '10.0.0.2:/s1']
    assert made['failed'] is True and made['changed'] is True and made['id'] == uuid(2)
    assert made['msg'].startswith('Share data2 (%s): unknown: could not read its state (3 '
                                  'listings of the shares in a row failed): ' % uuid(2))
    assert 'listing broke' in made['msg'] and 'Run the task again' in made['msg']
    assert result['msg'].startswith('1 of 2 shares did not converge: shares[1] (data2): ')
    assert [c.method for c in session.writes()] == ['POST']


# -- Keystone: retries and token renewal like every other module (issue 21, item 16) -------

class ClockedToken(ksa_access.AccessInfoV3):
    """A token whose expiry is read on the test's clock."""

    def __init__(self, token, expires, clock):
        super(ClockedToken, self).__init__({'token': {'methods': ['password']}}, auth_token=token)
        self.expires_on_clock, self.clock = expires, clock

    def will_expire_soon(self, stale_duration=0):
        return self.clock.now + stale_duration >= self.expires_on_clock


class ScriptedKeystone(ksa_identity.BaseIdentityPlugin):
    """keystoneauth's identity plugin (its renewal of a token about to expire,
    under its lock) with Keystone's answers scripted: None issues a token
    living ``lifetime`` seconds of the test's clock, an exception is raised."""

    def __init__(self, clock, answers, lifetime):
        super(ScriptedKeystone, self).__init__(auth_url='http://127.0.0.1:5000/v3')
        self.clock, self.answers, self.lifetime = clock, list(answers), lifetime
        self.requests = 0

    def get_auth_ref(self, session, **kwargs):
        self.requests += 1
        answer = self.answers.pop(0) if self.answers else None
        if answer is not None:
            raise answer
        return ClockedToken('token-%d' % self.requests, self.clock.now + self.lifetime, self.clock)


class KeystoneSession(ScriptedSession):
    """As keystoneauth's Session.request: an authenticated request first asks
    the auth plugin for its headers (fetching or renewing the token), and
    what Keystone answers there is raised as it is."""

    def __init__(self, exchanges, auth):
        super(KeystoneSession, self).__init__(exchanges)
        self.auth = auth

    def get_auth_headers(self, auth=None):
        return (auth or self.auth).get_headers(self)

    def request(self, url, method, raise_exc=True, authenticated=True, headers=None, **kwargs):
        if authenticated:
            headers = dict(headers or {}, **self.get_auth_headers())
        return super(KeystoneSession, self).request(url, method, raise_exc=raise_exc,
                                                    authenticated=authenticated,
                                                    headers=headers, **kwargs)


def run_with_keystone(monkeypatch, args, exchanges, keystone_answers, lifetime=3600):
    clock = FakeClock()
    keystone = ScriptedKeystone(clock, keystone_answers, lifetime)
    session = KeystoneSession([versions_exchange('2.99')] + list(exchanges), keystone)
    client = ManilaClient(session, 'http://127.0.0.1:8786/v2', sleep=clock.sleep, clock=clock)
    client.negotiate()
    session.negotiated = str(client.version)
    outcome = run_module(monkeypatch, fleet_module, dict(args, concurrency=1), client)
    return outcome, session, keystone, clock


def token_of(call):
    return call.headers.get('X-Auth-Token')


def test_a_keystone_503_on_the_token_request_is_retried_as_in_every_module(monkeypatch):
    outcome, session, keystone, clock = run_with_keystone(monkeypatch, {
        'shares': [entry(1)]}, [
        listing(share(1)),
        rules_of(1, rule(1, '10.0.1.0/24')), exports_of(1),
    ], [ksa_exc.ServiceUnavailable()])
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert result['changed'] is False and result['manila_requests'] == 4
    assert keystone.requests == 2 and clock.sleeps == [0.5]
    assert set(token_of(c) for c in session.calls[1:]) == {'token-2'}


def test_a_token_that_expires_mid_run_is_renewed_and_a_keystone_503_then_retried(monkeypatch):
    """The token lives 121 s: keystoneauth renews it 120 s before it expires, so
    from the second poll on (1.25 s) it is renewed; Keystone answers that renewal
    with 503 once, and the client asks again (as it does for every module)."""
    created = share(2, status='creating')
    available = dict(created, status='available')
    outcome, session, keystone, clock = run_with_keystone(monkeypatch, {
        'shares': [entry(2, share_type='default')]}, [
        listing(),
        BINNED,
        ('POST', '/v2/shares', ScriptedResponse(200, {'share': created})),
        listing(created),                       # 0.5 s: token-1 still good
        listing(available),                     # 1.25 s: renewed (503, then token-3)
        ('GET', '/v2/shares/detail?name=data2', ScriptedResponse(200, {'shares': [available]})),
        ('POST', '/v2/shares/%s/action' % uuid(2), ScriptedResponse(200, {
            'access': rule(2, '10.0.2.0/24', state='queued_to_apply')})),
        listing(dict(available, access_rules_status='syncing')),
        listing(available),
        rules_of(2, rule(2, '10.0.2.0/24')),
        exports_of(2),
    ], [None, ksa_exc.ServiceUnavailable()], lifetime=121)
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert result['changed'] is True and result['shares'][0]['rules'][0]['state'] == 'active'
    assert keystone.requests >= 3
    tokens = [token_of(c) for c in session.calls[1:]]
    assert tokens[:4] == ['token-1'] * 4 and tokens[4] == 'token-3'
    assert 0.5 in clock.sleeps
    assert result['manila_requests'] == len(session.calls)


# -- a share another task's marker claims (issue 21, item 6) --------------------------------

def test_a_share_claimed_by_another_marker_value_is_skipped_and_never_written(monkeypatch):
    theirs = share(1, size=1, metadata={'owner': 'other-repo'})
    gone_theirs = share(3, name='old', metadata={'owner': 'other-repo'})
    for check_mode in (False, True):
        outcome, session = run(monkeypatch, {
            'shares': [entry(1, size=2, access_rules=[]), entry(2, state='absent', name='data3')],
            'marker': MARKER, 'purge': True, 'purge_rules': True}, [
            listing(theirs, share(3, name='data3', metadata={'owner': 'other-repo'}), gone_theirs),
            share_locks(),
            rules_of(1, rule(1, '10.0.1.0/24')), exports_of(1),
        ], check_mode=check_mode)
        result = outcome.result
        assert not isinstance(outcome, Fail), result
        assert session.writes() == []
        assert result['changed'] is False and result['purged'] == []
        kept, not_deleted = result['shares']
        for skipped in (kept, not_deleted):
            assert skipped['skipped'] is True and skipped['changed'] is False
            assert skipped['failed'] is False and skipped['changes'] == []
            assert 'carries the marker owner=other-repo of another task' in skipped['msg']
            assert 'owner=repo' in skipped['msg'] and 'left untouched' in skipped['msg']
        assert kept['id'] == uuid(1) and kept['share']['size'] == 1
        assert [r['access_to'] for r in kept['rules']] == ['10.0.1.0/24']
        assert not_deleted['id'] == uuid(3)
        assert len([w for w in result['warnings'] if 'of another task' in w]) == 2
        assert result['warnings'][0].startswith('shares[0] (data1): Share data1 (%s)' % uuid(1))


def test_a_share_without_the_key_is_adopted_and_one_with_this_value_converged(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1, access_rules=None),
                                                    entry(2, access_rules=None)],
                                         'marker': MARKER}, [
        listing(share(1, metadata={'team': 'x'}), share(2)),
        rules_of(1), exports_of(1), rules_of(2), exports_of(2),
        ('POST', '/v2/shares/%s/metadata' % uuid(1), ScriptedResponse(200, {'metadata': {
            'team': 'x', 'owner': 'repo'}})),
    ])
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert [r['skipped'] for r in result['shares']] == [False, False]
    assert [r['changed'] for r in result['shares']] == [True, False]
    assert session.bodies('POST') == [{'metadata': {'owner': 'repo'}}]


def test_a_blank_metadata_value_fails_before_any_request(monkeypatch):
    # Before: Manila refused it only once the share was created or changed.
    outcome, session = run(monkeypatch, {'shares': [entry(1, metadata={'a': ''}),
                                                    entry(2, metadata={'b': 1})]}, [])
    assert isinstance(outcome, Fail)
    assert "shares[0] (data1): metadata: key 'a' has an empty value" in outcome.result['msg']
    assert len(session.calls) == 1  # the versions document of the scripted client only


# -- the quota preflight (issue 22) ---------------------------------------------------------

QUOTA_DETAIL = '/v2/quota-sets/p1/detail'
TYPE_QUOTA_DETAIL = '/v2/quota-sets/p1/detail?share_type=default'


def quota_detail(shares, gigabytes):
    """A quota detail: (limit, in_use) of shares and gigabytes."""
    return ScriptedResponse(200, {'quota_set': {
        'shares': {'limit': shares[0], 'in_use': shares[1], 'reserved': 0},
        'gigabytes': {'limit': gigabytes[0], 'in_use': gigabytes[1], 'reserved': 0},
        'per_share_gigabytes': {'limit': -1, 'in_use': 0, 'reserved': 0}}})


def own_project(monkeypatch):
    monkeypatch.setattr(ManilaClient, 'token_project',
                        lambda self: {'id': 'p1', 'name': 'demo', 'roles': ['member']})


def test_a_run_that_would_exceed_the_quota_fails_before_any_write(monkeypatch):
    own_project(monkeypatch)
    outcome, session = run(monkeypatch, {'shares': [
        entry(1, size=5, share_type='default', access_rules=None),
        entry(2, size=5, share_type='default', access_rules=None)]}, [
        listing(),
        BINNED,
        ('GET', QUOTA_DETAIL, quota_detail((10, 9), (1000, 10))),
        ('GET', TYPE_QUOTA_DETAIL, quota_detail((-1, 9), (-1, 10))),
    ])
    assert isinstance(outcome, Fail)
    msg = outcome.result['msg']
    assert msg.startswith('Over quota, nothing was changed')
    assert 'this run would need 2 shares more; it has room for 1 (limit 10)' in msg
    assert session.writes() == []


def test_the_preflight_is_also_refused_in_check_mode(monkeypatch):
    own_project(monkeypatch)
    outcome, session = run(monkeypatch, {'shares': [entry(1, size=50, share_type='default',
                                                          access_rules=None)]}, [
        listing(),
        BINNED,
        ('GET', QUOTA_DETAIL, quota_detail((10, 0), (40, 0))),
        ('GET', TYPE_QUOTA_DETAIL, quota_detail((-1, 0), (-1, 0))),
    ], check_mode=True)
    assert isinstance(outcome, Fail)
    assert '50 gigabytes' in outcome.result['msg'] and session.writes() == []


def test_a_run_within_the_quota_creates(monkeypatch):
    own_project(monkeypatch)
    created = share(1, status='available', size=5)
    outcome, session = run(monkeypatch, {'shares': [entry(1, size=5, share_type='default',
                                                          access_rules=None)]}, [
        listing(),
        BINNED,
        ('GET', QUOTA_DETAIL, quota_detail((10, 1), (100, 5))),
        ('GET', TYPE_QUOTA_DETAIL, quota_detail((-1, 1), (-1, 5))),
        ('POST', '/v2/shares', ScriptedResponse(200, {'share': created})),
        listing(created),
        ('GET', '/v2/shares/detail?name=data1', ScriptedResponse(200, {'shares': [created]})),
        exports_of(1),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert [c.method for c in session.writes()] == ['POST']


def test_a_user_who_may_not_read_quotas_is_told_the_preflight_was_skipped(monkeypatch):
    own_project(monkeypatch)
    created = share(1, status='available', size=5)
    outcome, session = run(monkeypatch, {'shares': [entry(1, size=5, share_type='default',
                                                          access_rules=None)]}, [
        listing(),
        BINNED,
        ('GET', QUOTA_DETAIL, ScriptedResponse(403, {'forbidden': {'code': 403, 'message': 'no'}})),
        ('POST', '/v2/shares', ScriptedResponse(200, {'share': created})),
        listing(created),
        ('GET', '/v2/shares/detail?name=data1', ScriptedResponse(200, {'shares': [created]})),
        exports_of(1),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert any('quota preflight was skipped' in w for w in outcome.result['warnings'])


def test_creates_in_flight_never_exceed_the_room_the_preflight_lets_through(monkeypatch):
    """Fleet.check_quotas bounds the writes in flight: at concurrency 8, a run within
    the room has all its creates in flight at once, which is no more than the room;
    one create more is refused before any is sent."""
    own_project(monkeypatch)
    flight = {'now': 0, 'most': 0, 'sent': 0}
    lock = threading.Lock()
    together = threading.Barrier(3, timeout=10)

    def send_share(_fleet, item):
        """The create, counted while in flight (nothing follows it: no share, no wait)."""
        with lock:
            flight['now'] += 1
            flight['sent'] += 1
            flight['most'] = max(flight['most'], flight['now'])
        together.wait()  # only passes with three creates in flight at once
        with lock:
            flight['now'] -= 1
        item.wrote = True
    monkeypatch.setattr(Fleet, 'send_share', send_share)

    def create(count, room):
        return run_scripted(monkeypatch, fleet_module, {'concurrency': 8, 'shares': [
            entry(n, size=1, share_type='default', access_rules=None) for n in range(1, count + 1)]}, [
            listing(),
            BINNED,
            ('GET', QUOTA_DETAIL, quota_detail((10, 10 - room), (1000, 0))),
            ('GET', TYPE_QUOTA_DETAIL, quota_detail((-1, 10 - room), (-1, 0))),
        ])
    outcome, _session = create(3, room=3)
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['changed'] is True and flight == dict(now=0, most=3, sent=3)
    outcome, _session = create(4, room=3)
    assert isinstance(outcome, Fail)
    assert 'this run would need 4 shares more; it has room for 3' in outcome.result['msg']
    assert flight['sent'] == 3


def test_a_rate_limited_create_lowers_the_pace_and_the_next_job_raises_it_again(monkeypatch):
    created = share(1)
    outcome, session = run_scripted(monkeypatch, fleet_module, {'concurrency': 2, 'shares': [
        entry(1, share_type='default', access_rules=None)]}, [
        listing(),
        BINNED,
        ('POST', '/v2/shares', ScriptedResponse(429, {}, {'Retry-After': '2'})),
        ('POST', '/v2/shares', ScriptedResponse(202, {'share': created})),
        listing(created),
        ('GET', '/v2/shares/detail?name=data1', ScriptedResponse(200, {'shares': [created]})),
        exports_of(1),
    ])
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    # the create ended lowered (2 -> 1); the next job (settle_created) was a round at 1
    assert result['concurrency'] == 2
    assert result['pace'] == dict(final=2, lowest=1, lowered=1, raised=1, held=0)
    assert "it lowered the requests it sends at once to 1 (concurrency 2)" in ' '.join(
        result['warnings'])
    assert [c.method for c in session.writes()] == ['POST', 'POST']


# -- delete locks (deletion_lock, API 2.81; issue 24) ---------------------------------

def lock_of(n, reason='payroll', lock_id=None):
    return {'id': lock_id or 'lock-%d' % n, 'resource_id': uuid(n), 'resource_type': 'share',
            'resource_action': 'delete', 'lock_reason': reason, 'user_id': 'u1',
            'project_id': 'p1', 'lock_context': 'user', 'created_at': '2026-12-01T10:00:00'}


def test_a_lock_per_share_costs_one_listing_and_is_sent_once(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [
        entry(1, deletion_lock=True, lock_reason='keep', access_rules=None),
        entry(2, deletion_lock=True, access_rules=None)]}, [
        listing(share(1), share(2)),
        share_locks(None, lock_of(2)),
        rules_of(1), exports_of(1), rules_of(2), exports_of(2),
        ('POST', '/v2/resource-locks', ScriptedResponse(200, {'resource_lock': lock_of(1, 'keep')})),
    ])
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert session.bodies('POST') == [{'resource_lock': {
        'resource_id': uuid(1), 'resource_type': 'share', 'resource_action': 'delete',
        'lock_reason': 'keep'}}]
    first, second = result['shares']
    assert first['changes'] == ['locked against deletion'] and first['changed'] is True
    assert second['changed'] is False
    assert [x['id'] for x in first['deletion_locks']] == ['lock-1']
    assert [x['id'] for x in second['deletion_locks']] == ['lock-2']


def test_lock_in_check_mode_writes_nothing_and_diffs(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1, deletion_lock=True, access_rules=None)],
                                         '_ansible_diff': True}, [
        listing(share(1)), share_locks(), rules_of(1), exports_of(1)], check_mode=True)
    assert outcome.result['changed'] is True and session.writes() == []
    diff = outcome.result['diff']
    assert diff['before']['shares[0] (data1)']['deletion_lock'] is False
    assert diff['after']['shares[0] (data1)']['deletion_lock'] is True


def test_absent_on_a_locked_share_fails_that_share_only_naming_the_lock(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [
        entry(1, state='absent'), entry(2, state='absent')]}, [
        listing(share(1), share(2)),
        share_locks(None, lock_of(1)),
        ('DELETE', '/v2/shares/' + uuid(2), ScriptedResponse(202)),
        listing(share(1)),
    ])
    assert isinstance(outcome, Fail)
    msg = outcome.result['msg']
    assert '1 of 2 shares did not converge' in msg
    assert 'lock-1' in msg and "'payroll'" in msg and 'u1' in msg and 'p1' in msg
    assert [c.path for c in session.writes()] == ['/v2/shares/' + uuid(2)]


def test_absent_with_deletion_lock_false_lifts_then_deletes(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [
        entry(1, state='absent', deletion_lock=False)]}, [
        listing(share(1)),
        share_locks(None, lock_of(1)),
        # the deletion first, while the lock holds: Manila names every lock (issue 36)
        ('DELETE', '/v2/shares/' + uuid(1), locked_by('lock-1')),
        ('DELETE', '/v2/resource-locks/lock-1', ScriptedResponse(204)),
        ('DELETE', '/v2/shares/' + uuid(1), ScriptedResponse(202)),
        listing(),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert [c.path for c in session.writes()] == [
        '/v2/shares/' + uuid(1), '/v2/resource-locks/lock-1', '/v2/shares/' + uuid(1)]
    assert outcome.result['shares'][0]['changes'] == ['deletion lock lifted', 'deleted']


def test_purge_keeps_a_locked_share_and_lists_it(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1, access_rules=None)], 'marker': MARKER,
                                         'purge': True}, [
        listing(share(1), share(2, name='locked'), share(3, name='old')),
        share_locks(None, lock_of(2)),
        rules_of(1), exports_of(1),
        ('DELETE', '/v2/shares/' + uuid(3), ScriptedResponse(202)),
        listing(share(1), share(2, name='locked')),
    ])
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert result['purged'] == [{'id': uuid(3), 'name': 'old'}]
    assert [(k['id'], k['name']) for k in result['kept_locked']] == [(uuid(2), 'locked')]
    assert result['kept_locked'][0]['deletion_locks'][0]['id'] == 'lock-2'
    assert any('purge kept' in w and uuid(2) in w for w in result['warnings'])
    assert [c.path for c in session.writes()] == ['/v2/shares/' + uuid(3)]


def test_deletion_lock_on_an_older_cloud_is_refused_before_any_request(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1, deletion_lock=True)]}, [],
                           max_version='2.80')
    assert isinstance(outcome, Fail)
    assert 'shares[].deletion_lock needs Manila API 2.81; this cloud offers 2.80' in outcome.result['msg']
    assert session.requests() == ['GET /']


def test_bad_lock_input_of_the_fleet_sends_nothing(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [
        entry(1, lock_reason='x'), entry(2, state='absent', deletion_lock=True)]}, [])
    assert isinstance(outcome, Fail)
    assert 'shares[0] (data1): lock_reason only applies with deletion_lock=true' in outcome.result['msg']
    assert 'shares[1] (data2): deletion_lock=true contradicts state=absent' in outcome.result['msg']
    assert session.requests() == ['GET /']


def others(count):
    """``count`` shares of the project that the task does not name."""
    return [share(100 + n, name='other%d' % n) for n in range(count)]


def create_then_poll(monkeypatch, project, poll):
    """A create of data1 in a project of ``project`` other shares, whose one
    poll is ``poll`` (the created share answers 'available')."""
    created = share(1, status='creating')
    return run(monkeypatch, {'shares': [entry(1, share_type='default', access_rules=None)]}, [
        listing(*project),
        BINNED,
        ('POST', '/v2/shares', ScriptedResponse(200, {'share': created})),
        poll(dict(created, status='available')),
        ('GET', '/v2/shares/detail?name=data1', ScriptedResponse(200, {'shares': [created]})),
        exports_of(1),
    ])


def test_a_poll_in_a_large_project_reads_the_waiting_share_by_id(monkeypatch):
    # one waiting share beside a listing of 25 (SHARES_PER_GET): a GET costs Manila less
    outcome, session = create_then_poll(monkeypatch, others(25), lambda ready: (
        'GET', '/v2/shares/%s' % uuid(1), ScriptedResponse(200, {'share': ready})))
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['shares'][0]['changed'] and not outcome.result['shares'][0]['failed']
    assert [c.path for c in session.calls].count(LISTING) == 1


def test_a_poll_in_a_small_project_reads_the_listing(monkeypatch):
    project = others(24)
    outcome, session = create_then_poll(monkeypatch, project, lambda ready: listing(*(project + [ready])))
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['shares'][0]['changed'] and not outcome.result['shares'][0]['failed']
    assert [c.path for c in session.calls].count(LISTING) == 2


def test_a_share_gone_while_polled_by_id_fails_as_gone(monkeypatch):
    created = share(1, status='creating')
    outcome, session = run(monkeypatch, {'shares': [entry(1, share_type='default', access_rules=None)]}, [
        listing(*others(30)),
        BINNED,
        ('POST', '/v2/shares', ScriptedResponse(200, {'share': created})),
        ('GET', '/v2/shares/%s' % uuid(1), ScriptedResponse(404, {'itemNotFound': {
            'code': 404, 'message': 'Share %s could not be found.' % uuid(1)}})),
    ])
    assert isinstance(outcome, Fail)
    assert 'disappeared while waiting for available' in outcome.result['shares'][0]['msg']


def two_rules(n):
    return entry(n, access_rules=[{'access_type': 'ip', 'access_to': '10.0.%d.0/24' % n},
                                  {'access_type': 'ip', 'access_to': '10.1.%d.0/24' % n}])


def allowed(n, target):
    return ('POST', '/v2/shares/%s/action' % uuid(n),
            ScriptedResponse(200, {'access': rule(n, target, state='queued_to_apply')}))


def test_a_shares_second_rule_waits_in_the_poll_loop_while_the_job_serves_another_share(monkeypatch):
    # Manila may lose a rule change that reaches it during another: the second
    # rule of a share goes once the share's access_rules_status has settled. That
    # wait is a step of the poll loop, so the one job place (concurrency 1) goes to
    # the other share meanwhile, and one listing serves both waits.
    one, two = share(1), share(2)
    syncing = dict(access_rules_status='syncing')
    outcome, session = run(monkeypatch, {'shares': [two_rules(1), two_rules(2)]}, [
        listing(one, two),
        rules_of(1), exports_of(1), rules_of(2), exports_of(2),
        allowed(1, '10.0.1.0/24'),
        allowed(2, '10.0.2.0/24'),
        listing(dict(one, **syncing), dict(two, **syncing)),
        listing(one, two),
        allowed(1, '10.1.1.0/24'),
        allowed(2, '10.1.2.0/24'),
        listing(one, dict(two, **syncing)),
        rules_of(1, rule(1, '10.0.1.0/24'), rule(1, '10.1.1.0/24')),
        listing(one, two),
        rules_of(2, rule(2, '10.0.2.0/24'), rule(2, '10.1.2.0/24')),
    ])
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert [r['changed'] for r in result['shares']] == [True, True]
    assert [[r['access_to'] for r in s['rules']] for s in result['shares']] == [
        ['10.0.1.0/24', '10.1.1.0/24'], ['10.0.2.0/24', '10.1.2.0/24']]
    # no read of one share inside a job: every wait was a poll of the one listing
    assert not [c for c in session.calls if c.path in ('/v2/shares/' + uuid(1), '/v2/shares/' + uuid(2))]


def test_a_rule_to_replace_is_allowed_again_once_its_denial_has_settled_without_wait(monkeypatch):
    # wait=false: no wait after the last write, but the new rule of a replaced one
    # still goes only once Manila is done with the denial of the old one.
    old = rule(1, '10.0.1.0/24', level='ro')
    outcome, session = run(monkeypatch, {'wait': False, 'shares': [entry(1, access_rules=[
        {'access_type': 'ip', 'access_to': '10.0.1.0/24', 'access_level': 'rw'}])]}, [
        listing(share(1)),
        rules_of(1, old), exports_of(1),
        ('POST', '/v2/shares/%s/action' % uuid(1), ScriptedResponse(202)),
        listing(share(1, access_rules_status='syncing')),
        listing(share(1)),
        allowed(1, '10.0.1.0/24'),
        rules_of(1, rule(1, '10.0.1.0/24', state='queued_to_apply')),
    ], max_version='2.87')
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert [list(b) for b in session.bodies('POST')] == [['deny_access'], ['allow_access']]


# -- locks this user cannot list (issue 36) --------------------------------------------
# Manila lists a member's own project's locks only, but refuses a deletion for the
# locks of every project, naming them all, before any other check of the deletion.

def locked_by(*ids):
    """Manila's 403 to a share's deletion that delete locks hold."""
    return ScriptedResponse(403, {'forbidden': {'code': 403, 'message': (
        'Resource lock/s [%s] prevent delete action.' % ', '.join(ids))}})


def test_purge_keeps_a_share_locked_by_a_lock_it_cannot_list(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1, access_rules=None)], 'marker': MARKER,
                                         'purge': True}, [
        listing(share(1), share(3, name='old')),
        share_locks(),
        rules_of(1), exports_of(1),
        ('DELETE', '/v2/shares/' + uuid(3), locked_by('hidden-3')),
    ])
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert result['changed'] is False and result['purged'] == []
    assert [(k['id'], k['name']) for k in result['kept_locked']] == [(uuid(3), 'old')]
    assert [x['id'] for x in result['kept_locked'][0]['deletion_locks']] == ['hidden-3']
    assert any('purge kept' in w and 'hidden-3' in w for w in result['warnings'])


def test_absent_keeps_a_share_locked_by_a_lock_it_cannot_list(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(2, state='absent')]}, [
        listing(share(2)),
        share_locks(),
        ('DELETE', '/v2/shares/' + uuid(2), locked_by('hidden-2')),
    ])
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert result['changed'] is False
    kept = result['shares'][0]
    assert kept['failed'] is False and kept['skipped'] is True and kept['changed'] is False
    assert 'hidden-2' in kept['msg'] and 'cannot see' in kept['msg']
    assert kept['share']['id'] == uuid(2)
    assert [x['id'] for x in kept['deletion_locks']] == ['hidden-2']
    assert [k['id'] for k in result['kept_locked']] == [uuid(2)]


def test_absent_lifting_sends_the_deletion_first_and_lifts_nothing_for_a_lock_it_cannot_list(
        monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1, state='absent', deletion_lock=False)]}, [
        listing(share(1)),
        share_locks(None, lock_of(1)),
        ('DELETE', '/v2/shares/' + uuid(1), locked_by('lock-1', 'hidden-1')),
    ])
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert [c.path for c in session.writes()] == ['/v2/shares/' + uuid(1)]
    assert result['changed'] is False
    assert [x['id'] for x in result['kept_locked'][0]['deletion_locks']] == ['lock-1', 'hidden-1']
    assert result['shares'][0]['skipped'] is True
