# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""lookups at their edges: every kind's requests, paging, user messages, times,
pools, and what a write sent against what Manila shows."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils import manila_messages
from ansible_collections.openkeel.manila.plugins.module_utils import scheduler_pools
from ansible_collections.openkeel.manila.plugins.module_utils import writes
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    AmbiguousName,
    InvalidInput,
    ManilaError,
    NotFound,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    expect,
    make_client,
)

UUID = '11111111-2222-3333-4444-555555555555'
UTC = datetime.timezone.utc


def ok(body):
    return ScriptedResponse(200, body)


def missing():
    return ScriptedResponse(404, {'itemNotFound': {'code': 404, 'message': 'no'}})


# -- kinds -----------------------------------------------------------------------------------

def test_the_kinds_table():
    k = lookups.KINDS
    assert sorted(k) == ['availability_zone', 'message', 'resource_lock', 'security_service',
                         'share', 'share_network', 'share_type', 'snapshot']
    rows = dict((name, (kind.label, kind.listing, kind.list_key, kind.item, kind.item_key,
                        kind.name_filter, kind.listing_query)) for name, kind in k.items())
    assert rows['share'] == ('share', 'shares/detail', 'shares', 'shares/%s', 'share', True, {})
    assert rows['snapshot'] == ('share snapshot', 'snapshots/detail', 'snapshots',
                                'snapshots/%s', 'snapshot', True, {})
    assert rows['message'] == ('user message', 'messages', 'messages', 'messages/%s',
                               'message', False, {})
    assert rows['share_network'] == ('share network', 'share-networks/detail', 'share_networks',
                                     'share-networks/%s', 'share_network', True, {})
    assert rows['share_type'] == ('share type', 'types', 'share_types', 'types/%s',
                                  'share_type', False, {'is_public': 'all'})
    assert rows['availability_zone'] == ('availability zone', 'availability-zones',
                                         'availability_zones', None, None, False, {})
    assert rows['security_service'] == ('security service', 'security-services/detail',
                                        'security_services', 'security-services/%s',
                                        'security_service', True, {})
    assert rows['resource_lock'] == ('resource lock', 'resource-locks', 'resource_locks',
                                     'resource-locks/%s', 'resource_lock', False, {})


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


MSG = '/v2/messages?resource_id=r&sort_key=created_at&sort_dir=desc'


def test_list_messages_one_request_when_it_can():
    client, _session = make_client([
        expect('GET', MSG + '&limit=3&offset=0', ok({'messages': [1, 2, 3]})),
        expect('GET', MSG + '&limit=1000&offset=0', ok({'messages': [1]})),
        expect('GET', MSG + '&limit=1000&offset=1', ok({'messages': []})),
    ])
    assert manila_messages.list_messages(client, {'resource_id': 'r'}, limit=3) == [1, 2, 3]
    assert manila_messages.list_messages(client, {'resource_id': 'r'}, limit=1000) == [1]
    assert manila_messages.list_messages(client, {'resource_id': 'r'}, limit=0) == []


def test_list_messages_with_a_limit_above_the_cap_pages():
    # osapi_max_limit = 2, limit 5: pages of 2 until the limit is reached
    client, session = make_client([
        expect('GET', MSG + '&limit=5&offset=0', ok({'messages': ids('a', 'b')})),
        expect('GET', MSG + '&limit=5&offset=2', ok({'messages': ids('c', 'd')})),
        expect('GET', MSG + '&limit=5&offset=4', ok({'messages': ids('e', 'f')})),
    ])
    assert manila_messages.list_messages(client, {'resource_id': 'r'}, limit=5) == ids('a', 'b', 'c', 'd', 'e')
    assert len(session.calls) == 4


def test_user_messages_is_one_request():
    client, session = make_client([
        expect('GET', MSG + '&limit=3', ok({'messages': [{'user_message': 'x'}, {'user_message': 'x'},
                                                         {'user_message': 'y'}]})),
    ])
    assert manila_messages.user_messages(client, 'r') == 'Manila says: x | y'
    assert len(session.calls) == 2


def test_list_messages_pages_keep_past_and_limit():
    page = [{'i': i} for i in range(1000)]
    client, _session = make_client([
        expect('GET', MSG + '&limit=1000&offset=0', ok({'messages': page})),
        expect('GET', MSG + '&limit=1000&offset=1000', ok({'messages': [{'i': 1000}, {'i': 1001}]})),
        expect('GET', MSG + '&limit=1000&offset=1002', ok({'messages': []})),
    ])
    got = manila_messages.list_messages(client, {'resource_id': 'r'}, keep=lambda m: m['i'] % 500 == 0)
    assert got == [{'i': 0}, {'i': 500}, {'i': 1000}]
    client, _session = make_client([
        expect('GET', MSG + '&limit=1000&offset=0', ok({'messages': page})),
    ])
    assert manila_messages.list_messages(client, {'resource_id': 'r'}, past=lambda m: m['i'] == 2) == [
        {'i': 0}, {'i': 1}]
    client, _session = make_client([
        expect('GET', MSG + '&limit=1000&offset=0', ok({'messages': page})),
    ])
    assert manila_messages.list_messages(client, {'resource_id': 'r'}, limit=2, keep=lambda m: True) == [
        {'i': 0}, {'i': 1}]
    client, _session = make_client([
        expect('GET', MSG + '&limit=1000&offset=0', ok({'messages': page})),
        expect('GET', MSG + '&limit=1000&offset=1000', ok({'messages': page})),
    ])
    assert len(manila_messages.list_messages(client, {'resource_id': 'r'}, limit=1500)) == 1500


def test_list_messages_all_pages_without_limit():
    page = [{'i': i} for i in range(1000)]
    client, _session = make_client([
        expect('GET', '/v2/messages?sort_key=created_at&sort_dir=desc&limit=1000&offset=0',
               ok({'messages': page})),
        expect('GET', '/v2/messages?sort_key=created_at&sort_dir=desc&limit=1000&offset=1000',
               ok({'messages': []})),
    ])
    assert len(manila_messages.list_messages(client)) == 1000


@pytest.mark.parametrize('value,expected', [
    ('90s', datetime.datetime(2026, 1, 1, 11, 58, 30, tzinfo=UTC)),
    (' 30 m ', datetime.datetime(2026, 1, 1, 11, 30, tzinfo=UTC)),
    ('1h', datetime.datetime(2026, 1, 1, 11, 0, tzinfo=UTC)),
    ('2d', datetime.datetime(2025, 12, 30, 12, 0, tzinfo=UTC)),
    ('1w', datetime.datetime(2025, 12, 25, 12, 0, tzinfo=UTC)),
    ('2026-01-01T08:00:00Z', datetime.datetime(2026, 1, 1, 8, 0, tzinfo=UTC)),
    ('2026-01-01T08:00:00', datetime.datetime(2026, 1, 1, 8, 0, tzinfo=UTC)),
    ('2026-01-01T10:00:00+02:00', datetime.datetime(2026, 1, 1, 8, 0, tzinfo=UTC)),
])
def test_parse_time(value, expected):
    now = datetime.datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
    got = manila_messages.parse_time(value, 'since', now)
    assert got == expected and got.utcoffset() == datetime.timedelta(0)


@pytest.mark.parametrize('value', ['1y', 'yesterday', '', '-1h', '1.5h'])
def test_parse_time_refuses(value):
    with pytest.raises(InvalidInput) as err:
        manila_messages.parse_time(value, 'since', datetime.datetime(2026, 1, 1, tzinfo=UTC))
    assert str(err.value).startswith('since must be an ISO 8601 time')


def test_manila_time_and_created_at():
    moment = datetime.datetime(2026, 1, 1, 10, 0, 5, tzinfo=datetime.timezone(datetime.timedelta(hours=2)))
    assert manila_messages.manila_time(moment) == '2026-01-01T08:00:05Z'
    assert manila_messages.created_at({'created_at': '2026-01-01T08:00:05.123456'}) == datetime.datetime(
        2026, 1, 1, 8, 0, 5, 123456, tzinfo=UTC)
    assert manila_messages.created_at({'created_at': '2026-01-01T08:00:05Z'}).tzinfo is not None


def test_user_messages_words_and_old_clouds():
    client, _session = make_client([
        expect('GET', MSG + '&limit=3', ok({'messages': [
            {'user_message': 'a'}, {'user_message': None}, {'user_message': 'a'},
            {'user_message': 'b'}]})),
        expect('GET', MSG + '&limit=2', ok({'messages': [{'user_message': ''}]})),
    ])
    assert manila_messages.user_messages(client, 'r') == 'Manila says: a | b'
    assert manila_messages.user_messages(client, 'r', limit=2) == ''
    client, session = make_client([], max_version='2.36')
    assert manila_messages.user_messages(client, 'r') == '' and len(session.calls) == 1


@pytest.mark.parametrize('name,ok_', [
    ('h@b#p', True), ('h@b', False), ('h#p', False), ('h@b#p#q', False), ('h@@b#p', False),
    ('h @b#p', False), ('@b#p', False), ('h@b#', False), ('', False), (None, False),
])
def test_pool_names(name, ok_):
    if ok_:
        assert scheduler_pools.parse_pool_name(name) == ('h', 'b', 'p')
    else:
        with pytest.raises(InvalidInput) as err:
            scheduler_pools.parse_pool_name(name, option='target')
        assert str(err.value).startswith('target must be a full pool name')


def test_list_pools_paths_and_filters():
    client, _session = make_client([
        expect('GET', '/v2/scheduler-stats/pools/detail?host=h&share_type=t', ok({'pools': [1]})),
        expect('GET', '/v2/scheduler-stats/pools', ok({})),
        expect('GET', '/v2/scheduler-stats/pools/detail', ScriptedResponse(403, {
            'forbidden': {'code': 403, 'message': 'policy'}})),
    ])
    assert scheduler_pools.list_pools(client, host='h', share_type='t') == [1]
    assert scheduler_pools.list_pools(client, detail=False) == []
    with pytest.raises(ManilaError) as err:
        scheduler_pools.list_pools(client)
    assert err.value.status == 403 and 'admin-only by default' in str(err.value)


def test_require_pool_exact_match_and_the_known_pools():
    query = '/v2/scheduler-stats/pools?host=h%24&backend=b%24&pool=p%24'
    client, _session = make_client([
        expect('GET', query, ok({'pools': [{'name': 'h@b#px'}, {'name': 'h@b#p'}]})),
        expect('GET', query, ok({'pools': [{'name': 'h@b#px'}]})),
        expect('GET', '/v2/scheduler-stats/pools', ok({'pools': [{'name': 'z@b#p'}, {'name': 'h@b#px'}]})),
        expect('GET', query, ok({'pools': []})),
        expect('GET', '/v2/scheduler-stats/pools', ok({'pools': []})),
    ])
    assert scheduler_pools.require_pool(client, 'h@b#p') == {'name': 'h@b#p'}
    with pytest.raises(InvalidInput) as err:
        scheduler_pools.require_pool(client, 'h@b#p')
    assert str(err.value) == 'host: no pool named h@b#p is known to the scheduler. Pools: h@b#px, z@b#p.'
    with pytest.raises(InvalidInput) as err:
        scheduler_pools.require_pool(client, 'h@b#p')
    assert str(err.value).endswith('Pools: none.')


def test_exact():
    assert scheduler_pools.exact('a.b') == 'a\\.b$'


def test_list_messages_pages_on_past_the_second_page_and_answers_without_messages():
    page = [{'i': i} for i in range(1000)]
    client, _session = make_client([
        expect('GET', MSG + '&limit=1000&offset=0', ok({'messages': page})),
        expect('GET', MSG + '&limit=1000&offset=1000', ok({'messages': page})),
        expect('GET', MSG + '&limit=1000&offset=2000', ok({})),
        expect('GET', MSG + '&limit=5&offset=0', ok({})),
    ])
    assert len(manila_messages.list_messages(client, {'resource_id': 'r'}, keep=lambda m: True)) == 2000
    assert manila_messages.list_messages(client, {'resource_id': 'r'}, limit=5) == []


def test_list_messages_limit_of_exactly_one_page_is_one_request_and_a_full_limit_stops():
    page = [{'i': i} for i in range(1000)]
    client, _session = make_client([
        expect('GET', MSG + '&limit=1000&offset=0', ok({'messages': page})),
    ])
    assert len(manila_messages.list_messages(client, {'resource_id': 'r'}, limit=1000, keep=lambda m: True)) == 1000


def test_manila_time_is_utc_whatever_the_local_zone(monkeypatch):
    import time
    monkeypatch.setenv('TZ', 'Asia/Kolkata')
    time.tzset()
    try:
        moment = datetime.datetime(2026, 1, 1, 8, 0, 5, tzinfo=UTC)
        assert manila_messages.manila_time(moment) == '2026-01-01T08:00:05Z'
    finally:
        monkeypatch.delenv('TZ')
        time.tzset()


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


def test_parse_time_is_utc_whatever_the_local_zone(monkeypatch):
    import time
    monkeypatch.setenv('TZ', 'Asia/Kolkata')
    time.tzset()
    try:
        now = datetime.datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
        got = manila_messages.parse_time('2026-01-01T08:00:00', 'since', now)
        assert got == datetime.datetime(2026, 1, 1, 8, 0, tzinfo=UTC) and got.utcoffset() == datetime.timedelta(0)
        got = manila_messages.parse_time('2026-01-01T10:00:00+02:00', 'since', now)
        assert got.utcoffset() == datetime.timedelta(0) and got.hour == 8
    finally:
        monkeypatch.delenv('TZ')
        time.tzset()


@pytest.mark.parametrize('shown,wanted,same', [
    # an empty text and none are the same
    ('', None, True), (None, '', True), ('x', '', False), ('x', None, False),
    # a boolean sent compares as one, whichever way Manila shows it
    (True, True, True), ('True', True, True), ('false', False, True),
    ('false', True, False), (False, True, False), ('yes', True, False),
    ('a', 'a', True), ('A', 'a', False),
])
def test_what_a_write_sent_and_what_manila_shows(shown, wanted, same):
    assert writes.shown_as_sent(shown, wanted) is same
    assert writes.shows({'field': shown}, {'field': wanted}) is same
    assert writes.shows({}, {'field': wanted}) is False


def test_the_oldest_namesake_keeps_the_name():
    a = {'id': 'b', 'created_at': '2026-01-01T00:00:00'}
    b = {'id': 'a', 'created_at': '2026-01-01T00:00:01'}
    c = {'id': 'c'}
    assert writes.oldest([b, a])['id'] == 'b'
    assert writes.oldest([b, dict(a, id='c', created_at=b['created_at'])])['id'] == 'a'
    assert writes.oldest([a, c])['id'] == 'c'


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
