# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every module of the collection is in the action group ``manila`` of meta/runtime.yml.

``module_defaults: {group/openkeel.manila.manila: ...}`` only reaches the modules
listed there; a module left out would silently run without the play's auth options.
(tools/test package checks the same with the installed collection against the cloud.)
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', '..'))


def collection_modules():
    path = os.path.join(ROOT, 'plugins', 'modules')
    return sorted(name[:-3] for name in os.listdir(path)
                  if name.endswith('.py') and not name.startswith('_'))


def manila_group():
    with open(os.path.join(ROOT, 'meta', 'runtime.yml')) as f:
        runtime = yaml.safe_load(f)
    return (runtime.get('action_groups') or {}).get('manila') or []


def test_the_collection_has_modules():
    assert 'share' in collection_modules()


def test_every_module_is_in_the_manila_action_group():
    group = manila_group()
    listed = set(name.split('.')[-1] for name in group if isinstance(name, str))
    missing = [name for name in collection_modules() if name not in listed]
    assert not missing, (
        'modules missing from action_groups.manila in meta/runtime.yml: %s '
        '(module_defaults for group/openkeel.manila.manila would not reach them)' % ', '.join(missing))


def test_the_group_names_only_existing_modules():
    modules = set(collection_modules())
    unknown = [name for name in manila_group()
               if isinstance(name, str) and name.split('.')[-1] not in modules]
    assert not unknown, 'action_groups.manila lists modules that do not exist: %s' % ', '.join(unknown)
