# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The one Manila client every module of this collection uses.

It owns: the keystone session (built by openstacksdk's config loader from
clouds.yaml, ``OS_*`` variables or an ``auth`` dict), the shared-file-system
endpoint, microversion negotiation (once per task), sending requests with the
negotiated version header, turning Manila's error bodies into one exception,
and retrying safe reads.  Modules never build URLs or headers themselves.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re
import time

try:
    from urllib.parse import urlencode, urlsplit, urlunsplit
except ImportError:  # pragma: no cover - Python 2 is not supported
    from urllib import urlencode  # noqa
    from urlparse import urlsplit, urlunsplit  # noqa

try:
    from keystoneauth1 import exceptions as ksa_exc
    HAS_KEYSTONEAUTH = True
except ImportError:
    ksa_exc = None
    HAS_KEYSTONEAUTH = False

from ansible_collections.openkeel.manila.plugins.module_utils.microversions import (
    APIVersion,
    MAX_KNOWN_VERSION,
    MIN_SUPPORTED_VERSION,
    feature_min_version,
    feature_needs_experimental,
)

VERSION_HEADER = 'X-OpenStack-Manila-API-Version'
EXPERIMENTAL_HEADER = 'X-OpenStack-Manila-API-Experimental'
REQUEST_ID_HEADERS = ('x-openstack-request-id', 'x-compute-request-id')

# Catalog service types accepted for Manila's v2 API, best first.  The
# generic alias "share" is deliberately absent: it names the v1 API.
SERVICE_TYPES = ('shared-file-system', 'sharev2')

RETRIABLE_STATUSES = (500, 502, 503, 504)
SAFE_METHODS = ('GET', 'HEAD')
UUID_RE = re.compile(r'^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?'
                     r'[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$')


def looks_like_uuid(value):
    return bool(value) and bool(UUID_RE.match(str(value)))


class ManilaError(Exception):
    """A request to Manila (or Keystone) that did not succeed.

    ``status`` is the HTTP status (None when no answer came back),
    ``message`` Manila's own message, ``request_id`` the id Manila logged.
    """

    def __init__(self, message, status=None, request_id=None, method=None,
                 url=None):
        super(ManilaError, self).__init__(message)
        self.message = message
        self.status = status
        self.request_id = request_id
        self.method = method
        self.url = url

    def __str__(self):
        parts = [self.message]
        if self.status is not None and self.method:
            parts.append('(HTTP %s on %s %s)' % (self.status, self.method,
                                                 _path_of(self.url)))
        elif self.status is not None:
            parts.append('(HTTP %s)' % self.status)
        if self.request_id:
            parts.append('[request id %s]' % self.request_id)
        return ' '.join(parts)


class NotFound(ManilaError):
    pass


class Forbidden(ManilaError):
    pass


class Conflict(ManilaError):
    pass


class UnsupportedFeature(ManilaError):
    """A feature the negotiated microversion cannot do (raised before any write)."""


class ConfigurationError(ManilaError):
    """Auth, endpoint or version problems found before talking to Manila's API."""


class CheckModeWrite(Exception):
    """A write was attempted in check mode: a bug, never sent to Manila."""


_STATUS_CLASSES = {403: Forbidden, 404: NotFound, 409: Conflict}


def _path_of(url):
    if not url:
        return ''
    parts = urlsplit(url)
    return parts.path + ('?' + parts.query if parts.query else '')


def error_from_response(response, method, url):
    """Build a ManilaError from an HTTP response with an error status."""
    message = None
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict):
        # Manila: {"itemNotFound": {"code": 404, "message": "..."}};
        # Keystone: {"error": {"code": 401, "message": "...", "title": ...}}
        for value in body.values():
            if isinstance(value, dict) and value.get('message'):
                message = value['message']
                break
        if message is None and body.get('message'):
            message = body['message']
    if not message:
        text = (getattr(response, 'text', '') or '').strip()
        message = text[:500] or 'HTTP %s with no message' % response.status_code
    headers = getattr(response, 'headers', {}) or {}
    request_id = None
    for name in REQUEST_ID_HEADERS:
        request_id = headers.get(name) or headers.get(name.title())
        if request_id:
            break
    cls = _STATUS_CLASSES.get(response.status_code, ManilaError)
    return cls(message, status=response.status_code, request_id=request_id,
               method=method, url=url)


def versions_document_url(endpoint):
    """Where the versions document of an endpoint lives.

    The catalog URL may be ``.../v2``, ``.../v2/<project>`` or have no version
    at all, possibly behind a path prefix (``https://host/share/v2``).  Cut at
    the last ``/vN`` segment and keep any prefix before it.
    """
    parts = urlsplit(endpoint)
    segments = parts.path.rstrip('/').split('/')
    cut = None
    for index, segment in enumerate(segments):
        if re.match(r'^v\d+(\.\d+)?$', segment):
            cut = index
    if cut is not None:
        segments = segments[:cut]
    path = '/'.join(segments).rstrip('/') + '/'
    return urlunsplit((parts.scheme, parts.netloc, path, '', ''))


def parse_versions_document(body):
    """Return (min_version, max_version) of the v2 API from a versions document."""
    versions = body.get('versions') if isinstance(body, dict) else None
    if versions is None and isinstance(body, dict) and 'version' in body:
        versions = [body['version']]
    if not versions:
        raise ConfigurationError(
            'The Manila endpoint answered without a versions list, so no '
            'microversion can be negotiated. Check that the catalog entry of '
            'the shared-file-system service points at Manila.')
    chosen = None
    for entry in versions:
        if str(entry.get('id', '')).startswith('v2'):
            if chosen is None or entry.get('status') == 'CURRENT':
                chosen = entry
    if chosen is None:
        raise ConfigurationError(
            'The Manila endpoint offers no v2 API (versions: %s); this '
            'collection needs the v2 API with microversions.'
            % ', '.join(str(v.get('id')) for v in versions))
    if not chosen.get('version'):
        raise ConfigurationError(
            'The Manila v2 API at this endpoint supports no microversions; '
            'this collection needs Manila API %s or newer.' % MIN_SUPPORTED_VERSION)
    self_link = None
    for link in chosen.get('links') or []:
        if link.get('rel') == 'self' and link.get('href'):
            self_link = link['href']
    return (APIVersion(chosen.get('min_version') or '2.0'),
            APIVersion(chosen['version']), self_link)


def negotiate(server_min, server_max, cap=None):
    """The microversion to use: min(newest we know, server max, user cap)."""
    wanted = MAX_KNOWN_VERSION
    if cap is not None:
        cap = APIVersion(cap)
        if cap < MIN_SUPPORTED_VERSION:
            raise ConfigurationError(
                'api_version %s is older than %s, the oldest Manila API '
                'version this collection supports.' % (cap, MIN_SUPPORTED_VERSION))
        wanted = min(wanted, cap)
    version = min(wanted, server_max)
    if version < MIN_SUPPORTED_VERSION:
        raise ConfigurationError(
            'This Manila offers API versions up to %s; this collection needs '
            '%s or newer (Manila Pike or later).' % (server_max, MIN_SUPPORTED_VERSION))
    if version < server_min:
        raise ConfigurationError(
            'api_version %s is older than the oldest version this Manila '
            'offers (%s).' % (version, server_min))
    return version


class ManilaClient(object):
    """Talks to one Manila endpoint at one negotiated microversion."""

    def __init__(self, session, endpoint, api_version_cap=None,
                 check_mode=False, sleep=time.sleep, read_retries=3,
                 retry_delay=0.5):
        self.session = session
        self.endpoint = endpoint.rstrip('/')
        self.api_version_cap = api_version_cap
        self.check_mode = check_mode
        self.sleep = sleep
        self.read_retries = read_retries
        self.retry_delay = retry_delay
        self.version = None
        self.server_max = None
        self.server_min = None
        self.base_url = None

    # -- microversions ----------------------------------------------------
    def negotiate(self):
        """Read the versions document once and fix the microversion."""
        if self.version is not None:
            return self.version
        url = versions_document_url(self.endpoint)
        response = self._send('GET', url, authenticated=False)
        if response.status_code not in (200, 300):
            raise error_from_response(response, 'GET', url)
        try:
            body = response.json()
        except ValueError:
            raise ConfigurationError(
                'The versions document at %s is not JSON; is this a Manila '
                'endpoint?' % url)
        self.server_min, self.server_max, self_link = parse_versions_document(body)
        self.version = negotiate(self.server_min, self.server_max,
                                 self.api_version_cap)
        self.base_url = self._api_base(self_link)
        return self.version

    def _api_base(self, self_link):
        # The catalog URL already names the v2 API (with or without project id):
        # use it as it is.  Otherwise follow the versions document's link.
        if re.search(r'/v2(\.\d+)?(/|$)', urlsplit(self.endpoint).path):
            return self.endpoint
        if self_link:
            return self_link.rstrip('/')
        return self.endpoint + '/v2'

    def supports(self, feature):
        self.negotiate()
        return self.version >= feature_min_version(feature)

    def require(self, feature, what=None):
        """Fail (before any write) when ``feature`` needs a newer microversion."""
        if self.supports(feature):
            return
        needed = feature_min_version(feature)
        offered = self.version
        if self.api_version_cap is not None and self.server_max > offered:
            where = 'api_version is capped at %s (the cloud offers %s)' % (
                offered, self.server_max)
        else:
            where = 'this cloud offers %s' % offered
        raise UnsupportedFeature('%s needs Manila API %s; %s.' % (
            what or feature.replace('_', ' '), needed, where))

    # -- requests ----------------------------------------------------------
    def url(self, path, query=None):
        self.negotiate()
        url = self.base_url + '/' + path.lstrip('/')
        if query:
            items = [(k, v) for k, v in query.items() if v is not None]
            if items:
                url += '?' + urlencode(items)
        return url

    def request(self, method, path, body=None, query=None, feature=None,
                ok=(200, 201, 202, 204), read_only=False):
        """Send one API request at the negotiated version; return the JSON body.

        ``feature`` names the feature this call belongs to: its minimum version
        is checked first and it adds the experimental header where needed.
        ``read_only`` marks a POST that changes nothing (an action such as
        ``access_list``): it is then allowed in check mode.
        """
        method = method.upper()
        if feature:
            self.require(feature)
        if self.check_mode and method not in SAFE_METHODS and not read_only:
            raise CheckModeWrite('%s %s attempted in check mode' % (method, path))
        url = self.url(path, query)
        headers = {VERSION_HEADER: str(self.version), 'Accept': 'application/json'}
        if feature and feature_needs_experimental(feature, self.version):
            headers[EXPERIMENTAL_HEADER] = 'True'
        kwargs = {'headers': headers}
        if body is not None:
            kwargs['json'] = body
        response = self._send(method, url, **kwargs)
        if response.status_code not in ok:
            raise error_from_response(response, method, url)
        if response.status_code == 204 or not getattr(response, 'content', b'x'):
            return {}
        try:
            return response.json()
        except ValueError:
            return {}

    def get(self, path, query=None, feature=None):
        return self.request('GET', path, query=query, feature=feature)

    def post(self, path, body=None, feature=None):
        return self.request('POST', path, body=body, feature=feature)

    def put(self, path, body=None, feature=None):
        return self.request('PUT', path, body=body, feature=feature)

    def delete(self, path, feature=None):
        return self.request('DELETE', path, feature=feature)

    def action(self, path, name, args=None, feature=None, read_only=False):
        """POST an action (``{"extend": {...}}``) to ``path/action``.

        ``read_only``: the action only reads (allowed in check mode).
        """
        return self.request('POST', path.rstrip('/') + '/action',
                            body={name: args}, feature=feature,
                            read_only=read_only)

    def _send(self, method, url, authenticated=True, **kwargs):
        attempts = 1 + (self.read_retries if method in SAFE_METHODS else 0)
        delay = self.retry_delay
        for attempt in range(1, attempts + 1):
            last = attempt == attempts
            try:
                response = self.session.request(
                    url, method, raise_exc=False, authenticated=authenticated,
                    **kwargs)
            except _TRANSPORT_ERRORS as exc:
                if _is_connection_error(exc) and not last:
                    self.sleep(delay)
                    delay *= 2
                    continue
                raise _error_from_transport(exc, method, url)
            if response.status_code in RETRIABLE_STATUSES and not last:
                self.sleep(delay)
                delay *= 2
                continue
            return response


_TRANSPORT_ERRORS = (ksa_exc.ClientException,) if ksa_exc is not None else (IOError,)


def _is_connection_error(exc):
    if ksa_exc is None:
        return False
    return isinstance(exc, (ksa_exc.ConnectFailure, ksa_exc.ConnectTimeout,
                            ksa_exc.UnknownConnectionError))


def _error_from_transport(exc, method, url):
    if ksa_exc is not None:
        if isinstance(exc, ksa_exc.EndpointNotFound):
            return ConfigurationError(str(exc))
        if isinstance(exc, ksa_exc.Unauthorized):
            return ManilaError('Keystone refused the credentials: %s' % exc,
                               status=401, method=method, url=url)
        if isinstance(exc, ksa_exc.HttpError):
            return ManilaError(str(exc), status=getattr(exc, 'http_status', None),
                               request_id=getattr(exc, 'request_id', None),
                               method=method, url=url)
        if isinstance(exc, (ksa_exc.ConnectFailure, ksa_exc.ConnectTimeout,
                            ksa_exc.UnknownConnectionError)):
            return ManilaError('Could not connect to %s: %s' % (url, exc),
                               method=method, url=url)
        if isinstance(exc, ksa_exc.ClientException):
            return ManilaError(str(exc), method=method, url=url)
    return ManilaError('%s while calling %s %s: %s' % (
        type(exc).__name__, method, _path_of(url), exc), method=method, url=url)
