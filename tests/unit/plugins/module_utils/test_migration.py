# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils.client import (
    EXPERIMENTAL_HEADER,
    VERSION_HEADER,
)
from ansible_collections.openkeel.manila.plugins.module_utils.migration import (
    CANCEL,
    COMPLETE,
    ERROR,
    FIND_DESTINATION,
    Migration,
    MigrationAPI,
    NOTHING,
    Plan,
    RESUME,
    START,
    WAIT_CANCELLABLE,
    WAIT_CANCELLED,
    WAIT_PHASE1,
    WAIT_SUCCESS,
    needs_move,
    plan,
    resolve_flags,
    start_body,
    validate_request,
)
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    InvalidInput,
    ManilaError,
    WaitFailed,
)
from ansible_collections.openkeel.manila.plugins.module_utils.lookups import (
    exact,
    parse_pool_name,
    require_pool,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    expect,
    make_client,
)

SID = '11111111-2222-3333-4444-555555555555'
ALPHA = 'openkeel@alpha#fake_pool_for_ALPHA'
BETA = 'openkeel@beta#fake_pool_for_BETA'
GAMMA = 'openkeel@gamma#fake_pool_for_GAMMA'


def share(task_state=None, host=ALPHA, status='available'):
    return {'id': SID, 'name': 'data', 'host': host, 'status': status,
            'task_state': task_state}


# -- planning table --------------------------------------------------------------

FULL = [START, WAIT_PHASE1, COMPLETE, WAIT_SUCCESS]

PLANS = [
    # (share task_state, share status, share host, destination, desired, target) -> plan
    (None, 'available', ALPHA, None, 'completed', BETA, Plan(START, FULL)),
    (None, 'available', ALPHA, None, 'phase1_done', BETA, Plan(START, [START, WAIT_PHASE1])),
    (None, 'available', BETA, None, 'completed', BETA, Plan(NOTHING)),
    (None, 'available', BETA, None, 'phase1_done', BETA, Plan(NOTHING)),
    (None, 'available', ALPHA, None, 'cancelled', None, Plan(NOTHING)),
    ('migration_success', 'available', BETA, None, 'completed', BETA, Plan(NOTHING)),
    ('migration_success', 'available', BETA, None, 'completed', ALPHA, Plan(START, FULL)),
    ('migration_cancelled', 'available', ALPHA, None, 'completed', BETA, Plan(START, FULL)),
    ('migration_error', 'available', ALPHA, None, 'completed', BETA, Plan(START, FULL)),
    ('migration_error', 'available', ALPHA, None, 'cancelled', None, Plan(NOTHING)),
    (None, 'extending', ALPHA, None, 'completed', BETA, Plan(ERROR)),
    (None, 'error', ALPHA, None, 'phase1_done', BETA, Plan(ERROR)),
    # in flight to the same target: resume, never start again
    ('migration_starting', 'migrating', ALPHA, BETA, 'completed', BETA,
     Plan(RESUME, [WAIT_PHASE1, COMPLETE, WAIT_SUCCESS])),
    ('migration_driver_in_progress', 'migrating', ALPHA, BETA, 'completed', BETA,
     Plan(RESUME, [WAIT_PHASE1, COMPLETE, WAIT_SUCCESS])),
    ('data_copying_in_progress', 'migrating', ALPHA, BETA, 'phase1_done', BETA,
     Plan(RESUME, [WAIT_PHASE1])),
    ('migration_driver_phase1_done', 'migrating', ALPHA, BETA, 'completed', BETA,
     Plan(COMPLETE, [COMPLETE, WAIT_SUCCESS])),
    ('data_copying_completed', 'migrating', ALPHA, BETA, 'completed', BETA,
     Plan(COMPLETE, [COMPLETE, WAIT_SUCCESS])),
    ('migration_driver_phase1_done', 'migrating', ALPHA, BETA, 'phase1_done', BETA, Plan(NOTHING)),
    ('migration_completing', 'migrating', ALPHA, BETA, 'completed', BETA,
     Plan(RESUME, [WAIT_SUCCESS])),
    ('migration_completing', 'migrating', ALPHA, BETA, 'phase1_done', BETA,
     Plan(RESUME, [WAIT_SUCCESS])),
    ('migration_cancel_in_progress', 'migrating', ALPHA, BETA, 'completed', BETA, Plan(ERROR)),
    # in flight elsewhere: an error naming where it goes
    ('migration_driver_in_progress', 'migrating', ALPHA, GAMMA, 'completed', BETA, Plan(ERROR)),
    ('migration_driver_phase1_done', 'migrating', ALPHA, GAMMA, 'cancelled', BETA, Plan(ERROR)),
    # destination not known yet
    ('migration_starting', 'migrating', ALPHA, None, 'completed', BETA, Plan(FIND_DESTINATION)),
    # cancelling
    ('migration_driver_in_progress', 'migrating', ALPHA, BETA, 'cancelled', None,
     Plan(CANCEL, [CANCEL, WAIT_CANCELLED])),
    ('migration_driver_phase1_done', 'migrating', ALPHA, BETA, 'cancelled', BETA,
     Plan(CANCEL, [CANCEL, WAIT_CANCELLED])),
    ('migration_in_progress', 'migrating', ALPHA, None, 'cancelled', None,
     Plan(CANCEL, [WAIT_CANCELLABLE, CANCEL, WAIT_CANCELLED])),
    ('data_copying_completing', 'migrating', ALPHA, BETA, 'cancelled', None,
     Plan(CANCEL, [WAIT_CANCELLABLE, CANCEL, WAIT_CANCELLED])),
    ('migration_cancel_in_progress', 'migrating', ALPHA, BETA, 'cancelled', None,
     Plan(RESUME, [WAIT_CANCELLED])),
    ('migration_completing', 'migrating', ALPHA, BETA, 'cancelled', None, Plan(ERROR)),
]


@pytest.mark.parametrize('task_state, status, host, destination, desired, target, expected', PLANS)
def test_planning_table(task_state, status, host, destination, desired, target, expected):
    got = plan(share(task_state, host, status), desired, target, destination)
    assert got == expected
    assert got.reason


def test_plan_changes_only_when_a_write_is_planned():
    assert Plan(START, FULL).changes
    assert not Plan(RESUME, [WAIT_PHASE1]).changes
    assert not Plan(NOTHING).changes


def test_error_in_flight_elsewhere_names_the_destination():
    got = plan(share('migration_driver_in_progress', status='migrating'), 'completed', BETA, GAMMA)
    assert GAMMA in got.reason and 'cancelled' in got.reason


def test_retype_on_the_same_pool_needs_a_move():
    current = dict(share(host=BETA), share_type='t-1', share_type_name='gold')
    assert not needs_move(current, BETA, 'gold')
    assert not needs_move(current, BETA, 't-1')
    assert needs_move(current, BETA, 't-2')
    assert plan(current, 'completed', BETA, None, move_needed=True).action == START


# -- flags and input ---------------------------------------------------------------

def test_flag_defaults_keep_every_guarantee():
    assert resolve_flags({}) == {
        'writable': True, 'preserve_metadata': True, 'preserve_snapshots': True,
        'nondisruptive': False, 'force_host_assisted_migration': False}


def test_host_assisted_defaults_drop_the_guarantees():
    flags = resolve_flags({'force_host_assisted_migration': True})
    assert flags == {'writable': False, 'preserve_metadata': False,
                     'preserve_snapshots': False, 'nondisruptive': False,
                     'force_host_assisted_migration': True}


@pytest.mark.parametrize('flag', ['writable', 'preserve_metadata', 'preserve_snapshots',
                                  'nondisruptive'])
def test_host_assisted_refuses_any_guarantee(flag):
    with pytest.raises(InvalidInput) as err:
        resolve_flags({'force_host_assisted_migration': True, flag: True})
    assert flag in str(err.value)


def test_explicit_false_flags_are_kept():
    assert resolve_flags({'writable': False})['writable'] is False


@pytest.mark.parametrize('name', ['openkeel@beta', 'beta#pool', 'a@b#c#d', '', 'a @b#c'])
def test_pool_names_must_be_complete(name):
    with pytest.raises(InvalidInput) as err:
        parse_pool_name(name)
    assert str(err.value).startswith('host must be a full pool name')


def test_pool_name_parts():
    assert parse_pool_name(BETA) == ('openkeel', 'beta', 'fake_pool_for_BETA')


def test_target_required_unless_cancelling():
    with pytest.raises(InvalidInput):
        validate_request('completed', None, {})
    with pytest.raises(InvalidInput):
        validate_request('phase1_done', None, {})
    validate_request('cancelled', None, {})


def test_start_body_sends_every_flag():
    body = start_body(BETA, resolve_flags({}), new_share_type_id='t-2')
    assert body == {'host': BETA, 'writable': True, 'preserve_metadata': True,
                    'preserve_snapshots': True, 'nondisruptive': False,
                    'force_host_assisted_migration': False, 'new_share_type_id': 't-2'}


def test_exact_filter_is_anchored_and_escaped():
    assert exact('a.b') == r'a\.b$'


# -- scripted HTTP: what the real cloud cannot show -------------------------------------

ACTION = '/v2/shares/%s/action' % SID
PROGRESS = '/v2/shares/%s/migration-progress' % SID
SHARE_PATH = '/v2/shares/%s' % SID
MESSAGES = '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % SID


def progress(task_state, total):
    return ScriptedResponse(200, {'total_progress': total, 'task_state': task_state,
                                  'details': {}})


def test_host_assisted_migration_runs_through_data_copying():
    client, session = make_client([
        ('POST', ACTION, ScriptedResponse(202)),
        ('GET', PROGRESS, progress('data_copying_starting', 0)),
        ('GET', PROGRESS, progress('data_copying_in_progress', 40)),
        ('GET', PROGRESS, progress('data_copying_completed', 100)),
        ('POST', ACTION, ScriptedResponse(202)),
        ('GET', PROGRESS, progress('migration_completing', 100)),
        ('GET', PROGRESS, progress('migration_success', 100)),
    ])
    polls = []
    api = MigrationAPI(client, timeout=60, on_poll=polls.append)
    current = share()
    api.start(SID, start_body(BETA, resolve_flags({'force_host_assisted_migration': True})))
    assert api.wait_phase1(current)['task_state'] == 'data_copying_completed'
    api.complete(SID)
    assert api.wait_success(current)['task_state'] == 'migration_success'
    assert [p['total_progress'] for p in polls] == [0, 40, 100, 100, 100]
    assert session.bodies('POST') == [{'migration_start': {
        'host': BETA, 'writable': False, 'preserve_metadata': False,
        'preserve_snapshots': False, 'nondisruptive': False,
        'force_host_assisted_migration': True}}, {'migration_complete': None}]


def test_scheduler_refusal_after_the_202_fails_with_task_state_and_messages():
    client, session = make_client([
        ('GET', PROGRESS, progress('migration_starting', 0)),
        ('GET', PROGRESS, progress('migration_error', 100)),
        ('GET', SHARE_PATH, ScriptedResponse(200, {'share': share('migration_error')})),
        ('GET', MESSAGES, ScriptedResponse(200, {'messages': [
            {'user_message': 'migration: No storage could be allocated.'}]})),
    ])
    api = MigrationAPI(client, timeout=60)
    with pytest.raises(WaitFailed) as err:
        api.wait_phase1(share('migration_starting', status='migrating'))
    text = str(err.value)
    assert text.startswith('The migration of share data (%s) went to migration_error' % SID)
    assert 'task_state: migration_error.' in text
    assert 'No storage could be allocated' in text
    assert 'The share is now available' in text
    # Manila reports 100 for a failed migration: that is no progress.
    assert 'Progress reached: 0%.' in text


def test_completion_failure_leaves_instances_in_error_and_says_so():
    client, session = make_client([
        ('GET', PROGRESS, progress('migration_driver_in_progress', 60)),
        ('GET', PROGRESS, progress('migration_completing', 100)),
        ('GET', PROGRESS, progress('migration_error', 100)),
        ('GET', SHARE_PATH, ScriptedResponse(200, {'share': share(
            'migration_error', status='error')})),
        ('GET', MESSAGES, ScriptedResponse(200, {'messages': [
            {'user_message': 'complete migration: driver failed.'}]})),
    ])
    api = MigrationAPI(client, timeout=60)
    with pytest.raises(WaitFailed) as err:
        api.wait_success(share('migration_completing', status='migrating'))
    text = str(err.value)
    assert 'task_state: migration_error' in text
    assert 'Progress reached: 100%' in text
    assert 'instances in error' in text
    assert 'driver failed' in text
    assert session.writes() == []


def test_below_2_98_progress_is_the_action_with_the_experimental_header():
    client, session = make_client([
        expect('POST', ACTION, progress('migration_driver_in_progress', 50), experimental=True,
               body={'migration_get_progress': None}),
        expect('POST', ACTION, progress('migration_driver_phase1_done', 100), experimental=True,
               body={'migration_get_progress': None}),
    ], max_version='2.95')
    api = MigrationAPI(client, timeout=60)
    api.wait_phase1(share('migration_driver_in_progress', status='migrating'))
    assert [c.headers[VERSION_HEADER] for c in session.calls[1:]] == ['2.95', '2.95']


def test_between_2_96_and_2_97_the_action_has_no_experimental_header():
    client, session = make_client([
        expect('POST', ACTION, progress('migration_driver_phase1_done', 100),
               body={'migration_get_progress': None}),
    ], max_version='2.97')
    MigrationAPI(client).progress(SID)
    assert EXPERIMENTAL_HEADER not in session.calls[1].headers


def test_progress_action_is_allowed_in_check_mode():
    client, session = make_client([
        expect('POST', ACTION, progress('migration_driver_in_progress', 10), experimental=True),
    ], max_version='2.90', check_mode=True)
    assert MigrationAPI(client).progress(SID)['total_progress'] == 10


def test_progress_400_means_none_and_the_wait_reads_the_share():
    client, session = make_client([
        ('GET', PROGRESS, ScriptedResponse(400, {'badRequest': {
            'code': 400, 'message': 'cannot be obtained at this moment'}})),
        ('GET', SHARE_PATH, ScriptedResponse(200, {'share': share(
            'migration_driver_phase1_done', status='migrating')})),
    ])
    api = MigrationAPI(client, timeout=60)
    assert api.wait_phase1(share('migration_driver_in_progress'))['task_state'] == \
        'migration_driver_phase1_done'


@pytest.mark.parametrize('call', ['start', 'complete', 'cancel', 'instances', 'progress'])
def test_member_gets_admin_only_message(call):
    forbidden = ScriptedResponse(403, {'forbidden': {
        'code': 403, 'message': 'Policy doesn\'t allow share:migration.'}})
    method, path = {'instances': ('GET', SHARE_PATH + '/instances'),
                    'progress': ('GET', PROGRESS)}.get(call, ('POST', ACTION))
    client, session = make_client([(method, path, forbidden)])
    api = MigrationAPI(client)
    args = {'start': (SID, start_body(BETA, resolve_flags({})))}.get(call, (SID,))
    with pytest.raises(ManilaError) as err:
        getattr(api, call)(*args)
    assert 'admin-only by default' in str(err.value)
    assert err.value.status == 403


def test_destination_is_the_migrating_to_instance():
    client, session = make_client([
        ('GET', SHARE_PATH + '/instances', ScriptedResponse(200, {'share_instances': [
            {'id': 'i1', 'status': 'migrating', 'host': ALPHA},
            {'id': 'i2', 'status': 'migrating_to', 'host': BETA}]})),
    ])
    assert MigrationAPI(client).hosts(SID) == (ALPHA, BETA)


def test_unknown_pool_lists_the_known_ones():
    client, session = make_client([
        ('GET', '/v2/scheduler-stats/pools?host=openkeel%24&backend=gamma%24&pool=fake_pool_for_GAMMA%24',
         ScriptedResponse(200, {'pools': []})),
        ('GET', '/v2/scheduler-stats/pools', ScriptedResponse(200, {'pools': [
            {'name': ALPHA}, {'name': BETA}]})),
    ])
    with pytest.raises(InvalidInput) as err:
        require_pool(client, GAMMA)
    assert str(err.value) == 'host: no pool named %s is known to the scheduler. Pools: %s, %s.' % (
        GAMMA, ALPHA, BETA)


def test_progress_needs_no_experimental_header_on_2_98():
    client, session = make_client([
        ('GET', PROGRESS, progress('migration_driver_in_progress', 5)),
    ], max_version='2.98')
    assert MigrationAPI(client).progress(SID)['total_progress'] == 5


# -- the runner: plan, steps, what is sent -------------------------------------------------

TYPE_ID = 'aaaaaaaa-0000-0000-0000-000000000002'


def test_a_member_is_told_migration_is_admin_only_before_any_write():
    member_view = dict(share())
    del member_view['host']
    client, session = make_client([
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [member_view]})),
    ])
    with pytest.raises(CannotConverge) as err:
        Migration(client, 'data', 'completed', BETA, flags=resolve_flags({})).prepare()
    assert 'needs an administrator' in str(err.value)


def test_the_runner_starts_waits_and_cuts_over():
    client, session = make_client([
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [share()]})),
        ('GET', '/v2/types?is_public=all', ScriptedResponse(200, {'share_types': [
            {'id': TYPE_ID, 'name': 'beta'}, {'id': 'other', 'name': 'alpha'}]})),
        ('GET', '/v2/scheduler-stats/pools?host=openkeel%24&backend=beta%24&pool=fake_pool_for_BETA%24',
         ScriptedResponse(200, {'pools': [{'name': BETA}]})),
        ('POST', ACTION, ScriptedResponse(202)),
        ('GET', PROGRESS, progress('migration_driver_phase1_done', 100)),
        ('POST', ACTION, ScriptedResponse(202)),
        ('GET', PROGRESS, progress('migration_success', 100)),
        ('GET', SHARE_PATH, ScriptedResponse(200, {'share': share('migration_success', host=BETA)})),
    ])
    migration = Migration(client, 'data', 'completed', BETA, new_share_type='beta',
                          flags=resolve_flags({}))
    assert migration.prepare().steps == (START, WAIT_PHASE1, COMPLETE, WAIT_SUCCESS)
    sent = migration.run()
    assert migration.sent_writes(sent)
    assert session.bodies('POST') == [
        {'migration_start': dict(start_body(BETA, resolve_flags({})), new_share_type_id=TYPE_ID)},
        {'migration_complete': None}]
    assert (migration.source, migration.destination) == (BETA, None)
    assert migration.summary()['task_state'] == 'migration_success'


def test_without_waiting_only_the_first_write_is_sent():
    client, session = make_client([
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [share()]})),
        ('GET', '/v2/scheduler-stats/pools?host=openkeel%24&backend=beta%24&pool=fake_pool_for_BETA%24',
         ScriptedResponse(200, {'pools': [{'name': BETA}]})),
        ('POST', ACTION, ScriptedResponse(202)),
        ('GET', SHARE_PATH, ScriptedResponse(200, {'share': share('migration_driver_starting',
                                                                  status='migrating')})),
        ('GET', SHARE_PATH + '/instances', ScriptedResponse(200, {'share_instances': [
            {'status': 'migrating', 'host': ALPHA}, {'status': 'migrating_to', 'host': BETA}]})),
    ])
    migration = Migration(client, 'data', 'completed', BETA, flags=resolve_flags({}))
    migration.prepare()
    assert migration.run(wait=False) == [START]
    assert (migration.source, migration.destination) == (ALPHA, BETA)


def test_check_mode_prepares_with_reads_only():
    client, session = make_client([
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [share()]})),
        ('GET', '/v2/scheduler-stats/pools?host=openkeel%24&backend=beta%24&pool=fake_pool_for_BETA%24',
         ScriptedResponse(200, {'pools': [{'name': BETA}]})),
    ], check_mode=True)
    migration = Migration(client, 'data', 'phase1_done', BETA, flags=resolve_flags({}))
    assert migration.prepare().changes
    assert migration.predicted_task_state() == 'migration_driver_phase1_done'
    assert session.writes() == []


def test_a_plan_error_fails_before_any_write_with_the_share_in_the_result():
    in_flight = share('migration_driver_in_progress', status='migrating')
    client, session = make_client([
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [in_flight]})),
        ('GET', SHARE_PATH + '/instances', ScriptedResponse(200, {'share_instances': [
            {'status': 'migrating', 'host': ALPHA}, {'status': 'migrating_to', 'host': GAMMA}]})),
    ])
    with pytest.raises(CannotConverge) as err:
        Migration(client, 'data', 'completed', BETA, flags=resolve_flags({})).prepare()
    assert 'already in flight' in str(err.value) and GAMMA in str(err.value)
    assert err.value.result['migration']['destination_host'] == GAMMA
    assert session.writes() == []
