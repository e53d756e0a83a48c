# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""share_servers.py: the listing filtered by Manila in one request (only the
filters Manila knows), one server by ID (None when Manila has none), the
shares on each server in one listing per server, a member's 403 explained."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import share_servers
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    Forbidden,
    ManilaError,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    GONE,
    ScriptedResponse,
    expect,
    make_client,
    ok,
)

SERVER_A = {'id': 'a', 'host': 'h@delta', 'status': 'active'}
SERVER_B = {'id': 'b', 'host': 'h@delta', 'status': 'active'}
SERVER_C = {'id': 'c', 'host': 'g@epsilon', 'status': 'error'}


def test_the_filters_go_to_manila_and_the_servers_come_back_sorted():
    client, session = make_client([
        expect('GET', '/v2/share-servers?host=h%40delta&status=active',
               ok({'share_servers': [SERVER_B, SERVER_C, SERVER_A]})),
        expect('GET', '/v2/share-servers?share_network=net&project_id=p',
               ok({'share_servers': [SERVER_B, SERVER_C, SERVER_A]})),
    ])
    found = share_servers.list_servers(client, host='h@delta', status='active', unknown='x')
    assert [s['id'] for s in found] == ['c', 'a', 'b']
    found = share_servers.list_servers(client, share_network='net', project_id='p',
                                       share_network_subnet_id=None)
    assert [s['id'] for s in found] == ['c', 'a', 'b']
    assert session.writes() == []


@pytest.mark.parametrize('joined', [{'share_network': 'net'}, {'project_id': 'p'},
                                    {'share_network_subnet_id': 'sub'}])
def test_with_a_network_subnet_or_project_host_and_status_are_matched_here(joined):
    # Manila 23.0 answers 500 for host or status beside a filter it joins for
    query = '&'.join('%s=%s' % item for item in joined.items())
    client, session = make_client([
        expect('GET', '/v2/share-servers?' + query,
               ok({'share_servers': [SERVER_B, SERVER_C, SERVER_A]})),
    ])
    found = share_servers.list_servers(client, host='h@delta', status='active', **joined)
    assert [s['id'] for s in found] == ['a', 'b']
    assert session.requests() == ['GET /', 'GET /v2/share-servers?' + query]


def test_without_filters_one_plain_listing():
    client, session = make_client([expect('GET', '/v2/share-servers', ok({}))])
    assert share_servers.list_servers(client) == []
    assert session.requests() == ['GET /', 'GET /v2/share-servers']


def test_one_server_by_id_and_none_for_a_missing_one():
    detail = dict(SERVER_A, backend_details={'ip': '10.0.0.5'})
    client, _session = make_client([
        expect('GET', '/v2/share-servers/a', ok({'share_server': detail})),
        expect('GET', '/v2/share-servers/z', GONE),
    ])
    assert share_servers.get_server(client, 'a') == detail
    assert share_servers.get_server(client, 'z') is None


@pytest.mark.parametrize('path,call', [
    ('/v2/share-servers', share_servers.list_servers),
    ('/v2/share-servers/a', lambda c: share_servers.get_server(c, 'a')),
])
def test_a_member_is_told_share_servers_are_for_admins(path, call):
    client, _session = make_client([
        expect('GET', path, ScriptedResponse(403, {'forbidden': {
            'code': 403, 'message': 'Policy does not allow share_server:index.'}})),
    ])
    with pytest.raises(ManilaError) as err:
        call(client)
    assert not isinstance(err.value, Forbidden) and err.value.status == 403
    assert err.value.message == ('Share servers are admin-only by default (Manila said: '
                                 'Policy does not allow share_server:index.)')


def test_the_shares_of_every_project_on_each_server_one_listing_each():
    share = {'id': 's2', 'name': 'data', 'status': 'available', 'size': 1,
             'share_proto': 'NFS', 'project_id': 'p', 'host': 'h@delta#pool'}
    other = dict(share, id='s1', name='app')
    client, session = make_client([
        expect('GET', '/v2/shares/detail?share_server_id=a&all_tenants=1&with_count=true'
                      '&limit=1000&offset=0', ok({'shares': [share, other], 'count': 2})),
        expect('GET', '/v2/shares/detail?share_server_id=c&all_tenants=1&with_count=true'
                      '&limit=1000&offset=0', ok({'shares': [], 'count': 0})),
    ])
    found = share_servers.with_shares(client, [SERVER_A, SERVER_C])
    assert [s['id'] for s in found] == ['a', 'c']
    assert [s['name'] for s in found[0]['shares']] == ['app', 'data']
    assert found[0]['shares'][0] == {'id': 's1', 'name': 'app', 'status': 'available',
                                     'size': 1, 'share_proto': 'NFS', 'project_id': 'p'}
    assert found[1]['shares'] == []
    assert len(session.requests()) == 3
