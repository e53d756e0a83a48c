# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The HTTP client every module of this collection uses.

It owns: microversion negotiation (once per task, from the versions
document), sending requests with the negotiated version header (and the
experimental header where a feature needs it), turning error answers into
the exceptions of errors.py, retrying safe reads, refusing any write in check
mode, and the clock and sleep that every wait uses.  Modules never build URLs
or headers themselves; connection.py builds the client.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re
import time

from urllib.parse import urlencode, urlsplit, urlunsplit

from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CheckModeWrite,
    ConfigurationError,
    UnsupportedFeature,
    error_from_keystoneauth,
    error_from_response,
    is_connection_error,
)
from ansible_collections.openkeel.manila.plugins.module_utils.microversions import (
    APIVersion,
    MAX_KNOWN_VERSION,
    MIN_SUPPORTED_VERSION,
    feature_min_version,
    feature_needs_experimental,
)

try:
    from keystoneauth1 import exceptions as ksa_exc
    _TRANSPORT_ERRORS = (ksa_exc.ClientException,)
except ImportError:  # reported by the module base (missing_required_lib)
    _TRANSPORT_ERRORS = (IOError,)

VERSION_HEADER = 'X-OpenStack-Manila-API-Version'
EXPERIMENTAL_HEADER = 'X-OpenStack-Manila-API-Experimental'

RETRIABLE_STATUSES = (500, 502, 503, 504)
SAFE_METHODS = ('GET', 'HEAD')


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
            '%s or newer (Manila Ocata or later).' % (server_max, MIN_SUPPORTED_VERSION))
    if version < server_min:
        raise ConfigurationError(
            'api_version %s is older than the oldest version this Manila '
            'offers (%s).' % (version, server_min))
    return version


class ManilaClient(object):
    """Talks to one Manila endpoint at one negotiated microversion."""

    def __init__(self, session, endpoint, api_version_cap=None,
                 check_mode=False, sleep=time.sleep, clock=time.monotonic,
                 read_retries=3, retry_delay=0.5):
        self.session = session
        self.endpoint = endpoint.rstrip('/')
        self.api_version_cap = api_version_cap
        self.check_mode = check_mode
        # Every pause (retries, waits) goes through these two, so tests can
        # run on a fake clock.
        self.sleep = sleep
        self.clock = clock
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
                if is_connection_error(exc) and not last:
                    self.sleep(delay)
                    delay *= 2
                    continue
                raise error_from_keystoneauth(exc, method, url)
            if response.status_code in RETRIABLE_STATUSES and not last:
                self.sleep(delay)
                delay *= 2
                continue
            return response
