# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import itertools
import threading

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    ManilaError,
    WaitFailed,
    WaitTimeout,
)
from ansible_collections.openkeel.manila.plugins.module_utils.states import SHARE_ERROR_STATES
from ansible_collections.openkeel.manila.plugins.module_utils.waiter import (
    GONE,
    Step,
    poll_delays,
    run_steps,
    user_message_explainer,
    wait_for_status,
    wait_until,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    FakeClock,
    ScriptedResponse,
    make_client,
)


class Clocked(object):
    """Just what the waiter uses of a client: its sleep and clock."""

    def __init__(self):
        self.clock = FakeClock()
        self.sleep = self.clock.sleep


def sequence(*states):
    answers = iter(states)

    def fetch():
        state = next(answers)
        return None if state is None else {'id': 'abc', 'status': state}
    return fetch


def test_reaches_target_and_backs_off():
    client = Clocked()
    result = wait_for_status(client, sequence('creating', 'creating', 'creating', 'available'),
                             ['available'], SHARE_ERROR_STATES, 'Share x', 60)
    assert result['status'] == 'available'
    assert client.clock.sleeps == [0.5, 0.75, 1.125]


def test_delays_are_capped():
    delays = list(itertools.islice(poll_delays(), 12))
    assert delays[:3] == [0.5, 0.75, 1.125]
    assert max(delays) == 5.0 and delays[-1] == 5.0


@pytest.mark.parametrize('state', sorted(SHARE_ERROR_STATES))
def test_every_error_state_fails_at_once_with_user_messages(state):
    client = Clocked()
    with pytest.raises(WaitFailed) as err:
        wait_for_status(client, sequence('extending', state, 'available'), ['available'],
                        SHARE_ERROR_STATES, 'Share x', 60,
                        explain=lambda r: 'Manila says: no valid host.')
    assert err.value.state == 'went to %s' % state
    assert str(err.value) == ('Share x went to %s while waiting for available. Manila says: '
                              'no valid host.' % state)
    assert len(client.clock.sleeps) == 1


def test_timeout_says_where_it_stood_and_never_sleeps_past_the_deadline():
    client = Clocked()
    with pytest.raises(WaitTimeout) as err:
        wait_for_status(client, lambda: {'status': 'creating'}, ['available'],
                        SHARE_ERROR_STATES, 'Share x', 10)
    assert str(err.value) == ('Share x is still creating after 10 seconds (waiting for '
                              'available); raise "timeout" or check the service.')
    assert client.clock.now == pytest.approx(10.0)


def test_waiting_for_deletion():
    assert wait_for_status(Clocked(), sequence('deleting', None), [GONE], SHARE_ERROR_STATES,
                           'Share x', 10) is None


def test_vanishing_resource_is_a_failure_when_not_waiting_for_deletion():
    with pytest.raises(WaitFailed) as err:
        wait_for_status(Clocked(), sequence(None), ['available'], SHARE_ERROR_STATES, 'Share x', 10)
    assert str(err.value) == 'Share x disappeared while waiting for available.'
    assert err.value.state == GONE


def test_unreadable_user_messages_do_not_hide_the_failure():
    def explain(resource):
        raise ManilaError('forbidden', status=403)
    with pytest.raises(WaitFailed) as err:
        wait_for_status(Clocked(), sequence('error'), ['available'], SHARE_ERROR_STATES,
                        'Share x', 10, explain=explain)
    assert 'went to error' in str(err.value)
    assert 'Manila user messages could not be read: forbidden (HTTP 403)' in str(err.value)


def test_on_poll_sees_every_poll():
    seen = []
    wait_for_status(Clocked(), sequence('a', 'b', 'done'), ['done'], [], 'x', 10,
                    on_poll=lambda r: seen.append(r['status']))
    assert seen == ['a', 'b', 'done']


def test_another_field_can_be_waited_on():
    answers = iter([{'task_state': 'migration_in_progress'}, {'task_state': 'migration_success'}])
    result = wait_for_status(Clocked(), lambda: next(answers), ['migration_success'],
                             ['migration_error'], 'x', 10, field='task_state')
    assert result == {'task_state': 'migration_success'}


def test_a_predicate_wait_uses_its_own_words():
    answers = iter([[1], [1, 2], [1, 2, 3]])
    with pytest.raises(WaitTimeout) as err:
        wait_until(Clocked(), lambda: next(answers), ready=lambda items: len(items) > 5,
                   what='The list', goal='six items', timeout=1,
                   describe=lambda items: 'at %d items' % len(items))
    assert str(err.value).startswith('The list is still at 3 items after 1 seconds (waiting for six items)')


def test_a_predicate_failure_ends_the_wait_with_its_reason():
    with pytest.raises(WaitFailed) as err:
        wait_until(Clocked(), lambda: {'n': 3}, ready=lambda r: False, what='The thing',
                   goal='n to be 4', timeout=10, failure=lambda r: 'overshot to %d' % r['n'],
                   explain=lambda r: 'Because.')
    assert str(err.value) == 'The thing overshot to 3 while waiting for n to be 4. Because.'


def test_ready_decides_about_a_vanished_resource():
    assert wait_until(Clocked(), lambda: None, ready=lambda r: r is None, what='x', goal='gone',
                      timeout=1) is None


def test_user_message_explainer_reads_the_newest_messages_of_the_resource():
    client, session = make_client([
        ('GET', '/v2/messages?resource_id=abc&sort_key=created_at&sort_dir=desc&limit=3',
         ScriptedResponse(200, {'messages': [{'user_message': 'No valid host.'},
                                             {'user_message': 'No valid host.'},
                                             {'user_message': 'Quota exceeded.'}]})),
    ])
    assert user_message_explainer(client, 'abc')(None) == 'Manila says: No valid host. | Quota exceeded.'


# -- run_steps: many resources, jobs and waits -------------------------------------

class Thing(object):
    def __init__(self, name):
        self.name = name
        self.error = None
        self.log = []

    @property
    def ok(self):
        return self.error is None

    def fail(self, error):
        if self.error is None:
            self.error = str(error)


def test_every_wait_shares_one_read_per_poll_and_has_its_own_deadline():
    client = Clocked()
    fast, slow, stuck = Thing('fast'), Thing('slow'), Thing('stuck')
    polls = []
    # what the listing says, poll after poll
    states = iter([
        {'fast': 'creating', 'slow': 'creating', 'stuck': 'creating'},
        {'fast': 'available', 'slow': 'creating', 'stuck': 'creating'},
        {'slow': 'creating', 'stuck': 'creating'},
        {'slow': 'available', 'stuck': 'creating'},
    ] + [{'stuck': 'creating'}] * 50)

    def fetch(waiting):
        polls.append(sorted(t.name for t in waiting))
        return next(states)

    def ready(thing, status):
        thing.log.append(status)
        return True if status == 'available' else None

    def after(thing):
        thing.log.append('after')

    run_steps(client, [fast, slow, stuck],
              [Step(check=ready, timed_out=lambda t, status: '%s still %s' % (t.name, status)),
               Step(run=after)],
              fetch, key=lambda t: t.name, timeout=10)
    assert polls[:3] == [['fast', 'slow', 'stuck'], ['fast', 'slow', 'stuck'], ['slow', 'stuck']]
    assert fast.log == ['creating', 'available', 'after'] and fast.ok
    assert slow.log[-2:] == ['available', 'after'] and slow.ok
    assert stuck.error == 'stuck still creating' and 'after' not in stuck.log
    assert client.clock.now >= 10
    assert max(client.clock.sleeps) <= 5.0


def test_a_step_applies_only_where_needed_and_a_failed_item_stops():
    client = Clocked()
    a, b = Thing('a'), Thing('b')

    def boom(thing):
        raise ManilaError('refused %s' % thing.name, status=400)

    run_steps(client, [a, b], [
        Step(run=boom, needed=lambda t: t.name == 'b'),
        Step(run=lambda t: t.log.append('second')),
    ], fetch=lambda waiting: {}, key=lambda t: t.name, timeout=5)
    assert a.log == ['second'] and a.ok
    assert b.log == [] and b.error == 'refused b (HTTP 400)'


def test_jobs_run_together_on_the_pool_and_a_bug_is_not_swallowed():
    barrier = threading.Barrier(3, timeout=10)
    things = [Thing(str(n)) for n in range(3)]
    # three jobs can only pass the barrier together: the pool runs them at once
    run_steps(Clocked(), things, [Step(run=lambda t: t.log.append(barrier.wait()))],
              fetch=lambda waiting: {}, key=lambda t: t.name, timeout=5, workers=3)
    assert sorted(t.log[0] for t in things) == [0, 1, 2]

    def bug(thing):
        raise KeyError(thing.name)
    with pytest.raises(KeyError):
        run_steps(Clocked(), [Thing('x')], [Step(run=bug)], fetch=lambda waiting: {},
                  key=lambda t: t.name, timeout=5, workers=2)
