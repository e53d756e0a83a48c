# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""From a task's connection options to a negotiated ManilaClient.

Also the openstacksdk/keystoneauth log that ``sdk_log_path`` asks for.

The keystone session comes from openstacksdk's config loader (clouds.yaml,
``OS_*`` variables or an ``auth`` dict, exactly as openstack.cloud reads
them); the v2 shared-file-system endpoint from the loader or, failing that,
the service catalog.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import importlib.util
import logging
import re
import sys
import traceback

from urllib.parse import urlsplit, urlunsplit

from ansible_collections.openkeel.manila.plugins.module_utils.client import (
    ManilaClient,
    keystone_failure,
    with_keystone_retries,
)
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    ConfigurationError,
    InvalidInput,
)


def _import_sdk_parts():
    """openstacksdk's log helper and config loader, without the rest of openstacksdk.

    Importing the ``openstack`` package runs its ``__init__``, which loads the
    Connection class and every service proxy: about 0.15 s of CPU in every task,
    for code a module of this collection never calls.  Unless the package is
    imported already, it is entered in ``sys.modules`` without running that
    ``__init__``; its submodules load from its directory as usual.
    """
    if 'openstack' not in sys.modules:
        spec = importlib.util.find_spec('openstack')
        if spec is None:
            raise ImportError("No module named 'openstack'")
        sys.modules['openstack'] = importlib.util.module_from_spec(spec)
    from openstack import _log, config
    return _log, config


try:
    sdk_log, sdk_config = _import_sdk_parts()
    from keystoneauth1 import exceptions as ksa_exc
    SDK_IMPORT_ERROR = None
except ImportError:
    sdk_log = sdk_config = ksa_exc = None
    SDK_IMPORT_ERROR = traceback.format_exc()

# Catalog service types accepted for Manila's v2 API, best first.  The
# generic alias "share" is deliberately absent: it names the v1 API.
SERVICE_TYPES = ('shared-file-system', 'sharev2')


SDK_LOG_LEVELS = ('INFO', 'DEBUG')


def connection_argument_spec():
    """The options every module takes: those of openstack.cloud's doc fragment
    (same names, types, defaults and choices, so one module_defaults block
    serves both collections) and ``api_version``.

    ``wait`` and ``timeout`` are here for modules that never wait (they accept
    them and do nothing with them); a module that waits declares them again
    with its own default timeout (base.wait_argument_spec).
    """
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
        wait=dict(type='bool', default=True),
        timeout=dict(type='int', default=180),
        sdk_log_path=dict(type='str'),
        sdk_log_level=dict(type='str', default='INFO', choices=list(SDK_LOG_LEVELS)),
        api_version=dict(type='str'),
    )


# -- the openstacksdk/keystoneauth log (sdk_log_path, sdk_log_level) -------------

# Secrets that may appear in what keystoneauth logs at DEBUG: JSON fields of
# request and response bodies (cephx keys of access rules, passwords of
# security services or of an auth body) and token headers.  keystoneauth itself
# logs token headers as hashes and never logs the token request, but this
# filter does not rely on it.
_SECRET_JSON_FIELD = re.compile(
    r'("(?:access_key|password|secret|application_credential_secret|passcode)"'
    r'\s*:\s*)"(?:[^"\\]|\\.)*"')
_SECRET_HEADER = re.compile(
    r'((?:X-Auth-Token|X-Subject-Token|X-Service-Token|Authorization)["\']?\s*:\s*["\']?'
    r'(?:(?:Bearer|Basic|Negotiate|Token)\s+)?)(?!\{SHA256\})[^\s"\']+', re.IGNORECASE)
REDACTED = '<redacted>'
MIN_SECRET_LENGTH = 4

# sdk_log_path -> its handler, so a second connection in one task adds no second one
_SDK_LOG_HANDLERS = {}


def redact(text, secrets=()):
    """``text`` with the known secret fields, token headers and ``secrets``
    (literal values) replaced by ``<redacted>``."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, REDACTED)
    text = _SECRET_JSON_FIELD.sub(r'\1"%s"' % REDACTED, text)
    return _SECRET_HEADER.sub(r'\1%s' % REDACTED, text)


class RedactingFilter(logging.Filter):
    """Redacts every record before the handler writes it."""

    def __init__(self, secrets=()):
        super(RedactingFilter, self).__init__()
        # (a value of a few characters would blank out unrelated text)
        self.secrets = sorted((s for s in secrets if s and len(s) >= MIN_SECRET_LENGTH),
                              key=len, reverse=True)

    def filter(self, record):
        message = record.getMessage()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        record.msg = redact(message, self.secrets)
        record.args = None
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self.secrets)
        return True


def task_secrets(params):
    """The secret values a task gives itself (in ``auth``), to keep out of the log."""
    auth = params.get('auth') or {}
    cloud = params.get('cloud')
    if isinstance(cloud, dict):
        auth = dict(cloud.get('auth') or {}, **auth)
    return [str(value) for key, value in auth.items()
            if value and any(word in key for word in ('password', 'secret', 'token', 'passcode'))]


def setup_sdk_logging(params):
    """Log openstacksdk and keystoneauth to ``sdk_log_path``, as openstack.cloud does.

    Nothing happens without ``sdk_log_path``.  ``sdk_log_level`` DEBUG logs
    every HTTP request and response (openstacksdk's ``http_debug``); INFO
    logs what openstacksdk and keystoneauth say at that level.  The file is
    appended to.  Secrets are redacted (RedactingFilter).
    """
    path = params.get('sdk_log_path')
    if not path:
        return None
    if path in _SDK_LOG_HANDLERS:
        return _SDK_LOG_HANDLERS[path]
    try:
        handler = logging.FileHandler(path)
    except (IOError, OSError) as exc:
        raise InvalidInput('sdk_log_path: cannot write the log file %s (%s).'
                           % (path, exc.strerror or exc))
    handler.addFilter(RedactingFilter(task_secrets(params)))
    debug = params.get('sdk_log_level') == 'DEBUG'
    sdk_log.enable_logging(debug=debug, http_debug=debug, handlers=[handler])
    _SDK_LOG_HANDLERS[path] = handler
    return handler


def find_catalog_endpoint(catalog, interface, region_name, service_types=SERVICE_TYPES):
    """The v2 Manila endpoint in a v3 service catalog (a list of services).

    Only ``shared-file-system`` and ``sharev2`` count, in that order: the
    ``share`` type is Manila's v1 API.  ``service_types``: other types to
    look for instead (``('identity',)``).
    """
    for service_type in service_types:
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


def _check_cloud_option(cloud):
    """Refuse a ``cloud`` that is neither a cloud's name nor a dict of settings."""
    if cloud is None or isinstance(cloud, str):
        return
    if not isinstance(cloud, dict):
        raise ConfigurationError(
            'cloud must be the name of a cloud in clouds.yaml (a string: quote a name '
            'such as "5") or a dict of connection settings (auth, region_name, ...), '
            'not a %s.' % type(cloud).__name__)
    for key in ('auth',):
        if cloud.get(key) is not None and not isinstance(cloud[key], dict):
            raise ConfigurationError(
                'cloud.%s must be a dict (auth_url, username, ...), not a %s.'
                % (key, type(cloud[key]).__name__))


def _check_api_timeout(value, where='api_timeout'):
    """Refuse an api_timeout (from the task or clouds.yaml) that is not above 0."""
    if value is None or value == '':
        return
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        raise ConfigurationError('%s must be a number of seconds, not %r.' % (where, value))
    if not seconds > 0:  # pylint: disable=unnecessary-negation  # NaN too
        raise ConfigurationError(
            '%s must be above 0 (seconds that each request to the cloud may take; '
            'leave it unset for no limit), not %s.' % (where, value))


def cloud_region(params):
    """openstacksdk's CloudRegion for the task's connection options."""
    cloud = params.get('cloud')
    _check_cloud_option(cloud)
    _check_api_timeout(params.get('api_timeout'))
    region = _load_cloud_region(params, cloud)
    config = getattr(region, 'config', None)
    if isinstance(config, dict) and params.get('api_timeout') is None:
        _check_api_timeout(config.get('api_timeout'),
                           'api_timeout (of the cloud configuration)')
    return region


def _load_cloud_region(params, cloud):
    try:
        loader = sdk_config.OpenStackConfig()
        if isinstance(cloud, dict):
            return loader.get_one(**cloud)
        options = dict(
            auth=params.get('auth'), auth_type=params.get('auth_type'),
            region_name=params.get('region_name'), interface=params.get('interface'),
            verify=params.get('validate_certs'), cacert=params.get('ca_cert'),
            cert=params.get('client_cert'), key=params.get('client_key'),
            api_timeout=params.get('api_timeout'),
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


def catalog_endpoint(session, region, interface):
    """The Manila endpoint from the token's service catalog."""
    access = session.auth.get_access(session)
    catalog = access.service_catalog.catalog if access.service_catalog else []
    region_name = region.get_region_name('shared-file-system') or None
    endpoint = find_catalog_endpoint(catalog, interface, region_name)
    if not endpoint:
        raise ConfigurationError(
            'No %s endpoint of type shared-file-system or sharev2%s in the '
            'service catalog. Check region_name and interface, or set '
            'shared_file_system_endpoint_override in clouds.yaml.'
            % (interface, ' in region %s' % region_name if region_name else ''))
    return endpoint


def keystone_v3_url(url):
    """Keystone's v3 API under ``url`` (a catalog entry or auth_url, with or
    without a version)."""
    parts = urlsplit(url)
    path = re.sub(r'/v(2\.0|3(\.\d+)?)$', '', parts.path.rstrip('/')) + '/v3'
    return urlunsplit((parts.scheme, parts.netloc, path, '', ''))


def identity_url(session, region, interface):
    """Keystone's v3 URL: the identity entry of the token's catalog (in the
    task's region when it has one there), else the auth URL."""
    def from_catalog():
        access = session.auth.get_access(session)
        catalog = access.service_catalog.catalog if access.service_catalog else []
        return (find_catalog_endpoint(catalog, interface,
                                      region.get_region_name('identity') or None,
                                      ('identity',))
                or find_catalog_endpoint(catalog, interface, None, ('identity',)))
    url = with_keystone_retries(from_catalog) or getattr(session.auth, 'auth_url', None)
    return keystone_v3_url(url) if url else None


def connect(params, check_mode=False):
    """A ManilaClient for the task, with its microversion negotiated.

    Whatever asks Keystone here (the catalog, when no endpoint override is
    configured) is retried on 5xx and connection errors; the client does the
    same for the token it needs later.
    """
    region = cloud_region(params)
    try:
        session = region.get_session()
    except ksa_exc.ClientException as exc:
        raise keystone_failure(exc)

    def endpoint_from_config_or_catalog():
        return (region.get_endpoint('shared-file-system')
                or catalog_endpoint(session, region, params.get('interface') or 'public'))

    endpoint = with_keystone_retries(endpoint_from_config_or_catalog)
    client = ManilaClient(session, endpoint, api_version_cap=params.get('api_version'),
                          check_mode=check_mode)
    client.identity_url = lambda: identity_url(session, region,
                                               params.get('interface') or 'public')
    client.negotiate()
    return client
