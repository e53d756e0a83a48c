# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The layout of the unit tests (docs/testing.md, "Where the unit tests live").

Every file X.py of plugins/module_utils has one test file, test_X.py here, and
every file X.py of its ``tasks`` package (the hook classes of the write modules)
has test_tasks_X.py here; the only other test files here are the cross-cutting ones listed below, each with
the reason it is not a test of one file.  No two unit test files share a
basename: the mutation stage runs plain pytest, which imports a test file by
its basename, so a second one fails the whole run."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os

HERE = os.path.dirname(os.path.abspath(__file__))
UNIT = os.path.dirname(os.path.dirname(HERE))
MODULE_UTILS = os.path.join(UNIT, '..', '..', 'plugins', 'module_utils')

# Test files here that are not the test file of one module_utils file.
CROSS_CUTTING = {
    'test_recovery.py': 'failed writes and their recovery, from the client through '
                        'writes.py to the API class of every kind, side by side',
    'test_writes_once.py': 'the rule that every write of module_utils goes through '
                           'write_once (a source check across every file)',
    'test_scripted_http.py': 'the scripted HTTP double (scripted_http.py, a test helper)',
    'test_layout.py': 'this layout',
}


TASKS = os.path.join(MODULE_UTILS, 'tasks')


def python_files(where):
    return [f[:-3] for f in os.listdir(where) if f.endswith('.py') and f != '__init__.py']


def module_utils_files():
    """The names the test files follow: X for module_utils/X.py, tasks_X for
    module_utils/tasks/X.py."""
    return sorted(python_files(MODULE_UTILS) + ['tasks_' + n for n in python_files(TASKS)])


def files_here():
    return sorted(f for f in os.listdir(HERE) if f.startswith('test_') and f.endswith('.py'))


def test_every_module_utils_file_has_its_test_file():
    names = module_utils_files()
    assert 'shares' in names and 'states' in names
    missing = [n for n in names if 'test_%s.py' % n not in files_here()]
    assert missing == []


def test_every_other_test_file_here_is_a_cross_cutting_one_with_its_reason():
    tested = set('test_%s.py' % n for n in module_utils_files())
    others = [f for f in files_here() if f not in tested]
    assert sorted(others) == sorted(CROSS_CUTTING)
    assert not tested & set(CROSS_CUTTING)


def test_no_two_unit_test_files_share_a_basename():
    seen = {}
    for root, _dirs, files in os.walk(UNIT):
        for name in files:
            if name.startswith('test_') and name.endswith('.py'):
                seen.setdefault(name, []).append(os.path.relpath(os.path.join(root, name), UNIT))
    assert len(seen) > 40
    assert dict((name, paths) for name, paths in seen.items() if len(paths) > 1) == {}
