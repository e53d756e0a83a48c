# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Manila client: negotiation, and its request details one behaviour per
test: what is sent (path, query, body, headers), what an answer becomes, which
statuses are retried and how long the pauses are, and what the errors carry
besides their words."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime

import pytest

from keystoneauth1 import exceptions as ksa_exc

from ansible_collections.openkeel.manila.plugins.module_utils.client import (
    EXPERIMENTAL_HEADER,
    ManilaClient,
    VERSION_HEADER,
    versions_document_url,
    keystone_failure,
    keystone_retriable,
    negotiate,
    parse_versions_document,
    retry_after,
    was_not_sent,
    with_keystone_retries,
)
from ansible_collections.openkeel.manila.plugins.module_utils.connection import find_catalog_endpoint
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    AnswerLost,
    CheckModeWrite,
    ConfigurationError,
    ManilaError,
    NotApplied,
    NotFound,
    UnsupportedFeature,
)
from ansible_collections.openkeel.manila.plugins.module_utils.lookups import looks_like_uuid
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    FailsThen,
    FakeClock,
    ScriptedResponse,
    ScriptedSession,
    expect,
    make_client,
    versions_document,
    versions_exchange,
)
from ansible_collections.openkeel.manila.plugins.module_utils import client as client_module
from ansible_collections.openkeel.manila.plugins.module_utils.microversions import APIVersion


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


LOST = ksa_exc.ConnectFailure("Unable to establish connection to http://m/v2/x: "
                              "('Connection aborted.', RemoteDisconnected('closed'))")
REFUSED = ksa_exc.ConnectFailure("Max retries exceeded (Caused by NewConnectionError("
                                 "'<conn>: Failed to establish a new connection'))")


class Headers(object):
    def __init__(self, **headers):
        self.headers = headers


def error(status, message='injected', headers=None):
    return ScriptedResponse(status, {'badRequest': {'code': status, 'message': message}},
                            headers=headers)


# -- retry_after ---------------------------------------------------------------------

@pytest.mark.parametrize('headers,expected', [
    ({'Retry-After': '7'}, 7.0),
    ({'retry-after': '3'}, 3.0),
    ({'Retry-After': ' 2.5 '}, 2.5),
    ({'Retry-After': '-4'}, 0.0),
    ({'Retry-After': '0'}, 0.0),
    ({'Retry-After': 'soon'}, None),
    ({}, None),
])
def test_retry_after_values(headers, expected):
    assert retry_after(Headers(**headers)) == expected


def test_retry_after_without_headers_at_all():
    assert retry_after(object()) is None
    assert retry_after(Headers()) is None


def test_retry_after_dates_with_and_without_zone():
    now = datetime.datetime(2026, 1, 1, 12, 0, 0, tzinfo=datetime.timezone.utc)
    assert retry_after(Headers(**{'Retry-After': 'Thu, 01 Jan 2026 12:00:30 GMT'}), now=now) == 30.0
    # -0000: no zone given; taken as UTC
    assert retry_after(Headers(**{'Retry-After': 'Thu, 01 Jan 2026 12:00:10 -0000'}), now=now) == 10.0
    # a date in the past asks for no pause
    assert retry_after(Headers(**{'Retry-After': 'Thu, 01 Jan 2026 11:00:00 GMT'}), now=now) == 0.0


def test_retry_after_date_against_the_real_clock():
    later = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=100)
    value = later.strftime('%a, %d %b %Y %H:%M:%S -0000')
    assert 90 < retry_after(Headers(**{'Retry-After': value})) <= 100


# -- connection errors and Keystone -------------------------------------------------------

@pytest.mark.parametrize('exc,expected', [
    (REFUSED, True),
    (ksa_exc.ConnectFailure('Failed to establish a new connection: refused'), True),
    (ksa_exc.ConnectFailure('NewConnectionError'), True),
    (LOST, False),
    (ksa_exc.ConnectTimeout('Failed to establish a new connection'), True),
    (ValueError('Failed to establish a new connection'), False),
])
def test_was_not_sent(exc, expected):
    assert was_not_sent(exc) is expected


@pytest.mark.parametrize('exc,expected', [
    (ksa_exc.ConnectFailure('reset'), True),
    (ksa_exc.ServiceUnavailable(), True),
    (ksa_exc.InternalServerError(), True),
    (ksa_exc.BadGateway(), True),
    (ksa_exc.GatewayTimeout(), True),
    (ksa_exc.HttpError(http_status=429), True),
    (ksa_exc.Unauthorized(), False),
    (ksa_exc.NotFound(), False),
    (ValueError('x'), False),
])
def test_keystone_retriable(exc, expected):
    assert keystone_retriable(exc) is expected


def test_keystone_failure_keeps_keystones_status():
    assert keystone_failure(ksa_exc.ServiceUnavailable(), 5).status == 503
    assert keystone_failure(ksa_exc.Unauthorized()).status == 401
    assert '5 times' in str(keystone_failure(ksa_exc.ServiceUnavailable(), 5))
    assert 'times' not in str(keystone_failure(ksa_exc.ServiceUnavailable()))


def test_keystone_retry_after_is_obeyed_up_to_the_maximum():
    slow = ksa_exc.ServiceUnavailable()
    slow.retry_after = '3'
    very_slow = ksa_exc.ServiceUnavailable()
    very_slow.retry_after = 600
    clock = FakeClock()
    call = FailsThen('token', slow, very_slow, ksa_exc.ServiceUnavailable())
    assert with_keystone_retries(call, sleep=clock.sleep) == 'token'
    assert clock.sleeps == [3.0, client_module.MAX_RETRY_AFTER, 2.0]


def test_keystone_attempts_are_exactly_the_number_asked_for():
    clock = FakeClock()
    call = FailsThen('token', *[ksa_exc.ServiceUnavailable() for _i in range(3)])
    with pytest.raises(ConfigurationError) as err:
        with_keystone_retries(call, sleep=clock.sleep, attempts=3)
    assert call.calls == 3 and clock.sleeps == [0.5, 1.0]
    assert err.value.status == 503 and 'failed 3 times' in str(err.value)
    # one more error than attempts - 1: it succeeds on the last attempt
    call = FailsThen('token', *[ksa_exc.ServiceUnavailable() for _i in range(2)])
    assert with_keystone_retries(call, sleep=FakeClock().sleep, attempts=3) == 'token'


def test_a_wrong_password_fails_at_once_with_status_401():
    call = FailsThen('token', ksa_exc.Unauthorized('no'))
    with pytest.raises(ConfigurationError) as err:
        with_keystone_retries(call, sleep=FakeClock().sleep)
    assert call.calls == 1 and err.value.status == 401


# -- negotiation details -----------------------------------------------------------------

def test_parse_versions_document_prefers_the_current_v2_entry():
    body = {'versions': [
        {'id': 'v2.0', 'status': 'SUPPORTED', 'version': '2.50', 'min_version': '2.1'},
        {'id': 'v2.0', 'status': 'CURRENT', 'version': '2.70', 'min_version': '2.3',
         'links': [{'rel': 'describedby', 'href': 'http://docs'},
                   {'rel': 'self', 'href': 'http://m/v2/'}]},
        {'id': 'v1.0', 'status': 'CURRENT', 'version': '1.9'},
    ]}
    assert parse_versions_document(body) == (APIVersion('2.3'), APIVersion('2.70'), 'http://m/v2/')


def test_parse_versions_document_single_version_and_defaults():
    low, high, link = parse_versions_document({'version': {'id': 'v2.0', 'version': '2.60'}})
    assert (low, high, link) == (APIVersion('2.0'), APIVersion('2.60'), None)
    # the first v2 entry counts when none is CURRENT
    low, high, _link = parse_versions_document({'versions': [
        {'id': 'v2.0', 'status': 'SUPPORTED', 'version': '2.40'},
        {'id': 'v2.1', 'status': 'SUPPORTED', 'version': '2.45'}]})
    assert high == APIVersion('2.40')


@pytest.mark.parametrize('body,needle', [
    ({}, 'without a versions list'),
    ([], 'without a versions list'),
    ({'versions': []}, 'without a versions list'),
    ({'versions': [{'id': 'v1.0', 'version': '1.0'}, {'id': 'x'}]}, 'versions: v1.0, x'),
    ({'versions': [{'id': 'v2.0', 'version': ''}]}, 'no microversions'),
])
def test_parse_versions_document_errors(body, needle):
    with pytest.raises(ConfigurationError) as err:
        parse_versions_document(body)
    assert needle in str(err.value)


@pytest.mark.parametrize('low,high,cap,expected', [
    ('2.0', '2.99', None, '2.99'),
    ('2.0', '2.99', '2.29', '2.29'),
    ('2.0', '2.50', '2.60', '2.50'),
    ('2.29', '2.29', None, '2.29'),
])
def test_negotiate_edges(low, high, cap, expected):
    assert negotiate(APIVersion(low), APIVersion(high), cap) == APIVersion(expected)


def test_negotiate_below_the_servers_minimum():
    with pytest.raises(ConfigurationError) as err:
        negotiate(APIVersion('2.40'), APIVersion('2.99'), '2.30')
    assert 'older than the oldest version this Manila offers (2.40)' in str(err.value)


def test_negotiate_cap_just_below_the_minimum():
    with pytest.raises(ConfigurationError):
        negotiate(APIVersion('2.0'), APIVersion('2.99'), '2.28')
    with pytest.raises(ConfigurationError):
        negotiate(APIVersion('2.0'), APIVersion('2.28'))


def test_a_bad_cap_is_a_configuration_error():
    session = ScriptedSession([versions_exchange('2.99')])
    client = ManilaClient(session, 'http://127.0.0.1:8786/v2', api_version_cap='two')
    with pytest.raises(ConfigurationError) as err:
        client.negotiate()
    assert str(err.value).startswith('api_version: ')


@pytest.mark.parametrize('status', [200, 300])
def test_the_versions_document_may_be_200_or_300(status):
    doc = versions_document('2.70')
    session = ScriptedSession([expect('GET', '/', ScriptedResponse(status, doc.json()),
                                      version=None, authenticated=False)])
    client = ManilaClient(session, 'http://127.0.0.1:8786/v2')
    assert client.negotiate() == APIVersion('2.70')
    assert (client.server_min, client.server_max) == (APIVersion('2.0'), APIVersion('2.70'))
    assert client.base_url == 'http://127.0.0.1:8786/v2'


def test_a_versions_document_error_is_raised():
    session = ScriptedSession([expect('GET', '/', error(404), version=None,
                                      authenticated=False)])
    with pytest.raises(ManilaError) as err:
        ManilaClient(session, 'http://127.0.0.1:8786/v2').negotiate()
    assert err.value.status == 404


def test_a_versions_document_that_is_not_json():
    response = ScriptedResponse(300)
    session = ScriptedSession([expect('GET', '/', response, version=None, authenticated=False)])
    with pytest.raises(ConfigurationError) as err:
        ManilaClient(session, 'http://127.0.0.1:8786/v2').negotiate()
    assert 'http://127.0.0.1:8786/' in str(err.value)


@pytest.mark.parametrize('endpoint,link,base', [
    ('http://m:8786/v2/', None, 'http://m:8786/v2'),
    ('http://m:8786/v2/proj', None, 'http://m:8786/v2/proj'),
    ('http://m:8786/v2.1', None, 'http://m:8786/v2.1'),
    ('http://m:8786', 'http://m:8786/v2/', 'http://m:8786/v2'),
    ('http://m:8786/share', None, 'http://m:8786/share/v2'),
    ('http://m:8786/v20x', None, 'http://m:8786/v20x/v2'),
])
def test_the_api_base(endpoint, link, base):
    client = ManilaClient(None, endpoint)
    assert client._api_base(link) == base


def test_negotiation_uses_no_token_and_later_requests_do():
    client, session = make_client([
        expect('GET', '/v2/shares', ScriptedResponse(200, {'shares': []}))])
    client.get('shares')
    assert session.calls[0].authenticated is False and session.calls[1].authenticated is True


# -- require --------------------------------------------------------------------------------

def test_require_names_what_and_the_offer():
    client, _session = make_client([], max_version='2.50')
    with pytest.raises(UnsupportedFeature) as err:
        client.require('access_rule_locks', 'Locks')
    assert str(err.value) == 'Locks needs Manila API 2.82; this cloud offers 2.50.'
    with pytest.raises(UnsupportedFeature) as err:
        client.require('access_rule_locks')
    assert str(err.value).startswith('access rule locks needs')


def test_require_says_when_the_cap_is_the_reason():
    client, _session = make_client([], max_version='2.99', cap='2.50')
    with pytest.raises(UnsupportedFeature) as err:
        client.require('access_rule_locks')
    assert 'api_version is capped at 2.50 (the cloud offers 2.99)' in str(err.value)
    # a cap no lower than what the cloud offers is not the reason
    client, _session = make_client([], max_version='2.50', cap='2.50')
    with pytest.raises(UnsupportedFeature) as err:
        client.require('access_rule_locks')
    assert 'this cloud offers 2.50' in str(err.value)


# -- requests ----------------------------------------------------------------------------------

def test_queries_drop_none_and_keep_order():
    client, _session = make_client([
        expect('GET', '/v2/shares?b=2&a=x+y', ScriptedResponse(200, {})),
        expect('GET', '/v2/shares', ScriptedResponse(200, {})),
        expect('GET', '/v2/shares', ScriptedResponse(200, {})),
    ])
    client.get('/shares', query={'b': 2, 'c': None, 'a': 'x y'})
    client.get('shares', query={'c': None})
    client.get('shares', query={})


def test_request_headers_and_body():
    client, session = make_client([
        expect('POST', '/v2/shares', ScriptedResponse(202, {'share': {'id': 'x'}}),
               body={'share': {'size': 1}}),
        expect('PUT', '/v2/shares/x', ScriptedResponse(200, {'share': {}}), body={'a': 1}),
        expect('DELETE', '/v2/shares/x', ScriptedResponse(202)),
    ])
    assert client.post('shares', {'share': {'size': 1}}) == {'share': {'id': 'x'}}
    assert client.put('shares/x', {'a': 1}) == {'share': {}}
    assert client.delete('shares/x') == {}
    for call in session.calls[1:]:
        assert call.headers['Accept'] == 'application/json'
        assert call.headers['X-OpenStack-Manila-API-Version'] == '2.99'
    assert 'json' not in str(session.calls[3].body)


def test_an_action_posts_to_the_action_path():
    client, session = make_client([
        expect('POST', '/v2/shares/x/action', ScriptedResponse(202), body={'extend': {'new_size': 2}}),
        expect('POST', '/v2/shares/x/action', ScriptedResponse(200, {'access_list': []}),
               body={'access_list': None}),
    ], check_mode=False)
    assert client.action('shares/x/', 'extend', {'new_size': 2}) == {}
    assert client.action('shares/x', 'access_list') == {'access_list': []}


def test_check_mode_allows_reads_and_read_only_actions_only():
    client, session = make_client([
        expect('GET', '/v2/shares', ScriptedResponse(200, {'shares': []})),
        expect('POST', '/v2/shares/x/action', ScriptedResponse(200, {'access_list': []})),
    ], check_mode=True)
    client.get('shares')
    client.action('shares/x', 'access_list', read_only=True)
    for call in (lambda: client.post('shares', {}), lambda: client.put('shares/x', {}),
                 lambda: client.delete('shares/x'),
                 lambda: client.action('shares/x', 'extend', {})):
        with pytest.raises(CheckModeWrite):
            call()
    assert len(session.calls) == 3


@pytest.mark.parametrize('status', [200, 201, 202, 204])
def test_success_statuses(status):
    client, _session = make_client([expect('POST', '/v2/x', ScriptedResponse(status, {'a': 1}))])
    assert client.post('x', {}) == ({} if status == 204 else {'a': 1})


def test_a_status_outside_ok_is_an_error_and_ok_can_be_widened():
    client, _session = make_client([
        expect('GET', '/v2/x', ScriptedResponse(300, {'a': 1})),
        expect('GET', '/v2/x', ScriptedResponse(300, {'a': 1})),
    ])
    with pytest.raises(ManilaError) as err:
        client.get('x')
    assert err.value.status == 300
    assert client.request('GET', 'x', ok=(300,)) == {'a': 1}


def test_an_empty_or_unreadable_body_is_an_empty_dict():
    empty = ScriptedResponse(200)
    client, _session = make_client([expect('GET', '/v2/x', empty)])
    assert client.get('x') == {}

    class NotJSON(ScriptedResponse):
        def json(self):
            raise ValueError('no')
    client, _session = make_client([expect('GET', '/v2/z', NotJSON(200, {'a': 1}))])
    assert client.get('z') == {}
    client, _session = make_client([expect('GET', '/v2/y', ScriptedResponse(200, {'a': 1}))])
    assert client.get('y') == {'a': 1}


def test_a_feature_call_is_checked_before_anything_is_sent():
    client, session = make_client([], max_version='2.50')
    with pytest.raises(UnsupportedFeature):
        client.get('x', feature='access_rule_locks')
    with pytest.raises(UnsupportedFeature):
        client.post('x', {}, feature='access_rule_locks')
    with pytest.raises(UnsupportedFeature):
        client.put('x', {}, feature='access_rule_locks')
    with pytest.raises(UnsupportedFeature):
        client.delete('x', feature='access_rule_locks')
    with pytest.raises(UnsupportedFeature):
        client.action('x', 'y', feature='access_rule_locks')
    assert len(session.calls) == 1


def test_experimental_header_passes_through_every_verb():
    exchanges = [expect(m, '/v2/x' + ('/action' if a else ''), ScriptedResponse(200, {}),
                        experimental=True)
                 for m, a in (('GET', 0), ('POST', 0), ('PUT', 0), ('DELETE', 0), ('POST', 1))]
    client, _session = make_client(exchanges, max_version='2.95')
    client.get('x', feature='migration')
    client.post('x', {}, feature='migration')
    client.put('x', {}, feature='migration')
    client.delete('x', feature='migration')
    client.action('x', 'migration_start', {}, feature='migration')


# -- retries of _send ---------------------------------------------------------------------------

@pytest.mark.parametrize('status', [500, 502, 503, 504, 429])
def test_each_retriable_read_status_is_retried(status):
    clock = FakeClock()
    client, _session = make_client([
        expect('GET', '/v2/x', error(status)),
        expect('GET', '/v2/x', ScriptedResponse(200, {'ok': 1})),
    ], clock=clock)
    assert client.get('x') == {'ok': 1}
    assert clock.sleeps == [0.5]


@pytest.mark.parametrize('status', [400, 401, 403, 404, 409, 501])
def test_other_statuses_are_not_retried(status):
    client, _session = make_client([expect('GET', '/v2/x', error(status))])
    with pytest.raises(ManilaError) as err:
        client.get('x')
    assert err.value.status == status


def test_read_retries_back_off_and_stop_at_the_last():
    clock = FakeClock()
    client, session = make_client([expect('GET', '/v2/x', error(500)) for _i in range(4)],
                                  clock=clock)
    with pytest.raises(ManilaError) as err:
        client.get('x')
    assert err.value.status == 500 and clock.sleeps == [0.5, 1.0, 2.0] and len(session.calls) == 5


def test_retry_after_sets_the_pause_with_a_floor():
    clock = FakeClock()
    client, _session = make_client([
        expect('GET', '/v2/x', error(503, headers={'Retry-After': '5'})),
        expect('GET', '/v2/x', error(429, headers={'Retry-After': '0'})),
        expect('GET', '/v2/x', error(500, headers={'Retry-After': '9'})),
        expect('GET', '/v2/x', ScriptedResponse(200, {})),
    ], clock=clock)
    client.get('x')
    # 500 is retried, but its Retry-After is not read; the backoff doubles every time
    assert clock.sleeps == [5.0, 0.1, 2.0]


def test_connection_errors_on_reads_back_off_and_end_with_the_connection_error():
    clock = FakeClock()
    client, session = make_client([expect('GET', '/v2/x', LOST) for _i in range(4)], clock=clock)
    with pytest.raises(ManilaError) as err:
        client.get('x')
    assert not isinstance(err.value, AnswerLost)
    assert 'Could not connect' in str(err.value) and err.value.method == 'GET'
    assert clock.sleeps == [0.5, 1.0, 2.0]


def test_a_write_that_never_left_is_retried_and_one_that_left_is_lost():
    clock = FakeClock()
    client, session = make_client([
        expect('POST', '/v2/x', REFUSED),
        expect('POST', '/v2/x', ScriptedResponse(202, {'a': 1})),
        expect('DELETE', '/v2/x', LOST),
    ], clock=clock)
    assert client.post('x', {}) == {'a': 1}
    with pytest.raises(AnswerLost) as err:
        client.delete('x')
    assert err.value.method == 'DELETE' and err.value.url == 'http://127.0.0.1:8786/v2/x'
    assert err.value.cause is LOST and clock.sleeps == [0.5]


def test_other_transport_errors_are_not_retried():
    client, session = make_client([expect('GET', '/v2/x', ksa_exc.SSLError('bad cert'))])
    with pytest.raises(ManilaError) as err:
        client.get('x')
    assert 'bad cert' in str(err.value) and len(session.calls) == 2


def test_a_write_5xx_is_returned_as_it_is_without_a_retry():
    client, session = make_client([expect('PUT', '/v2/x', error(503))])
    with pytest.raises(ManilaError) as err:
        client.put('x', {})
    assert err.value.status == 503 and len(session.calls) == 2


# -- write_once ------------------------------------------------------------------------------

class Script(object):
    """send(): raises or returns the next item; observe(): the same from its own list."""

    def __init__(self, sends, observes):
        self.sends, self.observes = list(sends), list(observes)
        self.sent = self.observed = 0

    def send(self):
        self.sent += 1
        item = self.sends.pop(0)
        if isinstance(item, Exception):
            raise item
        return item

    def observe(self):
        self.observed += 1
        item = self.observes.pop(0)
        if isinstance(item, Exception):
            raise item
        return item


def lost():
    return AnswerLost('no answer', method='POST', url='http://m/v2/x', cause=LOST)


def refused(status=503):
    return ManilaError('busy', status=status, request_id='req-1', method='POST', url='http://m/v2/x')


def client_on(clock):
    return ManilaClient(None, 'http://m/v2', sleep=clock.sleep, clock=clock)


def test_write_once_lost_answer_looks_three_times_with_pauses():
    clock = FakeClock()
    client = client_on(clock)
    script = Script([lost()], [None, None, None])
    with pytest.raises(NotApplied) as err:
        client.write_once(script.send, script.observe, 'the create of x')
    assert script.observed == 3 and clock.sleeps == [1.0, 2.0]
    assert ', and 3 seconds later' in str(err.value) and 'the create of x' in str(err.value)
    assert err.value.method == 'POST' and err.value.url == 'http://m/v2/x'
    assert 'Connection aborted' in str(err.value)


def test_write_once_lost_answer_without_a_cause_names_the_message():
    clock = FakeClock()
    client = client_on(clock)
    script = Script([AnswerLost('timed out')], [None, 'it'])
    assert client.write_once(script.send, script.observe, 'the create of x') == 'it'
    assert clock.sleeps == [1.0]
    assert client.warnings == ['No answer came to the create of x (timed out); Manila shows '
                               'that it took effect, so the task went on from there.']


def test_write_once_5xx_seen_applied():
    clock = FakeClock()
    client = client_on(clock)
    script = Script([refused()], ['made'])
    assert client.write_once(script.send, script.observe, 'the create of x') == 'made'
    assert script.sent == 1 and clock.sleeps == []
    assert client.warnings[0].startswith('The create of x was answered with HTTP 503')


def test_write_once_5xx_then_success():
    clock = FakeClock()
    client = client_on(clock)
    script = Script([refused(500), 'made'], [None])
    assert client.write_once(script.send, script.observe, 'the create of x') == 'made'
    assert script.sent == 2 and clock.sleeps == [0.5]
    assert 'refused once with HTTP 500' in client.warnings[0]


def test_write_once_5xx_twice_then_seen():
    client = client_on(FakeClock())
    script = Script([refused(502), refused(504)], [None, 'made'])
    assert client.write_once(script.send, script.observe, 'x') == 'made'
    assert 'answered with HTTP 504 twice' in client.warnings[0]


def test_write_once_5xx_twice_not_applied_carries_the_last_answer():
    client = client_on(FakeClock())
    script = Script([refused(502), refused(504)], [None, None])
    with pytest.raises(NotApplied) as err:
        client.write_once(script.send, script.observe, 'x')
    assert err.value.status == 504 and err.value.request_id == 'req-1'
    assert err.value.method == 'POST' and err.value.url == 'http://m/v2/x'


def test_write_once_5xx_then_another_error_is_raised():
    client = client_on(FakeClock())
    script = Script([refused(503), refused(409)], [None])
    with pytest.raises(ManilaError) as err:
        client.write_once(script.send, script.observe, 'x')
    assert err.value.status == 409 and client.warnings == []


def test_write_once_5xx_then_lost():
    client = client_on(FakeClock())
    script = Script([refused(503), lost()], [None, 'made'])
    assert client.write_once(script.send, script.observe, 'x') == 'made'
    assert script.sent == 2


@pytest.mark.parametrize('status', [400, 404, 409, 429])
def test_write_once_raises_non_5xx_as_they_are(status):
    client = client_on(FakeClock())
    script = Script([refused(status)], [])
    with pytest.raises(ManilaError) as err:
        client.write_once(script.send, script.observe, 'x')
    assert err.value.status == status and script.observed == 0


def test_an_observe_that_fails_keeps_its_status_and_request_id():
    client = client_on(FakeClock())
    script = Script([lost()], [ManilaError('down', status=500, request_id='req-9')])
    with pytest.raises(ManilaError) as err:
        client.write_once(script.send, script.observe, 'the create of x')
    assert err.value.status == 500 and err.value.request_id == 'req-9'
    assert str(err.value).startswith('The create of x got no answer')


def test_warnings_are_kept_once():
    client = client_on(FakeClock())
    client.warn('a')
    client.warn('a')
    client.warn('b')
    assert client.warnings == ['a', 'b']


def test_capital():
    assert client_module._capital('the create') == 'The create'
    assert client_module._capital('') == ''
    assert client_module._capital('aBC') == 'ABC'


def test_a_retry_after_of_exactly_the_maximum_is_waited_for():
    clock = FakeClock()
    client, _session = make_client([
        expect('GET', '/v2/x', error(503, headers={'Retry-After': '60'})),
        expect('GET', '/v2/x', ScriptedResponse(200, {})),
    ], clock=clock)
    client.get('x')
    assert clock.sleeps == [60.0]


def test_an_endpoint_without_a_version_follows_the_self_link():
    doc = versions_document('2.70', base='http://127.0.0.1:8786/manila')
    session = ScriptedSession([expect('GET', '/', doc, version=None, authenticated=False)])
    client = ManilaClient(session, 'http://127.0.0.1:8786')
    client.negotiate()
    assert client.base_url == 'http://127.0.0.1:8786/manila/v2'


# -- slow answers: how long Manila takes to answer writes ----------------------------------------

@pytest.mark.parametrize('method,path,body,kind', [
    ('POST', 'shares', {'share': {}}, 'POST shares'),
    ('DELETE', '/shares/0b7f3ad2-7b1c-4f3e-9e58-2d1f4a6c1b20', None, 'DELETE shares/{id}'),
    ('POST', 'shares/0b7f3ad2-7b1c-4f3e-9e58-2d1f4a6c1b20/action', {'allow_access': {}},
     'POST shares/{id}/action (allow_access)'),
    ('PUT', 'quota-sets/5c1d0f9e3a2b4c6d8e7f9a0b1c2d3e4f?share_type=gold', {}, 'PUT quota-sets/{id}'),
    ('POST', 'shares/12/action', {}, 'POST shares/{id}/action'),
])
def test_write_kind(method, path, body, kind):
    assert client_module.write_kind(method, path, body) == kind


def test_answer_times_compare_medians_per_kind_once_both_windows_are_full():
    times = client_module.AnswerTimes()
    assert (times.first, times.recent, times.factor) == (5, 5, 2.0)
    for seconds in (0.4, 0.5, 0.5, 0.6, 3.0):   # a slow one among the first
        times.record('POST shares', seconds)
    for seconds in (0.1, 0.1, 0.1, 0.1):
        times.record('POST shares/{id}/action (allow_access)', seconds)
    for seconds in (1.2, 1.2, 1.2, 1.2):
        times.record('POST shares', seconds)
    assert times.slower() is None                # four of the latest five so far
    times.record('POST shares', 0.9)
    assert times.slower() == ('POST shares answered in 1.20 s (the median of the last 5) '
                              'against 0.50 s at first')
    for seconds in (5.0, 0.5, 0.5):              # one slow answer is no trend
        times.record('POST shares', seconds)
    assert times.slower() is None
    # rules: the fifth of their first answers, then slower than rules were (not than creates)
    for seconds in (0.1, 0.25, 0.25, 0.25, 0.25):
        times.record('POST shares/{id}/action (allow_access)', seconds)
    assert times.slower() is None
    times.record('POST shares/{id}/action (allow_access)', 0.3)
    assert times.slower() == ('POST shares/{id}/action (allow_access) answered in 0.25 s (the '
                              'median of the last 5) against 0.10 s at first')


UUID = '0b7f3ad2-7b1c-4f3e-9e58-2d1f4a6c1b20'


def test_the_client_times_only_the_writes_manila_accepted():
    clock = FakeClock()
    client, _session = make_client([
        expect('GET', '/v2/shares/detail', ScriptedResponse(200, {'shares': []}), takes=4),
        expect('POST', '/v2/shares/abc/action', ScriptedResponse(200, {'access_list': []}),
               takes=4),
        expect('POST', '/v2/shares', error(400), takes=4),
        expect('POST', '/v2/shares', ScriptedResponse(429, {}, {'Retry-After': '1'}), takes=4),
        expect('POST', '/v2/shares', ScriptedResponse(202, {'share': {}}), takes=0.25),
        expect('DELETE', '/v2/shares/%s' % UUID, ScriptedResponse(202), takes=2),
    ], clock=clock)
    client.get('shares/detail')
    client.action('shares/abc', 'access_list', read_only=True)
    with pytest.raises(ManilaError):
        client.post('shares', {'share': {}})
    client.post('shares', {'share': {}})
    client.delete('shares/%s' % UUID)
    assert dict((kind, list(first) + list(latest)) for kind, (first, latest)
                in client.answer_times.kinds.items()) == {
        'POST shares': [0.25], 'DELETE shares/{id}': [2.0]}


# -- more details: what the user sees of links, prefixes, Keystone and recoveries ---------------

def test_parse_versions_document_takes_the_self_link_only():
    body = {'versions': [{'id': 'v2.0', 'status': 'CURRENT', 'version': '2.70', 'links': [
        {'rel': 'self', 'href': 'http://m/v2/'},
        {'rel': 'describedby', 'href': 'http://docs'},
        {'rel': 'self'}]}]}
    assert parse_versions_document(body)[2] == 'http://m/v2/'


@pytest.mark.parametrize('endpoint, expected', [
    ('https://cloud.example/BOX/v2', 'https://cloud.example/BOX/'),
    ('https://cloud.example/BOX', 'https://cloud.example/BOX/'),
    ('https://cloud.example/share//v2', 'https://cloud.example/share/'),
])
def test_versions_document_url_keeps_the_prefix_as_it_is(endpoint, expected):
    assert versions_document_url(endpoint) == expected


@pytest.mark.parametrize('endpoint,link,base', [
    ('http://m:8786/BOX', None, 'http://m:8786/BOX/v2'),
    ('http://m:8786', 'http://m:8786/BOX/', 'http://m:8786/BOX'),
])
def test_the_api_base_keeps_the_prefix_as_it_is(endpoint, link, base):
    assert ManilaClient(None, endpoint)._api_base(link) == base


def test_write_kind_names_every_key_of_an_action_body():
    assert client_module.write_kind('POST', 'shares/12/action', {'b': 1, 'a': 2}) == \
        'POST shares/{id}/action (a, b)'


def test_answer_times_look_at_every_kind_and_need_more_than_the_factor():
    times = client_module.AnswerTimes()
    for seconds in (1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 2.0):
        times.record('POST shares', seconds)
    # 'DELETE shares/{id}' comes first by name and has too few answers: it is skipped
    times.record('DELETE shares/{id}', 1.0)
    # exactly twice as slow is not slower
    assert times.slower() is None
    times.record('POST shares', 2.5)
    times.record('POST shares', 2.5)
    times.record('POST shares', 2.5)
    assert times.slower() == ('POST shares answered in 2.50 s (the median of the last 5) '
                              'against 1.00 s at first')


def test_accepted_writes_are_recorded_with_their_action_and_timed_per_action():
    clock = FakeClock()
    client, _session = make_client([
        expect('POST', '/v2/shares', ScriptedResponse(202, {'share': {}}), takes=1),
        expect('PUT', '/v2/shares/%s' % UUID, ScriptedResponse(200, {'share': {}}), takes=2),
        expect('POST', '/v2/shares/%s/action' % UUID, ScriptedResponse(202), takes=3,
               body={'extend': {'new_size': 2}}),
        expect('POST', '/v2/shares/%s/action/' % UUID, ScriptedResponse(202),
               body={'shrink': {'new_size': 1}}),
        expect('POST', '/v2/shares/%s/action' % UUID, ScriptedResponse(300, {}),
               body={'revert': None}),
    ], clock=clock)
    client.post('/shares', {'share': {}})
    client.put('shares/%s' % UUID, {'share': {}})
    client.action('shares/%s' % UUID, 'extend', {'new_size': 2})
    client.request('POST', 'shares/%s/action/' % UUID, body={'shrink': {'new_size': 1}})
    # an answer outside 2xx that the caller accepts is recorded but not timed
    client.request('POST', 'shares/%s/action' % UUID, body={'revert': None}, ok=(300,))
    assert client.accepted == [
        'POST shares', 'PUT shares/%s' % UUID, 'POST shares/%s/action (extend)' % UUID,
        'POST shares/%s/action/ (shrink)' % UUID, 'POST shares/%s/action (revert)' % UUID]
    assert dict((kind, list(first) + list(latest)) for kind, (first, latest)
                in client.answer_times.kinds.items()) == {
        'POST shares': [1.0], 'PUT shares/{id}': [2.0],
        'POST shares/{id}/action (extend)': [3.0],
        'POST shares/{id}/action (shrink)': [0.0]}


def test_record_write_names_every_key_of_an_action_body():
    client = ManilaClient(None, 'http://m/v2')
    client.record_write('POST', '/shares/x/action', {'b': 1, 'a': 2})
    assert client.accepted == ['POST shares/x/action (a, b)']


def test_a_versions_document_error_names_the_request():
    session = ScriptedSession([expect('GET', '/', error(404, 'no such thing'), version=None,
                                      authenticated=False)])
    with pytest.raises(ManilaError) as err:
        ManilaClient(session, 'http://127.0.0.1:8786/v2').negotiate()
    assert (err.value.method, err.value.url) == ('GET', 'http://127.0.0.1:8786/')
    assert str(err.value) == 'no such thing (HTTP 404 on GET /)'


def test_another_transport_error_names_the_request():
    client, _session = make_client([expect('GET', '/v2/x', ksa_exc.SSLError('bad cert'))])
    with pytest.raises(ManilaError) as err:
        client.get('x')
    assert (err.value.method, err.value.url) == ('GET', 'http://127.0.0.1:8786/v2/x')


def test_the_last_connection_error_of_a_read_names_the_url():
    client, _session = make_client([expect('GET', '/v2/x', LOST) for _i in range(4)])
    with pytest.raises(ManilaError) as err:
        client.get('x')
    assert err.value.url == 'http://127.0.0.1:8786/v2/x'
    assert str(err.value).startswith('Could not connect to http://127.0.0.1:8786/v2/x: ')


def rate_limited(message, wait):
    return ScriptedResponse(429, {'overLimit': {'code': 429, 'message': message}},
                            headers={'Retry-After': wait})


def test_a_rate_limit_that_asks_for_the_maximum_every_time_is_refused_n_times():
    clock = FakeClock()
    client, _session = make_client(
        [expect('GET', '/v2/x', rate_limited('Only 10 requests a minute for project X.', '60'))
         for _i in range(4)], clock=clock)
    with pytest.raises(ManilaError) as err:
        client.get('x')
    assert clock.sleeps == [60.0, 60.0, 60.0]
    assert err.value.message == (
        "Manila's rate limit refused it 4 times in a row: Only 10 requests a minute for "
        "project X. The request never reached Manila's API, so nothing was changed by it; "
        'run the task again later, or with a lower concurrency.')


# -- Keystone lookups ---------------------------------------------------------------------------

KEYSTONE = 'http://127.0.0.1:5000/v3/'


def test_keystone_get_asks_keystone_for_json_without_a_microversion():
    client, session = make_client([
        expect('GET', 'http://127.0.0.1:5000/v3/projects?domain_id=default&name=demo',
               ScriptedResponse(200, {'projects': [{'id': 'p1'}]}), version=None),
    ])
    client.identity_url = lambda: KEYSTONE
    assert client.keystone_get('/projects', {'name': 'demo', 'domain_id': 'default'}) == {
        'projects': [{'id': 'p1'}]}
    assert session.calls[-1].headers == {'Accept': 'application/json'}
    assert client.identity_url == KEYSTONE


def test_keystone_get_errors_name_the_request():
    client, _session = make_client([
        expect('GET', 'http://127.0.0.1:5000/v3/projects/p1',
               ScriptedResponse(403, {'error': {'code': 403, 'message': 'not allowed'}}),
               version=None),
    ])
    client.identity_url = KEYSTONE
    with pytest.raises(ManilaError) as err:
        client.keystone_get('projects/p1')
    assert err.value.status == 403
    assert (err.value.method, err.value.url) == ('GET', 'http://127.0.0.1:5000/v3/projects/p1')
    assert str(err.value) == 'not allowed (HTTP 403 on GET /v3/projects/p1)'


def test_keystone_get_without_a_keystone_endpoint_fails_before_sending():
    client, session = make_client([])
    client.identity_url = lambda: None
    with pytest.raises(ConfigurationError) as err:
        client.keystone_get('projects')
    assert str(err.value) == ('No Keystone endpoint is known for this cloud (neither in the '
                              'service catalog nor as auth_url), so projects cannot be '
                              'looked up.')
    assert len(session.calls) == 1


def test_keystone_get_needs_an_identity_endpoint_and_maps_errors():
    client, session = make_client([
        expect('GET', KEYSTONE + 'projects/x', ScriptedResponse(404, {'error': {
            'code': 404, 'title': 'Not Found', 'message': 'Could not find project.'}}), version=None),
    ])
    with pytest.raises(ConfigurationError) as err:
        client.keystone_get('projects/x')
    assert 'No Keystone endpoint is known' in str(err.value)
    asked = []
    client.identity_url = lambda: asked.append(1) or KEYSTONE
    with pytest.raises(NotFound) as err:
        client.keystone_get('projects/x')
    assert err.value.message == 'Could not find project.' and client.identity_url == KEYSTONE
    assert asked == [1]


class Access(object):
    project_id = 'p1'
    project_name = 'demo'
    role_names = ['member']


class Auth(object):
    """An auth plugin whose get_access fails with ``errors`` first."""

    def __init__(self, *errors):
        self.errors = list(errors)
        self.sessions = []

    def get_access(self, session):
        self.sessions.append(session)
        if self.errors:
            raise self.errors.pop(0)
        return Access()


class SessionWith(object):
    def __init__(self, auth):
        self.auth = auth


def test_token_project_asks_keystone_with_retries_on_the_clients_clock():
    clock = FakeClock()
    auth = Auth(ksa_exc.ServiceUnavailable())
    session = SessionWith(auth)
    client = ManilaClient(session, 'http://m/v2', sleep=clock.sleep, clock=clock)
    assert client.token_project() == {'id': 'p1', 'name': 'demo', 'roles': ['member']}
    assert auth.sessions == [session, session] and clock.sleeps == [0.5]


def test_token_project_of_a_session_that_cannot_say():
    assert ManilaClient(SessionWith(None), 'http://m/v2').token_project() is None
    assert ManilaClient(SessionWith(object()), 'http://m/v2').token_project() is None


# -- write_once: what the task reports after a recovery ------------------------------------------

def test_write_once_lost_answer_seen_counts_as_accepted():
    client = client_on(FakeClock())
    script = Script([lost()], ['made'])
    assert client.write_once(script.send, script.observe, 'the create of x') == 'made'
    assert client.accepted == ['the create of x']


def test_write_once_5xx_twice_then_seen_counts_as_accepted():
    client = client_on(FakeClock())
    script = Script([refused(502), refused(504)], [None, 'made'])
    assert client.write_once(script.send, script.observe, 'the create of x') == 'made'
    assert client.accepted == ['the create of x']


def test_write_once_5xx_then_lost_names_the_write():
    client = client_on(FakeClock())
    script = Script([refused(503), lost()], [None, 'made'])
    assert client.write_once(script.send, script.observe, 'the create of x') == 'made'
    assert client.accepted == ['the create of x']
    assert client.warnings == ['No answer came to the create of x (%s); Manila shows that it '
                               'took effect, so the task went on from there.' % LOST]


@pytest.mark.parametrize('sends,observes,happened', [
    ([refused(503)], [ManilaError('down', status=500)], 'was answered with HTTP 503'),
    ([refused(503), refused(502)], [None, ManilaError('down', status=500)],
     'was answered with HTTP 502 twice'),
])
def test_write_once_5xx_then_observe_fails_names_the_write(sends, observes, happened):
    client = client_on(FakeClock())
    script = Script(sends, observes)
    with pytest.raises(ManilaError) as err:
        client.write_once(script.send, script.observe, 'the create of x')
    assert str(err.value).startswith('The create of x %s, and Manila could not be asked '
                                     'whether it took effect: down' % happened)


@pytest.mark.parametrize('cap', ['3.0', '3.99', '10.1'])
def test_a_cap_above_any_2_x_is_refused_not_taken_as_the_newest(cap):
    # issue 37: "3.0" as a cap would have meant "the newest this cloud offers"
    with pytest.raises(ConfigurationError) as err:
        negotiate(APIVersion('2.0'), APIVersion('2.99'), cap)
    assert str(err.value) == ("api_version %s is not a version of Manila's API: its versions "
                              "are 2.x (this collection knows 2.29 to 2.99)." % cap)
    with pytest.raises(ConfigurationError) as err:
        negotiate(APIVersion('2.0'), APIVersion('2.99'), '1.9')
    assert 'older than 2.29' in str(err.value)
