# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The writes and waits of the fleet (fleet.Fleet.apply and wait_if_busy) on
scripted HTTP, one request at a time: the exact requests in their order, what
each share ends with, which share fails and why, and waits that run out of
time on a FakeClock (nobody sleeps)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import Fail
from ansible_collections.openkeel.manila.tests.unit.plugins.modules.test_fleet_shares import (
    BINNED,
    LISTING,
    entry,
    exports_of,
    failed_poll,
    listing,
    rule,
    rules_of,
    run,
    share,
    uuid,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
)

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


def binned(n, **fields):
    """The soft-deleted-share listing with share ``n`` in the recycle bin."""
    return ('GET', '/v2/shares/detail?is_soft_deleted=true&with_count=true&limit=1000&offset=0',
            ScriptedResponse(200, {'shares': [share(n, is_soft_deleted=True, **fields)], 'count': 1}))


def action(n, answer=None):
    return ('POST', '/v2/shares/%s/action' % uuid(n), answer or ScriptedResponse(202))


def test_a_restore_waits_for_the_share_then_sets_its_rules_and_reads_its_exports(monkeypatch):
    outcome, session = run(monkeypatch, {'shares': [entry(1, restore=True)]}, [
        listing(),
        binned(1),
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
        binned(1),
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
        binned(1, access_rules_status='syncing'),
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
