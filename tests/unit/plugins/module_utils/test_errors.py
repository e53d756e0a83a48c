# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""errors.py: what an error answer becomes, and what every exception carries."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from keystoneauth1 import exceptions as ksa_exc

from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    AmbiguousName,
    AnswerLost,
    CannotConverge,
    CheckModeWrite,
    ConfigurationError,
    Conflict,
    Forbidden,
    InvalidInput,
    ManilaError,
    NotFound,
    WaitFailed,
    WaitTimeout,
    admin_only,
    error_from_keystoneauth,
    error_from_response,
    is_connection_error,
    path_of,
    reword,
    same_details,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
)

URL = 'http://m:8786/v2/shares/x?a=1'


def test_manila_error_fields_and_words():
    exc = ManilaError('no', status=404, request_id='req-1', method='GET', url=URL, result={'a': 1})
    assert (exc.message, exc.status, exc.request_id, exc.method, exc.url, exc.result) == (
        'no', 404, 'req-1', 'GET', URL, {'a': 1})
    assert str(exc) == 'no (HTTP 404 on GET /v2/shares/x?a=1) [request id req-1]'
    assert str(ManilaError('no', status=500)) == 'no (HTTP 500)'
    assert str(ManilaError('no', status=0, method='GET', url=URL)) == 'no (HTTP 0 on GET /v2/shares/x?a=1)'
    assert str(ManilaError('no', method='GET')) == 'no'
    assert str(ManilaError('no', request_id='r')) == 'no [request id r]'
    assert ManilaError('no').result == {} and ManilaError('no').status is None


def test_the_exception_family():
    for cls in (NotFound, Forbidden, Conflict, ConfigurationError, InvalidInput, CannotConverge,
                AnswerLost, WaitFailed):
        assert issubclass(cls, ManilaError)
    assert issubclass(AmbiguousName, InvalidInput) and issubclass(WaitTimeout, WaitFailed)
    assert not issubclass(CheckModeWrite, ManilaError)
    lost = AnswerLost('gone', method='POST', url=URL, cause='c')
    assert (lost.method, lost.url, lost.cause, lost.status) == ('POST', URL, 'c', None)
    failed = WaitFailed('w', resource={'id': 1}, state='error')
    assert (failed.resource, failed.state, failed.message) == ({'id': 1}, 'error', 'w')
    assert WaitFailed('w').resource is None and WaitFailed('w').state is None


@pytest.mark.parametrize('url,path', [
    (URL, '/v2/shares/x?a=1'), ('http://m/v2', '/v2'), (None, ''), ('', ''),
])
def test_path_of(url, path):
    assert path_of(url) == path


@pytest.mark.parametrize('status,cls', [(403, Forbidden), (404, NotFound), (409, Conflict),
                                        (400, ManilaError), (500, ManilaError)])
def test_error_class_by_status(status, cls):
    exc = error_from_response(ScriptedResponse(status, {'x': {'message': 'm'}}), 'GET', URL)
    assert exc.__class__ is cls and exc.status == status and exc.method == 'GET' and exc.url == URL


def test_error_message_sources():
    def message(body=None, text=None, status=400):
        response = ScriptedResponse(status, body)
        if text is not None:
            response.text = text
        return error_from_response(response, 'GET', URL).message
    assert message({'itemNotFound': {'code': 404, 'message': 'gone'}}) == 'gone'
    assert message({'a': 'x', 'b': {'message': ''}, 'c': {'message': 'third'}}) == 'third'
    assert message({'message': 'flat'}) == 'flat'
    assert message({'error': {'title': 't'}, 'message': 'flat'}) == 'flat'
    assert message(['not', 'a', 'dict'], text='  plain  ') == 'plain'
    assert message(None, text='x' * 600) == 'x' * 500
    assert message(None, text='') == 'HTTP 400 with no message'
    assert message({}, text='{}') == '{}'


@pytest.mark.parametrize('headers,request_id', [
    ({'x-openstack-request-id': 'a'}, 'a'),
    ({'X-Openstack-Request-Id': 'b'}, 'b'),
    ({'x-compute-request-id': 'c'}, 'c'),
    ({'X-Compute-Request-Id': 'd', 'x-openstack-request-id': 'e'}, 'e'),
    ({}, None),
])
def test_request_id_headers(headers, request_id):
    exc = error_from_response(ScriptedResponse(500, {}, headers=headers), 'GET', URL)
    assert exc.request_id == request_id


def test_request_id_of_a_response_without_headers():
    response = ScriptedResponse(500, {})
    response.headers = None
    assert error_from_response(response, 'GET', URL).request_id is None


@pytest.mark.parametrize('exc,expected', [
    (ksa_exc.ConnectFailure('x'), True), (ksa_exc.ConnectTimeout('x'), True),
    (ksa_exc.UnknownConnectionError('x', ValueError('y')), True), (ksa_exc.SSLError('x'), False),
    (ksa_exc.ServiceUnavailable(), False), (ValueError('x'), False),
])
def test_is_connection_error(exc, expected):
    assert is_connection_error(exc) is expected


def test_error_from_keystoneauth_each_kind():
    exc = error_from_keystoneauth(ksa_exc.EndpointNotFound('no sharev2'))
    assert exc.__class__ is ConfigurationError and str(exc) == 'no sharev2'
    exc = error_from_keystoneauth(ksa_exc.Unauthorized('bad'), 'GET', URL)
    assert exc.status == 401 and exc.message.startswith('Keystone refused the credentials: ')
    assert (exc.method, exc.url) == ('GET', URL)
    http = ksa_exc.ServiceUnavailable('busy')
    http.request_id = 'req-9'
    exc = error_from_keystoneauth(http, 'POST', URL)
    assert (exc.status, exc.request_id, exc.method, exc.url) == (503, 'req-9', 'POST', URL)
    exc = error_from_keystoneauth(ksa_exc.ConnectFailure('refused'), 'GET', URL)
    assert exc.message == 'Could not connect to %s: refused' % URL and exc.status is None
    assert error_from_keystoneauth(ksa_exc.ConnectFailure('r')).message == 'Could not connect to the cloud: r'
    exc = error_from_keystoneauth(ksa_exc.ClientException('odd'), 'GET', URL)
    assert exc.__class__ is ManilaError and exc.message == 'odd' and exc.url == URL
    exc = error_from_keystoneauth(ValueError('bad'), 'GET', URL)
    assert exc.message == 'ValueError while calling GET /v2/shares/x?a=1: bad' and exc.method == 'GET'


def test_reword_and_same_details():
    original = Forbidden('policy', status=403, request_id='r', method='POST', url=URL)

    @reword(Forbidden, lambda exc: same_details(exc, InvalidInput, 'admin only: ' + exc.message))
    def call(fail, value=1):
        """doc"""
        if fail:
            raise original
        return value

    assert call(False, value=5) == 5 and call.__name__ == 'call' and call.__doc__ == 'doc'
    with pytest.raises(InvalidInput) as err:
        call(True)
    assert err.value.message == 'admin only: policy'
    assert (err.value.status, err.value.request_id, err.value.method, err.value.url) == (403, 'r', 'POST', URL)

    @reword(Forbidden, lambda exc: InvalidInput('x'))
    def other():
        raise NotFound('nf')
    with pytest.raises(NotFound):
        other()


def test_admin_only_says_so_and_keeps_manilas_words_and_the_request():
    @admin_only('Share servers are')
    def listing(error):
        raise error

    with pytest.raises(ManilaError) as err:
        listing(Forbidden('Policy does not allow it.', status=403, request_id='r', url=URL))
    assert isinstance(err.value, ManilaError) and not isinstance(err.value, Forbidden)
    assert err.value.message == ('Share servers are admin-only by default (Manila said: '
                                 'Policy does not allow it.)')
    assert (err.value.status, err.value.request_id, err.value.url) == (403, 'r', URL)
    with pytest.raises(NotFound):    # only a 403 is reworded
        listing(NotFound('nf'))


def test_every_converted_error_keeps_the_message_and_the_request():
    http = ksa_exc.ServiceUnavailable('busy')
    # keystoneauth's own "(HTTP 503)" is left out: str() of the error adds the status
    assert str(http) == 'busy (HTTP 503)'
    assert error_from_keystoneauth(http, 'POST', URL).message == 'busy'
    for raised in (ksa_exc.ConnectFailure('refused'), ksa_exc.ClientException('odd'),
                   ValueError('bad')):
        exc = error_from_keystoneauth(raised, 'DELETE', URL)
        assert (exc.method, exc.url) == ('DELETE', URL), raised


# -- the Retry-After an error answer carries (a 503 and a rate limit keep it; any other
# status, a 504 too, does not) --------------------------------------------------------

SHARE_URL = 'http://m:8786/v2/shares/x'


def answer(status):
    return ScriptedResponse(status, {'computeFault': {'code': status, 'message': 'busy'}},
                            headers={'Retry-After': '5'})


def test_a_503_keeps_its_retry_after():
    exc = error_from_response(answer(503), 'GET', SHARE_URL)
    assert (exc.status, exc.retry_after) == (503, 5.0)


def test_a_504_does_not_keep_a_retry_after():
    exc = error_from_response(answer(504), 'GET', SHARE_URL)
    assert (exc.status, exc.retry_after) == (504, None)


def test_a_rate_limit_keeps_its_retry_after():
    exc = error_from_response(answer(429), 'GET', SHARE_URL)
    assert (exc.status, exc.retry_after) == (429, 5.0)


# -- keystoneauth's text without a second status, and timeouts (issue 37) ---------------

def test_a_401_says_its_status_once_and_keeps_the_request_id():
    refused = ksa_exc.Unauthorized('The request you have made requires authentication.',
                                   request_id='req-401')
    exc = error_from_keystoneauth(refused, 'GET', URL)
    text = str(exc)
    assert text.count('HTTP 401') == 1 and text.count('req-401') == 1
    assert text.startswith('Keystone refused the credentials: The request you have made '
                           'requires authentication. (HTTP 401 on GET ')
    assert exc.request_id == 'req-401'


def test_another_http_error_of_keystoneauth_says_its_status_once():
    busy = ksa_exc.ServiceUnavailable('busy', request_id='req-5')
    text = str(error_from_keystoneauth(busy))
    assert text == 'busy (HTTP 503) [request id req-5]'


def test_a_timeout_says_it_timed_out_and_names_api_timeout():
    timed_out = ksa_exc.ConnectTimeout('Request to %s timed out' % URL)
    exc = error_from_keystoneauth(timed_out, 'GET', URL)
    assert 'timed out' in exc.message and 'api_timeout' in exc.message
    assert 'Could not connect' not in exc.message and exc.status is None
