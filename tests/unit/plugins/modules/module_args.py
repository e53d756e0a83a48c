# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Module arguments for a module run inside a unit test, on every ansible-core
of the tested range."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import contextlib
import json

import pytest

from ansible.module_utils import basic
from ansible.module_utils.common import warnings as common_warnings

from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import make_client

try:
    from ansible.module_utils.testing import patch_module_args
except ImportError:  # ansible-core < 2.19 has no testing helper: its modules read _ANSIBLE_ARGS
    @contextlib.contextmanager
    def patch_module_args(args):
        saved = basic._ANSIBLE_ARGS
        basic._ANSIBLE_ARGS = json.dumps({'ANSIBLE_MODULE_ARGS': args}).encode('utf-8')
        try:
            yield
        finally:
            basic._ANSIBLE_ARGS = saved

__all__ = ['Exit', 'Fail', 'exits_raise', 'patch_module_args', 'run_module', 'run_scripted']


class Exit(Exception):
    """What a module's exit_json raises inside a unit test (its result)."""

    def __init__(self, result):
        super(Exit, self).__init__(result)
        self.result = result


class Fail(Exit):
    """What a module's fail_json raises inside a unit test (its result)."""


def with_warnings(result):
    """``result`` with the warnings the module gave AnsibleModule.warn, as the real
    exit_json adds them; the process-wide list is emptied for the next test."""
    given = list(common_warnings.get_warning_messages())
    common_warnings._global_warnings.clear()     # pylint: disable=protected-access
    if given:
        result = dict(result, warnings=given)
    return result


def exits_raise(monkeypatch):
    """Make exit_json and fail_json raise Exit and Fail instead of exiting."""
    common_warnings._global_warnings.clear()     # pylint: disable=protected-access

    def exit_json(self, **result):
        raise Exit(with_warnings(result))

    def fail_json(self, **result):
        raise Fail(with_warnings(result))
    monkeypatch.setattr(basic.AnsibleModule, 'exit_json', exit_json)
    monkeypatch.setattr(basic.AnsibleModule, 'fail_json', fail_json)


def module_class(code):
    """The ManilaModule subclass that the module file ``code`` defines."""
    from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule
    found = [v for v in vars(code).values()
             if isinstance(v, type) and issubclass(v, ManilaModule) and v is not ManilaModule
             and v.__module__ == code.__name__]
    assert len(found) == 1, 'no single ManilaModule class in %s: %s' % (code.__name__, found)
    return found[0]


def run_module(monkeypatch, code, args, client, check_mode=False, diff=False, expect=Exit):
    """Run the module file ``code`` (its main()) with ``args`` on ``client`` (from
    scripted_http.make_client) as Ansible would; the Exit (or Fail) it ends with.
    ``expect``: Exit takes either ending, Fail only a failure.  ``client`` may be
    None for a run that must end before it connects."""
    monkeypatch.setattr(module_class(code), '_connect', lambda self: client)
    args = dict(args)
    if check_mode:
        args['_ansible_check_mode'] = True
    if diff:
        args['_ansible_diff'] = True
    with patch_module_args(args):
        with pytest.raises(expect) as outcome:
            code.main()
    return outcome.value


def run_scripted(monkeypatch, code, args, exchanges, max_version='2.99', check_mode=False,
                 diff=False, expect=Exit, prepare=None):
    """run_module on a new scripted client (scripted_http.make_client with
    ``exchanges`` after the versions document of ``max_version``); ``prepare``
    (optional) sees the client before the run.  (outcome, session)."""
    client, session = make_client(exchanges, max_version=max_version, check_mode=check_mode)
    if prepare is not None:
        prepare(client, session)
    return run_module(monkeypatch, code, args, client, check_mode=check_mode, diff=diff,
                      expect=expect), session
