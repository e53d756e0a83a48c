# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every scripted HTTP exchange must be used: a test that scripts a request
the code under test never sent fails (the script, or the code, is wrong).
A module run in a test ends by raising Exit or Fail (module_args), never by
exiting the test process."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

try:
    from ansible.module_utils import _internal as module_utils_internal
except ImportError:  # ansible-core before 2.18 (2.18 has the module but not the flag)
    module_utils_internal = None

from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils import scripted_http
from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import exits_raise


@pytest.fixture(autouse=True)
def every_scripted_exchange_is_used():
    scripted_http.forget_sessions()
    yield
    try:
        scripted_http.check_every_exchange_used()
    except AssertionError as exc:
        pytest.fail(str(exc))


@pytest.fixture(autouse=True)
def module_exits_raise(monkeypatch):
    exits_raise(monkeypatch)


@pytest.fixture(autouse=True)
def modules_see_the_target_side(request, monkeypatch):
    """From ansible-core 2.19, importing anything of the controller (the action
    plugin's tests do) flips module_utils into its controller flavour for the
    whole process: AnsibleModule.warn then prints through Display instead of
    returning warnings in the result.  ansible-test runs the controller's and
    the modules' unit tests in separate processes; mutmut runs them all in one,
    so every test outside plugins/action sees the modules' side again."""
    if hasattr(module_utils_internal, 'is_controller') and '/plugins/action/' not in request.node.nodeid:
        monkeypatch.setattr(module_utils_internal, 'is_controller', False)
