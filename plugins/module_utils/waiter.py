# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Waiting for Manila, for every kind of resource and condition.

A wait is a predicate over what one read returns: ``wait_until`` polls
``fetch()`` quickly at first and backs off, never past the deadline; it ends
when ``ready(resource)`` holds, fails at once when ``failure(resource)``
names a reason, and says where things stood when time ran out.  Failures and
timeouts carry Manila's own user messages through ``explain``; reading them
is worded in one place (``user_message_explainer``).

``wait_for_status`` is the common case: a field (``status``, ``task_state``)
reaching one of some target values, with error values that end the wait.

``run_steps`` takes many resources through jobs and waits at once: the jobs
on a small thread pool sharing the one client, as many at once as ``Pace``
allows, every wait in one poll loop with one read (a listing) per poll.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import collections
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait as futures_wait

from ansible_collections.openkeel.manila.plugins.module_utils import manila_messages
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    ManilaError,
    WaitFailed,
    WaitTimeout,
)

# A target value meaning "the resource no longer exists".
GONE = '<gone>'

FIRST_DELAY = 0.5
BACKOFF = 1.5
MAX_DELAY = 5.0


def poll_delays(first=FIRST_DELAY, factor=BACKOFF, cap=MAX_DELAY):
    """The pauses between polls: 0.5, 0.75, 1.1, ... up to ``cap``."""
    delay = first
    while True:
        yield delay
        delay = min(delay * factor, cap)


def wait_until(client, fetch, ready, what, goal, timeout, failure=None,
               describe=None, explain=None, on_poll=None):
    """Poll ``fetch()`` until ``ready(resource)``; return the last resource.

    ``fetch`` returns the resource, or None once it is gone (``ready(None)``
    then decides whether that ends the wait or is a failure).  ``failure``
    returns None or words for why the wait cannot succeed ("went to error");
    ``describe`` the current state in words ("creating") for a timeout;
    ``explain`` more words for either (Manila's user messages); ``on_poll``
    sees every poll.  ``what`` names the resource, ``goal`` what the wait is
    for.  One ``fetch`` per poll; pauses use the client's sleep and clock.
    """
    deadline = client.clock() + timeout
    delays = poll_delays()
    while True:
        resource = fetch()
        if on_poll is not None and resource is not None:
            on_poll(resource)
        if ready(resource):
            return resource
        if resource is None:
            raise WaitFailed(gone_words(what, goal), state=GONE)
        reason = failure(resource) if failure is not None else None
        if reason:
            raise WaitFailed(_explained(failure_words(what, reason, goal), explain, resource),
                             resource=resource, state=reason)
        remaining = deadline - client.clock()
        if remaining <= 0:
            state = describe(resource) if describe is not None else 'not ready'
            raise WaitTimeout(_explained(timeout_words(what, state, timeout, goal), explain,
                                         resource),
                              resource=resource, state=state)
        client.sleep(min(next(delays), remaining))


def gone_words(what, goal):
    """The words for a resource that disappeared during a wait."""
    return '%s disappeared while waiting for %s.' % (what, goal)


def failure_words(what, reason, goal):
    """The words for a wait that cannot succeed (``reason``: "went to error")."""
    return '%s %s while waiting for %s.' % (what, reason, goal)


def timeout_words(what, state, timeout, goal):
    """The words for a wait that ran out of time."""
    return ('%s is still %s after %s seconds (waiting for %s); raise "timeout" or check '
            'the service.' % (what, state, timeout, goal))


def wait_for_status(client, fetch, targets, errors, what, timeout, field='status',
                    explain=None, on_poll=None):
    """Wait until the resource's ``field`` is one of ``targets``.

    Put ``GONE`` in ``targets`` to wait for deletion.  A value in ``errors``
    ends the wait with WaitFailed at once.
    """
    targets = frozenset(targets)
    errors = frozenset(errors)

    def value(resource):
        return resource.get(field)

    def ready(resource):
        return GONE in targets if resource is None else value(resource) in targets

    def failure(resource):
        if value(resource) in errors:
            return 'went to %s' % value(resource)
        return None

    return wait_until(client, fetch, ready, what, describe_targets(targets), timeout,
                      failure=failure, describe=value, explain=explain, on_poll=on_poll)


def describe_targets(targets):
    return ' or '.join(sorted('gone' if t == GONE else t for t in targets))


def user_message_explainer(client, *resource_ids):
    """An ``explain`` for waits: Manila's newest user messages for the
    resources (Manila files some failures under another resource than the
    one waited for: a share network's under its security services)."""
    def explain(_resource):
        return manila_messages.user_messages(client, resource_ids)
    return explain


def _explained(message, explain, resource):
    if explain is None:
        return message
    extra = explain_safely(explain, resource)
    return '%s %s' % (message, extra) if extra else message


def with_user_messages(client, message, resource_id):
    """``message`` followed by Manila's newest user messages for the resource
    (or why they could not be read)."""
    return _explained(message, user_message_explainer(client, resource_id), None)


def explain_safely(explain, resource):
    """``explain(resource)``, or why it could not be read (a failure stays a failure)."""
    try:
        return explain(resource)
    except ManilaError as exc:
        return 'Manila user messages could not be read: %s' % exc


# -- many resources at once ------------------------------------------------------

class Step(object):
    """One step of ``run_steps``: a job or a wait.

    ``run(item)`` is a job: it runs on the thread pool.  ``check(item,
    resource)`` is a wait: it sees the item's resource in every poll (None
    when the read did not find it) and returns a true value once the item may
    go on (it calls ``item.fail`` itself when the item cannot), None while it
    must wait.  ``needed(item)`` says whether the step applies to the item
    (default: always); ``timed_out(item, resource)`` words a wait that ran
    out of time.  ``repeat(item)``, on a wait: a true value once it is done
    sends the item back to the step before it (a job and its wait, as often
    as the item has such jobs left: one write, then Manila's work on it).
    """

    def __init__(self, run=None, check=None, needed=None, timed_out=None, repeat=None):
        self.run = run
        self.check = check
        self.needed = needed
        self.timed_out = timed_out
        self.repeat = repeat

    def next_position(self, item):
        """How far the item moves once this step is done: on (1), or back to
        the step before (-1) when ``repeat`` says so."""
        if self.repeat is not None and item.ok and self.repeat(item):
            return -1
        return 1


class Pace(object):
    """How many jobs of ``run_steps`` run at once: at most ``maximum`` (the
    task's concurrency), following what Manila accepts.  Additive increase,
    multiplicative decrease, as TCP finds the rate a path takes:

    - lowered: each new answer of a rate limit (429, or Manila's rate-limit
      413; the client counts them in ``rate_limited``) halves the limit,
      down to one;
    - raised: by one once ``limit`` jobs that started under the current
      limit (one round of it) have finished without a new rate limit's
      answer, never above ``maximum``.  A job that started before the last
      change does not count: it ran at another limit.  From one back to
      eight takes 1 + 2 + ... + 7 = 28 jobs without a refusal: a limit met
      again soon is met at a lower rate, and one that went away leaves the
      task slow for a few rounds only;
    - held: not raised while Manila answers writes much more slowly than at
      first (``client.answer_times.slower()``: the median of the latest
      answers of a kind of write more than twice that of the first ones).
      Answers that slow down while the task sends no more than before mean
      Manila's queue grows (other work, fewer API workers): another job at
      once would wait in that queue, not finish sooner.  The rule only ever
      keeps the limit where it is, so a wrong guess costs time, never a
      refusal; a new round starts after a hold.

    A task's run_steps may share one Pace (the fleet's reads, then its
    writes), so that what one met carries into the next; ``summary()`` is
    what the task reports.
    """

    def __init__(self, maximum):
        self.maximum = self.limit = self.lowest = maximum
        self.lowered = self.raised = self.held = 0
        self.round = 0     # changes with the limit: which limit a job started under
        self.done = 0      # jobs of this round finished without a rate limit's answer
        self.seen = None   # the client's rate_limited when last looked at

    def begin(self, client):
        """A run_steps begins: rate limits met before this Pace's first run do not count."""
        if self.seen is None:
            self.seen = getattr(client, 'rate_limited', 0)

    def observe(self, client):
        """Lower the limit after a new rate limit's answer (True when one came)."""
        seen = getattr(client, 'rate_limited', 0)
        if self.seen is None or seen == self.seen:
            self.seen = seen
            return False
        self.seen = seen
        if self.limit > 1:
            self.limit = max(1, self.limit // 2)
            self.lowered += 1
            self.lowest = min(self.lowest, self.limit)
            client.warn("Manila's rate limit refused requests of this task, so it lowered the "
                        'requests it sends at once to %d (concurrency %d); it raises them by one '
                        'after each round of that many that meets no refusal.' % (
                            self.limit, self.maximum))
        self.next_round()
        return True

    def finished(self, client, started_round):
        """A job that started in round ``started_round`` finished."""
        if self.observe(client) or started_round != self.round or self.limit >= self.maximum:
            return
        self.done += 1
        if self.done < self.limit:
            return
        times = getattr(client, 'answer_times', None)
        slower = times.slower() if times is not None else None
        if slower:
            self.held += 1
            if self.held == 1:
                client.warn("Manila's answers got slower (%s), so this task sent no more "
                            'requests at once than %d (concurrency %d) while they were.' % (
                                slower, self.limit, self.maximum))
        else:
            self.limit += 1
            self.raised += 1
        self.next_round()

    def next_round(self):
        self.round += 1
        self.done = 0

    def summary(self):
        """What the task reports: the limit it ended at, the lowest, and how
        often it was lowered, raised and held."""
        return dict(final=self.limit, lowest=self.lowest, lowered=self.lowered,
                    raised=self.raised, held=self.held)


# A poll of run_steps that fails (after the client's own retries of the read)
# is tried again at the next poll; after this many failures in a row, every
# item still waiting fails with what is known (poll_failed).
POLL_FAILURES = 3


def unknown_state_words(item, exc, failures):
    """run_steps' default words for an item whose state could not be read."""
    return 'unknown: could not read its state (%s in a row failed): %s' % (
        counted(failures, 'poll'), exc)


def counted(number, noun):
    """'1 poll', '3 polls'."""
    return '%d %s%s' % (number, noun, '' if number == 1 else 's')


def run_steps(client, items, steps, fetch, key, timeout, workers=1, on_error=None,
              max_delay=2.0, poll_failed=None, pace=None):
    """Take every item through ``steps``, each item at its own pace.

    Jobs run on a pool of ``workers`` threads that share the client (and so
    its session and token); ``workers=1`` runs them one after another in this
    thread.  Waits are one poll loop for every waiting item: one
    ``fetch(waiting_items)`` per poll (``{key(item): resource}``), quickly at
    first and backing off to ``max_delay`` (a poll serves every waiting item,
    so it may come more often than one item's wait would), each wait ending
    at its own deadline (``timeout`` seconds after the item began it).  An
    item that fails (``item.ok`` false) stops there; the others go on.  A
    ManilaError of a job or a check goes to ``on_error(item, exc)`` (default:
    ``item.fail(exc)``); any other exception is a bug and ends the run.

    How many jobs run at once follows ``pace`` (a ``Pace``; default: a new
    one of ``workers``, which a given one replaces): halved after a rate
    limit's answer, with a warning, and raised again by one after each round
    without one; items wait their turn in order.

    A poll whose ``fetch`` raises a ManilaError (the client has already
    retried the read) is tried again at the next poll; an item whose deadline
    passes meanwhile, and after POLL_FAILURES failed polls in a row every
    waiting item, fails with ``poll_failed(item, exc, failures)`` (default:
    ``unknown_state_words``): its state is unknown, the others' results stand.
    """
    poll_failed = poll_failed or unknown_state_words
    on_error = on_error or (lambda item, exc: item.fail(exc))
    position = {}
    running = {}
    waiting = {}
    pace = pace or Pace(workers)
    pace.begin(client)
    workers = pace.maximum
    pool = ThreadPoolExecutor(max_workers=workers) if workers > 1 else None
    poll = {'delays': None, 'at': None, 'failures': 0}
    # The items whose job waits for a free place (pace.limit), in order.
    queued = collections.deque()

    def submit(item, step):
        if len(running) >= pace.limit:
            queued.append(item)
            return
        running[pool.submit(call, step.run, item)] = (item, pace.round)

    def call(func, *args):
        try:
            return func(*args)
        except ManilaError as exc:
            on_error(args[0], exc)
            return True

    def start(item):
        """Send the item to its next step that applies (or nowhere: it is done)."""
        while item.ok and position[id(item)] < len(steps):
            step = steps[position[id(item)]]
            if step.needed is not None and not step.needed(item):
                position[id(item)] += 1
                continue
            if step.run is None:
                if not waiting:
                    # The first waiter of a while: poll soon, then back off.
                    poll['delays'] = poll_delays(cap=max_delay)
                    poll['failures'] = 0
                    poll['at'] = client.clock() + next(poll['delays'])
                waiting[id(item)] = (item, step, client.clock() + timeout)
                return
            if pool is None:
                call(step.run, item)
                position[id(item)] += 1
                continue
            submit(item, step)
            return

    def poll_once():
        polled = [entry[0] for entry in waiting.values()]
        # On the pool too, so that no more than ``workers`` requests (and
        # connections) are ever open at once: servers such as uwsgi with
        # keep-alive give each open connection a worker of its own.
        try:
            found = pool.submit(fetch, polled).result() if pool is not None else fetch(polled)
        except ManilaError as exc:
            poll['failures'] += 1
            for ident, (item, step, deadline) in list(waiting.items()):
                if poll['failures'] >= POLL_FAILURES or client.clock() >= deadline:
                    del waiting[ident]
                    item.fail(poll_failed(item, exc, poll['failures']))
            poll['at'] = client.clock() + next(poll['delays']) if waiting else None
            return
        poll['failures'] = 0
        for ident, (item, step, deadline) in list(waiting.items()):
            resource = found.get(key(item))
            done = call(step.check, item, resource)
            if done or not item.ok:
                del waiting[ident]
                position[ident] += step.next_position(item)
                start(item)
            elif client.clock() >= deadline:
                del waiting[ident]
                item.fail(step.timed_out(item, resource) if step.timed_out else
                          'still not ready after %s seconds' % timeout)
        poll['at'] = client.clock() + next(poll['delays']) if waiting else None

    try:
        for item in items:
            position[id(item)] = 0
            start(item)
        while running or waiting or queued:
            pace.observe(client)
            while queued and len(running) < pace.limit:
                item = queued.popleft()
                submit(item, steps[position[id(item)]])
            if waiting and client.clock() >= poll['at']:
                poll_once()
                continue
            if running:
                pause = max(0.0, poll['at'] - client.clock()) if waiting else None
                finished = futures_wait(list(running), timeout=pause,
                                        return_when=FIRST_COMPLETED).done
                for future in finished:
                    item, started = running.pop(future)
                    future.result()  # re-raises what is not a ManilaError
                    pace.finished(client, started)
                    position[id(item)] += 1
                    start(item)
            else:
                client.sleep(max(0.0, poll['at'] - client.clock()))
    finally:
        if pool is not None:
            pool.shutdown(wait=True)
