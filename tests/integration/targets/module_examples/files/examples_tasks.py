# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Turn the EXAMPLES of every module into one task file, in a fixed order.

Usage: python examples_tasks.py MODULES_DIR SETTINGS_JSON OUTPUT_YML

SETTINGS_JSON holds the local cloud's names (cloud, pool_beta, type_beta,
prefix). Every example task of every module must be either in PLAN or in
SKIPPED (with its reason): a new example that is in neither fails here, so
that it gets run too. Values are substituted only where they are exactly a
placeholder of the examples (a share name, a pool, a type, the example UUID),
so the examples run as written otherwise.
"""

from __future__ import absolute_import, division, print_function

import ast
import json
import os
import sys

import yaml

__metaclass__ = type

# (module, task name) in the order they run: create -> access -> info ->
# pools and migration -> rename and delete. "setup:..." entries are glue.
PLAN = [
    ('setup', 'shares the examples expect to exist'),
    ('share', 'A 10 GiB NFS share on the default type'),
    ('share', 'Grow it to 20 GiB'),
    ('share_access', 'Two clients may mount the share, one of them read-only'),
    ('share_access', 'Exactly these rules, every other rule denied'),
    ('share_access', 'Windows users on a CIFS share'),
    ('share_access', 'Take one client away'),
    ('share_access_info', 'Every rule of a share'),
    ('share_access_info', 'The cephx rule of one client'),
    ('share_access_info', 'Read-only rules owned by the batch team'),
    ('share_info', 'Shares whose name contains "db"'),
    ('share_info', 'Shares in error, every project (admin)'),
    ('share_info', 'One share and where to mount it'),
    ('share_pool_info', 'Pools that can hold gold shares'),
    ('share_pool_info', 'Does the target exist?'),
    ('share_migration', 'The share lives on the beta pool'),
    ('share_migration', 'Copy the data now, cut over later'),
    ('share_migration', 'In the maintenance window, cut over'),
    ('share_migration', 'Changed our minds'),
    ('share_migration_info', 'Where is the migration of projects?'),
    ('share_migration_info', 'Say it'),
    ('setup', 'the ID of the projects share'),
    ('share', 'Rename a share by ID'),
    ('share', 'Into the recycle bin'),
]

# Examples that cannot run against the local cloud, and why.
SKIPPED = {
    ('share_access', 'A CephFS client (its cephx key is a secret and is never returned)'):
        'the Dummy driver applies only ip rules (NFS) and user rules (CIFS): a '
        'cephx rule goes to error',
}

EXAMPLE_UUID = '0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a'


def examples_of(path):
    """The parsed EXAMPLES of a module file (a list of tasks)."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and getattr(node.targets[0], 'id', None) == 'EXAMPLES'):
            return yaml.safe_load(node.value.value) or []
    raise SystemExit('%s has no EXAMPLES' % path)


def substitutions(settings):
    prefix = settings['prefix']
    return {
        'projects': prefix + 'projects',
        'projects-archive': prefix + 'projects-archive',
        'team-docs': prefix + 'team-docs',
        'cephfs-data': prefix + 'cephfs-data',
        'storage@beta#pool_b': settings['pool_beta'],
        'gold': settings['type_beta'],
        EXAMPLE_UUID: '{{ example_projects_id }}',
    }


def substitute(value, subs, cloud, key=None):
    """Replace the placeholders in the options of a task, recursively."""
    if isinstance(value, dict):
        return dict((k, substitute(v, subs, cloud, k)) for k, v in value.items())
    if isinstance(value, list):
        return [substitute(v, subs, cloud) for v in value]
    if key == 'cloud':
        return cloud
    if not isinstance(value, str):
        return value
    return subs.get(value, value)


def foreign_names(task, prefix):
    """Share names in a task that would touch shares outside the test's prefix."""
    found = []
    for action, args in task.items():
        if (action.startswith('openkeel.manila.') and isinstance(args, dict)
                and action != 'openkeel.manila.share_pool_info'):   # its name is a pool
            for key in ('share', 'name'):
                value = args.get(key)
                if isinstance(value, str) and not value.startswith((prefix, '{{')):
                    found.append(value)
    return found


def setup_tasks(name, settings):
    prefix = settings['prefix']
    if name == 'shares the examples expect to exist':
        return [{
            'name': 'Setup | Shares the examples name besides projects',
            'openkeel.manila.share': {
                'cloud': settings['cloud'], 'name': '{{ item.name }}', 'size': 1,
                'share_proto': '{{ item.proto }}'},
            'loop': [{'name': prefix + 'team-docs', 'proto': 'CIFS'},
                     {'name': prefix + 'cephfs-data', 'proto': 'NFS'}],
        }]
    if name == 'the ID of the projects share':
        return [{
            'name': 'Setup | The ID of the projects share',
            'openkeel.manila.share_info': {
                'cloud': settings['cloud'], 'name': prefix + 'projects'},
            'register': 'example_projects',
        }, {
            'name': 'Setup | Remember it',
            'ansible.builtin.set_fact': {
                'example_projects_id': '{{ example_projects.shares[0].id }}'},
        }]
    raise SystemExit('unknown setup step %r' % name)


def main():
    modules_dir, settings_file, output = sys.argv[1:4]
    with open(settings_file) as f:
        settings = json.load(f)
    subs = substitutions(settings)

    examples = {}
    for filename in sorted(os.listdir(modules_dir)):
        if filename.endswith('.py') and not filename.startswith('_'):
            module = filename[:-3]
            for task in examples_of(os.path.join(modules_dir, filename)):
                examples[(module, task.get('name'))] = task

    missing = [key for key in PLAN if key[0] != 'setup' and key not in examples]
    unplanned = [key for key in examples if key not in PLAN and key not in SKIPPED]
    if missing or unplanned:
        raise SystemExit(
            'The plan of examples is out of date.\n'
            '  planned, but no module has this example: %s\n'
            '  examples neither planned nor skipped: %s'
            % (missing or 'none', unplanned or 'none'))

    tasks = []
    for module, name in PLAN:
        if module == 'setup':
            tasks.extend(setup_tasks(name, settings))
            continue
        task = dict(examples[(module, name)])
        title = task.pop('name')
        task = dict([('name', '%s | %s' % (module, title))],
                    **substitute(task, subs, settings['cloud']))
        unsafe = foreign_names(task, settings['prefix'])
        if unsafe:
            raise SystemExit('Example %r names shares without the test prefix (%s): add '
                             'them to substitutions().' % (title, ', '.join(unsafe)))
        tasks.append(task)
    with open(output, 'w') as f:
        f.write('---\n# generated from the modules\' EXAMPLES by examples_tasks.py\n')
        yaml.safe_dump(tasks, f, default_flow_style=False, sort_keys=False)
    for (module, name), reason in sorted(SKIPPED.items()):
        print('skipped: %s | %s: %s' % (module, name, reason))
    print('%d examples planned' % sum(1 for key in PLAN if key[0] != 'setup'))


if __name__ == '__main__':
    main()
