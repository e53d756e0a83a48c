# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The mutation scores of plugins/module_utils are those of the code as it is.

`tools/test mutation` (tests/mutation/run.py) takes longer than CI allows, so it
records each module's score with the sha256 of the source it mutated in
tests/mutation/scores.json.  These tests fail when a module of module_utils has
changed since its score was measured (run the mutation again for it), when a
module has no score, or when a score is below the floor."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import hashlib
import json
import os

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', '..'))
MODULE_UTILS = os.path.join(ROOT, 'plugins', 'module_utils')
RECORD = os.path.join(ROOT, 'tests', 'mutation', 'scores.json')


def load_record():
    with open(RECORD) as handle:
        return json.load(handle)


def modules():
    return sorted(name[:-3] for name in os.listdir(MODULE_UTILS)
                  if name.endswith('.py') and name != '__init__.py')


def sha256_of(module):
    with open(os.path.join(MODULE_UTILS, module + '.py'), 'rb') as handle:
        return hashlib.sha256(handle.read()).hexdigest()


@pytest.mark.parametrize('module', modules())
def test_the_score_was_measured_on_this_source(module):
    entry = load_record()['modules'].get(module)
    assert entry is not None, (
        'plugins/module_utils/%s.py has no mutation score in tests/mutation/scores.json: '
        'run `tools/test mutation -- %s`' % (module, module))
    assert entry['sha256'] == sha256_of(module), (
        'plugins/module_utils/%s.py changed after its mutation score (%.1f%%, %s) was '
        'measured: run `tools/test mutation -- %s`, kill the new survivors with tests or '
        'give their reason in tests/mutation/survivors.md, and commit the new '
        'tests/mutation/scores.json' % (module, entry['score'], entry['measured'], module))


def test_every_score_and_the_total_reach_the_floor():
    record = load_record()
    floor = record['floor']
    entries = record['modules']
    assert floor >= 90.0
    low = dict((m, e['score']) for m, e in entries.items() if e['score'] < floor)
    assert low == {}, 'below the floor of %.1f%%: %s' % (floor, low)
    killed = sum(e['killed'] for e in entries.values())
    counted = sum(e['killed'] + e['survived'] + e['no_tests'] for e in entries.values())
    assert counted and 100.0 * killed / counted >= floor
    # the counts add up and the score is the one they give
    for module, e in entries.items():
        assert e['mutants'] >= e['message_only'] + e['killed'] + e['survived'] + e['no_tests'], module
        part = e['killed'] + e['survived'] + e['no_tests']
        assert abs(e['score'] - (100.0 * e['killed'] / part if part else 100.0)) < 0.06, module


def test_no_score_of_a_module_that_is_gone():
    assert sorted(load_record()['modules']) == modules()
