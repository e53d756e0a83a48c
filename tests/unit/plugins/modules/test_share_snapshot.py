# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""share_snapshot, share_message_info and share's delete_snapshots on scripted
HTTP, for what the local cloud cannot produce: servers older than 2.73 or
2.52, snapshots that fail, exact request sequences."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from keystoneauth1 import exceptions as ksa_exc

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Fail,
    run_scripted,
)

from ansible_collections.openkeel.manila.plugins.modules import share as share_module
from ansible_collections.openkeel.manila.plugins.modules import share_message_info
from ansible_collections.openkeel.manila.plugins.modules import share_snapshot
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    GONE,
    ScriptedResponse,
    share_locks,
)

SHARE_ID = '11111111-2222-3333-4444-555555555555'
SNAP_ID = 'aaaaaaaa-0000-0000-0000-000000000002'
SHARE = {'id': SHARE_ID, 'name': 'data', 'size': 1, 'status': 'available', 'share_proto': 'NFS',
         'share_type_name': 'default', 'snapshot_support': True, 'is_public': False,
         'revert_to_snapshot_support': True, 'mount_snapshot_support': False,
         'access_rules_status': 'active', 'is_soft_deleted': False, 'metadata': {}}
SNAP = {'id': SNAP_ID, 'name': 'tuesday', 'share_id': SHARE_ID, 'status': 'available', 'size': 1,
        'created_at': '2026-12-01T10:00:00.000000', 'description': None}
LIST_SNAPS = '/v2/snapshots/detail?share_id=%s&all_tenants=1&with_count=true&limit=1000&offset=0' % SHARE_ID
UNCOUNTED_SNAPS = '/v2/snapshots/detail?share_id=%s&all_tenants=1&limit=1000&offset=%%d' % SHARE_ID


def snaps(*snapshots):
    """The share's snapshots, counted (2.79+): one request."""
    return ('GET', LIST_SNAPS, ScriptedResponse(200, {'snapshots': list(snapshots), 'count': len(snapshots)}))


def run(monkeypatch, module, args, exchanges, max_version='2.99', check_mode=False):
    return run_scripted(monkeypatch, module, args, exchanges, max_version=max_version,
                        check_mode=check_mode)


def by_name(share='data', snapshots=None, version_filter=''):
    return [
        ('GET', '/v2/shares/detail?name=' + share, ScriptedResponse(200, {'shares': [SHARE]})),
        ('GET', '/v2/snapshots/detail?name=tuesday&share_id=' + SHARE_ID,
         ScriptedResponse(200, {'snapshots': snapshots if snapshots is not None else [SNAP]})),
    ]


# -- share_snapshot: create ---------------------------------------------------------------

def test_a_snapshot_that_fails_is_reported_with_manilas_message_and_left(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {'share': 'data', 'name': 'tuesday'},
                           by_name(snapshots=[]) + [
        ('POST', '/v2/snapshots', ScriptedResponse(202, {'snapshot': dict(SNAP, status='creating')})),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': dict(SNAP, status='error')})),
        ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % SNAP_ID,
         ScriptedResponse(200, {'messages': [{'user_message': 'create: backend out of space'}]})),
    ])
    assert isinstance(outcome, Fail)
    assert 'went to error' in outcome.result['msg']
    assert 'backend out of space' in outcome.result['msg']
    assert 'left in that state' in outcome.result['msg']
    assert outcome.result['snapshot']['status'] == 'error'    # as last read (issue 36)
    assert session.bodies('POST') == [{'snapshot': {'share_id': SHARE_ID, 'name': 'tuesday'}}]


LOST = ksa_exc.ConnectFailure("Unable to establish connection to http://m/v2/snapshots: "
                              "('Connection aborted.', RemoteDisconnected('Remote end closed'))")
NAMESAKES = '/v2/snapshots/detail?name=tuesday&share_id=' + SHARE_ID


def test_a_lost_create_answer_is_recovered_by_name_with_one_post(monkeypatch):
    creating = dict(SNAP, status='creating')
    outcome, session = run(monkeypatch, share_snapshot, {'share': 'data', 'name': 'tuesday'},
                           by_name(snapshots=[]) + [
        ('POST', '/v2/snapshots', LOST),
        ('GET', NAMESAKES, ScriptedResponse(200, {'snapshots': [creating]})),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': SNAP})),
        ('GET', NAMESAKES, ScriptedResponse(200, {'snapshots': [SNAP]})),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['changed'] is True and outcome.result['snapshot']['id'] == SNAP_ID
    assert len(session.bodies('POST')) == 1
    assert 'No answer came to the create of share snapshot' in outcome.result['warnings'][0]


def test_a_task_that_took_the_newer_namesake_deletes_it_and_converges(monkeypatch):
    older = dict(SNAP, id='aaaaaaaa-0000-0000-0000-000000000009',
                 created_at='2026-12-01T09:59:59.900000')
    mine = dict(SNAP, status='creating')
    outcome, session = run(monkeypatch, share_snapshot, {'share': 'data', 'name': 'tuesday',
                                                         '_ansible_diff': True},
                           by_name(snapshots=[]) + [
        ('POST', '/v2/snapshots', ScriptedResponse(202, {'snapshot': mine})),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': SNAP})),
        ('GET', NAMESAKES, ScriptedResponse(200, {'snapshots': [older, SNAP]})),
        ('DELETE', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(202)),
        ('GET', '/v2/snapshots/' + SNAP_ID, GONE),
    ])
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert result['changed'] is True and result['snapshot']['id'] == older['id']
    assert result['diff']['before'] == {}
    assert 'Another task created share snapshot' in result['warnings'][0]


def test_metadata_below_2_73_fails_before_any_write(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'metadata': {'a': 'b'}}, by_name(snapshots=[]),
        max_version='2.72')
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'] == 'Snapshot metadata needs Manila API 2.73; this cloud offers 2.72.'
    assert session.writes() == []


def test_a_snapshot_by_id_of_another_share_is_refused(monkeypatch):
    other = '99999999-2222-3333-4444-555555555555'
    outcome, session = run(monkeypatch, share_snapshot, {'id': SNAP_ID, 'share': other}, [
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': SNAP})),
        ('GET', '/v2/shares/' + other, ScriptedResponse(200, {'share': dict(SHARE, id=other)})),
    ])
    assert isinstance(outcome, Fail)
    assert 'belongs to share %s' % SHARE_ID in outcome.result['msg']
    assert session.writes() == []


def test_absent_when_the_share_is_gone_is_a_no_op(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'absent'}, [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': []})),
    ])
    assert outcome.result['changed'] is False


# -- share: delete_snapshots ------------------------------------------------------------------

def share_absent_args(**extra):
    return dict({'name': 'data', 'state': 'absent'}, **extra)


def test_share_with_snapshots_is_refused_before_any_write(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_absent_args(), [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [SHARE]})),
        share_locks(SHARE_ID),
        snaps(SNAP),
    ])
    assert isinstance(outcome, Fail)
    assert SNAP_ID in outcome.result['msg'] and 'tuesday' in outcome.result['msg']
    assert 'delete_snapshots=true' in outcome.result['msg']
    assert session.writes() == []


def test_delete_snapshots_deletes_waits_then_deletes_the_share(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_absent_args(delete_snapshots=True), [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [SHARE]})),
        share_locks(SHARE_ID),
        snaps(SNAP),
        # the share's deletion first, while its snapshots hold it back: Manila checks
        # every project's delete locks before them (issue 36)
        ('DELETE', '/v2/shares/' + SHARE_ID, ScriptedResponse(403, {'forbidden': {
            'code': 403, 'message': 'Share still has 1 dependent snapshots.'}})),
        ('DELETE', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(202)),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': dict(SNAP, status='deleting')})),
        ('GET', '/v2/snapshots/' + SNAP_ID, GONE),
        ('DELETE', '/v2/shares/' + SHARE_ID, ScriptedResponse(202)),
        ('GET', '/v2/shares/' + SHARE_ID, GONE),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['deleted_snapshots'] == [
        {'id': SNAP_ID, 'name': 'tuesday', 'status': 'available', 'created_at': SNAP['created_at']}]


def test_delete_snapshots_deletes_every_snapshot_past_a_capped_page(monkeypatch):
    # osapi_max_limit = 2: the first page of the share's 3 snapshots holds 2.
    three = [dict(SNAP, id='aaaaaaaa-0000-0000-0000-00000000000%d' % n, name='s%d' % n,
                  created_at='2026-12-01T1%d:00:00.000000' % n) for n in (3, 2, 1)]
    counted = LIST_SNAPS.replace('offset=0', 'offset=%d')
    outcome, session = run(monkeypatch, share_module, share_absent_args(delete_snapshots=True), [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [SHARE]})),
        share_locks(SHARE_ID),
        ('GET', counted % 0, ScriptedResponse(200, {'snapshots': three[:2], 'count': 3})),
        ('GET', counted % 2, ScriptedResponse(200, {'snapshots': three[2:], 'count': 3})),
        # the share's deletion first, while its snapshots hold it back: Manila checks
        # every project's delete locks before them (issue 36)
        ('DELETE', '/v2/shares/' + SHARE_ID, ScriptedResponse(403, {'forbidden': {
            'code': 403, 'message': 'Share still has 3 dependent snapshots.'}})),
    ] + [('DELETE', '/v2/snapshots/' + s['id'], ScriptedResponse(202)) for s in three]
      + [('GET', '/v2/snapshots/' + s['id'], GONE) for s in three] + [
        ('DELETE', '/v2/shares/' + SHARE_ID, ScriptedResponse(202)),
        ('GET', '/v2/shares/' + SHARE_ID, GONE),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert [s['name'] for s in outcome.result['deleted_snapshots']] == ['s3', 's2', 's1']


def test_delete_snapshots_in_check_mode_names_them_and_writes_nothing(monkeypatch):
    outcome, session = run(monkeypatch, share_module, share_absent_args(delete_snapshots=True), [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [SHARE]})),
        share_locks(SHARE_ID),
        snaps(SNAP),
    ], check_mode=True)
    assert outcome.result['changed'] is True
    assert [s['id'] for s in outcome.result['deleted_snapshots']] == [SNAP_ID]
    assert session.writes() == []


def test_delete_snapshots_only_with_absent(monkeypatch):
    outcome, session = run(monkeypatch, share_module, {'name': 'data', 'delete_snapshots': True}, [])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'] == 'delete_snapshots only applies with state=absent.'


# -- share_message_info --------------------------------------------------------------------

MESSAGE = {'id': 'm1', 'resource_id': SHARE_ID, 'resource_type': 'SHARE', 'action_id': '001',
           'message_level': 'ERROR', 'created_at': '2026-12-01T10:00:00.000000',
           'user_message': 'allocate host: No storage could be allocated'}


def test_time_filters_go_to_manila_from_2_52(monkeypatch):
    outcome, session = run(monkeypatch, share_message_info, {
        'share': SHARE_ID, 'since': '2026-12-01T08:00:00Z', 'before': '2026-12-01T09:00:00+01:00',
        'limit': 5}, [
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': SHARE})),
        ('GET', '/v2/messages?resource_id=%s&resource_type=SHARE&created_since=2026-12-01T08%%3A00%%3A00Z'
                '&created_before=2026-12-01T08%%3A00%%3A00Z&sort_key=created_at&sort_dir=desc&limit=5&offset=%d'
         % (SHARE_ID, 0), ScriptedResponse(200, {'messages': [MESSAGE]})),
        # fewer than asked for may be Manila's cap (osapi_max_limit): the next page says
        ('GET', '/v2/messages?resource_id=%s&resource_type=SHARE&created_since=2026-12-01T08%%3A00%%3A00Z'
                '&created_before=2026-12-01T08%%3A00%%3A00Z&sort_key=created_at&sort_dir=desc&limit=5&offset=%d'
         % (SHARE_ID, 1), ScriptedResponse(200, {'messages': []})),
    ])
    assert outcome.result['messages'] == [MESSAGE]


def test_time_filters_are_applied_here_below_2_52(monkeypatch):
    older = dict(MESSAGE, id='m0', created_at='2026-11-30T10:00:00.000000')
    outcome, session = run(monkeypatch, share_message_info, {
        'resource_id': SHARE_ID, 'since': '2026-12-01T00:00:00Z'}, [
        ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=1000&offset=0'
         % SHARE_ID, ScriptedResponse(200, {'messages': [MESSAGE, older]})),
    ], max_version='2.51')
    assert [m['id'] for m in outcome.result['messages']] == ['m1']


def test_bad_message_filters_fail_before_any_request(monkeypatch):
    for args, words in (({'action_id': '1'}, 'three-digit'),
                        ({'since': 'soon'}, 'since must be'),
                        ({'since': '1h', 'before': '2h'}, 'is after before'),
                        ({'limit': 0}, 'limit must be at least 1')):
        outcome, session = run(monkeypatch, share_message_info, args, [])
        assert isinstance(outcome, Fail)
        assert words in outcome.result['msg']
        assert len(session.calls) == 1     # the versions document of the fixture only


def test_one_message_by_id(monkeypatch):
    message_id = 'cccccccc-0000-0000-0000-000000000001'   # an ID filter takes a UUID (issue 37)
    outcome, session = run(monkeypatch, share_message_info, {'id': message_id, 'action_id': '002'}, [
        ('GET', '/v2/messages/' + message_id, ScriptedResponse(200, {'message': dict(MESSAGE, id=message_id)})),
    ])
    assert outcome.result['messages'] == []     # it is about action 001


@pytest.mark.parametrize('metadata,words', [
    ({'a': ''}, "metadata: key 'a' has an empty value"),
    ({'a': 'v' * 1024}, 'longer than 1023'),
    ({'': 'v'}, 'a key is empty'),
])
def test_metadata_manila_refuses_fails_before_any_request(monkeypatch, metadata, words):
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'description': 'd', 'metadata': metadata}, [])
    assert isinstance(outcome, Fail)
    assert words in outcome.result['msg']
    assert session.requests() == ['GET /']


def test_a_null_snapshot_metadata_value_is_not_sent_on_create(monkeypatch):
    made = dict(SNAP, metadata={'b': 'x'})
    args = {'share': 'data', 'name': 'tuesday', 'metadata': {'a': None, 'b': 'x'}, 'wait': False}
    outcome, session = run(monkeypatch, share_snapshot, args, by_name(snapshots=[]) + [
        ('POST', '/v2/snapshots', ScriptedResponse(202, {'snapshot': made})),
        ('GET', '/v2/snapshots/detail?name=tuesday&share_id=' + SHARE_ID,
         ScriptedResponse(200, {'snapshots': [made]})),
    ])
    assert outcome.result['changed'] is True, outcome.result
    assert session.bodies('POST')[0]['snapshot']['metadata'] == {'b': 'x'}


# -- share_snapshot: taking one ---------------------------------------------------------------

def test_taking_a_snapshot_with_a_given_id_is_refused(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {'id': SNAP_ID, 'share': 'data'},
                           [('GET', '/v2/snapshots/' + SNAP_ID, GONE)])
    assert outcome.result['msg'] == (
        'No snapshot with ID %s exists; a snapshot cannot be taken with a given ID '
        '(leave out "id" and give "share" and "name").' % SNAP_ID)
    assert session.writes() == []


def test_a_snapshot_of_a_busy_share_waits_for_it_and_shows_what_was_taken(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', '_ansible_diff': True}, [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [dict(SHARE, status='extending')]})),
        ('GET', NAMESAKES, ScriptedResponse(200, {'snapshots': []})),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': SHARE})),
        ('POST', '/v2/snapshots', ScriptedResponse(202, {'snapshot': dict(SNAP, status='creating')})),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': dict(SNAP, size=2)})),
        ('GET', NAMESAKES, ScriptedResponse(200, {'snapshots': [SNAP]})),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['diff']['after'] == {
        'name': 'tuesday', 'description': None, 'share_id': SHARE_ID, 'size': 2,
        'status': 'available', 'reverted': False, 'revert_requested': False, 'metadata': {}}


def test_without_wait_a_busy_share_is_not_snapshotted(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'wait': False}, [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [dict(SHARE, status='extending')]})),
        ('GET', NAMESAKES, ScriptedResponse(200, {'snapshots': []})),
    ])
    assert isinstance(outcome, Fail), outcome.result
    assert 'is busy (extending)' in outcome.result['msg']
    assert session.writes() == []


def test_a_snapshot_that_fails_names_what_was_left(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {'share': 'data', 'name': 'tuesday'},
                           by_name(snapshots=[]) + [
        ('POST', '/v2/snapshots', ScriptedResponse(202, {'snapshot': dict(SNAP, status='creating')})),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': dict(SNAP, status='error')})),
        ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % SNAP_ID,
         ScriptedResponse(200, {'messages': []})),
    ])
    assert (' The snapshot %s was taken and is left in that state; delete it with state=absent. '
            % SNAP_ID) in outcome.result['msg']
    assert outcome.result['snapshot']['id'] == SNAP_ID


def test_without_wait_the_older_namesake_at_rest_is_adopted(monkeypatch):
    older = dict(SNAP, id='aaaaaaaa-0000-0000-0000-000000000009',
                 created_at='2026-12-01T09:59:59.900000')
    mine = dict(SNAP, status='creating')
    outcome, session = run(monkeypatch, share_snapshot, {'share': 'data', 'name': 'tuesday',
                                                         'wait': False},
                           by_name(snapshots=[]) + [
        ('POST', '/v2/snapshots', ScriptedResponse(202, {'snapshot': mine})),
        ('GET', NAMESAKES, ScriptedResponse(200, {'snapshots': [older, mine]})),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': SNAP})),
        ('DELETE', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(202)),
    ])
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert result['changed'] is True and result['snapshot']['id'] == older['id']


def test_the_older_namesake_still_being_taken_is_adopted_once_taken(monkeypatch):
    older = dict(SNAP, id='aaaaaaaa-0000-0000-0000-000000000009',
                 created_at='2026-12-01T09:59:59.900000')
    mine = dict(SNAP, status='creating')
    outcome, session = run(monkeypatch, share_snapshot, {'share': 'data', 'name': 'tuesday'},
                           by_name(snapshots=[]) + [
        ('POST', '/v2/snapshots', ScriptedResponse(202, {'snapshot': mine})),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': SNAP})),
        ('GET', NAMESAKES, ScriptedResponse(200, {'snapshots': [dict(older, status='creating'), SNAP]})),
        ('DELETE', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(202)),
        ('GET', '/v2/snapshots/' + SNAP_ID, GONE),
        ('GET', '/v2/snapshots/' + older['id'], ScriptedResponse(200, {'snapshot': older})),
    ])
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert result['snapshot']['id'] == older['id'] and result['snapshot']['status'] == 'available'


# -- a UUID-shaped name is not taken as a new snapshot's name (issue 37) ------------------

@pytest.mark.parametrize('check_mode', [False, True])
def test_a_uuid_shaped_name_is_refused_before_any_write(monkeypatch, check_mode):
    missing = 'bbbbbbbb-0000-0000-0000-000000000009'
    outcome, session = run(monkeypatch, share_snapshot, {'share': 'data', 'name': missing}, [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [SHARE]})),
        ('GET', '/v2/snapshots/detail?name=%s&share_id=%s' % (missing, SHARE_ID),
         ScriptedResponse(200, {'snapshots': []})),
    ], check_mode=check_mode)
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'].startswith('No snapshot is named %s, and no snapshot is taken '
                                            'under a UUID-shaped name' % missing)
    assert '"id"' in outcome.result['msg']
    assert session.writes() == []
