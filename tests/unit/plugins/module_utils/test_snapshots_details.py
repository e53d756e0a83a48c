# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Snapshots: the plan's remaining branches (pure functions), and what the API
class sends and hands back (scripted HTTP)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime
import re
import time

import pytest

from keystoneauth1 import exceptions as ksa_exc

from ansible_collections.openkeel.manila.plugins.module_utils import snapshots as sn
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    InvalidInput,
    NotApplied,
    UnsupportedFeature,
    WaitTimeout,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    FakeClock,
    ScriptedResponse,
    expect,
    make_client,
)

SHARE = {'id': 'sh', 'name': 'data', 'size': 3, 'status': 'available', 'snapshot_support': True,
         'share_type_name': 'gold'}


def snap(sid='s1', **fields):
    base = {'id': sid, 'name': 'n', 'description': 'd', 'share_id': 'sh', 'size': 3,
            'status': 'available', 'created_at': '2026-01-01T00:00:00', 'metadata': {}}
    base.update(fields)
    return base


def test_views():
    assert sn.diff_view(None) == {} and sn.diff_view({}) == {}
    view = sn.diff_view(snap(metadata={'a': '1', '__x': 'y', sn.REVERT_MARKER: 't'}))
    assert view == {'name': 'n', 'description': 'd', 'share_id': 'sh', 'size': 3,
                    'status': 'available', 'reverted': True, 'revert_requested': False,
                    'metadata': {'a': '1'}}
    assert sn.diff_view(snap())['reverted'] is False
    requested = sn.diff_view(snap(metadata={'a': '1', sn.REVERT_REQUESTED: 't'}))
    assert (requested['reverted'], requested['revert_requested'], requested['metadata']) == (
        False, True, {'a': '1'})
    after = sn.predicted_after(snap(metadata={'a': '1', 'b': '2'}),
                               {'display_name': 'x', 'display_description': 'y'}, {'c': '3'}, ['a', 'z'])
    assert (after['name'], after['description'], after['metadata']) == ('x', 'y', {'b': '2', 'c': '3'})
    assert sn.predicted_after(snap()) == sn.diff_view(snap())
    assert sn.snapshot_label(snap()) == 'Snapshot n (s1)'
    assert sn.names_and_ids([snap('a', name='old'), snap('b', name='new', created_at='2027')]) == \
        'new (b), old (a)'
    assert sn.brief(snap(extra=1)) == {'id': 's1', 'name': 'n', 'status': 'available',
                                       'created_at': '2026-01-01T00:00:00'}
    assert sn.reverted_at(snap(metadata=None)) is None


def test_plan_object():
    plan = sn.SnapshotPlan('nothing')
    assert (plan.before, plan.after, plan.body, plan.update, plan.metadata_set,
            plan.metadata_delete, plan.record_revert) == ({}, {}, None, {}, {}, [], False)
    assert repr(plan) == "SnapshotPlan('nothing')" and not plan.changed
    assert sn.SnapshotPlan('revert').changed


@pytest.mark.parametrize('share,error,needle', [
    (dict(SHARE, snapshot_support=False), InvalidInput, 'without snapshot_support=True (gold)'),
    (dict(SHARE, is_soft_deleted=True), InvalidInput, 'is in the recycle bin'),
    (dict(SHARE, status='error'), CannotConverge, 'is in status error; Manila snapshots only'),
    (dict(SHARE, status='extending_error'), CannotConverge, 'extending_error'),
])
def test_shares_that_cannot_be_snapshotted(share, error, needle):
    with pytest.raises(error) as err:
        sn.check_share_can_snapshot(share)
    assert needle in str(err.value)


def test_shares_that_can():
    sn.check_share_can_snapshot({'id': 'x', 'status': 'creating'})
    plan = sn.plan_create(SHARE, {'name': 'n', 'description': '', 'metadata': {}})
    assert plan.body == {'share_id': 'sh', 'name': 'n', 'description': ''}
    assert plan.after['size'] == 3 and plan.after['status'] == 'available'
    with pytest.raises(InvalidInput):
        sn.plan_create(SHARE, {'name': ''})


@pytest.mark.parametrize('status', sorted(sn.SNAPSHOT_ERROR_STATES))
def test_update_refuses_snapshots_in_error(status):
    with pytest.raises(CannotConverge):
        sn.plan_update(snap(status=status), {})


def test_update_and_absent_branches():
    assert sn.plan_update(snap(), {'name': 'x', 'description': 'd', 'metadata': None}).action == 'nothing'
    plan = sn.plan_update(snap(metadata={'a': '1', sn.REVERT_MARKER: 't'}), {'metadata': {}},
                          purge_metadata=True)
    assert plan.metadata_delete == ['a'] and plan.action == 'update'
    assert sn.plan_update(snap(), {'name': 'x'}, rename=True).update == {'display_name': 'x'}
    assert sn.plan_absent(None).action == 'nothing'
    for status in ('available', 'error', 'creating', 'deleting'):
        assert sn.plan_absent(snap(status=status)).action == 'delete'
    with pytest.raises(CannotConverge) as err:
        sn.plan_absent(snap(status='error_deleting'))
    assert 'is in status error_deleting, in which Manila deletes no snapshot' in str(err.value)


def test_needs_revert():
    marked = snap(metadata={sn.REVERT_MARKER: 't'})
    assert sn.needs_revert(snap()) and not sn.needs_revert(marked) and sn.needs_revert(marked, True)


@pytest.mark.parametrize('share_status,snap_status,outcome', [
    ('reverting', 'restoring', sn.REVERT_IN_PROGRESS),
    ('reverting_to_snapshot', 'available', sn.REVERT_IN_PROGRESS),
    ('available', 'restoring', sn.REVERT_IN_PROGRESS),    # Manila frees the share first
    ('reverting_error', 'available', sn.REVERT_FAILED),
    ('available', 'available', sn.REVERT_FINISHED),
    ('extending', 'available', sn.REVERT_FINISHED),       # finished, and the share moved on
    ('error', 'available', sn.REVERT_FINISHED),
])
def test_what_became_of_a_requested_revert(share_status, snap_status, outcome):
    requested = snap(status=snap_status, metadata={sn.REVERT_REQUESTED: 't'})
    assert sn.requested_revert_outcome({'id': 'sh', 'status': share_status}, requested) == outcome
    assert sn.revert_requested_at(requested) == 't' and sn.revert_requested_at(snap()) is None


def test_the_request_key_is_kept_like_the_marker():
    with pytest.raises(InvalidInput) as err:
        sn.task_metadata({sn.REVERT_REQUESTED: 'now'})
    assert sn.REVERT_REQUESTED in str(err.value)
    kept = snap(metadata={'a': '1', sn.REVERT_MARKER: 't', sn.REVERT_REQUESTED: 't'})
    assert sn.snapshot_metadata_changes(kept, {}, purge=True) == ({}, ['a'])


def test_plan_share_snapshots_order_and_refusals():
    assert sn.plan_share_snapshots(SHARE, [], False) == []
    old, new = snap('a'), snap('b', created_at='2027')
    assert [s['id'] for s in sn.plan_share_snapshots(SHARE, [old, new], True)] == ['b', 'a']
    with pytest.raises(InvalidInput) as err:
        sn.plan_share_snapshots(SHARE, [old, new], False)
    assert 'has 2 snapshot(s): n (b), n (a).' in str(err.value)
    with pytest.raises(CannotConverge) as err:
        sn.plan_share_snapshots(SHARE, [old, snap('c', status='error_deleting'),
                                        snap('d', status='manage_error')], True)
    assert '(error_deleting, manage_error)' in str(err.value)
    assert sn.plan_share_snapshots(SHARE, [snap('e', status='deleting')], True)[0]['id'] == 'e'


# -- what the plans carry -------------------------------------------------------------------

def test_the_deletion_shows_the_snapshot_before():
    assert sn.plan_absent(snap()).before == sn.diff_view(snap())


def test_a_description_alone_is_an_update_and_shows_in_the_diff():
    plan = sn.plan_update(snap(description='d'), {'description': 'new'})
    assert plan.action == 'update' and plan.update == {'display_description': 'new'}
    assert plan.after['description'] == 'new' and plan.before['description'] == 'd'
    plan = sn.plan_update(snap(metadata={'a': '1'}), {'metadata': {'b': '2'}})
    assert plan.metadata_set == {'b': '2'} and plan.metadata_delete == []   # no purge by default
    assert plan.after['metadata'] == {'a': '1', 'b': '2'}


def test_a_revert_keeps_every_other_change_of_the_task():
    base = sn.plan_update(snap(metadata={'a': '1'}), {'name': 'x', 'metadata': {}},
                          purge_metadata=True, rename=True)
    plan = sn.plan_revert(SHARE_REVERTABLE, snap(), [snap()], base=base)
    assert plan.action == 'revert' and plan.record_revert
    assert (plan.update, plan.metadata_delete) == ({'display_name': 'x'}, ['a'])
    assert plan.after == dict(base.after, reverted=True) and plan.after['name'] == 'x'


SHARE_REVERTABLE = dict(SHARE, revert_to_snapshot_support=True, access_rules_status='active')


def test_an_older_revert_names_only_the_newer_snapshots_to_delete():
    older = snap('s0', name='sunday', created_at='2025-12-31T00:00:00')
    target = snap('s1', name='monday', created_at='2026-01-01T00:00:00')
    newer = snap('s2', name='tuesday', created_at='2026-01-02T00:00:00')
    leaving = snap('s3', name='wednesday', created_at='2026-01-03T00:00:00', status='deferred_deleting')
    with pytest.raises(InvalidInput) as err:
        sn.check_revertable(SHARE_REVERTABLE, target, [older, target, newer, leaving])
    assert str(err.value).endswith('delete the newer snapshots first (this discards them): '
                                   'tuesday (s2).')


def test_the_revert_marker_is_a_utc_time_whatever_the_local_zone(monkeypatch):
    monkeypatch.setenv('TZ', 'Asia/Kolkata')
    time.tzset()
    try:
        before = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
        stamp = sn.utc_now()
        after = datetime.datetime.now(datetime.timezone.utc)
    finally:
        monkeypatch.delenv('TZ')
        time.tzset()
    assert re.match(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$', stamp)
    moment = datetime.datetime.strptime(stamp, '%Y-%m-%dT%H:%M:%SZ').replace(tzinfo=datetime.timezone.utc)
    assert before <= moment <= after


# -- the API class -----------------------------------------------------------------------------

SNAP_PATH = '/v2/snapshots/s1'


def got(**fields):
    return ScriptedResponse(200, {'snapshot': snap(**fields)})


def test_apply_update_sends_the_put_and_the_metadata():
    plan = sn.plan_update(snap(metadata={'a': '1', 'b/c': '2'}),
                          {'name': 'x', 'metadata': {'a': '9'}}, purge_metadata=True, rename=True)
    client, session = make_client([
        expect('PUT', SNAP_PATH, got(name='x', metadata={'a': '1', 'b/c': '2'}),
               body={'snapshot': {'display_name': 'x'}}),
        expect('POST', SNAP_PATH + '/metadata', ScriptedResponse(200, {'metadata': {'a': '9'}}),
               body={'metadata': {'a': '9'}}),
        expect('DELETE', SNAP_PATH + '/metadata/b%2Fc', ScriptedResponse(200)),
    ])
    api = sn.SnapshotAPI(client)
    assert api.timeout == 180
    assert api.apply_update(snap(metadata={'a': '1', 'b/c': '2'}), plan) == snap(
        name='x', metadata={'a': '9'})


def test_a_metadata_key_already_gone_is_what_the_task_wanted():
    client, session = make_client([
        expect('DELETE', SNAP_PATH + '/metadata/a', ScriptedResponse(404, {'itemNotFound': {
            'code': 404, 'message': 'no such key'}})),
    ])
    sn.SnapshotAPI(client).delete_metadata_key('s1', 'a')
    assert len(session.writes()) == 1


@pytest.mark.parametrize('call', ['set_metadata', 'delete_metadata_key'])
def test_snapshot_metadata_writes_need_2_73(call):
    client, session = make_client([], max_version='2.72')
    api = sn.SnapshotAPI(client)
    with pytest.raises(UnsupportedFeature):
        if call == 'set_metadata':
            api.set_metadata('s1', {'a': '1'})
        else:
            api.delete_metadata_key('s1', 'a')
    assert session.writes() == []


def test_the_revert_is_recorded_in_the_marker(monkeypatch):
    monkeypatch.setattr(sn, 'utc_now', lambda: '2026-12-01T10:00:00Z')
    client, session = make_client([
        expect('POST', SNAP_PATH + '/metadata', ScriptedResponse(200, {'metadata': {}}),
               body={'metadata': {sn.REVERT_MARKER: '2026-12-01T10:00:00Z'}}),
    ])
    recorded = sn.SnapshotAPI(client).record_revert(snap(metadata={'a': '1'}))
    assert recorded == snap(metadata={'a': '1', sn.REVERT_MARKER: '2026-12-01T10:00:00Z'})


def test_export_locations_of_a_snapshot():
    locations = [{'id': 'e1', 'path': '10.0.0.1:/snap'}]
    client, session = make_client([
        expect('GET', SNAP_PATH + '/export-locations', ScriptedResponse(200, {
            'share_snapshot_export_locations': locations})),
    ])
    assert sn.SnapshotAPI(client).export_locations('s1') == locations


REVERT_ACTION = '/v2/shares/sh/action'


def test_a_revert_without_waiting_reports_the_share_reverting():
    client, session = make_client([
        expect('POST', REVERT_ACTION, ScriptedResponse(202), body={'revert': {'snapshot_id': 's1'}}),
    ])
    assert sn.SnapshotAPI(client).revert_share(SHARE, snap(), wait=False) == dict(SHARE, status='reverting')


def test_the_revert_waits_with_the_snapshot_timeout():
    client, session = make_client([
        expect('POST', REVERT_ACTION, ScriptedResponse(202)),
        expect('GET', '/v2/shares/sh', ScriptedResponse(200, {'share': dict(SHARE, status='reverting')})),
        expect('GET', '/v2/messages?resource_id=sh&sort_key=created_at&sort_dir=desc&limit=3',
               ScriptedResponse(200, {'messages': []})),
    ], clock=FakeClock())
    with pytest.raises(WaitTimeout) as err:
        sn.SnapshotAPI(client, timeout=0).revert_share(SHARE, snap())
    assert 'after 0 seconds' in str(err.value)


def test_settle_share_waits_only_for_a_busy_share():
    client, session = make_client([
        expect('GET', '/v2/shares/sh', ScriptedResponse(200, {'share': SHARE})),
    ], clock=FakeClock())
    api = sn.SnapshotAPI(client)
    assert api.wait_share_if_busy(SHARE) is SHARE
    assert api.wait_share_if_busy(dict(SHARE, status='extending')) == SHARE
    with pytest.raises(CannotConverge) as err:
        api.wait_share_if_busy(dict(SHARE, status='extending'), wait=False)
    assert 'is busy (extending)' in str(err.value)


def test_a_busy_snapshot_that_does_not_settle_times_out_with_its_status():
    client, session = make_client([
        expect('GET', SNAP_PATH, got(status='creating')),
        expect('GET', '/v2/messages?resource_id=s1&sort_key=created_at&sort_dir=desc&limit=3',
               ScriptedResponse(200, {'messages': [{'user_message': 'create: slow backend.'}]})),
    ], clock=FakeClock())
    with pytest.raises(WaitTimeout) as err:
        sn.SnapshotAPI(client, timeout=0).wait_if_busy(snap(status='creating'))
    assert str(err.value).startswith('Snapshot n (s1) is still creating after 0 seconds '
                                     '(waiting for it to finish creating)')
    assert 'slow backend' in str(err.value)


def test_delete_all_goes_on_after_a_snapshot_that_vanished():
    client, session = make_client([
        expect('GET', SNAP_PATH, ScriptedResponse(404, {'itemNotFound': {'code': 404, 'message': 'x'}})),
        expect('DELETE', '/v2/snapshots/s2', ScriptedResponse(202)),
        expect('GET', '/v2/snapshots/s2', ScriptedResponse(404, {'itemNotFound': {'code': 404, 'message': 'x'}})),
    ], clock=FakeClock())
    sn.SnapshotAPI(client).delete_all([snap(status='creating'), snap('s2')])
    assert len(session.writes()) == 1


def test_find_by_name_without_a_share_filters_by_name_only():
    client, session = make_client([
        expect('GET', '/v2/snapshots/detail?name=n', ScriptedResponse(200, {'snapshots': [snap()]})),
    ])
    assert sn.SnapshotAPI(client).find_by_name('n')['id'] == 's1'


def test_a_lost_metadata_key_removal_is_seen_on_the_snapshot():
    client, session = make_client([
        expect('DELETE', SNAP_PATH + '/metadata/a', ksa_exc.ConnectFailure('Connection aborted.')),
        expect('GET', SNAP_PATH, got(metadata={'b': '2'})),
    ], clock=FakeClock())
    sn.SnapshotAPI(client).delete_metadata_key('s1', 'a')
    assert len(session.writes()) == 1


def test_a_busy_snapshot_without_waiting_is_an_error():
    client, session = make_client([])
    with pytest.raises(CannotConverge) as err:
        sn.SnapshotAPI(client).wait_if_busy(snap(status='creating'), wait=False)
    assert str(err.value) == 'Snapshot n (s1) is busy (creating); run again later or set wait=true.'


def test_settle_share_waits_with_the_snapshot_timeout():
    client, session = make_client([
        expect('GET', '/v2/shares/sh', ScriptedResponse(200, {'share': dict(SHARE, status='extending')})),
        expect('GET', '/v2/messages?resource_id=sh&sort_key=created_at&sort_dir=desc&limit=3',
               ScriptedResponse(200, {'messages': []})),
    ], clock=FakeClock())
    with pytest.raises(WaitTimeout) as err:
        sn.SnapshotAPI(client, timeout=0).wait_share_if_busy(dict(SHARE, status='extending'))
    assert 'after 0 seconds' in str(err.value)


def test_an_older_namesake_being_deleted_does_not_take_the_name():
    mine = snap('s2', name='tuesday', created_at='2026-01-02T00:00:00')
    leaving = snap('s1', name='tuesday', created_at='2026-01-01T00:00:00', status='deleting')
    client, session = make_client([
        expect('GET', '/v2/snapshots/detail?name=tuesday&share_id=sh', ScriptedResponse(200, {
            'snapshots': [leaving, mine]})),
    ])
    assert sn.SnapshotAPI(client).settle_namesakes(mine) == (mine, False)
    assert client.warnings == [] and session.writes() == []


def test_a_lost_metadata_key_removal_with_the_key_still_there_was_not_applied():
    client, session = make_client([
        expect('DELETE', SNAP_PATH + '/metadata/a', ksa_exc.ConnectFailure('Connection aborted.')),
    ] + [expect('GET', SNAP_PATH, got(metadata={'a': '1'}))] * 3, clock=FakeClock())
    with pytest.raises(NotApplied):
        sn.SnapshotAPI(client).delete_metadata_key('s1', 'a')
    assert len(session.writes()) == 1
