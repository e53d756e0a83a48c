# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The mutation stage's mutmut configuration keeps up with the collection's layout.

mutmut runs the unit tests in a directory of its own that holds only the paths of
tests/mutation/setup.cfg (source_paths and also_copy): a plugin directory missing there
fails the collection of every unit test that imports from it, and the whole mutation run
with it (plugins/action once did). This test reads that file, not the copy mutmut makes,
so it is itself on the list of tests mutmut leaves out.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import configparser
import os

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', '..'))
PREFIX = 'ansible_collections/openkeel/manila/'


def mutmut_config():
    parser = configparser.ConfigParser()
    parser.read(os.path.join(ROOT, 'tests', 'mutation', 'setup.cfg'))
    return parser['mutmut']


def lines(value):
    return [line.strip() for line in value.splitlines() if line.strip()]


def test_every_plugin_directory_reaches_mutmut():
    config = mutmut_config()
    reached = set(lines(config['source_paths'])) | set(lines(config['also_copy']))
    plugin_dirs = sorted(d for d in os.listdir(os.path.join(ROOT, 'plugins'))
                         if os.path.isdir(os.path.join(ROOT, 'plugins', d)) and d != '__pycache__')
    missing = [d for d in plugin_dirs if PREFIX + 'plugins/' + d not in reached]
    assert 'module_utils' in plugin_dirs
    assert missing == []


def test_tests_left_out_of_mutmut_exist_and_include_this_one():
    args = lines(mutmut_config()['pytest_add_cli_args'])
    ignored = [a.split('=', 1)[1] for a in args if a.startswith('--ignore=')]
    for path in ignored:
        assert path.startswith(PREFIX)
        assert os.path.isfile(os.path.join(ROOT, path[len(PREFIX):])), path
    assert PREFIX + 'tests/unit/plugins/modules/test_mutation_setup.py' in ignored
