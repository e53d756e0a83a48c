# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""lookups (every kind's requests, paging, times, pools) and waiter (pauses,
deadlines, words of a failure, run_steps) at their edges."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import lookups, waiter
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    AmbiguousName,
    InvalidInput,
    ManilaError,
    NotFound,
    WaitFailed,
    WaitTimeout,
)
from ansible_collections.openkeel.manila.plugins.module_utils.waiter import (
    GONE,
    Step,
    describe_targets,
    explain_safely,
    poll_delays,
    run_steps,
    wait_for_status,
    wait_until,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    FakeClock,
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
    assert lookups.PAGE_SIZE == 1000


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
    assert lookups.list_messages(client, {'resource_id': 'r'}, limit=3) == [1, 2, 3]
    assert lookups.list_messages(client, {'resource_id': 'r'}, limit=1000) == [1]
    assert lookups.list_messages(client, {'resource_id': 'r'}, limit=0) == []


def test_list_messages_with_a_limit_above_the_cap_pages():
    # osapi_max_limit = 2, limit 5: pages of 2 until the limit is reached
    client, session = make_client([
        expect('GET', MSG + '&limit=5&offset=0', ok({'messages': ids('a', 'b')})),
        expect('GET', MSG + '&limit=5&offset=2', ok({'messages': ids('c', 'd')})),
        expect('GET', MSG + '&limit=5&offset=4', ok({'messages': ids('e', 'f')})),
    ])
    assert lookups.list_messages(client, {'resource_id': 'r'}, limit=5) == ids('a', 'b', 'c', 'd', 'e')
    assert len(session.calls) == 4


def test_user_messages_is_one_request():
    client, session = make_client([
        expect('GET', MSG + '&limit=3', ok({'messages': [{'user_message': 'x'}, {'user_message': 'x'},
                                                         {'user_message': 'y'}]})),
    ])
    assert lookups.user_messages(client, 'r') == 'Manila says: x | y'
    assert len(session.calls) == 2


def test_list_messages_pages_keep_past_and_limit():
    page = [{'i': i} for i in range(1000)]
    client, _session = make_client([
        expect('GET', MSG + '&limit=1000&offset=0', ok({'messages': page})),
        expect('GET', MSG + '&limit=1000&offset=1000', ok({'messages': [{'i': 1000}, {'i': 1001}]})),
        expect('GET', MSG + '&limit=1000&offset=1002', ok({'messages': []})),
    ])
    got = lookups.list_messages(client, {'resource_id': 'r'}, keep=lambda m: m['i'] % 500 == 0)
    assert got == [{'i': 0}, {'i': 500}, {'i': 1000}]
    client, _session = make_client([
        expect('GET', MSG + '&limit=1000&offset=0', ok({'messages': page})),
    ])
    assert lookups.list_messages(client, {'resource_id': 'r'}, past=lambda m: m['i'] == 2) == [
        {'i': 0}, {'i': 1}]
    client, _session = make_client([
        expect('GET', MSG + '&limit=1000&offset=0', ok({'messages': page})),
    ])
    assert lookups.list_messages(client, {'resource_id': 'r'}, limit=2, keep=lambda m: True) == [
        {'i': 0}, {'i': 1}]
    client, _session = make_client([
        expect('GET', MSG + '&limit=1000&offset=0', ok({'messages': page})),
        expect('GET', MSG + '&limit=1000&offset=1000', ok({'messages': page})),
    ])
    assert len(lookups.list_messages(client, {'resource_id': 'r'}, limit=1500)) == 1500


def test_list_messages_all_pages_without_limit():
    page = [{'i': i} for i in range(1000)]
    client, _session = make_client([
        expect('GET', '/v2/messages?sort_key=created_at&sort_dir=desc&limit=1000&offset=0',
               ok({'messages': page})),
        expect('GET', '/v2/messages?sort_key=created_at&sort_dir=desc&limit=1000&offset=1000',
               ok({'messages': []})),
    ])
    assert len(lookups.list_messages(client)) == 1000


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
    got = lookups.parse_time(value, 'since', now)
    assert got == expected and got.utcoffset() == datetime.timedelta(0)


@pytest.mark.parametrize('value', ['1y', 'yesterday', '', '-1h', '1.5h'])
def test_parse_time_refuses(value):
    with pytest.raises(InvalidInput) as err:
        lookups.parse_time(value, 'since', datetime.datetime(2026, 1, 1, tzinfo=UTC))
    assert str(err.value).startswith('since must be an ISO 8601 time')


def test_manila_time_and_created_at():
    moment = datetime.datetime(2026, 1, 1, 10, 0, 5, tzinfo=datetime.timezone(datetime.timedelta(hours=2)))
    assert lookups.manila_time(moment) == '2026-01-01T08:00:05Z'
    assert lookups.created_at({'created_at': '2026-01-01T08:00:05.123456'}) == datetime.datetime(
        2026, 1, 1, 8, 0, 5, 123456, tzinfo=UTC)
    assert lookups.created_at({'created_at': '2026-01-01T08:00:05Z'}).tzinfo is not None


def test_user_messages_words_and_old_clouds():
    client, _session = make_client([
        expect('GET', MSG + '&limit=3', ok({'messages': [
            {'user_message': 'a'}, {'user_message': None}, {'user_message': 'a'},
            {'user_message': 'b'}]})),
        expect('GET', MSG + '&limit=2', ok({'messages': [{'user_message': ''}]})),
    ])
    assert lookups.user_messages(client, 'r') == 'Manila says: a | b'
    assert lookups.user_messages(client, 'r', limit=2) == ''
    client, session = make_client([], max_version='2.36')
    assert lookups.user_messages(client, 'r') == '' and len(session.calls) == 1


@pytest.mark.parametrize('name,ok_', [
    ('h@b#p', True), ('h@b', False), ('h#p', False), ('h@b#p#q', False), ('h@@b#p', False),
    ('h @b#p', False), ('@b#p', False), ('h@b#', False), ('', False), (None, False),
])
def test_pool_names(name, ok_):
    if ok_:
        assert lookups.parse_pool_name(name) == ('h', 'b', 'p')
    else:
        with pytest.raises(InvalidInput) as err:
            lookups.parse_pool_name(name, option='target')
        assert str(err.value).startswith('target must be a full pool name')


def test_list_pools_paths_and_filters():
    client, _session = make_client([
        expect('GET', '/v2/scheduler-stats/pools/detail?host=h&share_type=t', ok({'pools': [1]})),
        expect('GET', '/v2/scheduler-stats/pools', ok({})),
        expect('GET', '/v2/scheduler-stats/pools/detail', ScriptedResponse(403, {
            'forbidden': {'code': 403, 'message': 'policy'}})),
    ])
    assert lookups.list_pools(client, host='h', share_type='t') == [1]
    assert lookups.list_pools(client, detail=False) == []
    with pytest.raises(ManilaError) as err:
        lookups.list_pools(client)
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
    assert lookups.require_pool(client, 'h@b#p') == {'name': 'h@b#p'}
    with pytest.raises(InvalidInput) as err:
        lookups.require_pool(client, 'h@b#p')
    assert str(err.value) == 'host: no pool named h@b#p is known to the scheduler. Pools: h@b#px, z@b#p.'
    with pytest.raises(InvalidInput) as err:
        lookups.require_pool(client, 'h@b#p')
    assert str(err.value).endswith('Pools: none.')


def test_exact():
    assert lookups.exact('a.b') == 'a\\.b$'


# -- waiter ----------------------------------------------------------------------------------

def test_poll_delays():
    delays = poll_delays()
    assert [next(delays) for _i in range(7)] == [0.5, 0.75, 1.125, 1.6875, 2.53125, 3.796875, 5.0]
    delays = poll_delays(first=1, factor=2, cap=3)
    assert [next(delays) for _i in range(4)] == [1, 2, 3, 3]
    assert (waiter.FIRST_DELAY, waiter.BACKOFF, waiter.MAX_DELAY) == (0.5, 1.5, 5.0)


class Reads(object):
    def __init__(self, *values):
        self.values = list(values)

    def __call__(self):
        return self.values.pop(0)


def clocked():
    clock = FakeClock()
    client, _session = make_client([], clock=clock)
    return client, clock


def test_wait_until_ready_at_once_sleeps_not():
    client, clock = clocked()
    assert wait_until(client, Reads({'s': 1}), lambda r: True, 'X', 'y', 10) == {'s': 1}
    assert clock.sleeps == []


def test_wait_until_never_sleeps_past_the_deadline_and_says_where_it_stood():
    client, clock = clocked()
    with pytest.raises(WaitTimeout) as err:
        wait_until(client, lambda: {'s': 'busy'}, lambda r: False, 'Share x', 'it to rest', 2,
                   describe=lambda r: r['s'], explain=lambda r: 'Manila says: hm')
    assert clock.sleeps == [0.5, 0.75, 0.75] and clock.now == 2.0
    assert str(err.value) == ('Share x is still busy after 2 seconds (waiting for it to rest); '
                              'raise "timeout" or check the service. Manila says: hm')
    assert err.value.state == 'busy' and err.value.resource == {'s': 'busy'}
    client, clock = clocked()
    with pytest.raises(WaitTimeout) as err:
        wait_until(client, lambda: {'s': 'busy'}, lambda r: False, 'Share x', 'g', 0)
    assert 'is still not ready after 0 seconds' in str(err.value) and clock.sleeps == []


def test_wait_until_failure_and_gone():
    client, clock = clocked()
    with pytest.raises(WaitFailed) as err:
        wait_until(client, lambda: {'s': 'error'}, lambda r: False, 'Share x', 'g', 10,
                   failure=lambda r: 'went to error', explain=lambda r: '')
    assert str(err.value) == 'Share x went to error while waiting for g.'
    assert err.value.state == 'went to error' and err.value.resource == {'s': 'error'}
    with pytest.raises(WaitFailed) as err:
        wait_until(client, lambda: None, lambda r: False, 'Share x', 'g', 10)
    assert err.value.state == GONE and str(err.value) == 'Share x disappeared while waiting for g.'
    seen = []
    assert wait_until(client, Reads(None), lambda r: r is None, 'X', 'g', 10, on_poll=seen.append) is None
    assert seen == []


def test_wait_for_status_field_targets_and_errors():
    client, clock = clocked()
    got = wait_for_status(client, Reads({'task_state': 'a'}, {'task_state': 'b'}), ['b', 'c'],
                          ['x'], 'M', 10, field='task_state')
    assert got == {'task_state': 'b'}
    with pytest.raises(WaitFailed) as err:
        wait_for_status(client, Reads({'status': 'x'}), ['b'], ['x'], 'M', 10)
    assert str(err.value) == 'M went to x while waiting for b.'
    with pytest.raises(WaitTimeout) as err:
        wait_for_status(client, lambda: {'status': 'q'}, [GONE, 'b'], [], 'M', 1)
    assert 'M is still q after 1 seconds (waiting for b or gone)' in str(err.value)
    assert wait_for_status(client, Reads(None), [GONE], [], 'M', 1) is None
    with pytest.raises(WaitFailed):
        wait_for_status(client, Reads(None), ['b'], [], 'M', 1)


def test_describe_targets_and_explain_safely():
    assert describe_targets([GONE, 'b', 'a']) == 'a or b or gone'

    def broken(resource):
        raise ManilaError('down')
    assert explain_safely(broken, None) == 'Manila user messages could not be read: down'
    assert explain_safely(lambda r: 'words', None) == 'words'
    assert waiter._explained('m', None, None) == 'm'
    assert waiter._explained('m', lambda r: '', None) == 'm'
    assert waiter._explained('m', lambda r: 'x', None) == 'm x'


class Item(object):
    def __init__(self, name):
        self.name = name
        self.ok = True
        self.log = []
        self.error = None

    def fail(self, why):
        self.ok = False
        self.error = why


def test_run_steps_skips_fails_and_times_out():
    clock = FakeClock()
    client, _session = make_client([], clock=clock)
    a, b, c = Item('a'), Item('b'), Item('c')
    polls = []

    def fetch(items):
        polls.append(sorted(i.name for i in items))
        return {'a': 'ready' if len(polls) > 1 else 'busy', 'b': 'busy'}

    def job(item):
        item.log.append('job')
        if item.name == 'c':
            raise ManilaError('refused')

    steps = [Step(run=job), Step(run=lambda item: item.log.append('skipped'),
                                 needed=lambda item: False),
             Step(check=lambda item, resource: resource == 'ready' or None,
                  timed_out=lambda item, resource: 'still %s' % resource),
             Step(run=lambda item: item.log.append('after'))]
    run_steps(client, [a, b, c], steps, fetch, key=lambda item: item.name, timeout=3)
    assert a.log == ['job', 'after'] and a.ok
    assert b.log == ['job'] and b.error == 'still busy'
    assert c.log == ['job'] and str(c.error) == 'refused'
    assert polls[0] == ['a', 'b'] and all(p == ['b'] for p in polls[2:])
    assert clock.now >= 3


def test_run_steps_default_timeout_words_and_on_error():
    clock = FakeClock()
    client, _session = make_client([], clock=clock)
    item = Item('a')
    errors = []
    run_steps(client, [item], [Step(check=lambda i, r: None)], lambda items: {}, key=lambda i: i.name,
              timeout=1)
    assert item.error == 'still not ready after 1 seconds'

    def check(i, r):
        raise ManilaError('x')
    other = Item('b')
    run_steps(client, [other], [Step(check=check)], lambda items: {}, key=lambda i: i.name, timeout=1,
              on_error=lambda i, exc: errors.append((i.name, str(exc))))
    assert errors == [('b', 'x')] and other.ok


def test_run_steps_on_a_pool_and_a_bug_ends_the_run():
    clock = FakeClock()
    client, _session = make_client([], clock=clock)
    items = [Item(str(i)) for i in range(4)]
    run_steps(client, items, [Step(run=lambda item: item.log.append('job'))], lambda its: {},
              key=lambda i: i.name, timeout=1, workers=2)
    assert all(i.log == ['job'] for i in items)

    def bug(item):
        raise KeyError('bug')
    with pytest.raises(KeyError):
        run_steps(client, [Item('x')], [Step(run=bug)], lambda its: {}, key=lambda i: i.name,
                  timeout=1, workers=2)


@pytest.mark.parametrize('workers,on_pool', [(None, False), (1, False), (2, True), (3, True)])
def test_run_steps_uses_a_pool_only_for_more_than_one_worker(workers, on_pool):
    import threading
    clock = FakeClock()
    client, _session = make_client([], clock=clock)
    threads = []
    fetched = []
    item = Item('a')
    steps = [Step(run=lambda i: threads.append(threading.current_thread())),
             Step(check=lambda i, r: r == 'ready' or None)]

    def fetch(items):
        fetched.append(threading.current_thread())
        return dict((i.name, 'ready') for i in items)
    kwargs = {} if workers is None else {'workers': workers}
    run_steps(client, [item], steps, fetch, key=lambda i: i.name, timeout=5, **kwargs)
    main = threading.current_thread()
    assert (threads[0] is not main) is on_pool and (fetched[0] is not main) is on_pool
    assert item.ok


def test_run_steps_waits_until_the_deadline_exactly():
    clock = FakeClock()
    client, _session = make_client([], clock=clock)
    item = Item('a')
    seen = []

    def check(i, resource):
        seen.append(clock.now)
        return resource == 'ready' or None
    run_steps(client, [item], [Step(check=check)], lambda items: {'a': 'busy'}, key=lambda i: i.name,
              timeout=1.25, max_delay=1.0)
    # polls at 0.5 and 0.5 + 0.75: the second is at the deadline, and the last
    assert item.error == 'still not ready after 1.25 seconds'
    assert seen == [0.5, 1.25]


def test_run_steps_backs_off_to_two_seconds_by_default():
    clock = FakeClock()
    client, _session = make_client([], clock=clock)
    item = Item('a')
    run_steps(client, [item], [Step(check=lambda i, r: None)], lambda items: {}, key=lambda i: i.name,
              timeout=20)
    assert max(clock.sleeps) == 2.0 and clock.sleeps[:3] == [0.5, 0.75, 1.125]


def test_run_steps_on_a_pool_hands_manila_errors_to_on_error():
    clock = FakeClock()
    client, _session = make_client([], clock=clock)
    errors = []

    def job(item):
        raise ManilaError('refused %s' % item.name)
    items = [Item('a'), Item('b')]
    run_steps(client, items, [Step(run=job), Step(run=lambda item: item.log.append('next'))],
              lambda its: {}, key=lambda i: i.name, timeout=1, workers=2,
              on_error=lambda item, exc: errors.append(str(exc)))
    assert sorted(errors) == ['refused a', 'refused b'] and [i.log for i in items] == [['next'], ['next']]


def test_list_messages_pages_on_past_the_second_page_and_answers_without_messages():
    page = [{'i': i} for i in range(1000)]
    client, _session = make_client([
        expect('GET', MSG + '&limit=1000&offset=0', ok({'messages': page})),
        expect('GET', MSG + '&limit=1000&offset=1000', ok({'messages': page})),
        expect('GET', MSG + '&limit=1000&offset=2000', ok({})),
        expect('GET', MSG + '&limit=5&offset=0', ok({})),
    ])
    assert len(lookups.list_messages(client, {'resource_id': 'r'}, keep=lambda m: True)) == 2000
    assert lookups.list_messages(client, {'resource_id': 'r'}, limit=5) == []


def test_list_messages_limit_of_exactly_one_page_is_one_request_and_a_full_limit_stops():
    page = [{'i': i} for i in range(1000)]
    client, _session = make_client([
        expect('GET', MSG + '&limit=1000&offset=0', ok({'messages': page})),
    ])
    assert len(lookups.list_messages(client, {'resource_id': 'r'}, limit=1000, keep=lambda m: True)) == 1000


def test_manila_time_is_utc_whatever_the_local_zone(monkeypatch):
    import time
    monkeypatch.setenv('TZ', 'Asia/Kolkata')
    time.tzset()
    try:
        moment = datetime.datetime(2026, 1, 1, 8, 0, 5, tzinfo=UTC)
        assert lookups.manila_time(moment) == '2026-01-01T08:00:05Z'
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
        got = lookups.parse_time('2026-01-01T08:00:00', 'since', now)
        assert got == datetime.datetime(2026, 1, 1, 8, 0, tzinfo=UTC) and got.utcoffset() == datetime.timedelta(0)
        got = lookups.parse_time('2026-01-01T10:00:00+02:00', 'since', now)
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
    assert lookups.shown_as_sent(shown, wanted) is same
    assert lookups.shows({'field': shown}, {'field': wanted}) is same
    assert lookups.shows({}, {'field': wanted}) is False


def test_run_steps_polls_again_after_a_failed_poll_and_gives_up_after_three():
    clock = FakeClock()
    client, _session = make_client([], clock=clock)
    answers = [ManilaError('down'), {'a': 'ready'}]

    def fetch(items):
        answer = answers.pop(0) if answers else ManilaError('still down')
        if isinstance(answer, Exception):
            raise answer
        return answer
    item = Item('a')
    run_steps(client, [item], [Step(check=lambda i, r: r == 'ready' or None)], fetch,
              key=lambda i: i.name, timeout=60)
    assert item.ok and clock.sleeps == [0.5, 0.75]
    # every poll fails: the waiting items fail after the third, with the default words;
    # one that began its wait after them counts its own polls
    first, later = Item('a'), Item('b')
    steps = [Step(run=lambda i: None), Step(check=lambda i, r: r == 'ready' or None)]
    run_steps(client, [first], steps, fetch, key=lambda i: i.name, timeout=60)
    assert first.error == ('unknown: could not read its state (3 polls in a row failed): '
                           'still down')
    words = []
    run_steps(client, [later], steps, fetch, key=lambda i: i.name, timeout=60,
              poll_failed=lambda i, exc, n: words.append((i.name, str(exc), n)) or 'gone dark')
    assert later.error == 'gone dark' and words == [('b', 'still down', 3)]


def test_run_steps_fails_a_waiting_item_at_its_deadline_when_polls_fail():
    clock = FakeClock()
    client, _session = make_client([], clock=clock)

    def fetch(items):
        raise ManilaError('down')
    item = Item('a')
    run_steps(client, [item], [Step(check=lambda i, r: None)], fetch, key=lambda i: i.name,
              timeout=0.5)
    assert item.error == 'unknown: could not read its state (1 poll in a row failed): down'
