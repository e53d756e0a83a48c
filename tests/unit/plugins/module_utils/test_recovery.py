# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Recovery on scripted HTTP: lost answers, 5xx on writes, Retry-After,
Keystone retries, races for one name, for the shares and for every other kind
(snapshot, share network, security service, share type).  The fault matrix
(tests/faults) shows the same against the real cloud; these pin the exact
requests and pauses.

A cross-cutting file, not the test file of one module_utils file: each test
follows one failed write from the client (client.py: retries, write_once)
through the observers of writes.py to the API class of its kind (shares.py,
snapshots.py, share_networks.py, security_services.py, share_types.py,
access.py), and the same faults are run against every kind side by side, so
that a kind that recovers differently stands out.  The tests of each of those
files' own functions are in its test_X.py."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime

import pytest

from keystoneauth1 import exceptions as ksa_exc

from ansible_collections.openkeel.manila.plugins.module_utils import client as client_module
from ansible_collections.openkeel.manila.plugins.module_utils.access import AccessAPI
from ansible_collections.openkeel.manila.plugins.module_utils.client import (
    ManilaClient,
    retry_after,
    with_keystone_retries,
)
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    AmbiguousName,
    AnswerLost,
    ConfigurationError,
    Conflict,
    ManilaError,
    NotApplied,
)
from ansible_collections.openkeel.manila.plugins.module_utils.security_services import SecurityServiceAPI
from ansible_collections.openkeel.manila.plugins.module_utils.share_networks import ShareNetworkAPI
from ansible_collections.openkeel.manila.plugins.module_utils.share_types import ShareTypeAPI
from ansible_collections.openkeel.manila.plugins.module_utils.shares import ShareAPI
from ansible_collections.openkeel.manila.plugins.module_utils.snapshots import SnapshotAPI
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    GONE,
    FailsThen,
    FakeClock,
    ScriptedResponse,
    ScriptedSession,
    expect,
    make_client,
    ok,
    versions_exchange,
)

SHARE_ID = '11111111-2222-3333-4444-555555555555'
OTHER_ID = '99999999-2222-3333-4444-555555555555'
LISTING = '/v2/shares/detail?name=data'
LOST = ksa_exc.ConnectFailure("Unable to establish connection to http://m/v2/shares: "
                              "('Connection aborted.', RemoteDisconnected('Remote end closed'))")
REFUSED = ksa_exc.ConnectFailure(
    "Unable to establish connection to http://m/v2/shares: HTTPConnectionPool(host='m', "
    "port=8786): Max retries exceeded (Caused by NewConnectionError('Failed to establish "
    "a new connection: [Errno 111] Connection refused'))")


def share(share_id=SHARE_ID, status='creating', created='2026-01-01T10:00:00.000000'):
    return {'id': share_id, 'name': 'data', 'status': status, 'size': 1, 'created_at': created}


def shares(*items):
    return ScriptedResponse(200, {'shares': list(items)})


def error(status, message='injected'):
    return ScriptedResponse(status, {'computeFault': {'code': status, 'message': message}})


def body(name='data'):
    return {'name': name, 'size': 1, 'share_proto': 'NFS'}


# -- the client: what is retried, what raises AnswerLost -------------------------------

def test_a_write_that_never_left_is_sent_again():
    client, session = make_client([
        ('POST', '/v2/shares', REFUSED),
        ('POST', '/v2/shares', ScriptedResponse(200, {'share': share()})),
    ])
    assert client.post('shares', {'share': body()})['share']['id'] == SHARE_ID


def test_a_write_without_an_answer_raises_answer_lost_once():
    client, session = make_client([('POST', '/v2/shares', LOST)])
    with pytest.raises(AnswerLost) as err:
        client.post('shares', {'share': body()})
    assert err.value.cause is LOST
    assert len(session.writes()) == 1


def test_a_read_timeout_on_a_write_is_a_lost_answer_too():
    client, session = make_client([
        ('PUT', '/v2/shares/x', ksa_exc.ConnectTimeout('Request to http://m/v2/shares/x timed out'))])
    with pytest.raises(AnswerLost):
        client.put('shares/x', {'share': {}})


@pytest.mark.parametrize('status', [429, 503])
def test_reads_wait_as_long_as_retry_after_says(status):
    clock = FakeClock()
    client, session = make_client([
        ('GET', LISTING, ScriptedResponse(status, {'overLimit': {'message': 'slow down'}},
                                          headers={'Retry-After': '7'})),
        ('GET', LISTING, shares()),
    ], clock=clock)
    assert client.get('shares/detail', query={'name': 'data'}) == {'shares': []}
    assert clock.sleeps == [7.0]


def test_a_retry_after_longer_than_a_task_waits_fails_at_once():
    clock = FakeClock()
    client, session = make_client([
        ('GET', LISTING, ScriptedResponse(503, {'serviceUnavailable': {'message': 'maintenance'}},
                                          headers={'Retry-After': '3600'})),
    ], clock=clock)
    with pytest.raises(ManilaError) as err:
        client.get('shares/detail', query={'name': 'data'})
    assert err.value.status == 503 and clock.sleeps == []


def test_retry_after_as_an_http_date():
    now = datetime.datetime(2026, 1, 1, 10, 0, 0, tzinfo=datetime.timezone.utc)
    answer = ScriptedResponse(503, {}, headers={'Retry-After': 'Thu, 01 Jan 2026 10:00:12 GMT'})
    assert retry_after(answer, now=now) == 12.0
    assert retry_after(ScriptedResponse(503, {}, headers={'Retry-After': 'soon'})) is None
    assert retry_after(ScriptedResponse(503, {})) is None


def slow_down(status=429, wait='1', fault='overLimitFault'):
    """A rate limit's answer: 429, or Manila's rate-limit 413 (``overLimitFault``)."""
    headers = {'Retry-After': wait} if wait is not None else {}
    return ScriptedResponse(status, {fault: {'code': status, 'message': 'This request was '
                                             'rate-limited.', 'details': 'Only 1 POST request(s) '
                                             'can be made to * every minute.'}}, headers=headers)


OVER_QUOTA = ScriptedResponse(413, {'overLimit': {
    'code': 413, 'retryAfter': '0',
    'message': 'Requested share exceeds allowed project/user or share type gigabytes quota.'}},
    headers={'Retry-After': '0'})


@pytest.mark.parametrize('status', [429, 413])
def test_a_rate_limited_write_is_sent_again_after_retry_after(status):
    clock = FakeClock()
    client, session = make_client([
        expect('POST', '/v2/shares', slow_down(status), body={'share': body()}),
        expect('POST', '/v2/shares', ScriptedResponse(202, {'share': share()}),
               body={'share': body()}),
    ], clock=clock)
    assert ShareAPI(client).create(body())['id'] == SHARE_ID
    assert session.requests() == ['GET /', 'POST /v2/shares', 'POST /v2/shares']
    assert clock.sleeps == [1.0]
    assert client.warnings == [
        "POST /v2/shares met the rate limit of Manila (HTTP %s): it never reached Manila's "
        'API, so it was sent again after 1 seconds (as Retry-After asked).' % status]
    assert client.accepted == ['POST shares'] and client.rate_limited == 1


def test_a_rate_limited_write_without_retry_after_backs_off_like_a_read():
    clock = FakeClock()
    client, session = make_client([
        ('POST', '/v2/shares', slow_down(wait=None)),
        ('POST', '/v2/shares', slow_down(wait=None)),
        ('POST', '/v2/shares', ScriptedResponse(202, {'share': share()})),
    ], clock=clock)
    client.post('shares', {'share': body()})
    assert clock.sleeps == [0.5, 1.0]
    assert 'sent again after 0.5 seconds.' in client.warnings[0]


def test_an_over_quota_413_is_never_sent_again():
    clock = FakeClock()
    client, session = make_client([('POST', '/v2/shares', OVER_QUOTA)], clock=clock)
    with pytest.raises(ManilaError) as err:
        ShareAPI(client).create(body())
    assert len(session.writes()) == 1 and clock.sleeps == [] and client.warnings == []
    assert str(err.value) == ('Requested share exceeds allowed project/user or share type '
                              'gigabytes quota. (HTTP 413 on POST /v2/shares)')
    assert err.value.retry_after is None and not isinstance(err.value, NotApplied)


@pytest.mark.parametrize('answer', [
    slow_down(413, wait='0'),                     # a rate-limit fault that asks for no wait
    slow_down(413, fault='overLimit', wait='5'),  # Manila's API refused it itself
    ScriptedResponse(413, None, headers={'Retry-After': '5'}),
])
def test_only_the_rate_limit_413_is_sent_again(answer):
    client, session = make_client([('POST', '/v2/shares', answer)])
    with pytest.raises(ManilaError):
        client.post('shares', {'share': body()})
    assert len(session.writes()) == 1


def test_a_write_rate_limited_to_the_end_fails_with_the_status_and_retry_after():
    clock = FakeClock()
    client, session = make_client([('POST', '/v2/shares', slow_down(wait='2'))] * 4, clock=clock)
    with pytest.raises(ManilaError) as err:
        ShareAPI(client).create(body())
    assert clock.sleeps == [2.0, 2.0, 2.0] and len(session.writes()) == 4
    assert err.value.status == 429 and err.value.retry_after == 2.0
    assert str(err.value) == (
        "Manila's rate limit refused it 4 times in a row: This request was rate-limited. "
        "The request never reached Manila's API, so nothing was changed by it; run the task "
        'again later, or with a lower concurrency. (HTTP 429 on POST /v2/shares, '
        'Retry-After 2 s)')
    assert client.accepted == [] and not isinstance(err.value, NotApplied)


def test_a_write_rate_limited_for_longer_than_a_task_waits_fails_at_once():
    clock = FakeClock()
    client, session = make_client([('POST', '/v2/shares', slow_down(413, wait='120'))],
                                  clock=clock)
    with pytest.raises(ManilaError) as err:
        client.post('shares', {'share': body()})
    assert clock.sleeps == [] and len(session.writes()) == 1
    assert "Manila's rate limit asked to wait 120 seconds before it is sent again, longer " \
        'than a task waits (60 seconds)' in str(err.value)
    assert '(HTTP 413 on POST /v2/shares, Retry-After 120 s)' in str(err.value)


def test_a_rate_limited_read_is_not_warned_about():
    clock = FakeClock()
    client, session = make_client([
        ('GET', LISTING, slow_down(413, wait='3')),
        ('GET', LISTING, shares()),
    ], clock=clock)
    assert client.get('shares/detail', query={'name': 'data'}) == {'shares': []}
    assert clock.sleeps == [3.0] and client.warnings == []


def test_a_bad_api_version_names_the_option():
    session = ScriptedSession([versions_exchange('2.99')])
    client = ManilaClient(session, 'http://127.0.0.1:8786/v2', api_version_cap='banana')
    with pytest.raises(ConfigurationError) as err:
        client.negotiate()
    assert str(err.value).startswith('api_version: ') and 'banana' in str(err.value)


# -- write_once -------------------------------------------------------------------------

def test_lost_create_found_by_name_is_not_sent_again():
    clock = FakeClock()
    client, session = make_client([
        ('POST', '/v2/shares', LOST),
        ('GET', LISTING, shares(share())),
    ], clock=clock)
    made = ShareAPI(client).create(body())
    assert made['id'] == SHARE_ID
    assert len(session.writes()) == 1
    assert client.warnings and 'No answer came to the create of share' in client.warnings[0]


def test_lost_create_that_never_shows_up_is_reported_as_not_applied():
    clock = FakeClock()
    client, session = make_client([
        ('POST', '/v2/shares', LOST),
        ('GET', LISTING, shares()),
        ('GET', LISTING, shares()),
        ('GET', LISTING, shares()),
    ], clock=clock)
    with pytest.raises(NotApplied) as err:
        ShareAPI(client).create(body())
    assert 'was not applied' in str(err.value) and 'Run the task again' in str(err.value)
    assert clock.sleeps == [1.0, 2.0]
    assert len(session.writes()) == 1


def test_a_share_on_its_way_out_is_not_taken_for_the_lost_create():
    client, session = make_client([
        ('POST', '/v2/shares', LOST),
        ('GET', LISTING, shares(share(status='deleting'))),
        ('GET', LISTING, shares(share(status='deleting'))),
        ('GET', LISTING, shares()),
    ])
    with pytest.raises(NotApplied):
        ShareAPI(client).create(body())


def test_create_answered_503_is_looked_up_then_sent_once_more():
    client, session = make_client([
        ('POST', '/v2/shares', error(503)),
        ('GET', LISTING, shares()),
        ('POST', '/v2/shares', ScriptedResponse(200, {'share': share()})),
    ])
    assert ShareAPI(client).create(body())['id'] == SHARE_ID
    assert 'refused once with HTTP 503' in client.warnings[0]


def test_create_answered_500_after_it_was_made_is_not_sent_again():
    client, session = make_client([
        ('POST', '/v2/shares', error(500)),
        ('GET', LISTING, shares(share())),
    ])
    assert ShareAPI(client).create(body())['id'] == SHARE_ID
    assert len(session.writes()) == 1


def test_create_answered_503_twice_is_not_applied():
    client, session = make_client([
        ('POST', '/v2/shares', error(503)),
        ('GET', LISTING, shares()),
        ('POST', '/v2/shares', error(503)),
        ('GET', LISTING, shares()),
    ])
    with pytest.raises(NotApplied) as err:
        ShareAPI(client).create(body())
    assert 'failed twice' in str(err.value)


def test_a_refusal_that_is_not_a_5xx_is_raised_as_it_is():
    client, session = make_client([('POST', '/v2/shares', error(413, 'quota'))])
    with pytest.raises(ManilaError) as err:
        ShareAPI(client).create(body())
    assert err.value.status == 413 and not isinstance(err.value, NotApplied)


def test_when_manila_cannot_be_asked_the_error_says_so():
    client, session = make_client([
        ('POST', '/v2/shares', LOST),
        ('GET', LISTING, error(500)), ('GET', LISTING, error(500)),
        ('GET', LISTING, error(500)), ('GET', LISTING, error(500)),
    ])
    with pytest.raises(ManilaError) as err:
        ShareAPI(client).create(body())
    assert 'could not be asked whether it took effect' in str(err.value)


def test_lost_delete_of_a_share_that_is_deleting_counts_as_done():
    client, session = make_client([
        ('DELETE', '/v2/shares/' + SHARE_ID, LOST),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': share(status='deleting')})),
    ])
    ShareAPI(client).delete(SHARE_ID)
    assert len(session.writes()) == 1


def test_lost_extend_seen_extending_is_not_sent_again():
    client, session = make_client([
        ('POST', '/v2/shares/%s/action' % SHARE_ID, LOST),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': share(status='extending')})),
    ])
    ShareAPI(client).resize(SHARE_ID, 2, 1)
    assert len(session.writes()) == 1


# -- races for one name ------------------------------------------------------------------

def test_the_newer_namesake_is_deleted_by_its_creator_once_it_is_ready():
    older = share(OTHER_ID, 'available', '2026-01-01T10:00:00.000000')
    mine = share(SHARE_ID, 'available', '2026-01-01T10:00:00.500000')
    client, session = make_client([
        ('GET', LISTING, shares(older, mine)),
        ('DELETE', '/v2/shares/' + SHARE_ID, ScriptedResponse(202)),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(404, {'itemNotFound': {'message': 'gone'}})),
    ])
    keeper, adopted = ShareAPI(client).settle_namesakes(mine)
    assert keeper['id'] == OTHER_ID and adopted is True
    assert 'Another task created share' in client.warnings[0]


def test_a_creating_namesake_of_ours_is_waited_for_before_it_is_deleted():
    older = share(OTHER_ID, 'available', '2026-01-01T10:00:00.000000')
    mine = share(SHARE_ID, 'creating', '2026-01-01T10:00:01.000000')
    client, session = make_client([
        ('GET', LISTING, shares(older, mine)),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': mine})),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': dict(mine, status='available')})),
        ('DELETE', '/v2/shares/' + SHARE_ID, ScriptedResponse(202)),
    ])
    keeper, adopted = ShareAPI(client).settle_namesakes(mine, wait=False)
    assert keeper['id'] == OTHER_ID and adopted is True
    assert session.requests()[-1] == 'DELETE /v2/shares/' + SHARE_ID


def test_the_oldest_namesake_stays_and_says_so():
    mine = share(SHARE_ID, 'available', '2026-01-01T10:00:00.000000')
    newer = share(OTHER_ID, 'available', '2026-01-01T10:00:00.000000')  # same time: ID decides
    client, session = make_client([('GET', LISTING, shares(mine, newer))])
    keeper, adopted = ShareAPI(client).settle_namesakes(mine)
    assert keeper['id'] == SHARE_ID and adopted is False
    assert session.writes() == []
    assert OTHER_ID in client.warnings[0]


def test_alone_with_the_name_nothing_happens():
    mine = share(SHARE_ID, 'available')
    client, session = make_client([('GET', LISTING, shares(mine))])
    assert ShareAPI(client).settle_namesakes(mine) == (mine, False)
    assert client.warnings == []


def test_a_lookup_during_a_race_waits_for_it_to_settle():
    clock = FakeClock()
    first = share(OTHER_ID, 'available', '2026-01-01T10:00:00.000000')
    racer = share(SHARE_ID, 'creating', '2026-01-01T10:00:00.300000')
    client, session = make_client([
        ('GET', LISTING, shares(first, racer)),
        ('GET', LISTING, shares(first, racer)),
        ('GET', LISTING, shares(first, dict(racer, status='deleting'))),
        ('GET', LISTING, shares(first)),
    ], clock=clock)
    assert ShareAPI(client).find_by_name('data')['id'] == OTHER_ID


def test_two_namesakes_at_rest_are_ambiguous_at_once():
    client, session = make_client([('GET', LISTING, shares(
        share(OTHER_ID, 'available'), share(SHARE_ID, 'available')))])
    with pytest.raises(AmbiguousName):
        ShareAPI(client).find_by_name('data')


# -- access rules ------------------------------------------------------------------------

RULES = '/v2/share-access-rules?share_id=' + SHARE_ID
ACTION = '/v2/shares/%s/action' % SHARE_ID
WANT = {'access_type': 'ip', 'access_to': '10.0.0.1', 'access_level': 'rw'}


def rule(rule_id, state='active', created='2026-01-01T10:00:00.000000', to='10.0.0.1'):
    return {'id': rule_id, 'access_type': 'ip', 'access_to': to, 'access_level': 'rw',
            'state': state, 'created_at': created, 'access_key': 'secret'}


def rules(*items):
    return ScriptedResponse(200, {'access_list': list(items)})


def test_an_allow_that_exists_already_converges_on_that_rule():
    client, session = make_client([
        ('POST', ACTION, ScriptedResponse(400, {'badRequest': {
            'code': 400, 'message': 'Share access ip:10.0.0.1 exists.'}})),
        ('GET', RULES, rules(rule('r1', 'queued_to_apply'))),
    ])
    assert AccessAPI(client).allow(SHARE_ID, WANT) == dict(
        (k, v) for k, v in rule('r1', 'queued_to_apply').items() if k != 'access_key')


def test_a_lost_allow_is_found_by_type_and_target():
    client, session = make_client([
        ('POST', ACTION, LOST),
        ('GET', RULES, rules(rule('r0', to='10.0.0.2'), rule('r1', 'queued_to_apply', to='10.0.0.1/32'))),
    ])
    assert AccessAPI(client).allow(SHARE_ID, WANT)['id'] == 'r1'
    assert len(session.writes()) == 1


def test_the_newer_twin_rule_is_denied_by_its_creator():
    older, mine = rule('r1', created='2026-01-01T10:00:00'), rule('r2', created='2026-01-01T10:00:01')
    client, session = make_client([
        ('POST', ACTION, ScriptedResponse(202)),
        ('GET', RULES, rules(older)),
    ])
    found, kept = AccessAPI(client).settle_twins(SHARE_ID, ['r2'], [older, mine])
    assert kept == ['r1'] and [r['id'] for r in found] == ['r1']
    assert session.bodies('POST') == [{'deny_access': {'access_id': 'r2'}}]
    assert 'Another task allowed access rule ip:10.0.0.1' in client.warnings[0]


def test_the_older_twin_waits_for_the_newer_one_to_go():
    older, newer = rule('r1', created='2026-01-01T10:00:00'), rule('r2', created='2026-01-01T10:00:01')
    client, session = make_client([
        ('GET', RULES, rules(older, dict(newer, state='denying'))),
        ('GET', RULES, rules(older)),
    ])
    found, kept = AccessAPI(client).settle_twins(SHARE_ID, ['r1'], [older, newer])
    assert kept == ['r1'] and [r['id'] for r in found] == ['r1']
    assert session.writes() == []


# -- Keystone ----------------------------------------------------------------------------

TOKEN_HEADERS = {'X-Auth-Token': 'token'}


def test_token_requests_are_retried_with_backoff_on_5xx_and_connection_errors():
    clock = FakeClock()
    keystone = FailsThen(TOKEN_HEADERS, ksa_exc.ServiceUnavailable(),
                         ksa_exc.ConnectFailure('reset'), ksa_exc.InternalServerError())
    assert with_keystone_retries(keystone, sleep=clock.sleep) == TOKEN_HEADERS
    assert clock.sleeps == [0.5, 1.0, 2.0]


def test_a_wrong_password_is_not_retried():
    keystone = FailsThen(TOKEN_HEADERS, ksa_exc.Unauthorized(
        'The request you have made requires authentication.'))
    with pytest.raises(ConfigurationError) as err:
        with_keystone_retries(keystone, sleep=FakeClock().sleep)
    assert keystone.calls == 1 and 'refused the credentials' in str(err.value)


def test_keystone_down_fails_after_the_last_attempt_saying_what_to_do():
    clock = FakeClock()
    keystone = FailsThen(TOKEN_HEADERS, *[ksa_exc.ServiceUnavailable() for _i in range(9)])
    with pytest.raises(ConfigurationError) as err:
        with_keystone_retries(keystone, sleep=clock.sleep)
    assert keystone.calls == client_module.KEYSTONE_ATTEMPTS
    assert 'failed 5 times in a row' in str(err.value) and 'again later' in str(err.value)


def test_the_client_fetches_its_token_with_retries_before_an_authenticated_request():
    clock = FakeClock()
    session = ScriptedSession([versions_exchange('2.99'), ('GET', LISTING, shares())])
    session.auth = object()
    session.get_auth_headers = FailsThen(TOKEN_HEADERS, ksa_exc.ServiceUnavailable())
    client = ManilaClient(session, 'http://127.0.0.1:8786/v2', sleep=clock.sleep, clock=clock)
    client.negotiate()
    session.negotiated = str(client.version)
    client.get('shares/detail', query={'name': 'data'})
    assert session.get_auth_headers.calls == 2 and clock.sleeps == [0.5]


def test_a_lost_update_seen_applied_returns_the_share_as_manila_has_it():
    renamed = dict(share(status='available'), name='new', description=None, is_public=False)
    client, session = make_client([
        ('PUT', '/v2/shares/' + SHARE_ID, LOST),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': renamed})),
    ])
    result = ShareAPI(client).update(SHARE_ID, {'display_name': 'new', 'display_description': '',
                                                'is_public': False})
    assert result == renamed and len(session.writes()) == 1


# -- the other kinds' writes: snapshot, share network, security service, share type --
# Each test fails when the write goes out without write_once (the lost answer or
# the 5xx would then end the call) or when the create is not followed by the
# namesake check.

MINE = 'aaaaaaaa-0000-0000-0000-000000000001'
OTHER = 'aaaaaaaa-0000-0000-0000-000000000002'
SNAPSHOTS = '/v2/snapshots/detail?name=tuesday&share_id=' + SHARE_ID
NETWORKS = '/v2/share-networks/detail?name=net'
SERVICES = '/v2/security-services/detail?name=ldap'
TYPES = '/v2/types?is_public=all'


def snapshot(snap_id=MINE, status='creating', created='2026-01-01T10:00:00.000000'):
    return {'id': snap_id, 'name': 'tuesday', 'share_id': SHARE_ID, 'status': status,
            'size': 1, 'created_at': created, 'description': None}


def snapshots(*items):
    return ok({'snapshots': list(items)})


SNAP_BODY = {'share_id': SHARE_ID, 'name': 'tuesday'}


# -- snapshots -----------------------------------------------------------------------------

def test_a_lost_snapshot_create_is_found_by_name_and_never_sent_again():
    client, session = make_client([
        ('POST', '/v2/snapshots', LOST),
        ('GET', SNAPSHOTS, snapshots(snapshot())),
    ])
    made = SnapshotAPI(client).create(SNAP_BODY)
    assert made['id'] == MINE
    assert session.requests().count('POST /v2/snapshots') == 1
    assert "No answer came to the create of share snapshot 'tuesday'" in client.warnings[0]


def test_a_lost_snapshot_create_that_never_shows_up_is_not_applied():
    clock = FakeClock()
    client, session = make_client([
        ('POST', '/v2/snapshots', LOST),
        ('GET', SNAPSHOTS, snapshots()),
        # one on its way out is not the snapshot this create made
        ('GET', SNAPSHOTS, snapshots(snapshot(OTHER, 'deleting'))),
        ('GET', SNAPSHOTS, snapshots()),
    ], clock=clock)
    with pytest.raises(NotApplied) as err:
        SnapshotAPI(client).create(SNAP_BODY)
    assert 'Run the task again' in str(err.value)
    assert len(session.writes()) == 1 and clock.sleeps == [1.0, 2.0]


def test_a_snapshot_create_answered_500_after_it_was_made_is_not_sent_again():
    client, session = make_client([
        ('POST', '/v2/snapshots', error(500)),
        ('GET', SNAPSHOTS, snapshots(snapshot())),
    ])
    assert SnapshotAPI(client).create(SNAP_BODY)['id'] == MINE
    assert len(session.writes()) == 1
    assert 'answered with HTTP 500' in client.warnings[0]


def test_the_newer_snapshot_namesake_is_deleted_by_its_creator_once_it_rests():
    older = snapshot(OTHER, 'available', '2026-01-01T10:00:00.000000')
    mine = snapshot(MINE, 'creating', '2026-01-01T10:00:00.400000')
    client, session = make_client([
        ('GET', SNAPSHOTS, snapshots(older, mine)),
        # Manila deletes no snapshot while it is being created: wait first
        ('GET', '/v2/snapshots/' + MINE, ok({'snapshot': mine})),
        ('GET', '/v2/snapshots/' + MINE, ok({'snapshot': dict(mine, status='available')})),
        ('DELETE', '/v2/snapshots/' + MINE, ScriptedResponse(202)),
        ('GET', '/v2/snapshots/' + MINE, GONE),
    ])
    keeper, adopted = SnapshotAPI(client).settle_namesakes(mine)
    assert keeper['id'] == OTHER and adopted is True
    assert [c.method + ' ' + c.path for c in session.writes()] == ['DELETE /v2/snapshots/' + MINE]
    assert "Another task created share snapshot 'tuesday' (%s)" % OTHER in client.warnings[0]


def test_the_oldest_snapshot_namesake_stays_and_says_so():
    mine = snapshot(MINE, 'available', '2026-01-01T10:00:00.000000')
    newer = snapshot(OTHER, 'creating', '2026-01-01T10:00:00.100000')
    client, session = make_client([('GET', SNAPSHOTS, snapshots(mine, newer))])
    assert SnapshotAPI(client).settle_namesakes(mine) == (mine, False)
    assert session.writes() == [] and OTHER in client.warnings[0]


def test_a_lost_snapshot_delete_seen_deleting_is_done():
    client, session = make_client([
        ('DELETE', '/v2/snapshots/' + MINE, LOST),
        ('GET', '/v2/snapshots/' + MINE, ok({'snapshot': snapshot(status='deleting')})),
    ])
    SnapshotAPI(client).delete(MINE)
    assert len(session.writes()) == 1


def test_a_lost_snapshot_rename_is_seen_by_reading_the_snapshot():
    client, session = make_client([
        ('PUT', '/v2/snapshots/' + MINE, LOST),
        ('GET', '/v2/snapshots/' + MINE, ok({'snapshot': dict(snapshot(), name='wednesday')})),
    ])
    assert SnapshotAPI(client).update(MINE, {'display_name': 'wednesday'})['name'] == 'wednesday'
    assert len(session.writes()) == 1


def test_a_snapshot_metadata_update_answered_503_and_not_applied_is_sent_once_more():
    client, session = make_client([
        ('POST', '/v2/snapshots/%s/metadata' % MINE, error(503)),
        ('GET', '/v2/snapshots/' + MINE, ok({'snapshot': dict(snapshot(), metadata={})})),
        ('POST', '/v2/snapshots/%s/metadata' % MINE, ok({'metadata': {'a': '1'}})),
    ])
    SnapshotAPI(client).set_metadata(MINE, {'a': '1'})
    assert len(session.writes()) == 2
    assert 'refused once with HTTP 503' in client.warnings[0]


# -- share networks ------------------------------------------------------------------------

def network(net_id=MINE, created='2026-01-01T10:00:00.000000'):
    return {'id': net_id, 'name': 'net', 'description': None, 'status': 'active',
            'created_at': created, 'share_network_subnets': [
                {'id': 'sub-' + net_id, 'availability_zone': None, 'neutron_net_id': None,
                 'neutron_subnet_id': None}]}


def networks(*items):
    return ok({'share_networks': list(items)})


def test_a_share_network_create_answered_500_after_it_was_made_is_not_sent_again():
    client, session = make_client([
        ('POST', '/v2/share-networks', error(500)),
        ('GET', NETWORKS, networks(network())),
    ])
    assert ShareNetworkAPI(client).create({'name': 'net'})['id'] == MINE
    assert session.requests().count('POST /v2/share-networks') == 1
    assert "The create of share network 'net' was answered with HTTP 500" in client.warnings[0]


def test_a_lost_share_network_create_is_found_by_name():
    client, session = make_client([
        ('POST', '/v2/share-networks', LOST),
        ('GET', NETWORKS, networks(network())),
    ])
    assert ShareNetworkAPI(client).create({'name': 'net'})['id'] == MINE
    assert len(session.writes()) == 1


def test_the_newer_share_network_namesake_is_deleted_at_once():
    older, mine = network(OTHER), network(MINE, '2026-01-01T10:00:01.000000')
    client, session = make_client([
        ('GET', NETWORKS, networks(older, mine)),
        ('DELETE', '/v2/share-networks/' + MINE, ScriptedResponse(202)),
    ])
    keeper, adopted = ShareNetworkAPI(client).settle_namesakes(mine)
    assert keeper['id'] == OTHER and adopted is True
    assert [c.method + ' ' + c.path for c in session.writes()] == [
        'DELETE /v2/share-networks/' + MINE]


def test_a_lost_security_service_attachment_is_seen_attached():
    client, session = make_client([
        ('POST', '/v2/share-networks/%s/action' % MINE, LOST),
        ('GET', '/v2/security-services?share_network_id=' + MINE,
         ok({'security_services': [{'id': OTHER, 'name': 'ldap', 'type': 'ldap'}]})),
    ])
    ShareNetworkAPI(client).add_service(MINE, OTHER)
    assert len(session.writes()) == 1


def test_a_lost_subnet_create_is_found_by_its_zone():
    subnet = {'availability_zone': 'nova', 'neutron_net_id': 'n', 'neutron_subnet_id': 's'}
    made = dict(subnet, id='sub-nova')
    client, session = make_client([
        ('POST', '/v2/share-networks/%s/subnets' % MINE, LOST),
        ('GET', '/v2/share-networks/' + MINE, ok({'share_network': dict(
            network(), share_network_subnets=network()['share_network_subnets'] + [made])})),
    ])
    assert ShareNetworkAPI(client).create_subnet(MINE, subnet)['id'] == 'sub-nova'
    assert len(session.writes()) == 1


def test_a_lost_feasibility_check_answer_is_asked_again():
    clock = FakeClock()
    path = '/v2/share-networks/%s/action' % MINE
    client, session = make_client([
        ('POST', path, LOST),
        ('POST', path, ok({'compatible': True})),
    ], clock=clock)
    ShareNetworkAPI(client).check_service_change(network(), OTHER)
    # the reset went with both: no answer came to the first
    assert [b['add_security_service_check']['reset_operation']
            for b in session.bodies('POST')] == [True, True]


# -- security services ---------------------------------------------------------------------

def service(service_id=MINE, created='2026-01-01T10:00:00.000000'):
    return {'id': service_id, 'name': 'ldap', 'type': 'ldap', 'status': 'new',
            'created_at': created, 'server': 'ldap.example.org'}


def test_a_lost_security_service_create_is_found_by_name():
    client, session = make_client([
        ('POST', '/v2/security-services', LOST),
        ('GET', SERVICES, ok({'security_services': [service()]})),
    ])
    assert SecurityServiceAPI(client).create({'name': 'ldap', 'type': 'ldap'})['id'] == MINE
    assert len(session.writes()) == 1


def test_the_newer_security_service_namesake_is_deleted_at_once():
    older, mine = service(OTHER), service(MINE, '2026-01-01T10:00:01.000000')
    client, session = make_client([
        ('GET', SERVICES, ok({'security_services': [mine, older]})),
        ('DELETE', '/v2/security-services/' + MINE, ScriptedResponse(202)),
    ])
    keeper, adopted = SecurityServiceAPI(client).settle_namesakes(mine)
    assert keeper['id'] == OTHER and adopted is True


def test_a_lost_security_service_update_not_seen_is_not_applied():
    clock = FakeClock()
    unchanged = ok({'security_service': service()})
    client, session = make_client([
        ('PUT', '/v2/security-services/' + MINE, LOST),
        ('GET', '/v2/security-services/' + MINE, unchanged),
        ('GET', '/v2/security-services/' + MINE, unchanged),
        ('GET', '/v2/security-services/' + MINE, unchanged),
    ], clock=clock)
    with pytest.raises(NotApplied):
        SecurityServiceAPI(client).update(MINE, {'server': 'other.example.org'})
    assert len(session.writes()) == 1


# -- share types ---------------------------------------------------------------------------

def share_type(type_id=MINE):
    return {'id': type_id, 'name': 'gold', 'extra_specs': {'driver_handles_share_servers': 'False'},
            'share_type_access:is_public': True, 'description': None}


TYPE_BODY = {'name': 'gold', 'extra_specs': {'driver_handles_share_servers': False}}


def test_a_lost_share_type_create_is_found_by_name():
    client, session = make_client([
        ('POST', '/v2/types', LOST),
        ('GET', TYPES, ok({'share_types': [share_type()]})),
    ])
    made, adopted = ShareTypeAPI(client).create(TYPE_BODY)
    assert made['id'] == MINE and adopted is False
    assert len(session.writes()) == 1


def test_manila_keeps_one_share_type_per_name_so_a_racing_create_converges_on_it():
    # Manila has a unique key on share type names: the second of two racing
    # creates is refused with 409, there are never namesakes to settle.
    client, session = make_client([
        ('POST', '/v2/types', ScriptedResponse(409, {'conflictingRequest': {
            'code': 409, 'message': 'Share Type gold already exists.'}})),
        ('GET', TYPES, ok({'share_types': [share_type(OTHER)]})),
    ])
    made, adopted = ShareTypeAPI(client).create(TYPE_BODY)
    assert made['id'] == OTHER and adopted is True
    assert len(session.writes()) == 1
    assert 'Manila keeps one type per name' in client.warnings[0]


def test_a_409_for_a_type_that_cannot_be_found_is_raised_as_it_is():
    client, session = make_client([
        ('POST', '/v2/types', ScriptedResponse(409, {'conflictingRequest': {
            'code': 409, 'message': 'Share Type gold already exists.'}})),
        ('GET', TYPES, ok({'share_types': []})),
    ])
    with pytest.raises(Conflict):
        ShareTypeAPI(client).create(TYPE_BODY)


def test_a_lost_project_grant_is_seen_in_the_access_list():
    client, session = make_client([
        ('POST', '/v2/types/%s/action' % MINE, LOST),
        ('GET', '/v2/types/%s/share_type_access' % MINE,
         ok({'share_type_access': [{'project_id': 'p1', 'share_type_id': MINE}]})),
    ])
    ShareTypeAPI(client).grant(MINE, 'p1')
    assert len(session.writes()) == 1


def test_a_type_delete_answered_503_and_gone_is_not_sent_again():
    client, session = make_client([
        ('DELETE', '/v2/types/' + MINE, error(503)),
        ('GET', '/v2/types/' + MINE, GONE),
    ])
    ShareTypeAPI(client).delete(MINE)
    assert len(session.writes()) == 1


def test_a_refused_type_write_that_is_not_a_5xx_is_raised_as_it_is():
    client, session = make_client([
        ('POST', '/v2/types/%s/extra_specs' % MINE, error(400, 'bad spec')),
    ])
    with pytest.raises(ManilaError) as err:
        ShareTypeAPI(client).set_specs(MINE, {'a': 'b'})
    assert err.value.status == 400 and not isinstance(err.value, NotApplied)


def test_a_snapshot_lookup_during_a_race_waits_for_it_to_settle():
    first = snapshot(OTHER, 'available', '2026-01-01T10:00:00.000000')
    racer = snapshot(MINE, 'creating', '2026-01-01T10:00:00.300000')
    client, session = make_client([
        ('GET', SNAPSHOTS, snapshots(first, racer)),
        ('GET', SNAPSHOTS, snapshots(first, dict(racer, status='deleting'))),
        ('GET', SNAPSHOTS, snapshots(first)),
    ])
    assert SnapshotAPI(client).find_by_name('tuesday', SHARE_ID)['id'] == OTHER


def test_two_snapshots_of_one_name_at_rest_are_ambiguous_at_once():
    client, session = make_client([('GET', SNAPSHOTS, snapshots(
        snapshot(OTHER, 'available'), snapshot(MINE, 'available')))])
    with pytest.raises(AmbiguousName):
        SnapshotAPI(client).find_by_name('tuesday', SHARE_ID)
