# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The action of share_transfer runs the module and hides a result that carries an
auth_key from every callback (as no_log would); other results stay visible."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible.plugins.action import ActionBase

from ansible_collections.openkeel.manila.plugins.action import share_transfer as action

KEY = 'f00dfeedc0ffee12'
TRANSFER_ID = '99999999-8888-7777-6666-555555555555'


@pytest.mark.parametrize('module_result, hidden', [
    ({'changed': True, 'auth_key': KEY, 'transfer': {'id': TRANSFER_ID}}, True),
    ({'changed': False, 'transfer': {'id': TRANSFER_ID}}, False),
    ({'failed': True, 'msg': 'share: no share'}, False),
])
def test_the_action_hides_a_result_with_a_key(monkeypatch, module_result, hidden):
    calls = []

    def execute(self, module_name=None, task_vars=None, **kwargs):
        calls.append(module_name)
        return dict(module_result)
    monkeypatch.setattr(ActionBase, 'run', lambda self, tmp=None, task_vars=None: {})
    monkeypatch.setattr(action.ActionModule, '_execute_module', execute)
    plugin = action.ActionModule.__new__(action.ActionModule)
    result = plugin.run(task_vars={})
    assert calls == ['openkeel.manila.share_transfer']
    assert bool(result.get('_ansible_no_log')) is hidden
    assert result.get('auth_key') == module_result.get('auth_key')
