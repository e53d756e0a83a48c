# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""instances.py: a share's or a snapshot's instances in one request, oldest
first; every instance filtered by export location (2.35+); export locations
one request per instance, preferred first; names looked for in every
project; a member's 403 explained."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import instances
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    Forbidden,
    InvalidInput,
    ManilaError,
    UnsupportedFeature,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    expect,
    make_client,
    ok,
)

OLD = {'id': 'i2', 'share_id': 's', 'created_at': '2026-12-01T00:00:00', 'host': 'h@alpha#p'}
NEW = {'id': 'i1', 'share_id': 's', 'created_at': '2026-12-02T00:00:00', 'host': 'h@beta#p'}
SHARE_ID = '8a3b2c1d-0e9f-4a8b-9c7d-6e5f4a3b2c1d'


def test_a_shares_instances_oldest_first_in_one_request():
    client, session = make_client([
        expect('GET', '/v2/shares/s/instances', ok({'share_instances': [NEW, OLD]})),
    ])
    assert [i['id'] for i in instances.share_instances(client, 's')] == ['i2', 'i1']
    assert session.requests() == ['GET /', 'GET /v2/shares/s/instances']


def test_every_instance_by_export_location_path():
    client, _session = make_client([
        expect('GET', '/v2/share_instances?export_location_path=10.0.0.1%3A%2Fx',
               ok({'share_instances': [OLD]})),
        expect('GET', '/v2/share_instances', ok({'share_instances': []})),
    ])
    assert instances.share_instances(client, export_location_path='10.0.0.1:/x') == [OLD]
    assert instances.share_instances(client) == []


def test_the_export_location_filters_need_2_35():
    client, session = make_client([], max_version='2.34')
    with pytest.raises(UnsupportedFeature) as err:
        instances.share_instances(client, export_location_id='e')
    assert str(err.value) == 'export_location_id needs Manila API 2.35; this cloud offers 2.34.'
    assert session.requests() == ['GET /']


def test_export_locations_one_request_per_instance_preferred_first():
    client, session = make_client([
        expect('GET', '/v2/share_instances/i2/export_locations', ok({'export_locations': [
            {'path': 'b', 'preferred': False}, {'path': 'a', 'preferred': True}]})),
        expect('GET', '/v2/share_instances/i1/export_locations', ok({'export_locations': []})),
    ])
    found = instances.with_export_locations(client, [OLD, NEW])
    assert [[loc['path'] for loc in i['export_locations']] for i in found] == [['a', 'b'], []]
    assert found[0]['host'] == 'h@alpha#p'
    assert session.writes() == []


def test_a_snapshots_instances_and_their_export_locations():
    snap = {'id': 'si', 'snapshot_id': 'sn', 'created_at': 't'}
    client, session = make_client([
        expect('GET', '/v2/snapshot-instances/detail?snapshot_id=sn',
               ok({'snapshot_instances': [snap]})),
        expect('GET', '/v2/snapshot-instances/si/export-locations',
               ok({'share_snapshot_export_locations': [{'path': 'p'}]})),
    ])
    found = instances.with_export_locations(
        client, instances.snapshot_instances(client, 'sn'), snapshot=True)
    assert found == [dict(snap, export_locations=[{'path': 'p'}])]
    assert len(session.requests()) == 3


def test_a_name_is_looked_for_in_every_project_and_a_missing_one_names_the_option():
    client, _session = make_client([
        expect('GET', '/v2/shares/detail?name=data&all_tenants=1',
               ok({'shares': [{'id': SHARE_ID, 'name': 'data'}]})),
        expect('GET', '/v2/snapshots/detail?name=gone&all_tenants=1', ok({'snapshots': []})),
    ])
    assert instances.resolve(client, 'share', 'data', 'share') == SHARE_ID
    with pytest.raises(InvalidInput) as err:
        instances.resolve(client, 'snapshot', 'gone', 'snapshot')
    assert str(err.value).startswith("snapshot: no share snapshot with the name or ID 'gone'")


@pytest.mark.parametrize('path,call', [
    ('/v2/shares/s/instances', lambda c: instances.share_instances(c, 's')),
    ('/v2/snapshot-instances/detail', instances.snapshot_instances),
])
def test_a_member_is_told_instances_are_for_admins(path, call):
    client, _session = make_client([
        expect('GET', path, ScriptedResponse(403, {'forbidden': {
            'code': 403, 'message': 'Policy does not allow it.'}})),
    ])
    with pytest.raises(ManilaError) as err:
        call(client)
    assert not isinstance(err.value, Forbidden) and err.value.status == 403
    assert err.value.message == ('Share and snapshot instances are admin-only by default '
                                 '(Manila said: Policy does not allow it.)')
