# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""share_access and cephx keys, on scripted HTTP: the local cloud's Dummy driver
never gives a rule a key. A key is returned only with return_access_keys, never
in the diff, and asking for it never makes a write."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

from ansible_collections.openkeel.manila.plugins.modules import share_access as module
from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Fail,
    run_scripted,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
)

SHARE_ID = '11111111-2222-3333-4444-555555555555'
SHARE = {'id': SHARE_ID, 'name': 'cephfs-data', 'size': 1, 'share_proto': 'CEPHFS',
         'status': 'available', 'access_rules_status': 'active'}
KEY = 'AQBv0qhjAAAAABAAg5M0Zc3N8tJ4F3LwHs+T0g=='
APP1 = {'id': 'c1', 'access_type': 'cephx', 'access_to': 'app1', 'access_level': 'rw',
        'state': 'active', 'access_key': KEY, 'metadata': {}}
HOST = {'id': 'i1', 'access_type': 'ip', 'access_to': '10.0.0.0/24', 'access_level': 'rw',
        'state': 'active', 'access_key': None, 'metadata': {}}
SHARE_GET = ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': SHARE}))
RULES_GET = ('GET', '/v2/share-access-rules?share_id=' + SHARE_ID,
             ScriptedResponse(200, {'access_list': [APP1, HOST]}))


def run(monkeypatch, args, exchanges, check_mode=False):
    outcome, session = run_scripted(monkeypatch, module, args, exchanges, check_mode=check_mode,
                                    diff=True)
    assert not isinstance(outcome, Fail), outcome.result
    return outcome.result, session


RULES = [{'access_type': 'cephx', 'access_to': 'app1'}, {'access_type': 'ip', 'access_to': '10.0.0.0/24'}]


def test_no_key_by_default(monkeypatch):
    result, session = run(monkeypatch, {'share': SHARE_ID, 'rules': RULES}, [SHARE_GET, RULES_GET])
    assert result['changed'] is False
    assert KEY not in json.dumps(result)
    assert all('access_key' not in rule for rule in result['rules'])
    assert session.requests() == ['GET /', 'GET /v2/shares/' + SHARE_ID,
                                  'GET /v2/share-access-rules?share_id=' + SHARE_ID]


def test_keys_when_asked_for_with_one_more_read(monkeypatch):
    result, session = run(monkeypatch, {'share': SHARE_ID, 'rules': RULES, 'return_access_keys': True},
                          [SHARE_GET, RULES_GET, RULES_GET])
    assert result['changed'] is False
    keys = dict((rule['access_to'], rule['access_key']) for rule in result['rules'])
    assert keys == {'app1': KEY, '10.0.0.0/24': None}
    assert KEY not in json.dumps(result['diff'])
    assert [r.split()[0] for r in session.requests()] == ['GET', 'GET', 'GET', 'GET']


def test_keys_in_check_mode_send_no_write(monkeypatch):
    # app2 is new: in check mode it has no ID and no key yet; app1 keeps its key
    result, session = run(monkeypatch, {
        'share': SHARE_ID, 'return_access_keys': True,
        'rules': RULES + [{'access_type': 'cephx', 'access_to': 'app2'}]},
        [SHARE_GET, RULES_GET, RULES_GET], check_mode=True)
    assert result['changed'] is True
    keys = dict((rule['access_to'], rule['access_key']) for rule in result['rules'])
    assert keys == {'app1': KEY, 'app2': None, '10.0.0.0/24': None}
    assert KEY not in json.dumps(result['diff'])
    assert all(r.startswith('GET ') for r in session.requests())
