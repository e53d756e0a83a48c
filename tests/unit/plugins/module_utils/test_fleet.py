"""The fleet executor (plugins/module_utils/fleet.py) on scripted HTTP.

Its planning and its result: what each entry finds, what its plan asks of
Manila (the exact requests, or in check mode the exact changes and diff), what
the quota preflight reads, and what the result and the diff say.  Then its
writes and waits (Fleet.apply and wait_if_busy), one request at a time: the
exact requests in their order, what each share ends with, which share fails
and why, and waits that run out of time on a FakeClock (nobody sleeps)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.modules import shares as fleet_module
from ansible_collections.openkeel.manila.plugins.module_utils.client import ManilaClient
from ansible_collections.openkeel.manila.plugins.module_utils.fleet import (
    Fleet,
    share_argument_spec,
    validate_desired,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    make_client,
    share_locks,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Fail,
    run_scripted,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.modules.test_fleet_shares import (
    BINNED,
    LISTING,
    MARKER,
    QUOTA_DETAIL,
    TYPE_QUOTA_DETAIL,
    entry,
    exports_of,
    failed_poll,
    listing,
    lock_of,
    others,
    own_project,
    quota_detail,
    rule,
    rules_of,
    share,
    uuid,
)


def run(monkeypatch, args, exchanges, check_mode=False, diff=False, max_version='2.99'):
    args = dict(args)
    args.setdefault('concurrency', 1)
    return run_scripted(monkeypatch, fleet_module, args, exchanges, max_version=max_version,
                        check_mode=check_mode, diff=diff)


def by_id(n, found):
    """The GET of share ``n`` by ID (outside the project's listing)."""
    return ('GET', '/v2/shares/' + uuid(n), ScriptedResponse(200, {'share': found}))


def not_found(path):
    return ('GET', path, ScriptedResponse(404, {'itemNotFound': {'code': 404, 'message': 'not found'}}))


def binned(*shares):
    return ('GET', '/v2/shares/detail?is_soft_deleted=true&with_count=true&limit=1000&offset=0',
            ScriptedResponse(200, {'shares': list(shares), 'count': len(shares)}))


def diff_rule(target, level='rw', metadata=None):
    return {'access_type': 'ip', 'access_to': target, 'access_level': level, 'metadata': metadata or {}}


def share_view(found, **changes):
    """A share as the diff shows it (shares.diff_view)."""
    view = dict((k, found.get(k)) for k in (
        'name', 'description', 'size', 'share_proto', 'share_type_name', 'availability_zone',
        'share_network_id', 'snapshot_id', 'is_public', 'metadata', 'status'))
    view.update(changes)
    return view


# == the planning and the result: validate_desired to Fleet.outcome =========================

# -- validate_desired ---------------------------------------------------------------------

def test_every_input_problem_is_named_once_in_order_and_nothing_is_sent(monkeypatch):
    outcome, session = run(monkeypatch, {'concurrency': 9, 'marker': {'key': 'owner', 'value': ''}, 'shares': [
        entry(1, metadata={'a': ''}),          # bad metadata: the next entries are still checked
        entry(2, soft_delete=True),
        entry(3, size=0),
        entry(4, lock_reason='why'),
    ]}, [])
    assert isinstance(outcome, Fail)
    msg = outcome.result['msg']
    problems = [
        'concurrency must be 1 to 8, got 9. marker: metadata: ',
        " shares[0] (data1): metadata: key 'a' has an empty value",
        ' shares[1] (data2): soft_delete only applies with state=absent.',
        ' shares[2] (data3): size must be at least 1 (GiB), got 0.',
        ' shares[3] (data4): lock_reason only applies with deletion_lock=true.']
    assert msg.startswith('Invalid shares, nothing was sent: ' + problems[0])
    assert msg.endswith(problems[-1])
    assert [msg.index(p) for p in problems] == sorted(msg.index(p) for p in problems)
    assert "key 'owner' has an empty value" in msg
    assert session.requests() == ['GET /']


def test_concurrency_zero_is_refused_and_eight_is_taken(monkeypatch):
    outcome, session = run(monkeypatch, {'concurrency': 0, 'shares': [entry(1)]}, [])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'] == 'Invalid shares, nothing was sent: concurrency must be 1 to 8, got 0.'
    outcome, session = run(monkeypatch, {'concurrency': 8, 'shares': [entry(1, access_rules=None)]}, [
        listing(share(1)), rules_of(1), exports_of(1)], diff=True)
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['concurrency'] == 8 and outcome.result['changed'] is False
    assert 'diff' not in outcome.result   # nothing changed: no diff, not an empty one


# -- prepare_rules ------------------------------------------------------------------------

def test_rules_of_every_present_entry_are_checked_at_the_negotiated_version(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [
        entry(1, access_rules=None),
        entry(2, access_rules=[{'access_type': 'ip', 'access_to': '2001:db8::/64'}]),
        entry(3, access_rules=[{'access_type': 'ip', 'access_to': '10.0.0.5/24'}]),
        # an entry to delete: its rules are not used, so not checked
        entry(4, state='absent', access_rules=[{'access_type': 'ip', 'access_to': '10.0.0.5/24'}]),
    ]}, [], max_version='2.37')
    assert isinstance(outcome, Fail)
    msg = outcome.result['msg']
    assert msg.startswith('shares[1] (data2): Invalid access rules')
    assert 'IPv6 access rules need Manila API 2.38' in msg
    assert 'shares[2] (data3): Invalid access rules' in msg
    assert 'shares[3]' not in msg and 'shares[0]' not in msg
    assert session.requests() == ['GET /']


def test_the_same_ipv6_rule_is_taken_where_the_version_allows_it(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [
        entry(1, access_rules=[{'access_type': 'ip', 'access_to': '2001:db8::/64'}])]}, [
        listing(share(1)), rules_of(1), exports_of(1)], check_mode=True, max_version='2.45')
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['shares'][0]['changes'] == ['allowed ip:2001:db8::/64 (rw)']


def test_rule_metadata_below_its_version_is_refused_before_the_listing(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [
        entry(1, access_rules=None),
        entry(2, access_rules=[{'access_type': 'ip', 'access_to': '10.0.2.0/24', 'metadata': {'k': 'v'}}]),
        entry(3, access_rules=[{'access_type': 'ip', 'access_to': '10.0.3.0/24', 'metadata': {'k': 'w'}}]),
    ]}, [], max_version='2.44')
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'] == 'Access rule metadata needs Manila API 2.45; this cloud offers 2.44.'
    assert session.requests() == ['GET /']


# -- find ---------------------------------------------------------------------------------

def test_entries_are_found_in_the_one_listing_and_a_share_named_twice_fails_the_second(monkeypatch):
    twin_a, twin_b = share(1, name='twin'), share(2, name='twin')
    outcome, session = run(monkeypatch, {'shares': [
        {'name': 'twin'}, entry(3, access_rules=None), {'id': uuid(3)}]}, [
        listing(twin_a, twin_b, share(3)),
        rules_of(3), exports_of(3),
    ], check_mode=True)
    assert isinstance(outcome, Fail)
    first, second, third = outcome.result['shares']
    assert first['failed'] is True and uuid(1) in first['msg'] and uuid(2) in first['msg']
    assert second['failed'] is False and second['id'] == uuid(3) and second['changed'] is False
    assert third['failed'] is True
    assert third['msg'] == ('Share data3 (%s) is the share of shares[1] (data3) too; list each '
                            'share once.' % uuid(3))
    assert outcome.result['msg'].startswith('2 of 3 shares did not converge: shares[0] (twin): ')
    assert ' | shares[2] (%s): Share data3' % uuid(3) in outcome.result['msg']
    # the entry by ID was found in the listing: no GET of it
    assert session.requests() == ['GET /', 'GET ' + listing()[1], 'GET ' + rules_of(3)[1],
                                  'GET ' + exports_of(3)[1]]


def test_a_share_by_id_outside_the_listing_is_polled_by_id_and_then_the_listing_is_skipped(monkeypatch):
    """Found by ID outside the listing (another project's share an admin sees):
    the first poll (an empty listing before) reads the listing and GETs it; the
    listing then has 30 shares, so the next poll is the one GET."""
    mine = share(5, name='theirs')
    outcome, session = run(monkeypatch, {'shares': [{'id': uuid(5), 'size': 2}]}, [
        listing(),
        by_id(5, mine),
        rules_of(5), exports_of(5),
        ('POST', '/v2/shares/%s/action' % uuid(5), ScriptedResponse(202)),
        listing(*others(30)),
        by_id(5, dict(mine, status='extending')),
        by_id(5, dict(mine, size=2)),
    ])
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert session.bodies('POST') == [{'extend': {'new_size': 2}}]
    assert result['shares'][0]['changes'] == ['resized to 2 GiB']
    assert result['shares'][0]['share']['size'] == 2 and result['shares'][0]['name'] == 'theirs'


# -- plan ---------------------------------------------------------------------------------

def test_an_unknown_id_fails_its_entry_and_the_next_create_is_still_counted_by_the_preflight(monkeypatch):
    own_project(monkeypatch)
    outcome, session = run(monkeypatch, {'shares': [
        {'id': uuid(7)}, entry(2, size=5, share_type='default', access_rules=None)]}, [
        listing(),
        not_found('/v2/shares/' + uuid(7)),
        BINNED,
        ('GET', QUOTA_DETAIL, quota_detail((10, 0), (100, 0))),
        ('GET', TYPE_QUOTA_DETAIL, quota_detail((-1, 0), (-1, 0))),
    ], check_mode=True)
    assert isinstance(outcome, Fail)
    unknown, made = outcome.result['shares']
    assert unknown['msg'] == ('No share with ID %s exists; a share cannot be created with a given '
                              'ID (leave out "id" to create one).' % uuid(7))
    assert unknown['failed'] is True and unknown['id'] is None and unknown['name'] is None
    assert made['changes'] == ['created'] and made['failed'] is False
    assert outcome.result['msg'].startswith('1 of 2 shares did not converge: shares[0] (%s): No share' % uuid(7))
    assert session.writes() == []


def test_a_share_in_the_recycle_bin_is_restored_with_restore_true(monkeypatch):
    gone = share(1, is_soft_deleted=True)
    outcome, session = run(monkeypatch, {'shares': [entry(1, restore=True, access_rules=None)]}, [
        listing(),
        binned(gone),
        rules_of(1),   # no export locations of a share in the recycle bin
    ], check_mode=True, diff=True)
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert result['shares'][0]['changes'] == ['restored']
    assert result['shares'][0]['id'] == uuid(1)
    assert result['diff']['before']['shares[0] (data1)']['name'] == 'data1'
    assert session.writes() == []


def test_a_share_in_the_recycle_bin_without_restore_fails_naming_it(monkeypatch):
    gone = share(1, is_soft_deleted=True)
    outcome, session = run(monkeypatch, {'shares': [entry(1, access_rules=None)]}, [
        listing(), binned(gone), rules_of(1)], check_mode=True)
    assert isinstance(outcome, Fail)
    assert outcome.result['shares'][0]['msg'].startswith(
        'Share data1 (%s) is in the recycle bin (soft-deleted). Set restore=true' % uuid(1))


def test_two_namesakes_in_the_recycle_bin_fail_that_entry_only(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [
        entry(1, access_rules=None), entry(2, access_rules=None, share_type='default')]}, [
        listing(),
        binned(share(1, is_soft_deleted=True), share(8, name='data1', is_soft_deleted=True)),
    ], check_mode=True)
    assert isinstance(outcome, Fail)
    ambiguous, made = outcome.result['shares']
    assert ambiguous['failed'] is True and uuid(1) in ambiguous['msg'] and uuid(8) in ambiguous['msg']
    assert made['failed'] is False and made['changes'] == ['created']


# -- plan_item: absent --------------------------------------------------------------------

def test_absent_on_an_older_cloud_deletes_without_reading_locks_or_needing_soft_delete(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [
        entry(1, state='absent'), entry(2, state='absent')]}, [
        listing(share(2)),
    ], check_mode=True, diff=True, max_version='2.68')
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    none, gone = result['shares']
    assert none == dict(name='data1', id=None, state='absent', changed=False, changes=[], share={},
                        export_paths=[], rules=[], failed=False, skipped=False)
    assert gone['changes'] == ['deleted'] and gone['state'] == 'absent' and gone['share'] == {}
    assert 'deletion_locks' not in gone
    # no lock was read: the diff says nothing of locks
    assert result['diff'] == {'before': {'shares[1] (data2)': share_view(share(2), metadata={'owner': 'repo'})},
                              'after': {'shares[1] (data2)': {}}}
    assert session.writes() == []


def test_absent_reads_the_locks_and_diffs_the_share_unlocked(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1, state='absent')]}, [
        listing(share(1)), share_locks(None)], check_mode=True, diff=True)
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert result['shares'][0]['changes'] == ['deleted']
    assert result['shares'][0]['deletion_locks'] == []
    before = result['diff']['before']['shares[0] (data1)']
    assert before['deletion_lock'] is False and before['name'] == 'data1'
    assert result['diff']['after']['shares[0] (data1)'] == {}


def test_a_locked_share_to_delete_fails_naming_the_share(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1, state='absent')]}, [
        listing(share(1)), share_locks(None, lock_of(1))], check_mode=True)
    assert isinstance(outcome, Fail)
    assert outcome.result['shares'][0]['msg'].startswith(
        'Share data1 (%s) is locked against deletion: lock lock-1' % uuid(1))


def test_soft_delete_moves_to_the_recycle_bin(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1, state='absent', soft_delete=True)]}, [
        listing(share(1)), share_locks(None)], check_mode=True)
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert result['shares'][0]['changes'] == ['moved to the recycle bin']
    assert result['changed'] is True and session.writes() == []


def test_soft_delete_on_a_cloud_without_it_fails_that_share(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1, state='absent', soft_delete=True)]}, [
        listing(share(1))], check_mode=True, max_version='2.68')
    assert isinstance(outcome, Fail)
    assert outcome.result['shares'][0]['msg'] == 'soft_delete needs Manila API 2.69; this cloud offers 2.68.'


def test_soft_delete_of_a_share_already_in_the_bin_is_a_no_op_even_when_it_is_locked(monkeypatch):
    gone = share(1, is_soft_deleted=True)
    outcome, session = run(monkeypatch, {'shares': [{'id': uuid(1), 'state': 'absent', 'soft_delete': True}]}, [
        listing(),
        by_id(1, gone),
        share_locks(None, lock_of(1)),
    ], check_mode=True)
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    done = result['shares'][0]
    assert done['changed'] is False and done['changes'] == [] and done['failed'] is False
    assert done['share'] == {} and done['deletion_locks'] == []


# -- plan_item: present -------------------------------------------------------------------

def test_a_share_network_is_looked_up_once_for_the_creates_that_name_it(monkeypatch):
    outcome, session = run(monkeypatch, {'marker': MARKER, 'shares': [
        entry(1, share_type='default', share_network='net1', metadata={'team': 'a'}, access_rules=None),
        entry(2, share_type='default', share_network='net1', access_rules=None)]}, [
        listing(),
        BINNED,
        ('GET', '/v2/share-networks/detail?name=net1', ScriptedResponse(200, {'share_networks': [
            {'id': 'net-id-1', 'name': 'net1'}]})),
    ], check_mode=True, diff=True)
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    after = result['diff']['after']
    assert after['shares[0] (data1)'] == {
        'name': 'data1', 'description': None, 'size': 1, 'share_proto': 'NFS', 'share_type_name': 'default',
        'availability_zone': None, 'share_network_id': 'net-id-1', 'snapshot_id': None, 'is_public': None,
        'metadata': {'team': 'a', 'owner': 'repo'}, 'status': 'available'}
    assert after['shares[1] (data2)']['share_network_id'] == 'net-id-1'
    assert after['shares[1] (data2)']['metadata'] == {'owner': 'repo'}
    assert result['diff']['before'] == {'shares[0] (data1)': {}, 'shares[1] (data2)': {}}
    assert [r['changes'] for r in result['shares']] == [['created'], ['created']]


def test_a_create_writes_the_network_and_the_diff_shows_the_share_manila_made(monkeypatch):
    made = share(1, share_network_id='net-id-1')
    outcome, session = run(monkeypatch, {'shares': [
        entry(1, share_type='default', share_network='net1', access_rules=None)]}, [
        listing(),
        BINNED,
        ('GET', '/v2/share-networks/detail?name=net1', ScriptedResponse(200, {'share_networks': [
            {'id': 'net-id-1', 'name': 'net1'}]})),
        ('POST', '/v2/shares', ScriptedResponse(200, {'share': made})),
        listing(made),
        ('GET', '/v2/shares/detail?name=data1', ScriptedResponse(200, {'shares': [made]})),
        exports_of(1),
    ], diff=True)
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert session.bodies('POST') == [{'share': {'share_proto': 'NFS', 'size': 1, 'name': 'data1',
                                                 'share_type': 'default', 'share_network_id': 'net-id-1'}}]
    # what Manila made (its availability zone, its status), not the plan's guess
    assert result['diff']['after']['shares[0] (data1)'] == share_view(made, metadata={'owner': 'repo'})
    assert result['diff']['before']['shares[0] (data1)'] == {}


def metadata_run(monkeypatch, purge_metadata, entries):
    """A check-mode run (with diff) on shares 1..n that carry the marker and 'old'."""
    numbers = range(1, len(entries) + 1)
    outcome, session = run(monkeypatch, {'marker': MARKER, 'purge_metadata': purge_metadata, 'shares': entries}, [
        listing(*[share(n, metadata={'owner': 'repo', 'old': 'x'}) for n in numbers]),
    ] + [x for n in numbers for x in (rules_of(n), exports_of(n))], check_mode=True, diff=True)
    assert not isinstance(outcome, Fail), outcome.result
    assert session.writes() == []
    after = outcome.result['diff']['after'] if outcome.result['changed'] else {}
    return [after.get('shares[%d] (data%d)' % (n - 1, n), {}).get('metadata') for n in numbers], outcome.result


def test_purge_metadata_of_an_entry_overrides_the_tasks_and_needs_its_metadata(monkeypatch):
    seen, result = metadata_run(monkeypatch, False, [
        entry(1, purge_metadata=True, metadata={'team': 'a'}, access_rules=None),
        entry(2, metadata={'team': 'a'}, access_rules=None),
    ])
    assert seen == [{'owner': 'repo', 'team': 'a'}, {'owner': 'repo', 'old': 'x', 'team': 'a'}]
    assert [r['changes'] for r in result['shares']] == [['metadata'], ['metadata']]
    seen, result = metadata_run(monkeypatch, True, [
        entry(1, purge_metadata=False, metadata={'team': 'a'}, access_rules=None),
        entry(2, access_rules=None),                           # no metadata: nothing to purge
        entry(3, metadata={'team': 'a'}, access_rules=None),   # the task's purge_metadata
    ])
    assert seen == [{'owner': 'repo', 'old': 'x', 'team': 'a'}, None, {'owner': 'repo', 'team': 'a'}]
    assert [r['changed'] for r in result['shares']] == [True, False, True]
    # only the changed shares are in the diff
    assert sorted(result['diff']['before']) == ['shares[0] (data1)', 'shares[2] (data3)']


def test_an_entry_by_id_renames_and_the_changes_name_each_field(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [
        {'id': uuid(1), 'name': 'renamed'},
        entry(2, description='hello', is_public=True, access_rules=None),
        entry(3, is_public=False, access_rules=None),
        entry(4, description='same', access_rules=None),
    ]}, [
        listing(share(1), share(2), share(3, is_public=True), share(4, description='same')),
        rules_of(1), exports_of(1), rules_of(2), exports_of(2), rules_of(3), exports_of(3),
        rules_of(4), exports_of(4),
    ], check_mode=True, diff=True)
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert [r['changes'] for r in result['shares']] == [
        ['renamed to renamed'], ['description', 'made public'], ['made private'], []]
    assert [r['name'] for r in result['shares']] == ['renamed', 'data2', 'data3', 'data4']
    assert result['diff']['after']['shares[0] (renamed)']['name'] == 'renamed'
    assert 'shares[3] (data4)' not in result['diff']['before']


def test_an_entry_by_name_never_renames(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [{'name': 'data1', 'description': 'x'}]}, [
        listing(share(1)), rules_of(1), exports_of(1)], check_mode=True)
    assert outcome.result['shares'][0]['changes'] == ['description']


def test_a_create_with_a_lock_is_locked_after_it_is_created(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [
        entry(1, share_type='default', deletion_lock=True, lock_reason='keep', access_rules=None),
        entry(2, deletion_lock=True, lock_reason='keep', access_rules=None)]}, [
        listing(share(2)),
        share_locks(None),
        rules_of(2), exports_of(2),
        BINNED,
    ], check_mode=True, diff=True)
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    created, locked = result['shares']
    assert created['changes'] == ['created', 'locked against deletion']
    assert created['deletion_locks'] == []   # no share yet
    assert locked['changes'] == ['locked against deletion']
    assert locked['deletion_locks'] == [dict(id=None, lock_reason='keep', user_id=None, project_id=None,
                                             lock_context=None, created_at=None)]
    assert result['diff']['after']['shares[0] (data1)']['deletion_lock'] is True
    assert result['diff']['after']['shares[0] (data1)']['lock_reason'] == 'keep'
    assert result['diff']['before']['shares[0] (data1)'] == {}


def test_lifting_a_lock_before_a_deletion_is_said_first(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1, state='absent', deletion_lock=False)]}, [
        listing(share(1)), share_locks(None, lock_of(1))], check_mode=True, diff=True)
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert result['shares'][0]['changes'] == ['deletion lock lifted', 'deleted']
    assert result['shares'][0]['deletion_locks'] == []
    assert result['diff']['before']['shares[0] (data1)']['deletion_lock'] is True
    assert result['diff']['after']['shares[0] (data1)'] == {}


def test_rules_being_denied_are_left_out_of_the_plan_and_the_diff(monkeypatch):
    outcome, session = run(monkeypatch, {'purge_rules': True, 'shares': [entry(1, access_rules=[
        {'access_type': 'ip', 'access_to': '10.0.1.0/24', 'access_level': 'rw'}])]}, [
        listing(share(1)),
        rules_of(1, rule(1, '10.0.1.0/24', level='ro'), rule(1, '10.9.9.9', state='queued_to_deny'),
                 rule(1, '10.8.8.8')),
        exports_of(1),
    ], check_mode=True, diff=True)
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert result['shares'][0]['changes'] == ['level of ip:10.0.1.0/24 to rw', 'denied ip:10.8.8.8']
    assert result['diff']['before']['shares[0] (data1)']['rules'] == [
        diff_rule('10.0.1.0/24', 'ro'), diff_rule('10.8.8.8')]
    assert result['diff']['after']['shares[0] (data1)']['rules'] == [diff_rule('10.0.1.0/24')]
    # check mode: the rules as the plan leaves them
    assert [(r['access_to'], r['access_level']) for r in result['shares'][0]['rules']] == [('10.0.1.0/24', 'rw')]


def test_purge_rules_of_an_entry_overrides_the_tasks(monkeypatch):
    existing = [rule(1, '10.0.1.0/24'), rule(1, '10.9.9.9')]
    outcome, session = run(monkeypatch, {'purge_rules': True, 'shares': [
        entry(1, purge_rules=False), entry(2), entry(3, access_rules=None)]}, [
        listing(share(1), share(2), share(3)),
        rules_of(1, *existing), exports_of(1),
        rules_of(2, rule(2, '10.0.2.0/24'), rule(2, '10.9.9.9')), exports_of(2),
        rules_of(3, rule(3, '10.9.9.9')), exports_of(3),
    ], check_mode=True, diff=True)
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    kept, purged, unmanaged = result['shares']
    assert kept['changed'] is False and [r['access_to'] for r in kept['rules']] == ['10.0.1.0/24', '10.9.9.9']
    assert purged['changes'] == ['denied ip:10.9.9.9']
    # access_rules not given: the rules are not managed, whatever purge_rules says
    assert unmanaged['changed'] is False and unmanaged['changes'] == []
    assert list(result['diff']['before']) == ['shares[1] (data2)']
    assert kept['share']['export_locations'] == [
        {'path': '10.0.0.1:/s1', 'preferred': True}, {'path': '10.0.0.2:/s1', 'preferred': False}]


def test_metadata_changes_and_the_metadata_of_an_unmanaged_share_leave_rules_out_of_the_diff(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1, metadata={'team': 'a'}, access_rules=None)]}, [
        listing(share(1)), rules_of(1, rule(1, '10.9.9.9')), exports_of(1)], check_mode=True, diff=True)
    result = outcome.result
    assert result['shares'][0]['changes'] == ['metadata']
    assert 'rules' not in result['diff']['before']['shares[0] (data1)']
    assert 'rules' not in result['diff']['after']['shares[0] (data1)']


def test_a_rule_level_below_2_88_is_re_created_and_rule_metadata_is_set(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1, access_rules=[
        {'access_type': 'ip', 'access_to': '10.0.1.0/24', 'access_level': 'rw'},
        {'access_type': 'ip', 'access_to': '10.0.2.0/24', 'metadata': {'k': 'v'}}])]}, [
        listing(share(1)),
        rules_of(1, rule(1, '10.0.1.0/24', level='ro'), rule(1, '10.0.2.0/24')),
        exports_of(1),
    ], check_mode=True, max_version='2.87')
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert result['shares'][0]['changes'] == ['metadata of ip:10.0.2.0/24', 're-created ip:10.0.1.0/24 (rw)']


def test_rules_after_the_writes_leave_out_rules_being_denied(monkeypatch):
    going = rule(1, '10.7.7.7', state='denying')
    outcome, session = run(monkeypatch, {'shares': [entry(1)]}, [
        listing(share(1)),
        rules_of(1, going), exports_of(1),
        ('POST', '/v2/shares/%s/action' % uuid(1), ScriptedResponse(200, {
            'access': rule(1, '10.0.1.0/24', state='queued_to_apply')})),
        listing(share(1, access_rules_status='syncing')),
        listing(share(1)),
        rules_of(1, rule(1, '10.0.1.0/24'), going),
    ], diff=True)
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert result['diff']['before']['shares[0] (data1)']['rules'] == []
    assert result['diff']['after']['shares[0] (data1)']['rules'] == [diff_rule('10.0.1.0/24')]
    assert result['shares'][0]['changes'] == ['allowed ip:10.0.1.0/24 (rw)']


# -- check_quotas -------------------------------------------------------------------------

def test_the_preflight_counts_a_create_without_share_type_under_the_default_type(monkeypatch):
    own_project(monkeypatch)
    outcome, session = run(monkeypatch, {'shares': [entry(1, size=5, access_rules=None)]}, [
        listing(),
        BINNED,
        ('GET', '/v2/types/default', ScriptedResponse(200, {'share_type': {'id': uuid(900), 'name': 'default'}})),
        ('GET', QUOTA_DETAIL, quota_detail((10, 0), (100, 0))),
        ('GET', TYPE_QUOTA_DETAIL, quota_detail((-1, 0), (4, 0))),
    ], check_mode=True)
    assert isinstance(outcome, Fail)
    assert 'Share type default: this run would need 5 gigabytes more; it has room for 4 (limit 4)' in outcome.result['msg']
    assert session.writes() == []


def test_the_preflight_counts_an_extend_under_the_shares_type(monkeypatch):
    own_project(monkeypatch)
    outcome, session = run(monkeypatch, {'shares': [entry(1, size=5, access_rules=None),
                                                    entry(2, size=1, access_rules=None)]}, [
        listing(share(1), share(2, size=3)),
        rules_of(1), exports_of(1), rules_of(2), exports_of(2),
        ('GET', QUOTA_DETAIL, quota_detail((10, 2), (100, 4))),
        ('GET', TYPE_QUOTA_DETAIL, quota_detail((-1, 2), (6, 4))),
    ], check_mode=True)
    assert isinstance(outcome, Fail)
    assert 'Share type default: this run would need 4 gigabytes more; it has room for 2 (limit 6)' in outcome.result['msg']


def test_the_preflight_names_the_type_by_id_when_the_share_shows_no_type_name(monkeypatch):
    own_project(monkeypatch)
    outcome, session = run(monkeypatch, {'shares': [entry(1, size=2, access_rules=None)]}, [
        listing(share(1, share_type_name=None)),
        rules_of(1), exports_of(1),
        ('GET', QUOTA_DETAIL, quota_detail((10, 1), (100, 1))),
        ('GET', '/v2/quota-sets/p1/detail?share_type=%s' % uuid(900), quota_detail((-1, 1), (-1, 1))),
    ], check_mode=True)
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['shares'][0]['changes'] == ['resized to 2 GiB']


# -- result_of and outcome ----------------------------------------------------------------

def test_a_refused_update_reports_no_change(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1, is_public=True, access_rules=None)]}, [
        listing(share(1)), rules_of(1), exports_of(1),
        ('PUT', '/v2/shares/' + uuid(1), ScriptedResponse(400, {'badRequest': {'code': 400, 'message': 'no'}})),
    ], diff=True)
    assert isinstance(outcome, Fail)
    result = outcome.result['shares'][0]
    assert result['changed'] is False and result['changes'] == [] and result['failed'] is True
    assert 'diff' not in outcome.result


def test_purged_shares_that_fail_are_counted_and_named(monkeypatch):
    outcome, session = run(monkeypatch, {'wait': False, 'marker': MARKER, 'purge': True, 'shares': [
        entry(1, access_rules=None)]}, [
        listing(share(1), share(8, name='old'), share(9, name='busy', status='creating')),
        share_locks(None),
        rules_of(1), exports_of(1),
        ('DELETE', '/v2/shares/' + uuid(8), ScriptedResponse(403, {'forbidden': {'code': 403, 'message': 'no'}})),
    ], diff=True)
    result = outcome.result
    assert isinstance(outcome, Fail)
    assert result['msg'].startswith('2 of 3 shares did not converge: purged share old (%s): ' % uuid(8))
    assert ' | purged share busy (%s): Share busy (%s) is busy (creating)' % (uuid(9), uuid(9)) in result['msg']
    assert result['purged'] == [] and result['changed'] is False
    assert result['shares'][0]['deletion_locks'] == [] and result['shares'][0]['changed'] is False
    assert 'diff' not in result


def test_purge_never_deletes_a_share_an_entry_names_by_id(monkeypatch):
    outcome, session = run(monkeypatch, {'marker': MARKER, 'purge': True, 'shares': [
        {'id': uuid(1), 'access_rules': None}, entry(2, access_rules=None)]}, [
        listing(share(1), share(2), share(3, name='old')),
        share_locks(None),
        rules_of(1), exports_of(1), rules_of(2), exports_of(2),
    ], check_mode=True)
    result = outcome.result
    assert not isinstance(outcome, Fail), result
    assert result['purged'] == [{'id': uuid(3), 'name': 'old'}]
    assert [r['changed'] for r in result['shares']] == [False, False]


def test_a_claimed_share_is_skipped_with_both_marker_values_named(monkeypatch):
    outcome, session = run(monkeypatch, {'marker': MARKER, 'shares': [entry(1, size=2)]}, [
        listing(share(1, metadata={'owner': 'other'})), rules_of(1), exports_of(1)], check_mode=True)
    result = outcome.result['shares'][0]
    assert result['skipped'] is True and result['changed'] is False
    assert result['msg'] == ("Share data1 (%s) carries the marker owner=other of another task (this task's "
                             "marker is owner=repo): it is left untouched." % uuid(1))


# -- Fleet itself -------------------------------------------------------------------------

def params_of(shares, **options):
    """The module's parameters as Ansible gives them (every option, its default)."""
    defaults = dict((k, v.get('default')) for k, v in share_argument_spec().items())
    params = dict(shares=[dict(defaults, **s) for s in shares], purge_metadata=False, purge_rules=False,
                  marker=None, purge=False, concurrency=1, wait=True, timeout=60)
    params.update(options)
    return params


def test_a_fleet_applies_unless_told_it_is_check_mode():
    client, session = make_client([
        listing(share(1)), rules_of(1), exports_of(1),
        ('POST', '/v2/shares/%s/metadata' % uuid(1), ScriptedResponse(200, {'metadata': {
            'owner': 'repo', 'team': 'a'}})),
    ])
    params = params_of([dict(name='data1', metadata={'team': 'a'})])
    items = validate_desired(params)
    fleet = Fleet(client, params)
    purged = fleet.converge(items)
    outcome = fleet.outcome(items, purged)
    assert session.bodies('POST') == [{'metadata': {'team': 'a'}}]
    assert outcome.changed is True and outcome.msg is None
    assert outcome.result['shares'][0]['changes'] == ['metadata']


def test_the_removal_of_a_namesake_waits_no_longer_than_the_tasks_timeout(monkeypatch):
    """A create that lost the race for its name removes its share and waits until
    it is gone: within ``timeout`` (5 s here: six reads), not the API's default."""
    older = share(1, name='data2', created_at='2026-01-01T10:00:00.000000')
    mine = share(2, status='creating', created_at='2026-01-01T10:00:00.300000')
    outcome, session = run(monkeypatch, {'timeout': 5, 'shares': [entry(2, access_rules=None, share_type='default')]}, [
        listing(),
        BINNED,
        ('POST', '/v2/shares', ScriptedResponse(200, {'share': mine})),
        listing(older, dict(mine, status='available')),
        ('GET', '/v2/shares/detail?name=data2', ScriptedResponse(200, {'shares': [
            older, dict(mine, status='available')]})),
        ('DELETE', '/v2/shares/' + uuid(2), ScriptedResponse(202)),
    ] + [by_id(2, dict(mine, status='deleting'))] * 6 + [
        ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % uuid(2),
         ScriptedResponse(200, {'messages': []})),
    ])
    assert isinstance(outcome, Fail)
    assert outcome.result['shares'][0]['msg'].startswith(
        'Share data2 (%s) is still deleting after 5 seconds (waiting for gone)' % uuid(2))
    assert [c.method for c in session.writes()] == ['POST', 'DELETE']


def test_the_denial_of_a_twin_rule_waits_no_longer_than_the_tasks_timeout(monkeypatch):
    """The task that made the newer of two twin rules denies it and waits until it
    is gone: within ``timeout`` (5 s here: six reads), not the API's default."""
    older = dict(rule(9, '10.0.1.0/24'), created_at='2026-01-01T10:00:00')
    mine = dict(rule(1, '10.0.1.0/24'), created_at='2026-01-01T10:00:01')
    outcome, session = run(monkeypatch, {'timeout': 5, 'shares': [entry(1)]}, [
        listing(share(1)),
        rules_of(1), exports_of(1),
        ('POST', '/v2/shares/%s/action' % uuid(1), ScriptedResponse(200, {'access': dict(mine, state='queued_to_apply')})),
        listing(share(1)),
        rules_of(1, older, mine),
        ('POST', '/v2/shares/%s/action' % uuid(1), ScriptedResponse(202)),
    ] + [rules_of(1, older, dict(mine, state='denying'))] * 6 + [
        ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % uuid(1),
         ScriptedResponse(200, {'messages': []})),
    ])
    assert isinstance(outcome, Fail)
    result = outcome.result['shares'][0]
    assert result['failed'] is True and result['changed'] is True
    assert result['msg'].startswith('Share %s is still settling its access rules (ip:10.0.1.0/24 is still '
                                    'denying) after 5 seconds' % uuid(1))
    assert [list(b) for b in session.bodies('POST')] == [['allow_access'], ['deny_access']]


# -- the quota preflight of issue 36: replicas, one type by name and ID, user quotas ------
TYPES_LISTING = '/v2/types?is_public=all&limit=1000&offset=0'


def types_listing(*types):
    """The listing of the types (a page, then the empty page that ends it)."""
    return [('GET', TYPES_LISTING, ScriptedResponse(200, {'share_types': list(types)})),
            ('GET', TYPES_LISTING.replace('offset=0', 'offset=%d' % len(types)),
             ScriptedResponse(200, {'share_types': []}))]


def quotas_with(**limits):
    """A quota detail of the names given as (limit, in_use)."""
    return ScriptedResponse(200, {'quota_set': dict(
        (name, {'limit': limit, 'in_use': used, 'reserved': 0})
        for name, (limit, used) in limits.items())})


ROOM = dict(shares=(10, 0), gigabytes=(100, 0), per_share_gigabytes=(-1, 0))


def test_one_type_named_by_name_and_by_id_is_counted_once(monkeypatch):
    own_project(monkeypatch)
    outcome, session = run(monkeypatch, {'shares': [
        entry(1, share_type='gold', access_rules=None),
        entry(2, share_type=uuid(901), access_rules=None)]}, [
        listing(),
        BINNED,
    ] + types_listing({'id': uuid(901), 'name': 'gold', 'extra_specs': {}}) + [
        ('GET', QUOTA_DETAIL, quotas_with(**ROOM)),
        ('GET', '/v2/quota-sets/p1/detail?share_type=gold',
         quotas_with(shares=(1, 0), gigabytes=(-1, 0))),
    ], check_mode=True)
    assert isinstance(outcome, Fail)
    assert 'Share type gold: this run would need 2 shares more; it has room for 1 (limit 1)' \
        in outcome.result['msg']
    assert session.writes() == []


def test_a_create_of_a_replicated_type_counts_a_replica_and_its_gigabytes(monkeypatch):
    own_project(monkeypatch)
    outcome, session = run(monkeypatch, {'shares': [entry(1, size=5, access_rules=None)]}, [
        listing(),
        BINNED,
        ('GET', '/v2/types/default', ScriptedResponse(200, {'share_type': {
            'id': uuid(900), 'name': 'default', 'extra_specs': {'replication_type': 'readable'}}})),
        ('GET', QUOTA_DETAIL, quotas_with(share_replicas=(3, 3), replica_gigabytes=(100, 98),
                                          **ROOM)),
        ('GET', TYPE_QUOTA_DETAIL, quota_detail((-1, 0), (-1, 0))),
    ], check_mode=True)
    assert isinstance(outcome, Fail)
    assert ('The project: this run would need 1 share_replicas and 5 replica_gigabytes more; '
            'it has room for 0 (limit 3) and 2 (limit 100)') in outcome.result['msg']


def test_an_extend_of_a_replicated_share_counts_its_growth_once_per_replica(monkeypatch):
    own_project(monkeypatch)
    mine = share(1, size=1, replication_type='dr', has_replicas=True)
    outcome, session = run(monkeypatch, {'shares': [entry(1, size=3, access_rules=None)]}, [
        listing(mine), rules_of(1), exports_of(1),
        ('GET', '/v2/share-replicas/detail?share_id=' + uuid(1), ScriptedResponse(200, {
            'share_replicas': [{'id': 'r1'}, {'id': 'r2'}]})),
        ('GET', QUOTA_DETAIL, quotas_with(replica_gigabytes=(10, 7), **ROOM)),
        ('GET', TYPE_QUOTA_DETAIL, quota_detail((-1, 0), (-1, 0))),
    ], check_mode=True)
    assert isinstance(outcome, Fail)
    assert 'this run would need 4 replica_gigabytes more; it has room for 3 (limit 10)' \
        in outcome.result['msg']


def test_the_users_own_quotas_are_checked(monkeypatch):
    own_project(monkeypatch)
    monkeypatch.setattr(ManilaClient, 'token_user_id', lambda self: 'u1', raising=False)
    outcome, session = run(monkeypatch, {'shares': [
        entry(1, share_type='default', access_rules=None)]}, [
        listing(),
        BINNED,
        ('GET', QUOTA_DETAIL, quotas_with(**ROOM)),
        ('GET', TYPE_QUOTA_DETAIL, quota_detail((-1, 0), (-1, 0))),
        ('GET', '/v2/quota-sets/p1/detail?user_id=u1', quotas_with(shares=(1, 1))),
    ], check_mode=True)
    assert isinstance(outcome, Fail)
    assert ('The quotas of user u1: this run would need 1 shares more; it has room for 0 '
            '(limit 1)') in outcome.result['msg']


def test_a_type_not_seen_is_read_only_when_its_replication_decides(monkeypatch):
    own_project(monkeypatch)
    outcome, session = run(monkeypatch, {'shares': [
        entry(1, share_type='silver', access_rules=None)]}, [
        listing(),
        BINNED,
        ('GET', QUOTA_DETAIL, quotas_with(share_replicas=(0, 0), **ROOM)),
        ('GET', '/v2/quota-sets/p1/detail?share_type=silver', quota_detail((-1, 0), (-1, 0))),
    ] + types_listing({'id': uuid(902), 'name': 'silver', 'extra_specs': {}}) + [
        ('GET', QUOTA_DETAIL, quotas_with(share_replicas=(0, 0), **ROOM)),
        ('GET', '/v2/quota-sets/p1/detail?share_type=silver', quota_detail((-1, 0), (-1, 0))),
    ], check_mode=True)
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['shares'][0]['changes'] == ['created']


# == the writes and waits: Fleet.apply and wait_if_busy =====================================
# (the requests of each write in their order, the waits on a FakeClock; the same
# helpers and ``run`` as the planning tests above)

TIMEOUT = 'is still %s after 3 seconds (waiting for %s); raise "timeout" or check the service.'


def label(n, name=None):
    return 'Share %s (%s)' % (name or 'data%d' % n, uuid(n))


def messages_of(n, *texts):
    """Manila's newest user messages about share ``n`` (read for every failure and timeout)."""
    return ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % uuid(n),
            ScriptedResponse(200, {'messages': [{'user_message': t} for t in texts]}))


def polls(count, *shares):
    """``count`` polls that each read the listing of ``shares``."""
    return [listing(*shares)] * count


def only(outcome):
    """The result of the task's one share."""
    return outcome.result['shares'][0]


# -- busy shares before any plan (Fleet.wait_if_busy) ----------------------------------------

def test_a_busy_share_without_wait_fails_alone_and_nothing_is_read_of_it(monkeypatch):
    outcome, session = run(monkeypatch, {'wait': False, 'shares': [entry(1), entry(2)]}, [
        listing(share(1, status='extending'), share(2)),
        rules_of(2, rule(2, '10.0.2.0/24')), exports_of(2),
    ])
    assert isinstance(outcome, Fail)
    busy, idle = outcome.result['shares']
    assert busy['failed'] is True and busy['changed'] is False
    assert busy['msg'] == '%s is busy (extending); run again later or set wait=true.' % label(1)
    assert idle['failed'] is False and idle['changed'] is False
    assert outcome.result['msg'] == '1 of 2 shares did not converge: shares[0] (data1): ' + busy['msg']


def test_a_busy_share_is_polled_until_it_rests_then_read(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1)]}, [
        listing(share(1, status='extending')),
        listing(share(1, status='extending')),
        listing(share(1)),
        rules_of(1, rule(1, '10.0.1.0/24')), exports_of(1),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['changed'] is False and session.writes() == []
    assert only(outcome)['share']['status'] == 'available'
    assert only(outcome)['export_paths'] == ['10.0.0.1:/s1', '10.0.0.2:/s1']


def test_a_namesake_being_deleted_is_waited_out_then_the_share_is_created(monkeypatch):
    created = share(1, status='available')
    outcome, session = run(monkeypatch, {'shares': [entry(1, share_type='default', access_rules=None)]}, [
        listing(share(1, status='deleting')),
        listing(),
        BINNED,
        ('POST', '/v2/shares', ScriptedResponse(200, {'share': created})),
        listing(created),
        ('GET', '/v2/shares/detail?name=data1', ScriptedResponse(200, {'shares': [created]})),
        exports_of(1),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert [c.method for c in session.writes()] == ['POST']
    assert only(outcome)['changes'] == ['created']


def test_a_busy_share_that_never_rests_times_out_naming_its_status(monkeypatch):
    outcome, session = run(monkeypatch, {'timeout': 3, 'shares': [entry(1), entry(2)]}, [
        listing(share(1, status='extending'), share(2)),
    ] + polls(4, share(1, status='extending'), share(2)) + [
        messages_of(1, 'extend failed on the backend.'),
        rules_of(2, rule(2, '10.0.2.0/24')), exports_of(2),
    ])
    assert isinstance(outcome, Fail)
    stuck, idle = outcome.result['shares']
    assert stuck['msg'] == '%s %s Manila says: extend failed on the backend.' % (
        label(1), TIMEOUT % ('extending', 'it to be done'))
    assert idle['failed'] is False
    assert session.writes() == []


def test_polls_that_keep_failing_before_any_write_say_nothing_was_sent(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1)]}, [
        listing(share(1, status='extending')),
    ] + failed_poll() * 3)
    assert isinstance(outcome, Fail)
    assert only(outcome)['msg'] == (
        '%s: unknown: could not read its state (3 listings of the shares in a row failed): '
        'listing broke (HTTP 500 on GET %s). Run the task again: it goes on from what Manila '
        'shows.' % (label(1), LISTING))
    assert only(outcome)['changed'] is False


# -- the share's own write (Fleet.send_share) and its wait (Fleet.share_reached_goal) ----------

CREATE = ('POST', '/v2/shares')


def refused_create(status, message, request_id='req-7'):
    return CREATE + (ScriptedResponse(status, {'itemNotFound': {'code': status, 'message': message}},
                                      {'x-openstack-request-id': request_id}),)


def test_a_create_manila_cannot_place_names_what_the_entry_asked_for(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [
        entry(1, share_type='gold', availability_zone='az9', access_rules=None),
        entry(2, access_rules=None)]}, [
        listing(),
        BINNED,
        ('GET', '/v2/types/default', ScriptedResponse(200, {'share_type': {'id': uuid(900)}})),
        # the zone a create names is looked up before any write (issue 37)
        ('GET', '/v2/availability-zones', ScriptedResponse(200, {'availability_zones': [
            {'id': uuid(950), 'name': 'az9'}]})),
        refused_create(404, 'Share type gold could not be found.'),
        refused_create(404, 'Default share type not found.', 'req-8'),
    ])
    assert isinstance(outcome, Fail)
    placed, default = outcome.result['shares']
    assert placed['msg'] == (
        "Manila could not create the share: Share type gold could not be found. Check share_type "
        "'gold', availability_zone 'az9'. (HTTP 404) [request id req-7]")
    assert default['msg'] == (
        'Manila could not create the share: Default share type not found. Check the default '
        'share type. (HTTP 404) [request id req-8]')
    assert [r['changed'] for r in outcome.result['shares']] == [False, False]
    assert [r['id'] for r in outcome.result['shares']] == [None, None]


def binned_share(n, **fields):
    """The soft-deleted-share listing with share ``n`` in the recycle bin."""
    return binned(share(n, is_soft_deleted=True, **fields))


def action(n, answer=None):
    return ('POST', '/v2/shares/%s/action' % uuid(n), answer or ScriptedResponse(202))


def test_a_restore_waits_for_the_share_then_sets_its_rules_and_reads_its_exports(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1, restore=True)]}, [
        listing(),
        binned_share(1),
        rules_of(1),                    # no exports while in the recycle bin
        action(1),
        listing(share(1, status='restoring')),
        listing(share(1)),
        action(1, ScriptedResponse(200, {'access': rule(1, '10.0.1.0/24', state='queued_to_apply')})),
        listing(share(1, access_rules_status='syncing')),
        listing(share(1)),
        rules_of(1, rule(1, '10.0.1.0/24')),
        exports_of(1),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert list(session.bodies('POST')[0]) == ['restore']
    result = only(outcome)
    assert result['changes'] == ['restored', 'allowed ip:10.0.1.0/24 (rw)']
    assert result['share']['is_soft_deleted'] is False and result['share']['status'] == 'available'
    assert result['export_paths'] == ['10.0.0.1:/s1', '10.0.0.2:/s1']
    assert [r['state'] for r in result['rules']] == ['active']


def test_a_restore_without_wait_returns_the_share_out_of_the_bin_and_writes_its_rules(monkeypatch):
    outcome, session = run(monkeypatch, {'wait': False, 'shares': [entry(1, restore=True)]}, [
        listing(),
        binned_share(1),
        rules_of(1),
        action(1),
        action(1, ScriptedResponse(200, {'access': rule(1, '10.0.1.0/24', state='queued_to_apply')})),
        rules_of(1, rule(1, '10.0.1.0/24', state='queued_to_apply')),
        exports_of(1),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert [list(b) for b in session.bodies('POST')] == [['restore'], ['allow_access']]
    result = only(outcome)
    assert result['share']['is_soft_deleted'] is False
    assert result['export_paths'] == ['10.0.0.1:/s1', '10.0.0.2:/s1']


EXPORT_LOCATIONS = [{'path': '10.0.0.1:/s1', 'preferred': True}, {'path': '10.0.0.2:/s1', 'preferred': False}]


def test_an_extend_waits_until_available_and_keeps_the_exports_it_read(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1, size=2)]}, [
        listing(share(1)),
        rules_of(1, rule(1, '10.0.1.0/24')), exports_of(1),
        action(1),
        listing(share(1, status='extending')),
        listing(share(1, size=2)),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert session.bodies('POST') == [{'extend': {'new_size': 2}}]
    result = only(outcome)
    assert result['changes'] == ['resized to 2 GiB']
    assert result['share']['size'] == 2 and result['share']['status'] == 'available'
    assert result['share']['export_locations'] == EXPORT_LOCATIONS
    assert result['export_paths'] == ['10.0.0.1:/s1', '10.0.0.2:/s1']


def test_an_extend_read_once_at_its_old_size_is_waited_for_to_the_end(monkeypatch):
    # Manila 2023.2 can show the share available at its old size for one read
    # while the resize is written: the wait goes on until the new size shows.
    outcome, session = run(monkeypatch, {'shares': [entry(1, size=2)]}, [
        listing(share(1)),
        rules_of(1, rule(1, '10.0.1.0/24')), exports_of(1),
        action(1),
        listing(share(1, status='extending')),
        listing(share(1)),
        listing(share(1, size=2)),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert only(outcome)['share']['size'] == 2


def test_an_extend_manila_leaves_undone_fails_with_its_messages(monkeypatch):
    # A scheduler with no room puts the share back to available at its old size.
    outcome, session = run(monkeypatch, {'shares': [entry(1, size=2)]}, [
        listing(share(1)),
        rules_of(1, rule(1, '10.0.1.0/24')), exports_of(1),
        action(1),
        listing(share(1)),
        listing(share(1)),
        messages_of(1, 'extend: no valid host was found.'),
    ])
    assert isinstance(outcome, Fail)
    assert only(outcome)['msg'] == (
        '%s is available at 1 GiB, not 2 GiB: Manila did not resize it while waiting for a '
        'size of 2 GiB. Manila says: extend: no valid host was found.' % label(1))
    assert only(outcome)['changed'] is True and only(outcome)['share']['size'] == 1


def test_an_extend_that_never_ends_times_out_naming_its_status(monkeypatch):
    outcome, session = run(monkeypatch, {'timeout': 3, 'shares': [entry(1, size=2)]}, [
        listing(share(1)),
        rules_of(1, rule(1, '10.0.1.0/24')), exports_of(1),
        action(1),
    ] + polls(4, share(1, status='extending')) + [
        messages_of(1),
    ])
    assert isinstance(outcome, Fail)
    assert only(outcome)['msg'] == '%s %s' % (label(1), TIMEOUT % ('extending', 'available'))
    assert only(outcome)['changed'] is True


def test_an_update_without_wait_keeps_the_exports_it_read(monkeypatch):
    outcome, session = run(monkeypatch, {'wait': False, 'shares': [entry(1, description='new')]}, [
        listing(share(1)),
        rules_of(1, rule(1, '10.0.1.0/24')), exports_of(1),
        ('PUT', '/v2/shares/' + uuid(1), ScriptedResponse(200, {'share': share(1, description='new')})),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert session.bodies('PUT') == [{'share': {'display_description': 'new'}}]
    result = only(outcome)
    assert result['share']['description'] == 'new'
    assert result['share']['export_locations'] == EXPORT_LOCATIONS


def test_a_soft_delete_moves_the_share_to_the_bin_without_waiting(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1, state='absent', soft_delete=True)]}, [
        listing(share(1)),
        ('GET', '/v2/resource-locks?resource_type=share&resource_action=delete&with_count=true&limit=1000&offset=0',
         ScriptedResponse(200, {'resource_locks': []})),
        action(1),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert session.bodies('POST') == [{'soft_delete': None}]
    assert only(outcome)['changes'] == ['moved to the recycle bin'] and only(outcome)['share'] == {}


def test_a_deletion_that_goes_to_error_fails_naming_the_deletion(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1, state='absent')]}, [
        listing(share(1)),
        ('GET', '/v2/resource-locks?resource_type=share&resource_action=delete&with_count=true&limit=1000&offset=0',
         ScriptedResponse(200, {'resource_locks': []})),
        ('DELETE', '/v2/shares/' + uuid(1), ScriptedResponse(202)),
        listing(share(1, status='deleting')),
        listing(share(1, status='error_deleting')),
        messages_of(1, 'delete failed on the backend.'),
    ])
    assert isinstance(outcome, Fail)
    result = only(outcome)
    assert result['msg'] == ('%s went to error_deleting while waiting for its deletion. Manila says: '
                             'delete failed on the backend.' % label(1))
    assert result['share']['status'] == 'error_deleting' and result['share']['export_locations'] == []
    assert result['changed'] is True


def create_of(n, answer, *after):
    """A task that creates share ``n`` (type default, no rules): the requests up to the create."""
    return [listing(), BINNED, CREATE + (ScriptedResponse(200, {'share': answer}),)] + list(after)


def test_a_create_that_goes_to_error_fails_saying_the_share_is_left(monkeypatch):
    created = share(1, status='creating')
    outcome, session = run(monkeypatch, {'shares': [entry(1, share_type='default', access_rules=None)]},
                           create_of(1, created, listing(dict(created, status='error')), messages_of(1)))
    assert isinstance(outcome, Fail)
    assert only(outcome)['msg'] == ('%s went to error while waiting for available. The share was '
                                    'created and is left in that state; delete it with state=absent.'
                                    % label(1))
    assert only(outcome)['share']['export_locations'] == [] and only(outcome)['id'] == uuid(1)


def test_a_create_that_disappears_fails_as_gone(monkeypatch):
    created = share(1, status='creating')
    outcome, session = run(monkeypatch, {'shares': [entry(1, share_type='default', access_rules=None)]},
                           create_of(1, created, listing()))
    assert isinstance(outcome, Fail)
    assert only(outcome)['msg'] == '%s disappeared while waiting for available.' % label(1)
    assert only(outcome)['changed'] is True


def test_a_create_that_never_ends_times_out_naming_its_status(monkeypatch):
    created = share(1, status='creating')
    outcome, session = run(monkeypatch, {'timeout': 3, 'shares': [entry(1, share_type='default', access_rules=None)]},
                           create_of(1, created, *polls(4, created)) + [messages_of(1, 'still scheduling.')])
    assert isinstance(outcome, Fail)
    assert only(outcome)['msg'] == '%s %s Manila says: still scheduling.' % (
        label(1), TIMEOUT % ('creating', 'available'))


def test_a_share_shown_without_a_status_times_out_as_unknown(monkeypatch):
    created = share(1, status='creating')
    shown = dict((k, v) for k, v in created.items() if k != 'status')
    outcome, session = run(monkeypatch, {'timeout': 3, 'shares': [entry(1, share_type='default', access_rules=None)]},
                           create_of(1, created, *polls(4, shown)) + [messages_of(1)])
    assert isinstance(outcome, Fail)
    assert only(outcome)['msg'] == '%s %s' % (label(1), TIMEOUT % ('unknown', 'available'))


def test_polls_that_keep_failing_after_a_create_say_the_create_was_sent(monkeypatch):
    created = share(1, status='creating')
    outcome, session = run(monkeypatch, {'shares': [entry(1, share_type='default', access_rules=None)]},
                           create_of(1, created, *(failed_poll() * 3)))
    assert isinstance(outcome, Fail)
    assert only(outcome)['msg'] == (
        '%s: unknown: could not read its state (3 listings of the shares in a row failed): '
        'listing broke (HTTP 500 on GET %s). What the task asked of Manila for it was sent. Run '
        'the task again: it goes on from what Manila shows.' % (label(1), LISTING))


# -- the rules: waits before and after each write (Fleet.rules_status_at_rest, rule_states) ---

def allow_answer(n, target):
    return action(n, ScriptedResponse(200, {'access': rule(n, target, state='queued_to_apply')}))


def test_rules_still_syncing_from_before_are_waited_out_before_the_first_write(monkeypatch):
    syncing = share(1, access_rules_status='syncing')
    outcome, session = run(monkeypatch, {'shares': [entry(1)]}, [
        listing(syncing),
        rules_of(1), exports_of(1),
        listing(syncing),
        listing(share(1)),
        allow_answer(1, '10.0.1.0/24'),
        listing(syncing),
        listing(share(1)),
        rules_of(1, rule(1, '10.0.1.0/24')),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    result = only(outcome)
    assert result['changes'] == ['allowed ip:10.0.1.0/24 (rw)']
    # the share as last polled, with the exports read before
    assert result['share']['access_rules_status'] == 'active'
    assert result['share']['export_locations'] == EXPORT_LOCATIONS


def test_rules_that_keep_syncing_from_before_time_out_without_a_write(monkeypatch):
    syncing = share(1, access_rules_status='syncing')
    outcome, session = run(monkeypatch, {'timeout': 3, 'shares': [entry(1)]}, [
        listing(syncing),
        rules_of(1), exports_of(1),
    ] + polls(4, syncing) + [messages_of(1)])
    assert isinstance(outcome, Fail)
    assert only(outcome)['msg'] == '%s %s' % (label(1), TIMEOUT % ('syncing', 'its access rules'))
    assert session.writes() == [] and only(outcome)['changed'] is False


def test_rules_that_keep_syncing_after_the_write_time_out_naming_the_polled_status(monkeypatch):
    outcome, session = run(monkeypatch, {'timeout': 3, 'shares': [entry(1)]}, [
        listing(share(1)),
        rules_of(1), exports_of(1),
        allow_answer(1, '10.0.1.0/24'),
    ] + polls(4, share(1, access_rules_status='syncing')) + [messages_of(1, 'sync is slow.')])
    assert isinstance(outcome, Fail)
    assert only(outcome)['msg'] == '%s %s Manila says: sync is slow.' % (
        label(1), TIMEOUT % ('syncing', 'its access rules'))
    assert only(outcome)['changed'] is True


def test_a_share_gone_while_its_rules_sync_fails_as_gone(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1)]}, [
        listing(share(1)),
        rules_of(1), exports_of(1),
        allow_answer(1, '10.0.1.0/24'),
        listing(),
    ])
    assert isinstance(outcome, Fail)
    assert only(outcome)['msg'] == '%s disappeared while waiting for its access rules to be applied.' % label(1)


def rule_in_error(n, target, reason):
    """The failure of share n for its ip rule to ``target`` in error, with Manila's reason."""
    return ('%s has this access rule in error (ip:%s, rw, r%d-%s) while waiting for its access '
            'rules to settle. Manila says: %s The rule is left in error: remove it with '
            'state=absent, or run the task again to retry it.' % (label(n), target, n, target, reason))


def test_a_rule_this_task_allowed_in_error_fails_the_share_with_manilas_reason(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1)]}, [
        listing(share(1)),
        rules_of(1), exports_of(1),
        allow_answer(1, '10.0.1.0/24'),
        listing(share(1, access_rules_status='error')),
        rules_of(1, rule(1, '10.0.1.0/24', state='error')),
        messages_of(1, 'access rule could not be applied.'),
    ])
    assert isinstance(outcome, Fail)
    assert only(outcome)['msg'] == rule_in_error(1, '10.0.1.0/24', 'access rule could not be applied.')
    assert [r['state'] for r in only(outcome)['rules']] == ['error']


def test_rules_of_a_share_in_rule_error_that_never_settle_time_out(monkeypatch):
    broken = share(1, access_rules_status='error')
    applying = rule(1, '10.0.5.0/24', state='applying')
    outcome, session = run(monkeypatch, {'timeout': 3, 'shares': [entry(1, access_rules=[
        {'access_type': 'ip', 'access_to': '10.0.5.0/24'}])]}, [
        listing(broken),
        rules_of(1), exports_of(1),
        allow_answer(1, '10.0.5.0/24'),
        listing(broken),
        rules_of(1, applying),
        listing(broken), rules_of(1, applying),
        listing(broken), rules_of(1, applying),
        listing(), rules_of(1, applying),   # the share left the listing: its last known status counts
        messages_of(1),
    ])
    assert isinstance(outcome, Fail)
    assert only(outcome)['msg'] == '%s %s' % (label(1), TIMEOUT % ('error', 'its access rules'))


def test_denied_rules_are_read_until_they_are_gone(monkeypatch):
    keep, extra = rule(1, '10.0.1.0/24'), rule(1, '10.9.9.9')
    outcome, session = run(monkeypatch, {'purge_rules': True, 'shares': [entry(1)]}, [
        listing(share(1)),
        rules_of(1, keep, extra), exports_of(1),
        action(1),
        listing(share(1, access_rules_status='syncing')),
        listing(share(1)),
        rules_of(1, keep, dict(extra, state='queued_to_deny')),
        listing(share(1)),
        rules_of(1, keep),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert session.bodies('POST') == [{'deny_access': {'access_id': extra['id']}}]
    result = only(outcome)
    assert result['changes'] == ['denied ip:10.9.9.9']
    assert [r['id'] for r in result['rules']] == [keep['id']]


def test_a_denial_that_goes_to_error_fails_the_share_at_once(monkeypatch):
    keep, extra = rule(1, '10.0.1.0/24'), rule(1, '10.9.9.9')
    outcome, session = run(monkeypatch, {'purge_rules': True, 'shares': [entry(1)]}, [
        listing(share(1)),
        rules_of(1, keep, extra), exports_of(1),
        action(1),
        listing(share(1, access_rules_status='error')),
        rules_of(1, keep, dict(extra, state='error')),
        messages_of(1, 'access rule could not be removed.'),
    ])
    assert isinstance(outcome, Fail)
    assert only(outcome)['msg'] == rule_in_error(1, '10.9.9.9', 'access rule could not be removed.')
    assert session.bodies('POST') == [{'deny_access': {'access_id': extra['id']}}]


def test_a_metadata_change_goes_with_the_write_before_it(monkeypatch):
    # Manila does not sync the share's rules for metadata: it goes in the same job as
    # the allow, and one wait serves both.
    current = rule(1, '10.0.1.0/24')
    outcome, session = run(monkeypatch, {'shares': [entry(1, access_rules=[
        {'access_type': 'ip', 'access_to': '10.0.9.0/24'},
        {'access_type': 'ip', 'access_to': '10.0.1.0/24', 'metadata': {'k': 'v'}}])]}, [
        listing(share(1)),
        rules_of(1, current), exports_of(1),
        allow_answer(1, '10.0.9.0/24'),
        ('PUT', '/v2/share-access-rules/%s/metadata' % current['id'], ScriptedResponse(200, {'metadata': {'k': 'v'}})),
        listing(share(1)),
        rules_of(1, dict(current, metadata={'k': 'v'}), rule(1, '10.0.9.0/24')),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert session.bodies('PUT') == [{'metadata': {'k': 'v'}}]
    assert only(outcome)['changes'] == ['allowed ip:10.0.9.0/24 (rw)', 'metadata of ip:10.0.1.0/24']


def test_a_share_gone_to_error_while_its_rules_synced_is_refused_below_2_74(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1)]}, [
        listing(share(1, access_rules_status='syncing')),
        rules_of(1), exports_of(1),
        listing(share(1, status='error')),
    ], max_version='2.73')
    assert isinstance(outcome, Fail)
    assert only(outcome)['msg'] == ('%s is in status error: changing its access rules needs Manila '
                                    'API 2.74; this cloud offers 2.73.' % label(1))
    assert session.writes() == []


def test_rules_of_a_share_created_without_wait_are_refused_while_it_is_creating(monkeypatch):
    created = share(1, status='creating')
    outcome, session = run(monkeypatch, {'wait': False, 'shares': [entry(1, share_type='default')]},
                           create_of(1, created, ('GET', '/v2/shares/detail?name=data1',
                                                  ScriptedResponse(200, {'shares': [created]}))))
    assert isinstance(outcome, Fail)
    assert only(outcome)['msg'] == (
        '%s is busy (creating) and Manila refuses access rule changes until it is done; run again '
        'later or set wait=true.' % label(1))
    assert [c.method for c in session.writes()] == ['POST'] and only(outcome)['changed'] is True


# -- rules other tasks allowed at the same moment (Fleet.settle_twins) ---------------------------

def twin(n, target, mine, **fields):
    """Share ``n``'s rule for ``target``: this task's (a second later) or another task's."""
    view = dict(rule(n if mine else 90 + n, target), created_at='2026-01-01T10:00:0%d' % (1 if mine else 0))
    view.update(fields)
    return view


def test_without_wait_a_denied_twin_is_listed_once_more_and_not_waited_for(monkeypatch):
    older, mine = twin(1, '10.0.1.0/24', False), twin(1, '10.0.1.0/24', True)
    outcome, session = run(monkeypatch, {'wait': False, 'shares': [entry(1)]}, [
        listing(share(1)),
        rules_of(1), exports_of(1),
        action(1, ScriptedResponse(200, {'access': dict(mine, state='queued_to_apply')})),
        rules_of(1, older, mine),
        action(1),
        rules_of(1, older, dict(mine, state='queued_to_deny')),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert session.bodies('POST')[1] == {'deny_access': {'access_id': mine['id']}}
    assert [r['id'] for r in only(outcome)['rules']] == [older['id'], mine['id']]


def test_a_replacement_that_met_a_twin_converges_on_the_older_one(monkeypatch):
    old = rule(1, '10.0.1.0/24', level='ro')
    older, mine = twin(1, '10.0.1.0/24', False), twin(1, '10.0.1.0/24', True)
    outcome, session = run(monkeypatch, {'wait': False, 'shares': [entry(1, access_rules=[
        {'access_type': 'ip', 'access_to': '10.0.1.0/24', 'access_level': 'rw'}])]}, [
        listing(share(1)),
        rules_of(1, old), exports_of(1),
        action(1),
        listing(share(1, access_rules_status='syncing')),
        listing(share(1)),
        action(1, ScriptedResponse(200, {'access': dict(mine, state='queued_to_apply')})),
        rules_of(1, older, mine),
        action(1),
        rules_of(1, older),
    ], max_version='2.87')
    assert not isinstance(outcome, Fail), outcome.result
    assert [list(b) for b in session.bodies('POST')] == [['deny_access'], ['allow_access'], ['deny_access']]
    assert session.bodies('POST')[2] == {'deny_access': {'access_id': mine['id']}}
    assert [r['id'] for r in only(outcome)['rules']] == [older['id']]


def test_a_level_changed_in_place_is_still_waited_for_after_a_twin_check(monkeypatch):
    current = rule(1, '10.0.1.0/24', level='ro')
    outcome, session = run(monkeypatch, {'shares': [entry(1, access_rules=[
        {'access_type': 'ip', 'access_to': '10.0.9.0/24'},
        {'access_type': 'ip', 'access_to': '10.0.1.0/24', 'access_level': 'rw'}])]}, [
        listing(share(1)),
        rules_of(1, current), exports_of(1),
        allow_answer(1, '10.0.9.0/24'),
        listing(share(1)),
        ('PUT', '/v2/share-access-rules/%s' % current['id'], ScriptedResponse(200, {'access': dict(current, access_level='rw')})),
        listing(share(1)),
        rules_of(1, dict(current, access_level='rw', state='queued_to_apply'), rule(1, '10.0.9.0/24')),
        listing(share(1)),
        rules_of(1, dict(current, access_level='rw'), rule(1, '10.0.9.0/24')),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert [r['state'] for r in only(outcome)['rules']] == ['active', 'active']
    assert only(outcome)['changes'] == ['allowed ip:10.0.9.0/24 (rw)', 'level of ip:10.0.1.0/24 to rw']


# -- a create that raced another task's for its name (Fleet.settle_created) -------------------

OWNED = {'key': 'owner', 'value': 'repo'}


def raced(mine_status='available', **older_fields):
    """This task's share data1 (uuid 2) and another task's, a moment older (uuid 1)."""
    older = share(1, name='data1', created_at='2026-01-01T10:00:00.000000', **older_fields)
    mine = share(2, name='data1', status=mine_status, created_at='2026-01-01T10:00:00.300000')
    return older, mine


def namesakes(*shares):
    return ('GET', '/v2/shares/detail?name=data1', ScriptedResponse(200, {'shares': list(shares)}))


def test_a_lost_race_for_a_name_another_marker_claims_is_left_untouched(monkeypatch):
    older, mine = raced(metadata={'owner': 'other-repo'})
    outcome, session = run(monkeypatch, {'marker': OWNED, 'shares': [entry(1, share_type='default')]},
                           create_of(2, dict(mine, status='creating'),
                                     listing(mine),
                                     namesakes(older, mine),
                                     ('DELETE', '/v2/shares/' + uuid(2), ScriptedResponse(202)),
                                     ('GET', '/v2/shares/' + uuid(2), ScriptedResponse(404, {})),
                                     rules_of(1, rule(1, '10.9.9.9')),
                                     exports_of(1)))
    assert not isinstance(outcome, Fail), outcome.result
    assert [c.method for c in session.writes()] == ['POST', 'DELETE']
    result = only(outcome)
    assert result['skipped'] is True and result['id'] == uuid(1)
    assert result['share']['metadata'] == {'owner': 'other-repo'}
    assert [r['access_to'] for r in result['rules']] == ['10.9.9.9']
    assert result['export_paths'] == ['10.0.0.1:/s1', '10.0.0.2:/s1']
    assert 'carries the marker owner=other-repo' in result['msg']


def test_a_lost_race_converges_on_the_older_share_purging_its_metadata(monkeypatch):
    older, mine = raced(metadata={'owner': 'repo', 'extra': 'x'})
    outcome, session = run(monkeypatch, {'marker': OWNED, 'purge_metadata': True, 'shares': [
        entry(1, share_type='default', access_rules=None, metadata={'team': 'a'})]},
        create_of(2, dict(mine, status='creating'),
                  listing(mine),
                  namesakes(older, mine),
                  ('DELETE', '/v2/shares/' + uuid(2), ScriptedResponse(202)),
                  ('GET', '/v2/shares/' + uuid(2), ScriptedResponse(404, {})),
                  ('POST', '/v2/shares/%s/metadata' % uuid(1), ScriptedResponse(200, {'metadata': {}})),
                  ('DELETE', '/v2/shares/%s/metadata/extra' % uuid(1), ScriptedResponse(200)),
                  rules_of(1),
                  exports_of(1)))
    assert not isinstance(outcome, Fail), outcome.result
    assert session.bodies('POST')[1] == {'metadata': {'team': 'a'}}
    result = only(outcome)
    assert result['id'] == uuid(1) and result['changed'] is True
    assert result['share']['metadata'] == {'owner': 'repo', 'team': 'a'}
    assert result['export_paths'] == ['10.0.0.1:/s1', '10.0.0.2:/s1']


def test_without_wait_a_lost_race_deletes_its_share_without_waiting_for_it_to_go(monkeypatch):
    older, mine = raced()
    outcome, session = run(monkeypatch, {'wait': False, 'shares': [
        entry(1, share_type='default', access_rules=None)]},
        create_of(2, dict(mine, status='creating'),
                  namesakes(older, dict(mine, status='creating')),
                  ('GET', '/v2/shares/' + uuid(2), ScriptedResponse(200, {'share': mine})),
                  ('DELETE', '/v2/shares/' + uuid(2), ScriptedResponse(202)),
                  rules_of(1),
                  exports_of(1)))
    assert not isinstance(outcome, Fail), outcome.result
    assert [c.method for c in session.writes()] == ['POST', 'DELETE']
    assert only(outcome)['id'] == uuid(1)


# -- export locations that cannot be read: the share is still returned, with none ----------

def forbidden_exports(n):
    return ('GET', '/v2/shares/%s/export_locations' % uuid(n), ScriptedResponse(403, {'forbidden': {
        'code': 403, 'message': 'Policy does not allow share:export_locations to be performed.'}}))


def assert_returned_without_exports(outcome, share_id):
    assert isinstance(outcome, Fail)
    result = only(outcome)
    assert result['failed'] is True and result['changed'] is True
    assert 'HTTP 403' in result['msg'] and result['id'] == share_id
    assert result['share']['export_locations'] == [] and result['export_paths'] == []


def test_a_created_share_whose_exports_cannot_be_read_is_returned_without_any(monkeypatch):
    created = share(1, status='creating')
    outcome, session = run(monkeypatch, {'shares': [entry(1, share_type='default', access_rules=None)]},
                           create_of(1, created, listing(dict(created, status='available')),
                                     namesakes(dict(created, status='available')),
                                     forbidden_exports(1)))
    assert_returned_without_exports(outcome, uuid(1))


@pytest.mark.parametrize('marker, owner', [(None, 'repo'), (OWNED, 'other-repo')],
                         ids=['adopted', 'claimed'])
def test_an_adopted_or_claimed_share_whose_exports_cannot_be_read_is_returned_without_any(
        monkeypatch, marker, owner):
    older, mine = raced(metadata={'owner': owner})
    args = {'shares': [entry(1, share_type='default', access_rules=None)]}
    if marker:
        args['marker'] = marker
    outcome, session = run(monkeypatch, args,
                           create_of(2, dict(mine, status='creating'),
                                     listing(mine),
                                     namesakes(older, mine),
                                     ('DELETE', '/v2/shares/' + uuid(2), ScriptedResponse(202)),
                                     ('GET', '/v2/shares/' + uuid(2), ScriptedResponse(404, {})),
                                     rules_of(1),
                                     forbidden_exports(1)))
    assert_returned_without_exports(outcome, uuid(1))


def test_a_restored_share_whose_exports_cannot_be_read_is_returned_without_any(monkeypatch):
    outcome, session = run(monkeypatch, {'wait': False, 'shares': [entry(1, restore=True)]}, [
        listing(),
        binned_share(1, access_rules_status='syncing'),
        rules_of(1),
        action(1),
        listing(share(1)),
        allow_answer(1, '10.0.1.0/24'),
        rules_of(1, rule(1, '10.0.1.0/24', state='queued_to_apply')),
        forbidden_exports(1),
    ])
    assert_returned_without_exports(outcome, uuid(1))


def test_with_wait_a_denied_twin_is_waited_for_until_it_is_gone(monkeypatch):
    older, mine = twin(1, '10.0.1.0/24', False), twin(1, '10.0.1.0/24', True)
    outcome, session = run(monkeypatch, {'shares': [entry(1)]}, [
        listing(share(1)),
        rules_of(1), exports_of(1),
        action(1, ScriptedResponse(200, {'access': dict(mine, state='queued_to_apply')})),
        listing(share(1)),
        rules_of(1, older, mine),
        action(1),
        rules_of(1, older, dict(mine, state='queued_to_deny')),
        rules_of(1, older),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert session.bodies('POST')[1] == {'deny_access': {'access_id': mine['id']}}
    assert [r['id'] for r in only(outcome)['rules']] == [older['id']]
    assert only(outcome)['changed'] is True and only(outcome)['failed'] is False


def test_with_wait_the_task_keeping_the_older_twin_waits_until_the_newer_is_gone(monkeypatch):
    mine = dict(rule(1, '10.0.1.0/24'), created_at='2026-01-01T10:00:00')
    newer = dict(rule(91, '10.0.1.0/24'), created_at='2026-01-01T10:00:01')
    outcome, session = run(monkeypatch, {'shares': [entry(1)]}, [
        listing(share(1)),
        rules_of(1), exports_of(1),
        action(1, ScriptedResponse(200, {'access': dict(mine, state='queued_to_apply')})),
        listing(share(1)),
        rules_of(1, mine, newer),
        rules_of(1, mine, dict(newer, state='denying')),
        rules_of(1, mine),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert [list(b) for b in session.bodies('POST')] == [['allow_access']]
    assert [r['id'] for r in only(outcome)['rules']] == [mine['id']]


def test_a_metadata_change_alone_does_not_wait_for_the_rule_to_be_applied(monkeypatch):
    # The share's status is error because of another rule: Manila does not mark it
    # syncing, and the rule whose metadata changes is still being applied.  Metadata
    # makes Manila sync nothing: the task does not wait for that rule.
    broken = share(1, access_rules_status='error')
    queued = rule(1, '10.0.1.0/24', state='queued_to_apply')
    outcome, session = run(monkeypatch, {'shares': [entry(1, access_rules=[
        {'access_type': 'ip', 'access_to': '10.0.1.0/24', 'metadata': {'k': 'v'}}])]}, [
        listing(broken),
        rules_of(1, queued), exports_of(1),
        ('PUT', '/v2/share-access-rules/%s/metadata' % queued['id'], ScriptedResponse(200, {'metadata': {'k': 'v'}})),
        listing(broken),
        rules_of(1, dict(queued, metadata={'k': 'v'})),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert only(outcome)['changes'] == ['metadata of ip:10.0.1.0/24']
    assert [r['state'] for r in only(outcome)['rules']] == ['queued_to_apply']


# -- the share's checks, for every entry (issue 37) ----------------------------------------
@pytest.mark.parametrize('check_mode', [False, True])
def test_entries_the_share_module_refuses_are_refused_before_any_request(monkeypatch, check_mode):
    outcome, session = run(monkeypatch, {'shares': [
        entry(1, share_proto='NFSX', access_rules=None),
        entry(2, name='n' * 300, access_rules=None),
        entry(3, description='d' * 256, access_rules=None)]}, [], check_mode=check_mode)
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'] == (
        "Invalid shares, nothing was sent: shares[0] (data1): share_proto 'NFSX' is not a "
        "protocol Manila knows: NFS, CIFS, GLUSTERFS, HDFS, CEPHFS, MAPRFS. shares[1] (%s): "
        "name is 300 characters long; Manila takes at most 255. shares[2] (data3): description "
        "is 256 characters long; Manila takes at most 255." % ('n' * 300))
    assert [c.path for c in session.calls] == ['/']   # the versions document only


@pytest.mark.parametrize('check_mode', [False, True])
def test_an_entry_named_like_a_uuid_creates_no_share(monkeypatch, check_mode):
    outcome, session = run(monkeypatch, {'shares': [
        entry(1, name=uuid(7), share_type='default', access_rules=None)]}, [
        listing(),
        BINNED,
    ], check_mode=check_mode)
    assert isinstance(outcome, Fail)
    result = outcome.result['shares'][0]
    assert result['changed'] is False and result['failed'] is True
    assert result['msg'].startswith('name: no share is named %s, and no share is created under '
                                    'a UUID-shaped name' % uuid(7))
    assert session.writes() == []


@pytest.mark.parametrize('check_mode', [False, True])
def test_a_share_type_manila_does_not_know_fails_its_entry_before_any_write(monkeypatch, check_mode):
    """The quota preflight reads the type's quotas anyway: Manila answers 404 for a
    type it does not know, and that entry fails, naming share_type (no request more)."""
    own_project(monkeypatch)
    outcome, session = run(monkeypatch, {'shares': [
        entry(1, share_type='nowhere', access_rules=None),
        entry(2, share_type='default', access_rules=None)]}, [
        listing(),
        BINNED,
    ] + types_listing({'id': uuid(900), 'name': 'default', 'extra_specs': {}}) + [
        ('GET', QUOTA_DETAIL, quotas_with(**ROOM)),
        ('GET', TYPE_QUOTA_DETAIL, quota_detail((-1, 0), (-1, 0))),
        not_found('/v2/quota-sets/p1/detail?share_type=nowhere'),
    ] + ([] if check_mode else [
        CREATE + (ScriptedResponse(200, {'share': share(2)}),),
        listing(share(2)),
        ('GET', '/v2/shares/detail?name=data2', ScriptedResponse(200, {'shares': [share(2)]})),
        exports_of(2)]), check_mode=check_mode)
    assert isinstance(outcome, Fail)
    unknown, made = outcome.result['shares']
    assert unknown['msg'] == ("share_type: no share type with the name or ID 'nowhere' exists "
                              "(or this user cannot see it).")
    assert unknown['changed'] is False and made['changed'] is True
    assert outcome.result['msg'].startswith('1 of 2 shares did not converge: shares[0] (data1): '
                                            'share_type: no share type')
    assert [c.path for c in session.writes()] == ([] if check_mode else ['/v2/shares'])
    assert all(b.get('share', {}).get('share_type') != 'nowhere' for b in session.bodies('POST'))


@pytest.mark.parametrize('check_mode', [False, True])
def test_an_availability_zone_manila_does_not_know_fails_its_entry_before_any_write(monkeypatch, check_mode):
    outcome, session = run(monkeypatch, {'shares': [
        entry(1, share_type='default', availability_zone='az9', access_rules=None),
        entry(2, share_type='default', availability_zone='az9', access_rules=None)]}, [
        listing(),
        BINNED,
        ('GET', '/v2/availability-zones', ScriptedResponse(200, {'availability_zones': [
            {'id': uuid(950), 'name': 'nova'}]})),
    ], check_mode=check_mode)
    assert isinstance(outcome, Fail)
    assert [r['msg'] for r in outcome.result['shares']] == [
        "availability_zone: no availability zone with the name or ID 'az9' exists (or this "
        "user cannot see it)."] * 2
    assert [r['changed'] for r in outcome.result['shares']] == [False, False]
    assert session.writes() == []


@pytest.mark.parametrize('dhss, network, words', [
    ('False', 'net1', 'share_network: share type default does not use share servers'),
    ('True', None, 'share_network is required: share type default uses share servers'),
])
def test_a_share_network_that_does_not_suit_the_default_type_is_refused(monkeypatch, dhss, network,
                                                                        words):
    """The default type is read anyway: its driver_handles_share_servers decides."""
    outcome, session = run(monkeypatch, {'shares': [
        entry(1, share_network=network, access_rules=None)]}, [
        listing(),
        BINNED,
        ('GET', '/v2/types/default', ScriptedResponse(200, {'share_type': {
            'id': uuid(900), 'name': 'default',
            'extra_specs': {'driver_handles_share_servers': dhss}}})),
    ] + ([('GET', '/v2/share-networks/detail?name=net1', ScriptedResponse(200, {
        'share_networks': [{'id': 'net-id-1', 'name': 'net1'}]}))] if network else []),
        check_mode=True)
    assert isinstance(outcome, Fail)
    assert outcome.result['shares'][0]['msg'].startswith(words)
    assert outcome.result['shares'][0]['changed'] is False and session.writes() == []
