# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fleet module (openkeel.manila.shares) on recorded HTTP, one request at a
time (concurrency 1), for what the local cloud cannot show exactly: the request
sequence of a no-op, what check mode leaves out, a quota refusal among good
shares, a share whose access_rules_status was already error."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Exit,
    Fail,
    patch_module_args,
)

from ansible_collections.openkeel.manila.plugins.modules import shares as fleet_module
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.recorded_http import (
    RecordedResponse,
    make_client,
)

LISTING = '/v2/shares/detail?limit=1000&offset=0'
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
    return ('GET', LISTING, RecordedResponse(200, {'shares': list(shares)}))


def rules_of(n, *rules):
    return ('GET', '/v2/share-access-rules?share_id=%s' % uuid(n),
            RecordedResponse(200, {'access_list': list(rules)}))


def exports_of(n):
    return ('GET', '/v2/shares/%s/export_locations' % uuid(n), RecordedResponse(200, {
        'export_locations': [{'path': '10.0.0.2:/s%d' % n, 'preferred': False},
                             {'path': '10.0.0.1:/s%d' % n, 'preferred': True}]}))


def run(monkeypatch, args, exchanges, check_mode=False, max_version='2.99'):
    client, session = make_client(exchanges, max_version=max_version, check_mode=check_mode)
    monkeypatch.setattr(fleet_module.SharesModule, '_connect', lambda self: client)
    args = dict(args, concurrency=1)
    if check_mode:
        args['_ansible_check_mode'] = True
    with patch_module_args(args):
        with pytest.raises(Exit) as outcome:
            fleet_module.main()
    return outcome.value, session


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
        rules_of(1, rule(1, '10.0.1.0/24', level='ro'), rule(1, '10.9.9.9')), exports_of(1),
        ('GET', '/v2/shares/detail?is_soft_deleted=true&limit=1000&offset=0',
         RecordedResponse(200, {'shares': []})),
        ('GET', '/v2/types/default', RecordedResponse(200, {'share_type': {'id': uuid(900)}})),
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
        ('GET', '/v2/shares/detail?is_soft_deleted=true&limit=1000&offset=0',
         RecordedResponse(200, {'shares': []})),
        ('GET', '/v2/types/default', RecordedResponse(200, {'share_type': {'id': uuid(900)}})),
        ('POST', '/v2/shares', RecordedResponse(413, {'overLimit': {
            'code': 413, 'message': 'ShareLimitExceeded: Maximum number of shares allowed (1) exceeded'}})),
        ('POST', '/v2/shares', RecordedResponse(200, {'share': created})),
        listing(created),
        listing(dict(created, status='available')),
        # no other task made a share of this name meanwhile (settle_namesakes)
        ('GET', '/v2/shares/detail?name=data2', RecordedResponse(200, {'shares': [
            dict(created, status='available')]})),
        ('POST', '/v2/shares/%s/action' % uuid(2), RecordedResponse(200, {'access': rule(2, '10.0.2.0/24', state='queued_to_apply')})),
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
        ('GET', '/v2/shares/detail?is_soft_deleted=true&limit=1000&offset=0',
         RecordedResponse(200, {'shares': []})),
        ('POST', '/v2/shares', RecordedResponse(200, {'share': created})),
        listing(dict(created, status='error')),
        ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % uuid(1),
         RecordedResponse(200, {'messages': [{'user_message': 'allocate host: No storage could be allocated.'}]})),
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
        ('POST', '/v2/shares/%s/action' % uuid(1), RecordedResponse(200, {'access': rule(1, '10.0.5.0/24', state='queued_to_apply')})),
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
    assert len(session.calls) == 1  # the versions document of the recorded client only


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
    ], check_mode=True)
    assert isinstance(outcome, Fail)
    assert uuid(1) in outcome.result['msg'] and uuid(2) in outcome.result['msg']
    assert outcome.result['purged'] == []


def test_a_share_by_id_outside_the_listing_is_read_by_id_and_reported(monkeypatch):
    elsewhere = share(5, name='theirs', status='error')
    outcome, session = run(monkeypatch, {'shares': [{'id': uuid(5)}]}, [
        listing(),
        ('GET', '/v2/shares/' + uuid(5), RecordedResponse(200, {'share': elsewhere})),
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
        ('GET', '/v2/shares/detail?is_soft_deleted=true&limit=1000&offset=0',
         RecordedResponse(200, {'shares': []})),
        ('POST', '/v2/shares', RecordedResponse(200, {'share': mine})),
        listing(older, dict(mine, status='available')),
        # settle_namesakes: the other task's share is older, this one goes
        ('GET', '/v2/shares/detail?name=data2', RecordedResponse(200, {'shares': [
            older, dict(mine, status='available')]})),
        ('DELETE', '/v2/shares/' + uuid(2), RecordedResponse(202)),
        ('GET', '/v2/shares/' + uuid(2), RecordedResponse(404, {'itemNotFound': {
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
        ('POST', '/v2/shares/%s/action' % uuid(1), RecordedResponse(200, {'access': dict(
            mine, state='queued_to_apply')})),
        listing(share(1)),
        # settle_twins: another task allowed the same target a moment earlier
        rules_of(1, older, mine),
        ('POST', '/v2/shares/%s/action' % uuid(1), RecordedResponse(202)),
        rules_of(1, older),
    ])
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert session.bodies('POST')[1] == {'deny_access': {'access_id': mine['id']}}
    rules = result['shares'][0]['rules']
    assert [r['id'] for r in rules] == [older['id']]
    assert 'access_key' not in rules[0]
    assert 'Another task allowed access rule ip:10.0.1.0/24' in result['warnings'][0]


def test_a_blank_metadata_value_fails_before_any_request(monkeypatch):
    # Before: Manila refused it only once the share was created or changed.
    outcome, session = run(monkeypatch, {'shares': [entry(1, metadata={'a': ''}),
                                                    entry(2, metadata={'b': 1})]}, [])
    assert isinstance(outcome, Fail)
    assert "shares[0] (data1): metadata: key 'a' has an empty value" in outcome.result['msg']
    assert len(session.calls) == 1  # the versions document of the recorded client only
