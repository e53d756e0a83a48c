# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The replica planner (a table: share, replicas, task -> action and targets) and the
replica calls on scripted HTTP: experimental header below 2.56, export locations from
2.47, share_network 2.72, quiesce_wait_time 2.75, waits that end on errors."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import resource
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    InvalidInput,
    UnsupportedFeature,
    WaitFailed,
)
from ansible_collections.openkeel.manila.plugins.module_utils.replicas import (
    CREATE,
    DELETE,
    NOTHING,
    PROMOTE,
    RESYNC,
    ReplicaAPI,
    ReplicaInError,
    plan,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    expect,
    make_client,
)

SHARE_ID = '11111111-2222-3333-4444-555555555555'
SHARE = {'id': SHARE_ID, 'name': 'data', 'status': 'available', 'replication_type': 'readable',
         'share_type_name': 'replicated-readable'}
PLAIN = dict(SHARE, replication_type=None, share_type_name='default')


def rep(rid, state, zone='nova', status='available', created='2026-12-01T10:00:0%d'):
    return {'id': rid, 'share_id': SHARE_ID, 'replica_state': state, 'status': status,
            'availability_zone': zone, 'created_at': created % int(rid[-1])}


A = rep('r1', 'active')
B = rep('r2', 'in_sync')
C = rep('r3', 'in_sync', zone='zone-b')
OUT = rep('r2', 'out_of_sync')
ERR = rep('r2', 'error')
ERR_STATUS = rep('r2', 'in_sync', status='error')
CREATING = rep('r2', 'out_of_sync', status='creating')
DELETING = rep('r2', 'in_sync', status='deleting')

# (id, share, replicas, task, action, target IDs, create body)
TABLE = [
    ('present-makes-one', SHARE, [A], {}, CREATE, [], {'share_id': SHARE_ID}),
    ('present-in-zone', SHARE, [A, B], {'availability_zone': 'zone-b'}, CREATE, [],
     {'share_id': SHARE_ID, 'availability_zone': 'zone-b'}),
    ('present-with-network', SHARE, [A], {'share_network': 'n1'}, CREATE, [],
     {'share_id': SHARE_ID, 'share_network_id': 'n1'}),
    ('present-has-one', SHARE, [A, B], {}, NOTHING, ['r2'], None),
    ('present-has-one-in-zone', SHARE, [A, B, C], {'availability_zone': 'zone-b'}, NOTHING,
     ['r3'], None),
    ('present-leaving-does-not-count', SHARE, [A, DELETING], {}, CREATE, [],
     {'share_id': SHARE_ID}),
    ('present-being-made-counts', SHARE, [A, CREATING], {}, NOTHING, ['r2'], None),
    ('present-out-of-sync-is-left', SHARE, [A, OUT], {}, NOTHING, ['r2'], None),
    ('present-resync', SHARE, [A, OUT], {'resync': True}, RESYNC, ['r2'], None),
    ('present-resync-in-sync', SHARE, [A, B], {'resync': True}, NOTHING, ['r2'], None),
    ('present-by-id', SHARE, [A, B, C], {'id': 'r3'}, NOTHING, ['r3'], None),
    ('active-by-id', SHARE, [A, B], {'state': 'active', 'id': 'r2'}, PROMOTE, ['r2'], None),
    ('active-already', SHARE, [A, B], {'state': 'active', 'id': 'r1'}, NOTHING, ['r1'], None),
    ('active-by-zone', SHARE, [A, B, C], {'state': 'active', 'availability_zone': 'zone-b'},
     PROMOTE, ['r3'], None),
    ('active-zone-of-active', SHARE, [A, C], {'state': 'active', 'availability_zone': 'nova'},
     NOTHING, ['r1'], None),
    ('absent-by-id', SHARE, [A, B], {'state': 'absent', 'id': 'r2'}, DELETE, ['r2'], None),
    ('absent-gone', SHARE, [A], {'state': 'absent', 'id': 'r2'}, NOTHING, [], None),
    ('absent-leaving', SHARE, [A, DELETING], {'state': 'absent', 'id': 'r2'}, NOTHING, [], None),
    ('absent-all-secondaries', SHARE, [A, B, C], {'state': 'absent'}, DELETE, ['r2', 'r3'], None),
    ('absent-zone', SHARE, [A, B, C], {'state': 'absent', 'availability_zone': 'zone-b'},
     DELETE, ['r3'], None),
    ('absent-none', SHARE, [A], {'state': 'absent'}, NOTHING, [], None),
    ('absent-plain-share-is-nothing', PLAIN, [A], {'state': 'absent'}, NOTHING, [], None),
]


@pytest.mark.parametrize('share, replicas, task, action, targets, body',
                         [row[1:] for row in TABLE], ids=[row[0] for row in TABLE])
def test_plan(share, replicas, task, action, targets, body):
    result = plan(share, replicas, task)
    assert result.action == action
    assert [t['id'] for t in result.targets] == targets
    assert result.body == body
    assert result.changed == (action != NOTHING)


@pytest.mark.parametrize('share, replicas, task, action',
                         [row[1:5] for row in TABLE], ids=[row[0] for row in TABLE])
def test_replica_plan_shape(share, replicas, task, action):
    """The plan shape (resource.Plan): ``changed`` is ``action != NOTHING``;
    the views are lists (one per replica not on its way out)."""
    result = plan(share, replicas, task)
    assert isinstance(result, resource.Plan) and result.action == action
    assert result.changed is (result.action != resource.NOTHING)
    assert result.changed is (action in (CREATE, DELETE, PROMOTE, RESYNC))
    assert isinstance(result.before, list) and isinstance(result.after, list)
    assert (result.before != result.after) is result.changed


# (id, share, replicas, task, error class, words in the message)
REFUSALS = [
    ('no-replication-type', PLAIN, [A], {}, InvalidInput, ['share:', 'replication_type',
                                                           'default']),
    ('no-replication-type-promote', PLAIN, [A], {'state': 'active', 'id': 'r1'}, InvalidInput,
     ['replication_type']),
    ('in-group', dict(SHARE, share_group_id='g'), [A], {}, InvalidInput, ['share group']),
    ('never-the-active', SHARE, [A, B], {'state': 'absent', 'id': 'r1'}, InvalidInput,
     ['id:', 'active replica', 'never deleted']),
    ('promote-unknown', SHARE, [A, B], {'state': 'active', 'id': 'r9'}, InvalidInput, ['r9']),
    ('promote-no-zone-replica', SHARE, [A, B], {'state': 'active', 'availability_zone': 'zone-b'},
     InvalidInput, ['availability_zone', 'zone-b']),
    ('promote-needs-which', SHARE, [A, B], {'state': 'active'}, InvalidInput, ['id or']),
    ('promote-error', SHARE, [A, ERR], {'state': 'active', 'id': 'r2'}, ReplicaInError,
     ['replica_state error']),
    ('present-error-state', SHARE, [A, ERR], {}, ReplicaInError, ['replica_state error']),
    ('present-error-status', SHARE, [A, ERR_STATUS], {}, ReplicaInError, ['status error']),
    ('present-unknown-id', SHARE, [A], {'id': 'r9'}, InvalidInput, ['id:', 'r9']),
]


@pytest.mark.parametrize('share, replicas, task, error, words',
                         [row[1:] for row in REFUSALS], ids=[row[0] for row in REFUSALS])
def test_refusals(share, replicas, task, error, words):
    with pytest.raises(error) as err:
        plan(share, replicas, task)
    for word in words:
        assert word in str(err.value)


def test_diff_of_a_promotion_swaps_the_roles():
    result = plan(SHARE, [A, B], {'state': 'active', 'id': 'r2'})
    assert [(r['id'], r['replica_state']) for r in result.before] == [('r1', 'active'),
                                                                      ('r2', 'in_sync')]
    assert [(r['id'], r['replica_state']) for r in result.after] == [('r1', 'in_sync'),
                                                                     ('r2', 'active')]


# -- calls ------------------------------------------------------------------------

LIST = '/v2/share-replicas/detail?share_id=' + SHARE_ID


@pytest.mark.parametrize('version, experimental', [('2.55', True), ('2.56', False),
                                                   ('2.47', True), ('2.99', False)])
def test_experimental_header_below_2_56(version, experimental):
    client, session = make_client([
        expect('GET', LIST, ScriptedResponse(200, {'share_replicas': [A]}),
               experimental=experimental),
    ], max_version=version)
    assert ReplicaAPI(client).list_for_share(SHARE_ID) == [A]


def test_export_locations_from_2_47_only():
    client, session = make_client([], max_version='2.46')
    assert ReplicaAPI(client).export_locations('r2') == []
    client, session = make_client([
        expect('GET', '/v2/share-replicas/r2/export-locations', ScriptedResponse(
            200, {'export_locations': [{'path': '10.0.0.1:/x'}]}), experimental=True),
    ], max_version='2.47')
    assert ReplicaAPI(client).export_locations('r2') == [{'path': '10.0.0.1:/x'}]


def test_share_network_needs_2_72_before_any_write():
    client, session = make_client([], max_version='2.71')
    with pytest.raises(UnsupportedFeature) as err:
        ReplicaAPI(client).create({'share_id': SHARE_ID, 'share_network_id': 'n1'}, [])
    assert 'share_network for a replica needs Manila API 2.72' in str(err.value)
    assert session.writes() == []


def test_quiesce_wait_time_needs_2_75_and_is_sent_from_it():
    client, session = make_client([], max_version='2.74')
    with pytest.raises(UnsupportedFeature):
        ReplicaAPI(client).promote('r2', quiesce_wait_time=30)
    assert session.writes() == []
    client, session = make_client([
        expect('POST', '/v2/share-replicas/r2/action', ScriptedResponse(202),
               body={'promote': {'quiesce_wait_time': 30}}),
    ], max_version='2.75')
    ReplicaAPI(client).promote('r2', quiesce_wait_time=30)


def test_promote_below_2_56_is_experimental_with_a_null_body():
    client, session = make_client([
        expect('POST', '/v2/share-replicas/r2/action', ScriptedResponse(202),
               body={'promote': None}, experimental=True),
    ], max_version='2.55')
    ReplicaAPI(client).promote('r2')


MESSAGES = '/v2/messages?resource_id=r2&sort_key=created_at&sort_dir=desc&limit=3'


def test_wait_in_sync_ends_on_replica_state_error_with_manilas_message():
    client, session = make_client([
        ('GET', '/v2/share-replicas/r2', ScriptedResponse(200, {'share_replica': CREATING})),
        ('GET', '/v2/share-replicas/r2', ScriptedResponse(200, {'share_replica': ERR})),
        ('GET', MESSAGES, ScriptedResponse(200, {'messages': [
            {'user_message': 'create: Driver failed to create the replica.'}]})),
    ])
    with pytest.raises(WaitFailed) as err:
        ReplicaAPI(client).wait_in_sync(CREATING)
    assert 'replica_state error' in str(err.value)
    assert 'Driver failed to create the replica' in str(err.value)


def test_wait_promoted_waits_for_the_swap():
    swapping = [dict(A, status='replication_change'), dict(B, status='replication_change')]
    done = [dict(A, replica_state='in_sync'), dict(B, replica_state='active')]
    client, session = make_client([
        ('GET', LIST, ScriptedResponse(200, {'share_replicas': swapping})),
        ('GET', LIST, ScriptedResponse(200, {'share_replicas': done})),
    ])
    assert ReplicaAPI(client).wait_promoted(SHARE_ID, 'r2') == done


def test_a_lost_create_answer_finds_the_new_replica_and_makes_no_second():
    from keystoneauth1 import exceptions as ksa_exc
    client, session = make_client([
        ('POST', '/v2/share-replicas', ksa_exc.ConnectTimeout('timed out')),
        ('GET', LIST, ScriptedResponse(200, {'share_replicas': [A, CREATING]})),
    ])
    made = ReplicaAPI(client).create({'share_id': SHARE_ID}, ['r1'])
    assert made['id'] == 'r2'
    assert len(session.writes()) == 1
