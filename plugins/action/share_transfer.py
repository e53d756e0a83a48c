# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The action of openkeel.manila.share_transfer: runs the module, then hides a
result that carries a transfer's auth_key from every callback (the output at any
verbosity, logs), as a task with ``no_log: true`` would.  A registered variable
still holds the whole result, so that the next task can hand the key over.

A module cannot do this itself: Ansible drops the ``_ansible_*`` keys a module
returns, but keeps the ``_ansible_no_log`` an action sets."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.plugins.action import ActionBase

MODULE = 'openkeel.manila.share_transfer'


class ActionModule(ActionBase):

    _supports_check_mode = True
    _supports_async = False

    def run(self, tmp=None, task_vars=None):
        result = super(ActionModule, self).run(tmp, task_vars)
        del tmp
        result.update(self._execute_module(module_name=MODULE, task_vars=task_vars))
        if result.get('auth_key'):
            result['_ansible_no_log'] = True
        return result
