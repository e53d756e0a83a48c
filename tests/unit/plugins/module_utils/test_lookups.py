# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""lookups at their edges: every kind's requests, lookups by name or ID, and paging."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    AmbiguousName,
    InvalidInput,
    NotFound,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    expect,
    make_client,
)

UUID = '11111111-2222-3333-4444-555555555555'


def ok(body):
    return ScriptedResponse(200, body)


def missing():
    return ScriptedResponse(404, {'itemNotFound': {'code': 404, 'message': 'no'}})


# -- kinds -----------------------------------------------------------------------------------

@pytest.mark.parametrize('value,expected', [
    (UUID, True), (UUID.replace('-', ''), True), (UUID.upper(), True), ('x' + UUID, False),
    (UUID + 'a', False), ('', False), (None, False), ('data', False),
])
def test_looks_like_uuid(value, expected):
    assert lookups.looks_like_uuid(value) is expected


def test_get_by_id_item_query_and_missing():
    client, _session = make_client([
        expect('GET', '/v2/types/' + UUID + '?a=1', ok({'share_type': {'id': UUID}})),
        expect('GET', '/v2/share-networks/x', missing()),
    ])
    assert lookups.get_by_id(client, 'share_type', UUID, {'a': 1}) == {'id': UUID}
    assert lookups.get_by_id(client, 'share_network', 'x') is None


def test_get_by_id_of_a_kind_without_an_item_path():
    client, _session = make_client([
        expect('GET', '/v2/availability-zones?x=y', ok({'availability_zones': [
            {'id': 'a', 'name': 'nova'}, {'id': 'b', 'name': 'b'}]})),
        expect('GET', '/v2/availability-zones', ok({})),
    ])
    assert lookups.get_by_id(client, 'availability_zone', 'b', {'x': 'y'})['name'] == 'b'
    assert lookups.get_by_id(client, 'availability_zone', 'b') is None


def test_list_by_name_with_and_without_a_server_filter():
    client, _session = make_client([
        expect('GET', '/v2/shares/detail?name=data&is_soft_deleted=true', ok({'shares': [
            {'id': '1', 'name': 'data'}, {'id': '2', 'name': 'database'}]})),
        expect('GET', '/v2/types?is_public=all', ok({'share_types': [
            {'id': '1', 'name': 'gold'}, {'id': '2', 'name': 'Gold'}]})),
        expect('GET', '/v2/messages', ok({})),
    ])
    assert [s['id'] for s in lookups.list_by_name(client, 'share', 'data',
                                                  {'is_soft_deleted': 'true'})] == ['1']
    assert [t['id'] for t in lookups.list_by_name(client, 'share_type', 'gold')] == ['1']
    assert lookups.list_by_name(client, 'message', 'x') == []


def test_single():
    assert lookups.single('share', 'x', []) is None
    assert lookups.single('share', 'x', [{'id': 'a'}]) == {'id': 'a'}
    with pytest.raises(AmbiguousName) as err:
        lookups.single('share_network', 'x', [{'id': 'b'}, {'id': 'a'}])
    assert str(err.value) == "2 share networks are named 'x' (IDs: a, b); use an ID to say which one."


def test_find_require_resolve():
    client, session = make_client([
        expect('GET', '/v2/shares/' + UUID, missing()),
        expect('GET', '/v2/shares/detail?name=' + UUID, ok({'shares': []})),
        expect('GET', '/v2/share-networks/detail?name=net', ok({'share_networks': []})),
    ])
    with pytest.raises(NotFound) as err:
        lookups.require(client, 'share', UUID)
    assert err.value.status == 404
    assert err.value.message == "No share with the name or ID %r was found." % UUID
    with pytest.raises(InvalidInput) as err:
        lookups.require(client, 'share_network', 'net', option='share_network')
    assert str(err.value).startswith("share_network: no share network with the name or ID 'net' exists")


def test_resolve_id_known_and_by_filter():
    client, session = make_client([
        expect('GET', '/v2/snapshots/detail?name=s', ok({'snapshots': [{'id': 's1', 'name': 's'}]})),
    ])
    assert lookups.resolve_id(client, 'snapshot', 'known', known_ids=('known',)) == 'known'
    assert lookups.resolve_id(client, 'snapshot', 's') == 's1'
    assert len(session.calls) == 2


def test_list_all_pages():
    client, _session = make_client([
        expect('GET', '/v2/x?a=1&limit=2&offset=0', ok({'items': [1, 2]})),
        expect('GET', '/v2/x?a=1&limit=2&offset=2', ok({'items': [3, 4]})),
        expect('GET', '/v2/x?a=1&limit=2&offset=4', ok({'items': [5]})),
        expect('GET', '/v2/x?a=1&limit=2&offset=5', ok({'items': []})),
        expect('GET', '/v2/x?limit=1000&offset=0', ok({})),
    ])
    assert lookups.list_all(client, 'x', 'items', {'a': 1}, page_size=2) == [1, 2, 3, 4, 5]
    assert lookups.list_all(client, 'x', 'items') == []


def ids(*names):
    return [{'id': n} for n in names]


def test_a_page_shorter_than_asked_is_not_the_end():
    # osapi_max_limit = 2: Manila answers every limit=1000 with 2 items and
    # no next link; a page repeats an ID (a share created meanwhile shifted
    # the offsets); the empty page ends it.
    net = '/v2/share-networks/detail?all_tenants=1&limit=1000&offset=%d'
    client, session = make_client([
        expect('GET', net % 0, ok({'share_networks': ids('a', 'b')})),
        expect('GET', net % 2, ok({'share_networks': ids('b', 'c')})),
        expect('GET', net % 4, ok({'share_networks': ids('d')})),
        expect('GET', net % 5, ok({'share_networks': []})),
    ])
    found = lookups.list_all(client, 'share-networks/detail', 'share_networks', {'all_tenants': 1})
    assert [n['id'] for n in found] == ['a', 'b', 'c', 'd']
    assert len(session.calls) == 5


def test_a_page_with_nothing_new_ends_the_listing():
    # A server (or proxy) that ignores offset answers the first page again.
    client, session = make_client([
        expect('GET', '/v2/x?limit=2&offset=0', ok({'items': ids('a', 'b')})),
        expect('GET', '/v2/x?limit=2&offset=2', ok({'items': ids('a', 'b')})),
    ])
    assert lookups.list_all(client, 'x', 'items', page_size=2) == ids('a', 'b')
    assert len(session.calls) == 3


SHARES_COUNTED = '/v2/shares/detail?status=available&with_count=true&limit=1000&offset=%d'


def test_a_counted_listing_that_fits_one_page_is_one_request():
    client, session = make_client([
        expect('GET', SHARES_COUNTED % 0, ok({'shares': ids('a', 'b'), 'count': 2})),
        expect('GET', '/v2/snapshots/detail?with_count=true&limit=1000&offset=0',
               ok({'snapshots': [], 'count': 0})),
    ])
    got = lookups.list_all(client, 'shares/detail', 'shares', {'status': 'available'})
    assert got == ids('a', 'b')
    assert lookups.list_all(client, 'snapshots/detail', 'snapshots') == []
    assert len(session.calls) == 3


def test_a_counted_listing_pages_past_capped_pages_until_the_count():
    # osapi_max_limit = 2; a share created at the front after the first page
    # shifts the rest by one: b comes again, and the count grows to 6.
    client, session = make_client([
        expect('GET', SHARES_COUNTED % 0, ok({'shares': ids('a', 'b'), 'count': 5})),
        expect('GET', SHARES_COUNTED % 2, ok({'shares': ids('b', 'c'), 'count': 6})),
        expect('GET', SHARES_COUNTED % 4, ok({'shares': ids('d', 'e'), 'count': 6})),
    ])
    got = lookups.list_all(client, 'shares/detail', 'shares', {'status': 'available'})
    assert [s['id'] for s in got] == ['a', 'b', 'c', 'd', 'e']
    assert len(session.calls) == 4
    client, session = make_client([
        expect('GET', SHARES_COUNTED % 0, ok({'shares': ids('a', 'b'), 'count': 3})),
        expect('GET', SHARES_COUNTED % 2, ok({'shares': ids('c'), 'count': 3})),
    ])
    got = lookups.list_all(client, 'shares/detail', 'shares', {'status': 'available'})
    assert [s['id'] for s in got] == ['a', 'b', 'c']


def test_a_listing_filtered_by_project_is_not_counted():
    # Manila answers all_tenants=1&project_id=P&with_count=true with the shares of
    # every project: the project's listing pages until an empty page instead.
    project = '0123456789abcdef0123456789abcdef'
    listing = '/v2/shares/detail?all_tenants=1&project_id=%s&limit=1000&offset=%%d' % project
    client, session = make_client([
        expect('GET', listing % 0, ok({'shares': ids('a')})),
        expect('GET', listing % 1, ok({'shares': []})),
    ])
    got = lookups.list_all(client, 'shares/detail', 'shares',
                           {'all_tenants': '1', 'project_id': project})
    assert got == ids('a') and len(session.calls) == 3


def test_a_listing_without_its_count_pages_until_an_empty_page():
    # Below 2.42 (2.79 for snapshots) Manila has no with_count: not asked for.
    client, session = make_client([
        expect('GET', '/v2/shares/detail?limit=1000&offset=0', ok({'shares': ids('a')})),
        expect('GET', '/v2/shares/detail?limit=1000&offset=1', ok({'shares': []})),
        expect('GET', '/v2/snapshots/detail?limit=1000&offset=0', ok({'snapshots': ids('s')})),
        expect('GET', '/v2/snapshots/detail?limit=1000&offset=1', ok({})),
    ], max_version='2.41')
    assert lookups.list_all(client, 'shares/detail', 'shares') == ids('a')
    assert lookups.list_all(client, 'snapshots/detail', 'snapshots') == ids('s')
    assert len(session.calls) == 5
    client, session = make_client([
        expect('GET', '/v2/snapshots/detail?limit=1000&offset=0', ok({'snapshots': ids('s')})),
        expect('GET', '/v2/snapshots/detail?limit=1000&offset=1', ok({'snapshots': []})),
        # a server that says nothing of the count: the empty page ends it
        expect('GET', '/v2/shares/detail?with_count=true&limit=1000&offset=0', ok({'shares': ids('a')})),
        expect('GET', '/v2/shares/detail?with_count=true&limit=1000&offset=1', ok({'shares': []})),
    ], max_version='2.78')
    assert lookups.list_all(client, 'snapshots/detail', 'snapshots') == ids('s')
    assert lookups.list_all(client, 'shares/detail', 'shares') == ids('a')
    assert len(session.calls) == 5


def test_the_next_page_is_asked_for_only_when_wanted():
    client, session = make_client([
        expect('GET', '/v2/x?limit=2&offset=0', ok({'items': ids('a', 'b')})),
    ])
    listing = lookups.pages(client, 'x', 'items', page_size=2)
    assert [next(listing), next(listing)] == ids('a', 'b')
    assert len(session.calls) == 2


def test_get_by_id_of_a_listing_kind_names_it_when_ambiguous():
    client, _session = make_client([
        expect('GET', '/v2/availability-zones', ok({'availability_zones': [
            {'id': 'a', 'name': 'x'}, {'id': 'a', 'name': 'y'}]})),
    ])
    with pytest.raises(AmbiguousName) as err:
        lookups.get_by_id(client, 'availability_zone', 'a')
    assert "2 availability zones are named 'a'" in str(err.value)


def test_require_and_resolve_id_pass_their_filters_and_option():
    client, _session = make_client([
        expect('GET', '/v2/snapshots/detail?name=s&share_id=x', ok({'snapshots': [{'id': 's1', 'name': 's'}]})),
        expect('GET', '/v2/snapshots/detail?name=t', ok({'snapshots': []})),
    ])
    assert lookups.require(client, 'snapshot', 's', {'share_id': 'x'})['id'] == 's1'
    with pytest.raises(InvalidInput) as err:
        lookups.resolve_id(client, 'snapshot', 't', option='snapshot')
    assert str(err.value).startswith("snapshot: no share snapshot with the name or ID 't' exists")


def test_how_a_message_names_a_share():
    assert lookups.share_label({'id': 'x', 'name': 'n'}) == 'Share n (x)'
    assert lookups.share_in_sentence({'id': 'x'}) == 'share x'
    assert lookups.share_in_sentence({'id': 'x', 'name': 'n'}) == 'share n (x)'


def test_find_names_the_value_it_was_given_when_two_resources_share_it():
    client, _session = make_client([
        expect('GET', '/v2/shares/detail?name=data', ok({'shares': [
            {'id': '2', 'name': 'data'}, {'id': '1', 'name': 'data'}]})),
    ])
    with pytest.raises(AmbiguousName) as err:
        lookups.find(client, 'share', 'data')
    assert str(err.value) == "2 shares are named 'data' (IDs: 1, 2); use an ID to say which one."


def test_a_kind_made_with_the_defaults_filters_by_name_on_the_server_and_reads_by_id(monkeypatch):
    monkeypatch.setitem(lookups.KINDS, 'widget', lookups.Kind(
        'widget', 'widgets/detail', 'widgets', 'widgets/%s', 'widget'))
    client, session = make_client([
        expect('GET', '/v2/widgets/' + UUID, ok({'widget': {'id': UUID, 'name': 'w'}})),
        expect('GET', '/v2/widgets/detail?name=w', ok({'widgets': [
            {'id': 'a', 'name': 'w'}, {'id': 'b', 'name': 'w'}]})),
    ])
    assert lookups.find(client, 'widget', UUID) == {'id': UUID, 'name': 'w'}
    with pytest.raises(AmbiguousName) as err:
        lookups.find(client, 'widget', 'w')
    assert str(err.value) == "2 widgets are named 'w' (IDs: a, b); use an ID to say which one."
    assert len(session.calls) == 3


def test_the_listing_query_of_a_kind_goes_with_every_request_of_it(monkeypatch):
    monkeypatch.setitem(lookups.KINDS, 'gadget', lookups.Kind(
        'gadget', 'gadgets', 'gadgets', None, None, name_filter=False,
        listing_query={'all_tenants': '1'}))
    client, session = make_client([
        expect('GET', '/v2/gadgets?all_tenants=1', ok({'gadgets': [
            {'id': UUID, 'name': 'g'}, {'id': 'b', 'name': 'h'}]})),
        expect('GET', '/v2/gadgets?all_tenants=1&project_id=p', ok({'gadgets': [
            {'id': 'b', 'name': 'h'}]})),
    ])
    assert lookups.get_by_id(client, 'gadget', UUID) == {'id': UUID, 'name': 'g'}
    assert lookups.list_by_name(client, 'gadget', 'h', {'project_id': 'p'}) == [{'id': 'b', 'name': 'h'}]
    assert len(session.calls) == 3


def test_the_name_of_an_info_module_found_as_an_id():
    listings = []

    def listing(name):
        listings.append(name)
        return [{'id': 'other', 'name': 'x'}, {'id': UUID, 'name': 'mine'}]
    client, session = make_client([
        expect('GET', '/v2/share-networks/' + UUID, ok({'share_network': {'id': UUID, 'name': 'mine'}})),
        expect('GET', '/v2/share-networks/' + UUID, ok({'share_network': {'id': UUID, 'name': 'mine'}})),
    ])
    # no other filter: the resource read by ID is the answer, without a listing
    assert lookups.listed_by_name_or_id(client, 'share_network', UUID, listing) == [
        {'id': UUID, 'name': 'mine'}]
    assert listings == []
    # other filters: the listing without a name filter, narrowed to that ID
    assert lookups.listed_by_name_or_id(client, 'share_network', UUID, listing, other_filters=True) == [
        {'id': UUID, 'name': 'mine'}]
    assert listings == [None] and len(session.calls) == 3


def test_a_count_that_was_not_asked_for_does_not_end_the_paging():
    client, session = make_client([
        expect('GET', '/v2/x?limit=1000&offset=0', ok({'items': ids('a'), 'count': 1})),
        expect('GET', '/v2/x?limit=1000&offset=1', ok({'items': ids('b'), 'count': 1})),
        expect('GET', '/v2/x?limit=1000&offset=2', ok({'items': []})),
    ])
    assert lookups.list_all(client, 'x', 'items') == ids('a', 'b')
    assert len(session.calls) == 4


# -- another project's resources, asked for by a member (issue 37) ------------------------

class _Projected(object):
    def __init__(self, project):
        self.project = project
        self.asked = 0

    def token_project(self):
        self.asked += 1
        return self.project


def test_refuse_other_projects():
    member = _Projected({'id': 'p1', 'name': 'demo', 'roles': ['member']})
    lookups.refuse_other_projects(member, 'shares')
    assert member.asked == 0                        # nothing asked without the options
    lookups.refuse_other_projects(member, 'shares', project='p1')   # its own project
    with pytest.raises(InvalidInput) as err:
        lookups.refuse_other_projects(member, 'shares', project='p2')
    assert str(err.value).startswith("project: only admins can list another project's shares")
    # project narrows all_projects to the member's own: the answer is right
    lookups.refuse_other_projects(member, 'shares', project='p1', all_projects=True)
    with pytest.raises(InvalidInput) as err:
        lookups.refuse_other_projects(member, 'snapshots', all_projects=True)
    assert str(err.value).startswith("all_projects: only admins can list another project's snapshots")
    lookups.refuse_other_projects(_Projected({'id': 'a', 'name': 'admin', 'roles': ['admin']}),
                                  'shares', project='p2', all_projects=True)
    lookups.refuse_other_projects(_Projected(None), 'shares', all_projects=True)


def test_check_id_filters_refuses_what_is_not_an_id():
    lookups.check_id_filters({'id': '11111111-2222-3333-4444-555555555555', 'other': 'x',
                              'resource_id': None}, ('id', 'resource_id'))
    lookups.check_id_filters({'id': '0b0b0b0b0b0b4b0b8b0b0b0b0b0b0b0b'}, ('id',))
    with pytest.raises(InvalidInput) as err:
        lookups.check_id_filters({'id': 'net-one'}, ('id',))
    assert str(err.value).startswith("id 'net-one' is not an ID (a UUID")
