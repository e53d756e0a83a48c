# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""One waiter for every asynchronous Manila resource.

Polls quickly at first and backs off, never past the deadline; succeeds on a
target state, fails at once on an error state (with Manila's user messages
for the resource when the caller can fetch them), and says where it stood
when time ran out.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import time

from ansible_collections.openkeel.manila.plugins.module_utils.client import ManilaError

# A target meaning "the resource no longer exists".
GONE = '<gone>'

FIRST_DELAY = 0.5
BACKOFF = 1.5
MAX_DELAY = 5.0


class WaitFailed(ManilaError):
    """The resource reached an error state (or vanished) while we waited."""

    def __init__(self, message, resource=None, state=None):
        super(WaitFailed, self).__init__(message)
        self.resource = resource
        self.state = state


class WaitTimeout(WaitFailed):
    """The deadline passed before the resource reached a target state."""


def poll_delays(first=FIRST_DELAY, factor=BACKOFF, cap=MAX_DELAY):
    """The sequence of pauses between polls: 0.5, 0.75, 1.1, ... up to ``cap``."""
    delay = first
    while True:
        yield delay
        delay = min(delay * factor, cap)


def wait_for(fetch, targets, errors, timeout, what, state_of=None,
             explain=None, on_poll=None, sleep=time.sleep, clock=time.monotonic):
    """Poll ``fetch()`` until the resource's state is in ``targets``.

    ``fetch`` returns the resource (a dict) or None when it is gone; put
    ``GONE`` in ``targets`` to wait for deletion.  ``errors`` are states that
    end the wait with WaitFailed at once.  ``explain(resource)`` returns extra
    text for a failure (Manila's user messages); ``on_poll(resource)`` sees
    every poll (progress reporting).  One read per poll, nothing more.
    """
    state_of = state_of or (lambda resource: resource.get('status'))
    targets = frozenset(targets)
    errors = frozenset(errors)
    deadline = clock() + timeout
    delays = poll_delays()
    last_state = None
    while True:
        resource = fetch()
        if resource is None:
            if GONE in targets:
                return None
            raise WaitFailed('%s disappeared while waiting for it to become %s.'
                             % (what, _describe(targets)), state=GONE)
        last_state = state_of(resource)
        if on_poll is not None:
            on_poll(resource)
        if last_state in targets:
            return resource
        if last_state in errors:
            message = '%s went to %s while waiting for %s.' % (
                what, last_state, _describe(targets))
            raise WaitFailed(_with_explanation(message, explain, resource),
                             resource=resource, state=last_state)
        remaining = deadline - clock()
        if remaining <= 0:
            message = '%s is still %s after %s seconds (waiting for %s); raise ' \
                      '"timeout" or check the service.' % (
                          what, last_state, timeout, _describe(targets))
            raise WaitTimeout(_with_explanation(message, explain, resource),
                              resource=resource, state=last_state)
        sleep(min(next(delays), remaining))


def _describe(targets):
    names = sorted('gone' if t == GONE else t for t in targets)
    return ' or '.join(names)


def _with_explanation(message, explain, resource):
    if explain is None:
        return message
    try:
        extra = explain(resource)
    except ManilaError as exc:
        extra = 'Manila user messages could not be read: %s' % exc
    return '%s %s' % (message, extra) if extra else message
