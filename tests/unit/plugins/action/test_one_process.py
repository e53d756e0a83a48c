# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The controller's unit tests and the modules' ones pass in one pytest process.

ansible-test runs the tests of plugins/action (the controller's side) apart from those of
modules and module_utils; mutmut (tools/test mutation) runs them all in one process.
From ansible-core 2.19, importing the controller flips module_utils into its controller
flavour for the whole process, and AnsibleModule.warn then prints the warnings instead
of returning them in the result: test_base failed under mutmut until tests/unit/conftest.py
put the modules' side back for every test outside plugins/action. This test (a pytest of
its own, in a subprocess) is on mutmut's list of tests to leave out.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', '..'))


def test_controller_and_module_tests_pass_in_one_process():
    plugins = os.path.join(ROOT, 'tests', 'unit', 'plugins')
    collections_root = os.path.abspath(os.path.join(ROOT, '..', '..', '..'))
    path = [collections_root] + [p for p in os.environ.get('PYTHONPATH', '').split(os.pathsep) if p]
    run = subprocess.run(
        [sys.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider',
         os.path.join(plugins, 'action', 'test_share_transfer_action.py'),
         os.path.join(plugins, 'module_utils', 'test_base.py')],
        cwd=ROOT, env=dict(os.environ, PYTHONPATH=os.pathsep.join(path)),
        capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert ' passed' in run.stdout and 'failed' not in run.stdout, run.stdout[-3000:]
