# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every module takes the common options of openstack.cloud (its doc fragment
``openstack.cloud.openstack``), so one module_defaults block serves both
collections. The table below is that fragment's options (openstack.cloud 2.5).
tools/test compat runs a play with both collections against the local cloud.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import importlib
import os

import pytest

from ansible.module_utils.common.arg_spec import ArgumentSpecValidator

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import module_class

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', '..'))

# name: (type, default, choices, aliases) as openstack.cloud declares them.
OPENSTACK_CLOUD_OPTIONS = {
    'cloud': ('raw', None, None, []),
    'auth': ('dict', None, None, []),
    'auth_type': ('str', None, None, []),
    'region_name': ('str', None, None, []),
    'wait': ('bool', True, None, []),
    'timeout': ('int', 180, None, []),
    'api_timeout': ('int', None, None, []),
    'validate_certs': ('bool', None, None, ['verify']),
    'ca_cert': ('str', None, None, ['cacert']),
    'client_cert': ('str', None, None, ['cert']),
    'client_key': ('str', None, None, ['key']),
    'interface': ('str', 'public', ['admin', 'internal', 'public'], ['endpoint_type']),
    'sdk_log_path': ('str', None, None, []),
    'sdk_log_level': ('str', 'INFO', ['DEBUG', 'INFO'], []),
}

# A module_defaults block as an openstack.cloud user has it.
GROUP_DEFAULTS = {
    'cloud': 'mycloud', 'region_name': 'RegionOne', 'interface': 'internal',
    'validate_certs': True, 'ca_cert': '/etc/ssl/ca.pem', 'api_timeout': 30,
    'wait': True, 'timeout': 600, 'sdk_log_path': '/tmp/sdk.log', 'sdk_log_level': 'DEBUG',
}


def module_classes():
    names = sorted(name[:-3] for name in os.listdir(os.path.join(ROOT, 'plugins', 'modules'))
                   if name.endswith('.py') and not name.startswith('_'))
    found = []
    for name in names:
        module = importlib.import_module(
            'ansible_collections.openkeel.manila.plugins.modules.%s' % name)
        found.append((name, module_class(module)))
    return found


MODULES = module_classes()


def test_every_module_is_checked():
    assert 'share_info' in dict(MODULES) and len(MODULES) >= 7


@pytest.mark.parametrize('name, cls', MODULES, ids=[m[0] for m in MODULES])
def test_every_openstack_cloud_option_is_taken_with_its_meaning(name, cls):
    spec = cls.full_argument_spec()
    for option, (kind, default, choices, aliases) in OPENSTACK_CLOUD_OPTIONS.items():
        assert option in spec, '%s lacks %s' % (name, option)
        mine = spec[option]
        assert mine.get('type', 'str') == kind, (name, option)
        # a module that waits may wait longer by default (share_migration)
        if option != 'timeout':
            assert mine.get('default') == default, (name, option)
        assert sorted(mine.get('choices') or []) == sorted(choices or []), (name, option)
        assert sorted(mine.get('aliases') or []) == sorted(aliases), (name, option)


@pytest.mark.parametrize('name, cls', MODULES, ids=[m[0] for m in MODULES])
def test_openstack_cloud_group_defaults_are_accepted(name, cls):
    result = ArgumentSpecValidator(cls.full_argument_spec()).validate(dict(GROUP_DEFAULTS))
    assert not result.unsupported_parameters, (name, sorted(result.unsupported_parameters))
    problems = [str(e) for e in result.errors if any(o in str(e) for o in GROUP_DEFAULTS)
                and 'required' not in str(e)]
    assert not problems, (name, problems)
    assert result.validated_parameters['sdk_log_level'] == 'DEBUG'
    assert result.validated_parameters['timeout'] == 600
