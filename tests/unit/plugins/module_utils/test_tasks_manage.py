# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Manage and unmanage (share, share_snapshot) on scripted HTTP: the exact
requests, check mode, the refusals before any write (members, hosts that are
no pool, types and share servers that do not fit, snapshots that block an
unmanage), a manage that ends in manage_error, servers older than 2.49.

These run the manage and unmanage hooks of module_utils/tasks/manage.py
(the plan actions manage and unmanage of the converge template) through the
two modules; the tests of manage.py's own checks, bodies and helpers are in
test_manage.py."""

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


def refusal_before_any_request(monkeypatch, module, task):
    """The message of a task that fails before any request to Manila (only the
    versions document is read)."""
    outcome, session = run(monkeypatch, module, task, [])
    assert isinstance(outcome, Fail)
    assert session.requests() == ['GET /']
    return outcome.result['msg']


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
    assert 'manage.host' in refusal_before_any_request(monkeypatch, share_module, share_task(
        manage=dict(MANAGE, host=host)))


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


# -- the exact words, results and requests of every path ------------------------------------

UUID_NAME = 'dddddddd-0000-0000-0000-000000000004'
PREDICTED = {'name': 'legacy', 'share_proto': 'NFS', 'share_type': TYPE_ID,
             'share_type_name': 'alpha', 'host': POOL, 'export_path': EXPORT,
             'status': 'available'}
SHARE_VIEW = {'id': SHARE_ID, 'name': 'legacy', 'status': 'available', 'size': 1, 'host': POOL}
RELEASED = ('Share legacy (%s) %s from Manila; its data stays on the storage, untouched '
            '(export path %s, host %s): manage it again with manage.export_path and manage.host.')


def test_manage_in_check_mode_predicts_the_share_and_its_diff(monkeypatch):
    outcome, session = run_scripted(monkeypatch, share_module, share_task(),
                                    [BY_NAME, POOLS, LIST_TYPES], check_mode=True, diff=True)
    assert outcome.result['share'] == PREDICTED
    assert outcome.result['diff'] == {'before': {}, 'after': PREDICTED}
    assert outcome.result['msg'] == "Share 'legacy' would be managed from %s on %s." % (EXPORT, POOL)
    assert session.writes() == []


def test_manage_without_a_type_takes_the_default_type(monkeypatch):
    manage = dict(MANAGE)
    del manage['share_type']
    outcome, session = run(monkeypatch, share_module, share_task(manage=manage), [
        BY_NAME, POOLS,
        ('GET', '/v2/types/default', ScriptedResponse(200, {'share_type': TYPES['share_types'][0]})),
    ], check_mode=True)
    assert outcome.result['share'] == PREDICTED
    assert session.writes() == []


@pytest.mark.parametrize('answer', [GONE, ScriptedResponse(200, {'share_type': {}})])
def test_manage_without_a_type_on_a_cloud_without_a_default_type_is_refused(monkeypatch, answer):
    manage = dict(MANAGE)
    del manage['share_type']
    outcome, session = run(monkeypatch, share_module, share_task(manage=manage), [
        BY_NAME, POOLS, ('GET', '/v2/types/default', answer)])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'] == ('This cloud has no default share type: set '
                                     'manage.share_type (the type of the share on that storage).')


def test_an_unknown_share_type_is_refused_naming_the_option(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_task(
        manage=dict(MANAGE, share_type='gold')), [BY_NAME, POOLS, LIST_TYPES])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'] == ("manage.share_type: no share type with the name or ID "
                                     "'gold' exists (or this user cannot see it).")


def test_a_member_is_refused_at_the_pool_listing_with_manilas_answer(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_task(), [
        BY_NAME,
        ('GET', '/v2/scheduler-stats/pools?host=h%24&backend=alpha%24&pool=pool1%24', FORBIDDEN),
    ])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'] == (
        "Managing a share is admin-only under Manila's default policy, and Manila does not "
        "take this task's user for an admin: it may not list the scheduler's pools (Listing "
        "the scheduler's pools is admin-only by default (Manila said: Policy does not allow "
        "scheduler_stats:pools:index to be performed.)). Run the task with an "
        "admin's credentials (for example cloud: admin).")


def test_another_error_of_the_pool_listing_is_manilas_own(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_task(), [
        BY_NAME,
        ('GET', '/v2/scheduler-stats/pools?host=h%24&backend=alpha%24&pool=pool1%24',
         ScriptedResponse(400, {'badRequest': {'code': 400, 'message': 'Invalid filter.'}})),
    ])
    assert isinstance(outcome, Fail)
    assert 'admin' not in outcome.result['msg']
    assert 'Invalid filter.' in outcome.result['msg'] and outcome.result['status'] == 400


def test_is_public_outside_manage_is_sent_with_the_manage(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_task(is_public=True), [
        BY_NAME, POOLS, LIST_TYPES,
        ('POST', '/v2/shares/manage', ScriptedResponse(200, {'share': dict(SHARE, is_public=True)})),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': dict(SHARE, is_public=True)})),
        EXPORTS,
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert session.bodies('POST')[0]['share']['is_public'] is True


def test_manage_is_public_agreeing_with_is_public_is_taken(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_task(
        is_public=False, manage=dict(MANAGE, is_public=False)), [BY_NAME, POOLS, LIST_TYPES],
        check_mode=True)
    assert not isinstance(outcome, Fail), outcome.result


def test_manage_is_public_disagreeing_with_is_public_is_refused(monkeypatch):
    assert refusal_before_any_request(monkeypatch, share_module, share_task(
        is_public=False, manage=dict(MANAGE, is_public=True))) == (
        'manage.is_public and is_public disagree; give one of them.')


@pytest.mark.parametrize('task,msg', [
    (share_task(name=UUID_NAME), 'name: a managed share is not given a UUID-shaped name (%s); '
     'choose a name that is not a UUID.' % UUID_NAME),
    (share_task(manage=dict(MANAGE, export_path='')), 'manage.export_path must not be empty.'),
    (share_task(manage=dict(MANAGE, protocol=' ')), 'manage.protocol must not be empty.'),
    (share_task(manage=dict(MANAGE, protocol='NFS4')), "manage.protocol: share_proto 'NFS4' is "
     "not a protocol Manila knows: NFS, CIFS, GLUSTERFS, HDFS, CEPHFS, MAPRFS."),
    (share_task(manage=dict(MANAGE, host='alpha')), 'manage.host must be a full pool name '
     '"host@backend#pool" (as openkeel.manila.share_pool_info lists them), got \'alpha\'.'),
    (share_task(restore=True), 'manage brings existing storage under Manila, which takes the '
     "share's size, pool and network from it; restore cannot be given with manage (the "
     'protocol and share type go inside manage: manage.protocol, manage.share_type).'),
])
def test_manage_input_is_refused_in_these_words_before_any_request(monkeypatch, task, msg):
    assert refusal_before_any_request(monkeypatch, share_module, task) == msg


def test_a_dhss_type_without_a_share_server_is_refused_in_these_words(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_task(
        manage=dict(MANAGE, share_type='dhss')), [BY_NAME, POOLS, LIST_TYPES])
    assert outcome.result['msg'] == (
        'manage.share_server_id is required: Share type dhss has '
        'driver_handles_share_servers=true, so the share lives on a share server.')


@pytest.mark.parametrize('max_version,answer,msg', [
    ('2.48', None, 'Managing a share on a share server needs Manila API 2.49; this cloud '
     'offers 2.48.'),
    ('2.99', GONE, 'manage.share_server_id: no share server %s exists.' % SERVER_ID),
    ('2.99', ScriptedResponse(200, {'share_server': {'id': SERVER_ID, 'status': 'error'}}),
     'manage.share_server_id: share server %s is error, not active.' % SERVER_ID),
])
def test_a_share_server_that_cannot_take_the_share_is_refused(
        monkeypatch, max_version, answer, msg):
    script = [BY_NAME, POOLS, LIST_TYPES]
    if answer is not None:
        script.append(('GET', '/v2/share-servers/' + SERVER_ID, answer))
    outcome, session = run(monkeypatch, share_module, share_task(
        manage=dict(MANAGE, share_type='dhss', share_server_id=SERVER_ID)), script,
        max_version=max_version)
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'] == msg
    assert session.writes() == []


def test_a_manage_that_fails_leaves_the_share_in_the_result(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_task(), [
        BY_NAME, POOLS, LIST_TYPES,
        ('POST', '/v2/shares/manage', ScriptedResponse(200, {'share': dict(
            SHARE, status='manage_starting')})),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': dict(
            SHARE, status='manage_error', size=0)})),
        ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % SHARE_ID,
         ScriptedResponse(200, {'messages': []})),
    ])
    assert isinstance(outcome, Fail)
    # The share as the wait last read it (issue 36), not as the manage answered.
    assert outcome.result['share'] == dict(SHARE, status='manage_error', size=0)
    assert outcome.result['msg'] == (
        'Share legacy (%s) went to manage_error while waiting for available. Manila could not '
        'manage %s on %s; the share %s it made is left in that state: release it with '
        'state=unmanaged (the storage is not touched), check manage.export_path, manage.host '
        'and manage.driver_options, and run the task again. Manila had already accepted 1 '
        'write of this task, so the cloud was changed: POST shares/manage.'
        % (SHARE_ID, EXPORT, POOL, SHARE_ID))


def test_a_manage_answered_with_503_is_seen_by_its_name(monkeypatch):
    leaving = dict(SHARE, id='eeeeeeee-0000-0000-0000-000000000005', status='deleting',
                   created_at='2026-01-01T00:00:00.000000')
    made = dict(SHARE, status='manage_starting', created_at='2026-12-01T00:00:00.000000')
    outcome, session = run(monkeypatch, share_module, share_task(), [
        BY_NAME, POOLS, LIST_TYPES,
        ('POST', '/v2/shares/manage', ScriptedResponse(503, {})),
        ('GET', '/v2/shares/detail?name=legacy', ScriptedResponse(200, {'shares': [leaving, made]})),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': SHARE})),
        EXPORTS,
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['share']['id'] == SHARE_ID
    assert len(session.bodies('POST')) == 1


def test_a_share_being_unmanaged_is_waited_for_before_it_is_managed_again(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_task(), [
        ('GET', '/v2/shares/detail?name=legacy', ScriptedResponse(200, {'shares': [
            dict(SHARE, status='unmanage_starting')]})),
        ('GET', '/v2/shares/' + SHARE_ID, GONE),
        POOLS, LIST_TYPES], check_mode=True)
    assert outcome.result['share'] == PREDICTED


@pytest.mark.parametrize('manage,differs', [
    (dict(MANAGE, share_type='dhss'), "share_type is 'alpha', the task asks for 'dhss'"),
])
def test_an_existing_share_of_another_type_fails(monkeypatch, manage, differs):
    outcome, session = run(monkeypatch, share_module, share_task(manage=manage), [FOUND])
    assert isinstance(outcome, Fail)
    assert differs in outcome.result['msg']


def test_an_existing_share_takes_manage_is_public(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_task(
        manage=dict(MANAGE, is_public=True)), [FOUND, EXPORTS], check_mode=True)
    assert outcome.result['changed'] is True
    assert session.writes() == []


# -- share: unmanage, word for word -----------------------------------------------------------

def test_unmanage_says_what_was_released_and_shows_it_in_the_diff(monkeypatch):
    second = {'path': '10.0.0.11:/other', 'preferred': False}
    exports = ('GET', '/v2/shares/%s/export_locations' % SHARE_ID, ScriptedResponse(
        200, {'export_locations': [{'path': EXPORT, 'preferred': True}, second]}))
    outcome, session = run_scripted(monkeypatch, share_module, unmanage_task(), [
        FOUND, NO_SNAPS, share_locks(SHARE_ID), exports,
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(202)),
        ('GET', '/v2/shares/' + SHARE_ID, GONE),
    ], diff=True)
    assert outcome.result['msg'] == RELEASED % (SHARE_ID, 'was released', EXPORT, POOL)
    assert outcome.result['diff'] == {'before': SHARE_VIEW, 'after': {}}
    assert outcome.result['share'] == dict(SHARE, export_locations=[
        {'path': EXPORT, 'preferred': True}, second])


def test_unmanage_in_check_mode_says_what_would_be_released(monkeypatch):
    exports = ('GET', '/v2/shares/%s/export_locations' % SHARE_ID, ScriptedResponse(
        200, {'export_locations': []}))
    outcome, session = run_scripted(monkeypatch, share_module, unmanage_task(), [
        FOUND, NO_SNAPS, share_locks(SHARE_ID), exports], check_mode=True, diff=True)
    assert outcome.result['msg'] == RELEASED % (SHARE_ID, 'would be released', 'none', POOL)
    assert outcome.result['diff'] == {'before': SHARE_VIEW, 'after': {}}
    assert outcome.result['share'] == dict(SHARE, export_locations=[])
    assert session.writes() == []


def test_an_unmanage_answered_with_503_is_seen_leaving(monkeypatch):
    outcome, session = run(monkeypatch, share_module, unmanage_task(wait=False), [
        FOUND, NO_SNAPS, share_locks(SHARE_ID), EXPORTS,
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(503, {})),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': dict(
            SHARE, status='unmanage_starting')})),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert session.bodies('POST') == [{'unmanage': None}]
    assert outcome.result['msg'] == RELEASED % (SHARE_ID, 'was released', EXPORT, POOL)


@pytest.mark.parametrize('task,script,shown', [
    (unmanage_task(), [BY_NAME], 'legacy'),
    (dict(id=SHARE_ID, state='unmanaged'), [('GET', '/v2/shares/' + SHARE_ID, GONE)], SHARE_ID),
])
def test_unmanage_of_no_share_says_so(monkeypatch, task, script, shown):
    outcome, session = run_scripted(monkeypatch, share_module, task, script, diff=True)
    assert outcome.result['changed'] is False
    assert 'diff' not in outcome.result
    assert outcome.result['share'] == {}
    assert outcome.result['msg'] == 'No share %s is known to Manila: nothing to unmanage.' % shown


@pytest.mark.parametrize('wait,check_mode,waits', [
    (True, False, True), (False, False, False), (True, True, False)])
def test_unmanage_of_a_share_being_unmanaged_is_no_change(monkeypatch, wait, check_mode, waits):
    script = [('GET', '/v2/shares/detail?name=legacy', ScriptedResponse(200, {'shares': [
        dict(SHARE, status='unmanage_starting')]}))]
    if waits:
        script.append(('GET', '/v2/shares/' + SHARE_ID, GONE))
    outcome, session = run_scripted(monkeypatch, share_module, unmanage_task(wait=wait), script,
                                    check_mode=check_mode, diff=True)
    assert outcome.result['changed'] is False
    assert 'diff' not in outcome.result
    assert outcome.result['share'] == {}
    assert outcome.result['msg'] == 'Share legacy (%s) is already being unmanaged.' % SHARE_ID


def test_unmanage_by_a_member_is_refused_in_these_words(monkeypatch):
    outcome, session = run(monkeypatch, share_module, unmanage_task(), [
        ('GET', '/v2/shares/detail?name=legacy', ScriptedResponse(200, {'shares': [MEMBER_SHARE]}))])
    assert outcome.result['msg'] == (
        "Unmanaging a share is admin-only under Manila's default policy, and Manila does not "
        "take this task's user for an admin (Manila shows it no host of Share legacy (%s)). "
        "Run the task with an admin's credentials (for example cloud: admin)." % SHARE_ID)


def test_unmanage_of_a_share_with_snapshots_names_each_in_these_words(monkeypatch):
    other = dict(SNAP, id='aaaaaaaa-0000-0000-0000-000000000009', name='weekly')
    outcome, session = run(monkeypatch, share_module, unmanage_task(), [
        FOUND, ('GET', SNAPS_OF_SHARE, ScriptedResponse(200, {'snapshots': [SNAP, other],
                                                              'count': 2}))])
    assert outcome.result['msg'] == (
        'Share legacy (%s) has snapshots, and Manila unmanages no share that has: nightly (%s), '
        'weekly (%s). Unmanage them first (openkeel.manila.share_snapshot, state=unmanaged), '
        'or delete them.' % (SHARE_ID, SNAP_ID, other['id']))


def test_unmanage_of_a_share_on_a_server_below_2_49_is_refused_in_these_words(monkeypatch):
    outcome, session = run(monkeypatch, share_module, unmanage_task(), [
        ('GET', '/v2/shares/detail?name=legacy', ScriptedResponse(200, {'shares': [
            dict(SHARE, share_server_id=SERVER_ID)]}))], max_version='2.48')
    assert outcome.result['msg'] == ('Unmanaging a share on a share server needs Manila API '
                                     '2.49; this cloud offers 2.48.')


def test_unmanage_of_a_busy_share_waits_until_it_rests(monkeypatch):
    outcome, session = run(monkeypatch, share_module, unmanage_task(), [
        ('GET', '/v2/shares/detail?name=legacy', ScriptedResponse(200, {'shares': [
            dict(SHARE, status='extending')]})),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': SHARE})),
        NO_SNAPS, share_locks(SHARE_ID), EXPORTS], check_mode=True)
    assert outcome.result['changed'] is True, outcome.result


def test_unmanage_of_a_busy_share_without_wait_is_refused(monkeypatch):
    outcome, session = run(monkeypatch, share_module, unmanage_task(wait=False), [
        ('GET', '/v2/shares/detail?name=legacy', ScriptedResponse(200, {'shares': [
            dict(SHARE, status='extending')]}))])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'] == ('Share legacy (%s) is busy (extending); run again later '
                                     'or set wait=true.' % SHARE_ID)


@pytest.mark.parametrize('extra,given', [
    (dict(size=2), 'size'), (dict(share_proto='NFS'), 'share_proto'),
    (dict(snapshot='x'), 'snapshot'),
    (dict(size=2, snapshot='x'), 'size, snapshot')])
def test_options_of_a_new_share_are_refused_with_unmanaged(monkeypatch, extra, given):
    assert refusal_before_any_request(monkeypatch, share_module, unmanage_task(**extra)) == (
        '%s cannot be given with state=unmanaged.' % given)


# -- share_snapshot: manage and unmanage, word for word ---------------------------------------

SNAP_MANAGE = {'share': 'legacy', 'name': 'nightly',
               'manage': {'provider_location': SNAP['provider_location']}}
SNAP_UNMANAGE = {'share': 'legacy', 'name': 'nightly', 'state': 'unmanaged'}
NO_SNAP = ('GET', SNAP_BY_NAME, ScriptedResponse(200, {'snapshots': []}))
SNAP_RELEASED = ('Snapshot nightly (%s) %s from Manila; its data stays on the storage, untouched '
                 '(provider_location %s): manage it again with manage.provider_location.')
SNAP_VIEW = {'id': SNAP_ID, 'name': 'nightly', 'share_id': SHARE_ID, 'status': 'available'}


def found_snapshot(**fields):
    return ('GET', SNAP_BY_NAME, ScriptedResponse(200, {'snapshots': [dict(SNAP, **fields)]}))


def test_snapshot_manage_in_check_mode_predicts_it(monkeypatch):
    task = dict(SNAP_MANAGE, description='old', manage=dict(
        SNAP_MANAGE['manage'], driver_options={'a': 'b'}))
    outcome, session = run_scripted(monkeypatch, share_snapshot, task, [FOUND, NO_SNAP],
                                    check_mode=True, diff=True)
    after = {'share_id': SHARE_ID, 'provider_location': SNAP['provider_location'],
             'name': 'nightly', 'description': 'old', 'status': 'available'}
    assert outcome.result['snapshot'] == after
    assert outcome.result['diff'] == {'before': {}, 'after': after}
    assert outcome.result['msg'] == "Snapshot 'nightly' of Share legacy (%s) would be managed " \
        "from %s." % (SHARE_ID, SNAP['provider_location'])


def test_snapshot_manage_sends_the_description_and_driver_options(monkeypatch):
    task = dict(SNAP_MANAGE, description='old', manage=dict(
        SNAP_MANAGE['manage'], driver_options={'a': 'b'}))
    outcome, session = run(monkeypatch, share_snapshot, task, [
        FOUND, NO_SNAP,
        ('POST', '/v2/snapshots/manage', ScriptedResponse(202, {'snapshot': dict(
            SNAP, status='manage_starting', description='old')})),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': dict(
            SNAP, description='old')})),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert session.bodies('POST') == [{'snapshot': {
        'share_id': SHARE_ID, 'provider_location': SNAP['provider_location'],
        'name': 'nightly', 'description': 'old', 'driver_options': {'a': 'b'}}}]


def test_a_snapshot_manage_answered_with_503_is_seen_by_its_name_on_the_share(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, SNAP_MANAGE, [
        FOUND, NO_SNAP,
        ('POST', '/v2/snapshots/manage', ScriptedResponse(503, {})),
        found_snapshot(status='manage_starting'),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': SNAP})),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert len(session.bodies('POST')) == 1
    assert outcome.result['snapshot']['id'] == SNAP_ID


def test_a_snapshot_manage_that_fails_leaves_the_snapshot_in_the_result(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, SNAP_MANAGE, [
        FOUND, NO_SNAP,
        ('POST', '/v2/snapshots/manage', ScriptedResponse(202, {'snapshot': dict(
            SNAP, status='manage_starting')})),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': dict(
            SNAP, status='manage_error')})),
        ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % SNAP_ID,
         ScriptedResponse(200, {'messages': []})),
    ])
    assert isinstance(outcome, Fail)
    # The snapshot as the wait last read it (issue 36), not as the manage answered.
    assert outcome.result['snapshot'] == dict(SNAP, status='manage_error')
    assert outcome.result['msg'] == (
        'Snapshot nightly (%s) went to manage_error while waiting for available. Manila could '
        'not manage %s; the snapshot %s it made is left in that state: release it with '
        'state=unmanaged (the storage is not touched), check manage.provider_location and '
        'manage.driver_options, and run the task again. Manila had already accepted 1 write of '
        'this task, so the cloud was changed: POST snapshots/manage.'
        % (SNAP_ID, SNAP['provider_location'], SNAP_ID))


@pytest.mark.parametrize('share,msg', [
    (MEMBER_SHARE, "Managing a snapshot is admin-only under Manila's default policy, and Manila "
     "does not take this task's user for an admin (Manila shows it no host of Share legacy "
     "(%s)). Run the task with an admin's credentials (for example cloud: admin)." % SHARE_ID),
    (dict(SHARE, has_replicas=True), 'Share legacy (%s) has replicas: Manila manages no snapshot '
     'of it until they are deleted.' % SHARE_ID),
])
def test_snapshot_manage_on_a_share_manila_refuses_is_refused(monkeypatch, share, msg):
    outcome, session = run(monkeypatch, share_snapshot, SNAP_MANAGE, [
        ('GET', '/v2/shares/detail?name=legacy', ScriptedResponse(200, {'shares': [share]})),
        NO_SNAP])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'] == msg
    assert session.writes() == []


@pytest.mark.parametrize('task,msg', [
    (dict(SNAP_MANAGE, state='absent'), 'manage only applies with state=present (got '
     'state=absent).'),
    (dict(SNAP_MANAGE, id=SNAP_ID), 'manage cannot be given with id: a managed snapshot gets its '
     'ID from Manila (give share and name).'),
    ({'name': 'nightly', 'manage': SNAP_MANAGE['manage']}, 'manage needs share (the share the '
     'snapshot belongs to, already in Manila) and name (the name the managed snapshot gets).'),
    (dict(SNAP_MANAGE, manage={'provider_location': ''}), 'manage.provider_location must not '
     'be empty.'),
])
def test_snapshot_manage_input_is_refused_before_any_request(monkeypatch, task, msg):
    assert refusal_before_any_request(monkeypatch, share_snapshot, task) == msg


def test_snapshot_unmanage_says_what_was_released_and_shows_it_in_the_diff(monkeypatch):
    outcome, session = run_scripted(monkeypatch, share_snapshot, SNAP_UNMANAGE, [
        FOUND, found_snapshot(),
        ('POST', '/v2/snapshots/%s/action' % SNAP_ID, ScriptedResponse(202)),
        ('GET', '/v2/snapshots/' + SNAP_ID, GONE),
    ], diff=True)
    assert outcome.result['changed'] is True
    assert outcome.result['msg'] == SNAP_RELEASED % (SNAP_ID, 'was released',
                                                     SNAP['provider_location'])
    assert outcome.result['diff'] == {'before': SNAP_VIEW, 'after': {}}
    assert outcome.result['snapshot'] == SNAP


def test_snapshot_unmanage_in_check_mode_says_what_would_be_released(monkeypatch):
    outcome, session = run_scripted(monkeypatch, share_snapshot, SNAP_UNMANAGE, [
        FOUND, found_snapshot()], check_mode=True, diff=True)
    assert outcome.result['changed'] is True
    assert outcome.result['msg'] == SNAP_RELEASED % (SNAP_ID, 'would be released',
                                                     SNAP['provider_location'])
    assert outcome.result['diff'] == {'before': SNAP_VIEW, 'after': {}}
    assert outcome.result['snapshot'] == SNAP
    assert session.writes() == []


def test_a_snapshot_unmanage_answered_with_503_is_seen_leaving(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, dict(SNAP_UNMANAGE, wait=False), [
        FOUND, found_snapshot(),
        ('POST', '/v2/snapshots/%s/action' % SNAP_ID, ScriptedResponse(503, {})),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': dict(
            SNAP, status='unmanage_starting')})),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert session.bodies('POST') == [{'unmanage': None}]
    assert outcome.result['changed'] is True


@pytest.mark.parametrize('task,script,shown', [
    (SNAP_UNMANAGE, [BY_NAME], 'nightly'),
    ({'id': SNAP_ID, 'state': 'unmanaged'}, [('GET', '/v2/snapshots/' + SNAP_ID, GONE)], SNAP_ID),
])
def test_snapshot_unmanage_of_no_snapshot_says_so(monkeypatch, task, script, shown):
    outcome, session = run_scripted(monkeypatch, share_snapshot, task, script, diff=True)
    assert outcome.result['changed'] is False
    assert 'diff' not in outcome.result
    assert outcome.result['snapshot'] == {}
    assert outcome.result['msg'] == ('No snapshot %s is known to Manila: nothing to unmanage.'
                                     % shown)


@pytest.mark.parametrize('wait,check_mode,waits', [
    (True, False, True), (False, False, False), (True, True, False)])
def test_snapshot_unmanage_of_one_being_unmanaged_is_no_change(monkeypatch, wait, check_mode,
                                                               waits):
    script = [FOUND, found_snapshot(status='unmanage_starting')]
    if waits:
        script.append(('GET', '/v2/snapshots/' + SNAP_ID, GONE))
    outcome, session = run_scripted(monkeypatch, share_snapshot, dict(SNAP_UNMANAGE, wait=wait),
                                    script, check_mode=check_mode, diff=True)
    assert outcome.result['changed'] is False
    assert 'diff' not in outcome.result
    assert outcome.result['snapshot'] == {}
    assert outcome.result['msg'] == 'Snapshot nightly (%s) is already being unmanaged.' % SNAP_ID


def test_snapshot_unmanage_by_id_of_a_snapshot_without_its_share(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {'id': SNAP_ID, 'state': 'unmanaged'}, [
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': SNAP}))],
        check_mode=True)
    assert outcome.result['changed'] is True, outcome.result
    assert session.writes() == []


def test_snapshot_unmanage_of_a_share_on_a_server_below_2_49_is_refused_in_these_words(
        monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, SNAP_UNMANAGE, [
        ('GET', '/v2/shares/detail?name=legacy', ScriptedResponse(200, {'shares': [
            dict(SHARE, share_server_id=SERVER_ID)]})), found_snapshot()], max_version='2.48')
    assert outcome.result['msg'] == ('Unmanaging a snapshot of a share on a share server needs '
                                     'Manila API 2.49; this cloud offers 2.48.')


def test_snapshot_unmanage_by_a_member_is_refused_in_these_words(monkeypatch):
    member_snap = dict((k, v) for k, v in SNAP.items() if k != 'provider_location')
    outcome, session = run(monkeypatch, share_snapshot, SNAP_UNMANAGE, [
        FOUND, ('GET', SNAP_BY_NAME, ScriptedResponse(200, {'snapshots': [member_snap]}))])
    assert outcome.result['msg'] == (
        "Unmanaging a snapshot is admin-only under Manila's default policy, and Manila does "
        "not take this task's user for an admin (Manila shows it no provider_location of "
        "Snapshot nightly (%s)). Run the task with an admin's credentials (for example "
        "cloud: admin)." % SNAP_ID)


def test_snapshot_unmanage_of_a_busy_snapshot_waits_until_it_rests(monkeypatch):
    outcome, session = run_scripted(monkeypatch, share_snapshot, SNAP_UNMANAGE, [
        FOUND, found_snapshot(status='creating'),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': SNAP}))],
        check_mode=True, diff=True)
    assert outcome.result['diff'] == {'before': SNAP_VIEW, 'after': {}}


def test_snapshot_unmanage_of_a_busy_snapshot_that_goes_is_no_change(monkeypatch):
    outcome, session = run_scripted(monkeypatch, share_snapshot, SNAP_UNMANAGE, [
        FOUND, found_snapshot(status='deleting'), ('GET', '/v2/snapshots/' + SNAP_ID, GONE)],
        diff=True)
    assert outcome.result['changed'] is False
    assert 'diff' not in outcome.result
    assert outcome.result['snapshot'] == {}
    assert outcome.result['msg'] == 'Snapshot nightly (%s) is gone.' % SNAP_ID


def test_snapshot_unmanage_of_a_busy_snapshot_without_wait_is_refused(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, dict(SNAP_UNMANAGE, wait=False), [
        FOUND, found_snapshot(status='creating')])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'] == ('Snapshot nightly (%s) is busy (creating); run again '
                                     'later or set wait=true.' % SNAP_ID)


# -- the project a managed share or snapshot lands in (issue 36) ---------------------------

ADMIN_PROJECT = {'id': 'p-admin', 'name': 'admin', 'roles': ['admin']}
MEMBER_PROJECT = {'id': 'p-member', 'name': 'demo', 'roles': ['admin', 'member']}


def scoped_to(project):
    """A ``prepare`` for run_scripted: the task's token is scoped to ``project``."""
    def prepare(client, _session):
        client.token_project = lambda: dict(project)
    return prepare


def test_a_snapshot_manage_of_a_share_in_another_project_is_refused_before_any_write(
        monkeypatch):
    members = dict(SHARE, project_id='p-member')
    outcome, session = run_scripted(monkeypatch, share_snapshot, SNAP_MANAGE, [
        ('GET', '/v2/shares/detail?name=legacy', ScriptedResponse(200, {'shares': [members]})),
        NO_SNAP], prepare=scoped_to(ADMIN_PROJECT))
    assert isinstance(outcome, Fail), outcome.result
    assert session.writes() == []
    assert outcome.result['msg'] == (
        "Share legacy (%s) is in project p-member, but this task's token is scoped to project "
        "admin (p-admin): Manila puts a managed snapshot in the project of the token that "
        "manages it, where the share's project could neither see nor delete it. Run the task "
        "with an admin's credentials scoped to project p-member (a cloud whose auth names that "
        "project, with the admin role in it)." % SHARE_ID)
    assert 'changed' not in outcome.result


def test_a_snapshot_manage_scoped_to_the_shares_project_is_sent(monkeypatch):
    members = dict(SHARE, project_id='p-member')
    outcome, session = run_scripted(monkeypatch, share_snapshot, SNAP_MANAGE, [
        ('GET', '/v2/shares/detail?name=legacy', ScriptedResponse(200, {'shares': [members]})),
        NO_SNAP,
        ('POST', '/v2/snapshots/manage', ScriptedResponse(202, {'snapshot': dict(
            SNAP, status='manage_starting')})),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': SNAP})),
    ], prepare=scoped_to(MEMBER_PROJECT))
    assert not isinstance(outcome, Fail), outcome.result
    assert len(session.writes()) == 1


def test_a_share_manage_with_another_project_than_the_tokens_is_refused_before_any_write(
        monkeypatch):
    outcome, session = run_scripted(monkeypatch, share_module, share_task(
        manage=dict(MANAGE, project='demo')), [BY_NAME, POOLS, LIST_TYPES],
        prepare=scoped_to(ADMIN_PROJECT))
    assert isinstance(outcome, Fail), outcome.result
    assert session.writes() == []
    assert outcome.result['msg'] == (
        "manage.project is demo, but this task's token is scoped to project admin (p-admin), "
        "and Manila puts a managed share in the project of the token that manages it: the "
        "share would land in project admin (p-admin). Run the task with an admin's credentials "
        "scoped to project demo (a cloud whose auth names that project, with the admin role "
        "in it).")


@pytest.mark.parametrize('project', ['demo', 'p-member'])
def test_a_share_manage_scoped_to_its_project_by_name_or_id_is_sent(monkeypatch, project):
    outcome, session = run_scripted(monkeypatch, share_module, share_task(
        manage=dict(MANAGE, project=project)), [
        BY_NAME, POOLS, LIST_TYPES,
        ('POST', '/v2/shares/manage', ScriptedResponse(200, {'share': dict(
            SHARE, status='manage_starting', project_id='p-member')})),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': dict(
            SHARE, project_id='p-member')})),
        EXPORTS,
    ], prepare=scoped_to(MEMBER_PROJECT))
    assert not isinstance(outcome, Fail), outcome.result
    assert [body['share']['name'] for body in session.bodies('POST')] == ['legacy']
    assert 'project' not in session.bodies('POST')[0]['share']
    assert outcome.result['share']['project_id'] == 'p-member'
    assert 'warnings' not in outcome.result     # manage.project given: nothing to warn of


def test_a_share_manage_in_check_mode_names_the_project_it_lands_in(monkeypatch):
    outcome, session = run_scripted(monkeypatch, share_module, share_task(), [
        BY_NAME, POOLS, LIST_TYPES], check_mode=True, prepare=scoped_to(ADMIN_PROJECT))
    assert session.writes() == []
    assert outcome.result['msg'] == (
        "Share 'legacy' would be managed from %s on %s into project admin (p-admin), the "
        "project of this task's token." % (EXPORT, POOL))
    assert outcome.result['share']['project_id'] == 'p-admin'
    assert outcome.result['warnings'] == [
        "The managed share would land in project admin (p-admin), the project of this task's "
        "token: Manila puts a managed share there, whatever project it had before it was "
        "unmanaged. Set manage.project to the project it belongs to, to have a task scoped to "
        "another project refused before any write."]


def test_an_unmanage_names_the_project_to_manage_the_share_into_again(monkeypatch):
    members = dict(SHARE, project_id='p-member')
    outcome, session = run(monkeypatch, share_module, unmanage_task(), [
        ('GET', '/v2/shares/detail?name=legacy', ScriptedResponse(200, {'shares': [members]})),
        NO_SNAPS, share_locks(SHARE_ID), EXPORTS], check_mode=True)
    assert session.writes() == []
    assert outcome.result['msg'].endswith(
        'manage it again with manage.export_path and manage.host, with credentials scoped to '
        'its project p-member (Manila puts a managed share in the project of the token that '
        'manages it; manage.project checks it).')
