# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix: each fault once, against the real local cloud, through
the fault proxy.

Every case runs a task (a module process, as Ansible runs it) with one fault
injected and asserts the first run: it converges, or it fails with a message
that says what is known and what to do; exactly one share (or rule) exists
afterwards (none when the write provably was not applied); and the proxy's
request log shows no duplicate write.  Then the same task again: it converges
without a change.  Races: three plays creating one name (held at a barrier
so that they really race) leave one share; two tasks allowing one rule at
once both converge on it.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import subprocess
import sys
import threading

import pytest

import harness
from fault_proxy import Fault

SHARES = r'^/v2/shares$'
SHARE_ACTION = r'^/v2/shares/[0-9a-f-]+/action$'
TOKENS = r'^/v3/auth/tokens'

CONVERGES = 'converges'
NOT_APPLIED = 'not applied'
KEYSTONE_DOWN = 'keystone down'


def case(name, faults, expect=CONVERGES, warning=None, args=None, forwarded=1):
    return pytest.param(faults, expect, warning, args or {}, forwarded, id=name)


# A share task creating a share meets one fault on its first run.  ``faults``
# is a function (fresh Faults per case); ``forwarded``: how many creates
# reach Manila on the first run.
CREATE_CASES = [
    case('create reaches Manila, its answer is lost',
         lambda: [Fault('lose', method='POST', path=SHARES)],
         warning='No answer came to the create'),
    case('create reaches Manila, its answer is lost (member)',
         lambda: [Fault('lose', method='POST', path=SHARES)],
         warning='No answer came to the create', args={'cloud': 'member'}),
    case('create refused once with 503',
         lambda: [Fault('status', method='POST', path=SHARES, status=503)],
         warning='refused once with HTTP 503'),
    case('create made, then answered 500',
         lambda: [Fault('status_after', method='POST', path=SHARES, status=500)],
         warning='Manila shows that it took effect'),
    case('create answer slower than api_timeout',
         lambda: [Fault('slow', method='POST', path=SHARES, delay=15)],
         warning='No answer came to the create', args={'api_timeout': 6}),
    case('create connection reset before Manila saw it',
         lambda: [Fault('reset', method='POST', path=SHARES)],
         expect=NOT_APPLIED, forwarded=0),
    case('create answered 429 with Retry-After: 1',
         lambda: [Fault('status', method='POST', path=SHARES, status=429,
                        headers={'Retry-After': '1'})],
         warning='met the rate limit of Manila (HTTP 429)'),
    case('create answered the rate-limit 413 with Retry-After: 1 (member)',
         lambda: [Fault('status', method='POST', path=SHARES, status=413,
                        headers={'Retry-After': '1'}, fault_key='overLimitFault')],
         warning='met the rate limit of Manila (HTTP 413)', args={'cloud': 'member'}),
    case('create refused with 503 twice',
         lambda: [Fault('status', method='POST', path=SHARES, status=503, times=2)],
         expect=NOT_APPLIED, forwarded=0),
    # (on alpha, whose Dummy driver takes seconds: the wait polls more than twice)
    case('wait polls answer 502, then reset',
         lambda: [Fault('status', method='GET', path=r'^/v2/shares/[0-9a-f-]{36}$', status=502),
                  Fault('reset', method='GET', path=r'^/v2/shares/[0-9a-f-]{36}$')],
         args={'share_type': 'alpha'}),
]

# Faults that reads and Keystone meet: a share task on an existing share
# (a no-op, so the only requests are reads and the token).
READ_CASES = [
    case('Keystone answers 503 once on the token request',
         lambda: [Fault('status', upstream='keystone', method='POST', path=TOKENS)]),
    case('Keystone answers 503 three times on the token request',
         lambda: [Fault('status', upstream='keystone', method='POST', path=TOKENS, times=3)]),
    case('Keystone resets the token request',
         lambda: [Fault('reset', upstream='keystone', method='POST', path=TOKENS)]),
    case('Keystone answers 429 with Retry-After',
         lambda: [Fault('status', upstream='keystone', method='POST', path=TOKENS, status=429,
                        headers={'Retry-After': '1'})]),
    case('Keystone version document answers 503',
         lambda: [Fault('status', upstream='keystone', method='GET', path=r'^/v3/?$')]),
    case('Keystone down (503 on every token request)',
         lambda: [Fault('status', upstream='keystone', method='POST', path=TOKENS, times=None)],
         expect=KEYSTONE_DOWN),
    case('versions document answers 503 twice',
         lambda: [Fault('status', method='GET', path=r'^/$', times=2)]),
    case('lookups answer 503 twice',
         lambda: [Fault('status', method='GET', path=r'^/v2/shares/detail', times=2)]),
    case('connection reset on a read',
         lambda: [Fault('reset', method='GET', path=r'^/v2/shares/detail')]),
    case('slow reads',
         lambda: [Fault('slow', method='GET', path=r'^/v2/', times=3, delay=1.5)]),
    case('read answered 429 with Retry-After: 1',
         lambda: [Fault('status', method='GET', path=r'^/v2/shares/detail', status=429,
                        headers={'Retry-After': '1'})]),
]


def share_args(name, **extra):
    args = {'name': name, 'size': 1, 'share_proto': 'NFS', 'timeout': 150}
    args.update(extra)
    return args


def forwarded_creates(proxy):
    return [e for e in proxy.writes() if e['method'] == 'POST' and e['path'] == '/v2/shares']


@pytest.mark.parametrize('faults, expect, warning, args, forwarded', CREATE_CASES)
def test_share_create_meets_a_fault(request, coll_path, admin, prefix, proxy, proxied,
                                    faults, expect, warning, args, forwarded):
    proxy.add(*faults())
    task = share_args(prefix, **args)
    first = harness.run_module(coll_path, 'share', task, clouds_yaml=proxied)
    live = admin.live_shares(prefix)
    creates = len(forwarded_creates(proxy))
    # The same task again, without faults.
    proxy.clear()
    second = harness.run_module(coll_path, 'share', task, clouds_yaml=proxied)
    harness.report(request.node.callspec.id, first, second)
    assert all(fired for _action, fired in proxy.fired()), proxy.fired()
    assert creates == forwarded, (proxy.log, first)
    if expect == CONVERGES:
        assert not first.failed, first
        assert first.result['changed'] is True
        assert len(live) == 1 and live[0]['id'] == first.result['share']['id'], live
        assert first.result['share']['status'] == 'available'
        if warning:
            assert any(warning in w for w in first.warnings), first.warnings
    else:
        assert first.failed, first
        assert 'was not applied' in first.msg and 'run the task again' in first.msg.lower(), first.msg
        assert live == []
    assert not second.failed, second
    assert second.result['changed'] is (expect != CONVERGES)
    live = admin.live_shares(prefix)
    assert len(live) == 1, live
    assert len(forwarded_creates(proxy)) == (1 if expect == CONVERGES else forwarded + 1)


@pytest.fixture(scope='module')
def existing(admin):
    """One share for the read cases (they only read it)."""
    name = harness.unique('flt-read')
    share = admin.create(name)
    yield share
    admin.cleanup(name)


@pytest.mark.parametrize('faults, expect, warning, args, forwarded', READ_CASES)
def test_reads_and_keystone_meet_a_fault(request, coll_path, admin, existing, proxy, proxied,
                                         faults, expect, warning, args, forwarded):
    proxy.add(*faults())
    task = share_args(existing['name'], **args)
    first = harness.run_module(coll_path, 'share', task, clouds_yaml=proxied)
    writes = first.writes() + proxy.writes(forwarded=None)
    proxy.clear()
    second = harness.run_module(coll_path, 'share', task, clouds_yaml=proxied)
    harness.report(request.node.callspec.id, first, second)
    assert all(fired for _action, fired in proxy.fired()), proxy.fired()
    assert writes == []
    if expect == CONVERGES:
        assert not first.failed, first
        assert first.result['changed'] is False
        assert first.result['share']['id'] == existing['id']
    else:
        assert first.failed, first
        assert 'Keystone authentication failed 5 times' in first.msg, first.msg
        assert 'run the task again later' in first.msg.lower(), first.msg
    assert not second.failed and second.result['changed'] is False, second
    assert [s['id'] for s in admin.live_shares(existing['name'])] == [existing['id']]


def test_retry_after_is_honoured(coll_path, admin, prefix, proxy, proxied):
    """A read answered 503 with Retry-After: 3 is sent again 3 seconds later, not sooner."""
    admin.create(prefix)
    proxy.add(Fault('status', method='GET', path=r'^/v2/shares/detail',
                    headers={'Retry-After': '3'}))
    run = harness.run_module(coll_path, 'share_info', {'name': prefix}, clouds_yaml=proxied)
    harness.report('read answered 503 with Retry-After: 3', run)
    assert not run.failed, run
    assert [s['name'] for s in run.result['shares']] == [prefix]
    listings = proxy.requests(path=r'^/v2/shares/detail')
    assert [e['status'] for e in listings] == [503, 200]
    assert listings[1]['time'] - listings[0]['time'] >= 2.9


# -- creates of the other kinds ------------------------------------------------------
# A snapshot and a share network are created through the same write_once as a
# share: a lost answer is followed by a look by name, never by a second POST.

OTHER_KINDS = {
    'snapshot': dict(module='share_snapshot', path=r'^/v2/snapshots$', result='snapshot',
                     listing='snapshots/detail', key='snapshots', item='snapshots/%s',
                     status='available'),
    'share network': dict(module='share_network', path=r'^/v2/share-networks$',
                          result='share_network', listing='share-networks/detail',
                          key='share_networks', item='share-networks/%s', status='active'),
}

OTHER_KIND_CASES = [
    pytest.param('snapshot', 'lose', 'No answer came to the create of share snapshot',
                 id='snapshot create reaches Manila, its answer is lost'),
    pytest.param('share network', 'lose', 'No answer came to the create of share network',
                 id='share network create reaches Manila, its answer is lost'),
    pytest.param('share network', 'status_after', 'Manila shows that it took effect',
                 id='share network create made, then answered 500'),
]


@pytest.mark.parametrize('kind, action, warning', OTHER_KIND_CASES)
def test_a_create_of_another_kind_meets_a_fault(request, coll_path, admin, prefix, proxy,
                                                proxied, kind, action, warning):
    spec = OTHER_KINDS[kind]
    name = prefix + '-' + kind.replace(' ', '-')
    task = {'name': name, 'timeout': 150}
    if kind == 'snapshot':
        admin.create(prefix)
        task['share'] = prefix
    proxy.add(Fault(action, method='POST', path=spec['path'],
                    **({'status': 500} if action == 'status_after' else {})))
    try:
        first = harness.run_module(coll_path, spec['module'], task, clouds_yaml=proxied)
        live = admin.named(spec['listing'], spec['key'], name)
        proxy.clear()
        second = harness.run_module(coll_path, spec['module'], task, clouds_yaml=proxied)
        harness.report(request.node.callspec.id, first, second)
        assert all(fired for _action, fired in proxy.fired()), proxy.fired()
        assert not first.failed, first
        assert first.result['changed'] is True
        made = first.result[spec['result']]
        assert made['status'] == spec['status'], made
        assert any(warning in w for w in first.warnings), first.warnings
        assert [r['id'] for r in live] == [made['id']], live
        assert not second.failed and second.result['changed'] is False, second
        # one create reached Manila over both runs; one resource has the name
        creates = proxy.requests(method='POST', path=spec['path'], forwarded=True)
        assert len(creates) == 1, proxy.log
        assert len(admin.named(spec['listing'], spec['key'], name)) == 1
    finally:
        admin.remove_named(spec['listing'], spec['key'], spec['item'], name)


# -- writes on an existing share ------------------------------------------------

@pytest.mark.parametrize('fault', [
    pytest.param(lambda: Fault('lose', method='POST', path=SHARE_ACTION, body_key='extend'),
                 id='extend answer lost'),
    pytest.param(lambda: Fault('status', method='POST', path=SHARE_ACTION, body_key='extend'),
                 id='extend refused once with 503'),
])
def test_extend_meets_a_fault(request, coll_path, admin, prefix, proxy, proxied, fault):
    admin.create(prefix)
    proxy.add(fault())
    task = share_args(prefix, size=2)
    first = harness.run_module(coll_path, 'share', task, clouds_yaml=proxied)
    proxy.clear()
    second = harness.run_module(coll_path, 'share', task, clouds_yaml=proxied)
    harness.report(request.node.callspec.id, first, second)
    assert all(fired for _action, fired in proxy.fired()), proxy.fired()
    assert not first.failed, first
    assert first.result['share']['size'] == 2 and first.result['share']['status'] == 'available'
    extends = proxy.requests(method='POST', body_key='extend', forwarded=True)
    assert len(extends) == 1, proxy.log
    assert not second.failed and second.result['changed'] is False, second


def test_delete_answer_lost(coll_path, admin, prefix, proxy, proxied):
    admin.create(prefix)
    proxy.add(Fault('lose', method='DELETE', path=r'^/v2/shares/[0-9a-f-]+$'))
    task = {'name': prefix, 'state': 'absent', 'timeout': 150}
    first = harness.run_module(coll_path, 'share', task, clouds_yaml=proxied)
    live = admin.live_shares(prefix)
    proxy.clear()
    second = harness.run_module(coll_path, 'share', task, clouds_yaml=proxied)
    harness.report('delete answer lost', first, second)
    assert not first.failed, first
    assert first.result['changed'] is True
    assert live == []
    assert len(proxy.requests(method='DELETE', forwarded=True)) == 1
    assert not second.failed and second.result['changed'] is False, second


# -- access rules -----------------------------------------------------------------

ALLOW_CASES = [
    case('allow_access answer lost',
         lambda: [Fault('lose', method='POST', path=SHARE_ACTION, body_key='allow_access')]),
    case('allow_access refused once with 503',
         lambda: [Fault('status', method='POST', path=SHARE_ACTION, body_key='allow_access')]),
    case('allow_access made, then answered 500',
         lambda: [Fault('status_after', method='POST', path=SHARE_ACTION,
                        body_key='allow_access', status=500)]),
    case('allow_access connection reset before Manila saw it',
         lambda: [Fault('reset', method='POST', path=SHARE_ACTION, body_key='allow_access')],
         expect=NOT_APPLIED, forwarded=0),
]


@pytest.mark.parametrize('faults, expect, warning, args, forwarded', ALLOW_CASES)
def test_allow_meets_a_fault(request, coll_path, admin, prefix, proxy, proxied,
                             faults, expect, warning, args, forwarded):
    share = admin.create(prefix)
    proxy.add(*faults())
    task = {'share': prefix, 'rules': [{'access_type': 'ip', 'access_to': '10.61.0.0/24'}],
            'timeout': 150}
    first = harness.run_module(coll_path, 'share_access', task, clouds_yaml=proxied)
    allows = proxy.requests(method='POST', body_key='allow_access', forwarded=True)
    rules = admin.rules(share['id'])
    proxy.clear()
    second = harness.run_module(coll_path, 'share_access', task, clouds_yaml=proxied)
    harness.report(request.node.callspec.id, first, second)
    assert all(fired for _action, fired in proxy.fired()), proxy.fired()
    assert len(allows) == forwarded, proxy.log
    if expect == CONVERGES:
        assert not first.failed, first
        assert [r['state'] for r in first.result['rules']] == ['active']
        assert len(rules) == 1, rules
    else:
        assert first.failed and 'was not applied' in first.msg, first
        assert rules == []
    assert not second.failed, second
    assert second.result['changed'] is (expect != CONVERGES)
    assert len(admin.rules(share['id'])) == 1


def test_two_tasks_allow_one_rule_at_once(coll_path, admin, prefix, proxy, proxied):
    """Both allows reach Manila together.  Manila refuses one ("exists") and
    that task converges on the other's rule; or, when both get past its
    check, the task whose twin is newer denies it.  One rule is left."""
    share = admin.create(prefix)
    proxy.add(Fault('hold', method='POST', path=SHARE_ACTION, body_key='allow_access',
                    count=2, times=2, delay=90))
    task = {'share': prefix, 'rules': [{'access_type': 'ip', 'access_to': '10.62.0.7'}],
            'timeout': 150}
    runs = in_parallel(2, lambda: harness.run_module(coll_path, 'share_access', task,
                                                     clouds_yaml=proxied))
    live = [r for r in admin.rules(share['id'])
            if r['state'] not in ('queued_to_deny', 'denying', 'deleted')]
    harness.report('two tasks allow one rule at once', '; '.join(
        'task %d %s' % (i + 1, run.outcome()) for i, run in enumerate(runs)),
        '%d rule(s)' % len(live))
    allows = proxy.requests(method='POST', body_key='allow_access', forwarded=True)
    assert len(allows) == 2, proxy.log
    for run in runs:
        assert not run.failed, run
        assert [(r['access_to'], r['state']) for r in run.result['rules']] == [
            ('10.62.0.7', 'active')], run
    assert len(live) == 1, live
    assert set(run.result['rules'][0]['id'] for run in runs) == {live[0]['id']}
    if sorted(e['upstream_status'] for e in allows) == [200, 200]:
        denies = proxy.requests(method='POST', body_key='deny_access', forwarded=True)
        assert len(denies) == 1, proxy.log


# -- three plays, one name ----------------------------------------------------------

PLAY = '''
- hosts: localhost
  gather_facts: false
  tasks:
    - name: Create the share
      openkeel.manila.share:
        cloud: admin
        name: "{{ share_name }}"
        size: 1
        share_proto: NFS
        timeout: 150
      register: made
      ignore_errors: true
    - name: Keep the result
      ansible.builtin.copy:
        content: "{{ made | to_json }}"
        dest: "{{ out }}"
        mode: "0600"
'''


def in_parallel(count, call):
    results = [None] * count

    def one(index):
        results[index] = call()
    threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_three_plays_race_for_one_name(request, coll_path, admin, prefix, proxy, proxied,
                                       tmp_path):
    # The creates are held until all three arrived: each play looked the name
    # up (and found nothing) before any share existed.
    proxy.add(Fault('hold', method='POST', path=SHARES, count=3, times=3, delay=120))
    playbook = tmp_path / 'race.yml'
    playbook.write_text(PLAY)
    ansible_playbook = os.path.join(os.path.dirname(sys.executable), 'ansible-playbook')
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=coll_path, OS_CLIENT_CONFIG_FILE=proxied,
               ANSIBLE_COLLECTIONS_SCAN_SYS_PATH='false', ANSIBLE_LOCALHOST_WARNING='false',
               ANSIBLE_INVENTORY_UNPARSED_WARNING='false',
               ANSIBLE_PYTHON_INTERPRETER=sys.executable)

    def play(index):
        out = tmp_path / ('result-%d.json' % index)
        proc = subprocess.run([ansible_playbook, '-i', 'localhost,', '-c', 'local', str(playbook),
                               '-e', 'share_name=%s' % prefix, '-e', 'out=%s' % out],
                              env=env, capture_output=True, text=True, timeout=400, check=False)
        if proc.returncode != 0 or not out.exists():
            return {'failed': True, 'msg': 'ansible-playbook exited with %d: %s' % (
                proc.returncode, (proc.stdout + proc.stderr)[-2000:])}
        return json.loads(out.read_text())

    results = {}
    threads = [threading.Thread(target=lambda i=i: results.__setitem__(i, play(i)))
               for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    live = admin.live_shares(prefix)
    harness.report('three plays create one name at once', '; '.join(
        'play %d %s' % (i + 1, 'fails: %s' % r.get('msg') if r.get('failed') else 'converges')
        for i, r in sorted(results.items())), '%d share(s)' % len(live))
    assert sorted(results) == [0, 1, 2], 'a play did not finish'
    assert len(forwarded_creates(proxy)) == 3
    for result in results.values():
        assert not result.get('failed'), result
    assert len(live) == 1, live
    assert set(r['share']['id'] for r in results.values()) == {live[0]['id']}
    warned = [r for r in results.values()
              if any('Another task created share' in str(w) for w in r.get('warnings') or [])]
    assert len(warned) == 2, results
    # Each play then reports the same share; a fourth run changes nothing.
    again = harness.run_module(coll_path, 'share', share_args(prefix), clouds_yaml=proxied)
    assert not again.failed and again.result['changed'] is False, again


# -- the fleet (shares) --------------------------------------------------------------
# One shares task creating two shares with a rule each meets a fault on its first
# run; the same task again converges without a change.

# The fleet's listing (first lookup, then one per poll); not its recycle-bin listing
# (?is_soft_deleted=true) nor the namesake check (?name=).
FLEET_LISTING = r'^/v2/shares/detail\?with_count=true&limit='
# A listing the client could not read: the read and its three retries.
CLIENT_ATTEMPTS = 4
UNKNOWN = 'state unknown'

FLEET_CASES = [
    case("the fleet's poll failure: one poll fails after the client's retries",
         lambda: [Fault('status', method='GET', path=FLEET_LISTING, status=500,
                        times=CLIENT_ATTEMPTS, after=1)]),
    case("the fleet's poll failure: every poll fails, each share gets its result",
         lambda: [Fault('status', method='GET', path=FLEET_LISTING, status=500,
                        times=3 * CLIENT_ATTEMPTS, after=1)], expect=UNKNOWN),
    case('the fleet: a Keystone 503 on its token request',
         lambda: [Fault('status', upstream='keystone', method='POST', path=TOKENS)]),
    # The run's first token seems to expire 0.2 s after it is issued (keystoneauth
    # renews a token 120 s before it expires; the tokens after it keep Keystone's
    # expiry): the fleet renews its token once during the run, and Keystone answers
    # that renewal with 503.  (A lifetime of whole seconds raced the run: a quiet
    # fleet run of two shares takes about 2 s, and the renewal sometimes never came.)
    case('the fleet: a Keystone 503 mid-run, on the renewal of a short-lived token',
         lambda: [Fault('status', upstream='keystone', method='POST', path=TOKENS, after=1)],
         args={'token_lifetime': 120.2}),
    case('the fleet: a create answered 429 with Retry-After: 1 lowers its concurrency for a while',
         lambda: [Fault('status', method='POST', path=SHARES, status=429,
                        headers={'Retry-After': '1'})],
         warning='lowered the requests it sends at once to 2 (concurrency 4)'),
]


def fleet_task(prefix):
    return {'timeout': 150, 'shares': [
        {'name': '%s-%d' % (prefix, n), 'size': 1, 'share_proto': 'NFS',
         'access_rules': [{'access_type': 'ip', 'access_to': '10.63.%d.0/24' % n}]}
        for n in (1, 2)]}


@pytest.mark.parametrize('faults, expect, warning, args, forwarded', FLEET_CASES)
def test_the_fleet_meets_a_fault(request, coll_path, admin, prefix, proxy, proxied,
                                 faults, expect, warning, args, forwarded):
    proxy.next_token_lifetime = args.get('token_lifetime')
    proxy.add(*faults())
    task = fleet_task(prefix)
    first = harness.run_module(coll_path, 'shares', task, clouds_yaml=proxied)
    creates = len(forwarded_creates(proxy))
    tokens = proxy.requests(upstream='keystone', method='POST', path=TOKENS)
    first_log = list(proxy.log)
    proxy.clear()
    proxy.next_token_lifetime = None
    second = harness.run_module(coll_path, 'shares', task, clouds_yaml=proxied)
    harness.report(request.node.callspec.id, first, second)
    assert all(fired for _action, fired in proxy.fired()), proxy.fired()
    assert creates == 2, proxy.log
    assert first.result['changed'] is True, first
    results = first.result.get('shares') or []
    assert [r['name'] for r in results] == [s['name'] for s in task['shares']], first
    if expect == CONVERGES:
        assert not first.failed, first
        assert [r['rules'][0]['state'] for r in results] == ['active', 'active'], first
        if warning:
            assert any(warning in w for w in first.warnings), first.warnings
        if 'lowered the requests' in (warning or ''):
            pace = first.result['pace']  # lowered once, by the one 429
            assert (pace['lowered'], pace['lowest']) == (1, 2) and pace['final'] >= 2, first
        if args.get('token_lifetime'):
            # renewed once during the run: the first token, the renewal answered 503,
            # its retry; Manila was asked with the first token before the renewal
            assert [e['status'] for e in tokens] == [201, 503, 201], tokens
            renewal = first_log.index(tokens[1])
            assert any(e['upstream'] == 'manila' for e in first_log[:renewal]), first_log
    else:
        assert first.failed, first
        assert all(r['failed'] and 'unknown: could not read its state' in r['msg']
                   for r in results), first
        assert 'HTTP 500' in results[0]['msg'], first
    assert not second.failed, second
    assert second.result['changed'] is (expect != CONVERGES), second
    for entry in task['shares']:
        assert len(admin.live_shares(entry['name'])) == 1
    assert len(forwarded_creates(proxy)) == 2, proxy.log
