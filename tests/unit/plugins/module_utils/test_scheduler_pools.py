# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""scheduler_pools.py: full pool names (host@backend#pool) parsed before any
request, the filters Manila takes as regular expressions sent so that they
match one value only, the pool listing (admin-only: a 403 explained) and
require_pool's exact requests on scripted HTTP."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import scheduler_pools
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    Forbidden,
    InvalidInput,
    ManilaError,
    NotFound,
)
from ansible_collections.openkeel.manila.plugins.module_utils.scheduler_pools import (
    exact,
    parse_pool_name,
    require_pool,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    GONE,
    ScriptedResponse,
    expect,
    make_client,
    ok,
)

ALPHA = 'openkeel@alpha#fake_pool_for_ALPHA'
BETA = 'openkeel@beta#fake_pool_for_BETA'
GAMMA = 'openkeel@gamma#fake_pool_for_GAMMA'


# -- pool names -------------------------------------------------------------------------------

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


@pytest.mark.parametrize('name', ['openkeel@beta', 'beta#pool', 'a@b#c#d', '', 'a @b#c'])
def test_pool_names_must_be_complete(name):
    with pytest.raises(InvalidInput) as err:
        parse_pool_name(name)
    assert str(err.value).startswith('host must be a full pool name')


def test_pool_name_parts():
    assert parse_pool_name(BETA) == ('openkeel', 'beta', 'fake_pool_for_BETA')


@pytest.mark.parametrize('name,parts', [
    ('host-1.example.com@generic_be#pool:a', ('host-1.example.com', 'generic_be', 'pool:a')),
    ('h@b#p', ('h', 'b', 'p')),
])
def test_each_part_keeps_every_character_but_the_separators_and_spaces(name, parts):
    assert parse_pool_name(name) == parts
    assert parse_pool_name(name, option='manage.host') == parts


@pytest.mark.parametrize('name', ['h@b#p ', ' h@b#p', 'h@b\t#p', 'h\n@b#p'])
def test_a_name_with_white_space_anywhere_is_refused_quoting_it(name):
    with pytest.raises(InvalidInput) as err:
        parse_pool_name(name, option='manage.host')
    assert str(err.value) == (
        'manage.host must be a full pool name "host@backend#pool" (as '
        'openkeel.manila.share_pool_info lists them), got %r.' % name)


# -- exact filters -----------------------------------------------------------------------------

def test_exact():
    assert scheduler_pools.exact('a.b') == 'a\\.b$'


def test_exact_filter_is_anchored_and_escaped():
    assert exact('a.b') == r'a\.b$'


@pytest.mark.parametrize('value', ['openkeel', 'fake_pool_for_BETA', 'h.example.com', 'a+b',
                                   'pool(1)', 'x*y', 'back$end', 'p[1]'])
def test_an_exact_filter_matches_its_value_and_nothing_else(value):
    # Manila matches a filter at the start of each name (re.match)
    pattern = exact(value)
    assert re.match(pattern, value)
    assert not re.match(pattern, value + 'x')
    assert not re.match(pattern, 'x' + value)
    assert not re.match(pattern, value[:-1])


# -- list_pools ---------------------------------------------------------------------------------

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


def test_a_listing_without_filters_sends_no_query():
    client, session = make_client([
        expect('GET', '/v2/scheduler-stats/pools/detail', ok({'pools': [{'name': ALPHA}]})),
        expect('GET', '/v2/scheduler-stats/pools/detail?backend=beta&pool=p&share_type=gold',
               ok({'pools': []})),
    ])
    assert scheduler_pools.list_pools(client) == [{'name': ALPHA}]
    assert scheduler_pools.list_pools(client, backend='beta', pool='p', share_type='gold') == []
    assert session.writes() == []


def test_a_refused_listing_says_it_is_admin_only_and_keeps_manilas_details():
    client, _session = make_client([
        expect('GET', '/v2/scheduler-stats/pools', ScriptedResponse(403, {'forbidden': {
            'code': 403, 'message': 'Policy does not allow scheduler_stats:pools:index.'}},
            headers={'x-openstack-request-id': 'req-7'})),
    ])
    with pytest.raises(ManilaError) as err:
        scheduler_pools.list_pools(client, detail=False)
    # no longer a Forbidden: the words say what to do
    assert err.type is ManilaError and not isinstance(err.value, Forbidden)
    assert err.value.message == ("Listing the scheduler's pools is admin-only by default (Manila "
                                 "said: Policy does not allow scheduler_stats:pools:index.)")
    assert (err.value.status, err.value.request_id) == (403, 'req-7')


def test_other_errors_of_the_listing_stay_as_they_are():
    client, _session = make_client([expect('GET', '/v2/scheduler-stats/pools/detail', GONE)])
    with pytest.raises(NotFound) as err:
        scheduler_pools.list_pools(client)
    assert err.value.message == 'not found'


# -- require_pool -------------------------------------------------------------------------------

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


def test_unknown_pool_lists_the_known_ones():
    client, session = make_client([
        ('GET', '/v2/scheduler-stats/pools?host=openkeel%24&backend=gamma%24&pool=fake_pool_for_GAMMA%24',
         ScriptedResponse(200, {'pools': []})),
        ('GET', '/v2/scheduler-stats/pools', ScriptedResponse(200, {'pools': [
            {'name': ALPHA}, {'name': BETA}]})),
    ])
    with pytest.raises(InvalidInput) as err:
        require_pool(client, GAMMA)
    assert str(err.value) == 'host: no pool named %s is known to the scheduler. Pools: %s, %s.' % (
        GAMMA, ALPHA, BETA)


def test_the_pool_is_asked_for_by_its_three_exact_parts_and_only_that_request():
    name = 'host.a@be+1#p(1)'
    client, session = make_client([
        expect('GET', '/v2/scheduler-stats/pools?host=host%5C.a%24&backend=be%5C%2B1%24'
                      '&pool=p%5C%281%5C%29%24',
               ok({'pools': [{'name': name, 'capabilities': {}}]})),
    ])
    assert require_pool(client, name) == {'name': name, 'capabilities': {}}
    assert session.requests() == [
        'GET /', 'GET /v2/scheduler-stats/pools?host=host%5C.a%24&backend=be%5C%2B1%24'
                 '&pool=p%5C%281%5C%29%24']


def test_a_pool_name_that_is_no_full_name_is_refused_before_any_request():
    client, session = make_client([])
    with pytest.raises(InvalidInput) as err:
        require_pool(client, 'openkeel@beta')
    assert str(err.value).startswith('host must be a full pool name')
    assert session.requests() == ['GET /']


def test_a_pool_whose_name_only_starts_like_the_one_asked_for_is_not_taken():
    # Manila's filters match at the start: host "h" also finds host "h2" (without
    # the anchor); the name must be the same, whatever the listing holds
    client, _session = make_client([
        expect('GET', '/v2/scheduler-stats/pools?host=h%24&backend=b%24&pool=p%24',
               ok({'pools': [{'name': 'h2@b#p'}, {'name': None}, {}]})),
        expect('GET', '/v2/scheduler-stats/pools', ok({'pools': [{'name': 'h2@b#p'}]})),
    ])
    with pytest.raises(InvalidInput) as err:
        require_pool(client, 'h@b#p')
    assert str(err.value) == 'host: no pool named h@b#p is known to the scheduler. Pools: h2@b#p.'
