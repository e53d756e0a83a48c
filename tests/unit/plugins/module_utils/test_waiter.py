# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import itertools

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils.client import ManilaError
from ansible_collections.openkeel.manila.plugins.module_utils.states import SHARE_ERROR_STATES
from ansible_collections.openkeel.manila.plugins.module_utils.waiter import (
    GONE,
    WaitFailed,
    WaitTimeout,
    poll_delays,
    wait_for,
)


class FakeClock(object):
    def __init__(self):
        self.now = 0.0
        self.sleeps = []

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds

    def __call__(self):
        return self.now


def sequence(*states):
    answers = iter(states)

    def fetch():
        state = next(answers)
        return None if state is None else {'id': 'abc', 'status': state}
    return fetch


def test_reaches_target_and_backs_off():
    clock = FakeClock()
    result = wait_for(sequence('creating', 'creating', 'creating', 'available'), ['available'],
                      SHARE_ERROR_STATES, 60, 'Share x', sleep=clock.sleep, clock=clock)
    assert result['status'] == 'available'
    assert clock.sleeps == [0.5, 0.75, 1.125]


def test_delays_are_capped():
    delays = list(itertools.islice(poll_delays(), 12))
    assert delays[0] == 0.5 and max(delays) == 5.0 and delays[-1] == 5.0


@pytest.mark.parametrize('state', sorted(SHARE_ERROR_STATES))
def test_every_error_state_fails_at_once_with_user_messages(state):
    clock = FakeClock()
    with pytest.raises(WaitFailed) as err:
        wait_for(sequence('extending', state, 'available'), ['available'], SHARE_ERROR_STATES, 60,
                 'Share x', explain=lambda r: 'Manila says: no valid host.',
                 sleep=clock.sleep, clock=clock)
    assert err.value.state == state
    assert state in str(err.value) and 'Manila says: no valid host.' in str(err.value)
    assert len(clock.sleeps) == 1


def test_timeout_says_where_it_stood():
    clock = FakeClock()
    with pytest.raises(WaitTimeout) as err:
        wait_for(lambda: {'status': 'creating'}, ['available'], SHARE_ERROR_STATES, 10, 'Share x',
                 sleep=clock.sleep, clock=clock)
    assert 'still creating after 10 seconds' in str(err.value)
    assert clock.now == pytest.approx(10.0)


def test_waiting_for_deletion():
    clock = FakeClock()
    assert wait_for(sequence('deleting', None), [GONE], SHARE_ERROR_STATES, 10, 'Share x',
                    sleep=clock.sleep, clock=clock) is None


def test_vanishing_resource_is_a_failure_when_not_waiting_for_deletion():
    with pytest.raises(WaitFailed) as err:
        wait_for(sequence(None), ['available'], SHARE_ERROR_STATES, 10, 'Share x',
                 sleep=lambda s: None)
    assert 'disappeared' in str(err.value)


def test_unreadable_user_messages_do_not_hide_the_failure():
    def explain(resource):
        raise ManilaError('forbidden', status=403)
    with pytest.raises(WaitFailed) as err:
        wait_for(sequence('error'), ['available'], SHARE_ERROR_STATES, 10, 'Share x',
                 explain=explain, sleep=lambda s: None)
    assert 'went to error' in str(err.value) and 'could not be read' in str(err.value)


def test_on_poll_sees_every_poll():
    seen = []
    clock = FakeClock()
    wait_for(sequence('a', 'b', 'done'), ['done'], [], 10, 'x', on_poll=lambda r: seen.append(r['status']),
             sleep=clock.sleep, clock=clock)
    assert seen == ['a', 'b', 'done']
