# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""tasks/snapshot.py's revert (share_snapshot, state=reverted) on scripted
HTTP, through the module: servers older than 2.73, the revert marker and a
revert requested by an earlier run, waits, the exact requests; the other
hooks of SnapshotTask are run by the module's tests
(tests/unit/plugins/modules/test_share_snapshot.py)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Fail,
    run_scripted,
)

from ansible_collections.openkeel.manila.plugins.modules import share_snapshot
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    GONE,
    ScriptedResponse,
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


# -- share_snapshot: revert ------------------------------------------------------------

def test_revert_below_2_73_cannot_be_recorded_and_is_refused_before_any_write(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted'}, by_name(), max_version='2.72')
    assert isinstance(outcome, Fail)
    assert 'needs Manila API 2.73' in outcome.result['msg']
    assert 'always_revert=true' in outcome.result['msg']
    assert session.writes() == []


def test_always_revert_below_2_73_reverts_without_a_marker(monkeypatch):
    exchanges = by_name() + [
        # below 2.79 no count: the listing ends with an empty page
        ('GET', UNCOUNTED_SNAPS % 0, ScriptedResponse(200, {'snapshots': [SNAP]})),
        ('GET', UNCOUNTED_SNAPS % 1, ScriptedResponse(200, {'snapshots': []})),
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(202)),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': dict(SHARE, status='reverting')})),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': SHARE})),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': SNAP})),
    ]
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted', 'always_revert': True},
        exchanges, max_version='2.72')
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['changed'] is True
    assert session.bodies('POST') == [{'revert': {'snapshot_id': SNAP_ID}}]


def test_revert_check_mode_reads_only(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted'},
        by_name() + [snaps(SNAP)],
        check_mode=True)
    assert outcome.result['changed'] is True
    assert session.writes() == []


def test_revert_records_the_marker_once_share_and_snapshot_are_back(monkeypatch):
    exchanges = by_name(snapshots=[dict(SNAP, metadata={})]) + [
        snaps(SNAP),
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(202)),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': SHARE})),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': dict(SNAP, status='restoring')})),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': dict(SNAP, metadata={})})),
        ('POST', '/v2/snapshots/%s/metadata' % SNAP_ID, ScriptedResponse(200, {'metadata': {}})),
    ]
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted'}, exchanges)
    assert outcome.result['changed'] is True
    assert list(session.bodies('POST')[1]['metadata']) == ['openkeel_reverted_at']
    assert list(outcome.result['snapshot']['metadata']) == ['openkeel_reverted_at']
    assert outcome.result['snapshot']['status'] == 'available'


def test_a_recorded_revert_is_a_no_op_of_three_requests(monkeypatch):
    marked = dict(SNAP, metadata={'openkeel_reverted_at': '2026-12-01T11:00:00Z'})
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted'}, by_name(snapshots=[marked]))
    assert outcome.result['changed'] is False
    assert len(session.calls) == 3     # versions, share, snapshot (not mountable: no exports)


# -- share_snapshot: a revert with wait=false, and the runs after it ------------------------

REQUESTED = 'openkeel_revert_requested_at'
MARKER = 'openkeel_reverted_at'
REVERT_MESSAGES = ('/v2/messages?resource_id=%s&action_id=006&sort_key=created_at&sort_dir=desc'
                   '&limit=3' % SHARE_ID)
DROP_REQUEST = ('DELETE', '/v2/snapshots/%s/metadata/%s' % (SNAP_ID, REQUESTED), ScriptedResponse(200))


def later_run(share_status, metadata, snap_status='available'):
    return [
        ('GET', '/v2/shares/detail?name=data',
         ScriptedResponse(200, {'shares': [dict(SHARE, status=share_status)]})),
        ('GET', '/v2/snapshots/detail?name=tuesday&share_id=' + SHARE_ID,
         ScriptedResponse(200, {'snapshots': [dict(SNAP, status=snap_status, metadata=metadata)]})),
    ]


def revert_without_wait(monkeypatch):
    exchanges = by_name(snapshots=[dict(SNAP, metadata={})]) + [
        ('GET', LIST_SNAPS, ScriptedResponse(200, {'snapshots': [SNAP], 'count': 1})),
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(202)),
        ('POST', '/v2/snapshots/%s/metadata' % SNAP_ID, ScriptedResponse(200, {'metadata': {}})),
    ]
    return run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted', 'wait': False,
        '_ansible_diff': True}, exchanges)


def test_a_revert_without_wait_is_recorded_as_requested_not_as_done(monkeypatch):
    outcome, session = revert_without_wait(monkeypatch)
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert result['changed'] is True and result['share']['status'] == 'reverting'
    assert session.bodies('POST')[0] == {'revert': {'snapshot_id': SNAP_ID}}
    assert list(session.bodies('POST')[1]['metadata']) == [REQUESTED]
    assert list(result['snapshot']['metadata']) == [REQUESTED]
    assert result['diff']['after']['reverted'] is False
    assert result['diff']['after']['revert_requested'] is True


def test_check_mode_of_a_revert_without_wait_shows_the_same_diff(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted', 'wait': False,
        '_ansible_diff': True},
        by_name(snapshots=[dict(SNAP, metadata={})]) + [
            ('GET', LIST_SNAPS, ScriptedResponse(200, {'snapshots': [SNAP], 'count': 1}))], check_mode=True)
    real, _session = revert_without_wait(monkeypatch)
    assert session.writes() == []
    assert outcome.result['changed'] is True
    assert outcome.result['diff']['after'] == real.result['diff']['after']


def test_a_revert_that_failed_after_a_run_without_wait_fails_the_next_run(monkeypatch):
    first, first_session = revert_without_wait(monkeypatch)
    written = first_session.bodies('POST')[1]['metadata']     # what the first run recorded
    exchanges = later_run('reverting_error', written) + [
        ('GET', REVERT_MESSAGES, ScriptedResponse(200, {'messages': [
            {'created_at': '2999-01-01T00:00:00.000000',
             'user_message': 'revert to snapshot: Share Driver failed to revert share to snapshot.'}]})),
        DROP_REQUEST,
    ]
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted', 'wait': False}, exchanges)
    assert isinstance(outcome, Fail), outcome.result
    msg = outcome.result['msg']
    assert 'reverting_error' in msg and 'failed to revert share to snapshot' in msg
    assert 'requested at %s' % written[REQUESTED] in msg
    # The request is forgotten (it ended); nothing else is written, no second revert.
    assert [(c.method, c.url.split('/v2/')[1]) for c in session.writes()] == [
        ('DELETE', 'snapshots/%s/metadata/%s' % (SNAP_ID, REQUESTED))]


def test_a_later_run_that_finds_the_revert_under_way_says_so_and_writes_nothing(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted', 'wait': False},
        later_run('reverting', {REQUESTED: '2026-12-01T11:00:00Z'}, snap_status='restoring'))
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['changed'] is False
    assert outcome.result['share']['status'] == 'reverting'
    assert 'still in progress' in outcome.result['warnings'][0]
    assert session.writes() == []


def test_a_later_run_waits_for_the_revert_under_way_then_records_it(monkeypatch):
    exchanges = later_run('reverting', {REQUESTED: '2026-12-01T11:00:00Z'}) + [
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': dict(SHARE, status='reverting')})),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': SHARE})),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': dict(
            SNAP, metadata={REQUESTED: '2026-12-01T11:00:00Z'})})),
        ('GET', REVERT_MESSAGES, ScriptedResponse(200, {'messages': []})),
        ('POST', '/v2/snapshots/%s/metadata' % SNAP_ID, ScriptedResponse(200, {'metadata': {}})),
        DROP_REQUEST,
    ]
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted', '_ansible_diff': True}, exchanges)
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert result['changed'] is True
    assert list(session.bodies('POST')[0]['metadata']) == [MARKER]
    assert list(result['snapshot']['metadata']) == [MARKER]
    assert (result['diff']['before']['revert_requested'], result['diff']['after']['reverted']) == (True, True)


def test_a_later_run_that_finds_the_share_available_records_the_revert(monkeypatch):
    exchanges = later_run('available', {REQUESTED: '2026-12-01T11:00:00Z'}) + [
        ('GET', REVERT_MESSAGES, ScriptedResponse(200, {'messages': [
            {'created_at': '2026-12-01T10:59:59.000000', 'user_message': 'an older failure'}]})),
        ('POST', '/v2/snapshots/%s/metadata' % SNAP_ID, ScriptedResponse(200, {'metadata': {}})),
        DROP_REQUEST,
    ]
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted', 'wait': False}, exchanges)
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['changed'] is True
    assert list(session.bodies('POST')[0]['metadata']) == [MARKER]
    assert list(outcome.result['snapshot']['metadata']) == [MARKER]
    assert session.bodies('POST')[0]['metadata'][MARKER] >= '2026-12-01T11:00:00Z'


def test_a_later_run_in_check_mode_reports_the_record_and_writes_nothing(monkeypatch):
    exchanges = later_run('available', {REQUESTED: '2026-12-01T11:00:00Z'}) + [
        ('GET', REVERT_MESSAGES, ScriptedResponse(200, {'messages': []}))]
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted'}, exchanges, check_mode=True)
    assert outcome.result['changed'] is True
    assert session.writes() == []


def test_a_failure_repaired_since_the_request_is_not_recorded_as_a_revert(monkeypatch):
    exchanges = later_run('available', {REQUESTED: '2026-12-01T11:00:00Z'}) + [
        ('GET', REVERT_MESSAGES, ScriptedResponse(200, {'messages': [
            {'created_at': '2026-12-01T11:00:02.000000', 'user_message': 'revert to snapshot: boom'}]})),
        DROP_REQUEST,
    ]
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted'}, exchanges)
    assert isinstance(outcome, Fail), outcome.result
    assert 'boom' in outcome.result['msg'] and 'reverts it again' in outcome.result['msg']
    assert len(session.writes()) == 1


def test_a_wait_that_runs_out_records_the_revert_as_requested(monkeypatch):
    reverting = ScriptedResponse(200, {'share': dict(SHARE, status='reverting')})
    exchanges = by_name(snapshots=[dict(SNAP, metadata={})]) + [
        ('GET', LIST_SNAPS, ScriptedResponse(200, {'snapshots': [SNAP], 'count': 1})),
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(202)),
    ] + [('GET', '/v2/shares/' + SHARE_ID, reverting)] * 3 + [
        ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % SHARE_ID,
         ScriptedResponse(200, {'messages': []})),
        ('POST', '/v2/snapshots/%s/metadata' % SNAP_ID, ScriptedResponse(200, {'metadata': {}})),
    ]
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted', 'timeout': 1}, exchanges)
    assert isinstance(outcome, Fail), outcome.result
    assert list(session.bodies('POST')[1]['metadata']) == [REQUESTED]
    assert 'records the revert as requested' in outcome.result['msg']


# -- share_snapshot: what state=reverted tells the user, and what it sends ----------------------

NOT_THERE = ('state=reverted reverts a share to an existing snapshot and never takes one '
             '(take it with state=present first).')


def test_a_missing_snapshot_by_name_is_named_with_its_share(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted'}, by_name(snapshots=[]))
    assert outcome.result['msg'] == 'No snapshot tuesday of share data exists; ' + NOT_THERE
    assert session.writes() == []


def test_a_missing_snapshot_by_id_is_named_by_its_id(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {
        'id': SNAP_ID, 'name': 'tuesday', 'state': 'reverted'},
        [('GET', '/v2/snapshots/' + SNAP_ID, GONE)])
    assert outcome.result['msg'] == 'No snapshot %s exists; %s' % (SNAP_ID, NOT_THERE)


def test_the_warning_of_a_revert_under_way_names_share_snapshot_and_states(monkeypatch):
    before = {'name': 'tuesday', 'description': None, 'share_id': SHARE_ID, 'size': 1,
              'status': 'restoring', 'reverted': False, 'revert_requested': True, 'metadata': {}}
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted', 'wait': False,
        '_ansible_diff': True},
        later_run('reverting', {REQUESTED: '2026-12-01T11:00:00Z'}, snap_status='restoring'))
    assert outcome.result['warnings'] == [
        'The revert of share data (%s) to snapshot tuesday (%s), requested at '
        '2026-12-01T11:00:00Z, is still in progress (share reverting, snapshot restoring); '
        'run again (or with wait=true) to record it once it is done.' % (SHARE_ID, SNAP_ID)]
    assert outcome.result['diff'] == {'before': before, 'after': before}
    assert outcome.result['snapshot']['id'] == SNAP_ID
    assert outcome.result['changed'] is False and session.writes() == []


def test_a_requested_revert_of_a_snapshot_given_by_id_reads_its_share(monkeypatch):
    requested = dict(SNAP, status='restoring', metadata={REQUESTED: '2026-12-01T11:00:00Z'})
    outcome, session = run(monkeypatch, share_snapshot, {
        'id': SNAP_ID, 'state': 'reverted', 'wait': False}, [
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': requested})),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': dict(SHARE, status='reverting')})),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['share']['status'] == 'reverting'
    assert 'is still in progress' in outcome.result['warnings'][0]


def test_a_revert_to_a_snapshot_given_by_id_reads_its_share(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {
        'id': SNAP_ID, 'state': 'reverted', 'wait': False}, [
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': dict(SNAP, metadata={})})),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': SHARE})),
        snaps(SNAP),
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(202)),
        ('POST', '/v2/snapshots/%s/metadata' % SNAP_ID, ScriptedResponse(200, {'metadata': {}})),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert session.bodies('POST')[0] == {'revert': {'snapshot_id': SNAP_ID}}


def test_the_failure_message_of_a_requested_revert_says_it_is_forgotten(monkeypatch):
    exchanges = later_run('reverting_error', {REQUESTED: '2026-12-01T11:00:00Z'}) + [
        ('GET', REVERT_MESSAGES, ScriptedResponse(200, {'messages': []})),
        DROP_REQUEST,
    ]
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted'}, exchanges)
    assert outcome.result['msg'].startswith(
        'The revert of share data (%s) to snapshot tuesday (%s), requested at '
        '2026-12-01T11:00:00Z, failed (the share is now in status reverting_error). '
        'Manila has no user message about it. The snapshot no longer records the request: '
        'the share as it is decides the next run (Manila reverts no share in reverting_error; '
        'once an admin has repaired it, state=reverted reverts it again).' % (SHARE_ID, SNAP_ID))


def test_every_user_message_of_a_failed_revert_is_quoted(monkeypatch):
    exchanges = later_run('reverting_error', {REQUESTED: '2026-12-01T11:00:00Z'}) + [
        ('GET', REVERT_MESSAGES, ScriptedResponse(200, {'messages': [
            {'created_at': '2026-12-01T11:00:05.000000', 'user_message': 'revert to snapshot: boom'},
            {'created_at': '2026-12-01T11:00:00.000000', 'user_message': None}]})),
    ]
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted'}, exchanges, check_mode=True)
    # check mode forgets nothing, and says nothing of it
    assert outcome.result['msg'].endswith(
        'failed (the share is now in status reverting_error). Manila says: '
        'revert to snapshot: boom | ')
    assert session.writes() == []


def test_a_failure_message_without_a_time_is_not_taken_for_this_revert(monkeypatch):
    exchanges = later_run('available', {REQUESTED: '2026-12-01T11:00:00Z'}) + [
        ('GET', REVERT_MESSAGES, ScriptedResponse(200, {'messages': [
            {'user_message': 'revert to snapshot: some failure'}]}))]
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted', '_ansible_diff': True,
        'metadata': {'b': '2'}}, exchanges, check_mode=True)
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['changed'] is True and session.writes() == []
    assert list(outcome.result['snapshot']['metadata']) == [MARKER]
    after = outcome.result['diff']['after']
    assert (after['reverted'], after['revert_requested'], after['metadata']) == (True, False, {'b': '2'})
    assert outcome.result['share']['id'] == SHARE_ID


def test_a_recorded_revert_returns_the_share(monkeypatch):
    marked = dict(SNAP, metadata={MARKER: '2026-12-01T11:00:00Z'})
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted'}, by_name(snapshots=[marked]))
    assert outcome.result['share'] == SHARE


def test_a_recorded_revert_with_new_metadata_sends_only_the_metadata(monkeypatch):
    marked = dict(SNAP, metadata={MARKER: '2026-12-01T11:00:00Z'})
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted', 'metadata': {'b': '2'}},
        by_name(snapshots=[marked]) + [
            ('POST', '/v2/snapshots/%s/metadata' % SNAP_ID,
             ScriptedResponse(200, {'metadata': {MARKER: '2026-12-01T11:00:00Z', 'b': '2'}}))])
    assert not isinstance(outcome, Fail), outcome.result
    assert session.bodies('POST') == [{'metadata': {'b': '2'}}]
    assert outcome.result['changed'] is True


def test_always_revert_reverts_again_despite_the_marker(monkeypatch):
    marked = dict(SNAP, metadata={MARKER: '2026-12-01T11:00:00Z'})
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted', 'always_revert': True,
        'wait': False}, by_name(snapshots=[marked]) + [
        snaps(marked),
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(202)),
        ('POST', '/v2/snapshots/%s/metadata' % SNAP_ID, ScriptedResponse(200, {'metadata': {}})),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['changed'] is True
    assert session.bodies('POST')[0] == {'revert': {'snapshot_id': SNAP_ID}}


def test_always_revert_without_wait_below_2_73_writes_no_record(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted', 'always_revert': True,
        'wait': False}, by_name() + [
        ('GET', UNCOUNTED_SNAPS % 0, ScriptedResponse(200, {'snapshots': [SNAP]})),
        ('GET', UNCOUNTED_SNAPS % 1, ScriptedResponse(200, {'snapshots': []})),
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(202)),
    ], max_version='2.72')
    assert not isinstance(outcome, Fail), outcome.result
    assert [c.path for c in session.writes()] == ['/v2/shares/%s/action' % SHARE_ID]


def test_a_revert_sends_the_tasks_metadata_and_shows_the_revert_done(monkeypatch):
    exchanges = by_name(snapshots=[dict(SNAP, metadata={})]) + [
        snaps(SNAP),
        ('POST', '/v2/snapshots/%s/metadata' % SNAP_ID, ScriptedResponse(200, {'metadata': {'b': '2'}})),
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(202)),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': SHARE})),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': dict(SNAP, metadata={'b': '2'})})),
        ('POST', '/v2/snapshots/%s/metadata' % SNAP_ID, ScriptedResponse(200, {'metadata': {}})),
    ]
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted', 'metadata': {'b': '2'},
        '_ansible_diff': True}, exchanges)
    assert not isinstance(outcome, Fail), outcome.result
    assert session.bodies('POST')[0] == {'metadata': {'b': '2'}}
    assert session.bodies('POST')[1] == {'revert': {'snapshot_id': SNAP_ID}}
    after = outcome.result['diff']['after']
    assert (after['reverted'], after['revert_requested'], after['metadata']) == (True, False, {'b': '2'})


def test_check_mode_shows_the_revert_done_with_wait(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted', '_ansible_diff': True},
        by_name(snapshots=[dict(SNAP, metadata={})]) + [snaps(SNAP)], check_mode=True)
    after = outcome.result['diff']['after']
    assert (after['reverted'], after['revert_requested']) == (True, False)
    assert outcome.result['share'] == SHARE


def test_a_revert_waits_for_a_busy_snapshot_and_a_busy_share_first(monkeypatch):
    exchanges = [
        ('GET', '/v2/shares/detail?name=data',
         ScriptedResponse(200, {'shares': [dict(SHARE, status='extending')]})),
        ('GET', '/v2/snapshots/detail?name=tuesday&share_id=' + SHARE_ID,
         ScriptedResponse(200, {'snapshots': [dict(SNAP, status='creating', metadata={})]})),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': dict(SNAP, metadata={})})),
        snaps(SNAP),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': SHARE})),
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(202)),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': SHARE})),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': dict(SNAP, metadata={})})),
        ('POST', '/v2/snapshots/%s/metadata' % SNAP_ID, ScriptedResponse(200, {'metadata': {}})),
    ]
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted', 'wait': True}, exchanges)
    assert not isinstance(outcome, Fail), outcome.result
    assert session.bodies('POST')[0] == {'revert': {'snapshot_id': SNAP_ID}}


def test_without_wait_a_busy_snapshot_is_not_reverted_to(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted', 'wait': False},
        by_name(snapshots=[dict(SNAP, status='creating', metadata={})]))
    assert outcome.result['msg'] == ('Snapshot tuesday (%s) is busy (creating); run again later '
                                     'or set wait=true.' % SNAP_ID)
    assert session.writes() == []


def test_without_wait_a_busy_share_is_not_reverted(monkeypatch):
    exchanges = [
        ('GET', '/v2/shares/detail?name=data',
         ScriptedResponse(200, {'shares': [dict(SHARE, status='extending')]})),
        ('GET', '/v2/snapshots/detail?name=tuesday&share_id=' + SHARE_ID,
         ScriptedResponse(200, {'snapshots': [dict(SNAP, metadata={})]})),
        snaps(SNAP),
    ]
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted', 'wait': False}, exchanges)
    assert isinstance(outcome, Fail), outcome.result
    assert 'is busy (extending)' in outcome.result['msg']
    assert session.writes() == []


def test_a_snapshot_deleted_while_waited_for_is_not_reverted_to(monkeypatch):
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted'},
        by_name(snapshots=[dict(SNAP, status='creating', metadata={})]) + [
            ('GET', '/v2/snapshots/' + SNAP_ID, GONE)])
    assert outcome.result['msg'] == 'Snapshot tuesday was deleted meanwhile; nothing to revert to.'
    assert session.writes() == []


def test_a_revert_found_failed_after_waiting_for_it_fails_the_run(monkeypatch):
    exchanges = later_run('reverting', {REQUESTED: '2026-12-01T11:00:00Z'}, snap_status='restoring') + [
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': dict(SHARE, status='reverting_error')})),
        ('GET', '/v2/snapshots/' + SNAP_ID, ScriptedResponse(200, {'snapshot': dict(
            SNAP, metadata={REQUESTED: '2026-12-01T11:00:00Z'})})),
        ('GET', REVERT_MESSAGES, ScriptedResponse(200, {'messages': []})),
        DROP_REQUEST,
    ]
    outcome, session = run(monkeypatch, share_snapshot, {
        'share': 'data', 'name': 'tuesday', 'state': 'reverted'}, exchanges)
    assert isinstance(outcome, Fail), outcome.result
    assert 'failed (the share is now in status reverting_error)' in outcome.result['msg']
