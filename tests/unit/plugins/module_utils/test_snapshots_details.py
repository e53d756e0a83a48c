# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Snapshots: the plan's remaining branches (pure functions)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import snapshots as sn
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    InvalidInput,
)

SHARE = {'id': 'sh', 'name': 'data', 'size': 3, 'status': 'available', 'snapshot_support': True,
         'share_type_name': 'gold'}


def snap(sid='s1', **fields):
    base = {'id': sid, 'name': 'n', 'description': 'd', 'share_id': 'sh', 'size': 3,
            'status': 'available', 'created_at': '2026-01-01T00:00:00', 'metadata': {}}
    base.update(fields)
    return base


def test_views():
    assert sn.diff_view(None) == {} and sn.diff_view({}) == {}
    view = sn.diff_view(snap(metadata={'a': '1', '__x': 'y', sn.REVERT_MARKER: 't'}))
    assert view == {'name': 'n', 'description': 'd', 'share_id': 'sh', 'size': 3,
                    'status': 'available', 'reverted': True, 'metadata': {'a': '1'}}
    assert sn.diff_view(snap())['reverted'] is False
    after = sn.predicted_after(snap(metadata={'a': '1', 'b': '2'}),
                               {'display_name': 'x', 'display_description': 'y'}, {'c': '3'}, ['a', 'z'])
    assert (after['name'], after['description'], after['metadata']) == ('x', 'y', {'b': '2', 'c': '3'})
    assert sn.predicted_after(snap()) == sn.diff_view(snap())
    assert sn.snapshot_label(snap()) == 'Snapshot n (s1)'
    assert sn.names_and_ids([snap('a', name='old'), snap('b', name='new', created_at='2027')]) == \
        'new (b), old (a)'
    assert sn.brief(snap(extra=1)) == {'id': 's1', 'name': 'n', 'status': 'available',
                                       'created_at': '2026-01-01T00:00:00'}
    assert sn.reverted_at(snap(metadata=None)) is None


def test_plan_object():
    plan = sn.SnapshotPlan('nothing')
    assert (plan.before, plan.after, plan.body, plan.update, plan.metadata_set,
            plan.metadata_delete, plan.record_revert) == ({}, {}, None, {}, {}, [], False)
    assert repr(plan) == "SnapshotPlan('nothing')" and not plan.changed
    assert sn.SnapshotPlan('revert').changed


@pytest.mark.parametrize('share,error,needle', [
    (dict(SHARE, snapshot_support=False), InvalidInput, 'without snapshot_support=True (gold)'),
    (dict(SHARE, is_soft_deleted=True), InvalidInput, 'is in the recycle bin'),
    (dict(SHARE, status='error'), CannotConverge, 'is in status error; Manila snapshots only'),
    (dict(SHARE, status='extending_error'), CannotConverge, 'extending_error'),
])
def test_shares_that_cannot_be_snapshotted(share, error, needle):
    with pytest.raises(error) as err:
        sn.check_share_can_snapshot(share)
    assert needle in str(err.value)


def test_shares_that_can():
    sn.check_share_can_snapshot({'id': 'x', 'status': 'creating'})
    plan = sn.plan_create(SHARE, {'name': 'n', 'description': '', 'metadata': {}})
    assert plan.body == {'share_id': 'sh', 'name': 'n', 'description': ''}
    assert plan.after['size'] == 3 and plan.after['status'] == 'available'
    with pytest.raises(InvalidInput):
        sn.plan_create(SHARE, {'name': ''})


@pytest.mark.parametrize('status', sorted(sn.SNAPSHOT_ERROR_STATES))
def test_update_refuses_snapshots_in_error(status):
    with pytest.raises(CannotConverge):
        sn.plan_update(snap(status=status), {})


def test_update_and_absent_branches():
    assert sn.plan_update(snap(), {'name': 'x', 'description': 'd', 'metadata': None}).action == 'nothing'
    plan = sn.plan_update(snap(metadata={'a': '1', sn.REVERT_MARKER: 't'}), {'metadata': {}},
                          purge_metadata=True)
    assert plan.metadata_delete == ['a'] and plan.action == 'update'
    assert sn.plan_update(snap(), {'name': 'x'}, rename=True).update == {'display_name': 'x'}
    assert sn.plan_absent(None).action == 'nothing'
    for status in ('available', 'error', 'creating', 'deleting'):
        assert sn.plan_absent(snap(status=status)).action == 'delete'
    with pytest.raises(CannotConverge) as err:
        sn.plan_absent(snap(status='error_deleting'))
    assert 'is in status error_deleting, in which Manila deletes no snapshot' in str(err.value)


def test_needs_revert():
    marked = snap(metadata={sn.REVERT_MARKER: 't'})
    assert sn.needs_revert(snap()) and not sn.needs_revert(marked) and sn.needs_revert(marked, True)


def test_plan_share_snapshots_order_and_refusals():
    assert sn.plan_share_snapshots(SHARE, [], False) == []
    old, new = snap('a'), snap('b', created_at='2027')
    assert [s['id'] for s in sn.plan_share_snapshots(SHARE, [old, new], True)] == ['b', 'a']
    with pytest.raises(InvalidInput) as err:
        sn.plan_share_snapshots(SHARE, [old, new], False)
    assert 'has 2 snapshot(s): n (b), n (a).' in str(err.value)
    with pytest.raises(CannotConverge) as err:
        sn.plan_share_snapshots(SHARE, [old, snap('c', status='error_deleting'),
                                        snap('d', status='manage_error')], True)
    assert '(error_deleting, manage_error)' in str(err.value)
    assert sn.plan_share_snapshots(SHARE, [snap('e', status='deleting')], True)[0]['id'] == 'e'
