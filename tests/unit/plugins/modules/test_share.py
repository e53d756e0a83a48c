# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The share module on scripted HTTP, for what the local cloud cannot produce:
a cloud without a default share type, share networks (DHSS), old servers."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Fail,
    run_scripted,
)

from ansible_collections.openkeel.manila.plugins.modules import share as share_module
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    share_locks,
)

SHARE_ID = '11111111-2222-3333-4444-555555555555'
NET_ID = '22222222-3333-4444-5555-666666666666'
SHARE = {'id': SHARE_ID, 'name': 'data', 'size': 1, 'share_proto': 'NFS', 'status': 'available',
         'share_type': 'aaaaaaaa-0000-0000-0000-000000000000', 'share_type_name': 'dhss',
         'share_network_id': NET_ID, 'availability_zone': 'nova', 'snapshot_id': None,
         'is_public': False, 'metadata': {}, 'description': None}
DHSS_TYPE = {'id': 'aaaaaaaa-0000-0000-0000-000000000000', 'name': 'dhss'}
# A share's snapshots, listed before it is deleted (none here).
NO_SNAPSHOTS = '/v2/snapshots/detail?share_id=%s&all_tenants=1&with_count=true&limit=1000&offset=0' % SHARE_ID


def run(monkeypatch, args, exchanges, max_version='2.99', check_mode=False):
    return run_scripted(monkeypatch, share_module, args, exchanges, max_version=max_version,
                        check_mode=check_mode)


def test_no_default_type_asks_for_share_type_and_writes_nothing(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'size': 1, 'share_proto': 'NFS'}, [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': []})),
        ('GET', '/v2/shares/detail?name=data&is_soft_deleted=true', ScriptedResponse(200, {'shares': []})),
        ('GET', '/v2/types/default', ScriptedResponse(404, {'itemNotFound': {
            'code': 404, 'message': 'Default share type not found'}})),
    ])
    assert isinstance(outcome, Fail)
    assert 'no default share type' in outcome.result['msg']
    assert 'share_type' in outcome.result['msg']
    assert session.requests() == ['GET /', 'GET /v2/shares/detail?name=data',
                                  'GET /v2/shares/detail?name=data&is_soft_deleted=true',
                                  'GET /v2/types/default']


def test_share_network_by_name_is_resolved_and_sent(monkeypatch):
    created = dict(SHARE, status='creating')
    outcome, session = run(monkeypatch, {
        'name': 'data', 'size': 1, 'share_proto': 'nfs', 'share_type': 'dhss',
        'share_network': 'tenant-net'}, [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': []})),
        ('GET', '/v2/shares/detail?name=data&is_soft_deleted=true', ScriptedResponse(200, {'shares': []})),
        ('GET', '/v2/types?is_public=all', ScriptedResponse(200, {'share_types': [DHSS_TYPE]})),
        ('GET', '/v2/share-networks/detail?name=tenant-net', ScriptedResponse(
            200, {'share_networks': [{'id': NET_ID, 'name': 'tenant-net'}]})),
        ('POST', '/v2/shares', ScriptedResponse(200, {'share': created})),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': SHARE})),
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [SHARE]})),
        ('GET', '/v2/shares/%s/export_locations' % SHARE_ID, ScriptedResponse(
            200, {'export_locations': [{'path': '10.0.0.1:/a', 'preferred': True}]})),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    body = session.bodies('POST')[0]['share']
    assert body['share_network_id'] == NET_ID and body['share_proto'] == 'NFS'
    assert outcome.result['changed'] is True
    assert outcome.result['share']['export_locations'][0]['path'] == '10.0.0.1:/a'


def test_another_share_network_is_refused_not_ignored(monkeypatch):
    other = '33333333-3333-4444-5555-666666666666'
    outcome, session = run(monkeypatch, {'name': 'data', 'share_network': other}, [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [SHARE]})),
        ('GET', '/v2/share-networks/' + other, ScriptedResponse(200, {'share_network': {'id': other}})),
    ])
    assert isinstance(outcome, Fail)
    assert 'share_network' in outcome.result['msg'] and 'share_migration' in outcome.result['msg']


def test_the_share_network_the_share_has_needs_no_lookup(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'share_network': NET_ID}, [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [SHARE]})),
        ('GET', '/v2/shares/%s/export_locations' % SHARE_ID, ScriptedResponse(200, {'export_locations': []})),
    ])
    assert outcome.result['changed'] is False
    assert len(session.calls) == 3


NOT_FOUND = ScriptedResponse(404, {'itemNotFound': {'code': 404, 'message': 'Share could not be found.'}})


def test_name_holding_a_share_id_deletes_that_share(monkeypatch):
    outcome, session = run(monkeypatch, {'name': SHARE_ID, 'state': 'absent'}, [
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': SHARE})),
        share_locks(SHARE_ID),
        ('GET', NO_SNAPSHOTS, ScriptedResponse(200, {'snapshots': [], 'count': 0})),
        ('DELETE', '/v2/shares/' + SHARE_ID, ScriptedResponse(202)),
        ('GET', '/v2/shares/' + SHARE_ID, NOT_FOUND),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['changed'] is True
    assert [c.path for c in session.writes()] == ['/v2/shares/' + SHARE_ID]


def test_name_holding_a_share_id_resizes_that_share_and_creates_none(monkeypatch):
    outcome, session = run(monkeypatch, {'name': SHARE_ID, 'size': 2, 'share_proto': 'NFS'}, [
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': SHARE})),
        ('GET', '/v2/shares/%s/export_locations' % SHARE_ID, ScriptedResponse(200, {'export_locations': []})),
    ], check_mode=True)
    assert outcome.result['changed'] is True
    assert outcome.result['share']['id'] == SHARE_ID
    # neither a rename to the UUID nor a create: only the size differs
    assert outcome.result['share']['name'] == 'data'
    assert session.writes() == []


def test_name_holding_a_share_id_is_no_new_name_for_it(monkeypatch):
    outcome, session = run(monkeypatch, {'name': SHARE_ID, 'size': 1}, [
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': SHARE})),
        ('GET', '/v2/shares/%s/export_locations' % SHARE_ID, ScriptedResponse(200, {'export_locations': []})),
    ])
    assert outcome.result['changed'] is False
    assert session.writes() == []


def test_uuid_shaped_name_of_no_share_is_refused_before_any_write(monkeypatch):
    outcome, session = run(monkeypatch, {'name': SHARE_ID, 'size': 1, 'share_proto': 'NFS',
                                         'share_type': 'default'}, [
        ('GET', '/v2/shares/' + SHARE_ID, NOT_FOUND),
        ('GET', '/v2/shares/detail?name=' + SHARE_ID, ScriptedResponse(200, {'shares': []})),
        ('GET', '/v2/shares/detail?name=%s&is_soft_deleted=true' % SHARE_ID,
         ScriptedResponse(200, {'shares': []})),
    ])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'].startswith('No share has the ID or the name %s.' % SHARE_ID)
    assert session.writes() == []


def test_a_share_named_like_a_uuid_is_still_found_by_its_name(monkeypatch):
    named = dict(SHARE, name=NET_ID)
    outcome, session = run(monkeypatch, {'name': NET_ID, 'state': 'absent'}, [
        ('GET', '/v2/shares/' + NET_ID, NOT_FOUND),
        ('GET', '/v2/shares/detail?name=' + NET_ID, ScriptedResponse(200, {'shares': [named]})),
        share_locks(SHARE_ID),
        ('GET', NO_SNAPSHOTS, ScriptedResponse(200, {'snapshots': [], 'count': 0})),
        ('DELETE', '/v2/shares/' + SHARE_ID, ScriptedResponse(202)),
        ('GET', '/v2/shares/' + SHARE_ID, NOT_FOUND),
    ])
    assert outcome.result['changed'] is True


def test_soft_delete_on_an_old_server_fails_before_any_write(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'state': 'absent', 'soft_delete': True}, [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [SHARE]})),
    ], max_version='2.68')
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'] == 'soft_delete needs Manila API 2.69; this cloud offers 2.68.'
    assert session.writes() == []


def test_old_server_does_not_look_in_the_recycle_bin(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'size': 1, 'share_proto': 'NFS',
                                         'share_type': 'default'}, [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': []})),
        ('GET', '/v2/types?is_public=all', ScriptedResponse(200, {'share_types': [
            {'id': 'bbbbbbbb-0000-0000-0000-000000000000', 'name': 'default'}]})),
    ], max_version='2.45', check_mode=True)
    assert outcome.result['changed'] is True
    assert session.requests() == ['GET /', 'GET /v2/shares/detail?name=data',
                                  'GET /v2/types?is_public=all']


def test_check_mode_resize_and_metadata_send_no_write(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'size': 3, 'metadata': {'a': 'b'}}, [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [SHARE]})),
        ('GET', '/v2/shares/%s/export_locations' % SHARE_ID, ScriptedResponse(200, {'export_locations': []})),
    ], check_mode=True)
    assert outcome.result['changed'] is True
    assert session.writes() == [] and len(session.calls) == 3


def test_member_rename_never_resets_task_state(monkeypatch):
    renamed = dict(SHARE, name='new')
    outcome, session = run(monkeypatch, {'id': SHARE_ID, 'name': 'new'}, [
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': SHARE})),
        ('PUT', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': renamed})),
        ('GET', '/v2/shares/%s/export_locations' % SHARE_ID, ScriptedResponse(200, {'export_locations': []})),
    ])
    assert outcome.result['changed'] is True
    assert outcome.result['share']['name'] == 'new'
    # one PUT with Manila's display_name key, no read-back, no task-state reset
    assert [c.method for c in session.calls] == ['GET', 'GET', 'PUT', 'GET']
    assert session.bodies('PUT') == [{'share': {'display_name': 'new'}}]
    assert not any('reset_task_state' in str(c.body) for c in session.calls)


def test_metadata_purge_keeps_manilas_keys_and_reads_nothing_back(monkeypatch):
    tagged = dict(SHARE, metadata={'a': '1', 'old': 'x', '__affinity_same_host': 'h'})
    outcome, session = run(monkeypatch, {'name': 'data', 'metadata': {'a': '2'}, 'purge_metadata': True}, [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [tagged]})),
        ('POST', '/v2/shares/%s/metadata' % SHARE_ID, ScriptedResponse(200, {'metadata': {'a': '2'}})),
        ('DELETE', '/v2/shares/%s/metadata/old' % SHARE_ID, ScriptedResponse(200)),
        ('GET', '/v2/shares/%s/export_locations' % SHARE_ID, ScriptedResponse(200, {'export_locations': []})),
    ])
    assert outcome.result['share']['metadata'] == {'a': '2', '__affinity_same_host': 'h'}
    assert session.bodies('POST') == [{'metadata': {'a': '2'}}]
    assert len(session.calls) == 5


def test_a_timeout_below_one_second_is_refused_before_any_request(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'timeout': 0}, [])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'] == 'timeout must be a positive number of seconds, got 0.'
    # only the versions document of the scripted client fixture; nothing from the module
    assert len(session.calls) == 1


def test_an_unknown_reference_fails_before_the_create_naming_it(monkeypatch):
    for check_mode in (False, True):
        outcome, session = run(monkeypatch, {
            'name': 'data', 'size': 1, 'share_proto': 'NFS', 'share_type': 'dhss',
            'availability_zone': 'nowhere'}, [
            ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': []})),
            ('GET', '/v2/shares/detail?name=data&is_soft_deleted=true', ScriptedResponse(200, {'shares': []})),
            ('GET', '/v2/types?is_public=all', ScriptedResponse(200, {'share_types': [DHSS_TYPE]})),
            ('GET', '/v2/availability-zones', ScriptedResponse(200, {'availability_zones': [
                {'id': '44444444-0000-0000-0000-000000000000', 'name': 'nova'}]})),
        ], check_mode=check_mode)
        assert isinstance(outcome, Fail), outcome.result
        assert outcome.result['msg'].startswith("availability_zone: no availability zone with "
                                                "the name or ID 'nowhere' exists")
        assert session.writes() == []


def test_a_share_made_by_another_task_at_the_same_time_is_adopted(monkeypatch):
    mine = dict(SHARE, id='77777777-2222-3333-4444-555555555555', status='available',
                created_at='2026-01-01T10:00:01.000000', share_network_id=None)
    older = dict(SHARE, status='available', created_at='2026-01-01T10:00:00.000000',
                 share_network_id=None)
    outcome, session = run(monkeypatch, {'name': 'data', 'size': 1, 'share_proto': 'NFS',
                                         'share_type': 'dhss'}, [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': []})),
        ('GET', '/v2/shares/detail?name=data&is_soft_deleted=true', ScriptedResponse(200, {'shares': []})),
        ('GET', '/v2/types?is_public=all', ScriptedResponse(200, {'share_types': [DHSS_TYPE]})),
        ('POST', '/v2/shares', ScriptedResponse(200, {'share': dict(mine, status='creating')})),
        ('GET', '/v2/shares/' + mine['id'], ScriptedResponse(200, {'share': mine})),
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [older, mine]})),
        ('DELETE', '/v2/shares/' + mine['id'], ScriptedResponse(202)),
        ('GET', '/v2/shares/' + mine['id'], ScriptedResponse(404, {'itemNotFound': {'message': 'x'}})),
        ('GET', '/v2/shares/%s/export_locations' % SHARE_ID, ScriptedResponse(
            200, {'export_locations': []})),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['changed'] is True
    assert outcome.result['share']['id'] == SHARE_ID
    assert any('Another task created share' in w for w in outcome.result['warnings'])
    assert [c.method for c in session.writes()] == ['POST', 'DELETE']


def test_a_blank_metadata_value_is_refused_before_any_request(monkeypatch):
    # Before: the PUT (description) and the extend went out, then Manila refused the metadata.
    outcome, session = run(monkeypatch, {'name': 'data', 'size': 2, 'description': 'new',
                                         'metadata': {'a': ''}}, [])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'].startswith("metadata: key 'a' has an empty value")
    assert session.requests() == ['GET /'] and 'changed' not in outcome.result


def test_a_null_metadata_value_removes_the_key_without_purge(monkeypatch):
    tagged = dict(SHARE, metadata={'a': '1', 'old': 'x'})
    outcome, session = run(monkeypatch, {'name': 'data', 'metadata': {'old': None, 'gone': None}}, [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [tagged]})),
        ('DELETE', '/v2/shares/%s/metadata/old' % SHARE_ID, ScriptedResponse(200)),
        ('GET', '/v2/shares/%s/export_locations' % SHARE_ID, ScriptedResponse(200, {'export_locations': []})),
    ])
    assert outcome.result['changed'] is True
    assert outcome.result['share']['metadata'] == {'a': '1'}
    assert not any(c.body is not None and 'None' in str(c.body) for c in session.calls)


def test_a_null_metadata_value_of_an_absent_key_is_no_change(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'metadata': {'gone': None}}, [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [SHARE]})),
        ('GET', '/v2/shares/%s/export_locations' % SHARE_ID, ScriptedResponse(200, {'export_locations': []})),
    ])
    assert outcome.result['changed'] is False and session.writes() == []


def test_a_refusal_after_an_accepted_update_reports_changed(monkeypatch):
    # The description is changed (PUT accepted), then the extend is over quota.
    described = dict(SHARE, description='new')
    outcome, session = run(monkeypatch, {'name': 'data', 'size': 5000, 'description': 'new'}, [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [SHARE]})),
        ('PUT', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': described})),
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(403, {'forbidden': {
            'code': 403, 'message': 'Requested share exceeds allowed project/user or share '
                                    'type gigabytes quota.'}})),
    ])
    assert isinstance(outcome, Fail)
    assert outcome.result['changed'] is True
    assert outcome.result['accepted_writes'] == ['PUT shares/' + SHARE_ID]
    assert [c.method for c in session.writes()] == ['PUT', 'POST']


def test_a_share_that_fails_to_create_is_reported_and_left(monkeypatch):
    created = dict(SHARE, status='creating', share_network_id=None)
    outcome, session = run(monkeypatch, {'name': 'data', 'size': 1, 'share_proto': 'NFS',
                                         'share_type': 'dhss'}, [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': []})),
        ('GET', '/v2/shares/detail?name=data&is_soft_deleted=true', ScriptedResponse(200, {'shares': []})),
        ('GET', '/v2/types?is_public=all', ScriptedResponse(200, {'share_types': [DHSS_TYPE]})),
        ('POST', '/v2/shares', ScriptedResponse(200, {'share': created})),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': dict(created, status='error')})),
        ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % SHARE_ID,
         ScriptedResponse(200, {'messages': [{'user_message': 'allocate host: no valid host'}]})),
    ])
    assert isinstance(outcome, Fail), outcome.result
    assert 'no valid host' in outcome.result['msg']
    assert ('The share %s was created and is left in that state; delete it with state=absent.'
            % SHARE_ID) in outcome.result['msg']
    assert outcome.result['share']['id'] == SHARE_ID
    # The share as the wait last read it, not as the create answered (issue 36).
    assert outcome.result['share']['status'] == 'error'
    assert outcome.result['changed'] is True
    assert len(session.bodies('POST')) == 1


def test_a_resize_that_fails_returns_the_share_as_last_read(monkeypatch):
    extending = dict(SHARE, status='extending')
    outcome, session = run(monkeypatch, {'name': 'data', 'size': 2}, [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [SHARE]})),
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(202)),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': extending})),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(
            200, {'share': dict(SHARE, status='extending_error')})),
        ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % SHARE_ID,
         ScriptedResponse(200, {'messages': []})),
    ])
    assert isinstance(outcome, Fail), outcome.result
    assert 'went to extending_error' in outcome.result['msg']
    assert outcome.result['share']['status'] == 'extending_error'
    assert outcome.result['changed'] is True
    assert session.bodies('POST') == [{'extend': {'new_size': 2}}]


def test_a_boolean_size_is_refused_before_any_request(monkeypatch):
    # ansible-core takes true as an int; Manila would have been sent "size": true (issue 37)
    outcome, session = run(monkeypatch, {'name': 'data', 'size': True, 'share_proto': 'NFS'}, [])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'] == 'size must be a whole number, not true (a boolean).'
    assert session.requests() in ([], ['GET /'])


def test_an_unknown_scheduler_hint_is_refused_before_any_request(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'size': 1, 'share_proto': 'NFS',
                                         'scheduler_hints': {'same_host': 'data'}}, [])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'].startswith('scheduler_hints.same_host must be the ID of a share')
    assert session.requests() in ([], ['GET /'])
