# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Recovery of the snapshot, share network, security service and share type
writes on scripted HTTP: lost answers, 5xx after the resource was made, races
for one name.  Each test fails when the write goes out without write_once (the
lost answer or the 5xx would then end the call) or when the create is not
followed by the namesake check."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from keystoneauth1 import exceptions as ksa_exc

from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    AmbiguousName,
    Conflict,
    ManilaError,
    NotApplied,
)
from ansible_collections.openkeel.manila.plugins.module_utils.security_services import (
    SecurityServiceAPI,
)
from ansible_collections.openkeel.manila.plugins.module_utils.share_networks import (
    ShareNetworkAPI,
)
from ansible_collections.openkeel.manila.plugins.module_utils.share_types import ShareTypeAPI
from ansible_collections.openkeel.manila.plugins.module_utils.snapshots import SnapshotAPI
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    FakeClock,
    ScriptedResponse,
    make_client,
)

SHARE_ID = '11111111-2222-3333-4444-555555555555'
MINE = 'aaaaaaaa-0000-0000-0000-000000000001'
OTHER = 'aaaaaaaa-0000-0000-0000-000000000002'
LOST = ksa_exc.ConnectFailure("Unable to establish connection to http://m/v2/x: "
                              "('Connection aborted.', RemoteDisconnected('Remote end closed'))")
GONE = ScriptedResponse(404, {'itemNotFound': {'code': 404, 'message': 'not found'}})
SNAPSHOTS = '/v2/snapshots/detail?name=tuesday&share_id=' + SHARE_ID
NETWORKS = '/v2/share-networks/detail?name=net'
SERVICES = '/v2/security-services/detail?name=ldap'
TYPES = '/v2/types?is_public=all'


def ok(body=None):
    return ScriptedResponse(200, body if body is not None else {})


def error(status, message='injected'):
    return ScriptedResponse(status, {'computeFault': {'code': status, 'message': message}})


def snapshot(snap_id=MINE, status='creating', created='2026-01-01T10:00:00.000000'):
    return {'id': snap_id, 'name': 'tuesday', 'share_id': SHARE_ID, 'status': status,
            'size': 1, 'created_at': created, 'description': None}


def snapshots(*items):
    return ok({'snapshots': list(items)})


SNAP_BODY = {'share_id': SHARE_ID, 'name': 'tuesday'}


# -- snapshots -----------------------------------------------------------------------------

def test_a_lost_snapshot_create_is_found_by_name_and_never_sent_again():
    client, session = make_client([
        ('POST', '/v2/snapshots', LOST),
        ('GET', SNAPSHOTS, snapshots(snapshot())),
    ])
    made = SnapshotAPI(client).create(SNAP_BODY)
    assert made['id'] == MINE
    assert session.requests().count('POST /v2/snapshots') == 1
    assert "No answer came to the create of share snapshot 'tuesday'" in client.warnings[0]


def test_a_lost_snapshot_create_that_never_shows_up_is_not_applied():
    clock = FakeClock()
    client, session = make_client([
        ('POST', '/v2/snapshots', LOST),
        ('GET', SNAPSHOTS, snapshots()),
        # one on its way out is not the snapshot this create made
        ('GET', SNAPSHOTS, snapshots(snapshot(OTHER, 'deleting'))),
        ('GET', SNAPSHOTS, snapshots()),
    ], clock=clock)
    with pytest.raises(NotApplied) as err:
        SnapshotAPI(client).create(SNAP_BODY)
    assert 'Run the task again' in str(err.value)
    assert len(session.writes()) == 1 and clock.sleeps == [1.0, 2.0]


def test_a_snapshot_create_answered_500_after_it_was_made_is_not_sent_again():
    client, session = make_client([
        ('POST', '/v2/snapshots', error(500)),
        ('GET', SNAPSHOTS, snapshots(snapshot())),
    ])
    assert SnapshotAPI(client).create(SNAP_BODY)['id'] == MINE
    assert len(session.writes()) == 1
    assert 'answered with HTTP 500' in client.warnings[0]


def test_the_newer_snapshot_namesake_is_deleted_by_its_creator_once_it_rests():
    older = snapshot(OTHER, 'available', '2026-01-01T10:00:00.000000')
    mine = snapshot(MINE, 'creating', '2026-01-01T10:00:00.400000')
    client, session = make_client([
        ('GET', SNAPSHOTS, snapshots(older, mine)),
        # Manila deletes no snapshot while it is being created: wait first
        ('GET', '/v2/snapshots/' + MINE, ok({'snapshot': mine})),
        ('GET', '/v2/snapshots/' + MINE, ok({'snapshot': dict(mine, status='available')})),
        ('DELETE', '/v2/snapshots/' + MINE, ScriptedResponse(202)),
        ('GET', '/v2/snapshots/' + MINE, GONE),
    ])
    keeper, adopted = SnapshotAPI(client).settle_namesakes(mine)
    assert keeper['id'] == OTHER and adopted is True
    assert [c.method + ' ' + c.path for c in session.writes()] == ['DELETE /v2/snapshots/' + MINE]
    assert "Another task created share snapshot 'tuesday' (%s)" % OTHER in client.warnings[0]


def test_the_oldest_snapshot_namesake_stays_and_says_so():
    mine = snapshot(MINE, 'available', '2026-01-01T10:00:00.000000')
    newer = snapshot(OTHER, 'creating', '2026-01-01T10:00:00.100000')
    client, session = make_client([('GET', SNAPSHOTS, snapshots(mine, newer))])
    assert SnapshotAPI(client).settle_namesakes(mine) == (mine, False)
    assert session.writes() == [] and OTHER in client.warnings[0]


def test_a_lost_snapshot_delete_seen_deleting_is_done():
    client, session = make_client([
        ('DELETE', '/v2/snapshots/' + MINE, LOST),
        ('GET', '/v2/snapshots/' + MINE, ok({'snapshot': snapshot(status='deleting')})),
    ])
    SnapshotAPI(client).delete(MINE)
    assert len(session.writes()) == 1


def test_a_lost_snapshot_rename_is_seen_by_reading_the_snapshot():
    client, session = make_client([
        ('PUT', '/v2/snapshots/' + MINE, LOST),
        ('GET', '/v2/snapshots/' + MINE, ok({'snapshot': dict(snapshot(), name='wednesday')})),
    ])
    assert SnapshotAPI(client).update(MINE, {'display_name': 'wednesday'})['name'] == 'wednesday'
    assert len(session.writes()) == 1


def test_a_snapshot_metadata_update_answered_503_and_not_applied_is_sent_once_more():
    client, session = make_client([
        ('POST', '/v2/snapshots/%s/metadata' % MINE, error(503)),
        ('GET', '/v2/snapshots/' + MINE, ok({'snapshot': dict(snapshot(), metadata={})})),
        ('POST', '/v2/snapshots/%s/metadata' % MINE, ok({'metadata': {'a': '1'}})),
    ])
    SnapshotAPI(client).set_metadata(MINE, {'a': '1'})
    assert len(session.writes()) == 2
    assert 'refused once with HTTP 503' in client.warnings[0]


# -- share networks ------------------------------------------------------------------------

def network(net_id=MINE, created='2026-01-01T10:00:00.000000'):
    return {'id': net_id, 'name': 'net', 'description': None, 'status': 'active',
            'created_at': created, 'share_network_subnets': [
                {'id': 'sub-' + net_id, 'availability_zone': None, 'neutron_net_id': None,
                 'neutron_subnet_id': None}]}


def networks(*items):
    return ok({'share_networks': list(items)})


def test_a_share_network_create_answered_500_after_it_was_made_is_not_sent_again():
    client, session = make_client([
        ('POST', '/v2/share-networks', error(500)),
        ('GET', NETWORKS, networks(network())),
    ])
    assert ShareNetworkAPI(client).create({'name': 'net'})['id'] == MINE
    assert session.requests().count('POST /v2/share-networks') == 1
    assert "The create of share network 'net' was answered with HTTP 500" in client.warnings[0]


def test_a_lost_share_network_create_is_found_by_name():
    client, session = make_client([
        ('POST', '/v2/share-networks', LOST),
        ('GET', NETWORKS, networks(network())),
    ])
    assert ShareNetworkAPI(client).create({'name': 'net'})['id'] == MINE
    assert len(session.writes()) == 1


def test_the_newer_share_network_namesake_is_deleted_at_once():
    older, mine = network(OTHER), network(MINE, '2026-01-01T10:00:01.000000')
    client, session = make_client([
        ('GET', NETWORKS, networks(older, mine)),
        ('DELETE', '/v2/share-networks/' + MINE, ScriptedResponse(202)),
    ])
    keeper, adopted = ShareNetworkAPI(client).settle_namesakes(mine)
    assert keeper['id'] == OTHER and adopted is True
    assert [c.method + ' ' + c.path for c in session.writes()] == [
        'DELETE /v2/share-networks/' + MINE]


def test_a_lost_security_service_attachment_is_seen_attached():
    client, session = make_client([
        ('POST', '/v2/share-networks/%s/action' % MINE, LOST),
        ('GET', '/v2/security-services?share_network_id=' + MINE,
         ok({'security_services': [{'id': OTHER, 'name': 'ldap', 'type': 'ldap'}]})),
    ])
    ShareNetworkAPI(client).add_service(MINE, OTHER)
    assert len(session.writes()) == 1


def test_a_lost_subnet_create_is_found_by_its_zone():
    subnet = {'availability_zone': 'nova', 'neutron_net_id': 'n', 'neutron_subnet_id': 's'}
    made = dict(subnet, id='sub-nova')
    client, session = make_client([
        ('POST', '/v2/share-networks/%s/subnets' % MINE, LOST),
        ('GET', '/v2/share-networks/' + MINE, ok({'share_network': dict(
            network(), share_network_subnets=network()['share_network_subnets'] + [made])})),
    ])
    assert ShareNetworkAPI(client).create_subnet(MINE, subnet)['id'] == 'sub-nova'
    assert len(session.writes()) == 1


def test_a_lost_feasibility_check_answer_is_asked_again():
    clock = FakeClock()
    path = '/v2/share-networks/%s/action' % MINE
    client, session = make_client([
        ('POST', path, LOST),
        ('POST', path, ok({'compatible': True})),
    ], clock=clock)
    ShareNetworkAPI(client).check_service_change(network(), OTHER)
    # the reset went with both: no answer came to the first
    assert [b['add_security_service_check']['reset_operation']
            for b in session.bodies('POST')] == [True, True]


# -- security services ---------------------------------------------------------------------

def service(service_id=MINE, created='2026-01-01T10:00:00.000000'):
    return {'id': service_id, 'name': 'ldap', 'type': 'ldap', 'status': 'new',
            'created_at': created, 'server': 'ldap.example.org'}


def test_a_lost_security_service_create_is_found_by_name():
    client, session = make_client([
        ('POST', '/v2/security-services', LOST),
        ('GET', SERVICES, ok({'security_services': [service()]})),
    ])
    assert SecurityServiceAPI(client).create({'name': 'ldap', 'type': 'ldap'})['id'] == MINE
    assert len(session.writes()) == 1


def test_the_newer_security_service_namesake_is_deleted_at_once():
    older, mine = service(OTHER), service(MINE, '2026-01-01T10:00:01.000000')
    client, session = make_client([
        ('GET', SERVICES, ok({'security_services': [mine, older]})),
        ('DELETE', '/v2/security-services/' + MINE, ScriptedResponse(202)),
    ])
    keeper, adopted = SecurityServiceAPI(client).settle_namesakes(mine)
    assert keeper['id'] == OTHER and adopted is True


def test_a_lost_security_service_update_not_seen_is_not_applied():
    clock = FakeClock()
    unchanged = ok({'security_service': service()})
    client, session = make_client([
        ('PUT', '/v2/security-services/' + MINE, LOST),
        ('GET', '/v2/security-services/' + MINE, unchanged),
        ('GET', '/v2/security-services/' + MINE, unchanged),
        ('GET', '/v2/security-services/' + MINE, unchanged),
    ], clock=clock)
    with pytest.raises(NotApplied):
        SecurityServiceAPI(client).update(MINE, {'server': 'other.example.org'})
    assert len(session.writes()) == 1


# -- share types ---------------------------------------------------------------------------

def share_type(type_id=MINE):
    return {'id': type_id, 'name': 'gold', 'extra_specs': {'driver_handles_share_servers': 'False'},
            'share_type_access:is_public': True, 'description': None}


TYPE_BODY = {'name': 'gold', 'extra_specs': {'driver_handles_share_servers': False}}


def test_a_lost_share_type_create_is_found_by_name():
    client, session = make_client([
        ('POST', '/v2/types', LOST),
        ('GET', TYPES, ok({'share_types': [share_type()]})),
    ])
    made, adopted = ShareTypeAPI(client).create(TYPE_BODY)
    assert made['id'] == MINE and adopted is False
    assert len(session.writes()) == 1


def test_manila_keeps_one_share_type_per_name_so_a_racing_create_converges_on_it():
    # Manila has a unique key on share type names: the second of two racing
    # creates is refused with 409, there are never namesakes to settle.
    client, session = make_client([
        ('POST', '/v2/types', ScriptedResponse(409, {'conflictingRequest': {
            'code': 409, 'message': 'Share Type gold already exists.'}})),
        ('GET', TYPES, ok({'share_types': [share_type(OTHER)]})),
    ])
    made, adopted = ShareTypeAPI(client).create(TYPE_BODY)
    assert made['id'] == OTHER and adopted is True
    assert len(session.writes()) == 1
    assert 'Manila keeps one type per name' in client.warnings[0]


def test_a_409_for_a_type_that_cannot_be_found_is_raised_as_it_is():
    client, session = make_client([
        ('POST', '/v2/types', ScriptedResponse(409, {'conflictingRequest': {
            'code': 409, 'message': 'Share Type gold already exists.'}})),
        ('GET', TYPES, ok({'share_types': []})),
    ])
    with pytest.raises(Conflict):
        ShareTypeAPI(client).create(TYPE_BODY)


def test_a_lost_project_grant_is_seen_in_the_access_list():
    client, session = make_client([
        ('POST', '/v2/types/%s/action' % MINE, LOST),
        ('GET', '/v2/types/%s/share_type_access' % MINE,
         ok({'share_type_access': [{'project_id': 'p1', 'share_type_id': MINE}]})),
    ])
    ShareTypeAPI(client).grant(MINE, 'p1')
    assert len(session.writes()) == 1


def test_a_type_delete_answered_503_and_gone_is_not_sent_again():
    client, session = make_client([
        ('DELETE', '/v2/types/' + MINE, error(503)),
        ('GET', '/v2/types/' + MINE, GONE),
    ])
    ShareTypeAPI(client).delete(MINE)
    assert len(session.writes()) == 1


def test_a_refused_type_write_that_is_not_a_5xx_is_raised_as_it_is():
    client, session = make_client([
        ('POST', '/v2/types/%s/extra_specs' % MINE, error(400, 'bad spec')),
    ])
    with pytest.raises(ManilaError) as err:
        ShareTypeAPI(client).set_specs(MINE, {'a': 'b'})
    assert err.value.status == 400 and not isinstance(err.value, NotApplied)


def test_a_snapshot_lookup_during_a_race_waits_for_it_to_settle():
    first = snapshot(OTHER, 'available', '2026-01-01T10:00:00.000000')
    racer = snapshot(MINE, 'creating', '2026-01-01T10:00:00.300000')
    client, session = make_client([
        ('GET', SNAPSHOTS, snapshots(first, racer)),
        ('GET', SNAPSHOTS, snapshots(first, dict(racer, status='deleting'))),
        ('GET', SNAPSHOTS, snapshots(first)),
    ])
    assert SnapshotAPI(client).find_by_name('tuesday', SHARE_ID)['id'] == OTHER


def test_two_snapshots_of_one_name_at_rest_are_ambiguous_at_once():
    client, session = make_client([('GET', SNAPSHOTS, snapshots(
        snapshot(OTHER, 'available'), snapshot(MINE, 'available')))])
    with pytest.raises(AmbiguousName):
        SnapshotAPI(client).find_by_name('tuesday', SHARE_ID)
