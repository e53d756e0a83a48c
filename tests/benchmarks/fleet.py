# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Many shares, side by side: the CLI loop, a task per share, the fleet module.

    python tests/benchmarks/fleet.py [--sizes 20,100] [--cloud member] [--runs 3]
                                     [--creates-up-to 20] [--forms cli,tasks,fleet]

For each N of --sizes: N shares with two access rules each are created with
openkeel.manila.shares (one process), then the same no-op check is timed three
ways: python-manilaclient's CLI loop (``openstack share show NAME`` and
``openstack share access list NAME`` per share, as the seed's scripts do), one
openkeel.manila.share + openkeel.manila.share_access task per share (a process
each, as Ansible runs a loop), and one openkeel.manila.shares task. Creating N
shares with their rules is timed with the fleet module for every N and with the
other two forms for N up to --creates-up-to (they take minutes). Each row
gives the processes started, the Keystone tokens issued, the requests to
Keystone and to Manila, and the seconds (median of --runs for the fleet
no-op, one run otherwise). Then the goals of issue 12 are checked.

Everything created carries a per-run name prefix; what the fleet made also a
marker, and all of it is deleted at the end (also after a failure). Needs the
local cloud (tests/cloud/manila-cloud up) and a Python with ansible-core and
openstacksdk, e.g. /var/tmp/openkeel-manila-venv/bin/python.
"""

from __future__ import absolute_import, division, print_function

import argparse
import importlib
import os
import random
import statistics
import string
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def budget_helpers():
    """request_budget.py beside this file: its counting runners."""
    if HERE not in sys.path:
        sys.path.insert(0, HERE)
    return importlib.import_module('request_budget')


class Bench(object):
    def __init__(self, options):
        self.helpers = budget_helpers()
        self.root = self.helpers.collection_path()
        self.cloud = options.cloud
        self.runs = options.runs
        self.prefix = 'bench-fleet-%s-' % ''.join(random.choice(string.ascii_lowercase)
                                                  for _n in range(5))
        self.marker = {'key': 'openkeel-bench', 'value': self.prefix}
        self.rows = []
        self.names = []

    # -- what is measured ----------------------------------------------------------
    def shares(self, n, group):
        """N shares with two rules each (one read-write network, one read-only host)."""
        return [{'name': '%s%s-%03d' % (self.prefix, group, i), 'size': 1, 'share_proto': 'NFS',
                 'access_rules': [
                     {'access_type': 'ip', 'access_to': '10.%d.%d.0/24' % (i // 200, i % 200)},
                     {'access_type': 'ip', 'access_to': '10.%d.%d.1' % (100 + i // 200, i % 200),
                      'access_level': 'ro'}]} for i in range(n)]

    def module(self, module, args, allow_failure=False):
        requests, seconds, result = self.helpers.run_module(
            self.root, module, args, cloud=self.cloud, allow_failure=allow_failure)
        return requests, seconds, result

    def cli(self, *args):
        try:
            return self.helpers.run_cli(list(args), cloud=self.cloud)
        except subprocess.CalledProcessError as exc:
            # The shared cloud may restart under us: say so, and try once more.
            print('    %s failed (%s); once more' % (' '.join(args), exc.returncode), flush=True)
            time.sleep(5)
            return self.helpers.run_cli(list(args), cloud=self.cloud)

    def record(self, case, n, processes, requests, seconds):
        keystone = [r for r in requests if ':5000/' in r[1]]
        tokens = [r for r in keystone if r[0] == 'POST' and r[1].endswith('/auth/tokens')]
        manila = [r for r in requests if ':5000/' not in r[1]]
        row = dict(case=case, n=n, processes=processes, tokens=len(tokens),
                   keystone=len(keystone), manila=len(manila), seconds=seconds)
        self.rows.append(row)
        print('%-40s %5d %9d %6d %8d %7d %8.1f' % (
            case, n, processes, row['tokens'], row['keystone'], row['manila'], seconds), flush=True)
        return row

    def fleet(self, shares, **extra):
        args = dict(shares=shares, marker=self.marker, **extra)
        return self.module('shares', args)

    def create_fleet(self, n, group):
        shares = self.shares(n, group)
        self.names.extend(s['name'] for s in shares)
        requests, seconds, result = self.fleet(shares)
        assert result['changed'] and not result.get('failed'), result.get('msg')
        self.record('create, fleet (1 task)', n, 1, requests, seconds)
        return shares

    def create_tasks(self, n, group):
        shares = self.shares(n, group)
        self.names.extend(s['name'] for s in shares)
        requests, started = [], time.monotonic()
        for share in shares:
            rules = share.pop('access_rules')
            requests += self.module('share', share)[0]
            requests += self.module('share_access', {'share': share['name'], 'rules': rules})[0]
        self.record('create, share + share_access per share', n, 2 * n, requests,
                    time.monotonic() - started)

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
        self.record('create, CLI loop', n, processes, requests, time.monotonic() - started)

    def check_cli(self, shares):
        requests, started = [], time.monotonic()
        for share in shares:
            requests += self.cli('share', 'show', share['name'])[0]
            requests += self.cli('share', 'access', 'list', share['name'])[0]
        return self.record('no-op check, CLI loop', len(shares), 2 * len(shares), requests,
                           time.monotonic() - started)

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
                           2 * len(shares), requests, time.monotonic() - started)

    def check_fleet(self, shares):
        times = []
        for _run in range(self.runs):
            requests, seconds, result = self.fleet(shares)
            assert not result['changed'] and not result.get('failed'), result.get('msg')
            times.append(seconds)
        return self.record('no-op check, fleet (1 task)', len(shares), 1, requests,
                           statistics.median(times))

    # -- cleaning up -------------------------------------------------------------
    def delete_all(self):
        """Delete every share this run created (by name), in one fleet task."""
        if not self.names:
            return
        gone = [{'name': name, 'state': 'absent'} for name in self.names]
        requests, seconds, result = self.module('shares', {'shares': gone}, allow_failure=True)
        if result.get('failed'):
            print('cleanup left shares behind: %s' % result.get('msg'))
            return
        self.record('delete, fleet (1 task)', len(gone), 1, requests, seconds)
        self.names = []


def goals(rows):
    """The goals of issue 12, from the rows."""
    def row(case, n):
        for item in rows:
            if item['case'] == case and item['n'] == n:
                return item
        return None

    lines = []
    cli, fleet = row('no-op check, CLI loop', 20), row('no-op check, fleet (1 task)', 20)
    if cli and fleet:
        ratio = cli['seconds'] / fleet['seconds']
        lines.append(('no-op of 20: >= 20x faster than the CLI loop', ratio >= 20,
                      '%.1fx (%.1f s vs %.1f s)' % (ratio, cli['seconds'], fleet['seconds'])))
    for n in (20, 100):
        fleet = row('no-op check, fleet (1 task)', n)
        if fleet:
            lines.append(('no-op of %d: at most 2N+5 = %d Manila requests' % (n, 2 * n + 5),
                          fleet['manila'] <= 2 * n + 5, '%d' % fleet['manila']))
    fleet = row('no-op check, fleet (1 task)', 100)
    if fleet:
        met = fleet['seconds'] < 5 and fleet['tokens'] == 1
        lines.append(('no-op of 100: under 5 s, one token', met,
                      '%.1f s, %d token(s)' % (fleet['seconds'], fleet['tokens'])))
    one, twenty = row('create, fleet (1 task)', 1), row('create, fleet (1 task)', 20)
    if one and twenty:
        ratio = twenty['seconds'] / one['seconds']
        lines.append(('create 20 within 3x the time of one', ratio <= 3,
                      '%.1f s vs %.1f s (%.1fx)' % (twenty['seconds'], one['seconds'], ratio)))
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--sizes', default='20,100')
    parser.add_argument('--cloud', default='member')
    parser.add_argument('--runs', type=int, default=3)
    parser.add_argument('--creates-up-to', type=int, default=20)
    parser.add_argument('--forms', default='cli,tasks,fleet',
                        help='which forms besides the fleet module to measure (cli, tasks)')
    options = parser.parse_args()
    forms = options.forms.split(',')
    sizes = [int(n) for n in options.sizes.split(',')]
    bench = Bench(options)
    print('prefix %s, cloud %s' % (bench.prefix, bench.cloud))
    print('%-40s %5s %9s %6s %8s %7s %8s' % (
        'case', 'N', 'processes', 'tokens', 'keystone', 'manila', 'seconds'))
    failed = False
    try:
        bench.create_fleet(1, 'one')
        bench.delete_all()
        for n in sizes:
            shares = bench.create_fleet(n, 'n%d' % n)
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
    for goal, met, measured in goals(bench.rows):
        failed = failed or not met
        print('%-50s %-4s %s' % (goal, 'met' if met else 'MISSED', measured))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
