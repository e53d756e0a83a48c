# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The share_transfer module's hooks (tasks/transfer.py, TransferTask): what a
task acts on (Found), the share its result shows, the module left with its
options and input checks only, and a cancel by ID run through the hooks with
its exact requests (the module's own tests, test_share_transfer.py, run every
state end to end)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Exit,
    run_scripted,
)

from ansible_collections.openkeel.manila.plugins.modules import share_transfer
from ansible_collections.openkeel.manila.plugins.module_utils.tasks.transfer import (
    Found,
    TransferTask,
    share_view,
)
from ansible_collections.openkeel.manila.plugins.module_utils.transfers import view
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    expect,
)

SHARE_ID = '11111111-2222-3333-4444-555555555555'
TRANSFER_ID = '99999999-8888-7777-6666-555555555555'
SHARE = {'id': SHARE_ID, 'name': 'data', 'status': 'awaiting_transfer', 'project_id': 'p-source',
         'size': 1, 'share_proto': 'NFS', 'share_network_id': None, 'metadata': {'a': 'b'}}
TRANSFER = {'id': TRANSFER_ID, 'name': 'data', 'resource_type': 'share',
            'resource_id': SHARE_ID, 'source_project_id': 'p-source',
            'destination_project_id': None, 'accepted': False,
            'created_at': '2026-12-02T01:00:00', 'expires_at': '2026-12-02T01:05:00'}
ONE = '/v2/share-transfers/' + TRANSFER_ID


def test_the_result_shows_six_fields_of_the_share():
    assert share_view(SHARE) == {'id': SHARE_ID, 'name': 'data', 'status': 'awaiting_transfer',
                                 'project_id': 'p-source', 'size': 1, 'share_proto': 'NFS'}
    assert share_view(None) == {}
    assert share_view({'id': SHARE_ID}) == {'id': SHARE_ID, 'name': None, 'status': None,
                                            'project_id': None, 'size': None, 'share_proto': None}


def test_found_shows_its_first_transfer_unless_told_otherwise():
    other = dict(TRANSFER, id='other')
    found = Found(SHARE, [TRANSFER, other])
    assert found.shown == view(TRANSFER) and found.transfers == [TRANSFER, other]
    assert found.auth_key is None and found.namesakes == []
    assert Found(SHARE).shown == {}
    assert Found(SHARE, [TRANSFER], shown={'id': 'x'}, auth_key='k').shown == {'id': 'x'}


def test_the_module_keeps_its_options_and_input_checks_and_the_hooks_are_here():
    module = share_transfer.ShareTransferModule
    assert issubclass(module, TransferTask)
    own = set(k for k in vars(module) if not k.startswith('__'))
    assert own == {'argument_spec', 'module_kwargs', 'run', 'validate_input'}
    for hook in ('find_current', 'plan', 'predict', 'result', 'apply_create', 'apply_accept',
                 'apply_delete', 'applied_changes', 'owned_here'):
        assert hook in vars(TransferTask), hook
    assert TransferTask.has_diff is False and TransferTask.accepted_before is False


def test_a_cancel_by_id_deletes_the_open_transfer_and_shows_it(monkeypatch):
    outcome, session = run_scripted(monkeypatch, share_transfer, {'id': TRANSFER_ID, 'state': 'absent'}, [
        ('GET', ONE, ScriptedResponse(200, {'transfer': TRANSFER})),
        expect('DELETE', ONE, ScriptedResponse(200)),
    ])
    assert isinstance(outcome, Exit), outcome.result
    assert outcome.result['changed'] is True
    assert outcome.result['transfer'] == view(TRANSFER) and outcome.result['share'] == {}
    assert session.requests() == ['GET /', 'GET ' + ONE, 'DELETE ' + ONE]


def test_an_accepted_transfer_is_not_cancelled(monkeypatch):
    outcome, session = run_scripted(monkeypatch, share_transfer, {'id': TRANSFER_ID, 'state': 'absent'}, [
        ('GET', ONE, ScriptedResponse(200, {'transfer': dict(TRANSFER, accepted=True)})),
    ])
    assert outcome.result['changed'] is False
    assert outcome.result['transfer'] == {} and outcome.result['share'] == {}
    assert session.writes() == []
