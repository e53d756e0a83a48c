# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from keystoneauth1 import exceptions as ksa_exc

from ansible_collections.openkeel.manila.plugins.module_utils.client import (
    EXPERIMENTAL_HEADER,
    ManilaClient,
    VERSION_HEADER,
    versions_document_url,
)
from ansible_collections.openkeel.manila.plugins.module_utils.connection import find_catalog_endpoint
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    AnswerLost,
    CheckModeWrite,
    ConfigurationError,
    ManilaError,
    NotFound,
    UnsupportedFeature,
)
from ansible_collections.openkeel.manila.plugins.module_utils.lookups import looks_like_uuid
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    ScriptedSession,
    expect,
    make_client,
    versions_document,
)


@pytest.mark.parametrize('server_max, cap, expected', [
    ('2.99', None, '2.99'),
    ('2.95', None, '2.95'),
    ('2.68', None, '2.68'),
    ('2.45', None, '2.45'),
    ('2.29', None, '2.29'),
    ('2.99', '2.50', '2.50'),
    ('2.45', '2.60', '2.45'),
    ('3.5', None, '2.99'),
])
def test_negotiation_takes_the_lowest_of_known_server_and_cap(server_max, cap, expected):
    client, session = make_client([], max_version=server_max, cap=cap)
    assert str(client.version) == expected
    # The versions document is read without a token, once.
    assert len(session.calls) == 1


def test_negotiation_happens_once_per_client():
    client, session = make_client([('GET', '/v2/shares/detail', ScriptedResponse(200, {'shares': []}))])
    client.get('shares/detail')
    client.negotiate()
    assert session.requests() == ['GET /', 'GET /v2/shares/detail']


def test_server_older_than_supported_fails_clearly():
    with pytest.raises(ConfigurationError) as err:
        make_client([], max_version='2.22')
    assert '2.22' in str(err.value) and '2.29' in str(err.value)


def test_cap_below_supported_fails_clearly():
    with pytest.raises(ConfigurationError) as err:
        make_client([], cap='2.10')
    assert '2.29' in str(err.value)


def test_server_without_microversions_fails_clearly():
    session = ScriptedSession([expect('GET', '/', ScriptedResponse(200, {'versions': [
        {'id': 'v2.0', 'status': 'CURRENT', 'version': '', 'min_version': ''}]}),
        version=None, authenticated=False)])
    client = ManilaClient(session, 'http://127.0.0.1:8786/v2')
    with pytest.raises(ConfigurationError) as err:
        client.negotiate()
    assert 'microversions' in str(err.value)


@pytest.mark.parametrize('endpoint, expected', [
    ('http://127.0.0.1:8786/v2', 'http://127.0.0.1:8786/'),
    ('http://127.0.0.1:8786/v2/', 'http://127.0.0.1:8786/'),
    ('http://127.0.0.1:8786/v2/7f1d2c', 'http://127.0.0.1:8786/'),
    ('https://cloud.example/share/v2/7f1d2c', 'https://cloud.example/share/'),
    ('https://cloud.example/share', 'https://cloud.example/share/'),
    ('http://127.0.0.1:8786', 'http://127.0.0.1:8786/'),
])
def test_versions_document_url_keeps_path_prefix(endpoint, expected):
    assert versions_document_url(endpoint) == expected


def test_endpoint_without_version_uses_versions_document_link():
    session = ScriptedSession([
        expect('GET', 'https://cloud.example/share/', versions_document(
            '2.99', base='https://cloud.example/share'), version=None, authenticated=False),
        expect('GET', 'https://cloud.example/share/v2/shares/detail',
               ScriptedResponse(200, {'shares': []}), version='2.99'),
    ])
    client = ManilaClient(session, 'https://cloud.example/share')
    client.get('shares/detail')
    assert session.calls[1].url == 'https://cloud.example/share/v2/shares/detail'


def test_every_request_carries_the_negotiated_version():
    client, session = make_client([('GET', '/v2/shares/abc', ScriptedResponse(200, {'share': {'id': 'abc'}}))],
                                  max_version='2.65')
    client.get('shares/abc')
    headers = session.calls[1].headers
    assert headers[VERSION_HEADER] == '2.65'
    assert EXPERIMENTAL_HEADER not in headers


@pytest.mark.parametrize('server_max, experimental', [('2.95', True), ('2.96', False), ('2.29', True)])
def test_experimental_header_only_where_needed(server_max, experimental):
    client, session = make_client([expect('POST', '/v2/shares/abc/action', ScriptedResponse(202),
                                          experimental=experimental)],
                                  max_version=server_max)
    client.action('shares/abc', 'migration_cancel', None, feature='migration')
    assert (EXPERIMENTAL_HEADER in session.calls[1].headers) is experimental


def test_feature_too_new_fails_before_any_request():
    client, session = make_client([], max_version='2.68')
    with pytest.raises(UnsupportedFeature) as err:
        client.action('shares/abc', 'soft_delete', None, feature='soft_delete')
    assert str(err.value) == 'soft delete needs Manila API 2.69; this cloud offers 2.68.'
    assert len(session.calls) == 1


def test_feature_refused_because_of_the_cap_says_so():
    client, _session = make_client([], max_version='2.99', cap='2.60')
    with pytest.raises(UnsupportedFeature) as err:
        client.require('soft_delete', 'soft_delete')
    assert 'capped at 2.60' in str(err.value) and '2.69' in str(err.value)


def test_manila_error_body_becomes_one_exception():
    body = {'itemNotFound': {'code': 404, 'message': 'Share abc could not be found.'}}
    client, _session = make_client([('GET', '/v2/shares/abc', ScriptedResponse(
        404, body, {'x-openstack-request-id': 'req-123'}))])
    with pytest.raises(NotFound) as err:
        client.get('shares/abc')
    assert err.value.status == 404
    assert err.value.message == 'Share abc could not be found.'
    assert err.value.request_id == 'req-123'
    assert 'req-123' in str(err.value) and 'GET /v2/shares/abc' in str(err.value)


def test_safe_reads_are_retried_on_5xx_and_connection_errors():
    client, session = make_client([
        ('GET', '/v2/shares/abc', ScriptedResponse(503, {'serviceUnavailable': {'message': 'busy'}})),
        ('GET', '/v2/shares/abc', ksa_exc.ConnectFailure('refused')),
        ('GET', '/v2/shares/abc', ScriptedResponse(200, {'share': {'id': 'abc'}})),
    ])
    assert client.get('shares/abc') == {'share': {'id': 'abc'}}
    assert len(session.calls) == 4


def test_reads_give_up_after_the_retries():
    client, session = make_client([('GET', '/v2/shares/abc', ScriptedResponse(503, {'serviceUnavailable': {'message': 'busy'}}))] * 4)
    with pytest.raises(ManilaError) as err:
        client.get('shares/abc')
    assert err.value.status == 503
    assert len(session.calls) == 5


def test_writes_are_never_retried():
    client, session = make_client([('POST', '/v2/shares', ScriptedResponse(503, {'serviceUnavailable': {'message': 'busy'}}))])
    with pytest.raises(ManilaError):
        client.post('shares', {'share': {}})
    assert len(session.calls) == 2


def test_lost_connection_on_write_is_reported_not_retried():
    client, session = make_client([('POST', '/v2/shares', ksa_exc.ConnectFailure('reset'))])
    with pytest.raises(AnswerLost) as err:
        client.post('shares', {'share': {}})
    assert 'No answer came to POST /v2/shares (reset)' in str(err.value)
    assert 'may or may not have applied it' in str(err.value)
    assert len(session.calls) == 2


def test_check_mode_blocks_writes_before_sending():
    client, session = make_client([], check_mode=True)
    for call in (lambda: client.post('shares', {}), lambda: client.put('shares/x', {}),
                 lambda: client.delete('shares/x')):
        with pytest.raises(CheckModeWrite):
            call()
    assert len(session.calls) == 1


def test_catalog_lookup_never_uses_the_v1_share_endpoint():
    catalog = [
        {'type': 'share', 'endpoints': [{'interface': 'public', 'region_id': 'R', 'url': 'http://h/v1'}]},
        {'type': 'sharev2', 'endpoints': [{'interface': 'internal', 'region_id': 'R', 'url': 'http://int/v2'},
                                          {'interface': 'public', 'region_id': 'R', 'url': 'http://h/v2'}]},
    ]
    assert find_catalog_endpoint(catalog, 'public', 'R') == 'http://h/v2'
    assert find_catalog_endpoint(catalog, 'internal', None) == 'http://int/v2'
    assert find_catalog_endpoint(catalog, 'admin', None) is None
    assert find_catalog_endpoint(catalog[:1], 'public', None) is None


def test_uuid_shape():
    assert looks_like_uuid('0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a')
    assert not looks_like_uuid('projects')
    assert not looks_like_uuid('')
