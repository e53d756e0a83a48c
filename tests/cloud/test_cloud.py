"""Smoke test of the local cloud that tests/cloud/manila-cloud brings up.

Run after `tests/cloud/manila-cloud up`, with any Python that has
openstacksdk (for example the cloud's own venv):

    pytest tests/cloud/test_cloud.py
    /var/tmp/openkeel-manila-cloud/venv/bin/python tests/cloud/test_cloud.py

Uses only the standard library, openstacksdk and keystoneauth1.
"""

import os
import sys
import time
import uuid

from openstack import config as os_config

STATE = os.environ.get('OPENKEEL_CLOUD_DIR') or '/var/tmp/openkeel-manila-cloud'
CLOUDS_YAML = os.path.join(STATE, 'clouds.yaml')
POOL_ALPHA = 'openkeel@alpha#fake_pool_for_ALPHA'
HEADERS = {'X-OpenStack-Manila-API-Version': '2.65'}
DEADLINE = 180


def session(cloud):
    loader = os_config.OpenStackConfig(config_files=[CLOUDS_YAML],
                                       vendor_files=[])
    sess = loader.get_one(cloud=cloud).get_session()
    url = sess.get_endpoint(service_type='sharev2', interface='public')
    return sess, url.rstrip('/')


def call(sess, method, url, **kwargs):
    headers = dict(HEADERS, **kwargs.pop('headers', {}))
    return sess.request(url, method, headers=headers, raise_exc=False,
                        **kwargs)


def wait_share(sess, url, share_id, want):
    """Poll a share until its status is want (or it is gone, want=None)."""
    deadline = time.monotonic() + DEADLINE
    while True:
        resp = call(sess, 'GET', '%s/shares/%s' % (url, share_id))
        if want is None and resp.status_code == 404:
            return None
        assert resp.status_code == 200, resp.text
        share = resp.json()['share']
        if want is not None and share['status'] == want:
            return share
        assert 'error' not in share['status'], share
        assert time.monotonic() < deadline, (
            'share %s still %s after %d s'
            % (share_id, share['status'], DEADLINE))
        time.sleep(1)


def test_admin_share_on_alpha():
    sess, url = session('admin')
    name = 'openkeel-cloud-selftest-%s' % uuid.uuid4().hex[:8]
    resp = call(sess, 'POST', url + '/shares', json={'share': {
        'name': name, 'share_proto': 'NFS', 'size': 1,
        'share_type': 'alpha'}})
    assert resp.status_code == 200, resp.text
    share_id = resp.json()['share']['id']
    try:
        share = wait_share(sess, url, share_id, 'available')
        assert share['host'] == POOL_ALPHA, share['host']
        assert share['share_type_name'] == 'alpha'
        assert share['size'] == 1
    finally:
        resp = call(sess, 'DELETE', '%s/shares/%s' % (url, share_id))
        assert resp.status_code == 202, resp.text
    wait_share(sess, url, share_id, None)


def test_member_cannot_do_admin_things():
    sess, url = session('member')
    resp = call(sess, 'GET', url + '/shares')
    assert resp.status_code == 200, resp.text
    resp = call(sess, 'GET', url + '/scheduler-stats/pools')
    assert resp.status_code == 403, resp.text
    resp = call(sess, 'POST', url + '/types', json={'share_type': {
        'name': 'openkeel-forbidden',
        'extra_specs': {'driver_handles_share_servers': 'False'}}})
    assert resp.status_code == 403, resp.text


def test_admin_sees_both_pools():
    sess, url = session('admin')
    resp = call(sess, 'GET', url + '/scheduler-stats/pools')
    assert resp.status_code == 200, resp.text
    names = {p['name'] for p in resp.json()['pools']}
    assert {POOL_ALPHA, 'openkeel@beta#fake_pool_for_BETA'} <= names, names


if __name__ == '__main__':
    failed = 0
    for test_name, test in sorted(globals().items()):
        if test_name.startswith('test_') and callable(test):
            started = time.monotonic()
            try:
                test()
                print('PASS %s (%.1f s)' % (test_name,
                                            time.monotonic() - started))
            except Exception as exc:  # pylint: disable=broad-except
                failed += 1
                print('FAIL %s: %r' % (test_name, exc))
    sys.exit(1 if failed else 0)
