# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""states.py: the status lists agree with each other.

states.py has no functions, only Manila's status lists; these tests check what
the code that reads them relies on, and fail when a status is put in the wrong
list: a wait stops at once on an error state and goes on through a busy one,
so no state may be both, nor both ready and either; a state on the way out is
never one to converge on; the migration phases nest; and every status is
spelt as Manila shows it (lower case, no spaces), in a list no caller can
change."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import itertools

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import states
from ansible_collections.openkeel.manila.plugins.module_utils.share_networks import ShareNetworkAPI
from ansible_collections.openkeel.manila.plugins.module_utils.shares import ShareAPI
from ansible_collections.openkeel.manila.plugins.module_utils.snapshots import SnapshotAPI

# The kinds whose waits read a status table (resource.Statuses).
TABLES = [('share', ShareAPI.states), ('snapshot', SnapshotAPI.states),
          ('share network', ShareNetworkAPI.states)]
KINDS = [kind for kind, _table in TABLES]


def overlap(**lists):
    """Every pair of the named lists that shares a state, with those states."""
    found = {}
    for (a, first), (b, second) in itertools.combinations(sorted(lists.items()), 2):
        both = set(first) & set(second)
        if both:
            found['%s & %s' % (a, b)] = sorted(both)
    return found


# -- every kind's status table -----------------------------------------------------------------

@pytest.mark.parametrize('kind, table', TABLES, ids=KINDS)
def test_ready_busy_and_error_states_of_a_kind_are_disjoint(kind, table):
    assert table.ready and table.busy and table.error
    assert overlap(ready=table.ready, busy=table.busy, error=table.error) == {}


@pytest.mark.parametrize('kind, table', TABLES, ids=KINDS)
def test_a_state_on_the_way_out_is_neither_ready_nor_an_error(kind, table):
    # a namesake in one of them no longer holds its name: a ready or failed
    # resource there would be created a second time beside it
    assert overlap(leaving=table.leaving, ready=table.ready, error=table.error) == {}


def test_a_share_on_its_way_out_is_busy_until_manila_says_deleted():
    assert set(states.SHARE_LEAVING_STATES) - set(states.SHARE_BUSY_STATES) == {'deleted'}
    assert set(states.SNAPSHOT_LEAVING_STATES) <= set(states.SNAPSHOT_BUSY_STATES)


# -- shares --------------------------------------------------------------------------------------

def test_the_share_states_that_name_a_failure_are_error_states():
    assert states.SHARE_REVERT_FAILED in states.SHARE_ERROR_STATES
    assert set(states.SHARE_RULES_NEED_2_74_STATES) <= set(states.SHARE_ERROR_STATES)
    # every error state but 'error' takes rule changes at every version
    assert 'extending_error' not in states.SHARE_RULES_NEED_2_74_STATES


def test_the_share_states_of_work_under_way_are_busy_states():
    busy = set(states.SHARE_BUSY_STATES)
    assert set(states.SHARE_REVERTING_STATES) <= busy
    assert set(states.SHARE_MIGRATING_STATES) <= busy
    assert 'available' not in busy | set(states.SHARE_ERROR_STATES)


def test_an_unmanage_under_way_is_no_failure_and_nothing_to_converge_on():
    unmanaging = set(states.UNMANAGING_STATES)
    assert unmanaging.isdisjoint(states.SHARE_ERROR_STATES)
    assert unmanaging.isdisjoint(states.SNAPSHOT_ERROR_STATES)
    assert unmanaging.isdisjoint(ShareAPI.states.ready + SnapshotAPI.states.ready)


# -- snapshots -----------------------------------------------------------------------------------

def test_a_snapshot_being_restored_is_busy_and_one_manila_deletes_is_at_rest():
    assert states.SNAPSHOT_RESTORING in states.SNAPSHOT_BUSY_STATES
    deletable = set(states.SNAPSHOT_DELETABLE_STATES)
    assert deletable.isdisjoint(states.SNAPSHOT_BUSY_STATES)
    assert deletable <= {states.SNAPSHOT_AVAILABLE} | set(states.SNAPSHOT_ERROR_STATES)
    assert states.SNAPSHOT_AVAILABLE in deletable


def test_deferred_deletions_are_never_a_snapshot_to_pick():
    deferred = set(states.SNAPSHOT_DEFERRED_DELETE_STATES)
    assert states.SNAPSHOT_AVAILABLE not in deferred
    assert deferred <= set(states.SNAPSHOT_BUSY_STATES) | set(states.SNAPSHOT_ERROR_STATES)


# -- access rules ---------------------------------------------------------------------------------

def test_a_rules_states_and_a_shares_rule_status_are_disjoint():
    assert overlap(error=states.ACCESS_ERROR_STATES, active=states.ACCESS_ACTIVE_STATES,
                   deny=states.ACCESS_DENY_STATES) == {}
    assert overlap(active=states.ACCESS_RULES_STATUS_ACTIVE,
                   error=states.ACCESS_RULES_STATUS_ERROR) == {}


# -- migrations -----------------------------------------------------------------------------------

def test_a_migration_is_in_flight_ended_or_failed_never_two_of_them():
    assert overlap(error=states.MIGRATION_ERROR_STATES, final=states.MIGRATION_FINAL_STATES,
                   in_flight=states.MIGRATION_IN_FLIGHT_STATES) == {}
    assert {states.MIGRATION_SUCCESS, states.MIGRATION_CANCELLED} <= set(states.MIGRATION_FINAL_STATES)


@pytest.mark.parametrize('name', ['MIGRATION_PHASE1_DONE_STATES', 'MIGRATION_CANCELLABLE_STATES',
                                  'MIGRATION_CANCELLING_STATES', 'MIGRATION_COMPLETING_STATES'])
def test_every_phase_of_a_migration_is_in_flight(name):
    assert set(getattr(states, name)) <= set(states.MIGRATION_IN_FLIGHT_STATES)


def test_a_migration_that_is_cancelling_or_completing_cannot_be_cancelled():
    assert overlap(cancellable=states.MIGRATION_CANCELLABLE_STATES,
                   cancelling=states.MIGRATION_CANCELLING_STATES,
                   completing=states.MIGRATION_COMPLETING_STATES) == {}
    assert states.MIGRATION_DRIVER_PHASE1_DONE in states.MIGRATION_PHASE1_DONE_STATES
    assert set(states.MIGRATION_PHASE1_DONE_STATES) <= set(states.MIGRATION_CANCELLABLE_STATES)


# -- share networks -------------------------------------------------------------------------------

def test_an_active_share_network_is_neither_busy_nor_failed():
    assert states.SHARE_NETWORK_ACTIVE not in states.SHARE_NETWORK_BUSY_STATES
    assert states.SHARE_NETWORK_ACTIVE not in states.SHARE_NETWORK_ERROR_STATES


# -- every list --------------------------------------------------------------------------------------

LISTS = sorted(name for name, value in vars(states).items()
               if name.isupper() and not isinstance(value, str))
SINGLE = sorted(name for name, value in vars(states).items()
                if name.isupper() and isinstance(value, str))


def test_the_lists_are_found():
    # (so that the tests below have something to look at)
    assert 'SHARE_ERROR_STATES' in LISTS and 'SNAPSHOT_AVAILABLE' in SINGLE
    assert len(LISTS) >= 25


@pytest.mark.parametrize('name', LISTS)
def test_every_list_is_frozen_and_holds_states_as_manila_spells_them(name):
    value = getattr(states, name)
    assert isinstance(value, frozenset), '%s can be changed by whoever reads it' % name
    assert value, '%s is empty' % name
    for state in value:
        assert state == state.strip().lower() and ' ' not in state and state, (name, state)


@pytest.mark.parametrize('name', SINGLE)
def test_every_single_state_is_spelt_as_manila_shows_it(name):
    state = getattr(states, name)
    if name == 'ACCESS_REDACTED_VALUE':
        assert set(state) == {'*'}
    else:
        assert state == state.strip().lower() and ' ' not in state and state, (name, state)
