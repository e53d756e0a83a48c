# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What a module returns is documented down to its fields (issues 35 and 42):
in the RETURN documentation of every module, every return value of type list
or dict lists its fields (``contains``), each field with its description and
type; a list of plain values (a list of paths, of IDs) says so with
``elements`` (``elements: str``) instead, and so does a dict whose keys are
free-form (metadata, extra specs: ``elements: str``, the type of its values).
Every list or dict the module returns at the top level has a ``sample``.

The documentation is read as YAML from each module file, as ansible-doc and
the docs site read it."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import ast
import os

import pytest
import yaml

from ansible_collections.openkeel.manila.plugins.modules import share as any_module

MODULES_DIR = os.path.dirname(any_module.__file__)
MODULES = sorted(name[:-3] for name in os.listdir(MODULES_DIR)
                 if name.endswith('.py') and not name.startswith('_'))
PLAIN = ('str', 'int', 'bool', 'float', 'raw')


def returns(name):
    """The module's RETURN documentation, as YAML."""
    with open(os.path.join(MODULES_DIR, name + '.py')) as source:
        tree = ast.parse(source.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, 'id', None) for t in node.targets] == ['RETURN']:
            return yaml.safe_load(node.value.value) or {}
    raise AssertionError('%s has no RETURN' % name)


def undocumented(values, where=''):
    """What a RETURN block leaves out: a field without a description or type,
    a list or dict without its fields (or, for plain values, its elements)."""
    found = []
    for key, value in sorted((values or {}).items()):
        path = where + key
        value = value or {}
        for part in ('description', 'type'):
            if not value.get(part):
                found.append('%s: no %s' % (path, part))
        kind = value.get('type')
        if kind in ('list', 'dict', 'complex') and not value.get('contains'):
            if kind == 'list' and value.get('elements') in PLAIN + ('list',):
                pass
            elif kind == 'dict' and value.get('elements') in PLAIN:
                pass
            else:
                found.append('%s: a %s without its fields (contains)' % (path, kind))
        if value.get('contains'):
            if kind == 'list' and value.get('elements') != 'dict':
                found.append('%s: a list with fields says elements: dict' % path)
            found.extend(undocumented(value['contains'], path + '.'))
    return found


def unsampled(values):
    return sorted(key for key, value in (values or {}).items()
                  if (value or {}).get('type') in ('list', 'dict') and 'sample' not in value)


def test_every_module_is_read():
    assert 'shares' in MODULES and 'share_info' in MODULES and len(MODULES) >= 24


@pytest.mark.parametrize('name', MODULES)
def test_every_list_or_dict_returned_has_its_fields(name):
    assert undocumented(returns(name)) == []


@pytest.mark.parametrize('name', MODULES)
def test_every_list_or_dict_returned_has_a_sample(name):
    assert unsampled(returns(name)) == []


def test_what_is_left_out_is_found():
    values = yaml.safe_load('''
shares:
  description: The shares.
  type: list
  elements: dict
paths:
  description: Paths.
  type: list
  elements: str
metadata:
  description: Free-form keys.
  type: dict
  elements: str
share:
  description: A share.
  type: dict
  sample: {}
  contains:
    id:
      type: str
    export_locations:
      description: Its exports.
      type: list
      elements: dict
    rules:
      description: Rules.
      type: list
      contains:
        id:
          description: Rule ID.
pace:
  description: The pace.
  type: dict
''')
    assert undocumented(values) == [
        'pace: a dict without its fields (contains)',
        'share.export_locations: a list without its fields (contains)',
        'share.id: no description',
        'share.rules: a list with fields says elements: dict',
        'share.rules.id: no type',
        'shares: a list without its fields (contains)',
    ]
    assert unsampled(values) == ['metadata', 'pace', 'paths', 'shares']
