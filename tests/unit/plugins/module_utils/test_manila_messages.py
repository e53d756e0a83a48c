# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Manila's user messages (manila_messages.py): the requests of a listing (one when
it can, pages past osapi_max_limit, keep/past/limit), the words of user_messages
for a failure, and the times of the messages (parse_time, manila_time,
created_at: UTC whatever the local zone)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import manila_messages
from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput
from ansible_collections.openkeel.manila.plugins.module_utils.manila_messages import (
    list_messages,
    user_messages,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    expect,
    make_client,
    ok,
)

SHARE_ID = '11111111-2222-3333-4444-555555555555'
UTC = datetime.timezone.utc
MSG = '/v2/messages?resource_id=r&sort_key=created_at&sort_dir=desc'
NEWEST = {'id': 'm2', 'user_message': 'allocate host: no storage could be allocated.'}


def ids(*names):
    return [{'id': n} for n in names]


def test_a_limit_of_one_gives_the_newest_message_in_one_request():
    client, session = make_client([
        ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=1&offset=0' % SHARE_ID,
         ScriptedResponse(200, {'messages': [NEWEST]})),
    ])
    assert list_messages(client, {'resource_id': SHARE_ID}, limit=1) == [NEWEST]
    assert len(session.calls) == 2


def test_a_limit_below_one_sends_nothing():
    client, session = make_client([])
    assert list_messages(client, {'resource_id': SHARE_ID}, limit=0) == []
    assert len(session.calls) == 1


def test_the_messages_of_one_resource_id_given_as_a_string():
    client, session = make_client([
        ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % SHARE_ID,
         ScriptedResponse(200, {'messages': [NEWEST]})),
    ])
    assert user_messages(client, SHARE_ID) == 'Manila says: allocate host: no storage could be allocated.'
    assert len(session.calls) == 2


def test_an_answer_without_a_message_list_explains_nothing():
    client, _session = make_client([
        ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % SHARE_ID,
         ScriptedResponse(200, {})),
    ])
    assert user_messages(client, SHARE_ID) == ''


# -- listings and the words of a failure -------------------------------------------------------

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


# -- times -------------------------------------------------------------------------------------

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
