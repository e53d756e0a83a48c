# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""sdk_log_path / sdk_log_level: the openstacksdk and keystoneauth log, without secrets.

keystoneauth logs real requests here: a small HTTP server on 127.0.0.1 answers
with what the local cloud cannot produce (a cephx access key, a token header).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import logging
import threading

from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from keystoneauth1 import session as ksa_session

from ansible_collections.openkeel.manila.plugins.module_utils import connection
from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput

TOKEN = 'gAAAAAB-token-that-must-not-be-logged'
CEPHX_KEY = 'AQBc9vRgAAAAABAAz8F0aXJ2bXBsZS1rZXktZm9yLXRlc3Q=='
PASSWORD = 'pa55-word-of-the-task'
RULES = {'access_list': [{'id': 'r1', 'access_type': 'cephx', 'access_to': 'alice',
                          'access_level': 'rw', 'state': 'active', 'access_key': CEPHX_KEY}]}


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (the name http.server calls)
        body = json.dumps(RULES).encode('utf-8')
        self.send_response(200)
        self.send_header('Content-Type', 'application/json')
        self.send_header('X-Subject-Token', TOKEN)
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):  # keep the test output quiet
        pass


@pytest.fixture
def server():
    httpd = HTTPServer(('127.0.0.1', 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever)
    thread.daemon = True
    thread.start()
    yield 'http://127.0.0.1:%d' % httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def sdk_log(tmp_path):
    """Set up the log as a module would; undo it afterwards (loggers are global)."""
    loggers = [logging.getLogger(name) for name in ('openstack', 'keystoneauth')]
    saved = [(log, log.level, list(log.handlers)) for log in loggers]
    handlers = []

    def setup(**params):
        params.setdefault('sdk_log_path', str(tmp_path / 'sdk.log'))
        params.setdefault('sdk_log_level', 'INFO')
        handler = connection.setup_sdk_logging(params)
        handlers.append(handler)
        return params['sdk_log_path']
    yield setup
    for handler in handlers:
        if handler is not None:
            handler.close()
    connection._SDK_LOG_HANDLERS.clear()
    for log, level, old_handlers in saved:
        log.setLevel(level)
        log.handlers[:] = old_handlers


def read(path):
    with open(path) as f:
        return f.read()


def test_debug_logs_requests_and_responses_without_token_or_cephx_key(server, sdk_log):
    path = sdk_log(sdk_log_level='DEBUG')
    response = ksa_session.Session().request(
        server + '/v2/shares/abc/access-rules', 'GET',
        headers={'X-Auth-Token': TOKEN, 'X-OpenStack-Manila-API-Version': '2.99'})
    assert response.json() == RULES
    text = read(path)
    # the request, the response and its body are there ...
    assert 'REQ: curl -g -i -X GET %s/v2/shares/abc/access-rules' % server in text
    assert 'X-OpenStack-Manila-API-Version: 2.99' in text
    assert 'RESP BODY:' in text and '"access_to": "alice"' in text
    assert '"access_key": "<redacted>"' in text
    # ... the secrets are not: keystoneauth itself logs token headers as hashes
    assert 'X-Auth-Token: {SHA256}' in text and 'X-Subject-Token: {SHA256}' in text
    assert TOKEN not in text
    assert CEPHX_KEY not in text


def test_info_level_leaves_out_the_http_traffic(server, sdk_log):
    path = sdk_log(sdk_log_level='INFO')
    ksa_session.Session().request(server + '/v2/shares', 'GET', headers={'X-Auth-Token': TOKEN})
    logging.getLogger('openstack.test').info('an info line')
    text = read(path)
    assert 'INFO: openstack.test an info line' in text
    assert 'REQ:' not in text and TOKEN not in text


def test_secrets_the_task_gives_are_redacted_wherever_they_appear(sdk_log):
    path = sdk_log(auth={'username': 'alice', 'password': PASSWORD,
                         'auth_url': 'http://127.0.0.1:5000/v3'})
    logging.getLogger('keystoneauth.test').warning('failed for %s with %s', 'alice', PASSWORD)
    text = read(path)
    assert 'failed for alice with <redacted>' in text
    assert PASSWORD not in text


def test_a_second_connection_adds_no_second_handler(sdk_log):
    path = sdk_log()
    assert sdk_log(sdk_log_path=path) == path
    logging.getLogger('openstack.test').warning('once')
    assert read(path).count('once') == 1


def test_secrets_in_a_cloud_dict_are_redacted_too(sdk_log):
    path = sdk_log(cloud={'auth': {'application_credential_secret': 'app-cred-secret'}})
    logging.getLogger('openstack.test').warning('secret app-cred-secret seen')
    assert 'app-cred-secret' not in read(path)


def test_no_path_no_log():
    assert connection.setup_sdk_logging({'sdk_log_path': None, 'sdk_log_level': 'DEBUG'}) is None


def test_a_log_file_that_cannot_be_written_fails_naming_the_option(tmp_path):
    with pytest.raises(InvalidInput) as err:
        connection.setup_sdk_logging({'sdk_log_path': str(tmp_path / 'missing' / 'sdk.log'),
                                      'sdk_log_level': 'INFO'})
    assert err.value.message.startswith('sdk_log_path: cannot write the log file ')


@pytest.mark.parametrize('text, expected', [
    ('RESP BODY: {"access_key": "AQB+x/y==", "id": "1"}',
     'RESP BODY: {"access_key": "<redacted>", "id": "1"}'),
    ('{"security_service": {"user": "u", "password": "p\\"w"}}',
     '{"security_service": {"user": "u", "password": "<redacted>"}}'),
    ('{"access_key": null}', '{"access_key": null}'),
    ('-H "X-Auth-Token: raw-token" -H "Accept: application/json"',
     '-H "X-Auth-Token: <redacted>" -H "Accept: application/json"'),
    ('-H "X-Auth-Token: {SHA256}0af1"', '-H "X-Auth-Token: {SHA256}0af1"'),
    ('RESP: [201] x-subject-token: abc Vary: X-Auth-Token',
     'RESP: [201] x-subject-token: <redacted> Vary: X-Auth-Token'),
    ("{'Authorization': 'Bearer abc.def'}", "{'Authorization': 'Bearer <redacted>'}"),
])
def test_redact(text, expected):
    assert connection.redact(text) == expected


def test_the_secret_fields_of_the_task_auth_and_of_a_cloud_dict():
    auth = {'username': 'alice', 'password': 'p-1', 'token': 't-1', 'passcode': 'c-1',
            'application_credential_secret': 's-1', 'user_domain_name': 'Default'}
    assert sorted(connection.task_secrets({'auth': auth})) == ['c-1', 'p-1', 's-1', 't-1']
    # both the cloud dict's and the task's own; the task's value wins a shared key
    params = {'cloud': {'auth': {'password': 'cloud-pw', 'token': 'cloud-token'}},
              'auth': {'token': 'task-token'}}
    assert sorted(connection.task_secrets(params)) == ['cloud-pw', 'task-token']


def redacted_by_filter(secrets, message):
    record = logging.LogRecord('openstack.test', logging.WARNING, __file__, 1, '%s', (message,), None)
    connection.RedactingFilter(secrets).filter(record)
    return record.getMessage()


def test_the_filter_redacts_from_four_characters_on_and_the_longest_secret_first():
    assert redacted_by_filter(['abc', 'abcd'], 'abc abcd') == 'abc <redacted>'
    # 'abcdefgh' inside 'abcdefghijkl': the longer goes first, nothing of it is left
    assert redacted_by_filter(['abcdefgh', 'abcdefghijkl'], 'x abcdefghijkl y') == 'x <redacted> y'
    # by length, not by text: 'bcdz' sorts after 'abcdzz' but lies inside it
    assert redacted_by_filter(['bcdz', 'abcdzz'], 'x abcdzz y bcdz') == 'x <redacted> y <redacted>'
    assert redacted_by_filter(['', None, 'abcd'], 'abcd') == '<redacted>'


def test_an_exception_logged_with_a_secret_is_redacted(sdk_log):
    path = sdk_log(auth={'password': PASSWORD})
    try:
        raise ValueError('refused %s' % PASSWORD)
    except ValueError:
        logging.getLogger('keystoneauth.test').exception('the call failed')
    text = read(path)
    assert 'the call failed' in text and 'ValueError: refused <redacted>' in text
    assert PASSWORD not in text


@pytest.mark.parametrize('level,debug', [('DEBUG', True), ('INFO', False)])
def test_the_level_sets_both_debug_flags_of_openstacksdk(sdk_log, monkeypatch, level, debug):
    seen = []
    monkeypatch.setattr(connection.sdk_log, 'enable_logging',
                        lambda **kwargs: seen.append(kwargs))
    sdk_log(sdk_log_level=level)
    assert len(seen) == 1
    assert (seen[0]['debug'], seen[0]['http_debug']) == (debug, debug)
    assert len(seen[0]['handlers']) == 1


def test_the_second_setup_returns_the_first_handler(sdk_log):
    path = sdk_log()
    first = connection._SDK_LOG_HANDLERS[path]
    assert first is not None
    assert connection.setup_sdk_logging({'sdk_log_path': path, 'sdk_log_level': 'INFO'}) is first
