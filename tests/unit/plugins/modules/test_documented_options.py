# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What ansible-doc shows is what each module accepts: every option of every
module (and of its suboptions) has the documented type, default, requirement,
choices, elements and aliases, and secrets are hidden from logs.

Each module file is executed afresh for the test (not taken from the import
cache), so the argument spec that its class builds when it is defined is the
one the module_utils code gives now."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import importlib
import importlib.util
import os
import re

import pytest
import yaml

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.openkeel.manila.plugins.modules import share as any_module
from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Fail,
    exits_raise,
    module_class,
    patch_module_args,
    run_module,
)

MODULES_DIR = os.path.dirname(any_module.__file__)
MODULES = sorted(name[:-3] for name in os.listdir(MODULES_DIR)
                 if name.endswith('.py') and not name.startswith('_'))
PACKAGE = 'ansible_collections.openkeel.manila.plugins'

# the options whose values are secrets: hidden in logs and results
SECRETS = {'auth', 'client_key', 'password', 'auth_key'}
# the names that ansible-test's validate-modules reads as possible secrets: such an
# option says no_log either way
LOOKS_SECRET = re.compile(r'pass(?!ive)|secret|token|key', re.I)


def fresh(name):
    """The module file ``name`` executed now, outside the import cache."""
    spec = importlib.util.spec_from_file_location('%s.modules.%s' % (PACKAGE, name),
                                                  os.path.join(MODULES_DIR, name + '.py'))
    code = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(code)
    return code


def fragment_options(reference):
    """The options of a doc fragment reference such as openkeel.manila.manage.share."""
    parts = reference.split('.')
    assert parts[:2] == ['openkeel', 'manila'], reference
    fragment = importlib.import_module('%s.doc_fragments.%s' % (PACKAGE, parts[2]))
    text = getattr(fragment.ModuleDocFragment, parts[3].upper() if len(parts) > 3 else 'DOCUMENTATION')
    return yaml.safe_load(text).get('options') or {}


def documented_options(code):
    doc = yaml.safe_load(code.DOCUMENTATION)
    options = {}
    for reference in doc.get('extends_documentation_fragment') or []:
        options.update(fragment_options(reference))
    options.update(doc.get('options') or {})
    return options


def from_doc(options):
    return dict((name, dict(
        type=doc.get('type', 'str'),
        required=doc.get('required', False),
        default=doc.get('default'),
        choices=doc.get('choices'),
        elements=doc.get('elements'),
        aliases=sorted(doc.get('aliases') or []),
        options=from_doc(doc['suboptions']) if 'suboptions' in doc else None,
    )) for name, doc in options.items())


def from_spec(spec):
    return dict((name, dict(
        type=option.get('type') or 'str',
        required=option.get('required', False),
        default=option.get('default'),
        choices=option.get('choices'),
        elements=option.get('elements'),
        aliases=sorted(option.get('aliases') or []),
        options=from_spec(option['options']) if option.get('options') is not None else None,
    )) for name, option in spec.items())


def differences(doc, spec, where=''):
    found = []
    for name in sorted(set(doc) | set(spec)):
        path = where + name
        if name not in spec:
            found.append('%s: documented, not accepted' % path)
        elif name not in doc:
            found.append('%s: accepted, not documented' % path)
        else:
            for field in ('type', 'required', 'default', 'choices', 'elements', 'aliases'):
                if doc[name][field] != spec[name][field]:
                    found.append('%s: %s is %r in the docs, %r in the spec'
                                 % (path, field, doc[name][field], spec[name][field]))
            if (doc[name]['options'] is None) != (spec[name]['options'] is None):
                found.append('%s: suboptions differ' % path)
            elif doc[name]['options'] is not None:
                found.extend(differences(doc[name]['options'], spec[name]['options'], path + '.'))
    return found


def secrets_differences(spec, where=''):
    found = []
    for name, option in sorted(spec.items()):
        path = where + name
        hidden = option.get('no_log')
        if name in SECRETS and hidden is not True:
            found.append('%s: a secret, not no_log' % path)
        if name not in SECRETS and hidden:
            found.append('%s: no_log, not a secret' % path)
        if LOOKS_SECRET.search(name) and hidden is None:
            found.append('%s: says no_log neither way' % path)
        if option.get('options'):
            found.extend(secrets_differences(option['options'], path + '.'))
    return found


def test_every_module_is_read():
    assert 'shares' in MODULES and 'share' in MODULES and len(MODULES) >= 24


@pytest.mark.parametrize('name', MODULES)
def test_the_documented_options_are_the_accepted_ones(name):
    code = fresh(name)
    spec = module_class(code).full_argument_spec()
    assert differences(from_doc(documented_options(code)), from_spec(spec)) == []


@pytest.mark.parametrize('name', MODULES)
def test_secrets_are_no_log(name):
    code = fresh(name)
    assert secrets_differences(module_class(code).full_argument_spec()) == []


def test_a_difference_is_found():
    # the comparison itself: a changed default, a missing suboption, a type
    doc = from_doc({'a': {'type': 'bool', 'default': False},
                    'b': {'type': 'list', 'elements': 'dict', 'suboptions': {'c': {}}}})
    spec = from_spec({'a': {'type': 'bool'}, 'b': {'type': 'list', 'elements': 'dict', 'options': {}}})
    assert differences(doc, spec) == ['a: default is False in the docs, None in the spec',
                                      'b.c: documented, not accepted']
    assert secrets_differences({'api_key': {'type': 'str'}, 'password': {'no_log': False}}) == [
        'api_key: says no_log neither way', 'password: a secret, not no_log']


def test_a_fleet_entry_needs_a_name_or_an_id(monkeypatch):
    outcome = run_module(monkeypatch, fresh('shares'), {'shares': [{'size': 1}]}, None, expect=Fail)
    assert 'name' in outcome.result['msg'] and 'id' in outcome.result['msg']
    assert 'shares' in outcome.result['msg']


def test_a_fleet_marker_needs_its_key_and_value(monkeypatch):
    outcome = run_module(monkeypatch, fresh('shares'), {'shares': [{'name': 'a'}], 'marker': {'key': 'owner'}},
                         None, expect=Fail)
    assert 'value' in outcome.result['msg']


@pytest.mark.parametrize('entry', [{'id': 'share-1'}, {'name': 'data'}])
def test_a_fleet_entry_may_name_only_its_id_or_only_its_name(monkeypatch, entry):
    exits_raise(monkeypatch)
    cls = module_class(fresh('shares'))
    with patch_module_args({'shares': [entry]}):
        module = AnsibleModule(argument_spec=cls.full_argument_spec(), **cls.module_kwargs)
    assert dict((k, v) for k, v in module.params['shares'][0].items() if k in entry) == entry
