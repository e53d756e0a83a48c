# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Many shares, side by side: the floor, the role, the module, the CLI loop.

    python tests/benchmarks/fleet.py [--sizes 20,100] [--cloud member] [--runs 3]
                                     [--forms role,tasks,cli] [--creates-up-to 20]
    python tests/benchmarks/fleet.py --quick [--cloud member]
    python tests/benchmarks/fleet.py --sizes 20 --projects CLOUD1,CLOUD2,...
    python tests/benchmarks/fleet.py --sizes 20 --clouds-yaml CLOUDS_BENCH_YAML \
        --cloud bench-9 --projects bench-1,bench-2,bench-3,bench-4
    python tests/benchmarks/fleet.py --sizes 20 --role-concurrency 8

For each N of --sizes, N shares with two access rules each are created, and
then checked when nothing is to change, by:

- the floor (floor.py beside this file): plain API calls straight to Manila,
  eight at a time, one token, no Ansible - what the fastest client can do on
  this cloud, measured in the same run as everything else;
- the role openkeel.manila.share_provision (one ansible-playbook run, one
  openkeel.manila.shares task inside: what a user runs);
- openkeel.manila.shares alone (its module process, without Ansible's start);
- with --forms: python-manilaclient's CLI loop (``openstack share show NAME``
  and ``openstack share access list NAME`` per share, as the seed's scripts
  do) and one openkeel.manila.share + openkeel.manila.share_access task per
  share (a process each, as Ansible runs a loop); their creates only for N up
  to --creates-up-to (they take minutes).

Each row gives the processes started, the Keystone tokens issued, the requests
to Keystone and to Manila, the seconds (median of --runs for no-op checks, one
run otherwise), the peak resident memory of the process that talks to the
cloud (the module's process for the role) and the seconds against the floor's
for the same work. counting/sitecustomize.py counts the requests and the
memory in every process (the module process under ansible-playbook too). Then
the goals of issues 12 and 27 are checked.

--role-concurrency C[,C...]: the role's create and no-op check once more
for each C, with share_provision_concurrency: C (other shares of the same
size), beside the role with the module's default concurrency (after it, or
before it with --role-concurrency-first).

--projects: the role across several projects instead (an inventory with one
host per project, each with N shares, ``forks`` equal to the projects),
against the floor for all of their shares in the project of --cloud.
``tests/cloud/manila-cloud bench-projects N`` makes member projects bench-1 to
bench-N for it, with their clouds in clouds-bench.yaml beside clouds.yaml
(give it as --clouds-yaml).

--quick (for CI; 2.5 minutes on the loaded test machine): 20 shares created and checked with the
module and checked with the floor; it fails when a request count exceeds
QUICK_BUDGET (counts are stable; seconds are not, so they are only printed).

Everything created carries a per-run name prefix; what the fleet made also a
marker, and all of it is deleted at the end (also after a failure). Needs the
local cloud (tests/cloud/manila-cloud up) and a Python with ansible-core and
openstacksdk, e.g. /var/tmp/openkeel-manila-venv/bin/python.
"""

from __future__ import absolute_import, division, print_function

import argparse
import importlib
import json
import os
import random
import re
import shutil
import statistics
import string
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
COUNTING = os.path.join(HERE, 'counting')

# --quick: the most requests each case may send (N = 20). The fleet no-op is
# the versions document, one listing page, and per share its rules and export
# locations; a create sends exactly its 3 N writes, its reads depend on how
# long Manila takes (one listing per poll), hence the margin.
QUICK_N = 20
QUICK_BUDGET = {
    'no-op check, shares module (no Ansible)': {
        'manila': 2 * QUICK_N + 2, 'keystone': 2, 'tokens': 1},
    # Its writes: per share its create and two rules. Its reads besides the
    # listings and share reads of its waits (as many as Manila's pace asks
    # for): the versions document, the default share type, the quotas (2), and
    # per share the rules and the export locations read back.
    'create, shares module (no Ansible)': {
        'writes': 3 * QUICK_N, 'reads_besides_polls': 2 * QUICK_N + 4, 'keystone': 2,
        'tokens': 1},
}

# What a role run plays: the role for the list in vars, then one line the
# benchmark reads (changed, and how many shares failed).
PLAYBOOK = """
- name: Benchmark
  hosts: localhost
  connection: local
  gather_facts: false
  roles:
    - role: openkeel.manila.share_provision
  post_tasks:
    - name: Benchmark | Say what changed
      ansible.builtin.debug:
        msg: "OKBENCH {{ {'changed': share_provision_changed} | to_json }}"
"""
# One task that does nothing: what Ansible's start costs (ansible-playbook, a
# play, one module process).
PING = """
- name: Ansible start
  hosts: localhost
  connection: local
  gather_facts: false
  tasks:
    - name: Ping
      ansible.builtin.ping:
"""


def budget_helpers():
    """request_budget.py beside this file: its CLI runner and collection path."""
    if HERE not in sys.path:
        sys.path.insert(0, HERE)
    return importlib.import_module('request_budget')


def measured(command, env, stdin=None):
    """Run ``command`` with the counter on: (requests, seconds, peak KiB, process)."""
    log_fd, log_path = tempfile.mkstemp(prefix='okbench-log-')
    os.close(log_fd)
    env = dict(env, OKBENCH_LOG=log_path,
               PYTHONPATH=os.pathsep.join(p for p in (COUNTING, env.get('PYTHONPATH')) if p))
    started = time.monotonic()
    proc = subprocess.run(command, env=env, capture_output=True, text=True, check=False,
                          input=stdin)
    seconds = time.monotonic() - started
    requests, peak = [], 0
    with open(log_path) as log:
        for line in log:
            item = json.loads(line)
            if item[1] == 'RSS':
                peak = max(peak, item[2])
            else:
                requests.append(item[1:])
    os.unlink(log_path)
    return requests, seconds, peak, proc


class Bench(object):
    def __init__(self, options):
        self.helpers = budget_helpers()
        self.root = self.helpers.collection_path()
        self.cloud = options.cloud
        self.runs = options.runs
        self.timeout = options.timeout
        self.prefix = 'bench-fleet-%s-' % ''.join(random.choice(string.ascii_lowercase)
                                                  for _n in range(5))
        self.marker = {'key': 'openkeel-bench', 'value': self.prefix}
        self.rows = []
        self.names = []
        self.project_names = {}     # cloud: names (the many-projects case)
        self.floor = {}
        self.log_dir = options.log_dir
        self.env = dict(os.environ, OS_CLIENT_CONFIG_FILE=getattr(
            options, 'clouds_yaml', None) or os.path.join(self.helpers.CLOUD_DIR, 'clouds.yaml'))
        self.playbook_dir = tempfile.mkdtemp(prefix='okbench-play-')
        for name, text in (('role.yml', PLAYBOOK), ('ping.yml', PING)):
            with open(os.path.join(self.playbook_dir, name), 'w') as handle:
                handle.write(text)

    # -- what is measured ----------------------------------------------------------
    def shares(self, n, group):
        """N shares with two rules each (one read-write network, one read-only host)."""
        return [{'name': '%s%s-%03d' % (self.prefix, group, i), 'size': 1, 'share_proto': 'NFS',
                 'access_rules': [
                     {'access_type': 'ip', 'access_to': '10.%d.%d.0/24' % (i // 200, i % 200)},
                     {'access_type': 'ip', 'access_to': '10.%d.%d.1' % (100 + i // 200, i % 200),
                      'access_level': 'ro'}]} for i in range(n)]

    def module(self, module, args, allow_failure=False, measure=False, cloud=None):
        """One module process (as Ansible starts it, without Ansible)."""
        args_fd, args_path = tempfile.mkstemp(prefix='okbench-args-')
        with os.fdopen(args_fd, 'w') as handle:
            json.dump({'ANSIBLE_MODULE_ARGS': dict(args, cloud=cloud or self.cloud)}, handle)
        module_path = os.path.join(self.helpers.REPO, 'plugins', 'modules', module + '.py')
        requests, seconds, peak, proc = measured(
            [sys.executable, module_path, args_path], dict(self.env, PYTHONPATH=self.root))
        os.unlink(args_path)
        if not proc.stdout.strip():
            raise SystemExit('%s printed no result:\n%s' % (module, proc.stderr[-3000:]))
        result = json.loads(proc.stdout.strip().splitlines()[-1])
        if result.get('failed') and not allow_failure:
            raise SystemExit('%s failed: %s' % (module, result.get('msg')))
        if measure:
            return requests, seconds, result, peak
        return requests, seconds, result

    def role(self, shares, concurrency=None):
        """One ansible-playbook run of the role share_provision for ``shares``."""
        extra = {'share_provision_shares': shares, 'share_provision_cloud': self.cloud,
                 'share_provision_marker': self.marker,
                 'ansible_python_interpreter': sys.executable}
        if self.timeout:
            extra['share_provision_timeout'] = self.timeout
        if concurrency is not None:
            # as an AWX survey text field gives it
            extra['share_provision_concurrency'] = str(concurrency)
        extra_path = os.path.join(self.playbook_dir, 'vars.json')
        with open(extra_path, 'w') as handle:
            json.dump(extra, handle)
        env = dict(self.env, ANSIBLE_COLLECTIONS_PATH=self.root, ANSIBLE_NOCOLOR='1',
                   ANSIBLE_LOCALHOST_WARNING='false', ANSIBLE_INVENTORY_UNPARSED_WARNING='false')
        requests, seconds, peak, proc = measured(
            [self.ansible_playbook(), os.path.join(self.playbook_dir, 'role.yml'),
             '-e', '@' + extra_path], env)
        said = [line for line in proc.stdout.splitlines() if 'OKBENCH ' in line]
        if proc.returncode or not said:
            raise SystemExit('the role failed:\n%s\n%s' % (
                proc.stdout[-3000:], proc.stderr[-2000:]))
        changed = json.loads(said[-1].split('OKBENCH ', 1)[1].rstrip('"').replace('\\"', '"'))
        return requests, seconds, changed['changed'], peak

    @staticmethod
    def ansible_playbook():
        path = os.path.join(os.path.dirname(sys.executable), 'ansible-playbook')
        return path if os.path.exists(path) else shutil.which('ansible-playbook')

    def ansible_start(self):
        """The seconds of a playbook with one task that does nothing (median of --runs)."""
        times = []
        for _run in range(self.runs):
            started = time.monotonic()
            subprocess.run([self.ansible_playbook(), os.path.join(self.playbook_dir, 'ping.yml'),
                            '-e', 'ansible_python_interpreter=%s' % sys.executable],
                           env=dict(self.env, ANSIBLE_LOCALHOST_WARNING='false',
                                    ANSIBLE_INVENTORY_UNPARSED_WARNING='false'),
                           capture_output=True, check=True)
            times.append(time.monotonic() - started)
        seconds = statistics.median(times)
        print('%-44s %43.1f' % ('Ansible start (one task that does nothing)', seconds),
              flush=True)
        self.floor['ansible start'] = seconds
        return seconds

    def cli(self, *args):
        try:
            return self.helpers.run_cli(list(args), cloud=self.cloud)
        except subprocess.CalledProcessError as exc:
            # The shared cloud may restart under us: say so, and try once more.
            print('    %s failed (%s); once more' % (' '.join(args), exc.returncode), flush=True)
            time.sleep(5)
            return self.helpers.run_cli(list(args), cloud=self.cloud)

    def record(self, case, n, processes, requests, seconds, peak=None, work=None):
        keystone = [r for r in requests if ':5000/' in r[1]]
        tokens = [r for r in keystone if r[0] == 'POST' and r[1].endswith('/auth/tokens')]
        manila = [r for r in requests if ':5000/' not in r[1]]
        writes = [r for r in manila if r[0] not in ('GET', 'HEAD')]
        # A wait's reads: listings of the shares and reads of one share (how
        # many depends on how long Manila takes, not on the client).
        polls = [r for r in manila if r[0] == 'GET' and re.search(
            r'/shares/(detail|[0-9a-f-]{36})(\?|$)', r[1])]
        if self.log_dir:
            with open(os.path.join(self.log_dir, '%s-%d.json' % (
                    case.split(' (')[0].replace(' ', '-').replace(',', '').replace(':', ''),
                    n)), 'w') as handle:
                json.dump(requests, handle, indent=0)
        row = dict(case=case, n=n, processes=processes, tokens=len(tokens),
                   keystone=len(keystone), manila=len(manila), writes=len(writes),
                   reads_besides_polls=len(manila) - len(writes) - len(polls),
                   seconds=seconds, peak_mb=(peak or 0) / 1024.0, work=work)
        floor = self.floor.get((work, n))
        if case.startswith('floor'):
            self.floor[(work, n)] = seconds
            floor = seconds
        row['vs_floor'] = seconds / floor if floor else None
        self.rows.append(row)
        print('%-44s %5d %5d %6d %8d %7d %8.1f %7s %6s' % (
            case, n, processes, row['tokens'], row['keystone'], row['manila'], seconds,
            '%.0f' % row['peak_mb'] if peak else '-',
            '%.2fx' % row['vs_floor'] if row['vs_floor'] else '-'), flush=True)
        return row

    def run_floor(self, work, prefix, n):
        requests, seconds, peak, proc = measured(
            [sys.executable, os.path.join(HERE, 'floor.py'), '--cloud', self.cloud, work,
             prefix, str(n)], self.env)
        if proc.returncode:
            raise SystemExit('floor %s failed:\n%s%s' % (
                work, proc.stdout[-3000:], proc.stderr[-3000:]))
        return requests, seconds, peak

    def create_floor(self, n, group):
        prefix = '%s%s-' % (self.prefix, group)
        self.names.extend('%s%03d' % (prefix, i) for i in range(n))
        requests, seconds, peak = self.run_floor('create', prefix, n)
        self.record('floor: create (plain API calls)', n, 1, requests, seconds, peak, 'create')
        return prefix

    def check_floor(self, prefix, n):
        times = []
        for _run in range(self.runs):
            requests, seconds, peak = self.run_floor('check', prefix, n)
            times.append(seconds)
        return self.record('floor: no-op check (plain API calls)', n, 1, requests,
                           statistics.median(times), peak, 'check')

    def fleet(self, shares, **extra):
        args = dict(shares=shares, marker=self.marker, **extra)
        return self.module('shares', args, measure=True)

    def create_fleet(self, n, group):
        shares = self.shares(n, group)
        self.names.extend(s['name'] for s in shares)
        requests, seconds, result, peak = self.fleet(shares)
        assert result['changed'] and not result.get('failed'), result.get('msg')
        self.record('create, shares module (no Ansible)', n, 1, requests, seconds, peak,
                    'create')
        return shares

    @staticmethod
    def role_case(work, concurrency):
        return '%s, share_provision role%s' % (
            work, '' if concurrency is None else ', concurrency %s' % concurrency)

    def create_role(self, n, group, concurrency=None):
        shares = self.shares(n, group)
        self.names.extend(s['name'] for s in shares)
        requests, seconds, changed, peak = self.role(shares, concurrency)
        assert changed, 'the role created nothing'
        self.record(self.role_case('create', concurrency), n, 2, requests, seconds, peak,
                    'create')
        return shares

    def check_role(self, shares, concurrency=None):
        times = []
        for _run in range(self.runs):
            requests, seconds, changed, peak = self.role(shares, concurrency)
            assert not changed, 'the role changed something on a no-op'
            times.append(seconds)
        return self.record(self.role_case('no-op check', concurrency), len(shares), 2, requests,
                           statistics.median(times), peak, 'check')

    def create_tasks(self, n, group):
        shares = self.shares(n, group)
        self.names.extend(s['name'] for s in shares)
        requests, started = [], time.monotonic()
        for share in shares:
            rules = share.pop('access_rules')
            requests += self.module('share', share)[0]
            requests += self.module('share_access', {'share': share['name'], 'rules': rules})[0]
        self.record('create, share + share_access per share', n, 2 * n, requests,
                    time.monotonic() - started, work='create')

    def create_cli(self, n, group):
        shares = self.shares(n, group)
        self.names.extend(s['name'] for s in shares)
        requests, started, processes = [], time.monotonic(), 0
        for share in shares:
            requests += self.cli('share', 'create', 'NFS', '1', '--name', share['name'],
                                 '--wait')[0]
            processes += 1
            for rule in share['access_rules']:
                requests += self.cli('share', 'access', 'create', share['name'], 'ip',
                                     rule['access_to'], '--access-level',
                                     rule.get('access_level', 'rw'), '--wait')[0]
                processes += 1
        self.record('create, CLI loop', n, processes, requests, time.monotonic() - started,
                    work='create')

    def check_cli(self, shares):
        requests, started = [], time.monotonic()
        for share in shares:
            requests += self.cli('share', 'show', share['name'])[0]
            requests += self.cli('share', 'access', 'list', share['name'])[0]
        return self.record('no-op check, CLI loop', len(shares), 2 * len(shares), requests,
                           time.monotonic() - started, work='check')

    def check_tasks(self, shares):
        requests, started = [], time.monotonic()
        for share in shares:
            plain = dict((k, v) for k, v in share.items() if k != 'access_rules')
            got, _seconds, result = self.module('share', plain)
            assert not result['changed'], share['name']
            requests += got
            got, _seconds, result = self.module('share_access', {
                'share': share['name'], 'rules': share['access_rules']})
            assert not result['changed'], share['name']
            requests += got
        return self.record('no-op check, share + share_access per share', len(shares),
                           2 * len(shares), requests, time.monotonic() - started, work='check')

    def check_fleet(self, shares):
        times = []
        for _run in range(self.runs):
            requests, seconds, result, peak = self.fleet(shares)
            assert not result['changed'] and not result.get('failed'), result.get('msg')
            times.append(seconds)
        return self.record('no-op check, shares module (no Ansible)', len(shares), 1, requests,
                           statistics.median(times), peak, 'check')

    # -- many projects: one host per project, forks = projects ----------------------
    def role_projects(self, clouds, n, group):
        """The role for N shares in each project of ``clouds`` (a cloud of clouds.yaml
        each), from one inventory (a host per project, connection local) with
        ``forks`` equal to the projects. Returns (requests, seconds, peak KiB, the
        recap line of each project)."""
        hosts = {}
        for cloud in clouds:
            shares = self.shares(n, group)
            self.project_names.setdefault(cloud, []).extend(s['name'] for s in shares)
            hosts[cloud] = {'share_provision_cloud': cloud, 'share_provision_shares': shares}
        inventory = os.path.join(self.playbook_dir, 'projects.json')
        with open(inventory, 'w') as handle:
            json.dump({'projects': {'hosts': hosts, 'vars': {
                'ansible_connection': 'local', 'ansible_python_interpreter': sys.executable,
                'share_provision_marker': self.marker}}}, handle)
        with open(os.path.join(self.playbook_dir, 'projects.yml'), 'w') as handle:
            handle.write(PLAYBOOK.replace('hosts: localhost', 'hosts: projects'))
        env = dict(self.env, ANSIBLE_COLLECTIONS_PATH=self.root, ANSIBLE_NOCOLOR='1')
        requests, seconds, peak, proc = measured(
            [self.ansible_playbook(), '-i', inventory, '--forks', str(len(clouds)),
             os.path.join(self.playbook_dir, 'projects.yml')], env)
        recap = dict((line.split()[0], line.split(':', 1)[1].strip()) for line in
                     proc.stdout.split('PLAY RECAP', 1)[-1].splitlines()[1:] if ':' in line)
        if proc.returncode:
            raise SystemExit('the projects run failed:\n%s' % proc.stdout[-3000:])
        return requests, seconds, peak, recap

    def projects(self, clouds, n):
        """P projects of N shares: the role across them against the floor for P x N."""
        total = len(clouds) * n
        prefix = self.create_floor(total, 'pf%d' % total)
        self.check_floor(prefix, total)
        case = '%d projects x %d, role, forks %d' % (len(clouds), n, len(clouds))
        requests, seconds, peak, recap = self.role_projects(clouds, n, 'p%d' % len(clouds))
        self.record('create, ' + case, total, 1 + len(clouds), requests, seconds, peak, 'create')
        times = []
        for _run in range(self.runs):
            requests, seconds, peak, recap = self.role_projects(clouds, n, 'p%d' % len(clouds))
            times.append(seconds)
            assert all('changed=0' in line for line in recap.values()), recap
        self.record('no-op check, ' + case, total, 1 + len(clouds), requests,
                    statistics.median(times), peak, 'check')
        for cloud, line in sorted(recap.items()):
            print('    %s: %s' % (cloud, line))

    # -- cleaning up -------------------------------------------------------------
    def delete_all(self):
        """Delete every share this run created (by name), in one fleet task."""
        for cloud, names in sorted(self.project_names.items()):
            gone = [{'name': name, 'state': 'absent'} for name in sorted(set(names))]
            result = self.module('shares', {'shares': gone}, allow_failure=True, cloud=cloud)[2]
            if result.get('failed'):
                print('cleanup left shares of %s behind: %s' % (cloud, result.get('msg')))
            else:
                self.project_names[cloud] = []
        if not self.names:
            return
        gone = [{'name': name, 'state': 'absent'} for name in self.names]
        requests, seconds, result = self.module('shares', {'shares': gone}, allow_failure=True)
        if result.get('failed'):
            print('cleanup left shares behind: %s' % result.get('msg'))
            return
        self.record('delete, shares module', len(gone), 1, requests, seconds)
        self.names = []


def row_of(rows, case, n):
    for item in rows:
        if item['case'] == case and item['n'] == n:
            return item
    return None


def goals(rows):
    """The goals of issue 12, from the rows (where their forms were measured)."""
    lines = []
    cli = row_of(rows, 'no-op check, CLI loop', 20)
    fleet = row_of(rows, 'no-op check, shares module (no Ansible)', 20)
    if cli and fleet:
        ratio = cli['seconds'] / fleet['seconds']
        lines.append(('no-op of 20: >= 20x faster than the CLI loop', ratio >= 20,
                      '%.1fx (%.1f s vs %.1f s)' % (ratio, cli['seconds'], fleet['seconds'])))
    return lines


def goals_27(rows, ansible_start):
    """The goals of issue 27: each case against the floor of the same run."""
    lines = []
    sizes = sorted(set(r['n'] for r in rows if r['case'].startswith('floor')))
    role_concurrency = sorted(set(r['case'].split(', concurrency ')[1] for r in rows
                                  if ', concurrency ' in r['case']))
    for n in sizes:
        for case in ['create, share_provision role', 'create, shares module (no Ansible)'] + [
                Bench.role_case('create', c) for c in role_concurrency]:
            row = row_of(rows, case, n)
            if row and row['vs_floor']:
                lines.append(('%s %d: within 1.2x of the floor' % (case, n),
                              row['vs_floor'] <= 1.2, '%.2fx (%.1f s vs %.1f s)' % (
                                  row['vs_floor'], row['seconds'], row['seconds'] / row['vs_floor'])))
        floor = row_of(rows, 'floor: no-op check (plain API calls)', n)
        for case in ['no-op check, share_provision role', 'no-op check, shares module (no Ansible)'] + [
                Bench.role_case('no-op check', c) for c in role_concurrency]:
            row = row_of(rows, case, n)
            if row and floor:
                limit = 1.3 * floor['seconds'] + (ansible_start or 0)
                lines.append(('%s %d: within 1.3x floor + one task start' % (case, n),
                              row['seconds'] <= limit, '%.1f s vs %.1f s (1.3 x %.1f + %.1f)' % (
                                  row['seconds'], limit, floor['seconds'], ansible_start or 0)))
        for case in ('no-op check, share_provision role', 'no-op check, shares module (no Ansible)'):
            row = row_of(rows, case, n)
            if row:
                lines.append(('%s %d: at most N+5 = %d Manila requests' % (case, n, n + 5),
                              row['manila'] <= n + 5, '%d' % row['manila']))
    for row in rows:
        if 'projects x' in row['case'] and row['vs_floor']:
            lines.append(('%s: within 1.2x of the floor for %d shares' % (row['case'], row['n']),
                          row['vs_floor'] <= 1.2,
                          '%.2fx (%.1f s)' % (row['vs_floor'], row['seconds'])))
    for row in rows:
        if row['peak_mb'] and not row['case'].startswith('floor'):
            if row['peak_mb'] >= 200:
                lines.append(('%s %d: module under 200 MB' % (row['case'], row['n']), False,
                              '%.0f MB' % row['peak_mb']))
    peaks = [r['peak_mb'] for r in rows if r['peak_mb'] and not r['case'].startswith('floor')]
    if peaks:
        lines.append(('every module process under 200 MB', max(peaks) < 200,
                      'peak %.0f MB' % max(peaks)))
    return lines


def quick_budget(rows):
    """--quick: each budgeted count of each case against QUICK_BUDGET."""
    lines = []
    for case, budget in sorted(QUICK_BUDGET.items()):
        row = row_of(rows, case, QUICK_N)
        if row is None:
            lines.append(('%s: measured' % case, False, 'no row'))
            continue
        for field, most in sorted(budget.items()):
            if field == 'writes':
                lines.append(('%s: exactly %d writes' % (case, most), row[field] == most,
                              '%d' % row[field]))
            else:
                lines.append(('%s: at most %d %s' % (case, most, field), row[field] <= most,
                              '%d' % row[field]))
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--sizes', default='20,100')
    parser.add_argument('--cloud', default='member')
    parser.add_argument('--runs', type=int, default=3)
    parser.add_argument('--creates-up-to', type=int, default=20)
    parser.add_argument('--forms', default='role',
                        help='forms besides the floor and the module: role, tasks, cli')
    parser.add_argument('--quick', action='store_true',
                        help='20 shares, module and floor, request counts against the budget')
    parser.add_argument('--projects', help='clouds of clouds.yaml, one per project (comma-'
                        'separated): the role across them with forks = projects, N = --sizes '
                        'shares each, against the floor for all of them in the first one')
    parser.add_argument('--timeout', type=int,
                        help='share_provision_timeout for the role (its default: 180 s for '
                        'each wait of each share; 1,000 shares may queue longer)')
    parser.add_argument('--clouds-yaml',
                        help='the clouds.yaml to use (default: the local cloud\'s); '
                        'the projects of `manila-cloud bench-projects N` are in its '
                        'clouds-bench.yaml')
    parser.add_argument('--log-dir', help='write the requests of each case there (JSON)')
    parser.add_argument('--role-concurrency', default='',
                        help='the role once more with each share_provision_concurrency given '
                        '(comma-separated, e.g. 8), beside the module\'s default')
    parser.add_argument('--role-concurrency-first', action='store_true',
                        help='create with the --role-concurrency values before the default')
    options = parser.parse_args()
    forms = [f for f in options.forms.split(',') if f]
    sizes = [int(n) for n in options.sizes.split(',')]
    role_concurrency = [int(c) for c in options.role_concurrency.split(',') if c]
    if options.quick:
        forms, sizes, options.runs = [], [QUICK_N], 1
    bench = Bench(options)
    print('prefix %s, cloud %s' % (bench.prefix, bench.cloud))
    print('%-44s %5s %5s %6s %8s %7s %8s %7s %6s' % (
        'case', 'N', 'procs', 'tokens', 'keystone', 'manila', 'seconds', 'peak MB', 'floor'))
    failed = False
    ansible_start = None
    try:
        if 'role' in forms:
            ansible_start = bench.ansible_start()
        if options.projects:
            for n in sizes:
                bench.projects(options.projects.split(','), n)
            sizes = []
        for n in sizes:
            if not options.quick:
                prefix = bench.create_floor(n, 'f%d' % n)
                bench.check_floor(prefix, n)
            if 'role' in forms:
                # the creates one after the other (the machine's load changes: run
                # again with --role-concurrency-first to see the other order)
                order = [None] + role_concurrency
                if options.role_concurrency_first:
                    order = role_concurrency + [None]
                created = {}
                for concurrency in order:
                    created[concurrency] = bench.create_role(n, 'r%d' % n if concurrency is None else
                                                             'r%dc%d' % (n, concurrency), concurrency)
                for concurrency in role_concurrency:
                    bench.check_role(created[concurrency], concurrency)
                shares = created[None]
            else:
                shares = bench.create_fleet(n, 'n%d' % n)
            if options.quick:
                bench.check_floor('%sn%d-' % (bench.prefix, n), n)
            if 'role' in forms:
                bench.check_role(shares)
            bench.check_fleet(shares)
            if 'tasks' in forms:
                bench.check_tasks(shares)
            if 'cli' in forms:
                bench.check_cli(shares)
            bench.delete_all()
            if n <= options.creates_up_to and 'tasks' in forms:
                bench.create_tasks(n, 't%d' % n)
                bench.delete_all()
            if n <= options.creates_up_to and 'cli' in forms:
                bench.create_cli(n, 'c%d' % n)
                bench.delete_all()
    finally:
        bench.delete_all()
    print()
    checks = quick_budget(bench.rows) if options.quick else (
        goals(bench.rows) + goals_27(bench.rows, ansible_start))
    for goal, met, measured_value in checks:
        failed = failed or not met
        print('%-70s %-6s %s' % (goal, 'met' if met else 'MISSED', measured_value))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
