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
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
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
            raise WaitFailed('%s disappeared while waiting for %s.' % (what, goal),
                             state=GONE)
        reason = failure(resource) if failure is not None else None
        if reason:
            message = '%s %s while waiting for %s.' % (what, reason, goal)
            raise WaitFailed(_explained(message, explain, resource),
                             resource=resource, state=reason)
        remaining = deadline - client.clock()
        if remaining <= 0:
            state = describe(resource) if describe is not None else 'not ready'
            message = ('%s is still %s after %s seconds (waiting for %s); raise '
                       '"timeout" or check the service.' % (what, state, timeout, goal))
            raise WaitTimeout(_explained(message, explain, resource),
                              resource=resource, state=state)
        client.sleep(min(next(delays), remaining))


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


def user_message_explainer(client, resource_id):
    """An ``explain`` for waits: Manila's newest user messages for the resource."""
    def explain(_resource):
        return lookups.user_messages(client, resource_id)
    return explain


def _explained(message, explain, resource):
    if explain is None:
        return message
    extra = explain_safely(explain, resource)
    return '%s %s' % (message, extra) if extra else message


def explain_safely(explain, resource):
    """``explain(resource)``, or why it could not be read (a failure stays a failure)."""
    try:
        return explain(resource)
    except ManilaError as exc:
        return 'Manila user messages could not be read: %s' % exc
