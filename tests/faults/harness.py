# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the fault, bad-input and secrets tests share: the local cloud, a
clouds.yaml that routes through a FaultProxy, running a module the way
Ansible does (one process per task) while recording every request it sends,
and an admin view of Manila that bypasses the proxy (to count shares and to
clean up).

Environment: ``OPENKEEL_CLOUD_DIR`` (the local cloud, default
/var/tmp/openkeel-manila-cloud); ``OPENKEEL_FAULTS_COLLECTION`` (the
collection to test, default this checkout: point it at another checkout to
measure that one); ``OPENKEEL_FAULTS_REPORT`` (a file that gets one JSON line
per fault case with its first-run outcome).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import subprocess
import sys
import tempfile
import time
import uuid

import yaml

from urllib.parse import urlsplit

from keystoneauth1 import session as ksa_session
from openstack import config as sdk_config

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CLOUD_DIR = os.environ.get('OPENKEEL_CLOUD_DIR') or '/var/tmp/openkeel-manila-cloud'
CLOUDS_YAML = os.path.join(CLOUD_DIR, 'clouds.yaml')
COLLECTION = os.environ.get('OPENKEEL_FAULTS_COLLECTION') or REPO


def _ports():
    """Keystone's and Manila's ports: the cloud's settings.json, else the defaults."""
    try:
        with open(os.path.join(CLOUD_DIR, 'settings.json')) as handle:
            settings = json.load(handle)
    except (IOError, OSError, ValueError):
        settings = {}
    return settings.get('keystone_port', 5000), settings.get('manila_port', 8786)


KEYSTONE = 'http://127.0.0.1:%d' % _ports()[0]
MANILA = 'http://127.0.0.1:%d' % _ports()[1]
HEADERS = {'X-OpenStack-Manila-API-Version': '2.65', 'Accept': 'application/json'}
MODULE_TIMEOUT = 300

# Runs one module file with keystoneauth's Session.request wrapped, so every
# request the module sends (Keystone and Manila) lands in a JSON-lines log.
RUNNER = r'''
import json, runpy, sys, time
from keystoneauth1 import session
log_path, module_path, args_path = sys.argv[1], sys.argv[2], sys.argv[3]
original = session.Session.request
def recorded(self, url, method, *args, **kwargs):
    started = time.time()
    status = error = None
    try:
        response = original(self, url, method, *args, **kwargs)
        status = getattr(response, 'status_code', None)
        return response
    except Exception as exc:
        error = type(exc).__name__
        raise
    finally:
        body = kwargs.get('json')
        key = next(iter(body)) if isinstance(body, dict) and len(body) == 1 else None
        with open(log_path, 'a') as log:
            log.write(json.dumps({'method': method, 'url': url, 'status': status,
                                  'error': error, 'body_key': key, 'time': started}) + '\n')
session.Session.request = recorded
sys.argv = [module_path, args_path]
runpy.run_path(module_path, run_name='__main__')
'''


def unique(prefix='flt'):
    return '%s-%s' % (prefix, uuid.uuid4().hex[:8])


def load_clouds():
    with open(CLOUDS_YAML) as handle:
        return yaml.safe_load(handle)['clouds']


def collections_path():
    """A directory holding ansible_collections/openkeel/manila -> the collection."""
    root = tempfile.mkdtemp(prefix='okfaults-coll-')
    os.makedirs(os.path.join(root, 'ansible_collections', 'openkeel'))
    os.symlink(COLLECTION, os.path.join(root, 'ansible_collections', 'openkeel', 'manila'))
    return root


def write_clouds_yaml(directory, proxy=None, api_timeout=None):
    """The local cloud's clouds.yaml, routed through ``proxy`` when given
    (Keystone's auth_url and Manila's endpoint override point at it)."""
    clouds = load_clouds()
    for cloud in clouds.values():
        if proxy is not None:
            cloud['auth']['auth_url'] = proxy.urls['keystone'] + '/v3'
            cloud['shared_file_system_endpoint_override'] = proxy.urls['manila'] + '/v2'
        if api_timeout:
            cloud['api_timeout'] = api_timeout
    path = os.path.join(directory, 'clouds-%s.yaml' % uuid.uuid4().hex[:6])
    with open(path, 'w') as handle:
        yaml.safe_dump({'clouds': clouds}, handle)
    return path


class Run(object):
    """One module run: its result, the requests it sent, its duration."""

    def __init__(self, result, requests, seconds, stderr):
        self.result = result
        self.requests = requests
        self.seconds = seconds
        self.stderr = stderr

    @property
    def failed(self):
        return bool(self.result.get('failed'))

    @property
    def msg(self):
        return self.result.get('msg') or ''

    @property
    def warnings(self):
        """The warnings' texts (ansible-core 2.19 returns them as dicts)."""
        texts = []
        for warning in self.result.get('warnings') or []:
            if isinstance(warning, dict):
                event = warning.get('event') if isinstance(warning.get('event'), dict) else warning
                warning = event.get('msg') or event.get('message') or json.dumps(warning)
            texts.append(warning)
        return texts

    def manila_requests(self):
        """The requests to Manila (Keystone's paths start with /v3)."""
        return [r for r in self.requests if not urlsplit(r['url']).path.startswith('/v3')]

    def writes(self):
        """Every write the module sent (or tried to send) to Manila."""
        return [r for r in self.manila_requests() if r['method'] not in ('GET', 'HEAD')]

    def outcome(self):
        """The first-run figure: converged (changed or not) or failed, and why."""
        if self.failed:
            return 'fails: %s' % self.msg
        return 'converges%s' % (' (warning: %s)' % ' | '.join(self.warnings)
                                if self.warnings else '')

    def __repr__(self):
        return 'Run(%s)' % json.dumps(self.result, default=str)[:3000]


def run_module(coll_path, module, args, clouds_yaml=CLOUDS_YAML, cloud='admin',
               check_mode=False, env=None):
    """Run ``module`` as Ansible does (a process of its own, arguments in a file)."""
    fd, log_path = tempfile.mkstemp(prefix='okfaults-log-')
    os.close(fd)
    fd, args_path = tempfile.mkstemp(prefix='okfaults-args-')
    module_args = dict(args)
    if cloud is not None:
        module_args.setdefault('cloud', cloud)
    if check_mode:
        module_args['_ansible_check_mode'] = True
    with os.fdopen(fd, 'w') as handle:
        json.dump({'ANSIBLE_MODULE_ARGS': module_args}, handle)
    run_env = dict(os.environ, PYTHONPATH=coll_path, OS_CLIENT_CONFIG_FILE=clouds_yaml)
    run_env.update(env or {})
    module_path = os.path.join(COLLECTION, 'plugins', 'modules', module + '.py')
    started = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, '-c', RUNNER, log_path, module_path, args_path],
                              env=run_env, capture_output=True, text=True, check=False,
                              timeout=MODULE_TIMEOUT)
        stdout, stderr = proc.stdout, proc.stderr
    finally:
        os.unlink(args_path)
    seconds = time.monotonic() - started
    with open(log_path) as handle:
        requests = [json.loads(line) for line in handle if line.strip()]
    os.unlink(log_path)
    result = None
    for line in reversed(stdout.strip().splitlines()):
        try:
            result = json.loads(line)
            break
        except ValueError:
            continue
    if not isinstance(result, dict):
        result = {'failed': True, 'msg': 'MODULE CRASH: %s' % (stderr or stdout)[-3000:]}
    return Run(result, requests, seconds, stderr)


class Admin(object):
    """Manila as the admin sees it, straight, without the proxy."""

    def __init__(self, cloud='admin'):
        loader = sdk_config.OpenStackConfig(config_files=[CLOUDS_YAML], vendor_files=[])
        self.session = loader.get_one(cloud=cloud).get_session()
        assert isinstance(self.session, ksa_session.Session)

    def call(self, method, path, headers=None, **kwargs):
        return self.session.request(MANILA + '/v2/' + path.lstrip('/'), method,
                                    headers=dict(HEADERS, **(headers or {})),
                                    raise_exc=False, **kwargs)

    def shares(self, name=None, prefix=None):
        """Shares of every project named ``name`` (or starting with ``prefix``)."""
        query = {'all_tenants': '1'}
        if name:
            query['name'] = name
        if prefix:
            query['name~'] = prefix
        answer = self.call('GET', 'shares/detail', params=query)
        assert answer.status_code == 200, answer.text
        found = answer.json()['shares']
        if name:
            found = [s for s in found if s.get('name') == name]
        if prefix:
            found = [s for s in found if (s.get('name') or '').startswith(prefix)]
        return found

    def live_shares(self, name):
        return [s for s in self.shares(name=name)
                if s['status'] not in ('deleting', 'deferred_deleting', 'deleted')]

    def share(self, share_id):
        answer = self.call('GET', 'shares/%s' % share_id)
        return answer.json()['share'] if answer.status_code == 200 else None

    def rules(self, share_id):
        answer = self.call('GET', 'share-access-rules', params={'share_id': share_id},
                           headers={'X-OpenStack-Manila-API-Version': '2.65'})
        assert answer.status_code == 200, answer.text
        return answer.json()['access_list']

    def named(self, listing, key, name):
        """Every resource of a listing (``snapshots/detail``, ...) named ``name``,
        in every project, without those on their way out."""
        answer = self.call('GET', listing, params={'all_tenants': '1', 'name': name})
        assert answer.status_code == 200, answer.text
        return [r for r in answer.json()[key] if r.get('name') == name
                and r.get('status') not in ('deleting', 'deferred_deleting', 'deleted')]

    def remove_named(self, listing, key, item, name, timeout=120):
        """Delete every resource named ``name`` (``item``: its path with %s for
        the ID) and wait until they are gone."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            left = self.named(listing, key, name)
            if not left:
                return
            for resource in left:
                if resource.get('status') not in ('creating',):
                    self.call('DELETE', item % resource['id'])
            time.sleep(1)

    def create(self, name, size=1, wait=True):
        answer = self.call('POST', 'shares', json={'share': {
            'name': name, 'size': size, 'share_proto': 'NFS'}})
        assert answer.status_code == 200, answer.text
        share = answer.json()['share']
        return self.wait(share['id']) if wait else share

    def wait(self, share_id, statuses=('available',), timeout=180):
        deadline = time.monotonic() + timeout
        while True:
            share = self.share(share_id)
            if share is None or share['status'] in statuses or 'error' in share['status']:
                return share
            if time.monotonic() > deadline:
                return share
            time.sleep(0.5)

    def cleanup(self, prefix, timeout=180):
        """Delete every share whose name starts with ``prefix`` (once it is at rest)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            left = [s for s in self.shares(prefix=prefix)
                    if s['status'] not in ('deleting', 'deferred_deleting')]
            if not left:
                return
            for share in left:
                if share['status'] in ('creating', 'extending', 'shrinking'):
                    continue
                self.call('POST', 'shares/%s/action' % share['id'],
                          json={'force_delete': None})
            time.sleep(1)


def report(case, first, second=None):
    """Add the figures of a fault case to OPENKEEL_FAULTS_REPORT: the first
    run's outcome (a Run, or words), and the second's."""
    path = os.environ.get('OPENKEEL_FAULTS_REPORT')
    if not path:
        return
    line = {'case': case, 'collection': COLLECTION,
            'first_run': first.outcome() if isinstance(first, Run) else first}
    if isinstance(first, Run):
        line['seconds'] = round(first.seconds, 1)
    if second is not None:
        line['second_run'] = second.outcome() if isinstance(second, Run) else second
    with open(path, 'a') as handle:
        handle.write(json.dumps(line) + '\n')
