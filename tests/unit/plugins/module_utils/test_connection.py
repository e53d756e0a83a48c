# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""connection.py: the common options, the catalog lookup, the cloud
configuration and connect(), on stand-ins for openstacksdk's objects."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import importlib.util
import sys
import types

import pytest

from keystoneauth1 import exceptions as ksa_exc

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
