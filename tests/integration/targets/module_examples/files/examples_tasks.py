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
    ('share_service_info', 'Share services that are down'),
    ('share_service_info', 'Say which backends stopped reporting'),
    ('share_service_info', 'Backends disabled for maintenance, and why'),
    ('share_server_info', 'Share servers that hold no share'),
    ('share_server_info', 'Say which'),
    ('share_server_info', 'The servers of one network, without their shares'),
    ('availability_zone_info', "Manila's availability zones"),
    ('availability_zone_info', 'Does the zone the playbook wants exist?'),
    ('share_migration', 'The share lives on the beta pool'),
    ('share_migration', 'Copy the data now, cut over later'),
    ('share_migration', 'In the maintenance window, cut over'),
    ('share_migration', 'Changed our minds'),
    ('share_migration_info', 'Where is the migration of projects?'),
    ('share_migration_info', 'Say it'),
    # snapshots (a share with snapshots can be neither soft-deleted nor migrated freely)
    ('share_snapshot', 'Snapshot the projects share before the upgrade'),
    ('share_snapshot_info', 'The snapshots of a share, newest first'),
    ('share_snapshot_info', 'The one Manila would revert the share to'),
    ('share_snapshot_info', 'Snapshots in error, every project (admin)'),
    ('share_snapshot_info', 'Where to mount the snapshots tagged for a ticket'),
    ('share_snapshot_instance_info', 'Where does the snapshot of the projects share live?'),
    ('share_instance_info', 'Where does the projects share live?'),
    ('share_instance_info', 'Say it'),
    ('share_instance_info', 'Which share is behind the path a client mounts?'),
    ('share_snapshot', 'The upgrade went wrong; put the share back as it was'),
    ('share_snapshot', 'Delete the snapshot'),
    ('share_message_info', 'Why is the share in error?'),
    ('share_message_info', 'Say it'),
    ('share_message_info', 'Every failed placement of the last day'),
    ('setup', 'a scratch share with a snapshot'),
    ('share', 'Delete a share and its snapshots'),
    ('setup', 'the ID of the projects share'),
    ('share', 'Rename a share by ID'),
    ('share', 'Into the recycle bin'),
    ('shares', 'Three shares with their clients, in one task'),
    ('shares', 'Where to mount each of them'),
    ('shares', 'Exactly this list - marked shares that are no longer listed are deleted'),
]

# Examples that cannot run against the local cloud, and why.
SKIPPED = {
    ('share_access', 'A CephFS client (its cephx key is a secret and is not returned)'):
        'the Dummy driver applies only ip rules (NFS) and user rules (CIFS): a '
        'cephx rule goes to error',
    ('share_access', 'The same client, and its key for the ceph client configuration'):
        'a cephx rule (see above); the unit tests of share_access show the keys',
    ('share_access', 'Write the keyring of app1 (the key stays out of the job output)'):
        'needs the key of the cephx rule above',
    ('share_type', 'Rename a type, found by its ID'):
        'its ID is a placeholder that no type the examples make has; the share_type '
        'target renames a type by ID (check mode, real run, re-run, admin and member)',
}

# Quotas, limits, replicas and capabilities (issues 22 and 23): not yet in the plan.
# Their own targets (share_quota, share_quota_info, share_limits_info, share_replica,
# share_replica_info, share_capabilities_info) run the same calls on the local cloud's
# projects and types; these examples name a team project, a `gold` type and a
# `projects` share of a replicated type that the examples' setup does not make.
SKIPPED.update(dict.fromkeys([
    ('share_quota', "The file share quotas of a team's project"),
    ('share_quota', 'Its gold shares are limited further'),
    ('share_quota', 'Back to the defaults'),
    ('share_quota_info', "A team's gold quotas (admin)"),
], 'a team project and a gold type the examples do not make; the share_quota and '
   'share_quota_info targets set and read quotas on the lane\'s member project'))
SKIPPED.update(dict.fromkeys([
    ('share_quota_info', 'How much room has my project?'),
    ('share_quota_info', 'Shares left'),
    ('share_limits_info', "Manila's limits of my project"),
    ('share_limits_info', 'Shares left'),
], 'reads of the task\'s own project that the share_quota_info and share_limits_info '
   'targets run as member and admin; not yet in this plan'))
SKIPPED.update(dict.fromkeys([
    ('share_replica', 'Keep a replica of the projects share'),
    ('share_replica', 'Fail over to it'),
    ('share_replica', 'Drop the replicas besides the active one'),
    ('share_replica_info', 'The replicas of the projects share'),
    ('share_replica_info', 'Where the active replica is mounted'),
], 'the examples\' projects share is of the default type, which does not replicate; the '
   'share_replica target runs this lifecycle on the replicated-readable type'))
SKIPPED.update(dict.fromkeys([
    ('share', 'Release a share from Manila, keeping its data (admin)'),
    ('share', 'Bring the export under Manila again (admin)'),
    ('share_snapshot', 'Release a snapshot from Manila, keeping it on the storage (admin)'),
    ('share_snapshot', 'Bring it under Manila again (admin)'),
], 'an export path, pool and provider location that only a share and snapshot unmanaged '
   'before give (the Dummy driver manages nothing else); the share_manage target '
   'unmanages a share and its snapshot and manages them back'))
SKIPPED[('share_capabilities_info', 'Can this cloud replicate the gold type?')] = (
    'names a gold type the local cloud does not have; the share_capabilities_info target '
    'runs it on the cloud\'s types')
SKIPPED.update(dict.fromkeys([
    ('share_transfer', 'Offer the share in the source project'),
    ('share_transfer', 'Take it in the destination project'),
    ('share_transfer', 'Cancel the transfers of a share'),
], 'two clouds (team-a, team-b) the examples do not have; the share_transfer target runs '
   'the same offer, accept and cancel from the lane\'s admin project to its member project'))

# share networks, security services, share types (issue 11): after the
# shares' examples; the last steps delete what the first ones made.
PLAN += [
    ('setup', 'passwords the security service examples use'),
    ('security_service', 'The LDAP directory that share servers join'),
    ('security_service', 'Active Directory, found through its site (API 2.76)'),
    ('security_service', 'Rotate the bind password'),
    ('share_network', 'A share network on a Neutron subnet, joined to the LDAP directory'),
    ('share_network', 'One subnet per availability zone, and nothing else'),
    ('share_network', 'Exactly these security services (the listed LDAP service replaces '
                      'the attached one)'),
    ('share_network_info', 'One network, with its security services'),
    ('share_network_info', 'Which networks use the LDAP directory?'),
    ('security_service_info', 'The services attached to a share network'),
    ('security_service_info', 'Every Active Directory service of every project (admin)'),
    ('share_type', 'A type for a DHSS=true backend, with snapshots'),
    ('share_type', 'A private type for two projects'),
    ('share_type', 'Exactly these extra specs'),
    ('share_type_info', 'Every type, private ones included (admin)'),
    ('share_type_info', 'The types for backends that create share servers'),
    ('share_type_info', 'One type and who may use it'),
    ('share_type', 'Delete a type'),
    ('share_network', 'Delete the network'),
    ('security_service', 'Delete the Active Directory service'),
]
# Their resource names, given the test prefix like the share names.
NETWORK_EXAMPLE_NAMES = ('corp-ldap', 'corp-ad', 'app-net', 'nfs-gold', 'nfs-silver')

EXAMPLE_UUID = '0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a'
EXAMPLE_PROJECT_ID = '5e1f7b1c2a3d4e5f8a9b0c1d2e3f4a5b'
EXAMPLE_PROJECT_NAME = 'research'


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
    subs = {
        'projects': prefix + 'projects',
        'projects-archive': prefix + 'projects-archive',
        'team-docs': prefix + 'team-docs',
        'cephfs-data': prefix + 'cephfs-data',
        'projects-before-upgrade': prefix + 'projects-before-upgrade',
        'scratch': prefix + 'scratch',
        'home': prefix + 'home',
        'software': prefix + 'software',
        'storage-repo': prefix + 'storage-repo',
        'storage@beta#pool_b': settings['pool_beta'],
        'gold': settings['type_beta'],
        EXAMPLE_UUID: '{{ example_projects_id }}',
        # share_type's projects: Keystone must know them (an ID and a name)
        EXAMPLE_PROJECT_ID: '{{ manila_project_member_id }}',
        EXAMPLE_PROJECT_NAME: '{{ manila_project_admin }}',
    }
    subs.update((name, prefix + name) for name in NETWORK_EXAMPLE_NAMES)
    return subs


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


# Modules whose ``name`` is not a share's: a pool, a zone.
NAME_IS_NO_SHARE = ('openkeel.manila.share_pool_info', 'openkeel.manila.availability_zone_info')


def foreign_names(task, prefix):
    """Share names in a task that would touch shares outside the test's prefix."""
    found = []
    for action, args in task.items():
        if (action.startswith('openkeel.manila.') and isinstance(args, dict)
                and action not in NAME_IS_NO_SHARE):
            entries = [args] + [e for e in args.get('shares') or [] if isinstance(e, dict)]
            for entry in entries:
                for key in ('share', 'name'):
                    value = entry.get(key)
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
    if name == 'a scratch share with a snapshot':
        return [{
            'name': 'Setup | A scratch share',
            'openkeel.manila.share': {
                'cloud': settings['cloud'], 'name': prefix + 'scratch', 'size': 1,
                'share_proto': 'NFS'},
        }, {
            'name': 'Setup | Its snapshot',
            'openkeel.manila.share_snapshot': {
                'cloud': settings['cloud'], 'share': prefix + 'scratch',
                'name': prefix + 'scratch-daily'},
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
    if name == 'passwords the security service examples use':
        return [{
            'name': 'Setup | The passwords the security service examples use',
            'ansible.builtin.set_fact': {
                'ldap_bind_password': 'example-bind-1', 'new_ldap_bind_password': 'example-bind-2',
                'ad_join_password': 'example-join-1'},
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
