# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""kinds.py: the kinds table.  Every kind an API class handles has a row;
every API class of module_utils is a ResourceAPI reading its row (the
exceptions say why); no status list lives outside states.py and the rows."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import ast
import importlib
import inspect
import os

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import kinds, lookups, states
from ansible_collections.openkeel.manila.plugins.module_utils.microversions import FEATURES
from ansible_collections.openkeel.manila.plugins.module_utils.resource import ResourceAPI

MODULE_UTILS = os.path.join(os.path.dirname(__file__), '..', '..', '..', '..',
                            'plugins', 'module_utils')
PLUGINS = os.path.join(MODULE_UTILS, '..')

# API classes that are no ResourceAPI, and why (resource.py's docstring says it too).
NOT_RESOURCES = {
    # a settings set of a scope: no ID, no name, no status, never created or deleted
    'QuotaAPI': 'quotas',
}


def api_classes():
    """Every class named *API defined in a module_utils file: (file, class)."""
    found = []
    for filename in sorted(os.listdir(MODULE_UTILS)):
        if not filename.endswith('.py') or filename == '__init__.py':
            continue
        module = importlib.import_module(
            'ansible_collections.openkeel.manila.plugins.module_utils.' + filename[:-3])
        for name, value in inspect.getmembers(module, inspect.isclass):
            if name.endswith('API') and value.__module__ == module.__name__:
                found.append((filename, value))
    return found


def test_lookups_reads_the_same_table():
    assert lookups.KINDS is kinds.KINDS and lookups.Kind is kinds.Kind
    assert lookups.share_label is kinds.share_label


def test_the_rows_of_reading_and_listing():
    rows = dict((name, (kind.label, kind.listing, kind.list_key, kind.item, kind.item_key,
                        kind.name_filter, kind.listing_query)) for name, kind in kinds.KINDS.items())
    assert rows == {
        'share': ('share', 'shares/detail', 'shares', 'shares/%s', 'share', True, {}),
        'snapshot': ('share snapshot', 'snapshots/detail', 'snapshots', 'snapshots/%s',
                     'snapshot', True, {}),
        'message': ('user message', 'messages', 'messages', 'messages/%s', 'message', False, {}),
        'share_network': ('share network', 'share-networks/detail', 'share_networks',
                          'share-networks/%s', 'share_network', True, {}),
        'share_type': ('share type', 'types', 'share_types', 'types/%s', 'share_type', False,
                       {'is_public': 'all'}),
        'availability_zone': ('availability zone', 'availability-zones', 'availability_zones',
                              None, None, False, {}),
        'security_service': ('security service', 'security-services/detail',
                             'security_services', 'security-services/%s', 'security_service',
                             True, {}),
        'resource_lock': ('resource lock', 'resource-locks', 'resource_locks',
                          'resource-locks/%s', 'resource_lock', False, {}),
        'share_replica': ('share replica', 'share-replicas/detail', 'share_replicas',
                          'share-replicas/%s', 'share_replica', False, {}),
        'share_transfer': ('share transfer', 'share-transfers/detail', 'transfers',
                           'share-transfers/%s', 'transfer', False, {}),
        'access_rule': ('access rule', 'share-access-rules', 'access_list',
                        'share-access-rules/%s', 'access', False, {}),
        'share_migration': ('share migration', 'shares/detail', 'shares', 'shares/%s', 'share',
                            False, {}),
        'share_server': ('share server', 'share-servers', 'share_servers', 'share-servers/%s',
                         'share_server', False, {}),
    }


def test_the_rows_of_features_parents_and_words():
    rows = dict((name, (k.noun, k.feature, k.metadata_feature, k.parent, k.parent_filter,
                        k.status_field)) for name, k in kinds.KINDS.items())
    assert rows == {
        'share': ('share', None, None, None, None, 'status'),
        'snapshot': ('snapshot', None, 'snapshot_metadata', 'share', 'share_id', 'status'),
        'message': ('user message', None, None, None, None, 'status'),
        'share_network': ('share network', None, None, None, None, 'status'),
        'share_type': ('share type', None, None, None, None, 'status'),
        'availability_zone': ('availability zone', None, None, None, None, 'status'),
        'security_service': ('security service', None, None, None, None, 'status'),
        'resource_lock': ('lock', 'resource_locks', None, 'share', 'resource_id', 'status'),
        'share_replica': ('replica', 'share_replicas', None, 'share', 'share_id', 'status'),
        'share_transfer': ('transfer', 'share_transfers', None, 'share', 'resource_id', 'status'),
        'access_rule': ('access rule', None, None, 'share', 'share_id', 'state'),
        'share_migration': ('migration', None, None, None, None, 'task_state'),
        'share_server': ('share server', None, None, None, None, 'status'),
    }
    for kind in kinds.KINDS.values():
        assert kind.feature is None or kind.feature in FEATURES
        assert kind.metadata_feature is None or kind.metadata_feature in FEATURES
        assert kind.parent is None or kind.parent in kinds.KINDS


def test_the_status_tables_are_the_states_of_states_py():
    table = dict((name, k.statuses) for name, k in kinds.KINDS.items())
    assert (table['share'].ready, table['share'].busy, table['share'].error,
            table['share'].leaving) == (('available',), states.SHARE_BUSY_STATES,
                                        states.SHARE_ERROR_STATES, states.SHARE_LEAVING_STATES)
    assert (table['snapshot'].ready, table['snapshot'].leaving) == (
        ('available',), states.SNAPSHOT_LEAVING_STATES)
    assert (table['share_replica'].ready, table['share_replica'].busy,
            table['share_replica'].error, table['share_replica'].leaving) == (
        ('available',), states.REPLICA_BUSY_STATES, states.REPLICA_ERROR_STATES,
        states.REPLICA_LEAVING_STATES)
    assert (table['access_rule'].ready, table['access_rule'].leaving) == (
        ('active',), states.ACCESS_DENY_STATES)
    assert (sorted(table['share_migration'].ready), table['share_migration'].error) == (
        ['migration_cancelled', 'migration_success'], states.MIGRATION_ERROR_STATES)
    assert table['share_network'].ready == ('active',)
    for name in ('share_type', 'security_service', 'resource_lock', 'share_transfer'):
        assert table[name] is kinds.NO_STATUS


@pytest.mark.parametrize('kind,resource,words', [
    ('share', {'id': 's1', 'name': 'data'}, 'Share data (s1)'),
    ('snapshot', {'id': 'n1', 'name': 'daily'}, 'Snapshot daily (n1)'),
    ('share_network', {'name': 'net'}, 'Share network net (new)'),
    ('security_service', {'id': 'v1', 'name': 'ad'}, 'Security service ad (v1)'),
    ('share_type', {'name': 'gold'}, 'Share type gold (new)'),
    ('share_replica', {'id': 'r1', 'replica_state': 'active', 'availability_zone': 'z1'},
     'Replica r1 (active, zone z1)'),
    ('resource_lock', {'id': 'l1'}, 'Lock l1'),
    ('share_transfer', {'id': 't1'}, 'Transfer t1'),
    ('access_rule', {'id': 'a1'}, 'Access rule a1'),
    ('share_migration', {'id': 's1'}, 'The migration of share s1'),
    ('message', {'id': 'm1', 'name': None}, 'Resource None (m1)'),
])
def test_how_a_row_labels_one(kind, resource, words):
    assert kinds.KINDS[kind].label_of(resource) == words


def test_every_api_class_is_a_resource_api_but_the_documented_exceptions():
    found = api_classes()
    names = [cls.__name__ for _filename, cls in found]
    for name in ('ShareAPI', 'SnapshotAPI', 'ReplicaAPI', 'LockAPI', 'TransferAPI',
                 'AccessAPI', 'MigrationAPI', 'QuotaAPI'):
        assert name in names
    off = sorted(cls.__name__ for _filename, cls in found
                 if not issubclass(cls, ResourceAPI) and cls is not ResourceAPI)
    assert off == sorted(NOT_RESOURCES)
    with open(os.path.join(MODULE_UTILS, 'resource.py')) as handle:
        doc = ast.get_docstring(ast.parse(handle.read()))
    for name in NOT_RESOURCES:
        assert name in doc


def test_every_resource_api_has_a_row():
    for _filename, cls in api_classes():
        if issubclass(cls, ResourceAPI) and cls is not ResourceAPI:
            assert cls.kind in kinds.KINDS, cls.__name__
            # what the base reads is the row's
            assert cls.states is kinds.KINDS[cls.kind].statuses or 'states' in vars(cls)


def manila_statuses():
    """Every status string states.py defines."""
    with open(os.path.join(MODULE_UTILS, 'states.py')) as handle:
        tree = ast.parse(handle.read())
    return set(node.value for node in ast.walk(tree)
               if isinstance(node, ast.Constant) and isinstance(node.value, str)
               and node.value.islower() and ' ' not in node.value)


def status_lists(tree, statuses):
    """(line, strings) of every tuple, list or set literal whose strings are
    all Manila statuses (an argument's ``choices`` are the task's words)."""
    choices = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == 'choices':
            choices.add(node.value)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and node not in choices:
            strings = [e.value for e in node.elts
                       if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            if strings and all(s in statuses for s in strings):
                found.append((node.lineno, strings))
    return found


def test_no_status_list_outside_states_py_and_the_rows():
    statuses = manila_statuses()
    assert {'available', 'error', 'deleting', 'migration_success', 'queued_to_deny'} <= statuses
    found = []
    for folder, _dirs, files in os.walk(PLUGINS):
        for filename in sorted(files):
            if not filename.endswith('.py') or filename in ('states.py', 'kinds.py'):
                continue
            with open(os.path.join(folder, filename)) as handle:
                tree = ast.parse(handle.read())
            found.extend('%s:%d %s' % (filename, line, strings)
                         for line, strings in status_lists(tree, statuses))
    assert found == []


def test_the_status_list_check_sees_one():
    statuses = manila_statuses()
    tree = ast.parse("READY = ('available', 'error')\n"
                     "x = dict(choices=['error', 'active'])\n"
                     "y = {'available'}\nz = frozenset(['deleting', OTHER])\nw = ('rw', 'ro')\n")
    assert [line for line, _strings in status_lists(tree, statuses)] == [1, 3, 4]
