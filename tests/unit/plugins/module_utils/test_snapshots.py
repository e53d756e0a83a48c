# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Snapshots: the planners with every branch (pure functions), and the snapshot
calls on scripted HTTP (what the API class sends and hands back), for what the
local cloud cannot produce: error states, old servers, other projects' snapshots."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re
import datetime
import time

import pytest

from keystoneauth1 import exceptions as ksa_exc

from ansible_collections.openkeel.manila.plugins.module_utils import manila_messages, snapshots as sn
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    Conflict,
    InvalidInput,
    NotApplied,
    UnsupportedFeature,
    WaitFailed,
    WaitTimeout,
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
    FakeClock,
    ScriptedResponse,
    expect,
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
    assert manila_messages.parse_time('1h', 'since', NOW) == NOW - datetime.timedelta(hours=1)
    assert manila_messages.parse_time(' 2d ', 'since', NOW) == NOW - datetime.timedelta(days=2)
    assert manila_messages.parse_time('2026-12-01T08:00:00Z', 'since', NOW).hour == 8
    assert manila_messages.parse_time('2026-12-01T10:00:00+02:00', 'since', NOW).hour == 8
    assert manila_messages.parse_time('2026-12-01 08:00', 'since', NOW).hour == 8      # no zone: UTC
    assert manila_messages.manila_time(NOW) == '2026-12-01T12:00:00Z'
    with pytest.raises(InvalidInput) as err:
        manila_messages.parse_time('yesterday', 'before', NOW)
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
    found = manila_messages.list_messages(
        client, {'resource_id': 'r'},
        keep=lambda m: start <= manila_messages.created_at(m) <= end,
        past=lambda m: manila_messages.created_at(m) < start)
    assert [m['id'] for m in found] == ['2', '3']


# -- a gold share of size 3 and its snapshots, for the tests below ---------------------

GOLD_SHARE = {'id': 'sh', 'name': 'data', 'size': 3, 'status': 'available', 'snapshot_support': True,
              'share_type_name': 'gold'}


def gold_snap(sid='s1', **fields):
    base = {'id': sid, 'name': 'n', 'description': 'd', 'share_id': 'sh', 'size': 3,
            'status': 'available', 'created_at': '2026-01-01T00:00:00', 'metadata': {}}
    base.update(fields)
    return base


def test_views():
    assert sn.diff_view(None) == {} and sn.diff_view({}) == {}
    view = sn.diff_view(gold_snap(metadata={'a': '1', '__x': 'y', sn.REVERT_MARKER: 't'}))
    assert view == {'name': 'n', 'description': 'd', 'share_id': 'sh', 'size': 3,
                    'status': 'available', 'reverted': True, 'revert_requested': False,
                    'metadata': {'a': '1'}}
    assert sn.diff_view(gold_snap())['reverted'] is False
    requested = sn.diff_view(gold_snap(metadata={'a': '1', sn.REVERT_REQUESTED: 't'}))
    assert (requested['reverted'], requested['revert_requested'], requested['metadata']) == (
        False, True, {'a': '1'})
    after = sn.predicted_after(gold_snap(metadata={'a': '1', 'b': '2'}),
                               {'display_name': 'x', 'display_description': 'y'}, {'c': '3'}, ['a', 'z'])
    assert (after['name'], after['description'], after['metadata']) == ('x', 'y', {'b': '2', 'c': '3'})
    assert sn.predicted_after(gold_snap()) == sn.diff_view(gold_snap())
    assert sn.snapshot_label(gold_snap()) == 'Snapshot n (s1)'
    assert sn.names_and_ids([gold_snap('a', name='old'), gold_snap('b', name='new', created_at='2027')]) == \
        'new (b), old (a)'
    assert sn.brief(gold_snap(extra=1)) == {'id': 's1', 'name': 'n', 'status': 'available',
                                            'created_at': '2026-01-01T00:00:00'}
    assert sn.reverted_at(gold_snap(metadata=None)) is None


def test_plan_object():
    plan = sn.SnapshotPlan('nothing')
    assert (plan.before, plan.after, plan.body, plan.update, plan.metadata_set,
            plan.metadata_delete, plan.record_revert) == ({}, {}, None, {}, {}, [], False)
    assert repr(plan) == "SnapshotPlan('nothing')" and not plan.changed
    assert sn.SnapshotPlan('revert').changed


@pytest.mark.parametrize('share,error,needle', [
    (dict(GOLD_SHARE, snapshot_support=False), InvalidInput, 'without snapshot_support=True (gold)'),
    (dict(GOLD_SHARE, is_soft_deleted=True), InvalidInput, 'is in the recycle bin'),
    (dict(GOLD_SHARE, status='error'), CannotConverge, 'is in status error; Manila snapshots only'),
    (dict(GOLD_SHARE, status='extending_error'), CannotConverge, 'extending_error'),
])
def test_shares_that_cannot_be_snapshotted(share, error, needle):
    with pytest.raises(error) as err:
        sn.check_share_can_snapshot(share)
    assert needle in str(err.value)


def test_shares_that_can():
    sn.check_share_can_snapshot({'id': 'x', 'status': 'creating'})
    plan = sn.plan_create(GOLD_SHARE, {'name': 'n', 'description': '', 'metadata': {}})
    assert plan.body == {'share_id': 'sh', 'name': 'n', 'description': ''}
    assert plan.after['size'] == 3 and plan.after['status'] == 'available'
    with pytest.raises(InvalidInput):
        sn.plan_create(GOLD_SHARE, {'name': ''})


@pytest.mark.parametrize('status', sorted(sn.SNAPSHOT_ERROR_STATES))
def test_update_refuses_snapshots_in_error(status):
    with pytest.raises(CannotConverge):
        sn.plan_update(gold_snap(status=status), {})


def test_update_and_absent_branches():
    assert sn.plan_update(gold_snap(), {'name': 'x', 'description': 'd', 'metadata': None}).action == 'nothing'
    plan = sn.plan_update(gold_snap(metadata={'a': '1', sn.REVERT_MARKER: 't'}), {'metadata': {}},
                          purge_metadata=True)
    assert plan.metadata_delete == ['a'] and plan.action == 'update'
    assert sn.plan_update(gold_snap(), {'name': 'x'}, rename=True).update == {'display_name': 'x'}
    assert sn.plan_absent(None).action == 'nothing'
    for status in ('available', 'error', 'creating', 'deleting'):
        assert sn.plan_absent(gold_snap(status=status)).action == 'delete'
    with pytest.raises(CannotConverge) as err:
        sn.plan_absent(gold_snap(status='error_deleting'))
    assert 'is in status error_deleting, in which Manila deletes no snapshot' in str(err.value)


def test_needs_revert():
    marked = gold_snap(metadata={sn.REVERT_MARKER: 't'})
    assert sn.needs_revert(gold_snap()) and not sn.needs_revert(marked) and sn.needs_revert(marked, True)


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
    requested = gold_snap(status=snap_status, metadata={sn.REVERT_REQUESTED: 't'})
    assert sn.requested_revert_outcome({'id': 'sh', 'status': share_status}, requested) == outcome
    assert sn.revert_requested_at(requested) == 't' and sn.revert_requested_at(gold_snap()) is None


def test_the_request_key_is_kept_like_the_marker():
    with pytest.raises(InvalidInput) as err:
        sn.task_metadata({sn.REVERT_REQUESTED: 'now'})
    assert sn.REVERT_REQUESTED in str(err.value)
    kept = gold_snap(metadata={'a': '1', sn.REVERT_MARKER: 't', sn.REVERT_REQUESTED: 't'})
    assert sn.snapshot_metadata_changes(kept, {}, purge=True) == ({}, ['a'])


def test_plan_share_snapshots_order_and_refusals():
    assert sn.plan_share_snapshots(GOLD_SHARE, [], False) == []
    old, new = gold_snap('a'), gold_snap('b', created_at='2027')
    assert [s['id'] for s in sn.plan_share_snapshots(GOLD_SHARE, [old, new], True)] == ['b', 'a']
    with pytest.raises(InvalidInput) as err:
        sn.plan_share_snapshots(GOLD_SHARE, [old, new], False)
    assert 'has 2 snapshot(s): n (b), n (a).' in str(err.value)
    with pytest.raises(CannotConverge) as err:
        sn.plan_share_snapshots(GOLD_SHARE, [old, gold_snap('c', status='error_deleting'),
                                             gold_snap('d', status='manage_error')], True)
    assert '(error_deleting, manage_error)' in str(err.value)
    assert sn.plan_share_snapshots(GOLD_SHARE, [gold_snap('e', status='deleting')], True)[0]['id'] == 'e'


# -- what the plans carry -------------------------------------------------------------------

def test_the_deletion_shows_the_snapshot_before():
    assert sn.plan_absent(gold_snap()).before == sn.diff_view(gold_snap())


def test_a_description_alone_is_an_update_and_shows_in_the_diff():
    plan = sn.plan_update(gold_snap(description='d'), {'description': 'new'})
    assert plan.action == 'update' and plan.update == {'display_description': 'new'}
    assert plan.after['description'] == 'new' and plan.before['description'] == 'd'
    plan = sn.plan_update(gold_snap(metadata={'a': '1'}), {'metadata': {'b': '2'}})
    assert plan.metadata_set == {'b': '2'} and plan.metadata_delete == []   # no purge by default
    assert plan.after['metadata'] == {'a': '1', 'b': '2'}


def test_a_revert_keeps_every_other_change_of_the_task():
    base = sn.plan_update(gold_snap(metadata={'a': '1'}), {'name': 'x', 'metadata': {}},
                          purge_metadata=True, rename=True)
    plan = sn.plan_revert(SHARE_REVERTABLE, gold_snap(), [gold_snap()], base=base)
    assert plan.action == 'revert' and plan.record_revert
    assert (plan.update, plan.metadata_delete) == ({'display_name': 'x'}, ['a'])
    assert plan.after == dict(base.after, reverted=True) and plan.after['name'] == 'x'


SHARE_REVERTABLE = dict(GOLD_SHARE, revert_to_snapshot_support=True, access_rules_status='active')


def test_an_older_revert_names_only_the_newer_snapshots_to_delete():
    older = gold_snap('s0', name='sunday', created_at='2025-12-31T00:00:00')
    target = gold_snap('s1', name='monday', created_at='2026-01-01T00:00:00')
    newer = gold_snap('s2', name='tuesday', created_at='2026-01-02T00:00:00')
    leaving = gold_snap('s3', name='wednesday', created_at='2026-01-03T00:00:00', status='deferred_deleting')
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
    return ScriptedResponse(200, {'snapshot': gold_snap(**fields)})


def test_apply_update_sends_the_put_and_the_metadata():
    plan = sn.plan_update(gold_snap(metadata={'a': '1', 'b/c': '2'}),
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
    assert api.apply_update(gold_snap(metadata={'a': '1', 'b/c': '2'}), plan) == gold_snap(
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
    recorded = sn.SnapshotAPI(client).record_revert(gold_snap(metadata={'a': '1'}))
    assert recorded == gold_snap(metadata={'a': '1', sn.REVERT_MARKER: '2026-12-01T10:00:00Z'})


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
    assert sn.SnapshotAPI(client).revert_share(GOLD_SHARE, gold_snap(), wait=False) == dict(GOLD_SHARE, status='reverting')


def test_the_revert_waits_with_the_snapshot_timeout():
    client, session = make_client([
        expect('POST', REVERT_ACTION, ScriptedResponse(202)),
        expect('GET', '/v2/shares/sh', ScriptedResponse(200, {'share': dict(GOLD_SHARE, status='reverting')})),
        expect('GET', '/v2/messages?resource_id=sh&sort_key=created_at&sort_dir=desc&limit=3',
               ScriptedResponse(200, {'messages': []})),
    ], clock=FakeClock())
    with pytest.raises(WaitTimeout) as err:
        sn.SnapshotAPI(client, timeout=0).revert_share(GOLD_SHARE, gold_snap())
    assert 'after 0 seconds' in str(err.value)


def test_settle_share_waits_only_for_a_busy_share():
    client, session = make_client([
        expect('GET', '/v2/shares/sh', ScriptedResponse(200, {'share': GOLD_SHARE})),
    ], clock=FakeClock())
    api = sn.SnapshotAPI(client)
    assert api.wait_share_if_busy(GOLD_SHARE) is GOLD_SHARE
    assert api.wait_share_if_busy(dict(GOLD_SHARE, status='extending')) == GOLD_SHARE
    with pytest.raises(CannotConverge) as err:
        api.wait_share_if_busy(dict(GOLD_SHARE, status='extending'), wait=False)
    assert 'is busy (extending)' in str(err.value)


def test_a_busy_snapshot_that_does_not_settle_times_out_with_its_status():
    client, session = make_client([
        expect('GET', SNAP_PATH, got(status='creating')),
        expect('GET', '/v2/messages?resource_id=s1&sort_key=created_at&sort_dir=desc&limit=3',
               ScriptedResponse(200, {'messages': [{'user_message': 'create: slow backend.'}]})),
    ], clock=FakeClock())
    with pytest.raises(WaitTimeout) as err:
        sn.SnapshotAPI(client, timeout=0).wait_if_busy(gold_snap(status='creating'))
    assert str(err.value).startswith('Snapshot n (s1) is still creating after 0 seconds '
                                     '(waiting for it to finish creating)')
    assert 'slow backend' in str(err.value)


def test_delete_all_goes_on_after_a_snapshot_that_vanished():
    client, session = make_client([
        expect('GET', SNAP_PATH, ScriptedResponse(404, {'itemNotFound': {'code': 404, 'message': 'x'}})),
        expect('DELETE', '/v2/snapshots/s2', ScriptedResponse(202)),
        expect('GET', '/v2/snapshots/s2', ScriptedResponse(404, {'itemNotFound': {'code': 404, 'message': 'x'}})),
    ], clock=FakeClock())
    sn.SnapshotAPI(client).delete_all([gold_snap(status='creating'), gold_snap('s2')])
    assert len(session.writes()) == 1


def test_find_by_name_without_a_share_filters_by_name_only():
    client, session = make_client([
        expect('GET', '/v2/snapshots/detail?name=n', ScriptedResponse(200, {'snapshots': [gold_snap()]})),
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
        sn.SnapshotAPI(client).wait_if_busy(gold_snap(status='creating'), wait=False)
    assert str(err.value) == 'Snapshot n (s1) is busy (creating); run again later or set wait=true.'


def test_settle_share_waits_with_the_snapshot_timeout():
    client, session = make_client([
        expect('GET', '/v2/shares/sh', ScriptedResponse(200, {'share': dict(GOLD_SHARE, status='extending')})),
        expect('GET', '/v2/messages?resource_id=sh&sort_key=created_at&sort_dir=desc&limit=3',
               ScriptedResponse(200, {'messages': []})),
    ], clock=FakeClock())
    with pytest.raises(WaitTimeout) as err:
        sn.SnapshotAPI(client, timeout=0).wait_share_if_busy(dict(GOLD_SHARE, status='extending'))
    assert 'after 0 seconds' in str(err.value)


def test_an_older_namesake_being_deleted_does_not_take_the_name():
    mine = gold_snap('s2', name='tuesday', created_at='2026-01-02T00:00:00')
    leaving = gold_snap('s1', name='tuesday', created_at='2026-01-01T00:00:00', status='deleting')
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


def test_a_snapshot_without_a_creation_time_is_not_the_latest():
    undated = gold_snap('s9', created_at=None)
    assert latest_snapshot([undated, gold_snap('s1')])['id'] == 's1'


def test_a_revert_seen_to_its_end_shows_no_request_left():
    requested = gold_snap(metadata={sn.REVERT_REQUESTED: 't'})
    after = sn.plan_revert(SHARE_REVERTABLE, requested, [requested], always=True).after
    assert (after['reverted'], after['revert_requested']) == (True, False)


def test_a_snapshot_export_locations_answer_without_locations_is_empty():
    client, session = make_client([
        expect('GET', SNAP_PATH + '/export-locations', ScriptedResponse(200, {})),
    ])
    assert sn.SnapshotAPI(client).export_locations('s1') == []


SHARE_PATH = '/v2/shares/sh'
REVERT_MESSAGES = '/v2/messages?resource_id=sh&action_id=006&sort_key=created_at&sort_dir=desc&limit=3'


def share_is(status):
    return ScriptedResponse(200, {'share': dict(GOLD_SHARE, status=status)})


def test_following_a_requested_revert_waits_and_records_it_by_default(monkeypatch):
    monkeypatch.setattr(sn, 'utc_now', lambda: '2026-12-01T12:00:00Z')
    requested = gold_snap(status='restoring', metadata={sn.REVERT_REQUESTED: '2026-12-01T11:00:00Z'})
    client, session = make_client([
        expect('GET', SHARE_PATH, share_is('reverting')),
        expect('GET', SHARE_PATH, share_is('available')),
        expect('GET', SNAP_PATH, got(metadata={sn.REVERT_REQUESTED: '2026-12-01T11:00:00Z'})),
        expect('GET', REVERT_MESSAGES, ScriptedResponse(200, {'messages': []})),
        expect('POST', SNAP_PATH + '/metadata', ScriptedResponse(200, {'metadata': {}}),
               body={'metadata': {sn.REVERT_MARKER: '2026-12-01T12:00:00Z'}}),
        expect('DELETE', SNAP_PATH + '/metadata/' + sn.REVERT_REQUESTED, ScriptedResponse(200)),
    ], clock=FakeClock())
    share, snapshot, finished = sn.SnapshotAPI(client).follow_revert_request(
        dict(GOLD_SHARE, status='reverting'), requested)
    assert finished is True and share['status'] == 'available'
    assert snapshot == gold_snap(metadata={sn.REVERT_MARKER: '2026-12-01T12:00:00Z'})


def test_following_a_requested_revert_times_out_naming_the_share_status():
    requested = gold_snap(status='restoring', metadata={sn.REVERT_REQUESTED: '2026-12-01T11:00:00Z'})
    client, session = make_client([
        expect('GET', SHARE_PATH, share_is('reverting')),
    ], clock=FakeClock())
    with pytest.raises(WaitTimeout) as err:
        sn.SnapshotAPI(client, timeout=0).follow_revert_request(
            dict(GOLD_SHARE, status='reverting'), requested)
    assert str(err.value).startswith('Share data (sh) is still reverting after 0 seconds '
                                     '(waiting for the revert to finish)')


def test_a_failure_message_counts_from_the_second_of_the_request():
    client, session = make_client([
        expect('GET', REVERT_MESSAGES, ScriptedResponse(200, {'messages': [
            {'id': 'm1', 'created_at': '2026-12-01T11:00:00.000000'},
            {'id': 'm2', 'created_at': '2026-12-01T10:59:59.999999'},
            {'id': 'm3'}]})),
    ])
    failures = sn.SnapshotAPI(client).revert_failures('sh', '2026-12-01T11:00:00Z')
    assert [m['id'] for m in failures] == ['m1']


def test_a_revert_that_runs_out_of_time_keeps_the_share_and_its_state(monkeypatch):
    monkeypatch.setattr(sn, 'utc_now', lambda: '2026-12-01T12:00:00Z')
    client, session = make_client([
        expect('POST', REVERT_ACTION, ScriptedResponse(202)),
        expect('GET', SHARE_PATH, share_is('reverting')),
        expect('GET', '/v2/messages?resource_id=sh&sort_key=created_at&sort_dir=desc&limit=3',
               ScriptedResponse(200, {'messages': []})),
        expect('POST', SNAP_PATH + '/metadata', ScriptedResponse(200, {'metadata': {}}),
               body={'metadata': {sn.REVERT_REQUESTED: '2026-12-01T12:00:00Z'}}),
    ], clock=FakeClock())
    with pytest.raises(WaitTimeout) as err:
        sn.SnapshotAPI(client, timeout=0).revert_and_record(GOLD_SHARE, gold_snap())
    assert err.value.resource['status'] == 'reverting' and err.value.state == 'reverting'
    assert str(err.value).endswith('The snapshot records the revert as requested (key %s); a later '
                                   'run finds out how it ended.' % sn.REVERT_REQUESTED)


def test_revert_and_record_waits_and_records_by_default(monkeypatch):
    monkeypatch.setattr(sn, 'utc_now', lambda: '2026-12-01T12:00:00Z')
    client, session = make_client([
        expect('POST', REVERT_ACTION, ScriptedResponse(202)),
        expect('GET', SHARE_PATH, share_is('available')),
        expect('GET', SNAP_PATH, got()),
        expect('POST', SNAP_PATH + '/metadata', ScriptedResponse(200, {'metadata': {}}),
               body={'metadata': {sn.REVERT_MARKER: '2026-12-01T12:00:00Z'}}),
    ], clock=FakeClock())
    share, snapshot = sn.SnapshotAPI(client).revert_and_record(GOLD_SHARE, gold_snap())
    assert share['status'] == 'available'
    assert snapshot['metadata'] == {sn.REVERT_MARKER: '2026-12-01T12:00:00Z'}


def test_a_namesake_removed_is_waited_for_by_default():
    client, session = make_client([
        expect('DELETE', SNAP_PATH, ScriptedResponse(202)),
        expect('GET', SNAP_PATH, ScriptedResponse(404, {'itemNotFound': {'code': 404, 'message': 'x'}})),
    ], clock=FakeClock())
    sn.SnapshotAPI(client).remove_namesake(gold_snap())
    assert session.requests()[-1] == 'GET ' + SNAP_PATH
