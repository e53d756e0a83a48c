# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""share_replica and share_replica_info on scripted HTTP: the exact requests of a create
below 2.56 (every replica request with the experimental header), check mode (reads only),
a promotion that is already done, and the gates that refuse before any write."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Fail,
    run_scripted,
)

from ansible_collections.openkeel.manila.plugins.modules import share_capabilities_info
from ansible_collections.openkeel.manila.plugins.modules import share_replica
from ansible_collections.openkeel.manila.plugins.modules import share_replica_info
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    expect,
)

SHARE_ID = '11111111-2222-3333-4444-555555555555'
SHARE = {'id': SHARE_ID, 'name': 'data', 'status': 'available', 'replication_type': 'readable',
         'share_type_name': 'replicated-readable'}
ACTIVE = {'id': 'r1', 'share_id': SHARE_ID, 'status': 'available', 'replica_state': 'active',
          'availability_zone': 'nova', 'created_at': '2026-12-01T10:00:00'}
NEW = {'id': 'r2', 'share_id': SHARE_ID, 'status': 'creating', 'replica_state': 'out_of_sync',
       'availability_zone': 'nova', 'created_at': '2026-12-01T11:00:00'}
READY = dict(NEW, status='available', replica_state='in_sync')
BY_NAME = ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [SHARE]}))
LIST = '/v2/share-replicas/detail?share_id=' + SHARE_ID


def replicas(*items, **checks):
    return expect('GET', LIST, ScriptedResponse(200, {'share_replicas': list(items)}), **checks)


def run(monkeypatch, module, args, exchanges, max_version='2.99', check_mode=False):
    return run_scripted(monkeypatch, module, args, exchanges, max_version=max_version,
                        check_mode=check_mode)


def test_a_replica_below_2_56_every_replica_request_experimental(monkeypatch):
    exp = dict(experimental=True)
    result, session = run(monkeypatch, share_replica, {'share': 'data'}, [
        BY_NAME,
        replicas(ACTIVE, **exp),
        replicas(ACTIVE, **exp),
        expect('POST', '/v2/share-replicas', ScriptedResponse(202, {'share_replica': NEW}),
               body={'share_replica': {'share_id': SHARE_ID}}, **exp),
        expect('GET', '/v2/share-replicas/r2', ScriptedResponse(200, {'share_replica': READY}),
               **exp),
        expect('GET', '/v2/share-replicas/r2/export-locations', ScriptedResponse(
            200, {'export_locations': [{'path': '10.0.0.2:/r2'}]}), **exp),
        replicas(ACTIVE, READY, **exp),
    ], max_version='2.55')
    assert result.result['changed'] is True
    assert result.result['replica']['replica_state'] == 'in_sync'
    assert result.result['replica']['export_locations'] == [{'path': '10.0.0.2:/r2'}]
    assert result.result['api_version'] == '2.55'


def test_check_mode_reads_only_and_predicts_the_change(monkeypatch):
    result, session = run(monkeypatch, share_replica, {'share': 'data', '_ansible_diff': True}, [
        BY_NAME, replicas(ACTIVE),
    ], check_mode=True)
    assert result.result['changed'] is True
    assert session.writes() == []
    assert [r['replica_state'] for r in result.result['diff']['after']['replicas']] == [
        'active', 'in_sync']


def test_a_promotion_already_done_is_ok_with_reads_only(monkeypatch):
    result, session = run(monkeypatch, share_replica,
                          {'share': 'data', 'id': 'r1', 'state': 'active'}, [
                              BY_NAME, replicas(ACTIVE, READY),
                              ('GET', '/v2/share-replicas/r1/export-locations',
                               ScriptedResponse(200, {'export_locations': []})),
                          ])
    assert result.result['changed'] is False
    assert session.writes() == []


@pytest.mark.parametrize('args, version, words', [
    ({'share': 'data', 'share_network': 'net'}, '2.71', 'share_network for a replica needs Manila API 2.72'),
    ({'share': 'data', 'id': 'r2', 'state': 'active', 'quiesce_wait_time': 5}, '2.74',
     'quiesce_wait_time needs Manila API 2.75'),
])
def test_gates_refuse_before_any_request(monkeypatch, args, version, words):
    outcome, session = run_scripted(monkeypatch, share_replica, args, [], max_version=version,
                                    expect=Fail)
    assert words in outcome.result['msg']
    assert session.requests() == ['GET /']


def test_info_active_first_with_export_locations(monkeypatch):
    result, session = run(monkeypatch, share_replica_info, {'share': 'data'}, [
        BY_NAME, replicas(READY, ACTIVE),
        ('GET', '/v2/share-replicas/r1/export-locations',
         ScriptedResponse(200, {'export_locations': [{'path': 'a'}]})),
        ('GET', '/v2/share-replicas/r2/export-locations',
         ScriptedResponse(200, {'export_locations': [{'path': 'b'}]})),
    ])
    assert [r['id'] for r in result.result['replicas']] == ['r1', 'r2']
    assert result.result['replicas'][1]['export_locations'] == [{'path': 'b'}]


# -- share_capabilities_info: the replication verdict (pure) ------------------------

def caps_type(name, replication=None, **specs):
    extra = dict(specs)
    if replication:
        extra['replication_type'] = replication
    return share_capabilities_info.type_view({'id': name, 'name': name, 'extra_specs': extra})


def caps_pool(name, replication=None):
    caps = {'replication_type': replication} if replication else {}
    return share_capabilities_info.pool_view({'name': name, 'capabilities': caps})


@pytest.mark.parametrize('types, pools, visible, only, supported, words', [
    ([caps_type('plain')], [caps_pool('p', 'readable')], True, None, False,
     'no share type has a replication_type'),
    ([caps_type('plain')], [], False, 'plain', False, 'share type plain has no replication_type'),
    ([caps_type('dr', 'dr')], [caps_pool('p', 'readable')], True, None, False,
     'no pool reports it'),
    ([caps_type('ro', 'readable')], [caps_pool('p', 'readable')], True, None, True, None),
    # a member sees no pools: the types decide
    ([caps_type('dr', 'dr')], [], False, None, True, None),
])
def test_replication_verdict(types, pools, visible, only, supported, words):
    verdict = share_capabilities_info.replication_summary(types, pools, visible, only)
    assert verdict['supported'] is supported
    if words:
        assert words in verdict['reason']


def test_type_flags_are_booleans():
    view = caps_type('t', snapshot_support='True', revert_to_snapshot_support='<is> False',
                     driver_handles_share_servers='false')
    assert (view['snapshot_support'], view['revert_to_snapshot_support'],
            view['driver_handles_share_servers'], view['mount_snapshot_support']) == (
                True, False, False, None)


def test_a_promotion_that_fails_returns_the_replica_as_last_read(monkeypatch):
    failed = dict(READY, status='error', replica_state='error')
    outcome, session = run_scripted(monkeypatch, share_replica,
                                    {'share': 'data', 'id': 'r2', 'state': 'active'}, [
                                        BY_NAME, replicas(ACTIVE, READY),
                                        ('POST', '/v2/share-replicas/r2/action',
                                         ScriptedResponse(202)),
                                        replicas(ACTIVE, failed),
                                        ('GET', '/v2/messages?resource_id=r2&sort_key=created_at'
                                         '&sort_dir=desc&limit=3',
                                         ScriptedResponse(200, {'messages': []})),
                                    ], expect=Fail)
    assert 'error' in outcome.result['msg']
    # The replica as the wait last read it (issue 36), not as it was before the promotion.
    assert outcome.result['replica']['status'] == 'error'
    assert outcome.result['replica']['replica_state'] == 'error'
    assert outcome.result['changed'] is True


@pytest.mark.parametrize('reported, asked, supported', [
    (['readable', 'dr'], 'dr', True),        # NetApp reports a list: any of them matches
    (['readable', 'dr'], 'writable', False),
    ('readable', 'readable', True),
])
def test_a_pool_may_report_several_replication_types(reported, asked, supported):
    """Manila's scheduler matches a type's replication_type against each value of a list
    capability (scheduler/utils.py capabilities_satisfied); a list is no TypeError."""
    verdict = share_capabilities_info.replication_summary(
        [caps_type('t', asked)], [caps_pool('p', reported)], True, None)
    assert verdict['supported'] is supported
    if not supported:
        assert 'pools report: dr, readable' in verdict['reason']


def test_capabilities_task_with_a_pool_of_several_replication_types(monkeypatch):
    """The failover role's first step on a NetApp-like cloud: require_replication passes."""
    pools = {'pools': [{'name': 'h@b#p', 'capabilities': {
        'replication_type': ['dr', 'readable'], 'replication_domain': 'x'}}]}
    types = {'share_types': [{'id': 't1', 'name': 'rep',
                              'extra_specs': {'replication_type': 'dr'}}]}
    result, session = run(monkeypatch, share_capabilities_info, {'require_replication': True}, [
        ('GET', '/v2/types?is_public=all', ScriptedResponse(200, types)),
        ('GET', '/v2/scheduler-stats/pools/detail', ScriptedResponse(200, pools)),
    ])
    assert result.result['replication'] == {'supported': True, 'types': ['rep'], 'reason': None}
    assert result.result['pools'][0]['replication_type'] == ['dr', 'readable']


def test_a_promotion_that_succeeded_beside_a_replica_in_error_is_a_success(monkeypatch):
    """Issue 36: another replica of the share in error does not fail the promotion
    (nor, through it, the failover role); the task says so in a warning."""
    broken = dict(READY, id='r3', status='error', replica_state='error',
                  created_at='2026-12-01T12:00:00')
    promoted = dict(READY, replica_state='active')
    after = [dict(ACTIVE, replica_state='in_sync'), promoted, broken]
    result, session = run(monkeypatch, share_replica,
                          {'share': 'data', 'id': 'r2', 'state': 'active'}, [
                              BY_NAME, replicas(ACTIVE, READY, broken),
                              expect('POST', '/v2/share-replicas/r2/action',
                                     ScriptedResponse(202, None), body={'promote': None}),
                              replicas(ACTIVE, dict(READY, status='replication_change'), broken),
                              replicas(*after),
                              ('GET', '/v2/share-replicas/r2',
                               ScriptedResponse(200, {'share_replica': promoted})),
                              ('GET', '/v2/share-replicas/r2/export-locations',
                               ScriptedResponse(200, {'export_locations': []})),
                              replicas(*after),
                          ])
    assert result.result['changed'] is True
    assert result.result['replica']['replica_state'] == 'active'
    assert any('r3' in w and 'error' in w for w in result.result['warnings'])


OUT_OF_SYNC = dict(READY, replica_state='out_of_sync')


@pytest.mark.parametrize('check_mode', [True, False])
def test_a_members_promotion_of_an_out_of_sync_replica_fails_before_any_write(
        monkeypatch, check_mode):
    """Manila answers a member's promotion of an out_of_sync replica with 403
    (share/api.py): check mode fails as the real run does, and neither writes."""
    outcome, session = run_scripted(
        monkeypatch, share_replica, {'share': 'data', 'id': 'r2', 'state': 'active'},
        [BY_NAME, replicas(ACTIVE, OUT_OF_SYNC)], check_mode=check_mode, expect=Fail)
    assert 'only admins promote a replica that is out_of_sync' in outcome.result['msg']
    assert not outcome.result.get('changed')
    assert session.writes() == []


@pytest.mark.parametrize('replica_state', ['error', 'out_of_sync'])
def test_an_admins_promotion_of_a_replica_in_error_or_out_of_sync(monkeypatch, replica_state):
    """Manila lets admins promote such a replica (status available): check mode says
    changed and sends nothing. An admin reads ``host`` on every replica."""
    admin = [dict(ACTIVE, host='h@a#p'), dict(READY, replica_state=replica_state, host='h@b#p')]
    result, session = run(monkeypatch, share_replica,
                          {'share': 'data', 'id': 'r2', 'state': 'active'}, [
                              BY_NAME, replicas(*admin),
                              ('GET', '/v2/share-replicas/r2/export-locations',
                               ScriptedResponse(200, {'export_locations': []})),
                          ], check_mode=True)
    assert result.result['changed'] is True
    assert session.writes() == []


# as an admin reads them: the admin-only location first, the preferred one last
LOCATIONS = [
    {'path': '10.0.0.9:/admin', 'preferred': False, 'is_admin_only': True},
    {'path': '10.0.0.2:/other', 'preferred': False, 'is_admin_only': False},
    {'path': '10.0.0.1:/preferred', 'preferred': True, 'is_admin_only': False},
]


def test_the_replica_export_paths_put_the_preferred_first_and_leave_admin_only_out(
        monkeypatch):
    """Issue 36: the failover role publishes these; as the shares module orders them
    (shares.export_paths), not in Manila's order with the admin-only path first."""
    result, session = run(monkeypatch, share_replica,
                          {'share': 'data', 'id': 'r1', 'state': 'active'}, [
                              BY_NAME, replicas(ACTIVE, READY),
                              ('GET', '/v2/share-replicas/r1/export-locations',
                               ScriptedResponse(200, {'export_locations': LOCATIONS})),
                          ])
    assert result.result['replica']['export_paths'] == ['10.0.0.1:/preferred',
                                                        '10.0.0.2:/other']
    assert [loc['path'] for loc in result.result['replica']['export_locations']] == [
        '10.0.0.1:/preferred', '10.0.0.9:/admin', '10.0.0.2:/other']


def test_info_export_paths_as_the_shares_module_orders_them(monkeypatch):
    result, session = run(monkeypatch, share_replica_info, {'share': 'data'}, [
        BY_NAME, replicas(ACTIVE),
        ('GET', '/v2/share-replicas/r1/export-locations',
         ScriptedResponse(200, {'export_locations': LOCATIONS})),
    ])
    assert result.result['replicas'][0]['export_paths'] == ['10.0.0.1:/preferred',
                                                            '10.0.0.2:/other']
