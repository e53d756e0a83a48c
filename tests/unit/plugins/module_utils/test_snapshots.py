# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Snapshot planners (pure functions) and the snapshot calls on scripted HTTP,
for what the local cloud cannot produce: error states, old servers, other
projects' snapshots."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    Conflict,
    InvalidInput,
    WaitFailed,
)
from ansible_collections.openkeel.manila.plugins.module_utils.snapshots import (
    CREATE,
    DELETE,
    NOTHING,
    REVERT,
    REVERT_MARKER,
    UPDATE,
    SnapshotAPI,
    latest_snapshot,
    newest_first,
    plan_absent,
    plan_create,
    plan_revert,
    plan_share_snapshots,
    plan_update,
    task_metadata,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    make_client,
)

SHARE_ID = '11111111-2222-3333-4444-555555555555'
SHARE = {'id': SHARE_ID, 'name': 'data', 'size': 1, 'status': 'available',
         'share_type_name': 'default', 'snapshot_support': True,
         'revert_to_snapshot_support': True, 'mount_snapshot_support': False,
         'access_rules_status': 'active', 'is_soft_deleted': False}


def snap(sid, name, created, status='available', **extra):
    return dict({'id': sid, 'name': name, 'share_id': SHARE_ID, 'status': status, 'size': 1,
                 'created_at': created, 'description': None, 'metadata': {}}, **extra)


OLD = snap('aaaaaaaa-0000-0000-0000-000000000001', 'monday', '2026-11-30T10:00:00.000000')
NEW = snap('aaaaaaaa-0000-0000-0000-000000000002', 'tuesday', '2026-12-01T10:00:00.000000')


# -- latest ------------------------------------------------------------------------

def test_latest_is_newest_created_at_then_highest_id_like_manila():
    same_second = snap('aaaaaaaa-0000-0000-0000-000000000003', 'twin', NEW['created_at'])
    assert latest_snapshot([OLD, NEW, same_second])['id'] == same_second['id']
    assert [s['name'] for s in newest_first([OLD, same_second, NEW])] == ['twin', 'tuesday', 'monday']


def test_latest_leaves_out_deferred_deletions():
    going = snap('aaaaaaaa-0000-0000-0000-000000000009', 'going', '2026-12-02T00:00:00',
                 status='deferred_deleting')
    assert latest_snapshot([OLD, NEW, going])['id'] == NEW['id']
    assert latest_snapshot([]) is None


def test_created_at_without_fraction_sorts_before_the_same_second_with_one():
    whole = snap('aaaaaaaa-0000-0000-0000-00000000000f', 'whole', '2026-12-01T10:00:00')
    assert latest_snapshot([whole, NEW])['id'] == NEW['id']


# -- revert ------------------------------------------------------------------------

def test_revert_to_an_older_snapshot_is_refused_naming_the_latest():
    with pytest.raises(InvalidInput) as err:
        plan_revert(SHARE, OLD, [OLD, NEW])
    message = str(err.value)
    assert message.startswith('Manila only reverts a share to its latest snapshot.')
    assert 'tuesday (%s)' % NEW['id'] in message and 'monday (%s)' % OLD['id'] in message


def test_revert_to_the_latest_is_planned_and_recorded():
    plan = plan_revert(SHARE, NEW, [OLD, NEW])
    assert plan.action == REVERT and plan.record_revert
    assert plan.before['reverted'] is False and plan.after['reverted'] is True


def test_a_recorded_revert_is_not_repeated_unless_always():
    done = dict(NEW, metadata={REVERT_MARKER: '2026-12-01T11:00:00Z'})
    assert plan_revert(SHARE, done, [OLD, done]).action == NOTHING
    assert plan_revert(SHARE, done, [OLD, done], always=True).action == REVERT


def test_a_type_without_revert_support_is_refused():
    with pytest.raises(InvalidInput) as err:
        plan_revert(dict(SHARE, revert_to_snapshot_support=False), NEW, [NEW])
    assert 'revert_to_snapshot_support' in str(err.value)


def test_revert_refused_while_rules_sync_or_share_in_error():
    with pytest.raises(CannotConverge) as err:
        plan_revert(dict(SHARE, access_rules_status='syncing'), NEW, [NEW])
    assert 'syncing' in str(err.value)
    with pytest.raises(CannotConverge):
        plan_revert(dict(SHARE, status='extending_error'), NEW, [NEW])


def test_revert_of_another_shares_snapshot_is_refused():
    with pytest.raises(InvalidInput) as err:
        plan_revert(dict(SHARE, id='99999999-2222-3333-4444-555555555555'), NEW, [NEW])
    assert 'belongs to share' in str(err.value)


def test_revert_keeps_the_other_changes_of_the_task():
    base = plan_update(NEW, {'metadata': {'a': '1'}})
    plan = plan_revert(SHARE, NEW, [NEW], base=base)
    assert plan.action == REVERT and plan.metadata_set == {'a': '1'}


# -- create, update, delete -------------------------------------------------------------

def test_plan_create_checks_the_share_first():
    with pytest.raises(InvalidInput) as err:
        plan_create(dict(SHARE, snapshot_support=False), {'name': 's'})
    assert 'snapshot_support' in str(err.value)
    with pytest.raises(InvalidInput) as err:
        plan_create(dict(SHARE, is_soft_deleted=True), {'name': 's'})
    assert 'recycle bin' in str(err.value)
    with pytest.raises(InvalidInput) as err:
        plan_create(SHARE, {'name': None})
    assert str(err.value) == 'name is required to create a snapshot.'


def test_plan_create_body_and_diff():
    plan = plan_create(SHARE, {'name': 's', 'description': 'd', 'metadata': {'n': 1}})
    assert plan.action == CREATE
    assert plan.body == {'share_id': SHARE_ID, 'name': 's', 'description': 'd',
                         'metadata': {'n': '1'}}
    assert plan.after['status'] == 'available' and plan.after['metadata'] == {'n': '1'}


def test_purge_keeps_manila_keys_and_the_revert_marker():
    current = dict(NEW, metadata={'a': '1', '__x': 'y', REVERT_MARKER: 't'})
    plan = plan_update(current, {'metadata': {}}, purge_metadata=True)
    assert plan.action == UPDATE and plan.metadata_delete == ['a']
    assert plan.after['reverted'] is True and plan.after['metadata'] == {}   # diffs show user keys


def test_the_marker_cannot_be_set_by_hand():
    with pytest.raises(InvalidInput) as err:
        task_metadata({REVERT_MARKER: 'now'})
    assert REVERT_MARKER in str(err.value)


def test_rename_only_by_id():
    assert plan_update(NEW, {'name': 'other'}).action == NOTHING
    plan = plan_update(NEW, {'name': 'other'}, rename=True)
    assert plan.update == {'display_name': 'other'}


def test_a_snapshot_in_error_is_not_changed_but_can_be_deleted():
    broken = dict(NEW, status='error')
    with pytest.raises(CannotConverge):
        plan_update(broken, {'description': 'x'})
    assert plan_absent(broken).action == DELETE
    with pytest.raises(CannotConverge) as err:
        plan_absent(dict(NEW, status='error_deleting'))
    assert 'force-delete' in str(err.value)


# -- a share's snapshots --------------------------------------------------------------

def test_share_with_snapshots_is_refused_naming_them():
    with pytest.raises(InvalidInput) as err:
        plan_share_snapshots(SHARE, [OLD, NEW], False)
    message = str(err.value)
    assert 'delete_snapshots=true' in message
    assert message.index(NEW['id']) < message.index(OLD['id'])   # newest first
    assert plan_share_snapshots(SHARE, [], False) == []


def test_undeletable_snapshots_stop_the_deletion_before_any_write():
    with pytest.raises(CannotConverge) as err:
        plan_share_snapshots(SHARE, [OLD, dict(NEW, status='unmanage_error')], True)
    assert NEW['id'] in str(err.value) and OLD['id'] not in str(err.value)
    assert [s['id'] for s in plan_share_snapshots(SHARE, [OLD, dict(NEW, status='creating')],
                                                  True)] == [NEW['id'], OLD['id']]


# -- calls on scripted HTTP ------------------------------------------------------------

MESSAGES = '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3'


def test_a_snapshot_in_error_ends_the_wait_with_manilas_message():
    client, session = make_client([
        ('GET', '/v2/snapshots/' + NEW['id'], ScriptedResponse(200, {'snapshot': dict(NEW, status='creating')})),
        ('GET', '/v2/snapshots/' + NEW['id'], ScriptedResponse(200, {'snapshot': dict(NEW, status='error')})),
        ('GET', MESSAGES % NEW['id'], ScriptedResponse(200, {'messages': [
            {'user_message': 'create: Driver failed to create the snapshot.'}]})),
    ])
    with pytest.raises(WaitFailed) as err:
        SnapshotAPI(client).wait(NEW)
    assert 'went to error' in str(err.value)
    assert 'Driver failed to create the snapshot' in str(err.value)


def test_a_failed_revert_ends_the_wait_with_manilas_message():
    client, session = make_client([
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(202)),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': dict(SHARE, status='reverting_error')})),
        ('GET', MESSAGES % SHARE_ID, ScriptedResponse(200, {'messages': [
            {'user_message': 'revert to snapshot: Share Driver failed to revert share to snapshot.'}]})),
    ])
    with pytest.raises(WaitFailed) as err:
        SnapshotAPI(client).revert_share(SHARE, NEW)
    assert session.bodies() == [{'revert': {'snapshot_id': NEW['id']}}]
    assert 'reverting_error' in str(err.value) and 'failed to revert' in str(err.value)


def test_manilas_409_for_a_snapshot_this_user_cannot_list_is_reworded():
    client, session = make_client([
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(409, {'conflictingRequest': {
            'code': 409, 'message': 'Snapshot %s may not be restored because it is not the most '
            'recent snapshot of share %s. Currently the latest snapshot is x.' % (NEW['id'], SHARE_ID)}})),
    ])
    with pytest.raises(InvalidInput) as err:
        SnapshotAPI(client).revert_share(SHARE, NEW)
    assert str(err.value).startswith('Manila only reverts a share to its latest snapshot')
    assert 'Currently the latest snapshot is x' in str(err.value)


# Manila's 409 answers to a revert (manila/api/v2/shares.py _revert), each with its
# own message; only the latest-snapshot one is about the latest snapshot.
SNAP_X = NEW['id']
REVERT_409S = [
    ("Share %s is in 'extending' state, but it must be in 'available' state to be reverted "
     "to a snapshot." % SHARE_ID, CannotConverge, 'Manila reverts only an available share',
     "'extending'"),
    ("Snapshot %s is in 'creating' state, but it must be in 'available' state to be "
     "restored." % SNAP_X, CannotConverge, 'only to an available snapshot', "'creating'"),
    ('Share %s may not be reverted while it has an active task.' % SHARE_ID, CannotConverge,
     'while a task (a migration) runs on it', 'active task'),
    ('Snapshot %s belongs to a share %s which has access rules that are not active.'
     % (SNAP_X, SHARE_ID), CannotConverge, 'only while all its access rules are active',
     'openkeel.manila.share_access'),
    ('Snapshot %s may not be restored because it is not the most recent snapshot of share %s. '
     'Currently the latest snapshot is x.' % (SNAP_X, SHARE_ID), InvalidInput,
     'Manila only reverts a share to its latest snapshot', 'latest snapshot is x'),
]


@pytest.mark.parametrize('message, cls, lead, detail', REVERT_409S)
def test_each_409_to_a_revert_says_its_own_reason(message, cls, lead, detail):
    client, session = make_client([
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(409, {'conflictingRequest': {
            'code': 409, 'message': message}})),
    ])
    with pytest.raises(cls) as err:
        SnapshotAPI(client).revert_share(SHARE, NEW)
    text = str(err.value)
    assert lead in text and detail in text and message in text
    assert '409' in text
    if cls is not InvalidInput:
        assert 'latest snapshot' not in text


def test_an_unknown_409_to_a_revert_is_passed_on_as_it_came():
    client, session = make_client([
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(409, {'conflictingRequest': {
            'code': 409, 'message': 'Something new.'}})),
    ])
    with pytest.raises(Conflict) as err:
        SnapshotAPI(client).revert_share(SHARE, NEW)
    assert str(err.value).startswith('Something new. (HTTP 409 on POST')


def test_snapshot_metadata_needs_2_73_before_any_write():
    client, session = make_client([], max_version='2.72')
    with pytest.raises(Exception) as err:
        SnapshotAPI(client).create({'share_id': SHARE_ID, 'name': 's', 'metadata': {'a': '1'}})
    assert str(err.value) == 'Snapshot metadata needs Manila API 2.73; this cloud offers 2.72.'
    assert session.writes() == []


def test_export_locations_are_not_asked_for_below_2_32():
    client, session = make_client([], max_version='2.31')
    assert SnapshotAPI(client).export_locations(NEW['id']) == []


def test_a_shares_snapshots_are_listed_in_every_visible_project():
    client, session = make_client([
        ('GET', '/v2/snapshots/detail?share_id=%s&all_tenants=1&with_count=true&limit=1000&offset=0' % SHARE_ID,
         ScriptedResponse(200, {'snapshots': [OLD], 'count': 1})),
    ])
    assert SnapshotAPI(client).list_for_share(SHARE_ID) == [OLD]


def test_delete_all_deletes_then_waits_for_each():
    client, session = make_client([
        ('DELETE', '/v2/snapshots/' + NEW['id'], ScriptedResponse(202)),
        ('DELETE', '/v2/snapshots/' + OLD['id'], ScriptedResponse(202)),
        ('GET', '/v2/snapshots/' + NEW['id'], ScriptedResponse(404, {'itemNotFound': {'message': 'gone'}})),
        ('GET', '/v2/snapshots/' + OLD['id'], ScriptedResponse(200, {'snapshot': dict(OLD, status='deleting')})),
        ('GET', '/v2/snapshots/' + OLD['id'], ScriptedResponse(404, {'itemNotFound': {'message': 'gone'}})),
    ])
    SnapshotAPI(client).delete_all([NEW, OLD])


# -- messages and times --------------------------------------------------------------------

NOW = datetime.datetime(2026, 12, 1, 12, 0, 0, tzinfo=datetime.timezone.utc)


def test_times_relative_and_absolute():
    assert lookups.parse_time('1h', 'since', NOW) == NOW - datetime.timedelta(hours=1)
    assert lookups.parse_time(' 2d ', 'since', NOW) == NOW - datetime.timedelta(days=2)
    assert lookups.parse_time('2026-12-01T08:00:00Z', 'since', NOW).hour == 8
    assert lookups.parse_time('2026-12-01T10:00:00+02:00', 'since', NOW).hour == 8
    assert lookups.parse_time('2026-12-01 08:00', 'since', NOW).hour == 8      # no zone: UTC
    assert lookups.manila_time(NOW) == '2026-12-01T12:00:00Z'
    with pytest.raises(InvalidInput) as err:
        lookups.parse_time('yesterday', 'before', NOW)
    assert str(err.value).startswith('before must be an ISO 8601 time')


def test_messages_filtered_here_page_newest_first_and_stop_once_past():
    def message(n, created):
        return {'id': str(n), 'created_at': created}
    page = [message(1, '2026-12-01T11:30:00.000000'), message(2, '2026-12-01T10:30:00.000000'),
            message(3, '2026-12-01T10:00:00.000000')]
    client, session = make_client([
        ('GET', '/v2/messages?resource_id=r&sort_key=created_at&sort_dir=desc&limit=1000&offset=0',
         ScriptedResponse(200, {'messages': page})),
        ('GET', '/v2/messages?resource_id=r&sort_key=created_at&sort_dir=desc&limit=1000&offset=3',
         ScriptedResponse(200, {'messages': []})),
    ], max_version='2.45')
    start = NOW - datetime.timedelta(hours=2)
    end = NOW - datetime.timedelta(hours=1)
    found = lookups.list_messages(
        client, {'resource_id': 'r'},
        keep=lambda m: start <= lookups.created_at(m) <= end,
        past=lambda m: lookups.created_at(m) < start)
    assert [m['id'] for m in found] == ['2', '3']
