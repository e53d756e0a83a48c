# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The ``name`` option of the info modules on scripted HTTP: a UUID-shaped value
is tried as an ID first, then as a name (as ``share`` and openstack.cloud do);
any other name costs the one filtered listing it always did."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    run_scripted,
)

from ansible_collections.openkeel.manila.plugins.modules import (
    security_service_info,
    share_info,
    share_network_info,
    share_snapshot_info,
    share_type_info,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    GONE,
    ScriptedResponse,
)

ID = '11111111-2222-3333-4444-555555555555'
PAGE = 'limit=1000&offset=0'


def run(monkeypatch, module, args, exchanges):
    outcome, session = run_scripted(monkeypatch, module, args, exchanges)
    return outcome.result, session


# How each kind's listing pages (lookups.pages): shares and snapshots ask for the
# count and stop there, share networks page until an empty page, security services
# are one request.
COUNTED = 'with_count=true&limit=1000&offset=0'


def counted(url, key):
    return lambda items: [('GET', url, ScriptedResponse(200, {key: items, 'count': len(items)}))]


def until_empty(url, key):
    return lambda items: [
        ('GET', url, ScriptedResponse(200, {key: items})),
        ('GET', url.replace('offset=0', 'offset=%d' % len(items)), ScriptedResponse(200, {key: []})),
    ] if items else [('GET', url, ScriptedResponse(200, {key: []}))]


def one_page(url, key):
    return lambda items: [('GET', url, ScriptedResponse(200, {key: items}))]


# (module, result key, GET by ID, the listing with a name filter (its exchanges), the item key of a GET)
KINDS = [
    (share_info, 'shares', '/v2/shares/' + ID,
     lambda name: counted('/v2/shares/detail?name=%s&' % name + COUNTED, 'shares'), 'share'),
    (share_snapshot_info, 'snapshots', '/v2/snapshots/' + ID,
     lambda name: counted('/v2/snapshots/detail?name=%s&sort_key=created_at&sort_dir=desc&' % name + COUNTED,
                          'snapshots'), 'snapshot'),
    (share_network_info, 'share_networks', '/v2/share-networks/' + ID,
     lambda name: until_empty('/v2/share-networks/detail?name=%s&' % name + PAGE, 'share_networks'),
     'share_network'),
    (security_service_info, 'security_services', '/v2/security-services/' + ID,
     lambda name: one_page('/v2/security-services/detail?name=%s' % name, 'security_services'),
     'security_service'),
]


@pytest.mark.parametrize('module,key,by_id,listing,item', KINDS)
def test_an_id_in_name_is_found_by_id(monkeypatch, module, key, by_id, listing, item):
    # Before: the ID was only a name filter, and nothing was found.
    result, session = run(monkeypatch, module, {'name': ID}, [
        ('GET', by_id, ScriptedResponse(200, {item: {'id': ID, 'name': 'data'}})),
    ])
    assert [r['id'] for r in result[key]] == [ID]
    assert session.requests() == ['GET /', 'GET ' + by_id]


@pytest.mark.parametrize('module,key,by_id,listing,item', KINDS)
def test_a_uuid_that_is_no_id_is_a_name(monkeypatch, module, key, by_id, listing, item):
    result, _session = run(monkeypatch, module, {'name': ID}, [
        ('GET', by_id, GONE),
    ] + listing(ID)([{'id': 'other', 'name': ID}]))
    assert [r['id'] for r in result[key]] == ['other']


@pytest.mark.parametrize('module,key,by_id,listing,item', KINDS)
def test_a_plain_name_is_one_listing_as_before(monkeypatch, module, key, by_id, listing, item):
    pages = listing('data')([{'id': ID, 'name': 'data'}])
    result, session = run(monkeypatch, module, {'name': 'data'}, pages)
    # the versions document and the listing's pages, as before the ID lookup existed
    assert [r['id'] for r in result[key]] == [ID] and len(session.calls) == 1 + len(pages)


def test_an_id_with_other_filters_must_match_them(monkeypatch):
    result, _session = run(monkeypatch, share_info, {'name': ID, 'status': 'error'}, [
        ('GET', '/v2/shares/' + ID, ScriptedResponse(200, {'share': {'id': ID, 'status': 'available'}})),
        ('GET', '/v2/shares/detail?status=error&' + COUNTED, ScriptedResponse(200, {'shares': [
            {'id': 'another', 'status': 'error'}], 'count': 1})),
    ])
    assert result['shares'] == []


def test_a_share_in_the_recycle_bin_is_listed_only_with_is_soft_deleted(monkeypatch):
    binned = {'id': ID, 'is_soft_deleted': True}
    result, _session = run(monkeypatch, share_info, {'name': ID}, [
        ('GET', '/v2/shares/' + ID, ScriptedResponse(200, {'share': binned})),
    ])
    assert result['shares'] == []


def test_a_share_type_uuid_that_is_no_id_is_a_name(monkeypatch):
    # Before: a UUID-shaped value was only an ID; a type so named was never found.
    result, _session = run(monkeypatch, share_type_info, {'name': ID}, [
        ('GET', '/v2/types/' + ID, GONE),
        ('GET', '/v2/types?is_public=all', ScriptedResponse(200, {'share_types': [
            {'id': 'other', 'name': ID, 'extra_specs': {}, 'share_type_access:is_public': True},
            {'id': 'third', 'name': 'gold', 'extra_specs': {}}]})),
    ])
    assert [t['id'] for t in result['share_types']] == ['other']


def test_another_projects_id_that_manila_forbids_is_a_name(monkeypatch):
    # Manila answers 403 (not 404) for another project's security service.
    result, _session = run(monkeypatch, security_service_info, {'name': ID}, [
        ('GET', '/v2/security-services/' + ID, ScriptedResponse(403, {'forbidden': {
            'code': 403, 'message': "Policy doesn't allow security_service:show to be performed."}})),
        ('GET', '/v2/security-services/detail?name=' + ID, ScriptedResponse(200, {'security_services': []})),
    ])
    assert result['security_services'] == []
