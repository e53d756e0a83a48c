# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The planning and the result of the fleet executor (plugins/module_utils/fleet.py)
on scripted HTTP: what each entry finds, what its plan asks of Manila (the exact
requests, or in check mode the exact changes and diff), what the quota preflight
reads, and what the result and the diff say."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

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
    MARKER,
    QUOTA_DETAIL,
    TYPE_QUOTA_DETAIL,
    entry,
    exports_of,
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
