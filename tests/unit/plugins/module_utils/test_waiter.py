# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The waiter: waits for a status or a predicate, their pauses and deadlines, the
words of a failure, and run_steps (steps over many items, on a pool)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import itertools
import threading
import time

from concurrent.futures import ALL_COMPLETED

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import waiter
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    ManilaError,
    WaitFailed,
    WaitTimeout,
)
from ansible_collections.openkeel.manila.plugins.module_utils.states import SHARE_ERROR_STATES
from ansible_collections.openkeel.manila.plugins.module_utils.waiter import (
    GONE,
    Step,
    describe_targets,
    explain_safely,
    poll_delays,
    run_steps,
    user_message_explainer,
    wait_for_status,
    wait_until,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    FakeClock,
    ScriptedResponse,
    expect,
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


# -- at the edges: pauses, deadlines, words of a failure, run_steps --------------------------

def test_poll_delays():
    delays = poll_delays()
    assert [next(delays) for _i in range(7)] == [0.5, 0.75, 1.125, 1.6875, 2.53125, 3.796875, 5.0]
    delays = poll_delays(first=1, factor=2, cap=3)
    assert [next(delays) for _i in range(4)] == [1, 2, 3, 3]
    assert (waiter.FIRST_DELAY, waiter.BACKOFF, waiter.MAX_DELAY) == (0.5, 1.5, 5.0)


class Reads(object):
    def __init__(self, *values):
        self.values = list(values)

    def __call__(self):
        return self.values.pop(0)


def clocked():
    clock = FakeClock()
    client, _session = make_client([], clock=clock)
    return client, clock


def test_wait_until_ready_at_once_sleeps_not():
    client, clock = clocked()
    assert wait_until(client, Reads({'s': 1}), lambda r: True, 'X', 'y', 10) == {'s': 1}
    assert clock.sleeps == []


def test_wait_until_never_sleeps_past_the_deadline_and_says_where_it_stood():
    client, clock = clocked()
    with pytest.raises(WaitTimeout) as err:
        wait_until(client, lambda: {'s': 'busy'}, lambda r: False, 'Share x', 'it to rest', 2,
                   describe=lambda r: r['s'], explain=lambda r: 'Manila says: hm')
    assert clock.sleeps == [0.5, 0.75, 0.75] and clock.now == 2.0
    assert str(err.value) == ('Share x is still busy after 2 seconds (waiting for it to rest); '
                              'raise "timeout" or check the service. Manila says: hm')
    assert err.value.state == 'busy' and err.value.resource == {'s': 'busy'}
    client, clock = clocked()
    with pytest.raises(WaitTimeout) as err:
        wait_until(client, lambda: {'s': 'busy'}, lambda r: False, 'Share x', 'g', 0)
    assert 'is still not ready after 0 seconds' in str(err.value) and clock.sleeps == []


def test_wait_until_failure_and_gone():
    client, clock = clocked()
    with pytest.raises(WaitFailed) as err:
        wait_until(client, lambda: {'s': 'error'}, lambda r: False, 'Share x', 'g', 10,
                   failure=lambda r: 'went to error', explain=lambda r: '')
    assert str(err.value) == 'Share x went to error while waiting for g.'
    assert err.value.state == 'went to error' and err.value.resource == {'s': 'error'}
    with pytest.raises(WaitFailed) as err:
        wait_until(client, lambda: None, lambda r: False, 'Share x', 'g', 10)
    assert err.value.state == GONE and str(err.value) == 'Share x disappeared while waiting for g.'
    seen = []
    assert wait_until(client, Reads(None), lambda r: r is None, 'X', 'g', 10, on_poll=seen.append) is None
    assert seen == []


def test_wait_for_status_field_targets_and_errors():
    client, clock = clocked()
    got = wait_for_status(client, Reads({'task_state': 'a'}, {'task_state': 'b'}), ['b', 'c'],
                          ['x'], 'M', 10, field='task_state')
    assert got == {'task_state': 'b'}
    with pytest.raises(WaitFailed) as err:
        wait_for_status(client, Reads({'status': 'x'}), ['b'], ['x'], 'M', 10)
    assert str(err.value) == 'M went to x while waiting for b.'
    with pytest.raises(WaitTimeout) as err:
        wait_for_status(client, lambda: {'status': 'q'}, [GONE, 'b'], [], 'M', 1)
    assert 'M is still q after 1 seconds (waiting for b or gone)' in str(err.value)
    assert wait_for_status(client, Reads(None), [GONE], [], 'M', 1) is None
    with pytest.raises(WaitFailed):
        wait_for_status(client, Reads(None), ['b'], [], 'M', 1)


def test_describe_targets_and_explain_safely():
    assert describe_targets([GONE, 'b', 'a']) == 'a or b or gone'

    def broken(resource):
        raise ManilaError('down')
    assert explain_safely(broken, None) == 'Manila user messages could not be read: down'
    assert explain_safely(lambda r: 'words', None) == 'words'
    assert waiter._explained('m', None, None) == 'm'
    assert waiter._explained('m', lambda r: '', None) == 'm'
    assert waiter._explained('m', lambda r: 'x', None) == 'm x'


class Item(object):
    def __init__(self, name):
        self.name = name
        self.ok = True
        self.log = []
        self.error = None

    def fail(self, why):
        self.ok = False
        self.error = why


def test_run_steps_skips_fails_and_times_out():
    clock = FakeClock()
    client, _session = make_client([], clock=clock)
    a, b, c = Item('a'), Item('b'), Item('c')
    polls = []

    def fetch(items):
        polls.append(sorted(i.name for i in items))
        return {'a': 'ready' if len(polls) > 1 else 'busy', 'b': 'busy'}

    def job(item):
        item.log.append('job')
        if item.name == 'c':
            raise ManilaError('refused')

    steps = [Step(run=job), Step(run=lambda item: item.log.append('skipped'),
                                 needed=lambda item: False),
             Step(check=lambda item, resource: resource == 'ready' or None,
                  timed_out=lambda item, resource: 'still %s' % resource),
             Step(run=lambda item: item.log.append('after'))]
    run_steps(client, [a, b, c], steps, fetch, key=lambda item: item.name, timeout=3)
    assert a.log == ['job', 'after'] and a.ok
    assert b.log == ['job'] and b.error == 'still busy'
    assert c.log == ['job'] and str(c.error) == 'refused'
    assert polls[0] == ['a', 'b'] and all(p == ['b'] for p in polls[2:])
    assert clock.now >= 3


def test_a_wait_that_repeats_sends_the_item_back_to_its_job_until_none_is_left():
    clock = FakeClock()
    client, _session = make_client([], clock=clock)
    a, b = Item('a'), Item('b')
    writes = {'a': 3, 'b': 1}
    polls = []

    def fetch(items):
        polls.append(sorted(i.name for i in items))
        return dict((i.name, 'settled') for i in items)

    def write(item):
        writes[item.name] -= 1
        item.log.append('write')

    steps = [Step(run=write),
             Step(check=lambda item, resource: resource == 'settled' or None,
                  repeat=lambda item: writes[item.name] > 0),
             Step(run=lambda item: item.log.append('after'))]
    run_steps(client, [a, b], steps, fetch, key=lambda item: item.name, timeout=3)
    assert a.log == ['write'] * 3 + ['after'] and a.ok
    assert b.log == ['write', 'after'] and b.ok
    # each write's wait is a poll; one poll serves both items while both wait
    assert polls == [['a', 'b'], ['a'], ['a']]


def test_run_steps_default_timeout_words_and_on_error():
    clock = FakeClock()
    client, _session = make_client([], clock=clock)
    item = Item('a')
    errors = []
    run_steps(client, [item], [Step(check=lambda i, r: None)], lambda items: {}, key=lambda i: i.name,
              timeout=1)
    assert item.error == 'still not ready after 1 seconds'

    def check(i, r):
        raise ManilaError('x')
    other = Item('b')
    run_steps(client, [other], [Step(check=check)], lambda items: {}, key=lambda i: i.name, timeout=1,
              on_error=lambda i, exc: errors.append((i.name, str(exc))))
    assert errors == [('b', 'x')] and other.ok


def test_run_steps_on_a_pool_and_a_bug_ends_the_run():
    clock = FakeClock()
    client, _session = make_client([], clock=clock)
    items = [Item(str(i)) for i in range(4)]
    run_steps(client, items, [Step(run=lambda item: item.log.append('job'))], lambda its: {},
              key=lambda i: i.name, timeout=1, workers=2)
    assert all(i.log == ['job'] for i in items)

    def bug(item):
        raise KeyError('bug')
    with pytest.raises(KeyError):
        run_steps(client, [Item('x')], [Step(run=bug)], lambda its: {}, key=lambda i: i.name,
                  timeout=1, workers=2)


def test_run_steps_halves_the_jobs_at_once_after_a_rate_limit_and_raises_them_again():
    import time

    class Limited(Clocked):
        rate_limited = 0

        def __init__(self):
            super(Limited, self).__init__()
            self.warnings = []

        def warn(self, message):
            self.warnings.append(message)

    client = Limited()
    lock = threading.Lock()
    active = {'now': 0}
    seen = {}
    limited = threading.Event()

    def job(item):
        with lock:
            active['now'] += 1
            seen[item.name] = active['now']
        if item.name == '0':
            client.rate_limited += 1  # what the client counts on a 429
            limited.set()
        limited.wait(10)  # no job ends before the rate limit's answer came
        time.sleep(0.02)
        with lock:
            active['now'] -= 1
        item.log.append('job')
    items = [Item(str(n)) for n in range(10)]
    pace = waiter.Pace(4)
    run_steps(client, items, [Step(run=job)], lambda its: {}, key=lambda i: i.name,
              timeout=5, workers=4, pace=pace)
    assert all(i.log == ['job'] for i in items)
    # the first four started together; the first two started after the rate limit ran
    # with at most one other; never more than four at once
    assert all(seen[str(n)] <= 2 for n in (4, 5)) and max(seen.values()) <= 4, seen
    # lowered to 2; raised to 3 once two jobs started at 2 ended (the first four ran at
    # 4 and do not count), and to 4 once three started at 3 ended
    assert pace.summary() == dict(final=4, lowest=2, lowered=1, raised=2, held=0)
    assert client.warnings == [
        "Manila's rate limit refused requests of this task, so it lowered the requests it "
        'sends at once to 2 (concurrency 4); it raises them by one after each round of that '
        'many that meets no refusal.']


RATE_LIMITED = {'overLimitFault': {'code': 413, 'message': 'This request was rate-limited.'}}


def rounds(client, pace, count):
    """``count`` rounds of jobs that start at the current limit and end without a
    rate limit's answer; the limit after each."""
    limits = []
    for _round in range(count):
        started = pace.round
        for _job in range(pace.limit):
            pace.finished(client, started)
        limits.append(pace.limit)
    return limits


@pytest.mark.parametrize('status', [429, 413])
def test_a_rate_limit_halves_the_pace_after_its_retry_after_and_each_round_adds_one(status):
    clock = FakeClock()
    created = ScriptedResponse(202, {'share': {'id': 'abc'}})
    client, session = make_client([
        ('POST', '/v2/shares', ScriptedResponse(status, RATE_LIMITED, {'Retry-After': '3'})),
        ('POST', '/v2/shares', created),
        ('POST', '/v2/shares', ScriptedResponse(status, RATE_LIMITED, {'Retry-After': '2'})),
        ('POST', '/v2/shares', created),
    ], clock=clock)
    pace = waiter.Pace(8)
    pace.begin(client)
    started = pace.round
    client.post('shares', {'share': {}})
    assert clock.sleeps == [3.0]  # as Retry-After asked, then sent again
    pace.finished(client, started)
    assert (pace.limit, pace.lowered) == (4, 1)
    # one round of jobs that started before the change does not count
    for _job in range(8):
        pace.finished(client, started)
    assert pace.limit == 4
    assert rounds(client, pace, 6) == [5, 6, 7, 8, 8, 8]  # never above the maximum
    started = pace.round
    client.post('shares', {'share': {}})
    assert clock.sleeps == [3.0, 2.0]
    pace.finished(client, started)
    assert pace.summary() == dict(final=4, lowest=4, lowered=2, raised=4, held=0)
    assert session.requests()[1:] == ['POST /v2/shares'] * 4


def test_the_pace_goes_down_to_one_and_a_limit_met_there_starts_the_round_again():
    class Counted(Clocked):
        rate_limited = 0

        def warn(self, message):
            pass
    client = Counted()
    pace = waiter.Pace(8)
    pace.begin(client)
    limits = []
    for _limit in range(4):
        client.rate_limited += 1
        pace.observe(client)
        limits.append(pace.limit)
    assert limits == [4, 2, 1, 1] and pace.lowered == 3 and pace.lowest == 1
    started = pace.round
    pace.finished(client, started)  # one job at 1: a round
    assert pace.limit == 2
    started = pace.round
    pace.finished(client, started)
    client.rate_limited += 1  # the round's second job met a rate limit
    pace.finished(client, started)
    assert pace.limit == 1 and pace.raised == 1
    assert rounds(client, pace, 8) == [2, 3, 4, 5, 6, 7, 8, 8]  # 1 + 2 + ... + 7 jobs


def test_a_pace_raises_nothing_before_it_was_lowered_nor_counts_limits_from_before_its_run():
    class Counted(Clocked):
        rate_limited = 5   # met before the run (the fleet's listing, say)
    client = Counted()
    pace = waiter.Pace(4)
    pace.begin(client)
    assert rounds(client, pace, 3) == [4, 4, 4]
    assert pace.summary() == dict(final=4, lowest=4, lowered=0, raised=0, held=0)


def test_the_pace_is_held_while_manila_answers_writes_twice_as_slowly_as_at_first():
    clock = FakeClock()
    share = ScriptedResponse(202, {'share': {'id': 'abc'}})
    client, session = make_client(
        [expect('POST', '/v2/shares', share, takes=0.5)] * 5
        + [('POST', '/v2/shares', ScriptedResponse(429, RATE_LIMITED, {'Retry-After': '1'}))]
        + [expect('POST', '/v2/shares', share, takes=1.5)] * 5
        + [expect('POST', '/v2/shares', share, takes=0.6)] * 5, clock=clock)
    pace = waiter.Pace(4)
    pace.begin(client)
    started = pace.round
    for _write in range(5):
        client.post('shares', {'share': {}})
    assert client.answer_times.slower() is None
    client.post('shares', {'share': {}})   # 429, then 1.5 s
    pace.finished(client, started)
    assert pace.limit == 2
    for _write in range(4):
        client.post('shares', {'share': {}})
    assert client.answer_times.slower() == ('POST shares answered in 1.50 s (the median of the '
                                            'last 5) against 0.50 s at first')
    assert rounds(client, pace, 2) == [2, 2]
    assert (pace.held, pace.raised) == (2, 0)
    for _write in range(5):
        client.post('shares', {'share': {}})   # answered as fast as at first again
    assert rounds(client, pace, 2) == [3, 4]
    assert pace.summary() == dict(final=4, lowest=2, lowered=1, raised=2, held=2)
    assert client.warnings[-1] == (
        "Manila's answers got slower (POST shares answered in 1.50 s (the median of the last "
        '5) against 0.50 s at first), so this task sent no more requests at once than 2 '
        '(concurrency 4) while they were.')
    assert len(session.writes()) == 16


@pytest.mark.parametrize('workers,on_pool', [(None, False), (1, False), (2, True), (3, True)])
def test_run_steps_uses_a_pool_only_for_more_than_one_worker(workers, on_pool):
    import threading
    clock = FakeClock()
    client, _session = make_client([], clock=clock)
    threads = []
    fetched = []
    item = Item('a')
    steps = [Step(run=lambda i: threads.append(threading.current_thread())),
             Step(check=lambda i, r: r == 'ready' or None)]

    def fetch(items):
        fetched.append(threading.current_thread())
        return dict((i.name, 'ready') for i in items)
    kwargs = {} if workers is None else {'workers': workers}
    run_steps(client, [item], steps, fetch, key=lambda i: i.name, timeout=5, **kwargs)
    main = threading.current_thread()
    assert (threads[0] is not main) is on_pool and (fetched[0] is not main) is on_pool
    assert item.ok


def test_run_steps_waits_until_the_deadline_exactly():
    clock = FakeClock()
    client, _session = make_client([], clock=clock)
    item = Item('a')
    seen = []

    def check(i, resource):
        seen.append(clock.now)
        return resource == 'ready' or None
    run_steps(client, [item], [Step(check=check)], lambda items: {'a': 'busy'}, key=lambda i: i.name,
              timeout=1.25, max_delay=1.0)
    # polls at 0.5 and 0.5 + 0.75: the second is at the deadline, and the last
    assert item.error == 'still not ready after 1.25 seconds'
    assert seen == [0.5, 1.25]


def test_run_steps_backs_off_to_two_seconds_by_default():
    clock = FakeClock()
    client, _session = make_client([], clock=clock)
    item = Item('a')
    run_steps(client, [item], [Step(check=lambda i, r: None)], lambda items: {}, key=lambda i: i.name,
              timeout=20)
    assert max(clock.sleeps) == 2.0 and clock.sleeps[:3] == [0.5, 0.75, 1.125]


def test_run_steps_on_a_pool_hands_manila_errors_to_on_error():
    clock = FakeClock()
    client, _session = make_client([], clock=clock)
    errors = []

    def job(item):
        raise ManilaError('refused %s' % item.name)
    items = [Item('a'), Item('b')]
    run_steps(client, items, [Step(run=job), Step(run=lambda item: item.log.append('next'))],
              lambda its: {}, key=lambda i: i.name, timeout=1, workers=2,
              on_error=lambda item, exc: errors.append(str(exc)))
    assert sorted(errors) == ['refused a', 'refused b'] and [i.log for i in items] == [['next'], ['next']]


def test_run_steps_polls_again_after_a_failed_poll_and_gives_up_after_three():
    clock = FakeClock()
    client, _session = make_client([], clock=clock)
    answers = [ManilaError('down'), {'a': 'ready'}]

    def fetch(items):
        answer = answers.pop(0) if answers else ManilaError('still down')
        if isinstance(answer, Exception):
            raise answer
        return answer
    item = Item('a')
    run_steps(client, [item], [Step(check=lambda i, r: r == 'ready' or None)], fetch,
              key=lambda i: i.name, timeout=60)
    assert item.ok and clock.sleeps == [0.5, 0.75]
    # every poll fails: the waiting items fail after the third, with the default words;
    # one that began its wait after them counts its own polls
    first, later = Item('a'), Item('b')
    steps = [Step(run=lambda i: None), Step(check=lambda i, r: r == 'ready' or None)]
    run_steps(client, [first], steps, fetch, key=lambda i: i.name, timeout=60)
    assert first.error == ('unknown: could not read its state (3 polls in a row failed): '
                           'still down')
    words = []
    run_steps(client, [later], steps, fetch, key=lambda i: i.name, timeout=60,
              poll_failed=lambda i, exc, n: words.append((i.name, str(exc), n)) or 'gone dark')
    assert later.error == 'gone dark' and words == [('b', 'still down', 3)]


def test_run_steps_fails_a_waiting_item_at_its_deadline_when_polls_fail():
    clock = FakeClock()
    client, _session = make_client([], clock=clock)

    def fetch(items):
        raise ManilaError('down')
    item = Item('a')
    run_steps(client, [item], [Step(check=lambda i, r: None)], fetch, key=lambda i: i.name,
              timeout=0.5)
    assert item.error == 'unknown: could not read its state (1 poll in a row failed): down'


def test_run_steps_counts_failed_polls_in_a_row_only():
    clock = FakeClock()
    client, _session = make_client([], clock=clock)
    answers = [ManilaError('down'), {'a': 'busy'}, ManilaError('down'), ManilaError('down'),
               {'a': 'ready'}]

    def fetch(items):
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer
    item = Item('a')
    run_steps(client, [item], [Step(check=lambda i, r: r == 'ready' or None)], fetch,
              key=lambda i: i.name, timeout=60)
    # failed, read, failed twice (two in a row, not three), read: ready
    assert item.ok and answers == []
    assert clock.sleeps == [0.5, 0.75, 1.125, 1.6875, 2.0]


class Warned(Clocked):
    """A client that counts the rate limits it met and keeps its warnings."""

    def __init__(self, rate_limited=0, slower=None):
        super(Warned, self).__init__()
        self.rate_limited = rate_limited
        self.warnings = []
        if slower is not None:
            self.answer_times = type('AnswerTimes', (), {'slower': lambda _self: slower})()

    def warn(self, message):
        self.warnings.append(message)


def test_run_steps_does_not_count_the_rate_limits_met_before_it():
    client = Warned(rate_limited=5)   # met before the run (the fleet's listing, say)
    items = [Item(str(n)) for n in range(4)]
    run_steps(client, items, [Step(run=lambda item: item.log.append('job'))], lambda its: {},
              key=lambda i: i.name, timeout=5, workers=2)
    assert all(i.log == ['job'] for i in items)
    assert client.warnings == []


def test_the_pace_warns_of_slower_answers_once():
    slower = 'POST shares answered in 2.00 s (the median of the last 5) against 0.50 s at first'
    client = Warned(slower=slower)
    pace = waiter.Pace(4)
    pace.begin(client)
    client.rate_limited += 1
    pace.observe(client)
    assert rounds(client, pace, 1) == [2]
    assert client.warnings[1:] == [
        "Manila's answers got slower (%s), so this task sent no more requests at once than 2 "
        '(concurrency 4) while they were.' % slower]
    assert rounds(client, pace, 2) == [2, 2]
    assert len(client.warnings) == 2 and pace.held == 3


def test_jobs_that_started_before_the_last_change_of_the_pace_do_not_count():
    client = Warned()
    pace = waiter.Pace(8)
    pace.begin(client)
    client.rate_limited += 1
    pace.observe(client)
    started = pace.round            # jobs that start at 4
    client.rate_limited += 1
    pace.observe(client)            # ... and run on when the limit drops to 2
    for _job in range(4):
        pace.finished(client, started)
    assert pace.limit == 2 and pace.raised == 0
    assert rounds(client, pace, 1) == [3]


def waits_on_the_fake_clock(monkeypatch, clock):
    """run_steps' wait for its running jobs, on the fake clock: a wait that ends
    without a finished job lets its time pass.  Returns the pauses asked for."""
    pauses = []
    real_wait = waiter.futures_wait

    def futures_wait(futures, timeout=None, return_when=ALL_COMPLETED):
        pauses.append(timeout)
        if timeout is None:
            return real_wait(futures, return_when=return_when)
        got = real_wait(futures, timeout=0, return_when=return_when)
        if not got.done:
            clock.now += timeout
        return got
    monkeypatch.setattr(waiter, 'futures_wait', futures_wait)
    return pauses


def test_run_steps_polls_while_jobs_run(monkeypatch):
    client = Clocked()
    client.clock.now = 10.0
    pauses = waits_on_the_fake_clock(monkeypatch, client.clock)
    polled = threading.Event()

    def job(item):
        item.log.append('saw the poll' if polled.wait(10) else 'saw no poll')

    def check(item, resource):
        polled.set()
        return resource == 'ready' or None
    a, b = Item('a'), Item('b')
    run_steps(client, [a, b], [Step(run=job, needed=lambda i: i.name == 'b'),
                               Step(check=check, needed=lambda i: i.name == 'a')],
              lambda items: {'a': 'ready'}, key=lambda i: i.name, timeout=5, workers=2)
    # b's job still ran when a's first poll was due (0.5 s after its wait began)
    assert b.log == ['saw the poll'] and a.ok and b.ok
    assert pauses == [0.5, None]


def test_the_poll_takes_a_place_on_the_pool_too(monkeypatch):
    client = Clocked()
    waits_on_the_fake_clock(monkeypatch, client.clock)
    lock = threading.Lock()
    active = {'now': 0, 'most': 0}

    def busy(seconds):
        with lock:
            active['now'] += 1
            active['most'] = max(active['most'], active['now'])
        time.sleep(seconds)
        with lock:
            active['now'] -= 1

    def fetch(items):
        busy(0)
        return {'a': 'ready'}
    items = [Item('a'), Item('b'), Item('c')]
    run_steps(client, items, [Step(run=lambda item: busy(0.5), needed=lambda i: i.name != 'a'),
                              Step(check=lambda i, r: r == 'ready' or None, needed=lambda i: i.name == 'a')],
              fetch, key=lambda i: i.name, timeout=5, workers=2)
    # the poll came while both jobs ran: it waited for one to end
    assert all(i.ok for i in items) and active['most'] == 2


def test_a_finished_job_lets_its_item_go_on_while_others_run():
    released = threading.Event()

    def first(item):
        if item.name == 'slow':
            item.log.append('released' if released.wait(10) else 'never released')

    def second(item):
        if item.name == 'quick':
            released.set()
    quick, slow = Item('quick'), Item('slow')
    run_steps(Clocked(), [quick, slow], [Step(run=first), Step(run=second)], lambda its: {},
              key=lambda i: i.name, timeout=5, workers=2)
    assert slow.log == ['released']


def test_a_bug_ends_the_run_once_the_other_jobs_ended():
    def job(item):
        if item.name == 'bug':
            raise KeyError('bug')
        time.sleep(0.5)
        item.log.append('done')
    other = Item('other')
    with pytest.raises(KeyError):
        run_steps(Clocked(), [Item('bug'), other], [Step(run=job)], lambda its: {},
                  key=lambda i: i.name, timeout=5, workers=2)
    assert other.log == ['done']


def test_a_wait_that_begins_later_counts_its_own_failed_polls(monkeypatch):
    client = Clocked()
    client.clock.now = 10.0
    waits_on_the_fake_clock(monkeypatch, client.clock)
    released = threading.Event()

    class Signalling(Item):
        def fail(self, why):
            Item.fail(self, why)
            released.set()

    def fetch(items):
        raise ManilaError('down')
    early, later = Signalling('early'), Item('later')
    # later's job ends only once early's wait failed: later's wait begins after it
    run_steps(client, [early, later], [Step(run=lambda item: released.wait(10), needed=lambda i: i.name == 'later'),
                                       Step(check=lambda i, r: r == 'ready' or None)],
              fetch, key=lambda i: i.name, timeout=0.5, workers=2)
    assert early.error == later.error == 'unknown: could not read its state (1 poll in a row failed): down'
