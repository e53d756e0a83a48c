# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The base every module of the collection builds on.

It holds the shared connection options, builds the session through
openstacksdk's config loader, finds the v2 shared-file-system endpoint, and is
the one place where errors become ``fail_json``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import traceback

from ansible.module_utils.basic import AnsibleModule, missing_required_lib

from ansible_collections.openkeel.manila.plugins.module_utils.client import (
    CheckModeWrite,
    ConfigurationError,
    Forbidden,
    ManilaClient,
    ManilaError,
    SERVICE_TYPES,
)

try:
    from openstack import config as sdk_config
    from keystoneauth1 import exceptions as ksa_exc
    HAS_SDK = True
    SDK_IMPORT_ERROR = None
except ImportError:
    HAS_SDK = False
    SDK_IMPORT_ERROR = traceback.format_exc()


def auth_argument_spec():
    return dict(
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
        api_version=dict(type='str'),
    )


def wait_argument_spec(default_timeout):
    """``wait`` and ``timeout`` for a module that waits on Manila."""
    return dict(
        wait=dict(type='bool', default=True),
        timeout=dict(type='int', default=default_timeout),
    )


def find_catalog_endpoint(catalog, interface, region_name):
    """The v2 Manila endpoint in a v3 service catalog (a list of services).

    Only ``shared-file-system`` and ``sharev2`` count, in that order: the
    ``share`` type is Manila's v1 API.
    """
    for service_type in SERVICE_TYPES:
        for service in catalog or []:
            if service.get('type') != service_type:
                continue
            for endpoint in service.get('endpoints') or []:
                if endpoint.get('interface') != interface:
                    continue
                region = endpoint.get('region_id') or endpoint.get('region')
                if region_name and region != region_name:
                    continue
                return endpoint.get('url')
    return None


class ManilaModule(object):
    """Subclasses set ``argument_spec`` (and friends) and implement ``run()``."""

    argument_spec = {}
    module_kwargs = {}

    def __init__(self):
        spec = auth_argument_spec()
        spec.update(self.argument_spec)
        self.ansible = AnsibleModule(argument_spec=spec, supports_check_mode=True,
                                     **self.module_kwargs)
        self.params = self.ansible.params
        self.check_mode = self.ansible.check_mode
        self.diff_mode = self.ansible._diff
        self.warnings = []
        self._client = None
        timeout = self.params.get('timeout')
        if timeout is not None and timeout < 1:
            self.fail('timeout must be a positive number of seconds, got %s.' % timeout)

    # -- connection ------------------------------------------------------
    @property
    def client(self):
        if self._client is None:
            self._client = self._connect()
        return self._client

    def _connect(self):
        if not HAS_SDK:
            self.ansible.fail_json(msg=missing_required_lib('openstacksdk'),
                                   exception=SDK_IMPORT_ERROR)
        region = self._cloud_region()
        session = region.get_session()
        endpoint = region.get_endpoint('shared-file-system')
        if not endpoint:
            endpoint = self._endpoint_from_catalog(session, region)
        api_version = self.params.get('api_version')
        client = ManilaClient(session, endpoint, api_version_cap=api_version,
                              check_mode=self.check_mode)
        client.negotiate()
        return client

    def _cloud_region(self):
        p = self.params
        cloud = p.get('cloud')
        try:
            loader = sdk_config.OpenStackConfig()
            if isinstance(cloud, dict):
                return loader.get_one(**cloud)
            options = dict(
                auth=p.get('auth'), auth_type=p.get('auth_type'),
                region_name=p.get('region_name'), interface=p.get('interface'),
                verify=p.get('validate_certs'), cacert=p.get('ca_cert'),
                cert=p.get('client_cert'), key=p.get('client_key'),
                api_timeout=p.get('api_timeout'),
            )
            options = dict((k, v) for k, v in options.items() if v is not None)
            return loader.get_one(cloud=cloud, **options)
        except Exception as exc:  # pylint: disable=broad-except
            # openstacksdk raises several unrelated types for bad configuration
            # (OpenStackConfigException, keystoneauth's MissingRequiredOptions,
            # KeyError for an unknown auth plugin); all mean the same to a user.
            raise ConfigurationError(
                'Could not load the cloud configuration (%s: %s). Check "cloud", '
                '"auth" and "auth_type", clouds.yaml or OS_* variables.'
                % (type(exc).__name__, exc))

    def _endpoint_from_catalog(self, session, region):
        try:
            access = session.auth.get_access(session)
        except ksa_exc.ClientException as exc:
            raise ConfigurationError('Keystone authentication failed: %s' % exc)
        catalog = access.service_catalog.catalog if access.service_catalog else []
        interface = self.params.get('interface') or 'public'
        region_name = region.get_region_name('shared-file-system') or None
        endpoint = find_catalog_endpoint(catalog, interface, region_name)
        if not endpoint:
            raise ConfigurationError(
                'No %s endpoint of type shared-file-system or sharev2%s in the '
                'service catalog. Check region_name and interface, or set '
                'shared_file_system_endpoint_override in clouds.yaml.'
                % (interface, ' in region %s' % region_name if region_name else ''))
        return endpoint

    # -- running ---------------------------------------------------------
    def run(self):
        raise NotImplementedError

    def warn(self, message):
        self.warnings.append(message)

    def exit(self, **result):
        if self.warnings:
            result['warnings'] = self.warnings
        if self._client is not None and self._client.version is not None:
            result.setdefault('api_version', str(self._client.version))
        self.ansible.exit_json(**result)

    def fail(self, msg, **extra):
        if self.warnings:
            extra['warnings'] = self.warnings
        self.ansible.fail_json(msg=msg, **extra)

    def __call__(self):
        try:
            self.run()
        except CheckModeWrite as exc:
            self.fail('Internal error: %s. Nothing was sent.' % exc)
        except Forbidden as exc:
            self.fail('Manila refused the request: %s. The policy of this cloud '
                      'does not allow it for this user; it may need an admin.' % exc,
                      status=exc.status, request_id=exc.request_id)
        except ManilaError as exc:
            self.fail(str(exc), status=exc.status, request_id=exc.request_id)
