"""Tests of the local cloud that tests/cloud/manila-cloud brings up.

Run after `tests/cloud/manila-cloud up`, with a Python that has
openstacksdk, keystoneauth1, PyYAML and pytest (tools/test cloud uses the
test venv):

    OPENKEEL_CLOUD_DIR=... python -m pytest tests/cloud/test_cloud.py

Every test cleans up what it makes, also when it fails.
"""

import json
import os
import subprocess
import time
import uuid

import pytest
import yaml
from openstack import config as os_config

HERE = os.path.dirname(os.path.abspath(__file__))
STATE = os.environ.get('OPENKEEL_CLOUD_DIR') or '/var/tmp/openkeel-manila-cloud'
CLOUDS_YAML = os.path.join(STATE, 'clouds.yaml')
# The clouds NAME-paged alone (clouds.yaml has them too): they reach the
# second Manila API, whose osapi_max_limit is PAGED_LIMIT.
PAGED_CLOUDS_YAML = os.path.join(STATE, 'clouds-paged.yaml')
# The clouds of the benchmark projects (manila-cloud bench-projects N).
BENCH_CLOUDS_YAML = os.path.join(STATE, 'clouds-bench.yaml')
PAGED_LIMIT = 5
REQUEST_LOG = os.path.join(STATE, 'logs', 'manila-requests.log')
POOL_ALPHA = 'openkeel@alpha#fake_pool_for_ALPHA'
POOL_GAMMA = 'openkeel@gamma#fake_pool_for_GAMMA'
POOL_BETA = 'openkeel@beta#fake_pool_for_BETA'
# replicas without the experimental header (2.56+)
REPLICA_VERSION = '2.56'
MICROVERSION = '2.65'
DEADLINE = 120
# The Dummy driver's upstream delay of create_share alone: a share on a
# backend with realistic delays cannot be available sooner.
REALISTIC_CREATE_DELAY = 3.98


def clouds():
    with open(CLOUDS_YAML) as f:
        return yaml.safe_load(f)['clouds']


def lanes():
    """The lanes of the last `up` (lanes.json keeps the users of every lane a
    larger `up` once made; clouds.yaml has only those of the last one)."""
    with open(os.path.join(STATE, 'settings.json')) as f:
        count = json.load(f)['lanes']
    with open(os.path.join(STATE, 'data', 'lanes.json')) as f:
        return {int(k): v for k, v in json.load(f).items() if int(k) <= count}


class Cloud:
    """A keystoneauth session of one cloud of clouds.yaml and its Manila URL."""

    def __init__(self, name, clouds_yaml=CLOUDS_YAML):
        loader = os_config.OpenStackConfig(config_files=[clouds_yaml],
                                           vendor_files=[])
        region = loader.get_one(cloud=name)
        self.sess = region.get_session()
        self.url = (region.config.get('shared_file_system_endpoint_override')
                    or self.sess.get_endpoint(service_type='sharev2',
                                              interface='public')).rstrip('/')
        self.project_id = self.sess.get_project_id()

    def call(self, method, path, version=MICROVERSION, **kwargs):
        headers = {'X-OpenStack-Manila-API-Version': version}
        return self.sess.request(self.url + path, method, headers=headers,
                                 raise_exc=False, **kwargs)

    def ok(self, method, path, status=(200,), **kwargs):
        resp = self.call(method, path, **kwargs)
        assert resp.status_code in status, '%s %s -> %s %s' % (
            method, path, resp.status_code, resp.text)
        return resp.json() if resp.content else None

    def wait(self, path, key, want):
        """Poll path until its key's status is want (None: until 404)."""
        deadline = time.monotonic() + DEADLINE
        while True:
            resp = self.call('GET', path)
            if want is None and resp.status_code == 404:
                return None
            assert resp.status_code == 200, resp.text
            item = resp.json()[key]
            if want is not None and item['status'] == want:
                return item
            assert want == 'error' or 'error' not in item['status'], item
            assert time.monotonic() < deadline, (
                '%s still %s after %d s' % (path, item['status'], DEADLINE))
            time.sleep(0.1)

    def send_delete(self, path):
        """DELETE path; while Manila refuses it because the item is still busy
        (a share still creating on a loaded machine), ask again."""
        deadline = time.monotonic() + DEADLINE
        while True:
            resp = self.call('DELETE', path)
            busy = resp.status_code in (400, 403) and 'status must be' in resp.text
            if not busy or time.monotonic() > deadline:
                assert resp.status_code in (202, 204, 404), resp.text
                return
            time.sleep(0.2)

    def delete(self, path, key):
        """Delete if it exists, and wait until it is gone."""
        self.send_delete(path)
        self.wait(path, key, None)


def delete_all(cloud, items):
    """Delete (path, key) items, all at once, and wait until all are gone."""
    for item in items:
        cloud.send_delete(item[0])
    for path, key in items:
        cloud.wait(path, key, None)


def name(what):
    return 'openkeel-cloud-selftest-%s-%s' % (what, uuid.uuid4().hex[:8])


def create_share(cloud, **share):
    body = dict({'name': name('share'), 'share_proto': 'NFS', 'size': 1},
                **share)
    return cloud.ok('POST', '/shares', json={'share': body})['share']['id']


def create_alpha_gamma_default(admin):
    """Seconds until a share on alpha, one on gamma and one of the default
    type, created together, are available: {'alpha': s, 'gamma': s, None: s}."""
    started = time.monotonic()
    shares = {t: create_share(admin, **({'share_type': t} if t else {}))
              for t in ('alpha', 'gamma', None)}
    took = {}
    try:
        while len(took) < len(shares):
            for share_type, share_id in shares.items():
                if share_type in took:
                    continue
                share = admin.ok('GET', '/shares/' + share_id)['share']
                assert 'error' not in share['status'], share
                if share['status'] == 'available':
                    took[share_type] = time.monotonic() - started
                    assert share['share_type_name'] == (share_type
                                                        or 'default')
                    assert share['size'] == 1
                    assert share['host'] == (
                        POOL_ALPHA if share_type == 'alpha' else POOL_GAMMA)
            assert time.monotonic() - started < DEADLINE, took
            time.sleep(0.1)
    finally:
        delete_all(admin, [('/shares/' + i, 'share')
                           for i in shares.values()])
    return took


def test_alpha_is_slow_gamma_and_default_are_fast():
    """Shares on gamma (and of the default type, which is on gamma) are
    available seconds before one on alpha that was created with them."""
    admin = Cloud('admin')
    tries = []
    # alpha keeps the Dummy driver's realistic delays (waiting and polling
    # are tested there): it sleeps 3.98 s in create_share alone, gamma not.
    # That sleep is a lower bound for alpha whatever the load; gamma's time
    # grows with the load of the machine (other test runs), so the gap is
    # measured up to three times, and one clear gap is enough.
    for _attempt in range(3):
        took = create_alpha_gamma_default(admin)
        assert took['alpha'] >= REALISTIC_CREATE_DELAY, took
        tries.append(took)
        if took['alpha'] - max(took['gamma'], took[None]) > 2.0:
            break
    else:
        raise AssertionError('gamma and the default type were not 2 s faster '
                             'than alpha in any of three tries: %s' % tries)


def test_member_cannot_do_admin_things():
    member = Cloud('member')
    assert member.call('GET', '/shares').status_code == 200
    assert member.call('GET', '/scheduler-stats/pools').status_code == 403
    resp = member.call('POST', '/types', json={'share_type': {
        'name': 'openkeel-forbidden',
        'extra_specs': {'driver_handles_share_servers': 'False'}}})
    assert resp.status_code == 403, resp.text


def test_admin_sees_every_pool_and_zone():
    admin = Cloud('admin')
    pools = admin.ok('GET', '/scheduler-stats/pools')['pools']
    assert {p['name'] for p in pools} >= {
        POOL_ALPHA, 'openkeel@beta#fake_pool_for_BETA', POOL_GAMMA,
        'openkeel@delta#fake_pool_for_DELTA',
        'openkeel@epsilon#fake_pool_for_EPSILON'}, pools
    zones = admin.ok('GET', '/availability-zones')['availability_zones']
    assert {z['name'] for z in zones} == {'nova', 'zone-b'}, zones
    types = {t['name']: t for t in admin.ok(
        'GET', '/types?is_public=all')['share_types']}
    # names no backend: a share of it can migrate to beta without a new type
    assert 'share_backend_name' not in types['default']['extra_specs']
    for type_name, dhss in (('default', 'False'), ('alpha', 'False'),
                            ('beta', 'False'), ('gamma', 'False'),
                            ('dhss', 'True')):
        specs = types[type_name]['extra_specs']
        assert specs['driver_handles_share_servers'] == dhss, specs
        for cap in ('snapshot_support', 'create_share_from_snapshot_support',
                    'revert_to_snapshot_support', 'mount_snapshot_support'):
            assert specs.get(cap) == 'True', (type_name, specs)


@pytest.mark.parametrize('cloud_name', ['admin', 'member'])
def test_dhss_share_network_snapshots_revert(cloud_name):
    """A share network with a subnet in a zone and a security service, a
    share on the DHSS type in it, two snapshots, revert to the latest."""
    cloud = Cloud(cloud_name)
    made = []       # (path, key), deleted in reverse order
    try:
        net = cloud.ok('POST', '/share-networks', version='2.51', json={
            'share_network': {'name': name('net'),
                              'availability_zone': 'nova'}})['share_network']
        made.append(('/share-networks/' + net['id'], 'share_network'))
        assert [s['availability_zone'] for s in
                net['share_network_subnets']] == ['nova']
        resp = cloud.call('POST', '/share-networks/%s/subnets' % net['id'],
                          version='2.51', json={'share-network-subnet': {
                              'availability_zone': 'no-such-zone'}})
        assert resp.status_code == 400, resp.text
        ldap = {'name': name('ldap'), 'type': 'ldap',
                'server': 'ldap.example.org', 'password': 'not-a-secret'}
        service = cloud.ok('POST', '/security-services',
                           json={'security_service': ldap})['security_service']
        made.insert(0, ('/security-services/' + service['id'],
                        'security_service'))
        cloud.ok('POST', '/share-networks/%s/action' % net['id'], json={
            'add_security_service': {'security_service_id': service['id']}})

        share_id = create_share(cloud, share_type='dhss',
                                share_network_id=net['id'],
                                availability_zone='nova')
        made.append(('/shares/' + share_id, 'share'))
        share = cloud.wait('/shares/' + share_id, 'share', 'available')
        assert share['share_network_id'] == net['id']
        assert share['availability_zone'] == 'nova'
        if cloud_name == 'admin':
            assert share['share_server_id']
            assert share['host'] == 'openkeel@delta#fake_pool_for_DELTA'

        snapshots = []
        for number in (1, 2):
            body = {'snapshot': {'share_id': share_id,
                                 'name': name('snap%d' % number)}}
            snap = cloud.ok('POST', '/snapshots', status=(202,),
                            json=body)['snapshot']
            made.append(('/snapshots/' + snap['id'], 'snapshot'))
            cloud.wait('/snapshots/' + snap['id'], 'snapshot', 'available')
            snapshots.append(snap['id'])
        resp = cloud.call('POST', '/shares/%s/action' % share_id, json={
            'revert': {'snapshot_id': snapshots[0]}})
        assert resp.status_code == 409, resp.text     # only the latest
        cloud.ok('POST', '/shares/%s/action' % share_id, status=(202,),
                 json={'revert': {'snapshot_id': snapshots[1]}})
        cloud.wait('/shares/' + share_id, 'share', 'available')
        # Manila marks the share available a moment before the snapshot
        # (restoring -> available); until then the snapshot lists no
        # export locations.
        cloud.wait('/snapshots/' + snapshots[1], 'snapshot', 'available')
        exports = cloud.ok('GET', '/snapshots/%s/export-locations'
                           % snapshots[1])['share_snapshot_export_locations']
        assert exports and all(e['path'] for e in exports), exports
    finally:
        # snapshots before their share, the share before its network
        for kind in ('snapshot', 'share', 'share_network',
                     'security_service'):
            delete_all(cloud, [m for m in made if m[1] == kind])


def test_user_message_of_a_share_no_backend_can_place():
    member = Cloud('member')
    share_id = create_share(member, share_type='nowhere')
    try:
        member.wait('/shares/' + share_id, 'share', 'error')
        messages = member.ok('GET', '/messages?resource_id=' + share_id,
                             version='2.37')['messages']
        assert [m['resource_type'] for m in messages] == ['SHARE'], messages
        assert messages[0]['message_level'] == 'ERROR'
        assert 'No storage could be allocated' in messages[0]['user_message']
    finally:
        member.delete('/shares/' + share_id, 'share')


def wait_replicas(cloud, share_id, ready):
    """Poll the share's replicas until ready(replicas); they must not fail."""
    deadline = time.monotonic() + DEADLINE
    while True:
        replicas = cloud.ok('GET', '/share-replicas/detail?share_id=' + share_id,
                            version=REPLICA_VERSION)['share_replicas']
        if ready(replicas):
            return replicas
        for replica in replicas:
            assert 'error' not in (replica['status'], replica['replica_state']), replicas
        assert time.monotonic() < deadline, replicas
        time.sleep(0.2)


def test_a_replica_reaches_in_sync_and_is_promoted():
    """A share of type replicated-readable lands on gamma, its replica on beta
    (the other backend of the replication_domain), in_sync; promoted, the
    roles swap."""
    admin = Cloud('admin')
    pools = {p['name']: p['capabilities'] for p in
             admin.ok('GET', '/scheduler-stats/pools/detail')['pools']}
    for pool in (POOL_GAMMA, POOL_BETA):
        assert pools[pool].get('replication_type') == 'readable', pools[pool]
        assert pools[pool].get('replication_domain') == 'openkeel-replication'
    assert not pools[POOL_ALPHA].get('replication_type')
    share_id = create_share(admin, share_type='replicated-readable')
    replica_id = None
    try:
        share = admin.wait('/shares/' + share_id, 'share', 'available')
        assert share['host'] == POOL_GAMMA, share
        assert share['replication_type'] == 'readable'
        replica_id = admin.ok('POST', '/share-replicas', version=REPLICA_VERSION,
                              status=(200, 202),
                              json={'share_replica': {'share_id': share_id}}
                              )['share_replica']['id']
        replicas = wait_replicas(admin, share_id, lambda rs: any(
            r['id'] == replica_id and r['status'] == 'available'
            and r['replica_state'] == 'in_sync' for r in rs))
        hosts = {r['id']: r['host'] for r in replicas}
        assert hosts[replica_id] == POOL_BETA, replicas
        admin.ok('POST', '/share-replicas/%s/action' % replica_id, status=(200, 202),
                 version=REPLICA_VERSION, json={'promote': None})
        wait_replicas(admin, share_id, lambda rs: all(
            r['status'] == 'available'
            and r['replica_state'] == ('active' if r['id'] == replica_id else 'in_sync')
            for r in rs))
    finally:
        replicas = admin.ok('GET', '/share-replicas/detail?share_id=' + share_id,
                            version=REPLICA_VERSION)['share_replicas']
        # the share can go only with its last (active) replica
        delete_all(admin, [('/share-replicas/' + r['id'], 'share_replica')
                           for r in replicas if r['replica_state'] != 'active'])
        admin.delete('/shares/' + share_id, 'share')


def log_lines_after(size):
    with open(REQUEST_LOG) as f:
        f.seek(size)
        return f.read().splitlines()


def test_request_log_names_the_token_project():
    cloud = Cloud('lane2-member' if 'lane2-member' in clouds() else 'member')
    marker = uuid.uuid4().hex
    size = os.path.getsize(REQUEST_LOG)
    cloud.ok('GET', '/shares?name=' + marker)
    # the versions document needs no token; a bad token gets 401
    assert cloud.sess.get(cloud.url.rsplit('/', 1)[0] + '/',
                          authenticated=False,
                          raise_exc=False).status_code == 300
    resp = cloud.sess.get(cloud.url + '/shares?name=' + marker + '-bad',
                          authenticated=False, raise_exc=False,
                          headers={'X-Auth-Token': 'not-a-token'})
    assert resp.status_code == 401
    deadline = time.monotonic() + 10
    while True:
        lines = log_lines_after(size)
        mine = [line for line in lines if marker in line]
        versions = [line for line in lines if line.startswith('GET / ')]
        if len(mine) == 2 and versions:
            break
        assert time.monotonic() < deadline, lines
        time.sleep(0.2)
    good, bad = sorted(mine, key=lambda line: '-bad' in line)
    assert good.startswith('GET /v2/shares?name=%s 200 ' % marker), good
    assert good.split()[-1] == cloud.project_id, good
    # @START: when the request began, in ms (setup_manila's count_requests.yml leaves
    # out the lines of requests that began before its mark)
    began = good.split()[-2]
    assert began.startswith('@') and abs(int(began[1:]) / 1000.0 - time.time()) < 120, good
    assert bad.split()[2] == '401' and bad.split()[-1] == '-', bad
    assert versions[-1].split()[-1] == '-', versions


def test_the_paged_api_caps_every_page():
    """member-paged is the member through the second Manila API: a listing
    asked for 1000 items answers PAGED_LIMIT without a next link, the next
    offset goes on, and the main API answers all of them at once.  Its
    requests are in the one request log, with the token's project."""
    member = Cloud('member')
    paged = Cloud('member-paged', PAGED_CLOUDS_YAML)
    assert paged.url != member.url and paged.url.endswith('/v2'), paged.url
    assert paged.project_id == member.project_id
    with open(CLOUDS_YAML) as f:
        assert 'member-paged' in yaml.safe_load(f)['clouds']
    tag = name('paged')
    made = []
    try:
        for i in range(PAGED_LIMIT + 1):
            made.append(member.ok('POST', '/share-networks', json={
                'share_network': {'name': '%s-%d' % (tag, i)}}
            )['share_network']['id'])
        size = os.path.getsize(REQUEST_LOG)
        listing = '/share-networks/detail?name~=%s&limit=1000' % tag
        whole = member.ok('GET', listing)['share_networks']
        first = paged.ok('GET', listing)
        rest = paged.ok('GET', listing + '&offset=%d' % PAGED_LIMIT)
        assert sorted(n['id'] for n in whole) == sorted(made)
        assert len(first['share_networks']) == PAGED_LIMIT, first
        assert not any(k.endswith('_links') for k in first), first
        assert sorted(n['id'] for n in first['share_networks'] + rest[
            'share_networks']) == sorted(made)
        deadline = time.monotonic() + 10
        while True:
            logged = [line for line in log_lines_after(size) if tag in line]
            if len(logged) == 3:
                break
            assert time.monotonic() < deadline, logged
            time.sleep(0.2)
        assert all(line.split()[-1] == member.project_id for line in logged)
    finally:
        for network_id in made:
            member.send_delete('/share-networks/' + network_id)


@pytest.mark.other_lanes
def test_every_lane_has_its_own_users_and_projects():
    all_clouds = clouds()
    known = lanes()
    assert len(known) >= 2, known
    projects = set()
    for lane, users in known.items():
        assert set(users) == {'admin', 'member'}
        if lane == 1:
            assert users['admin']['cloud'] == 'admin'
            assert users['member']['cloud'] == 'member'
        for kind, user in users.items():
            assert user['cloud'] in all_clouds
            cloud = Cloud(user['cloud'])
            assert cloud.project_id == user['project_id']
            projects.add(user['project_id'])
            pools = cloud.call('GET', '/scheduler-stats/pools').status_code
            assert pools == (200 if kind == 'admin' else 403), (lane, kind)
            mine = cloud.sess.get('/auth/projects', endpoint_filter={
                'service_type': 'identity', 'interface': 'public'}).json()
            # its own project and no other lane's (an integration target may
            # give a lane's admin a role in a project it made for a test)
            ids = [p['id'] for p in mine['projects']]
            lane_ids = set(u['project_id'] for us in known.values() for u in us.values())
            assert user['project_id'] in ids, (lane, kind, mine)
            assert lane_ids & set(ids) == {user['project_id']}, (lane, kind, mine)
            quota = cloud.ok('GET', '/quota-sets/%s' % user['project_id']
                             )['quota_set']
            assert quota['shares'] >= 200 and quota['snapshots'] >= 200, quota
            assert quota['gigabytes'] >= 200, quota
            assert quota['share_networks'] >= 50, quota
    assert len(projects) == 2 * len(known)


@pytest.mark.other_lanes
def test_lanes_see_only_their_own_shares():
    known = lanes()
    owner = Cloud(known[2]['member']['cloud'])
    other = Cloud(known[max(known)]['member']['cloud'] if len(known) > 2
                  else known[1]['member']['cloud'])
    admin = Cloud(known[2]['admin']['cloud'])
    share_id = create_share(owner)
    try:
        assert other.call('GET', '/shares/' + share_id).status_code == 404
        assert share_id not in [s['id'] for s in
                                other.ok('GET', '/shares')['shares']]
        assert share_id not in [s['id'] for s in
                                admin.ok('GET', '/shares')['shares']]
        assert share_id in [s['id'] for s in admin.ok(
            'GET', '/shares?all_tenants=1')['shares']]
    finally:
        owner.delete('/shares/' + share_id, 'share')


def test_bench_projects():
    """`bench-projects N` makes one member project more than there are, with
    its user, quotas and cloud; again changes nothing; back to the number
    before, that project is gone and the others are kept."""
    script = os.path.join(HERE, 'manila-cloud')
    path = os.path.join(STATE, 'data', 'bench-projects.json')

    def bench():
        try:
            with open(path) as f:
                return json.load(f)
        except OSError:
            return {}
    before = bench()
    added = 'bench-%d' % (len(before) + 1)
    lane_ids = set(u['project_id'] for us in lanes().values() for u in us.values())
    try:
        made = []
        for _run in range(2):
            subprocess.run([script, 'bench-projects', str(len(before) + 1)], check=True)
            now = bench()
            assert now == dict(before, **{added: now[added]}), now
            made.append(now[added])
        assert made[0] == made[1]
        cloud = Cloud(added, clouds_yaml=BENCH_CLOUDS_YAML)
        assert cloud.project_id == made[0]
        assert cloud.project_id not in lane_ids
        assert cloud.call('GET', '/scheduler-stats/pools').status_code == 403
        quota = cloud.ok('GET', '/quota-sets/%s' % cloud.project_id)['quota_set']
        assert quota['shares'] >= 200 and quota['gigabytes'] >= 200, quota
        assert cloud.ok('GET', '/shares')['shares'] == []
    finally:
        subprocess.run([script, 'bench-projects', str(len(before))], check=True)
    assert bench() == before
    with open(BENCH_CLOUDS_YAML) as f:
        listed = yaml.safe_load(f)['clouds']
    assert added not in listed
    assert set(before) | {'admin', 'member'} == set(listed)


def test_lane_config(tmp_path):
    script = os.path.join(HERE, 'manila-cloud')
    known = lanes()
    path = tmp_path / 'integration_config.yml'
    subprocess.run([script, 'lane-config', '2', str(path)], check=True)
    with open(path) as f:
        config = yaml.safe_load(f)
    lane = known[2]
    assert config['manila_lane'] == 2
    assert config['manila_cloud_admin'] == lane['admin']['cloud']
    assert config['manila_cloud_member'] == lane['member']['cloud']
    assert config['manila_lane_projects'] == [
        lane['admin']['project_id'], lane['member']['project_id']]
    assert config['manila_auth_member']['project_name'] == \
        lane['member']['project']
    assert config['manila_clouds_yaml'] == CLOUDS_YAML
    assert config['manila_clouds_yaml_paged'] == PAGED_CLOUDS_YAML
    assert config['manila_cloud_member_paged'] == lane['member']['cloud'] + '-paged'
    assert config['manila_cloud_admin_paged'] == lane['admin']['cloud'] + '-paged'
    assert config['manila_paged_limit'] == PAGED_LIMIT
    assert config['manila_api_max'] == versions(Cloud('admin'))[0]
    # the base cloud's Manila is the catalog's: no override for auth dicts
    assert 'manila_auth_environment' not in config
    assert os.path.exists(config['manila_keystone_request_log'])
    with open(PAGED_CLOUDS_YAML) as f:
        assert config['manila_cloud_member_paged'] in yaml.safe_load(f)['clouds']
    for bad in ('0', str(len(known) + 1), 'x'):
        result = subprocess.run([script, 'lane-config', bad, str(path)],
                                capture_output=True, text=True, check=False)
        assert result.returncode == 1, result
        assert 'lane must be a number from 1 to' in result.stderr


def test_an_unanswered_pools_listing_means_not_ready(monkeypatch):
    """While the scheduler does not consume its queue yet, the API's pools
    listing hangs until a timeout: `up` must keep waiting, not crash."""
    import sys
    sys.path.insert(0, HERE)
    import manila_cloud
    monkeypatch.setattr(manila_cloud.time, 'sleep', lambda _s: None)
    up = [{'host': '%s@%s' % (manila_cloud.HOST, name), 'state': 'up',
           'status': 'enabled'} for name in manila_cloud.POOLS]

    class Http:
        def __init__(self, pools):
            self.pools = pools

        def body(self, method, url, headers=None, timeout=30):
            if url.endswith('/services?binary=manila-share'):
                return {'services': up}
            if isinstance(self.pools, Exception):
                raise self.pools
            return {'pools': [{'name': p} for p in self.pools]}

    assert manila_cloud.backends_state(Http(TimeoutError('timed out'))) == 'pools'
    assert manila_cloud.backends_state(
        Http(manila_cloud.CloudError('GET -> 500'))) == 'pools'
    assert manila_cloud.backends_state(Http([])) == 'pools'
    assert manila_cloud.backends_state(
        Http(list(manila_cloud.POOLS.values()))) == 'ready'


# An older Manila beside the current one (OPENKEEL_MANILA_RELEASE, see
# README.md "Older Manila releases"): checked when it is up.
RELEASE = '2023.2'
RELEASE_STATE = STATE + '-' + RELEASE
RELEASE_CLOUDS_YAML = os.path.join(RELEASE_STATE, 'clouds.yaml')


def versions(cloud):
    """(version, min_version) of the v2 API in the cloud's versions document."""
    resp = cloud.sess.get(cloud.url.rsplit('/', 1)[0] + '/',
                          authenticated=False, raise_exc=False)
    assert resp.status_code == 300, resp.text
    v2 = [v for v in resp.json()['versions'] if v['id'] == 'v2.0'][0]
    return v2['version'], v2['min_version']


def test_unknown_release_is_refused():
    result = subprocess.run(
        [os.path.join(HERE, 'manila-cloud'), 'status'], check=False,
        capture_output=True, text=True,
        env=dict(os.environ, OPENKEEL_MANILA_RELEASE='1999.1'))
    assert result.returncode == 1, result
    assert 'OPENKEEL_MANILA_RELEASE must be one of 2023.2' in result.stderr


def release_cloud_is_up():
    """Whether the release's cloud runs: its clouds.yaml alone may be left from
    before the base cloud was purged (and its users' passwords with it)."""
    if not os.path.exists(RELEASE_CLOUDS_YAML):
        return False
    status = subprocess.run(
        [os.path.join(HERE, 'manila-cloud'), 'status'], capture_output=True, check=False,
        env=dict(os.environ, OPENKEEL_MANILA_RELEASE=RELEASE, OPENKEEL_CLOUD_DIR=STATE))
    return status.returncode == 0


@pytest.mark.skipif(not release_cloud_is_up(),
                    reason='no %s cloud running (OPENKEEL_MANILA_RELEASE=%s '
                           'tests/cloud/manila-cloud up)' % (RELEASE, RELEASE))
def test_release_cloud(tmp_path, monkeypatch):
    """The base cloud's member reaches Manila 17.4.0 through the release's
    clouds.yaml: its own API (max 2.82), database and pools; a share made
    there is not in the base cloud; lane-config writes its clouds."""
    old = Cloud('member', RELEASE_CLOUDS_YAML)
    new = Cloud('member')
    assert old.url != new.url
    assert old.project_id == new.project_id
    assert versions(old) == ('2.82', '2.0')
    assert versions(new)[0] != '2.82'
    name = 'cloud-test-release-' + uuid.uuid4().hex[:8]
    share = old.ok('POST', '/shares', json={'share': {
        'name': name, 'share_proto': 'NFS', 'size': 1}})['share']
    try:
        old.wait('/shares/' + share['id'], 'share', 'available')
        assert new.call('GET', '/shares/' + share['id']).status_code == 404
        assert name not in [s['name'] for s in
                            new.ok('GET', '/shares')['shares']]
    finally:
        old.delete('/shares/' + share['id'], 'share')
    path = tmp_path / 'integration_config.yml'
    subprocess.run([os.path.join(HERE, 'manila-cloud'), 'lane-config', '2',
                    str(path)], check=True,
                   env=dict(os.environ, OPENKEEL_MANILA_RELEASE=RELEASE,
                            OPENKEEL_CLOUD_DIR=STATE))
    with open(path) as f:
        config = yaml.safe_load(f)
    assert config['manila_clouds_yaml'] == RELEASE_CLOUDS_YAML
    assert config['manila_release'] == RELEASE
    assert config['manila_api_max'] == '2.82'
    assert config['manila_lane'] == 2
    # A task with an auth dict and no cloud: openstacksdk builds its cloud
    # from the environment, where manila_auth_environment names the
    # release's API (it is in no catalog).
    env = config['manila_auth_environment']
    assert env == {'OS_SHARED_FILE_SYSTEM_ENDPOINT_OVERRIDE': old.url}
    assert config['manila_keystone_request_log'] == os.path.join(
        STATE, 'logs', 'keystone-requests.log')
    monkeypatch.delenv('OS_CLOUD', raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    region = os_config.OpenStackConfig(config_files=[], vendor_files=[]).get_one(
        auth=config['manila_auth_member'], auth_type='password')
    assert region.get_endpoint('shared-file-system').rstrip('/') == old.url
