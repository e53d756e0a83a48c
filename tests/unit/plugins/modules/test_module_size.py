# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The module size rule (docs/adding-a-resource.md): every module in
plugins/modules has under 200 lines of code besides its documentation, that is
the lines of the file minus those of its DOCUMENTATION, EXAMPLES and RETURN
assignments.  Documentation is never cut to fit: it does not count.  A module
that grows past the rule moves its flow (the converge template's hooks) to
plugins/module_utils/tasks/."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import ast
import os

import pytest

from ansible_collections.openkeel.manila.plugins.modules import share as any_module

MODULES_DIR = os.path.dirname(any_module.__file__)
MODULES = sorted(name for name in os.listdir(MODULES_DIR)
                 if name.endswith('.py') and not name.startswith('_'))
DOCS = ('DOCUMENTATION', 'EXAMPLES', 'RETURN')
LIMIT = 200


def code_lines(source):
    """The lines of ``source`` that are not its documentation assignments."""
    documentation = 0
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and [getattr(t, 'id', None) for t in node.targets] in [[d] for d in DOCS]:
            documentation += node.end_lineno - node.lineno + 1
    return len(source.splitlines()) - documentation


def test_every_module_is_counted():
    assert 'share.py' in MODULES and 'shares.py' in MODULES and len(MODULES) >= 24


def test_the_count_leaves_out_the_documentation_only():
    source = ('import os\n\nDOCUMENTATION = r"""\na\nb\n"""\nEXAMPLES = "x"\n'
              'RETURN = r"""\nc\n"""\nOTHER = """\nd\n"""\n\n\ndef main():\n    pass\n')
    # 17 lines, of which DOCUMENTATION 4, EXAMPLES 1 and RETURN 3 are documentation
    assert len(source.splitlines()) == 17
    assert code_lines(source) == 9


@pytest.mark.parametrize('name', MODULES)
def test_a_module_has_under_200_lines_of_code_besides_its_documentation(name):
    with open(os.path.join(MODULES_DIR, name)) as source:
        assert code_lines(source.read()) < LIMIT
