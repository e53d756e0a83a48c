# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The scripted HTTP double is strict: these tests prove each check bites."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    OPEN_SESSIONS,
    ScriptedResponse,
    ScriptedSession,
    check_every_exchange_used,
    expect,
    make_client,
)

SHARE = ScriptedResponse(200, {'share': {'id': 'x'}})


def test_an_unused_scripted_exchange_fails_the_check_the_fixture_runs():
    client, _session = make_client([('GET', '/v2/shares/x', SHARE),
                                    ('GET', '/v2/shares/y', SHARE)])
    client.get('shares/x')
    with pytest.raises(AssertionError) as err:
        check_every_exchange_used()
    assert str(err.value) == 'scripted HTTP exchanges were never requested: session 0: GET /v2/shares/y'
    assert OPEN_SESSIONS == []


def test_a_fully_used_script_passes_the_check():
    client, _session = make_client([('GET', '/v2/shares/x', SHARE)])
    client.get('shares/x')
    check_every_exchange_used()


def _fails(exchange, call):
    client, session = make_client([exchange])
    with pytest.raises(AssertionError) as err:
        call(client)
    del OPEN_SESSIONS[:]
    return str(err.value)


def test_extra_query_parameters_do_not_match():
    message = _fails(('GET', '/v2/shares/detail?name=a', SHARE),
                     lambda c: c.get('shares/detail', query={'name': 'a', 'limit': 1}))
    assert 'expected /v2/shares/detail?name=a' in message


def test_a_missing_experimental_header_does_not_match():
    message = _fails(expect('POST', '/v2/shares/x/action', ScriptedResponse(202), experimental=True),
                     lambda c: c.action('shares/x', 'migration_cancel', None))
    assert 'experimental header missing' in message


def test_an_unexpected_experimental_header_does_not_match():
    client, session = make_client([('POST', '/v2/shares/x/action', ScriptedResponse(202))],
                                  max_version='2.95')
    with pytest.raises(AssertionError) as err:
        client.action('shares/x', 'migration_cancel', None, feature='migration')
    del OPEN_SESSIONS[:]
    assert 'experimental header sent' in str(err.value)


def test_the_version_header_must_be_the_negotiated_one():
    client, session = make_client([('GET', '/v2/shares/x', SHARE)], max_version='2.65')
    session.negotiated = '2.99'
    with pytest.raises(AssertionError) as err:
        client.get('shares/x')
    del OPEN_SESSIONS[:]
    assert "version header '2.65', expected '2.99'" in str(err.value)


def test_a_token_where_none_is_expected_does_not_match():
    session = ScriptedSession([expect('GET', '/v2/x', SHARE, authenticated=False, version=None)])
    with pytest.raises(AssertionError) as err:
        session.request('http://h/v2/x', 'GET', raise_exc=False)
    del OPEN_SESSIONS[:]
    assert 'authenticated=True, expected False' in str(err.value)


def test_raise_exc_must_be_false():
    session = ScriptedSession([expect('GET', '/v2/x', SHARE, version=None)])
    with pytest.raises(AssertionError) as err:
        session.request('http://h/v2/x', 'GET')
    del OPEN_SESSIONS[:]
    assert 'raise_exc' in str(err.value)


def test_a_body_can_be_checked():
    message = _fails(expect('POST', '/v2/shares', SHARE, body={'share': {'size': 1}}),
                     lambda c: c.post('shares', {'share': {'size': 2}}))
    assert "body {'share': {'size': 2}}" in message
