# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Shares, more: the create options each microversion takes, the checks of a share
task before any request, metadata removals that do not hide a bad value after
them, and a share already in the recycle bin that a soft delete leaves alone."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.modules import share as share_module
from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput, UnsupportedFeature
from ansible_collections.openkeel.manila.plugins.module_utils.shares import (
    check_create_features,
    check_share_task,
    metadata_items,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Fail,
    run_scripted,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    make_client,
)

SHARE_ID = '11111111-2222-3333-4444-555555555555'


@pytest.mark.parametrize('cap, hints, mount, refused', [
    (None, {'only_host': 'h@b#p', 'same_host': 'x'}, 'data', None),
    ('2.66', {'same_host': 'x'}, None, None),
    ('2.67', {'only_host': 'h@b#p'}, None, None),
    ('2.66', {'only_host': 'h@b#p'}, None, '2.67'),
    ('2.64', {'same_host': 'x'}, None, '2.65'),
    ('2.84', None, 'data', None),
    ('2.83', None, 'data', '2.84'),
    ('2.29', None, None, None),
])
def test_create_features_by_microversion(cap, hints, mount, refused):
    client, session = make_client([], cap=cap)
    params = {'scheduler_hints': hints, 'mount_point_name': mount}
    if refused is None:
        check_create_features(client, params)
    else:
        with pytest.raises(UnsupportedFeature) as err:
            check_create_features(client, params)
        assert 'needs Manila API %s' % refused in str(err.value)
    assert len(session.calls) == 1   # no request beyond the versions document


def task(**options):
    p = dict(size=None, soft_delete=False, state='present', restore=False, delete_snapshots=False,
             share_proto=None, name=None, description=None, metadata=None)
    p.update(options)
    return p


@pytest.mark.parametrize('options', [
    dict(size=0),
    dict(size=-1),
    dict(share_proto='XFS'),
    dict(name='n' * 256),
    dict(description='d' * 256),
])
def test_a_share_task_refused_before_any_request(options):
    with pytest.raises(InvalidInput):
        check_share_task(task(**options))


def test_a_share_task_within_the_limits_passes():
    check_share_task(task(size=1, share_proto='nfs', name='n' * 255, description='d' * 255,
                          metadata={'a': '1', 'b': None}))


def test_a_removal_does_not_hide_an_empty_value_after_it():
    with pytest.raises(InvalidInput) as err:
        metadata_items({'a': None, 'b': ''}, removals=True)
    assert "'b'" in str(err.value)
    assert metadata_items({'a': None, 'b': 'x'}, removals=True) == {'a': None, 'b': 'x'}


def test_a_soft_delete_of_a_share_already_in_the_recycle_bin_changes_nothing(monkeypatch):
    binned = {'id': SHARE_ID, 'name': 'data', 'size': 1, 'share_proto': 'NFS', 'status': 'available',
              'is_soft_deleted': True, 'metadata': {}}
    outcome, session = run_scripted(monkeypatch, share_module, {
        'name': SHARE_ID, 'state': 'absent', 'soft_delete': True}, [
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': binned})),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['changed'] is False
    assert outcome.result['deleted_snapshots'] == []
    assert session.writes() == []
