# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The share_replica module's hooks (tasks/replica.py, ReplicaTask): the module
left with its options and input checks only, the warning for a replica out of
sync (as it is and in check mode), the empty result when the share is gone, and
the exact requests of each (the module's own tests, test_share_replica.py, and
test_replicas.py run the actions end to end)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Exit,
    run_scripted,
)

from ansible_collections.openkeel.manila.plugins.modules import share_replica
from ansible_collections.openkeel.manila.plugins.module_utils.tasks.replica import ReplicaTask
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
)

SHARE_ID = '11111111-2222-3333-4444-555555555555'
SHARE = {'id': SHARE_ID, 'name': 'data', 'status': 'available', 'replication_type': 'readable',
         'share_type_name': 'replicated-readable'}
ACTIVE = {'id': 'r1', 'share_id': SHARE_ID, 'status': 'available', 'replica_state': 'active',
          'availability_zone': 'nova', 'created_at': '2026-12-01T10:00:00'}
BEHIND = {'id': 'r2', 'share_id': SHARE_ID, 'status': 'available', 'replica_state': 'out_of_sync',
          'availability_zone': 'nova', 'created_at': '2026-12-01T11:00:00'}
BY_NAME = '/v2/shares/detail?name=data'
LIST = '/v2/share-replicas/detail?share_id=' + SHARE_ID
EXPORTS = '/v2/share-replicas/r2/export-locations'


def test_the_module_keeps_its_options_and_input_checks_and_the_hooks_are_here():
    module = share_replica.ShareReplicaModule
    assert issubclass(module, ReplicaTask)
    own = set(k for k in vars(module) if not k.startswith('__'))
    assert own == {'argument_spec', 'run', 'validate_input'}
    for hook in ('find_current', 'plan', 'diff_of', 'as_is', 'predict', 'apply_create',
                 'apply_resync', 'apply_promote', 'apply_delete', 'waited', 'result'):
        assert hook in vars(ReplicaTask), hook


def test_a_replica_out_of_sync_is_shown_with_a_warning(monkeypatch):
    outcome, session = run_scripted(monkeypatch, share_replica, {'share': 'data', 'id': 'r2'}, [
        ('GET', BY_NAME, ScriptedResponse(200, {'shares': [SHARE]})),
        ('GET', LIST, ScriptedResponse(200, {'share_replicas': [ACTIVE, BEHIND]})),
        ('GET', EXPORTS, ScriptedResponse(200, {'export_locations': [{'path': '10.0.0.2:/r2'}]})),
    ])
    assert isinstance(outcome, Exit), outcome.result
    result = outcome.result
    assert result['changed'] is False
    assert result['replica'] == dict(BEHIND, export_locations=[{'path': '10.0.0.2:/r2'}],
                                     export_paths=['10.0.0.2:/r2'])
    assert [r['id'] for r in result['replicas']] == ['r1', 'r2']
    assert any('Replica r2 is out_of_sync; resync=true' in w for w in result['warnings'])
    assert session.requests() == ['GET /', 'GET ' + BY_NAME, 'GET ' + LIST, 'GET ' + EXPORTS]


def test_check_mode_warns_of_the_replica_to_resync_and_sends_nothing(monkeypatch):
    outcome, session = run_scripted(monkeypatch, share_replica,
                                    {'share': 'data', 'id': 'r2', 'resync': True}, [
                                        ('GET', BY_NAME, ScriptedResponse(200, {'shares': [SHARE]})),
                                        ('GET', LIST, ScriptedResponse(200, {'share_replicas': [ACTIVE, BEHIND]})),
                                        ('GET', EXPORTS, ScriptedResponse(200, {'export_locations': []})),
                                    ], check_mode=True)
    result = outcome.result
    assert result['changed'] is True
    assert result['replica']['id'] == 'r2'
    assert any('Replica r2 is out_of_sync' in w for w in result['warnings'])
    assert session.writes() == []


def test_a_gone_share_with_state_absent_shows_no_replica(monkeypatch):
    outcome, session = run_scripted(monkeypatch, share_replica, {'share': 'data', 'state': 'absent'}, [
        ('GET', BY_NAME, ScriptedResponse(200, {'shares': []})),
    ])
    assert outcome.result['changed'] is False
    assert outcome.result['replica'] == {} and outcome.result['replicas'] == []
    assert session.requests() == ['GET /', 'GET ' + BY_NAME]
