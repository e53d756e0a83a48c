# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The share module's hooks (tasks/share.py: ShareTask) on scripted HTTP: the
restore from the recycle bin, the soft delete, a create from a snapshot, a
resize with and without wait, check mode's view, and the requests each
sends, in order."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Fail,
    run_scripted,
)

from ansible_collections.openkeel.manila.plugins.modules import share as share_module
from ansible_collections.openkeel.manila.plugins.module_utils.tasks.share import (
    check_snapshot_protocol,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    GONE,
    expect,
    ok,
    share_locks,
)

SHARE_ID = '11111111-2222-3333-4444-555555555555'
SNAP_ID = '33333333-2222-3333-4444-555555555555'
OTHER_SNAP_ID = '44444444-2222-3333-4444-555555555555'
TYPE = {'id': 'aaaaaaaa-0000-0000-0000-000000000000', 'name': 'gold'}
SHARE = {'id': SHARE_ID, 'name': 'data', 'size': 1, 'share_proto': 'NFS', 'status': 'available',
         'share_type': TYPE['id'], 'share_type_name': 'gold', 'share_network_id': None,
         'availability_zone': 'nova', 'snapshot_id': None, 'is_public': False,
         'metadata': {}, 'description': None, 'is_soft_deleted': False}
BINNED = dict(SHARE, is_soft_deleted=True)
SNAPSHOT = {'id': SNAP_ID, 'name': 'nightly', 'share_id': SHARE_ID, 'size': 4,
            'status': 'available'}

BY_NAME = '/v2/shares/detail?name=data'
IN_BIN = '/v2/shares/detail?name=data&is_soft_deleted=true'
ONE = '/v2/shares/' + SHARE_ID
ACTION = '/v2/shares/%s/action' % SHARE_ID
EXPORTS = ('GET', '/v2/shares/%s/export_locations' % SHARE_ID,
           ok({'export_locations': [{'path': '10.0.0.1:/a', 'preferred': True}]}))
SNAPSHOTS_OF_SHARE = ('/v2/snapshots/detail?share_id=%s&all_tenants=1&with_count=true'
                      '&limit=1000&offset=0' % SHARE_ID)
NO_SNAPSHOTS = ('GET', SNAPSHOTS_OF_SHARE, ok({'snapshots': [], 'count': 0}))


def run(monkeypatch, args, exchanges, check_mode=False):
    return run_scripted(monkeypatch, share_module, args, exchanges, check_mode=check_mode,
                        diff=True)


# -- the recycle bin ----------------------------------------------------------------------
def test_a_share_in_the_recycle_bin_is_restored_and_waited_for(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'restore': True}, [
        ('GET', BY_NAME, ok({'shares': []})),
        ('GET', IN_BIN, ok({'shares': [BINNED]})),
        expect('POST', ACTION, ok(status=202), body={'restore': None}),
        ('GET', ONE, ok({'share': SHARE})),
        EXPORTS,
    ])
    assert not isinstance(outcome, Fail), outcome.result
    result = outcome.result
    assert result['changed'] is True
    assert result['share'] == dict(SHARE, export_locations=[
        {'path': '10.0.0.1:/a', 'preferred': True}])
    assert session.requests() == ['GET /', 'GET ' + BY_NAME, 'GET ' + IN_BIN, 'POST ' + ACTION,
                                  'GET ' + ONE, 'GET ' + EXPORTS[1]]


def test_a_restore_without_wait_reads_the_share_once(monkeypatch):
    restoring = dict(SHARE, status='restoring')
    outcome, session = run(monkeypatch, {'name': 'data', 'restore': True, 'wait': False}, [
        ('GET', BY_NAME, ok({'shares': []})),
        ('GET', IN_BIN, ok({'shares': [BINNED]})),
        expect('POST', ACTION, ok(status=202), body={'restore': None}),
        ('GET', ONE, ok({'share': restoring})),
        EXPORTS,
    ])
    assert outcome.result['changed'] is True
    assert outcome.result['share']['status'] == 'restoring'
    assert outcome.result['share']['is_soft_deleted'] is False
    assert [c.method for c in session.writes()] == ['POST']


def test_check_mode_shows_the_share_restored_and_writes_nothing(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'restore': True}, [
        ('GET', BY_NAME, ok({'shares': []})),
        ('GET', IN_BIN, ok({'shares': [BINNED]})),
        EXPORTS,
    ], check_mode=True)
    assert outcome.result['changed'] is True
    assert outcome.result['share'] == dict(SHARE, export_locations=[
        {'path': '10.0.0.1:/a', 'preferred': True}])
    assert session.writes() == []


def test_a_share_in_the_recycle_bin_is_not_restored_without_restore(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data'}, [
        ('GET', BY_NAME, ok({'shares': []})),
        ('GET', IN_BIN, ok({'shares': [BINNED]})),
    ])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'] == (
        'Share data (%s) is in the recycle bin (soft-deleted). Set restore=true to bring it '
        'back, or delete it for good with state=absent and its id.' % SHARE_ID)
    assert session.writes() == []


def test_soft_delete_moves_the_share_to_the_recycle_bin_without_waiting(monkeypatch):
    busy = dict(SHARE, status='extending')
    outcome, session = run(monkeypatch, {'name': 'data', 'state': 'absent',
                                         'soft_delete': True}, [
        ('GET', BY_NAME, ok({'shares': [busy]})),
        share_locks(SHARE_ID),
        NO_SNAPSHOTS,
        expect('POST', ACTION, ok(status=202), body={'soft_delete': None}),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['changed'] is True
    assert outcome.result['share'] == {} and outcome.result['deleted_snapshots'] == []
    assert session.requests() == ['GET /', 'GET ' + BY_NAME, share_locks(SHARE_ID)[0] + ' '
                                  + share_locks(SHARE_ID)[1], 'GET ' + SNAPSHOTS_OF_SHARE,
                                  'POST ' + ACTION]


def test_a_busy_share_is_waited_for_before_its_deletion(monkeypatch):
    busy = dict(SHARE, status='extending')
    outcome, session = run(monkeypatch, {'name': 'data', 'state': 'absent'}, [
        ('GET', BY_NAME, ok({'shares': [busy]})),
        share_locks(SHARE_ID),
        NO_SNAPSHOTS,
        ('GET', ONE, ok({'share': SHARE})),
        ('DELETE', ONE, ok(status=202)),
        ('GET', ONE, GONE),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['changed'] is True and outcome.result['share'] == {}
    assert [c.method for c in session.calls[-3:]] == ['GET', 'DELETE', 'GET']


def test_without_wait_a_busy_share_deletion_goes_to_manila_at_once(monkeypatch):
    busy = dict(SHARE, status='extending')
    outcome, session = run(monkeypatch, {'name': 'data', 'state': 'absent', 'wait': False}, [
        ('GET', BY_NAME, ok({'shares': [busy]})),
        share_locks(SHARE_ID),
        NO_SNAPSHOTS,
        ('DELETE', ONE, ok({'badRequest': {'code': 400, 'message': (
            'Invalid share: Share status must be one of (available, error).')}}, status=400)),
    ])
    assert isinstance(outcome, Fail)
    assert 'Share status must be one of (available, error)' in outcome.result['msg']
    assert session.requests()[-1] == 'DELETE ' + ONE


def test_a_share_that_is_already_gone_is_no_change(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'state': 'absent'}, [
        ('GET', BY_NAME, ok({'shares': []})),
    ])
    assert outcome.result['changed'] is False
    assert outcome.result['share'] == {} and outcome.result['deleted_snapshots'] == []
    assert session.writes() == []


def test_check_mode_deletion_shows_no_share(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'state': 'absent'}, [
        ('GET', BY_NAME, ok({'shares': [SHARE]})),
        share_locks(SHARE_ID),
        NO_SNAPSHOTS,
    ], check_mode=True)
    assert outcome.result['changed'] is True
    assert outcome.result['share'] == {} and outcome.result['deleted_snapshots'] == []
    assert session.writes() == []


LOCK_ID = '99999999-0000-0000-0000-000000000001'
LOCK = {'id': LOCK_ID, 'resource_id': SHARE_ID, 'resource_type': 'share',
        'resource_action': 'delete', 'lock_reason': 'payroll',
        'user_id': 'aaaaaaaa0000000000000000000000a1',
        'project_id': 'bbbbbbbb0000000000000000000000b1', 'lock_context': 'user',
        'created_at': '2026-12-01T10:00:00.000000'}


def test_a_deleted_share_shows_nothing_after_even_with_its_lock_lifted(monkeypatch):
    outcome, _session = run(monkeypatch, {'name': 'data', 'state': 'absent',
                                          'deletion_lock': False}, [
        ('GET', BY_NAME, ok({'shares': [SHARE]})),
        share_locks(SHARE_ID, LOCK),
        NO_SNAPSHOTS,
        # the deletion first, while the lock holds: Manila names every lock (issue 36)
        ('DELETE', ONE, ok({'forbidden': {'code': 403, 'message': (
            'Resource lock/s [%s] prevent delete action.' % LOCK_ID)}}, status=403)),
        ('DELETE', '/v2/resource-locks/' + LOCK_ID, ok(status=204)),
        ('DELETE', ONE, ok(status=202)),
        ('GET', ONE, GONE),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['diff']['after'] == {}
    assert outcome.result['diff']['before']['name'] == 'data'


def test_without_wait_a_busy_share_is_refused_naming_wait(monkeypatch):
    busy = dict(SHARE, status='extending')
    outcome, session = run(monkeypatch, {'name': 'data', 'size': 2, 'wait': False}, [
        ('GET', BY_NAME, ok({'shares': [busy]})),
    ])
    assert isinstance(outcome, Fail)
    assert 'is busy (extending); run again later or set wait=true.' in outcome.result['msg']
    assert session.writes() == []


# -- resize ---------------------------------------------------------------------------------
def test_a_resize_waits_and_the_diff_shows_the_new_size(monkeypatch):
    grown = dict(SHARE, size=2)
    outcome, session = run(monkeypatch, {'name': 'data', 'size': 2}, [
        ('GET', BY_NAME, ok({'shares': [SHARE]})),
        expect('POST', ACTION, ok(status=202), body={'extend': {'new_size': 2}}),
        ('GET', ONE, ok({'share': dict(grown, status='extending')})),
        ('GET', ONE, ok({'share': grown})),
        EXPORTS,
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['share']['size'] == 2 and outcome.result['share']['status'] == 'available'
    assert outcome.result['diff']['before']['size'] == 1
    assert outcome.result['diff']['after']['size'] == 2
    assert session.bodies('POST') == [{'extend': {'new_size': 2}}]


def test_a_resize_read_once_at_its_old_size_is_waited_for_to_the_end(monkeypatch):
    # Manila 2023.2 can show the share available at its old size for one read
    # while the resize is written (seen in the share target): the wait goes on.
    grown = dict(SHARE, size=2)
    outcome, session = run(monkeypatch, {'name': 'data', 'size': 2}, [
        ('GET', BY_NAME, ok({'shares': [SHARE]})),
        expect('POST', ACTION, ok(status=202), body={'extend': {'new_size': 2}}),
        ('GET', ONE, ok({'share': dict(SHARE, status='extending')})),
        ('GET', ONE, ok({'share': SHARE})),
        ('GET', ONE, ok({'share': grown})),
        EXPORTS,
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['share']['size'] == 2
    assert outcome.result['diff']['after']['size'] == 2


def test_a_resize_manila_leaves_undone_fails_with_its_messages(monkeypatch):
    # A scheduler with no room puts the share back to available at its old
    # size, with a user message: two reads at the old size end the wait.
    outcome, session = run(monkeypatch, {'name': 'data', 'size': 2}, [
        ('GET', BY_NAME, ok({'shares': [SHARE]})),
        expect('POST', ACTION, ok(status=202), body={'extend': {'new_size': 2}}),
        ('GET', ONE, ok({'share': SHARE})),
        ('GET', ONE, ok({'share': SHARE})),
        ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % SHARE_ID,
         ok({'messages': [{'user_message': 'extend: no valid host was found.'}]})),
    ])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'] == (
        'Share data (%s) is available at 1 GiB, not 2 GiB: Manila did not resize it while '
        'waiting for a size of 2 GiB. Manila says: extend: no valid host was found. Manila '
        'had already accepted 1 write of this task, so the cloud was changed: POST '
        'shares/%s/action (extend).' % (SHARE_ID, SHARE_ID))
    assert outcome.result['changed'] is True
    assert outcome.result['share']['size'] == 1


def test_a_resize_without_wait_shows_the_share_as_manila_has_it(monkeypatch):
    extending = dict(SHARE, size=1, status='extending')
    outcome, session = run(monkeypatch, {'name': 'data', 'size': 2, 'wait': False}, [
        ('GET', BY_NAME, ok({'shares': [SHARE]})),
        expect('POST', ACTION, ok(status=202), body={'extend': {'new_size': 2}}),
        ('GET', ONE, ok({'share': extending})),
        EXPORTS,
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['share']['status'] == 'extending'
    # the diff shows the share as Manila answered: still extending, not yet grown
    assert (outcome.result['diff']['after']['size'],
            outcome.result['diff']['after']['status']) == (1, 'extending')


# -- create ---------------------------------------------------------------------------------
def test_a_share_made_from_a_snapshot_takes_its_size(monkeypatch):
    created = dict(SHARE, size=4, snapshot_id=SNAP_ID, mount_point_name='data')
    outcome, session = run(monkeypatch, {'name': 'data', 'share_proto': 'NFS', 'share_type': 'gold',
                                         'snapshot': 'nightly', 'mount_point_name': 'data'}, [
        ('GET', BY_NAME, ok({'shares': []})),
        ('GET', IN_BIN, ok({'shares': []})),
        ('GET', '/v2/types?is_public=all', ok({'share_types': [TYPE]})),
        ('GET', '/v2/snapshots/detail?name=nightly', ok({'snapshots': [SNAPSHOT]})),
        ('POST', '/v2/shares', ok({'share': dict(created, status='creating')})),
        ('GET', ONE, ok({'share': created})),
        ('GET', BY_NAME, ok({'shares': [created]})),
        EXPORTS,
    ])
    assert not isinstance(outcome, Fail), outcome.result
    body = session.bodies('POST')[0]['share']
    assert (body['size'], body['snapshot_id'], body['mount_point_name']) == (4, SNAP_ID, 'data')
    assert outcome.result['diff']['before'] == {}
    assert outcome.result['diff']['after']['size'] == 4
    assert outcome.result['diff']['after']['name'] == 'data'


def test_a_share_of_another_protocol_than_the_snapshots_is_refused_before_any_write(monkeypatch):
    # issue 37: Manila makes a CIFS share of an NFS share's snapshot
    for check_mode in (False, True):
        outcome, session = run(monkeypatch, {'name': 'data', 'share_proto': 'CIFS',
                                             'share_type': 'gold', 'snapshot': 'nightly'}, [
            ('GET', BY_NAME, ok({'shares': []})),
            ('GET', IN_BIN, ok({'shares': []})),
            ('GET', '/v2/types?is_public=all', ok({'share_types': [TYPE]})),
            ('GET', '/v2/snapshots/detail?name=nightly',
             ok({'snapshots': [dict(SNAPSHOT, share_proto='NFS')]})),
        ], check_mode=check_mode)
        assert isinstance(outcome, Fail)
        assert outcome.result['msg'] == (
            "share_proto is CIFS, but snapshot nightly is of a NFS share: a share created from "
            "a snapshot has the protocol of the snapshot's share (set share_proto: NFS).")
        assert session.writes() == []


def test_a_share_of_the_snapshots_protocol_in_another_case_is_made():
    check_snapshot_protocol(dict(SNAPSHOT, share_proto='NFS'), 'nfs')
    check_snapshot_protocol(SNAPSHOT, 'CIFS')  # a snapshot view without share_proto
    check_snapshot_protocol(None, 'CIFS')


def test_a_share_id_of_no_share_is_not_created(monkeypatch):
    outcome, session = run(monkeypatch, {'id': SHARE_ID, 'name': 'data', 'size': 1,
                                         'share_proto': 'NFS'}, [
        ('GET', ONE, GONE),
    ])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'] == (
        'No share with ID %s exists; a share cannot be created with a given ID (leave out '
        '"id" to create one).' % SHARE_ID)
    assert session.writes() == []


# -- update ---------------------------------------------------------------------------------
def test_the_snapshot_the_share_was_made_from_needs_no_lookup(monkeypatch):
    made = dict(SHARE, snapshot_id=SNAP_ID)
    outcome, session = run(monkeypatch, {'name': 'data', 'snapshot': SNAP_ID}, [
        ('GET', BY_NAME, ok({'shares': [made]})),
        EXPORTS,
    ])
    assert outcome.result['changed'] is False
    assert session.requests() == ['GET /', 'GET ' + BY_NAME, 'GET ' + EXPORTS[1]]


def test_another_snapshot_is_refused_not_ignored(monkeypatch):
    made = dict(SHARE, snapshot_id=SNAP_ID)
    outcome, session = run(monkeypatch, {'name': 'data', 'snapshot': OTHER_SNAP_ID}, [
        ('GET', BY_NAME, ok({'shares': [made]})),
        ('GET', '/v2/snapshots/' + OTHER_SNAP_ID, ok({'snapshot': dict(
            SNAPSHOT, id=OTHER_SNAP_ID)})),
    ])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'] == (
        "Share data (%s) cannot be changed in place: snapshot is %r, the task asks for "
        "%r. Delete and re-create it, or change the task." % (SHARE_ID, SNAP_ID, OTHER_SNAP_ID))
    assert session.writes() == []


def test_the_wait_for_the_snapshots_deleted_first_keeps_the_task_timeout(monkeypatch):
    deleting = dict(SNAPSHOT, status='deleting')
    outcome, session = run(monkeypatch, {'name': 'data', 'state': 'absent',
                                         'delete_snapshots': True, 'timeout': 5}, [
        ('GET', BY_NAME, ok({'shares': [SHARE]})),
        share_locks(SHARE_ID),
        ('GET', SNAPSHOTS_OF_SHARE, ok({'snapshots': [SNAPSHOT], 'count': 1})),
        # the share's deletion first, refused for its snapshot: no lock holds it (issue 36)
        ('DELETE', '/v2/shares/' + SHARE_ID, ok({'forbidden': {
            'code': 403, 'message': 'Share still has 1 dependent snapshots.'}}, status=403)),
        ('DELETE', '/v2/snapshots/' + SNAP_ID, ok(status=202)),
        expect('GET', '/v2/snapshots/' + SNAP_ID, ok({'snapshot': deleting}), takes=6),
        ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3'
         % SNAP_ID, ok({'messages': []})),
    ])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'].startswith(
        'Snapshot nightly (%s) is still deleting after 5 seconds (waiting for gone); raise '
        '"timeout" or check the service.' % SNAP_ID)
    # the refused deletion of the share (Manila took nothing), then the snapshot's
    assert [c.path for c in session.writes()] == ['/v2/shares/' + SHARE_ID, '/v2/snapshots/' + SNAP_ID]


def test_without_wait_a_namesake_another_task_made_at_rest_is_adopted(monkeypatch):
    mine = dict(SHARE, id='77777777-2222-3333-4444-555555555555', status='creating',
                created_at='2026-01-01T10:00:01.000000')
    older = dict(SHARE, created_at='2026-01-01T10:00:00.000000')
    outcome, session = run(monkeypatch, {'name': 'data', 'size': 1, 'share_proto': 'NFS',
                                         'share_type': 'gold', 'wait': False}, [
        ('GET', BY_NAME, ok({'shares': []})),
        ('GET', IN_BIN, ok({'shares': []})),
        ('GET', '/v2/types?is_public=all', ok({'share_types': [TYPE]})),
        ('POST', '/v2/shares', ok({'share': mine})),
        ('GET', BY_NAME, ok({'shares': [older, mine]})),
        ('GET', '/v2/shares/' + mine['id'], ok({'share': dict(mine, status='available')})),
        ('DELETE', '/v2/shares/' + mine['id'], ok(status=202)),
        EXPORTS,
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['changed'] is True
    assert outcome.result['share']['id'] == SHARE_ID
    assert [c.method for c in session.writes()] == ['POST', 'DELETE']
    assert any('Another task created share' in w for w in outcome.result['warnings'])


def test_a_create_without_size_or_snapshot_is_refused_before_any_write(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'share_proto': 'NFS',
                                         'share_type': 'gold'}, [
        ('GET', BY_NAME, ok({'shares': []})),
        ('GET', IN_BIN, ok({'shares': []})),
        ('GET', '/v2/types?is_public=all', ok({'share_types': [TYPE]})),
    ])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'] == 'size is required to create a share.'
    assert session.writes() == []


# -- a share network and the type's share servers (issue 37) ------------------------------
NET = {'id': '55555555-2222-3333-4444-555555555555', 'name': 'tenant-net'}


def typed(dhss):
    return dict(TYPE, extra_specs={'driver_handles_share_servers': dhss})


def test_a_share_network_with_a_type_without_share_servers_is_refused_before_any_write(monkeypatch):
    for check_mode in (False, True):
        outcome, session = run(monkeypatch, {'name': 'data', 'size': 1, 'share_proto': 'NFS',
                                             'share_type': 'gold', 'share_network': 'tenant-net'}, [
            ('GET', BY_NAME, ok({'shares': []})),
            ('GET', IN_BIN, ok({'shares': []})),
            ('GET', '/v2/types?is_public=all', ok({'share_types': [typed('False')]})),
            ('GET', '/v2/share-networks/detail?name=tenant-net', ok({'share_networks': [NET]})),
        ], check_mode=check_mode)
        assert isinstance(outcome, Fail)
        assert outcome.result['msg'].startswith(
            'share_network: share type gold does not use share servers '
            '(driver_handles_share_servers is False)')
        assert session.writes() == []


def test_a_type_with_share_servers_needs_a_share_network_the_default_type_too(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'data', 'size': 1, 'share_proto': 'NFS'}, [
        ('GET', BY_NAME, ok({'shares': []})),
        ('GET', IN_BIN, ok({'shares': []})),
        ('GET', '/v2/types/default', ok({'share_type': typed('True')})),
    ])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'].startswith('share_network is required: share type gold uses '
                                            'share servers')
    assert session.writes() == []


def test_a_type_that_says_nothing_of_share_servers_is_sent_as_asked(monkeypatch):
    """A type as a member reads it may show no extra specs: nothing is refused."""
    outcome, session = run(monkeypatch, {'name': 'data', 'size': 1, 'share_proto': 'NFS',
                                         'share_type': 'gold', 'wait': False}, [
        ('GET', BY_NAME, ok({'shares': []})),
        ('GET', IN_BIN, ok({'shares': []})),
        ('GET', '/v2/types?is_public=all', ok({'share_types': [TYPE]})),
        ('POST', '/v2/shares', ok({'share': dict(SHARE, status='creating')})),
        ('GET', BY_NAME, ok({'shares': [dict(SHARE, status='creating')]})),
        EXPORTS,
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert [c.method for c in session.writes()] == ['POST']
