# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The replica planner (a table: share, replicas, task -> action and targets) and the
replica calls on scripted HTTP: experimental header below 2.56, export locations from
2.47, share_network 2.72, quiesce_wait_time 2.75, waits that end on errors."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from keystoneauth1 import exceptions as ksa_exc

from ansible_collections.openkeel.manila.plugins.module_utils import kinds, resource as base_resource
from ansible_collections.openkeel.manila.plugins.module_utils import resource
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    InvalidInput,
    NotApplied,
    UnsupportedFeature,
    WaitFailed,
    WaitTimeout,
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
    GONE,
    ScriptedResponse,
    expect,
    make_client,
    ok,
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
# made before r2 and r3 although its ID sorts after theirs
OLDEST = rep('r4', 'in_sync', created='2026-11-30T10:00:0%d')
# Manila shows no created_at: it counts as the oldest
UNDATED = dict(rep('r5', 'in_sync'), created_at=None)


def as_admin(*replicas):
    """The replicas as an admin reads them: Manila adds ``host`` for admins only."""
    return [dict(r, host='host@%s#pool' % r['id']) for r in replicas]


# the oldest replica in zone-b is out of sync, a newer one there in sync
OUT_B = rep('r6', 'out_of_sync', zone='zone-b', created='2026-11-29T10:00:0%d')

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
    ('present-being-made-is-not-resynced', SHARE, [A, CREATING], {'resync': True}, NOTHING,
     ['r2'], None),
    ('present-the-oldest', SHARE, [A, B, OLDEST], {}, NOTHING, ['r4'], None),
    ('present-by-id', SHARE, [A, B, C], {'id': 'r3'}, NOTHING, ['r3'], None),
    ('active-by-id', SHARE, [A, B], {'state': 'active', 'id': 'r2'}, PROMOTE, ['r2'], None),
    ('active-already', SHARE, [A, B], {'state': 'active', 'id': 'r1'}, NOTHING, ['r1'], None),
    ('active-by-zone', SHARE, [A, B, C], {'state': 'active', 'availability_zone': 'zone-b'},
     PROMOTE, ['r3'], None),
    ('active-zone-of-active', SHARE, [A, C], {'state': 'active', 'availability_zone': 'nova'},
     NOTHING, ['r1'], None),
    ('active-by-zone-none-active', SHARE, [B, C],
     {'state': 'active', 'availability_zone': 'zone-b'}, PROMOTE, ['r3'], None),
    ('active-by-zone-oldest-secondary', SHARE, [C, B, OLDEST],
     {'state': 'active', 'availability_zone': 'nova'}, PROMOTE, ['r4'], None),
    # Manila (share/api.py promote_share_replica) lets admins promote a replica that is
    # out_of_sync or in replica_state error, as long as its status is available
    ('active-admin-error-state', SHARE, as_admin(A, ERR), {'state': 'active', 'id': 'r2'},
     PROMOTE, ['r2'], None),
    ('active-admin-out-of-sync', SHARE, as_admin(A, OUT), {'state': 'active', 'id': 'r2'},
     PROMOTE, ['r2'], None),
    # by zone, a replica Manila would promote for anyone comes before an older one
    ('active-by-zone-in-sync-first', SHARE, [A, OUT_B, C],
     {'state': 'active', 'availability_zone': 'zone-b'}, PROMOTE, ['r3'], None),
    ('active-by-zone-admin-in-sync-first', SHARE, as_admin(A, OUT_B, C),
     {'state': 'active', 'availability_zone': 'zone-b'}, PROMOTE, ['r3'], None),
    ('absent-by-id', SHARE, [A, B], {'state': 'absent', 'id': 'r2'}, DELETE, ['r2'], None),
    ('absent-gone', SHARE, [A], {'state': 'absent', 'id': 'r2'}, NOTHING, [], None),
    ('absent-leaving', SHARE, [A, DELETING], {'state': 'absent', 'id': 'r2'}, NOTHING, [], None),
    ('absent-all-secondaries', SHARE, [A, B, C], {'state': 'absent'}, DELETE, ['r2', 'r3'], None),
    ('absent-oldest-first', SHARE, [A, B, OLDEST, UNDATED], {'state': 'absent'}, DELETE,
     ['r5', 'r4', 'r2'], None),
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
    # a member's promotion of an out_of_sync replica: Manila answers 403 (admins only)
    ('promote-member-out-of-sync', SHARE, [A, OUT], {'state': 'active', 'id': 'r2'},
     InvalidInput, ['Replica r2 (out_of_sync, zone nova) is out_of_sync', 'only admins',
                    '403']),
    ('promote-member-out-of-sync-by-zone', SHARE, [A, OUT_B],
     {'state': 'active', 'availability_zone': 'zone-b'}, InvalidInput,
     ['Replica r6', 'out_of_sync', 'only admins']),
    # a replica whose status is not available: Manila refuses it for everyone
    ('promote-admin-error-status', SHARE, as_admin(A, ERR_STATUS),
     {'state': 'active', 'id': 'r2'}, ReplicaInError, ['status error']),
    ('present-error-state', SHARE, [A, ERR], {}, ReplicaInError, ['replica_state error']),
    ('present-error-status', SHARE, [A, ERR_STATUS], {}, ReplicaInError, ['status error']),
    ('present-unknown-id', SHARE, [A], {'id': 'r9'}, InvalidInput, ['id:', 'r9']),
    ('present-id-leaving', SHARE, [A, DELETING], {'id': 'r2'}, InvalidInput,
     ['id: share %s has no replica r2; leave out id to make one.' % SHARE_ID]),
    ('promote-leaving', SHARE, [A, DELETING], {'state': 'active', 'id': 'r2'}, InvalidInput,
     ['id: the share has no replica r2 to promote.']),
    ('in-the-recycle-bin', dict(SHARE, is_soft_deleted=True), [A, B], {}, InvalidInput,
     ['share: Share data (%s) is in the recycle bin; restore it first.' % SHARE_ID]),
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


def shown(replica, **changes):
    """A replica as diffs and results show it (every field of the view)."""
    result = {'id': replica['id'], 'share_id': SHARE_ID, 'status': replica['status'],
              'replica_state': replica['replica_state'],
              'availability_zone': replica['availability_zone'], 'host': None,
              'share_network_id': None}
    result.update(changes)
    return result


def test_diff_of_a_create_adds_the_replica_asked_for():
    result = plan(SHARE, [A, DELETING], {'availability_zone': 'zone-b', 'share_network': 'n1'})
    assert result.before == [shown(A)]
    assert result.after == [shown(A), {
        'id': '(new)', 'share_id': SHARE_ID, 'status': 'available', 'replica_state': 'in_sync',
        'availability_zone': 'zone-b', 'host': None, 'share_network_id': 'n1'}]


def test_diff_of_a_deletion_drops_only_the_deleted_replica():
    result = plan(SHARE, [A, B, C], {'state': 'absent', 'id': 'r2'})
    assert result.before == [shown(A), shown(B), shown(C)]
    assert result.after == [shown(A), shown(C)]


def test_diff_of_a_resync_shows_the_replica_in_sync():
    result = plan(SHARE, [A, OUT, C], {'resync': True})
    assert result.before == [shown(A), shown(OUT), shown(C)]
    assert result.after == [shown(A), shown(OUT, replica_state='in_sync'), shown(C)]


def test_a_replica_in_error_names_itself_and_the_way_out():
    """The module adds Manila's user messages about ``err.replica``."""
    with pytest.raises(ReplicaInError) as err:
        plan(SHARE, [A, ERR], {})
    assert err.value.replica is ERR
    assert str(err.value) == ('Replica r2 (error, zone nova) is in status available, '
                              'replica_state error. Delete it (state=absent, id=r2) and run '
                              'again, or ask an admin to repair it.')


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
    with pytest.raises(UnsupportedFeature) as err:
        ReplicaAPI(client).promote('r2', quiesce_wait_time=30)
    assert str(err.value) == 'quiesce_wait_time needs Manila API 2.75; this cloud offers 2.74.'
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
    assert str(err.value) == ('Replica r2 went to replica_state error while waiting for it to '
                              'be in_sync. Manila says: create: Driver failed to create the '
                              'replica.')


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


def test_answers_without_their_list_are_empty_lists():
    client, session = make_client([
        ('GET', LIST, ok()),
        ('GET', '/v2/share-replicas/r2/export-locations', ok()),
        ('GET', '/v2/share-replicas/r3/export-locations', GONE),
    ])
    api = ReplicaAPI(client)
    assert api.list_for_share(SHARE_ID) == []
    assert api.export_locations('r2') == []
    assert api.export_locations('r3') == []


def no_messages(replica_id='r2'):
    return ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3'
            % replica_id, ok({'messages': []}))


def manila_says(text, replica_id='r2'):
    return ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3'
            % replica_id, ok({'messages': [{'user_message': text}]}))


def replica_answer(replica, takes=0):
    return expect('GET', '/v2/share-replicas/%s' % replica['id'],
                  ok({'share_replica': replica}), takes=takes)


def test_wait_in_sync_ends_on_status_error_with_manilas_message():
    client, session = make_client([
        replica_answer(ERR_STATUS),
        manila_says('create: No storage could be allocated for this share request.'),
    ])
    with pytest.raises(WaitFailed) as err:
        ReplicaAPI(client).wait_in_sync(CREATING)
    assert str(err.value) == ('Replica r2 went to status error while waiting for it to be '
                              'in_sync. Manila says: create: No storage could be allocated for '
                              'this share request.')


def test_wait_in_sync_waits_600_seconds_by_default_and_says_where_it_stands():
    client, session = make_client([
        replica_answer(CREATING, takes=600),
        no_messages(),
    ])
    with pytest.raises(WaitTimeout) as err:
        ReplicaAPI(client).wait_in_sync(CREATING)
    assert str(err.value) == ('Replica r2 is still creating/out_of_sync after 600 seconds '
                              '(waiting for it to be in_sync); raise "timeout" or check the '
                              'service.')


def listing(*items, **checks):
    return expect('GET', LIST, ok({'share_replicas': list(items)}), **checks)


def test_wait_promoted_waits_until_the_old_active_rests():
    """The new active replica is not enough: the old one must leave
    replication_change first (Manila refuses writes to a busy replica)."""
    settling = [dict(A, status='replication_change', replica_state='in_sync'),
                dict(B, replica_state='active')]
    done = [dict(A, replica_state='in_sync'), dict(B, replica_state='active')]
    client, session = make_client([listing(*settling), listing(*done)])
    assert ReplicaAPI(client).wait_promoted(SHARE_ID, 'r2') == done
    assert session.requests() == ['GET /', 'GET ' + LIST, 'GET ' + LIST]


def test_wait_promoted_goes_on_while_the_listing_does_not_show_the_replica():
    done = [dict(A, replica_state='in_sync'), dict(B, replica_state='active')]
    client, session = make_client([listing(A), listing(*done)])
    assert ReplicaAPI(client).wait_promoted(SHARE_ID, 'r2') == done


@pytest.mark.parametrize('broken, words', [
    (dict(B, status='error'), 'Replica r2 (in_sync, zone nova) in status error/in_sync'),
    (dict(B, replica_state='error'), 'Replica r2 (error, zone nova) in status available/error'),
])
def test_wait_promoted_ends_when_the_promoted_replica_breaks(broken, words):
    """Manila's manager puts every replica in status error when the driver fails the
    promotion: the promoted one among them is the sign."""
    client, session = make_client([
        listing(dict(A, status='error'), broken),
        manila_says('promote: The replica could not be promoted.'),
    ])
    with pytest.raises(WaitFailed) as err:
        ReplicaAPI(client).wait_promoted(SHARE_ID, 'r2')
    assert str(err.value) == ('Share %s has %s while waiting for replica r2 to be active. '
                              'Manila says: promote: The replica could not be promoted.'
                              % (SHARE_ID, words))


def test_wait_promoted_ends_well_beside_another_replica_in_error():
    """A promotion that succeeded is a success although a third replica is in error
    (issue 36): only the promoted replica decides; the other is waited past."""
    broken = rep('r3', 'error', zone='zone-b', status='error')
    done = [dict(A, replica_state='in_sync'), dict(B, replica_state='active'), broken]
    client, session = make_client([
        listing(A, dict(B, status='replication_change'), broken), listing(*done)])
    assert ReplicaAPI(client).wait_promoted(SHARE_ID, 'r2') == done
    assert session.requests() == ['GET /', 'GET ' + LIST, 'GET ' + LIST]


def test_wait_promoted_goes_on_while_a_replica_in_error_is_being_promoted():
    """An admin promotes a replica in replica_state error (found on the real cloud): it
    keeps that state while its status is replication_change; that is no failure."""
    promoting = dict(ERR, status='replication_change')
    done = [dict(A, replica_state='in_sync'), dict(B, replica_state='active')]
    client, session = make_client([listing(A, promoting), listing(*done)])
    assert ReplicaAPI(client).wait_promoted(SHARE_ID, 'r2') == done
    assert session.requests() == ['GET /', 'GET ' + LIST, 'GET ' + LIST]


def test_wait_promoted_times_out_naming_every_replica():
    client, session = make_client([
        listing(A, dict(B, status='replication_change'), takes=600),
        no_messages(),
    ])
    with pytest.raises(WaitTimeout) as err:
        ReplicaAPI(client).wait_promoted(SHARE_ID, 'r2')
    assert str(err.value) == ('Share %s is still r1 available/active, r2 replication_change/'
                              'in_sync after 600 seconds (waiting for replica r2 to be active); '
                              'raise "timeout" or check the service.' % SHARE_ID)


def test_wait_gone_ends_when_manila_no_longer_shows_the_replica():
    client, session = make_client([
        replica_answer(DELETING),
        ('GET', '/v2/share-replicas/r2', GONE),
    ])
    assert ReplicaAPI(client).wait_gone(B) is None
    assert session.requests()[1:] == ['GET /v2/share-replicas/r2'] * 2


def test_wait_gone_ends_on_error_deleting_with_manilas_message():
    client, session = make_client([
        replica_answer(dict(B, status='error_deleting')),
        manila_says('delete: The replica could not be deleted.'),
    ])
    with pytest.raises(WaitFailed) as err:
        ReplicaAPI(client).wait_gone(B)
    assert str(err.value) == ('Replica r2 went to error_deleting while waiting for it to be '
                              'gone. Manila says: delete: The replica could not be deleted.')


def test_wait_gone_times_out_with_the_status():
    client, session = make_client([
        replica_answer(DELETING, takes=600),
        no_messages(),
    ])
    with pytest.raises(WaitTimeout) as err:
        ReplicaAPI(client).wait_gone(B)
    assert str(err.value) == ('Replica r2 is still deleting after 600 seconds (waiting for it '
                              'to be gone); raise "timeout" or check the service.')


def test_wait_if_busy_leaves_a_resting_replica_without_a_request():
    client, session = make_client([])
    assert ReplicaAPI(client).wait_if_busy(OUT) is OUT
    assert session.requests() == ['GET /']


def test_wait_if_busy_waits_until_the_replica_rests():
    client, session = make_client([
        replica_answer(CREATING),
        replica_answer(OUT),
    ])
    assert ReplicaAPI(client).wait_if_busy(CREATING) == OUT


def test_wait_if_busy_ends_with_none_once_the_replica_is_gone():
    client, session = make_client([
        replica_answer(DELETING),
        ('GET', '/v2/share-replicas/r2', GONE),
    ])
    assert ReplicaAPI(client).wait_if_busy(DELETING) is None


def test_wait_if_busy_times_out_naming_what_it_waited_for():
    client, session = make_client([
        replica_answer(CREATING, takes=600),
        no_messages(),
    ])
    with pytest.raises(WaitTimeout) as err:
        ReplicaAPI(client).wait_if_busy(CREATING)
    assert str(err.value) == ('Replica r2 is still creating after 600 seconds (waiting for it '
                              'to finish creating); raise "timeout" or check the service.')


LOST = ksa_exc.ConnectFailure('Connection aborted.')
REPLICA = '/v2/share-replicas/r2'


@pytest.mark.parametrize('answer', [ScriptedResponse(202), GONE])
def test_delete_below_2_56_is_experimental_and_a_404_is_done(answer):
    client, session = make_client([
        expect('DELETE', REPLICA, answer, experimental=True),
    ], max_version='2.55')
    ReplicaAPI(client).delete('r2')
    assert client.warnings == []


@pytest.mark.parametrize('seen', [('GET', REPLICA, GONE), replica_answer(DELETING),
                                  replica_answer(dict(B, status='error_deleting'))])
def test_a_lost_delete_answer_is_done_when_manila_shows_the_replica_leaving(seen):
    client, session = make_client([('DELETE', REPLICA, LOST), seen])
    ReplicaAPI(client).delete('r2')
    assert len(session.writes()) == 1
    assert client.warnings[0].startswith('No answer came to the deletion of replica r2 (')


def test_a_lost_delete_answer_with_the_replica_still_there_was_not_applied():
    client, session = make_client([('DELETE', REPLICA, LOST)] + [replica_answer(B)] * 3)
    with pytest.raises(NotApplied) as err:
        ReplicaAPI(client).delete('r2')
    assert str(err.value).startswith('No answer came to the deletion of replica r2 (')
    assert len(session.writes()) == 1


def test_resync_below_2_56_is_an_experimental_action():
    client, session = make_client([
        expect('POST', REPLICA + '/action', ScriptedResponse(202), body={'resync': None},
               experimental=True),
    ], max_version='2.55')
    ReplicaAPI(client).resync('r2')


def test_a_lost_resync_answer_is_not_taken_for_done():
    """Manila shows no trace of a resync: a lost answer is never taken as done
    (it is not sent again either: the task can run again)."""
    client, session = make_client([('POST', REPLICA + '/action', LOST)])
    with pytest.raises(NotApplied) as err:
        ReplicaAPI(client).resync('r2')
    assert str(err.value).startswith('No answer came to the resync of replica r2 (')
    assert session.requests() == ['GET /', 'POST /v2/share-replicas/r2/action']


@pytest.mark.parametrize('seen', [dict(B, replica_state='active'),
                                  dict(B, status='replication_change')])
def test_a_lost_promote_answer_is_done_when_manila_shows_the_promotion(seen):
    client, session = make_client([
        expect('POST', REPLICA + '/action', LOST, body={'promote': None}),
        replica_answer(seen),
    ])
    ReplicaAPI(client).promote('r2')
    assert len(session.writes()) == 1
    assert client.warnings[0].startswith('No answer came to the promotion of replica r2 (')


def test_a_lost_promote_answer_with_no_sign_of_it_was_not_applied():
    client, session = make_client([
        ('POST', REPLICA + '/action', LOST),
        replica_answer(B),
        ('GET', REPLICA, GONE),
        replica_answer(OUT),
    ])
    with pytest.raises(NotApplied):
        ReplicaAPI(client).promote('r2')
    assert len(session.writes()) == 1


def test_a_lost_create_answer_with_no_new_replica_was_not_applied():
    client, session = make_client([
        ('POST', '/v2/share-replicas', LOST),
    ] + [('GET', LIST, ScriptedResponse(200, {'share_replicas': [A, DELETING]}))] * 3)
    with pytest.raises(NotApplied) as err:
        ReplicaAPI(client).create({'share_id': SHARE_ID}, ['r1'])
    assert str(err.value).startswith('No answer came to the create of a replica of share %s ('
                                     % SHARE_ID)
    assert len(session.writes()) == 1


# -- on the base (issue 35) ------------------------------------------------------

def test_the_replica_calls_are_the_bases_with_the_replica_row():
    assert issubclass(ReplicaAPI, base_resource.ResourceAPI) and ReplicaAPI.kind == 'share_replica'
    assert ReplicaAPI.states is kinds.KINDS['share_replica'].statuses
    assert ReplicaAPI.wait_if_busy is base_resource.ResourceAPI.wait_if_busy
    assert ReplicaAPI.label({'id': 'r1', 'replica_state': 'active', 'availability_zone': 'z'}) == (
        'Replica r1 (active, zone z)')


def test_below_2_56_a_replica_read_is_experimental_and_a_404_is_none():
    client, session = make_client([
        expect('GET', '/v2/share-replicas/r9', GONE, experimental=True),
        expect('GET', '/v2/share-replicas/detail?share_id=s1', ok({'share_replicas': []}),
               experimental=True),
    ], max_version='2.55')
    api = ReplicaAPI(client)
    assert api.get('r9') is None
    assert api.list_for_share('s1') == [] and len(session.calls) == 3
