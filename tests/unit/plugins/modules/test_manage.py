# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Manage and unmanage (share, share_snapshot) on scripted HTTP: the exact
requests, check mode, the refusals before any write (members, hosts that are
no pool, types and share servers that do not fit, snapshots that block an
unmanage), a manage that ends in manage_error, servers older than 2.49."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Fail,
    run_scripted,
)

from ansible_collections.openkeel.manila.plugins.modules import share as share_module
from ansible_collections.openkeel.manila.plugins.modules import share_snapshot
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    GONE,
    ScriptedResponse,
    share_locks,
)

SHARE_ID = '11111111-2222-3333-4444-555555555555'
SNAP_ID = 'aaaaaaaa-0000-0000-0000-000000000002'
TYPE_ID = 'bbbbbbbb-0000-0000-0000-000000000001'
DHSS_TYPE_ID = 'bbbbbbbb-0000-0000-0000-000000000002'
SERVER_ID = 'cccccccc-0000-0000-0000-000000000003'
POOL = 'h@alpha#pool1'
EXPORT = '10.0.0.10:/path/to/fake/share/share_1'
TYPES = {'share_types': [
    {'id': TYPE_ID, 'name': 'alpha', 'extra_specs': {'driver_handles_share_servers': 'False'}},
    {'id': DHSS_TYPE_ID, 'name': 'dhss', 'extra_specs': {'driver_handles_share_servers': 'True'}},
]}
SHARE = {'id': SHARE_ID, 'name': 'legacy', 'size': 1, 'share_proto': 'NFS', 'status': 'available',
         'share_type': TYPE_ID, 'share_type_name': 'alpha', 'is_public': False, 'metadata': {},
         'description': None, 'host': POOL, 'has_replicas': False, 'is_soft_deleted': False,
         'share_server_id': None, 'snapshot_id': None, 'share_network_id': None,
         'availability_zone': 'nova'}
MEMBER_SHARE = dict((k, v) for k, v in SHARE.items() if k not in ('host', 'share_server_id'))
SNAP = {'id': SNAP_ID, 'name': 'nightly', 'share_id': SHARE_ID, 'status': 'available', 'size': 1,
        'created_at': '2026-12-01T10:00:00.000000', 'description': None, 'metadata': {},
        'provider_location': '/path/to/fake/snapshot/snapshot_1'}
FORBIDDEN = ScriptedResponse(403, {'forbidden': {'code': 403, 'message': 'Policy does not allow '
                                                 'scheduler_stats:pools:index to be performed.'}})
BY_NAME = ('GET', '/v2/shares/detail?name=legacy', ScriptedResponse(200, {'shares': []}))
POOLS = ('GET', '/v2/scheduler-stats/pools?host=h%24&backend=alpha%24&pool=pool1%24',
         ScriptedResponse(200, {'pools': [{'name': POOL}]}))
LIST_TYPES = ('GET', '/v2/types?is_public=all', ScriptedResponse(200, TYPES))
EXPORTS = ('GET', '/v2/shares/%s/export_locations' % SHARE_ID, ScriptedResponse(
    200, {'export_locations': [{'path': EXPORT, 'preferred': True}]}))
SNAPS_OF_SHARE = '/v2/snapshots/detail?share_id=%s&all_tenants=1&with_count=true&limit=1000&offset=0' \
    % SHARE_ID
MANAGE = {'export_path': EXPORT, 'host': POOL, 'protocol': 'nfs', 'share_type': 'alpha'}


def run(monkeypatch, module, args, exchanges, max_version='2.99', check_mode=False):
    return run_scripted(monkeypatch, module, args, exchanges, max_version=max_version,
                        check_mode=check_mode)


def share_task(**extra):
    return dict(dict(name='legacy', manage=dict(MANAGE)), **extra)


# -- share: manage ------------------------------------------------------------------------

def test_manage_sends_the_pool_and_type_and_waits_until_available(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_task(description='old NFS'), [
        BY_NAME, POOLS, LIST_TYPES,
        ('POST', '/v2/shares/manage', ScriptedResponse(200, {'share': dict(
            SHARE, status='manage_starting', size=None)})),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': dict(
            SHARE, status='manage_starting', size=None)})),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': dict(
            SHARE, description='old NFS')})),
        EXPORTS,
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert session.bodies('POST') == [{'share': {
        'export_path': EXPORT, 'service_host': POOL, 'protocol': 'NFS', 'share_type': TYPE_ID,
        'name': 'legacy', 'description': 'old NFS', 'driver_options': {}}}]
    assert outcome.result['changed'] is True
    assert outcome.result['share']['status'] == 'available'
    assert outcome.result['share']['size'] == 1


def test_manage_sends_driver_options_is_public_and_the_share_server(monkeypatch):
    manage = dict(MANAGE, share_type='dhss', share_server_id=SERVER_ID, is_public=True,
                  driver_options={'size': 5})
    outcome, session = run(monkeypatch, share_module, share_task(manage=manage), [
        BY_NAME, POOLS, LIST_TYPES,
        ('GET', '/v2/share-servers/' + SERVER_ID, ScriptedResponse(200, {'share_server': {
            'id': SERVER_ID, 'status': 'active'}})),
        ('POST', '/v2/shares/manage', ScriptedResponse(200, {'share': dict(
            SHARE, status='manage_starting', is_public=True)})),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': dict(
            SHARE, is_public=True, share_type=DHSS_TYPE_ID, share_type_name='dhss')})),
        EXPORTS,
    ])
    assert not isinstance(outcome, Fail), outcome.result
    body = session.bodies('POST')[0]['share']
    assert body['share_server_id'] == SERVER_ID and body['is_public'] is True
    assert body['driver_options'] == {'size': 5} and body['share_type'] == DHSS_TYPE_ID


def test_manage_in_check_mode_reads_only(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_task(), [BY_NAME, POOLS, LIST_TYPES],
                           check_mode=True)
    assert outcome.result['changed'] is True
    assert session.writes() == []
    assert outcome.result['share']['host'] == POOL


def test_an_existing_share_is_not_managed_again(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_task(), [
        ('GET', '/v2/shares/detail?name=legacy', ScriptedResponse(200, {'shares': [SHARE]})),
        EXPORTS,
    ])
    assert outcome.result['changed'] is False, outcome.result
    assert session.writes() == []
    assert len(session.calls) == 3


def test_an_existing_share_of_another_protocol_fails(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_task(
        manage=dict(MANAGE, protocol='CIFS')), [
        ('GET', '/v2/shares/detail?name=legacy', ScriptedResponse(200, {'shares': [SHARE]})),
    ])
    assert isinstance(outcome, Fail)
    assert 'share_proto' in outcome.result['msg']
    assert session.writes() == []


def test_a_member_is_refused_at_the_pool_listing(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_task(), [
        BY_NAME,
        ('GET', '/v2/scheduler-stats/pools?host=h%24&backend=alpha%24&pool=pool1%24', FORBIDDEN),
    ])
    assert isinstance(outcome, Fail)
    assert 'admin-only' in outcome.result['msg'] and 'admin' in outcome.result['msg']
    assert session.writes() == []


@pytest.mark.parametrize('host', ['alpha', 'h@alpha', 'h#pool1', ''])
def test_a_host_that_is_no_pool_name_is_refused_before_any_request(monkeypatch, host):
    outcome, session = run(monkeypatch, share_module, share_task(
        manage=dict(MANAGE, host=host)), [])
    assert isinstance(outcome, Fail)
    assert 'manage.host' in outcome.result['msg']
    assert session.requests() == ['GET /']


def test_an_unknown_pool_is_refused_naming_the_pools(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_task(), [
        BY_NAME,
        ('GET', '/v2/scheduler-stats/pools?host=h%24&backend=alpha%24&pool=pool1%24',
         ScriptedResponse(200, {'pools': []})),
        ('GET', '/v2/scheduler-stats/pools', ScriptedResponse(200, {'pools': [
            {'name': 'h@beta#pool2'}]})),
    ])
    assert isinstance(outcome, Fail)
    assert 'manage.host' in outcome.result['msg'] and 'h@beta#pool2' in outcome.result['msg']
    assert session.writes() == []


@pytest.mark.parametrize('option,value', [
    ('size', 1), ('share_proto', 'NFS'), ('share_type', 'alpha'), ('snapshot', 'x'),
    ('share_network', 'net'), ('availability_zone', 'nova')])
def test_options_manila_takes_from_the_storage_are_refused(monkeypatch, option, value):
    outcome, session = run(monkeypatch, share_module, share_task(**{option: value}), [])
    assert isinstance(outcome, Fail)
    assert option in outcome.result['msg'] and 'manage' in outcome.result['msg']
    assert session.writes() == []


def test_manage_with_state_absent_is_refused(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_task(state='absent'), [])
    assert isinstance(outcome, Fail)
    assert 'state=present' in outcome.result['msg']


def test_a_dhss_type_without_a_share_server_is_refused(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_task(
        manage=dict(MANAGE, share_type='dhss')), [BY_NAME, POOLS, LIST_TYPES])
    assert isinstance(outcome, Fail)
    assert 'manage.share_server_id' in outcome.result['msg']
    assert session.writes() == []


def test_a_share_server_with_a_type_without_servers_is_refused(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_task(
        manage=dict(MANAGE, share_server_id=SERVER_ID)), [BY_NAME, POOLS, LIST_TYPES])
    assert isinstance(outcome, Fail)
    assert 'manage.share_server_id' in outcome.result['msg']
    assert 'driver_handles_share_servers=false' in outcome.result['msg']


def test_a_share_server_below_2_49_is_refused_before_any_write(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_task(
        manage=dict(MANAGE, share_type='dhss', share_server_id=SERVER_ID)),
        [BY_NAME, POOLS, LIST_TYPES], max_version='2.48')
    assert isinstance(outcome, Fail)
    assert 'needs Manila API 2.49' in outcome.result['msg']
    assert session.writes() == []


def test_manage_error_fails_with_manilas_user_message(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_task(), [
        BY_NAME, POOLS, LIST_TYPES,
        ('POST', '/v2/shares/manage', ScriptedResponse(200, {'share': dict(
            SHARE, status='manage_starting')})),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': dict(
            SHARE, status='manage_error', size=0)})),
        ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % SHARE_ID,
         ScriptedResponse(200, {'messages': [{'user_message': 'manage: driver failed.'}]})),
    ])
    assert isinstance(outcome, Fail)
    msg = outcome.result['msg']
    assert 'manage_error' in msg and 'driver failed' in msg and 'state=unmanaged' in msg
    assert outcome.result['changed'] is True


# -- share: unmanage ----------------------------------------------------------------------

def unmanage_task(**extra):
    return dict(dict(name='legacy', state='unmanaged'), **extra)


FOUND = ('GET', '/v2/shares/detail?name=legacy', ScriptedResponse(200, {'shares': [SHARE]}))
NO_SNAPS = ('GET', SNAPS_OF_SHARE, ScriptedResponse(200, {'snapshots': [], 'count': 0}))


def test_unmanage_releases_the_share_and_says_the_data_stays(monkeypatch):
    outcome, session = run(monkeypatch, share_module, unmanage_task(), [
        FOUND, NO_SNAPS, share_locks(SHARE_ID), EXPORTS,
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(202)),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': dict(
            SHARE, status='unmanage_starting')})),
        ('GET', '/v2/shares/' + SHARE_ID, GONE),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert session.bodies('POST') == [{'unmanage': None}]
    assert outcome.result['changed'] is True
    assert 'data stays' in outcome.result['msg'] and EXPORT in outcome.result['msg']
    assert outcome.result['share']['export_locations'][0]['path'] == EXPORT
    assert outcome.result['share']['host'] == POOL


def test_unmanage_in_check_mode_reads_only(monkeypatch):
    outcome, session = run(monkeypatch, share_module, unmanage_task(), [
        FOUND, NO_SNAPS, share_locks(SHARE_ID), EXPORTS], check_mode=True)
    assert outcome.result['changed'] is True
    assert session.writes() == []
    assert 'would be released' in outcome.result['msg']


def test_unmanage_of_no_share_is_no_change(monkeypatch):
    outcome, session = run(monkeypatch, share_module, unmanage_task(), [BY_NAME])
    assert outcome.result['changed'] is False
    assert session.writes() == []


def test_unmanage_by_a_member_is_refused(monkeypatch):
    outcome, session = run(monkeypatch, share_module, unmanage_task(), [
        ('GET', '/v2/shares/detail?name=legacy', ScriptedResponse(200, {'shares': [MEMBER_SHARE]}))])
    assert isinstance(outcome, Fail)
    assert 'admin-only' in outcome.result['msg']
    assert session.writes() == []


def test_unmanage_of_a_share_with_snapshots_is_refused_naming_them(monkeypatch):
    outcome, session = run(monkeypatch, share_module, unmanage_task(), [
        FOUND, ('GET', SNAPS_OF_SHARE, ScriptedResponse(200, {'snapshots': [SNAP], 'count': 1}))])
    assert isinstance(outcome, Fail)
    assert 'nightly' in outcome.result['msg'] and 'state=unmanaged' in outcome.result['msg']
    assert session.writes() == []


@pytest.mark.parametrize('field,words', [('has_replicas', 'replicas'),
                                         ('is_soft_deleted', 'recycle bin')])
def test_unmanage_of_what_manila_refuses_is_refused(monkeypatch, field, words):
    outcome, session = run(monkeypatch, share_module, unmanage_task(), [
        ('GET', '/v2/shares/detail?name=legacy', ScriptedResponse(200, {'shares': [
            dict(SHARE, **{field: True})]}))])
    assert isinstance(outcome, Fail)
    assert words in outcome.result['msg']
    assert session.writes() == []


def test_unmanage_of_a_share_on_a_server_below_2_49_is_refused(monkeypatch):
    outcome, session = run(monkeypatch, share_module, unmanage_task(), [
        ('GET', '/v2/shares/detail?name=legacy', ScriptedResponse(200, {'shares': [
            dict(SHARE, share_server_id=SERVER_ID)]}))], max_version='2.48')
    assert isinstance(outcome, Fail)
    assert 'needs Manila API 2.49' in outcome.result['msg']


# -- share_snapshot: manage and unmanage ----------------------------------------------------

SNAP_BY_NAME = '/v2/snapshots/detail?name=nightly&share_id=' + SHARE_ID


def test_snapshot_manage_sends_the_provider_location(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'legacy', 'name': 'nightly',
        'manage': {'provider_location': SNAP['provider_location']}}, [
        FOUND,
        ('GET', SNAP_BY_NAME, ScriptedResponse(200, {'snapshots': []})),
        ('POST', '/v2/snapshots/manage', ScriptedResponse(202, {'snapshot': dict(
            SNAP, status='manage_starting')})),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': SNAP})),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert session.bodies('POST') == [{'snapshot': {
        'share_id': SHARE_ID, 'provider_location': SNAP['provider_location'],
        'name': 'nightly', 'driver_options': {}}}]
    assert outcome.result['changed'] is True


def test_snapshot_manage_in_check_mode_reads_only(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'legacy', 'name': 'nightly', 'manage': {'provider_location': 'p'}}, [
        FOUND, ('GET', SNAP_BY_NAME, ScriptedResponse(200, {'snapshots': []}))],
        check_mode=True)
    assert outcome.result['changed'] is True
    assert session.writes() == []


def test_snapshot_manage_by_a_member_is_refused(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'legacy', 'name': 'nightly', 'manage': {'provider_location': 'p'}}, [
        ('GET', '/v2/shares/detail?name=legacy', ScriptedResponse(200, {'shares': [MEMBER_SHARE]})),
        ('GET', SNAP_BY_NAME, ScriptedResponse(200, {'snapshots': []}))])
    assert isinstance(outcome, Fail)
    assert 'admin-only' in outcome.result['msg']
    assert session.writes() == []


def test_snapshot_unmanage_releases_it(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'legacy', 'name': 'nightly', 'state': 'unmanaged'}, [
        FOUND, ('GET', SNAP_BY_NAME, ScriptedResponse(200, {'snapshots': [SNAP]})),
        ('POST', '/v2/snapshots/%s/action' % SNAP_ID, ScriptedResponse(202)),
        ('GET', '/v2/snapshots/' + SNAP_ID, GONE),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert session.bodies('POST') == [{'unmanage': None}]
    assert outcome.result['changed'] is True
    assert SNAP['provider_location'] in outcome.result['msg']


def test_snapshot_unmanage_in_check_mode_and_of_nothing(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'legacy', 'name': 'nightly', 'state': 'unmanaged'}, [
        FOUND, ('GET', SNAP_BY_NAME, ScriptedResponse(200, {'snapshots': [SNAP]}))],
        check_mode=True)
    assert outcome.result['changed'] is True and session.writes() == []
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'legacy', 'name': 'nightly', 'state': 'unmanaged'}, [
        BY_NAME])
    assert outcome.result['changed'] is False and session.writes() == []


def test_snapshot_unmanage_by_a_member_is_refused(monkeypatch):
    member_snap = dict((k, v) for k, v in SNAP.items() if k != 'provider_location')
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'legacy', 'name': 'nightly', 'state': 'unmanaged'}, [
        FOUND, ('GET', SNAP_BY_NAME, ScriptedResponse(200, {'snapshots': [member_snap]}))])
    assert isinstance(outcome, Fail)
    assert 'admin-only' in outcome.result['msg']
    assert session.writes() == []


def test_snapshot_unmanage_of_a_share_on_a_server_below_2_49_is_refused(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'legacy', 'name': 'nightly', 'state': 'unmanaged'}, [
        ('GET', '/v2/shares/detail?name=legacy', ScriptedResponse(200, {'shares': [
            dict(SHARE, share_server_id=SERVER_ID)]})),
        ('GET', SNAP_BY_NAME, ScriptedResponse(200, {'snapshots': [SNAP]}))], max_version='2.48')
    assert isinstance(outcome, Fail)
    assert 'needs Manila API 2.49' in outcome.result['msg']
    assert session.writes() == []


def test_unmanage_of_a_locked_share_is_refused_naming_the_lock(monkeypatch):
    lock = {'id': 'lock-1', 'resource_id': SHARE_ID, 'lock_reason': 'keep', 'user_id': 'u1',
            'project_id': 'p1', 'lock_context': 'admin', 'resource_action': 'delete'}
    outcome, session = run(monkeypatch, share_module, unmanage_task(), [
        FOUND, NO_SNAPS, share_locks(SHARE_ID, lock)])
    assert isinstance(outcome, Fail)
    assert 'lock-1' in outcome.result['msg'] and 'unmanaging' in outcome.result['msg']
    assert session.writes() == []
