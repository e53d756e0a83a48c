# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The floor: the fleet's work as plain API calls, no Ansible, no collection.

    python tests/benchmarks/floor.py --cloud member create PREFIX N
    python tests/benchmarks/floor.py --cloud member check PREFIX N

What the fastest client could do on this cloud, for tests/benchmarks/fleet.py
to measure every case against in the same run. One keystoneauth session (one
token), the versions document read once, at most CONCURRENCY requests in
flight, every share in a thread of its own:

- create: N shares named PREFIX000... (1 GiB, NFS, the default type), each
  with the two rules of fleet.py's shares(): POST the share, wait until it is
  available, then each rule: allow it, wait until the share's
  access_rules_status is active again (Manila may lose a rule change that
  reaches it during a sync, so a careful client sends them one at a time).
  Every wait is one poller thread listing the shares of the prefix every
  0.5 s (one listing serves every waiting share).
- check: one listing of the project's shares, then the export locations and
  the access rules of each share of the prefix (verified: two rules, active;
  a path to mount).

Prints one JSON line: {"seconds": ..., "shares": N}. The requests are counted
by counting/sitecustomize.py when fleet.py starts this with it on PYTHONPATH.
"""

from __future__ import absolute_import, division, print_function

import argparse
import json
import os
import sys
import threading
import time

import openstack.config

CONCURRENCY = 8
POLL = 0.5
TIMEOUT = 1800    # each wait; 1,000 shares queue behind each other in Manila
VERSION_HEADER = 'X-OpenStack-Manila-API-Version'


def rules_of(index):
    """The two rules of share ``index`` (as fleet.py's Bench.shares gives them)."""
    return [{'access_type': 'ip', 'access_to': '10.%d.%d.0/24' % (index // 200, index % 200),
             'access_level': 'rw'},
            {'access_type': 'ip', 'access_to': '10.%d.%d.1' % (100 + index // 200, index % 200),
             'access_level': 'ro'}]


class Floor(object):
    def __init__(self, cloud):
        config = openstack.config.OpenStackConfig().get_one(cloud=cloud)
        self.session = config.get_session()
        self.endpoint = self.session.get_endpoint(service_type='sharev2',
                                                  interface='public').rstrip('/')
        self.slots = threading.BoundedSemaphore(CONCURRENCY)
        root = self.endpoint.rsplit('/v2', 1)[0] + '/'
        versions = self.session.request(root, 'GET', authenticated=False,
                                        raise_exc=False).json()['versions']
        self.version = [v for v in versions if v['id'] == 'v2.0'][0]['version']
        self.shares = {}
        self.changed = threading.Condition()
        self.started = 0    # listings the poller has started
        self.seen = -1      # the last listing that came back (by its start number)
        self.done = False

    def call(self, method, path, body=None, ok=(200, 201, 202)):
        """One request at the negotiated version (retried on 413/429/503 with Retry-After)."""
        for _attempt in range(10):
            with self.slots:
                response = self.session.request(
                    self.endpoint + path, method, json=body, raise_exc=False,
                    headers={VERSION_HEADER: self.version, 'Accept': 'application/json'})
            if response.status_code in ok:
                return response.json() if response.content else {}
            if response.status_code in (413, 429, 503):
                time.sleep(float(response.headers.get('Retry-After') or 1))
                continue
            raise RuntimeError('%s %s: %s %s' % (method, path, response.status_code,
                                                 response.text[:300]))
        raise RuntimeError('%s %s: still refused after 10 tries' % (method, path))

    # -- waiting: one poller for every share ------------------------------------
    def poll(self, prefix):
        while not self.done:
            with self.changed:
                number = self.started
                self.started += 1
            listing = self.call('GET', '/shares/detail?name~=%s' % prefix)['shares']
            with self.changed:
                self.shares = dict((s['id'], s) for s in listing)
                self.seen = number
                self.changed.notify_all()
            time.sleep(POLL)

    def wait(self, share_id, ready):
        """The share as a listing started after this call shows it, once ``ready``."""
        deadline = time.monotonic() + TIMEOUT
        with self.changed:
            after = self.started
            while True:
                share = self.shares.get(share_id) if self.seen >= after else None
                if share is not None and share['status'] == 'error':
                    raise RuntimeError('share %s went to error' % share_id)
                if share is not None and ready(share):
                    return share
                if time.monotonic() > deadline:
                    raise RuntimeError('share %s: timed out' % share_id)
                self.changed.wait(5)

    # -- the work ---------------------------------------------------------------
    def create_one(self, name, index, errors):
        try:
            share = self.call('POST', '/shares', {'share': {
                'name': name, 'size': 1, 'share_proto': 'NFS'}})['share']
            self.wait(share['id'], lambda s: s['status'] == 'available')
            for rule in rules_of(index):
                # The allow sets the share syncing: the wait reads listings after it.
                self.call('POST', '/shares/%s/action' % share['id'], {'allow_access': rule})
                self.wait(share['id'], lambda s: s['access_rules_status'] == 'active')
        except RuntimeError as exc:
            errors.append(str(exc))

    def create(self, prefix, count):
        errors = []
        poller = threading.Thread(target=self.poll, args=(prefix,), daemon=True)
        poller.start()
        threads = [threading.Thread(target=self.create_one, args=(
            '%s%03d' % (prefix, i), i, errors)) for i in range(count)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.done = True
        poller.join()
        return errors

    def check_one(self, share, index, errors):
        try:
            locations = self.call('GET', '/shares/%s/export_locations' % share['id'])
            rules = self.call('GET', '/share-access-rules?share_id=%s' % share['id'])
            paths = [loc['path'] for loc in locations['export_locations']
                     if not loc.get('is_admin_only')]
            got = sorted((r['access_to'], r['access_level']) for r in rules['access_list']
                         if r['state'] == 'active')
            want = sorted((r['access_to'], r['access_level']) for r in rules_of(index))
            if got != want or not paths:
                errors.append('%s: rules %s, paths %s' % (share['name'], got, paths))
        except RuntimeError as exc:
            errors.append(str(exc))

    def check(self, prefix, count):
        errors = []
        listing = self.call('GET', '/shares/detail')['shares']
        by_name = dict((s['name'], s) for s in listing)
        threads = []
        for index in range(count):
            share = by_name.get('%s%03d' % (prefix, index))
            if share is None:
                errors.append('%s%03d is missing' % (prefix, index))
                continue
            threads.append(threading.Thread(target=self.check_one,
                                            args=(share, index, errors)))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--cloud', default='member')
    parser.add_argument('work', choices=['create', 'check'])
    parser.add_argument('prefix')
    parser.add_argument('count', type=int)
    options = parser.parse_args()
    os.environ.setdefault('OS_CLIENT_CONFIG_FILE', os.path.join(os.environ.get(
        'OPENKEEL_CLOUD_DIR', '/var/tmp/openkeel-manila-cloud'), 'clouds.yaml'))
    started = time.monotonic()
    floor = Floor(options.cloud)
    errors = getattr(floor, options.work)(options.prefix, options.count)
    print(json.dumps({'seconds': time.monotonic() - started, 'shares': options.count,
                      'errors': errors}))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
