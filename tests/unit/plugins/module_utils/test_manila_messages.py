# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Manila's user messages (manila_messages.py): a limit of one message, and the messages of one
resource ID given as a string."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils.manila_messages import (
    list_messages,
    user_messages,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    make_client,
)

SHARE_ID = '11111111-2222-3333-4444-555555555555'
NEWEST = {'id': 'm2', 'user_message': 'allocate host: no storage could be allocated.'}


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
