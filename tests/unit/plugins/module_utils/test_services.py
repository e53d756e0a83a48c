# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""services.py: Manila's services and availability zones, each one request;
the filters Manila applies, the versioned fields only where the API has them,
ensuring matched here below 2.93 and refused below 2.86, a member's 403
explained."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import services
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    Forbidden,
    ManilaError,
    UnsupportedFeature,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    expect,
    make_client,
    ok,
)


def service(host, binary='manila-share', ensuring=False, **more):
    found = dict(id=len(host), binary=binary, host=host, zone='nova', status='enabled',
                 state='up', updated_at='2026-12-04T10:00:00.000000', disabled_reason=None,
                 ensuring=ensuring)
    found.update(more)
    return found


def test_the_filters_go_to_manila_in_one_request_and_the_result_is_sorted():
    client, session = make_client([
        expect('GET', '/v2/services?binary=manila-share&state=down&status=disabled',
               ok({'services': [service('b@beta'), service('a@alpha', disabled_reason='disk')]})),
    ])
    found = services.list_services(client, binary='manila-share', host=None, zone=None,
                                   state='down', status='disabled')
    assert [s['host'] for s in found] == ['a@alpha', 'b@beta']
    assert found[0]['disabled_reason'] == 'disk'
    assert session.requests() == ['GET /', 'GET /v2/services?binary=manila-share&state=down'
                                           '&status=disabled']
    assert session.writes() == []


def test_below_2_83_and_2_86_the_versioned_fields_are_left_out():
    client, _session = make_client([
        expect('GET', '/v2/services', ok({'services': [
            {'id': 1, 'binary': 'manila-scheduler', 'host': 'h', 'zone': 'nova',
             'status': 'enabled', 'state': 'up', 'updated_at': None}]})),
    ], max_version='2.80')
    assert services.list_services(client) == [
        {'id': 1, 'binary': 'manila-scheduler', 'host': 'h', 'zone': 'nova',
         'status': 'enabled', 'state': 'up', 'updated_at': None}]


def test_from_2_93_manila_filters_by_ensuring():
    client, _session = make_client([
        expect('GET', '/v2/services?binary=manila-share&ensuring=true',
               ok({'services': [service('a@alpha', ensuring=True)]})),
    ])
    found = services.list_services(client, ensuring=True, binary='manila-share')
    assert [s['ensuring'] for s in found] == [True]


def test_from_2_86_to_2_92_ensuring_is_matched_in_the_listing():
    client, session = make_client([
        expect('GET', '/v2/services', ok({'services': [
            service('a@alpha', ensuring=True), service('b@beta', ensuring=False)]})),
    ], max_version='2.92')
    found = services.list_services(client, ensuring=False)
    assert [s['host'] for s in found] == ['b@beta']
    assert session.requests() == ['GET /', 'GET /v2/services']


def test_below_2_86_ensuring_is_refused_before_the_listing():
    client, session = make_client([], max_version='2.85')
    with pytest.raises(UnsupportedFeature) as err:
        services.list_services(client, ensuring=True)
    assert str(err.value) == 'ensuring needs Manila API 2.86; this cloud offers 2.85.'
    assert session.requests() == ['GET /']


def test_a_member_is_told_services_are_for_admins():
    client, _session = make_client([
        expect('GET', '/v2/services', ScriptedResponse(403, {'forbidden': {
            'code': 403, 'message': 'Policy does not allow service:index to be performed.'}})),
    ])
    with pytest.raises(ManilaError) as err:
        services.list_services(client)
    assert not isinstance(err.value, Forbidden) and err.value.status == 403
    assert err.value.message == ("Listing Manila's services is admin-only by default (Manila "
                                 "said: Policy does not allow service:index to be performed.)")


ZONES = {'availability_zones': [
    {'id': 'z2', 'name': 'nova', 'created_at': 't1', 'updated_at': None, 'extra': 1},
    {'id': 'z1', 'name': 'manila-zone-0', 'created_at': 't0', 'updated_at': 't2'},
]}


def test_zones_sorted_by_name_with_their_four_fields():
    client, session = make_client([expect('GET', '/v2/availability-zones', ok(ZONES))])
    assert services.list_zones(client) == [
        {'id': 'z1', 'name': 'manila-zone-0', 'created_at': 't0', 'updated_at': 't2'},
        {'id': 'z2', 'name': 'nova', 'created_at': 't1', 'updated_at': None}]
    assert session.requests() == ['GET /', 'GET /v2/availability-zones']


@pytest.mark.parametrize('name,ids', [('nova', ['z2']), ('z1', ['z1']), ('nov', []),
                                      ('NOVA', [])])
def test_a_zone_by_name_or_id_in_the_one_listing(name, ids):
    client, session = make_client([expect('GET', '/v2/availability-zones', ok(ZONES))])
    assert [z['id'] for z in services.list_zones(client, name)] == ids
    assert session.requests() == ['GET /', 'GET /v2/availability-zones']
