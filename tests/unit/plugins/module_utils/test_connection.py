# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""connection.py: the common options, the catalog lookup, the cloud
configuration and connect(), on stand-ins for openstacksdk's objects; Keystone's
URL; and sdk_log_path / sdk_log_level, the openstacksdk and keystoneauth log
without secrets."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import importlib.util
import json
import logging
import sys
import threading
import types

from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from keystoneauth1 import exceptions as ksa_exc
from keystoneauth1 import session as ksa_session

from ansible_collections.openkeel.manila.plugins.module_utils import connection
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    ConfigurationError,
    InvalidInput,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedSession,
    versions_exchange,
)


def test_the_common_options():
    spec = connection.connection_argument_spec()
    assert spec == dict(
        cloud=dict(type='raw'),
        auth=dict(type='dict', no_log=True),
        auth_type=dict(type='str'),
        region_name=dict(type='str'),
        interface=dict(type='str', default='public', aliases=['endpoint_type'],
                       choices=['admin', 'internal', 'public']),
        validate_certs=dict(type='bool', aliases=['verify']),
        ca_cert=dict(type='str', aliases=['cacert']),
        client_cert=dict(type='str', aliases=['cert']),
        client_key=dict(type='str', no_log=True, aliases=['key']),
        api_timeout=dict(type='int'),
        wait=dict(type='bool', default=True),
        timeout=dict(type='int', default=180),
        sdk_log_path=dict(type='str'),
        sdk_log_level=dict(type='str', default='INFO', choices=['INFO', 'DEBUG']),
        api_version=dict(type='str'),
    )


def service(kind, *endpoints):
    return {'type': kind, 'endpoints': [dict(interface=i, region_id=r, url=u) for i, r, u in endpoints]}


CATALOG = [
    service('share', ('public', 'r1', 'http://v1')),
    service('sharev2', ('public', 'r1', 'http://sharev2-r1'), ('internal', 'r1', 'http://int')),
    service('shared-file-system', ('admin', 'r1', 'http://admin'), ('public', 'r2', 'http://sfs-r2'),
            ('public', 'r1', 'http://sfs-r1')),
]


@pytest.mark.parametrize('interface,region,url', [
    ('public', None, 'http://sfs-r2'),
    ('public', 'r1', 'http://sfs-r1'),
    ('internal', 'r1', 'http://int'),
    ('admin', None, 'http://admin'),
    ('public', 'r3', None),
])
def test_find_catalog_endpoint(interface, region, url):
    assert connection.find_catalog_endpoint(CATALOG, interface, region) == url


def test_find_catalog_endpoint_edges():
    assert connection.find_catalog_endpoint(None, 'public', None) is None
    assert connection.find_catalog_endpoint([service('share', ('public', None, 'http://v1'))],
                                            'public', None) is None
    old_style = [{'type': 'sharev2', 'endpoints': [{'interface': 'public', 'region': 'r9', 'url': 'u'}]}]
    assert connection.find_catalog_endpoint(old_style, 'public', 'r9') == 'u'
    assert connection.find_catalog_endpoint([{'type': 'sharev2', 'endpoints': None}], 'public', None) is None


class Loader(object):
    calls = []

    def get_one(self, **kwargs):
        Loader.calls.append(kwargs)
        if kwargs.get('cloud') == 'broken':
            raise KeyError('no such plugin')
        return 'region'


def test_cloud_region_options(monkeypatch):
    monkeypatch.setattr(connection.sdk_config, 'OpenStackConfig', Loader)
    Loader.calls = []
    params = dict(cloud='c', auth={'a': 1}, auth_type='password', region_name='r',
                  interface='internal', validate_certs=False, ca_cert='ca', client_cert='cert',
                  client_key='key', api_timeout=5)
    assert connection.cloud_region(params) == 'region'
    assert Loader.calls[-1] == dict(cloud='c', auth={'a': 1}, auth_type='password', region_name='r',
                                    interface='internal', verify=False, cacert='ca', cert='cert',
                                    key='key', api_timeout=5)
    connection.cloud_region(dict(cloud='c', interface=None))
    assert Loader.calls[-1] == {'cloud': 'c'}
    connection.cloud_region(dict(cloud={'auth': {'x': 1}, 'region_name': 'r'}))
    assert Loader.calls[-1] == {'auth': {'x': 1}, 'region_name': 'r'}
    with pytest.raises(ConfigurationError) as err:
        connection.cloud_region(dict(cloud='broken'))
    assert str(err.value).startswith("Could not load the cloud configuration (KeyError: 'no such plugin').")


class Access(object):
    def __init__(self, catalog):
        self.service_catalog = type('Catalog', (), {'catalog': catalog})() if catalog is not None else None


class Auth(object):
    def __init__(self, catalog):
        self.catalog = catalog

    def get_access(self, session):
        return Access(self.catalog)


class Region(object):
    def __init__(self, region=None, override=None, session=None):
        self.region = region
        self.override = override
        self.session = session

    def get_region_name(self, service_type):
        assert service_type == 'shared-file-system'
        return self.region

    def get_endpoint(self, service_type):
        assert service_type == 'shared-file-system'
        return self.override

    def get_session(self):
        if isinstance(self.session, Exception):
            raise self.session
        return self.session


def test_catalog_endpoint():
    session = type('S', (), {})()
    session.auth = Auth(CATALOG)
    assert connection.catalog_endpoint(session, Region('r1'), 'public') == 'http://sfs-r1'
    assert connection.catalog_endpoint(session, Region(''), 'public') == 'http://sfs-r2'
    with pytest.raises(ConfigurationError) as err:
        connection.catalog_endpoint(session, Region('r3'), 'public')
    assert str(err.value).startswith('No public endpoint of type shared-file-system or sharev2 in '
                                     'region r3 in the service catalog.')
    session.auth = Auth(None)
    with pytest.raises(ConfigurationError) as err:
        connection.catalog_endpoint(session, Region(None), 'admin')
    assert str(err.value).startswith('No admin endpoint of type shared-file-system or sharev2 in '
                                     'the service catalog.')


def test_connect_with_an_override_negotiates(monkeypatch):
    session = ScriptedSession([versions_exchange('2.70')])
    monkeypatch.setattr(connection, 'cloud_region',
                        lambda params: Region(override='http://127.0.0.1:8786/v2', session=session))
    client = connection.connect({'api_version': '2.60'}, check_mode=True)
    assert str(client.version) == '2.60' and client.check_mode is True
    assert client.endpoint == 'http://127.0.0.1:8786/v2' and client.session is session


def test_connect_from_the_catalog(monkeypatch):
    session = ScriptedSession([versions_exchange('2.99')])
    session.auth = Auth([service('sharev2', ('internal', None, 'http://127.0.0.1:8786/v2'))])
    monkeypatch.setattr(connection, 'cloud_region', lambda params: Region(session=session))
    client = connection.connect({'interface': 'internal'})
    assert client.endpoint == 'http://127.0.0.1:8786/v2' and client.check_mode is False
    session = ScriptedSession([versions_exchange('2.99')])
    session.auth = Auth([service('sharev2', ('public', None, 'http://127.0.0.1:8786/v2'))])
    monkeypatch.setattr(connection, 'cloud_region', lambda params: Region(session=session))
    assert connection.connect({}).endpoint == 'http://127.0.0.1:8786/v2'


def test_connect_when_keystone_refuses_the_session(monkeypatch):
    monkeypatch.setattr(connection, 'cloud_region',
                        lambda params: Region(session=ksa_exc.Unauthorized('no')))
    with pytest.raises(ConfigurationError) as err:
        connection.connect({})
    assert err.value.status == 401 and str(err.value).startswith('Keystone authentication failed')


def test_connect_reads_the_catalog_with_the_session_of_the_task_params(monkeypatch):
    seen = {}
    session = ScriptedSession([versions_exchange('2.99')])

    class SeeingAuth(Auth):
        def get_access(self, session):
            seen['session'] = session
            return Auth.get_access(self, session)

    def cloud_region(params):
        seen['params'] = params
        return Region(session=session)
    session.auth = SeeingAuth([service('sharev2', ('public', None, 'http://127.0.0.1:8786/v2'))])
    monkeypatch.setattr(connection, 'cloud_region', cloud_region)
    params = {'interface': 'public', 'cloud': 'devstack'}
    connection.connect(params)
    assert seen == {'params': params, 'session': session}


def identity(*endpoints):
    return {'type': 'identity', 'endpoints': [dict(interface=i, region_id=r, url=u) for i, r, u in endpoints]}


class IdentityRegion(Region):
    def get_region_name(self, service_type):
        return self.region


@pytest.mark.parametrize('params,url', [
    ({'interface': 'internal'}, 'http://k-int-r2/v3'),
    ({}, 'http://k-pub-r2/v3'),
    ({'interface': None}, 'http://k-pub-r2/v3'),
])
def test_the_client_asks_the_catalog_of_the_task_for_keystone(monkeypatch, params, url):
    seen = []
    session = ScriptedSession([versions_exchange('2.99')])

    class SeeingAuth(Auth):
        auth_url = 'http://auth:5000'

        def get_access(self, session):
            seen.append(session)
            return Auth.get_access(self, session)
    session.auth = SeeingAuth([identity(('public', 'r1', 'http://k-pub-r1'), ('public', 'r2', 'http://k-pub-r2'),
                                        ('internal', 'r1', 'http://k-int-r1'),
                                        ('internal', 'r2', 'http://k-int-r2'))])
    monkeypatch.setattr(connection, 'cloud_region', lambda params: IdentityRegion(
        'r2', override='http://127.0.0.1:8786/v2', session=session))
    client = connection.connect(params)
    assert seen == []
    assert client.identity_url() == url
    assert seen == [session]


def test_without_an_identity_entry_nor_an_auth_url_keystone_is_unknown():
    session = type('S', (), {})()
    session.auth = Auth(None)      # a token without a catalog, an auth plugin without auth_url
    assert connection.identity_url(session, IdentityRegion(None), 'public') is None
    session.auth.auth_url = 'http://auth:5000/v2.0'
    assert connection.identity_url(session, IdentityRegion(None), 'public') == 'http://auth:5000/v3'


def test_keystone_v3_url_keeps_the_path_before_the_version():
    assert connection.keystone_v3_url('https://cloud.example/KEYSTONEX/') == 'https://cloud.example/KEYSTONEX/v3'


@pytest.mark.parametrize('url,v3', [
    ('http://k:5000/v3', 'http://k:5000/v3'), ('http://k:5000/v3/', 'http://k:5000/v3'),
    ('http://k:5000', 'http://k:5000/v3'), ('https://h/identity', 'https://h/identity/v3'),
    ('https://h/identity/v2.0', 'https://h/identity/v3'), ('http://k/v3.14', 'http://k/v3'),
])
def test_keystone_v3_url(url, v3):
    assert connection.keystone_v3_url(url) == v3


class KeystoneRegion(object):
    """A cloud region that is only asked for the region of Keystone."""

    def __init__(self, region):
        self.region = region

    def get_region_name(self, service_type):
        assert service_type == 'identity'
        return self.region


def test_identity_url_from_the_catalog_or_the_auth_url():
    session = type('S', (), {})()
    session.auth = Auth([identity(('public', 'r1', 'http://k1/v3'),
                                  ('public', 'r2', 'http://k2'),
                                  ('internal', 'r2', 'http://k3'))])
    session.auth.auth_url = 'http://auth:5000'
    assert connection.identity_url(session, KeystoneRegion('r2'), 'public') == 'http://k2/v3'
    assert connection.identity_url(session, KeystoneRegion('r9'), 'public') == 'http://k1/v3'
    assert connection.identity_url(session, KeystoneRegion(None), 'internal') == 'http://k3/v3'
    assert connection.identity_url(session, KeystoneRegion(None), 'admin') == 'http://auth:5000/v3'
    session.auth = Auth([])
    session.auth.auth_url = None
    assert connection.identity_url(session, KeystoneRegion(None), 'public') is None


def test_a_log_file_that_cannot_be_written_says_why(tmp_path):
    path = str(tmp_path / 'missing' / 'sdk.log')
    with pytest.raises(InvalidInput) as err:
        connection.setup_sdk_logging({'sdk_log_path': path})
    assert err.value.message == ('sdk_log_path: cannot write the log file %s (No such file or '
                                 'directory).' % path)


def test_the_sdk_parts_load_without_the_init_of_the_openstack_package(monkeypatch):
    monkeypatch.delitem(sys.modules, 'openstack', raising=False)
    sdk_log, sdk_config = connection._import_sdk_parts()
    assert sdk_log.__name__ == 'openstack._log' and sdk_config.__name__ == 'openstack.config'
    package = sys.modules['openstack']
    assert package.__spec__.name == 'openstack' and not hasattr(package, 'connect')


def test_an_openstack_package_loaded_already_is_used_as_it_is(monkeypatch):
    package = types.ModuleType('openstack')
    package._log, package.config = 'its log', 'its config'
    monkeypatch.setitem(sys.modules, 'openstack', package)
    assert connection._import_sdk_parts() == ('its log', 'its config')
    assert sys.modules['openstack'] is package


def test_without_openstacksdk_the_sdk_parts_do_not_import(monkeypatch):
    monkeypatch.delitem(sys.modules, 'openstack', raising=False)
    monkeypatch.setattr(importlib.util, 'find_spec', lambda name: None)
    with pytest.raises(ImportError) as err:
        connection._import_sdk_parts()
    assert str(err.value) == "No module named 'openstack'"
    assert 'openstack' not in sys.modules


# -- sdk_log_path / sdk_log_level: the openstacksdk and keystoneauth log, without secrets ----
# keystoneauth logs real requests here: a small HTTP server on 127.0.0.1 answers
# with what the local cloud cannot produce (a cephx access key, a token header).

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


# -- options refused before anything is loaded (issue 37) -----------------------------

class ConfiguredRegion(object):
    def __init__(self, config):
        self.config = config


@pytest.mark.parametrize('api_timeout', [0, -1, -0.5])
def test_an_api_timeout_not_above_zero_is_refused_naming_it(monkeypatch, api_timeout):
    monkeypatch.setattr(connection.sdk_config, 'OpenStackConfig', Loader)
    Loader.calls = []
    with pytest.raises(ConfigurationError) as err:
        connection.cloud_region(dict(cloud='c', api_timeout=api_timeout))
    assert str(err.value).startswith('api_timeout must be above 0')
    assert Loader.calls == []


def test_an_api_timeout_of_clouds_yaml_not_above_zero_is_refused_too(monkeypatch):
    class YamlLoader(object):
        def get_one(self, **kwargs):
            return ConfiguredRegion({'api_timeout': '0'})
    monkeypatch.setattr(connection.sdk_config, 'OpenStackConfig', YamlLoader)
    with pytest.raises(ConfigurationError) as err:
        connection.cloud_region(dict(cloud='c'))
    assert 'api_timeout (of the cloud configuration) must be above 0' in str(err.value)
    region = connection.cloud_region(dict(cloud='c', api_timeout=5))
    assert region.config == {'api_timeout': '0'}  # the task's own value wins


@pytest.mark.parametrize('cloud,needle', [
    (5, 'not a int'),
    (['a'], 'not a list'),
    (True, 'not a bool'),
    ({'auth': 'x'}, 'cloud.auth must be a dict'),
    ({'auth': ['x']}, 'cloud.auth must be a dict'),
])
def test_a_junk_cloud_is_refused_naming_it(monkeypatch, cloud, needle):
    monkeypatch.setattr(connection.sdk_config, 'OpenStackConfig', Loader)
    Loader.calls = []
    with pytest.raises(ConfigurationError) as err:
        connection.cloud_region(dict(cloud=cloud))
    assert 'cloud' in str(err.value) and needle in str(err.value)
    assert 'AttributeError' not in str(err.value) and Loader.calls == []
