# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Share migration: the planning table, flags and input, the helpers of the plan,
each write's request and its lost-answer lookup, the targets and failures of
every wait, and the runner (its steps, skips and what it hands on)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from keystoneauth1 import exceptions as ksa_exc

from ansible_collections.openkeel.manila.plugins.module_utils import kinds, resource as base_resource
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
    MigrationPlan,
    NOTHING,
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
    steps_without_waiting,
    summarize,
)
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    InvalidInput,
    ManilaError,
    WaitFailed,
    WaitTimeout,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    FakeClock,
    ScriptedResponse,
    expect,
    make_client,
)
from ansible_collections.openkeel.manila.plugins.module_utils import migration as mig
from ansible_collections.openkeel.manila.plugins.module_utils import resource

SID = '11111111-2222-3333-4444-555555555555'
ALPHA = 'openkeel@alpha#fake_pool_for_ALPHA'
BETA = 'openkeel@beta#fake_pool_for_BETA'
GAMMA = 'openkeel@gamma#fake_pool_for_GAMMA'


def share(task_state=None, host=ALPHA, status='available', **extra):
    return dict({'id': SID, 'name': 'data', 'host': host, 'status': status,
                 'task_state': task_state}, **extra)


# -- planning table --------------------------------------------------------------

FULL = [START, WAIT_PHASE1, COMPLETE, WAIT_SUCCESS]

PLANS = [
    # (share task_state, share status, share host, destination, desired, target) -> plan
    (None, 'available', ALPHA, None, 'completed', BETA, MigrationPlan(START, FULL)),
    (None, 'available', ALPHA, None, 'phase1_done', BETA, MigrationPlan(START, [START, WAIT_PHASE1])),
    (None, 'available', BETA, None, 'completed', BETA, MigrationPlan(NOTHING)),
    (None, 'available', BETA, None, 'phase1_done', BETA, MigrationPlan(NOTHING)),
    (None, 'available', ALPHA, None, 'cancelled', None, MigrationPlan(NOTHING)),
    ('migration_success', 'available', BETA, None, 'completed', BETA, MigrationPlan(NOTHING)),
    ('migration_success', 'available', BETA, None, 'completed', ALPHA, MigrationPlan(START, FULL)),
    ('migration_cancelled', 'available', ALPHA, None, 'completed', BETA, MigrationPlan(START, FULL)),
    ('migration_error', 'available', ALPHA, None, 'completed', BETA, MigrationPlan(START, FULL)),
    ('migration_error', 'available', ALPHA, None, 'cancelled', None, MigrationPlan(NOTHING)),
    (None, 'extending', ALPHA, None, 'completed', BETA, MigrationPlan(ERROR)),
    (None, 'error', ALPHA, None, 'phase1_done', BETA, MigrationPlan(ERROR)),
    # in flight to the same target: resume, never start again
    ('migration_starting', 'migrating', ALPHA, BETA, 'completed', BETA,
     MigrationPlan(RESUME, [WAIT_PHASE1, COMPLETE, WAIT_SUCCESS])),
    ('migration_driver_in_progress', 'migrating', ALPHA, BETA, 'completed', BETA,
     MigrationPlan(RESUME, [WAIT_PHASE1, COMPLETE, WAIT_SUCCESS])),
    ('data_copying_in_progress', 'migrating', ALPHA, BETA, 'phase1_done', BETA,
     MigrationPlan(RESUME, [WAIT_PHASE1])),
    ('migration_driver_phase1_done', 'migrating', ALPHA, BETA, 'completed', BETA,
     MigrationPlan(COMPLETE, [COMPLETE, WAIT_SUCCESS])),
    ('data_copying_completed', 'migrating', ALPHA, BETA, 'completed', BETA,
     MigrationPlan(COMPLETE, [COMPLETE, WAIT_SUCCESS])),
    ('migration_driver_phase1_done', 'migrating', ALPHA, BETA, 'phase1_done', BETA, MigrationPlan(NOTHING)),
    ('migration_completing', 'migrating', ALPHA, BETA, 'completed', BETA,
     MigrationPlan(RESUME, [WAIT_SUCCESS])),
    ('migration_completing', 'migrating', ALPHA, BETA, 'phase1_done', BETA,
     MigrationPlan(RESUME, [WAIT_SUCCESS])),
    ('migration_cancel_in_progress', 'migrating', ALPHA, BETA, 'completed', BETA, MigrationPlan(ERROR)),
    # in flight elsewhere: an error naming where it goes
    ('migration_driver_in_progress', 'migrating', ALPHA, GAMMA, 'completed', BETA, MigrationPlan(ERROR)),
    ('migration_driver_phase1_done', 'migrating', ALPHA, GAMMA, 'cancelled', BETA, MigrationPlan(ERROR)),
    # destination not known yet
    ('migration_starting', 'migrating', ALPHA, None, 'completed', BETA, MigrationPlan(FIND_DESTINATION)),
    # cancelling
    ('migration_driver_in_progress', 'migrating', ALPHA, BETA, 'cancelled', None,
     MigrationPlan(CANCEL, [CANCEL, WAIT_CANCELLED])),
    ('migration_driver_phase1_done', 'migrating', ALPHA, BETA, 'cancelled', BETA,
     MigrationPlan(CANCEL, [CANCEL, WAIT_CANCELLED])),
    ('migration_in_progress', 'migrating', ALPHA, None, 'cancelled', None,
     MigrationPlan(CANCEL, [WAIT_CANCELLABLE, CANCEL, WAIT_CANCELLED])),
    ('data_copying_completing', 'migrating', ALPHA, BETA, 'cancelled', None,
     MigrationPlan(CANCEL, [WAIT_CANCELLABLE, CANCEL, WAIT_CANCELLED])),
    ('migration_cancel_in_progress', 'migrating', ALPHA, BETA, 'cancelled', None,
     MigrationPlan(RESUME, [WAIT_CANCELLED])),
    ('migration_completing', 'migrating', ALPHA, BETA, 'cancelled', None, MigrationPlan(ERROR)),
]


@pytest.mark.parametrize('task_state, status, host, destination, desired, target, expected', PLANS)
def test_planning_table(task_state, status, host, destination, desired, target, expected):
    got = plan(share(task_state, host, status), desired, target, destination)
    assert got == expected
    assert got.reason


@pytest.mark.parametrize('task_state, status, host, destination, desired, target, _expected', PLANS)
def test_migration_plan_changed_is_a_write_step(task_state, status, host, destination, desired,
                                                target, _expected):
    """The plan shape (resource.Plan) with the migration's own ``changed``: a
    write among the steps, as before.  NOTHING never changes, start, complete
    and cancel always do, error and find_destination never do (they have no
    steps), and resume does when it still has to cut over (complete)."""
    got = plan(share(task_state, host, status), desired, target, destination)
    assert isinstance(got, resource.Plan)
    assert got.changed is any(step in mig.WRITE_STEPS for step in got.steps)
    if got.action in (NOTHING, ERROR, FIND_DESTINATION):
        assert got.changed is False
    elif got.action in (START, COMPLETE, CANCEL):
        assert got.changed is True
    else:
        assert got.action == RESUME and got.changed is (COMPLETE in got.steps)


def test_plan_changes_only_when_a_write_is_planned():
    assert MigrationPlan(START, FULL).changed
    assert not MigrationPlan(RESUME, [WAIT_PHASE1]).changed
    assert not MigrationPlan(NOTHING).changed


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


def test_progress_500_means_none_and_the_wait_reads_the_share():
    # Manila 2023.2, a moment after a cancel: the progress action fails with
    # ShareMigrationFailed ("instances in inconsistent states"), which its
    # answer words as any 500; the wait reads the share instead.
    erred = ScriptedResponse(500, {'computeFault': {
        'code': 500, 'message': 'The server has either erred or is incapable of performing the '
                                'requested operation.'}})
    client, session = make_client([
        expect('POST', ACTION, erred, experimental=True, body={'migration_get_progress': None}),
        ('GET', SHARE_PATH, ScriptedResponse(200, {'share': share(
            'migration_cancelled', status='available')})),
    ], max_version='2.82')
    api = MigrationAPI(client, timeout=60)
    assert api.wait_cancelled(share('migration_driver_in_progress'))['task_state'] == \
        'migration_cancelled'


def test_progress_unavailable_is_raised():
    client, session = make_client([
        expect('POST', ACTION, ScriptedResponse(503, {'serviceUnavailable': {
            'code': 503, 'message': 'down'}}), experimental=True),
    ], max_version='2.82')
    with pytest.raises(ManilaError):
        MigrationAPI(client, timeout=60).progress(SID)


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
    assert migration.prepare().changed
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


# -- answers with every field, for the tests below ------------------------------------------

INSTANCES = SHARE_PATH + '/instances'
LOST = ksa_exc.ConnectFailure('Connection aborted.')


def got_share(*args, **kwargs):
    return ScriptedResponse(200, {'share': share(*args, **kwargs)})


def progress_detailed(task_state, total=50, details=None):
    return ScriptedResponse(200, {'total_progress': total, 'task_state': task_state,
                                  'details': details})


def no_progress():
    return ScriptedResponse(400, {'badRequest': {'code': 400, 'message': 'no migration'}})


def no_messages():
    return ScriptedResponse(200, {'messages': []})


# -- pure helpers -------------------------------------------------------------------------

def test_needs_move_each_reason():
    s = share(host=BETA, share_type='tid', share_type_name='gold', share_network_id='net')
    assert needs_move(s, ALPHA) is True
    assert needs_move(s, BETA) is False
    assert needs_move(s, BETA, new_share_type='tid') is False
    assert needs_move(s, BETA, new_share_type='gold') is False
    assert needs_move(s, BETA, new_share_type='silver') is True
    assert needs_move(s, BETA, new_share_network='net') is False
    assert needs_move(s, BETA, new_share_network='other') is True


def test_plan_object():
    p = MigrationPlan('start', ['start', 'wait_phase1'], 'why')
    assert p.steps == ('start', 'wait_phase1') and p.reason == 'why' and p.changed
    assert repr(p) == "MigrationPlan('start', ('start', 'wait_phase1'))"
    assert p == MigrationPlan('start', ('start', 'wait_phase1'))
    assert p != MigrationPlan('start', ('start',)) and p != MigrationPlan('resume', ('start', 'wait_phase1'))
    assert not MigrationPlan('resume', ['wait_phase1', 'wait_success']).changed
    for step in ('start', 'complete', 'cancel'):
        assert MigrationPlan('x', [step]).changed
    assert MigrationPlan('nothing').steps == () and MigrationPlan('nothing').reason == ''


def test_plan_uses_the_host_when_move_needed_is_not_given():
    assert plan(share(host=BETA), 'completed', BETA).action == 'nothing'
    assert plan(share(host=ALPHA), 'completed', BETA).action == 'start'
    assert plan(share(host=BETA), 'completed', BETA, move_needed=True).action == 'start'
    # cancelling an in-flight migration whose destination is unknown needs no destination
    p = plan(share('migration_driver_in_progress', status='migrating'), 'cancelled')
    assert p.action == 'cancel'
    p = plan(share('migration_driver_in_progress', status='migrating'), 'cancelled', BETA)
    assert p.action == 'find_destination'


def test_plan_reasons_name_the_share_and_hosts():
    assert plan(share(host=ALPHA), 'completed', BETA).reason == (
        'share data (%s) is on %s; moving it to %s.' % (SID, ALPHA, BETA))
    assert plan(share(host=BETA), 'completed', BETA).reason == (
        'share data (%s) is already on %s.' % (SID, BETA))
    assert 'is extending; a migration can only start from available' in plan(
        share(status='extending'), 'completed', BETA).reason


def test_summarize():
    assert summarize(share('migration_success')) == {
        'task_state': 'migration_success', 'total_progress': None, 'details': {},
        'source_host': ALPHA, 'destination_host': None}
    assert summarize(share('a'), {'task_state': 'b', 'total_progress': 7, 'details': {'x': 1}},
                     source=BETA, destination=ALPHA) == {
        'task_state': 'b', 'total_progress': 7, 'details': {'x': 1}, 'source_host': BETA,
        'destination_host': ALPHA}
    assert summarize(share('a'), {'total_progress': 7, 'details': None})['task_state'] == 'a'


def test_steps_without_waiting():
    assert steps_without_waiting(('start', 'wait_phase1', 'complete')) == ['start']
    assert steps_without_waiting(('cancel', 'wait_cancelled')) == ['cancel']
    assert steps_without_waiting(('wait_cancellable', 'cancel')) == []
    assert steps_without_waiting(('complete', 'wait_success')) == ['complete']
    assert steps_without_waiting(()) == []


def test_flags_and_request_validation():
    assert resolve_flags({'writable': 0, 'nondisruptive': 1}) == {
        'force_host_assisted_migration': False, 'writable': False, 'preserve_metadata': True,
        'preserve_snapshots': True, 'nondisruptive': True}
    with pytest.raises(InvalidInput) as err:
        resolve_flags({'force_host_assisted_migration': True, 'writable': True,
                       'nondisruptive': True})
    assert 'combined with writable, nondisruptive set to true' in str(err.value)
    flags = resolve_flags({})
    assert validate_request('cancelled', None, flags) is flags
    with pytest.raises(InvalidInput) as err:
        validate_request('done', BETA, flags)
    assert str(err.value) == 'state must be one of completed, phase1_done, cancelled.'
    for state in ('completed', 'phase1_done'):
        with pytest.raises(InvalidInput) as err:
            validate_request(state, None, flags)
        assert 'state=%s' % state in str(err.value)
    with pytest.raises(InvalidInput):
        validate_request('cancelled', 'not-a-pool', flags)


def test_start_body_optional_ids():
    flags = resolve_flags({'force_host_assisted_migration': True})
    assert start_body(BETA, flags) == {
        'host': BETA, 'writable': False, 'preserve_metadata': False, 'preserve_snapshots': False,
        'nondisruptive': False, 'force_host_assisted_migration': True}
    body = start_body(BETA, resolve_flags({}), 't', 'n')
    assert body['new_share_type_id'] == 't' and body['new_share_network_id'] == 'n'
    assert body['writable'] is True


# -- the writes -------------------------------------------------------------------------------

@pytest.mark.parametrize('version,experimental', [('2.95', True), ('2.96', False)])
def test_each_write_its_body_and_header(version, experimental):
    client, _session = make_client([
        expect('POST', ACTION, ScriptedResponse(202), body={'migration_start': {'host': BETA}},
               experimental=experimental),
        expect('POST', ACTION, ScriptedResponse(202), body={'migration_complete': None},
               experimental=experimental),
        expect('POST', ACTION, ScriptedResponse(202), body={'migration_cancel': None},
               experimental=experimental),
    ], max_version=version)
    api = MigrationAPI(client)
    api.start(SID, {'host': BETA})
    api.complete(SID)
    api.cancel(SID)


@pytest.mark.parametrize('call,seen_not,seen', [
    ('start', None, 'migration_driver_starting'),
    ('complete', 'migration_driver_phase1_done', 'migration_completing'),
    ('complete', 'migration_driver_phase1_done', 'migration_success'),
    ('cancel', 'migration_driver_in_progress', 'migration_cancel_in_progress'),
    ('cancel', 'migration_driver_in_progress', 'migration_cancelled'),
])
def test_a_lost_write_is_seen_in_the_task_state(call, seen_not, seen):
    client, session = make_client([
        expect('POST', ACTION, LOST),
        expect('GET', SHARE_PATH, got_share(seen_not)),
        expect('GET', SHARE_PATH, got_share(seen)),
    ], clock=FakeClock())
    api = MigrationAPI(client)
    if call == 'start':
        api.start(SID, {'host': BETA})
    else:
        getattr(api, call)(SID)
    assert len(session.writes()) == 1
    assert ('of share %s' % SID) in client.warnings[0]


def test_a_lost_write_of_a_share_that_vanished_is_not_applied():
    client, session = make_client([
        expect('POST', ACTION, LOST),
        expect('GET', SHARE_PATH, ScriptedResponse(404, {'itemNotFound': {'code': 404, 'message': 'x'}})),
        expect('GET', SHARE_PATH, ScriptedResponse(404, {'itemNotFound': {'code': 404, 'message': 'x'}})),
        expect('GET', SHARE_PATH, ScriptedResponse(404, {'itemNotFound': {'code': 404, 'message': 'x'}})),
    ], clock=FakeClock())
    with pytest.raises(ManilaError):
        MigrationAPI(client).complete(SID)


# -- reads -------------------------------------------------------------------------------------

def test_hosts_from_the_instances():
    client, _session = make_client([
        expect('GET', INSTANCES, ScriptedResponse(200, {'share_instances': [
            {'status': 'available', 'host': 'x'}, {'status': 'migrating_to', 'host': BETA},
            {'status': 'migrating', 'host': ALPHA}]})),
        expect('GET', INSTANCES, ScriptedResponse(200, {})),
    ])
    api = MigrationAPI(client)
    assert api.hosts(SID) == (ALPHA, BETA)
    assert api.hosts(SID) == (None, None)


def test_progress_records_only_real_progress():
    client, _session = make_client([
        expect('GET', PROGRESS, progress_detailed('data_copying_in_progress', 40)),
        expect('GET', PROGRESS, progress_detailed('data_copying_error', 100)),
        expect('GET', PROGRESS, ScriptedResponse(200, {'task_state': 'x', 'total_progress': None})),
        expect('GET', PROGRESS, no_progress()),
        expect('GET', PROGRESS, ScriptedResponse(500, {'computeFault': {'code': 500, 'message': 'x'}})),
        expect('GET', PROGRESS, ScriptedResponse(500, {'computeFault': {'code': 500, 'message': 'x'}})),
        expect('GET', PROGRESS, ScriptedResponse(500, {'computeFault': {'code': 500, 'message': 'x'}})),
        expect('GET', PROGRESS, ScriptedResponse(500, {'computeFault': {'code': 500, 'message': 'x'}})),
    ])
    api = MigrationAPI(client)
    assert api.last_progress is None and api.last_seen is None
    assert api.progress(SID)['total_progress'] == 40 and api.last_progress == 40
    assert api.progress(SID)['task_state'] == 'data_copying_error' and api.last_progress == 40
    api.progress(SID)
    assert api.last_progress == 40
    assert api.progress(SID) is None
    # a 500 on every try (the read is retried) is no progress: the caller reads the share
    assert api.progress(SID) is None and api.last_progress == 40


def test_progress_below_2_98_is_an_action_and_migration_needs_2_29():
    client, _session = make_client([
        expect('POST', ACTION, progress_detailed('data_copying_in_progress', 5),
               body={'migration_get_progress': None}, experimental=True)],
        max_version='2.95', check_mode=True)
    assert MigrationAPI(client).progress(SID)['total_progress'] == 5


def test_api_defaults():
    client, _session = make_client([])
    api = MigrationAPI(client)
    assert api.timeout == 3600 and api.on_poll is None and api.client is client


@pytest.mark.parametrize('timeout, waited', [(3600, 120), (30, 30)])
def test_a_started_migration_waits_at_most_two_minutes_for_its_destination(monkeypatch, timeout, waited):
    # Manila names the destination within moments of the start; a task with a long
    # timeout does not spend it all on that (its own timeout is for the migration)
    client, _session = make_client([])
    m = Migration(client, 'data', 'completed', BETA, flags=resolve_flags({}), timeout=timeout)
    starting = share('migration_starting', status='migrating')
    monkeypatch.setattr(mig.lookups, 'require', lambda *args, **kwargs: starting)
    monkeypatch.setattr(m.api, 'hosts', lambda share_id: (ALPHA, None))
    asked = []

    def wait_destination(current, seconds):
        asked.append(seconds)
        return current, ALPHA, None
    monkeypatch.setattr(m.api, 'wait_destination', wait_destination)
    m.prepare()
    assert asked == [waited]


# -- waits ---------------------------------------------------------------------------------------

def wait_client(*exchanges):
    return make_client(list(exchanges), clock=FakeClock())


@pytest.mark.parametrize('wait,reached', [
    ('wait_phase1', 'migration_driver_phase1_done'),
    ('wait_phase1', 'data_copying_completed'),
    ('wait_phase1', 'migration_success'),
    ('wait_success', 'migration_success'),
    ('wait_cancellable', 'migration_driver_in_progress'),
    ('wait_cancellable', 'data_copying_in_progress'),
    ('wait_cancellable', 'migration_cancel_in_progress'),
    ('wait_cancellable', 'migration_success'),
    ('wait_cancellable', 'migration_cancelled'),
    ('wait_cancelled', 'migration_cancelled'),
])
def test_each_wait_reaches_its_targets(wait, reached):
    client, _session = wait_client(
        expect('GET', PROGRESS, progress_detailed('migration_starting', 0)),
        expect('GET', PROGRESS, progress_detailed(reached, 100)))
    api = MigrationAPI(client, timeout=100)
    seen = getattr(api, wait)(share('migration_starting', status='migrating'))
    assert seen['task_state'] == reached and api.last_seen['task_state'] == reached


@pytest.mark.parametrize('wait,failed', [
    ('wait_phase1', 'migration_error'),
    ('wait_phase1', 'data_copying_error'),
    ('wait_phase1', 'migration_cancelled'),
    ('wait_success', 'migration_cancelled'),
    ('wait_success', 'migration_error'),
    ('wait_cancellable', 'migration_error'),
    ('wait_cancelled', 'migration_success'),
    ('wait_cancelled', 'data_copying_error'),
])
def test_each_wait_fails_on_its_errors(wait, failed):
    client, _session = wait_client(
        expect('GET', PROGRESS, progress_detailed(failed, 100)),
        expect('GET', SHARE_PATH, got_share(failed, status='available')),
        expect('GET', MESSAGES, no_messages()))
    with pytest.raises(WaitFailed) as err:
        getattr(MigrationAPI(client, timeout=100), wait)(share('migration_starting'))
    assert ('task_state: %s.' % failed) in str(err.value)
    assert 'The share is now available.' in str(err.value)


def test_the_fetch_falls_back_to_the_share_and_sees_it_vanish():
    client, _session = wait_client(
        expect('GET', PROGRESS, no_progress()),
        expect('GET', SHARE_PATH, got_share('migration_driver_phase1_done', status='migrating')),
        expect('GET', PROGRESS, ScriptedResponse(200, {'task_state': None})),
        expect('GET', SHARE_PATH, ScriptedResponse(404, {'itemNotFound': {'code': 404, 'message': 'x'}})))
    api = MigrationAPI(client, timeout=100)
    assert api._fetch(SID) == {'task_state': 'migration_driver_phase1_done', 'total_progress': None,
                               'details': {}, 'status': 'migrating'}
    assert api._fetch(SID) is None
    assert api.last_seen['status'] == 'migrating'


def test_fetch_from_progress_keeps_details():
    client, _session = wait_client(
        expect('GET', PROGRESS, progress_detailed('data_copying_in_progress', 30, details={'a': 1})),
        expect('GET', PROGRESS, progress_detailed('data_copying_in_progress', 31)))
    api = MigrationAPI(client)
    assert api._fetch(SID) == {'task_state': 'data_copying_in_progress', 'total_progress': 30,
                               'details': {'a': 1}}
    assert api._fetch(SID)['details'] == {}


def test_on_poll_sees_each_poll():
    seen = []
    client, _session = wait_client(
        expect('GET', PROGRESS, progress_detailed('data_copying_in_progress', 30)),
        expect('GET', PROGRESS, progress_detailed('migration_success', 100)))
    MigrationAPI(client, timeout=100, on_poll=seen.append).wait_success(share('x'))
    assert [s['task_state'] for s in seen] == ['data_copying_in_progress', 'migration_success']


def test_wait_available_and_its_error():
    client, _session = wait_client(
        expect('GET', SHARE_PATH, got_share('migration_success', status='migrating')),
        expect('GET', SHARE_PATH, got_share('migration_success', status='available')),
        expect('GET', SHARE_PATH, got_share('migration_success', status='error')),
        expect('GET', SHARE_PATH, got_share('migration_success', status='error')),
        expect('GET', MESSAGES, no_messages()))
    api = MigrationAPI(client, timeout=100)
    assert api.wait_available(share())['status'] == 'available'
    with pytest.raises(WaitFailed) as err:
        api.wait_available(share())
    assert str(err.value).startswith('Share data (%s)' % SID)
    assert 'an administrator has to look at the backends' in str(err.value)


def test_explain_reports_progress_and_survives_a_failed_read():
    client, _session = wait_client(
        expect('GET', SHARE_PATH, ScriptedResponse(500, {'computeFault': {'code': 500, 'message': 'x'}})),
        expect('GET', SHARE_PATH, ScriptedResponse(500, {'computeFault': {'code': 500, 'message': 'x'}})),
        expect('GET', SHARE_PATH, ScriptedResponse(500, {'computeFault': {'code': 500, 'message': 'x'}})),
        expect('GET', SHARE_PATH, ScriptedResponse(500, {'computeFault': {'code': 500, 'message': 'x'}})),
        expect('GET', MESSAGES, ScriptedResponse(200, {'messages': [
            {'user_message': 'No valid host', 'created_at': '2026'}]})))
    api = MigrationAPI(client)
    api.last_progress = 0
    said = api.explain(share())
    assert said.startswith('Progress reached: 0%.')
    assert 'The share is now' not in said and 'No valid host' in said


def test_wait_destination_until_manila_names_it():
    client, _session = wait_client(
        expect('GET', SHARE_PATH, got_share('migration_starting', status='migrating')),
        expect('GET', INSTANCES, ScriptedResponse(200, {'share_instances': [
            {'status': 'migrating', 'host': ALPHA}]})),
        expect('GET', SHARE_PATH, got_share('migration_driver_in_progress', status='migrating')),
        expect('GET', INSTANCES, ScriptedResponse(200, {'share_instances': [
            {'status': 'migrating_to', 'host': BETA}]})),
    )
    current, source, destination = MigrationAPI(client).wait_destination(share(), 100)
    assert current['task_state'] == 'migration_driver_in_progress'
    assert (source, destination) == (ALPHA, BETA)


def test_wait_destination_of_a_migration_that_ended():
    client, _session = wait_client(
        expect('GET', SHARE_PATH, got_share('migration_success', host=BETA)))
    current, source, destination = MigrationAPI(client).wait_destination(share(), 100)
    assert (source, destination) == (BETA, None)


# -- the runner ---------------------------------------------------------------------------------

def runner(client, state='completed', host=BETA, current=None):
    m = Migration(client, 'data', state, host, flags=resolve_flags({}))
    m.share = m.before = current or share('migration_driver_phase1_done', status='migrating')
    return m


def test_the_cutover_is_skipped_when_manila_already_finished():
    client, session = make_client([])
    m = runner(client)
    m.api.last_seen = {'task_state': 'migration_success'}
    m.run_step('complete')
    assert session.writes() == []


@pytest.mark.parametrize('final', ['migration_success', 'migration_cancelled'])
def test_the_cancel_is_skipped_after_a_final_state(final):
    client, session = make_client([])
    m = runner(client, 'cancelled', None)
    m.api.last_seen = {'task_state': final}
    m.run_step('cancel')
    assert session.writes() == []


def test_the_runner_cancels_and_waits():
    client, session = make_client([
        expect('POST', ACTION, ScriptedResponse(202), body={'migration_cancel': None}),
        expect('GET', PROGRESS, progress_detailed('migration_cancelled', 0)),
        expect('GET', SHARE_PATH, got_share('migration_cancelled')),
    ], clock=FakeClock())
    m = runner(client, 'cancelled', None)
    m.plan = MigrationPlan('cancel', ['cancel', 'wait_cancelled'])
    assert m.run() == ['cancel', 'wait_cancelled']
    assert (m.source, m.destination) == (ALPHA, None)
    assert m.predicted_task_state() == 'migration_cancelled'
    assert m.summary()['task_state'] == 'migration_cancelled'


def test_the_runner_without_steps_reads_nothing():
    client, session = make_client([])
    m = runner(client)
    m.plan = MigrationPlan('nothing')
    assert m.run() == [] and not m.sent_writes([])
    assert m.sent_writes(['wait_phase1', 'complete'])
    assert not m.sent_writes(['wait_phase1'])


def test_the_cutover_waits_for_the_share_to_be_available():
    client, session = make_client([
        expect('GET', PROGRESS, progress_detailed('migration_success', 100)),
        expect('GET', SHARE_PATH, got_share('migration_success', host=BETA, status='migrating')),
        expect('GET', SHARE_PATH, got_share('migration_success', host=BETA, status='available')),
    ], clock=FakeClock())
    m = runner(client, current=share('migration_completing', status='migrating'))
    m.plan = MigrationPlan('resume', ['wait_success'])
    assert m.run() == ['wait_success']
    assert m.share['status'] == 'available' and (m.source, m.destination) == (BETA, None)


def test_progress_to_report():
    client, session = make_client([
        expect('GET', PROGRESS, progress_detailed('data_copying_in_progress', 10)),
    ])
    m = runner(client, current=share('data_copying_in_progress', status='migrating'))
    assert m.progress(False)['total_progress'] == 10
    m.api.last_seen = {'task_state': 'x'}
    assert m.progress(True) == {'task_state': 'x'}
    m.share = share(None)
    assert m.progress(False) is None
    assert runner(client, 'phase1_done').predicted_task_state() == 'migration_driver_phase1_done'
    assert runner(client, 'completed').predicted_task_state() == 'migration_success'


def test_prepare_needs_migration_support():
    client, session = make_client([], max_version='2.29')
    Migration(client, 'x', 'cancelled')  # constructing sends nothing
    assert len(session.calls) == 1


def test_prepare_finds_the_destination_then_plans():
    starting = share('migration_starting', status='migrating')
    client, session = make_client([
        expect('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [starting]})),
        expect('GET', INSTANCES, ScriptedResponse(200, {'share_instances': [
            {'status': 'migrating', 'host': ALPHA}]})),
        expect('GET', SHARE_PATH, got_share('migration_driver_in_progress', status='migrating')),
        expect('GET', INSTANCES, ScriptedResponse(200, {'share_instances': [
            {'status': 'migrating', 'host': ALPHA}, {'status': 'migrating_to', 'host': BETA}]})),
    ], clock=FakeClock())
    m = Migration(client, 'data', 'completed', BETA, flags=resolve_flags({}))
    p = m.prepare()
    assert p.action == 'resume' and (m.source, m.destination) == (ALPHA, BETA)
    assert p.steps == ('wait_phase1', 'complete', 'wait_success')
    assert m.share['task_state'] == 'migration_driver_in_progress'
    assert m.before['task_state'] == 'migration_starting'


def test_the_runner_waits_until_cancellable():
    client, session = make_client([
        expect('GET', PROGRESS, progress_detailed('migration_driver_in_progress', 10)),
    ], clock=FakeClock())
    m = runner(client, 'cancelled', None, current=share('migration_starting', status='migrating'))
    m.run_step('wait_cancellable')
    assert m.api.last_seen['task_state'] == 'migration_driver_in_progress'


def test_prepare_resolves_a_new_share_network():
    net = 'cccccccc-0000-0000-0000-000000000003'
    client, session = make_client([
        expect('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [
            share(host=BETA, share_network_id='old')]})),
        expect('GET', '/v2/share-networks/detail?name=net2', ScriptedResponse(200, {'share_networks': [
            {'id': net, 'name': 'net2'}]})),
        expect('GET', '/v2/scheduler-stats/pools?host=openkeel%24&backend=beta%24&pool=fake_pool_for_BETA%24',
               ScriptedResponse(200, {'pools': [{'name': BETA}]})),
    ])
    m = Migration(client, 'data', 'completed', BETA, new_share_network='net2', flags=resolve_flags({}))
    assert m.prepare().action == 'start' and m.network_id == net
    assert start_body(BETA, m.flags, m.type_id, m.network_id)['new_share_network_id'] == net


# -- what the runner hands on, and the plan after waiting for a destination -------------------

SHARES_BY_NAME = '/v2/shares/detail?name=data'
BETA_POOL = '/v2/scheduler-stats/pools?host=openkeel%24&backend=beta%24&pool=fake_pool_for_BETA%24'
TYPES = '/v2/types?is_public=all'


def on_poll(_seen):
    pass


def test_the_runner_hands_its_timeout_and_on_poll_to_the_api():
    client, session = make_client([])
    m = Migration(client, 'data', 'cancelled')
    assert (m.timeout, m.api.timeout, m.api.on_poll) == (3600, 3600, None)
    m = Migration(client, 'data', 'cancelled', timeout=50, on_poll=on_poll)
    assert (m.timeout, m.api.timeout, m.api.on_poll) == (50, 50, on_poll)


def test_a_complete_pool_name_is_valid():
    flags = resolve_flags({})
    for state in ('completed', 'phase1_done', 'cancelled'):
        assert validate_request(state, BETA, flags) is flags


def test_the_plan_in_flight_names_the_share():
    got = plan(share('migration_driver_in_progress', status='migrating'), 'completed', BETA, BETA)
    assert got.action == 'resume' and ('share data (%s)' % SID) in got.reason


def test_without_a_source_instance_the_source_is_the_share_host():
    client, session = make_client([
        expect('GET', INSTANCES, ScriptedResponse(200, {'share_instances': [
            {'status': 'migrating_to', 'host': BETA}]})),
    ])
    m = runner(client)
    assert m.hosts(share('migration_driver_in_progress', host=ALPHA, status='migrating')) == (ALPHA, BETA)


@pytest.mark.parametrize('host,share_type,action', [
    (BETA, 't-1', 'nothing'),      # on the pool, of the type: nothing to do
    (BETA, 't-2', 'start'),        # on the pool, another type: a retype on the same pool
    (ALPHA, 't-1', 'start'),       # of the type, on another pool
])
def test_prepare_compares_the_pool_and_the_new_type(host, share_type, action):
    current = share(host=host, share_type=share_type, share_type_name='x')
    exchanges = [
        expect('GET', SHARES_BY_NAME, ScriptedResponse(200, {'shares': [current]})),
        expect('GET', TYPES, ScriptedResponse(200, {'share_types': [{'id': 't-1', 'name': 'gold'}]})),
    ]
    if action == 'start':
        exchanges.append(expect('GET', BETA_POOL, ScriptedResponse(200, {'pools': [{'name': BETA}]})))
    client, session = make_client(exchanges)
    m = Migration(client, 'data', 'completed', BETA, new_share_type='gold', flags=resolve_flags({}))
    assert m.prepare().action == action and m.type_id == 't-1'


def test_prepare_without_a_new_type_or_network_on_the_pool_does_nothing():
    client, session = make_client([
        expect('GET', SHARES_BY_NAME, ScriptedResponse(200, {'shares': [share(host=BETA)]})),
    ])
    assert Migration(client, 'data', 'completed', BETA, flags=resolve_flags({})).prepare().action == 'nothing'


@pytest.mark.parametrize('option,listing,key', [
    ('new_share_type', TYPES, 'share_types'),
    ('new_share_network', '/v2/share-networks/detail?name=nowhere', 'share_networks'),
])
def test_an_unknown_new_type_or_network_names_its_option(option, listing, key):
    client, session = make_client([
        expect('GET', SHARES_BY_NAME, ScriptedResponse(200, {'shares': [share()]})),
        expect('GET', listing, ScriptedResponse(200, {key: []})),
    ])
    m = Migration(client, 'data', 'completed', BETA, flags=resolve_flags({}), **{option: 'nowhere'})
    with pytest.raises(InvalidInput) as err:
        m.prepare()
    assert str(err.value).startswith('%s: no ' % option)


def test_a_migration_that_ended_while_looking_for_its_destination_is_not_started_again():
    # in flight from ALPHA when read; done (the share now on BETA) by the next read
    client, session = make_client([
        expect('GET', SHARES_BY_NAME, ScriptedResponse(200, {'shares': [
            share('migration_starting', status='migrating')]})),
        expect('GET', INSTANCES, ScriptedResponse(200, {'share_instances': [
            {'status': 'migrating', 'host': ALPHA}]})),
        expect('GET', SHARE_PATH, got_share('migration_success', host=BETA)),
    ], clock=FakeClock())
    m = Migration(client, 'data', 'completed', BETA, flags=resolve_flags({}))
    p = m.prepare()
    assert p.action == 'nothing' and not p.changed
    assert (m.source, m.destination) == (BETA, None)


def test_a_destination_found_elsewhere_after_waiting_is_an_error():
    starting = share('migration_starting', status='migrating')
    client, session = make_client([
        expect('GET', SHARES_BY_NAME, ScriptedResponse(200, {'shares': [starting]})),
        expect('GET', INSTANCES, ScriptedResponse(200, {'share_instances': [
            {'status': 'migrating', 'host': ALPHA}]})),
        expect('GET', SHARE_PATH, got_share('migration_driver_in_progress', status='migrating')),
        expect('GET', INSTANCES, ScriptedResponse(200, {'share_instances': [
            {'status': 'migrating', 'host': ALPHA}, {'status': 'migrating_to', 'host': GAMMA}]})),
    ], clock=FakeClock())
    with pytest.raises(CannotConverge) as err:
        Migration(client, 'data', 'completed', BETA, flags=resolve_flags({})).prepare()
    assert GAMMA in str(err.value)
    assert err.value.result == {
        'share': share('migration_driver_in_progress', status='migrating'),
        'migration': {'task_state': 'migration_driver_in_progress', 'total_progress': None,
                      'details': {}, 'source_host': ALPHA, 'destination_host': GAMMA}}


def test_waiting_for_a_destination_times_out_with_the_task_state():
    client, session = make_client([
        expect('GET', SHARE_PATH, got_share('migration_starting', status='migrating')),
        expect('GET', INSTANCES, ScriptedResponse(200, {'share_instances': [
            {'status': 'migrating', 'host': ALPHA}]})),
    ], clock=FakeClock())
    with pytest.raises(WaitTimeout) as err:
        MigrationAPI(client).wait_destination(share(), 0)
    assert str(err.value).startswith(
        'The destination of the migration of share data (%s) is still unknown '
        '(task_state migration_starting) after 0 seconds (waiting for Manila to name it)' % SID)


def test_the_start_sends_the_new_type_and_network():
    flags = resolve_flags({})
    client, session = make_client([
        expect('POST', ACTION, ScriptedResponse(202), body={'migration_start': dict(
            start_body(BETA, flags), new_share_type_id='t-1', new_share_network_id='n-1')}),
    ])
    m = runner(client, current=share())
    m.type_id, m.network_id = 't-1', 'n-1'
    m.run_step('start')
    assert len(session.writes()) == 1


def test_the_summary_reports_the_last_poll_and_the_hosts():
    client, session = make_client([])
    m = runner(client, current=share('migration_success', host=BETA))
    m.source, m.destination = ALPHA, GAMMA
    m.api.last_seen = {'task_state': 'migration_success', 'total_progress': 100, 'details': {'a': 1}}
    assert m.summary() == {'task_state': 'migration_success', 'total_progress': 100,
                           'details': {'a': 1}, 'source_host': ALPHA, 'destination_host': GAMMA}
    # not run: no poll counts; the share is no longer in flight, so nothing is read
    assert m.summary(ran=False)['total_progress'] is None
    m.source = None
    m.api.last_seen = None
    assert m.summary() == {'task_state': 'migration_success', 'total_progress': None,
                           'details': {}, 'source_host': BETA, 'destination_host': GAMMA}


def test_a_retype_that_failed_while_looking_for_its_destination_is_started_again():
    # a retype on the pool the share is on: in flight when read, failed by the next read
    client, session = make_client([
        expect('GET', SHARES_BY_NAME, ScriptedResponse(200, {'shares': [
            share('migration_starting', host=BETA, status='migrating', share_type='t-0')]})),
        expect('GET', TYPES, ScriptedResponse(200, {'share_types': [{'id': 't-1', 'name': 'gold'}]})),
        expect('GET', INSTANCES, ScriptedResponse(200, {'share_instances': [
            {'status': 'migrating', 'host': BETA}]})),
        expect('GET', SHARE_PATH, got_share('migration_error', host=BETA, share_type='t-0')),
        expect('GET', BETA_POOL, ScriptedResponse(200, {'pools': [{'name': BETA}]})),
    ], clock=FakeClock())
    m = Migration(client, 'data', 'completed', BETA, new_share_type='gold', flags=resolve_flags({}))
    assert m.prepare().action == 'start'


# -- on the base (issue 35) ------------------------------------------------------

def test_the_migration_calls_are_the_bases_with_the_migration_row():
    assert issubclass(MigrationAPI, base_resource.ResourceAPI)
    assert MigrationAPI.kind == 'share_migration'
    assert kinds.KINDS['share_migration'].status_field == 'task_state'
    assert MigrationAPI.states.error == kinds.KINDS['share_migration'].statuses.error


def test_a_migrated_share_is_read_as_a_share_without_the_experimental_header():
    client, session = make_client([
        expect('GET', '/v2/shares/s1', ScriptedResponse(200, {'share': {
            'id': 's1', 'task_state': 'migration_success'}}), experimental=False),
        expect('GET', '/v2/shares/s2', ScriptedResponse(
            404, {'itemNotFound': {'code': 404, 'message': 'not found'}})),
    ], max_version='2.95')
    api = MigrationAPI(client)
    assert api.get_share('s1') == {'id': 's1', 'task_state': 'migration_success'}
    assert api.get_share('s2') is None
