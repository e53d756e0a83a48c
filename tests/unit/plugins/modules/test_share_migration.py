# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""share_migration on the converge template, on scripted HTTP: check mode plans
with reads only, a start is changed with the share read back, a migration in
flight that needs only a wait is waited for and unchanged, and a plan that
stops before its first write (wait=false) reports no change."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    run_scripted,
)

from ansible_collections.openkeel.manila.plugins.modules import share_migration
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
)

SID = '11111111-2222-3333-4444-555555555555'
ALPHA = 'openkeel@alpha#fake_pool_for_ALPHA'
BETA = 'openkeel@beta#fake_pool_for_BETA'
SHARE_PATH = '/v2/shares/%s' % SID
ACTION = SHARE_PATH + '/action'
PROGRESS = SHARE_PATH + '/migration-progress'
BY_NAME = '/v2/shares/detail?name=data'
POOL = '/v2/scheduler-stats/pools?host=openkeel%24&backend=beta%24&pool=fake_pool_for_BETA%24'
EXPORTS = ('GET', SHARE_PATH + '/export_locations',
           ScriptedResponse(200, {'export_locations': [{'path': '10.0.0.9:/data'}]}))


def share(task_state=None, host=ALPHA, status='available'):
    return {'id': SID, 'name': 'data', 'host': host, 'status': status, 'task_state': task_state}


def found(item):
    return ('GET', BY_NAME, ScriptedResponse(200, {'shares': [item]}))


def progress(task_state, total=100):
    return ('GET', PROGRESS, ScriptedResponse(200, {'total_progress': total,
                                                    'task_state': task_state, 'details': {}}))


def instances(destination):
    return ('GET', SHARE_PATH + '/instances', ScriptedResponse(200, {'share_instances': [
        {'status': 'migrating', 'host': ALPHA}, {'status': 'migrating_to', 'host': destination}]}))


def run(monkeypatch, args, exchanges, check_mode=False):
    args = dict(args, share='data', _ansible_diff=True)
    outcome, session = run_scripted(monkeypatch, share_migration, args, exchanges,
                                    check_mode=check_mode)
    assert session.unused() == []
    return outcome.result, session


def test_check_mode_plans_the_start_with_reads_only(monkeypatch):
    result, session = run(monkeypatch, {'host': BETA}, [
        found(share()), ('GET', POOL, ScriptedResponse(200, {'pools': [{'name': BETA}]})),
        EXPORTS,
    ], check_mode=True)
    assert session.writes() == []
    assert result['changed'] is True and result['action'] == 'start'
    assert result['msg'].startswith('(check mode) ')
    assert result['diff'] == {'before': {'host': ALPHA, 'task_state': None},
                              'after': {'host': BETA, 'task_state': 'migration_success'}}


def test_a_start_is_changed_and_the_diff_shows_the_share_read_back(monkeypatch):
    result, session = run(monkeypatch, {'host': BETA, 'state': 'phase1_done'}, [
        found(share()), ('GET', POOL, ScriptedResponse(200, {'pools': [{'name': BETA}]})),
        ('POST', ACTION, ScriptedResponse(202)),
        progress('migration_driver_phase1_done'),
        ('GET', SHARE_PATH, ScriptedResponse(200, {'share': share(
            'migration_driver_phase1_done', status='migrating')})),
        instances(BETA),
        EXPORTS,
    ])
    assert session.bodies('POST')[0]['migration_start']['host'] == BETA
    assert result['changed'] is True
    assert result['diff']['after'] == {'host': ALPHA,
                                       'task_state': 'migration_driver_phase1_done'}
    assert result['migration']['destination_host'] == BETA
    assert result['share']['export_locations'] == [{'path': '10.0.0.9:/data'}]


def test_a_migration_in_flight_that_needs_no_write_is_waited_for_and_unchanged(monkeypatch):
    completing = share('migration_completing', status='migrating')
    result, session = run(monkeypatch, {'host': BETA}, [
        found(completing), instances(BETA),
        progress('migration_success'),
        ('GET', SHARE_PATH, ScriptedResponse(200, {'share': share('migration_success',
                                                                  host=BETA)})),
        EXPORTS,
    ])
    assert session.writes() == []
    assert result['changed'] is False and result['action'] == 'resume'
    assert result['diff'] == {'before': {'host': ALPHA, 'task_state': 'migration_completing'},
                              'after': {'host': BETA, 'task_state': 'migration_success'}}


def test_a_plan_that_stops_before_its_first_write_reports_no_change(monkeypatch):
    # cancelling a migration still copying: the cancel waits until Manila can take it,
    # so with wait=false nothing is sent
    copying = share('migration_in_progress', status='migrating')
    result, session = run(monkeypatch, {'state': 'cancelled', 'wait': False}, [
        found(copying), instances(BETA),
        EXPORTS, progress('migration_in_progress', 40),
    ])
    assert session.writes() == []
    assert result['changed'] is False and result['action'] == 'cancel'
    assert result['diff']['after'] == result['diff']['before']
    assert result['migration']['total_progress'] == 40
