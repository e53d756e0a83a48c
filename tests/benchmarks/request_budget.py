# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Count the HTTP requests and time of module runs against the local cloud.

    python tests/benchmarks/request_budget.py [--runs N] [--cloud NAME]

Runs each module invocation in its own process, as Ansible does, with
keystoneauth's Session.request wrapped to record every request (Keystone and
Manila alike), and prints one row per case: requests to Keystone, requests to
Manila, and the wall time (median of --runs). It creates what it needs (a
share named bench-budget, with a snapshot it was reverted to) and deletes them
at the end. Needs the local cloud
(tests/cloud/manila-cloud up) and a Python with ansible-core and openstacksdk.
"""

from __future__ import absolute_import, division, print_function

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLOUD_DIR = os.environ.get('OPENKEEL_CLOUD_DIR', '/var/tmp/openkeel-manila-cloud')

# Runs one module with a request counter around keystoneauth's Session.
RUNNER = r'''
import json, runpy, sys
from keystoneauth1 import session
log_path, module_path, args_path = sys.argv[1], sys.argv[2], sys.argv[3]
original = session.Session.request
def counted(self, url, method, *args, **kwargs):
    response = original(self, url, method, *args, **kwargs)
    with open(log_path, 'a') as log:
        log.write(json.dumps([method, url, getattr(response, 'status_code', None)]) + '\n')
    return response
session.Session.request = counted
sys.argv = [module_path, args_path]
runpy.run_path(module_path, run_name='__main__')
'''


CLI_RUNNER = RUNNER.replace(
    "log_path, module_path, args_path = sys.argv[1], sys.argv[2], sys.argv[3]",
    "log_path = sys.argv[1]").replace(
    "sys.argv = [module_path, args_path]\nrunpy.run_path(module_path, run_name='__main__')",
    "from openstackclient import shell\nsys.exit(shell.main(sys.argv[2:]))")


def run_cli(args, cloud='admin'):
    """The same lookup with python-manilaclient's OSC plugin, for comparison."""
    python = os.path.join(CLOUD_DIR, 'venv', 'bin', 'python')
    log_fd, log_path = tempfile.mkstemp(prefix='okbench-cli-')
    os.close(log_fd)
    env = dict(os.environ, OS_CLIENT_CONFIG_FILE=os.path.join(CLOUD_DIR, 'clouds.yaml'),
               OS_CLOUD=cloud)
    started = time.monotonic()
    subprocess.run([python, '-c', CLI_RUNNER, log_path] + args, env=env,
                   capture_output=True, text=True, check=True)
    elapsed = time.monotonic() - started
    requests = [json.loads(line) for line in open(log_path)]
    os.unlink(log_path)
    return requests, elapsed


def report(label, requests, times):
    keystone = [r for r in requests if ':5000/' in r[1]]
    manila = [r for r in requests if ':5000/' not in r[1]]
    print('%-32s %9d %7d %9.2f' % (label, len(keystone), len(manila), statistics.median(times)))
    for method, url, status in requests:
        print('    %s %s -> %s' % (method, url.split('127.0.0.1', 1)[-1], status))


def collection_path():
    root = tempfile.mkdtemp(prefix='okbench-')
    os.makedirs(os.path.join(root, 'ansible_collections', 'openkeel'))
    os.symlink(REPO, os.path.join(root, 'ansible_collections', 'openkeel', 'manila'))
    return root


CLOUD = {'name': 'admin'}   # --cloud: a cloud of the local cloud's clouds.yaml


def run_module(root, module, args, cloud=None, allow_failure=False):
    log_fd, log_path = tempfile.mkstemp(prefix='okbench-log-')
    os.close(log_fd)
    args_fd, args_path = tempfile.mkstemp(prefix='okbench-args-')
    with os.fdopen(args_fd, 'w') as handle:
        json.dump({'ANSIBLE_MODULE_ARGS': dict(args, cloud=cloud or CLOUD['name'])}, handle)
    env = dict(os.environ, PYTHONPATH=root,
               OS_CLIENT_CONFIG_FILE=os.path.join(CLOUD_DIR, 'clouds.yaml'))
    module_path = os.path.join(REPO, 'plugins', 'modules', module + '.py')
    started = time.monotonic()
    proc = subprocess.run([sys.executable, '-c', RUNNER, log_path, module_path, args_path],
                          env=env, capture_output=True, text=True, check=False)
    elapsed = time.monotonic() - started
    requests = [json.loads(line) for line in open(log_path)]
    os.unlink(log_path)
    os.unlink(args_path)
    if not proc.stdout.strip():
        raise SystemExit('%s printed no result:\n%s' % (module, proc.stderr[-3000:]))
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    if result.get('failed') and not allow_failure:
        raise SystemExit('%s failed: %s' % (module, result.get('msg')))
    return requests, elapsed, result


# share networks, security services, share types (issue 11): what they need,
# their no-op cases, and their teardown.
NETWORK_SETUP = [
    ('security_service', {'name': 'bench-ldap', 'type': 'ldap', 'server': 'ldap.example.com',
                          'password': 'bench-secret'}),
    ('share_network', {'name': 'bench-net', 'neutron_net_id': '0d0d0d0d-1111-4111-8111-000000000004',
                       'neutron_subnet_id': '0d0d0d0d-2222-4222-8222-000000000004',
                       'security_services': ['bench-ldap']}),
    ('share_type', {'name': 'bench-type', 'driver_handles_share_servers': False,
                    'extra_specs': {'snapshot_support': True}}),
    ('share_type', {'name': 'bench-private', 'driver_handles_share_servers': False,
                    'is_public': False, 'projects': ['0123456789abcdef0123456789abcdef']}),
]
NETWORK_CASES = [
    ('security_service, no-op', 'security_service', NETWORK_SETUP[0][1]),
    ('security_service_info', 'security_service_info', {'name': 'bench-ldap'}),
    ('share_network, no-op', 'share_network', NETWORK_SETUP[1][1]),
    ('share_network_info', 'share_network_info', {'name': 'bench-net'}),
    ('share_type, no-op', 'share_type', NETWORK_SETUP[2][1]),
    ('share_type (private), no-op', 'share_type', NETWORK_SETUP[3][1]),
    ('share_type_info by name', 'share_type_info', {'name': 'bench-type'}),
]
NETWORK_TEARDOWN = [
    ('share_network', {'name': 'bench-net', 'state': 'absent'}),
    ('security_service', {'name': 'bench-ldap', 'state': 'absent'}),
    ('share_type', {'name': 'bench-type', 'state': 'absent'}),
    ('share_type', {'name': 'bench-private', 'state': 'absent'}),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--runs', type=int, default=3)
    parser.add_argument('--cloud', default='admin',
                        help='an admin cloud of clouds.yaml (a lane\'s, or NAME-paged)')
    options = parser.parse_args()
    CLOUD['name'] = options.cloud
    root = collection_path()
    share = {'name': 'bench-budget', 'size': 1, 'share_proto': 'NFS'}
    cases = [
        ('share, no-op', 'share', share),
        ('share_info by name', 'share_info', {'name': 'bench-budget'}),
        ('share_access, no-op', 'share_access', {'share': 'bench-budget', 'rules': [
            {'access_type': 'ip', 'access_to': '10.9.0.0/24'}]}),
        ('share_migration, no-op', 'share_migration', {
            'share': 'bench-budget', 'host': None}),
    ]
    snapshot = {'share': 'bench-budget', 'name': 'bench-budget-snap'}
    cases += [
        ('share_snapshot, no-op', 'share_snapshot', snapshot),
        ('share_snapshot reverted, no-op', 'share_snapshot', dict(snapshot, state='reverted')),
        ('share_snapshot_info by share', 'share_snapshot_info', {'share': 'bench-budget'}),
        ('share_message_info by share', 'share_message_info', {'share': 'bench-budget'}),
    ]
    for module, args in NETWORK_SETUP:
        run_module(root, module, args)
    cases += NETWORK_CASES
    _r, _t, created = run_module(root, 'share', share)
    host = created['share'].get('host')
    run_module(root, 'share_access', cases[2][2])
    cases[3][2]['host'] = host
    run_module(root, 'share_snapshot', snapshot)
    run_module(root, 'share_snapshot', dict(snapshot, state='reverted'))   # once, recorded
    print('%-32s %9s %7s %9s' % ('case', 'keystone', 'manila', 'seconds'))
    try:
        for label, module, args in cases:
            times = []
            for _run in range(options.runs):
                requests, elapsed, result = run_module(root, module, args)
                if result.get('changed'):
                    raise SystemExit('%s was expected to change nothing' % label)
                times.append(elapsed)
            report(label, requests, times)
        if os.path.exists(os.path.join(CLOUD_DIR, 'venv', 'bin', 'openstack')):
            times = []
            for _run in range(options.runs):
                requests, elapsed = run_cli(['share', 'show', 'bench-budget'], cloud=options.cloud)
                times.append(elapsed)
            report('CLI: share show NAME', requests, times)
    finally:
        run_module(root, 'share', dict(share, state='absent', delete_snapshots=True))
        for module, args in NETWORK_TEARDOWN:
            run_module(root, module, args)


if __name__ == '__main__':
    main()
