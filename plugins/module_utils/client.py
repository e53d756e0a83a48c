# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The HTTP client every module of this collection uses.

It owns: microversion negotiation (once per task, from the versions
document), sending requests with the negotiated version header (and the
experimental header where a feature needs it), turning error answers into
the exceptions of errors.py, retrying safe reads (honouring Retry-After),
the Keystone token (retried on 5xx and connection errors), refusing any
write in check mode, the clock and sleep that every wait uses, how long the
writes Manila accepted took to answer (``AnswerTimes``), and the warnings a
task collects on its way.  Modules never build URLs or headers
themselves; connection.py builds the client.

Writes are never retried blindly.  The one answer after which a write is
sent again as it is: a rate limit's (429, or Manila's rate-limit 413), which
says the request never reached Manila's API.  A write that was sent and got no answer
raises AnswerLost; ``write_once`` is how the API classes recover from that
(and from a 5xx): they say how to see whether the write took effect, and it
looks before anything is sent again (after a 5xx it sends the write once
more when Manila shows it was not applied).

Every write Manila accepted is recorded in ``accepted``, so that a task that
fails later still reports that it changed the cloud (the module base).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import collections
import re
import statistics
import threading
import time

from urllib.parse import urlencode, urlsplit, urlunsplit

from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    AnswerLost,
    CheckModeWrite,
    ConfigurationError,
    ManilaError,
    NotApplied,
    UnsupportedFeature,
    error_from_keystoneauth,
    error_from_response,
    is_connection_error,
    is_rate_limited,
    path_of,
    retry_after,
    same_details,
    seconds_text,
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

# A server error: a read is retried; a write is looked up first (write_once).
RETRIABLE_STATUSES = (500, 502, 503, 504)
# Reads are also retried on 429; on 429 and 503 they wait as long as
# Retry-After says (up to MAX_RETRY_AFTER seconds; longer is a failure).
# A rate limit's answer (429, or the rate-limit 413: errors.is_rate_limited)
# means the request never reached Manila's API: reads and writes alike are
# sent again after its Retry-After, with the same budget.
RETRIABLE_READ_STATUSES = (429,) + RETRIABLE_STATUSES
RETRY_AFTER_STATUSES = (429, 503)
MAX_RETRY_AFTER = 60
SAFE_METHODS = ('GET', 'HEAD')

# Token requests create nothing worth protecting: retried on these statuses
# and on connection errors, with backoff (0.5, 1, 2, 4 s).
KEYSTONE_RETRIABLE_STATUSES = (429, 500, 502, 503, 504)
KEYSTONE_ATTEMPTS = 5

# Slow answers (AnswerTimes): the first ANSWERS_FIRST answers to each kind of
# write against the latest ANSWERS_RECENT; Manila counts as slower when the
# median of the latest is more than SLOWER_FACTOR times that of the first.
ANSWERS_FIRST = 5
ANSWERS_RECENT = 5
SLOWER_FACTOR = 2.0
# A path segment that is an ID (a UUID, a number): left out of a write's kind.
ID_SEGMENT = re.compile(r'^([0-9a-fA-F]{8,}(-[0-9a-fA-F]+)*|[0-9]+)$')

# After a write whose answer was lost, Manila is asked this many times (with
# these pauses before the second and third look) whether it took effect: a
# write still on its way inside Manila has time to land.
LOST_ANSWER_PAUSES = (0, 1.0, 2.0)


def was_not_sent(exc):
    """True when keystoneauth failed to open the connection: the request never left.

    urllib3 raises NewConnectionError only while connecting; keystoneauth keeps
    its text in the message of its ConnectFailure.
    """
    text = str(exc)
    return is_connection_error(exc) and (
        'NewConnectionError' in text or 'Failed to establish a new connection' in text)


def keystone_retriable(exc):
    """True for a Keystone failure worth another try (5xx, 429, no connection)."""
    if is_connection_error(exc):
        return True
    return getattr(exc, 'http_status', None) in KEYSTONE_RETRIABLE_STATUSES


def with_keystone_retries(call, sleep=time.sleep, attempts=KEYSTONE_ATTEMPTS, delay=0.5):
    """``call()`` (something that asks Keystone for a token or the catalog),
    retried with backoff on 5xx, 429 and connection errors.

    Raises ConfigurationError with Keystone's last answer when it does not
    succeed; any other keystoneauth error (wrong password: 401) at once.
    """
    for attempt in range(1, attempts + 1):
        try:
            return call()
        except _TRANSPORT_ERRORS as exc:
            if not keystone_retriable(exc):
                raise keystone_failure(exc)
            if attempt == attempts:
                raise keystone_failure(exc, attempts)
            pause = getattr(exc, 'retry_after', None)
            sleep(min(float(pause), MAX_RETRY_AFTER) if pause else delay)
            delay *= 2
    return None  # not reached


def keystone_failure(exc, attempts=None):
    """The ConfigurationError for a Keystone failure (after ``attempts`` tries)."""
    error = error_from_keystoneauth(exc)
    if attempts:
        return ConfigurationError(
            'Keystone authentication failed %d times in a row: %s. Keystone may be '
            'down or overloaded; nothing was sent to Manila with this token. Run '
            'the task again later.' % (attempts, error.message), status=error.status)
    return ConfigurationError('Keystone authentication failed: %s' % error.message,
                              status=error.status)


def write_kind(method, path, body=None):
    """What kind of write a request is, for AnswerTimes: its method and path
    without IDs, and an action's name: ``POST shares``, ``DELETE shares/{id}``,
    ``POST shares/{id}/action (allow_access)``."""
    segments = ['{id}' if ID_SEGMENT.match(s) else s
                for s in urlsplit(path).path.split('/') if s]
    kind = '%s %s' % (method, '/'.join(segments))
    if segments[-1:] == ['action'] and isinstance(body, dict) and body:
        kind += ' (%s)' % ', '.join(sorted(body))
    return kind


class AnswerTimes(object):
    """How long Manila took to answer the writes it accepted, per kind of
    write (``write_kind``): the first ``first`` answers of each kind, and the
    latest ``recent`` after those.

    ``slower()`` tells whether Manila answers much more slowly than at first:
    for some kind, the median of the latest answers is more than ``factor``
    times the median of the first ones.  Per kind, because a create costs
    Manila more than an access rule: a run that moves on from rules to
    creates is not taken for a slower Manila; medians, because one answer
    that met a busy database is not a trend.  The jobs of run_steps record from their
    threads, hence the lock.
    """

    def __init__(self, first=ANSWERS_FIRST, recent=ANSWERS_RECENT, factor=SLOWER_FACTOR):
        self.first = first
        self.recent = recent
        self.factor = factor
        self.kinds = {}
        self._lock = threading.Lock()

    def record(self, kind, seconds):
        with self._lock:
            first, latest = self.kinds.setdefault(
                kind, ([], collections.deque(maxlen=self.recent)))
            (first if len(first) < self.first else latest).append(seconds)

    def slower(self):
        """None, or words for the first kind of write (by name) whose latest
        answers are ``factor`` times slower than its first ones."""
        with self._lock:
            for kind in sorted(self.kinds):
                first, latest = self.kinds[kind]
                if len(latest) < self.recent:
                    continue
                before, now = statistics.median(first), statistics.median(latest)
                if now > self.factor * before:
                    return '%s answered in %.2f s (the median of the last %d) against %.2f s at ' \
                        'first' % (kind, now, len(latest), before)
        return None


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
        if cap.major > MIN_SUPPORTED_VERSION.major:
            # Taken as a cap, 3.0 would mean the newest 2.x: surely not meant.
            raise ConfigurationError(
                'api_version %s is not a version of Manila\'s API: its versions are '
                '%d.x (this collection knows %s to %s).' % (
                    cap, MIN_SUPPORTED_VERSION.major, MIN_SUPPORTED_VERSION,
                    MAX_KNOWN_VERSION))
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
        # What the task should tell its user besides its result (recoveries
        # from lost answers, races with other tasks); the module base adds
        # them to the result's warnings.
        self.warnings = []
        # How many requests this client sent to Manila (every attempt, the
        # versions document included; Keystone's token requests go through
        # the auth plugin and are not counted).  Jobs of one task may send
        # from several threads, hence the lock.
        self.sent = 0
        self._sent_lock = threading.Lock()
        # How many answers of a rate limit (429, rate-limit 413) came back:
        # waiter.run_steps sends fewer requests at once after each new one.
        self.rate_limited = 0
        # How long the writes Manila accepted took to answer (waiter.Pace
        # adds no requests at once while they grow much slower).
        self.answer_times = AnswerTimes()
        # The writes Manila accepted in this task ("POST shares/ID/action
        # (extend)"), in order: a task that fails afterwards reports them.
        self.accepted = []
        # Keystone's v3 API, for the few lookups Manila cannot answer (a
        # project by name): its URL, or a callable that finds it on first use
        # (connection.connect sets one).
        self.identity_url = None

    def warn(self, message):
        if message not in self.warnings:
            self.warnings.append(message)

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
        try:
            self.version = negotiate(self.server_min, self.server_max,
                                     self.api_version_cap)
        except ValueError as exc:
            raise ConfigurationError('api_version: %s.' % exc)
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
        timed = None if method in SAFE_METHODS or read_only else write_kind(method, path, body)
        response = self._send(method, url, timed=timed, **kwargs)
        if response.status_code not in ok:
            raise self._refusal(response, method, url)
        if method not in SAFE_METHODS and not read_only:
            self.record_write(method, path, body)
        if response.status_code == 204 or not getattr(response, 'content', b'x'):
            return {}
        try:
            return response.json()
        except ValueError:
            return {}

    def _refusal(self, response, method, url):
        """The error for an error answer; a rate limit's says what it did."""
        error = error_from_response(response, method, url)
        if not is_rate_limited(response):
            return error
        if error.retry_after is not None and error.retry_after > MAX_RETRY_AFTER:
            how = ('asked to wait %s seconds before it is sent again, longer than a task '
                   'waits (%d seconds)' % (seconds_text(error.retry_after), MAX_RETRY_AFTER))
        else:
            how = 'refused it %d times in a row' % (1 + self.read_retries)
        return same_details(error, type(error), (
            "Manila's rate limit %s: %s. The request never reached Manila's API, so "
            'nothing was changed by it; run the task again later, or with a lower '
            'concurrency.' % (how, error.message.rstrip('.'))))

    def record_write(self, method, path, body=None):
        """Remember a write Manila accepted."""
        words = '%s %s' % (method, path.lstrip('/'))
        if path.rstrip('/').endswith('/action') and isinstance(body, dict) and body:
            words += ' (%s)' % ', '.join(sorted(body))
        self.accepted.append(words)

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

    def keystone_get(self, path, query=None):
        """GET ``path`` of Keystone's v3 API with the task's token; its JSON body.

        The one place that builds a Keystone URL (``identity`` looks projects
        up through it), from the identity entry of the catalog for the task's
        interface and region, else auth_url.  Retried like every read; an
        error answer raises as for Manila.
        """
        if callable(self.identity_url):
            self.identity_url = self.identity_url()
        if not self.identity_url:
            raise ConfigurationError('No Keystone endpoint is known for this cloud (neither '
                                     'in the service catalog nor as auth_url), so %s '
                                     'cannot be looked up.' % path)
        url = self.identity_url.rstrip('/') + '/' + path.lstrip('/')
        if query:
            url += '?' + urlencode(sorted(query.items()))
        response = self._send('GET', url, headers={'Accept': 'application/json'})
        if response.status_code != 200:
            raise error_from_response(response, 'GET', url)
        return response.json()

    def _send(self, method, url, authenticated=True, timed=None, **kwargs):
        """One request, with the retries that are safe.

        Reads (and writes that provably never left: the connection could
        not be opened) are retried on connection errors; reads also on 5xx
        and 429, waiting as long as Retry-After asks on 429 and 503.  Writes
        too are sent again after a rate limit's answer (429, or the
        rate-limit 413), which never reached Manila's API: after Retry-After,
        with a warning.  A write that was sent without an answer raises
        AnswerLost; any other error answer to a write is returned as it is
        (``write_once`` decides).  ``timed``: the kind of write whose answer
        time goes into ``answer_times`` when it is accepted (2xx).
        """
        if authenticated:
            self.authenticate()
        safe = method in SAFE_METHODS
        attempts = 1 + self.read_retries
        delay = self.retry_delay
        for attempt in range(1, attempts + 1):
            last = attempt == attempts
            with self._sent_lock:
                self.sent += 1
            started = self.clock()
            try:
                response = self.session.request(
                    url, method, raise_exc=False, authenticated=authenticated,
                    **kwargs)
            except _TRANSPORT_ERRORS as exc:
                if not is_connection_error(exc):
                    raise error_from_keystoneauth(exc, method, url)
                if not (safe or was_not_sent(exc)):
                    raise AnswerLost(
                        'No answer came to %s %s (%s): Manila may or may not have '
                        'applied it. Check what Manila shows now, then run the task '
                        'again: it looks before it writes.' % (
                            method, path_of(url), exc), method=method, url=url, cause=exc)
                if last:
                    raise error_from_keystoneauth(exc, method, url)
                self.sleep(delay)
                delay *= 2
                continue
            if timed and 200 <= response.status_code < 300:
                self.answer_times.record(timed, self.clock() - started)
            limited = is_rate_limited(response)
            if limited:
                with self._sent_lock:
                    self.rate_limited += 1
            if last or not (limited or (
                    safe and response.status_code in RETRIABLE_READ_STATUSES)):
                return response
            pause = delay
            asked = None
            if limited or response.status_code in RETRY_AFTER_STATUSES:
                asked = retry_after(response)
                if asked is not None and asked > MAX_RETRY_AFTER:
                    return response  # too long to wait inside a task: fail with it
                if asked is not None:
                    pause = max(asked, 0.1)
            if limited and not safe:
                self.warn('%s %s met the rate limit of Manila (HTTP %s): it never reached '
                          "Manila's API, so it was sent again after %s seconds%s." % (
                              method, path_of(url), response.status_code, seconds_text(pause),
                              ' (as Retry-After asked)' if asked is not None else ''))
            self.sleep(pause)
            delay *= 2
        return None  # not reached

    def authenticate(self):
        """Make sure the session holds a token, asking Keystone with retries.

        keystoneauth would fetch it inside the first authenticated request,
        where a Keystone 503 fails the task; here it is fetched (or renewed
        when it is about to expire) first, and retried.  A session without
        an auth plugin (a test double) is left alone.
        """
        if getattr(self.session, 'auth', None) is None or \
                not hasattr(self.session, 'get_auth_headers'):
            return
        with_keystone_retries(self.session.get_auth_headers, sleep=self.sleep)

    # -- Keystone: the task's project -----------------------------------------
    def token_project(self):
        """``{'id', 'name', 'roles'}`` of the project the task's token is scoped
        to (asked from Keystone with retries), or None for a session that
        cannot say (a test double)."""
        auth = getattr(self.session, 'auth', None)
        if auth is None or not hasattr(auth, 'get_access'):
            return None
        access = with_keystone_retries(lambda: auth.get_access(self.session), sleep=self.sleep)
        return {'id': access.project_id, 'name': access.project_name,
                'roles': list(access.role_names or [])}

    def token_user_id(self):
        """The ID of the task's token's user, or None when the session cannot
        say (a test double, a token without its user)."""
        auth = getattr(self.session, 'auth', None)
        if auth is None or not hasattr(auth, 'get_access'):
            return None
        access = with_keystone_retries(lambda: auth.get_access(self.session), sleep=self.sleep)
        try:
            return access.user_id
        except (AttributeError, KeyError):
            return None

    # -- writes that must take effect once ---------------------------------
    def write_once(self, send, observe, what):
        """Send a write so that it takes effect once, whatever happens to its answer.

        ``send()`` sends the write and returns what its answer gives (the new
        resource, say).  ``observe()`` reads Manila and returns what ``send``
        would have returned had the write taken effect (the resource it
        made, the resource as changed), or None when Manila shows no sign of
        it.  ``what`` names the write in messages ("the create of share
        'data'").

        - No answer (AnswerLost: the connection dropped after sending, or
          the answer timed out): ``observe()`` tells; seen: its result, with
          a warning; not seen after a few looks: NotApplied (nothing to undo;
          the task can simply run again).
        - A 5xx answer: ``observe()`` first; seen: its result; not seen: the
          write is sent once more, and recovered the same way.
        - Any other error is raised as it is.

        ``send`` is never called again once Manila shows the write took
        effect, so a create cannot make a second resource.
        """
        try:
            return send()
        except AnswerLost as lost:
            return self._after_lost_answer(lost, observe, what)
        except ManilaError as refused:
            if refused.status not in RETRIABLE_STATUSES:
                raise
            first = refused
        found = self._observe(observe, what, 'was answered with HTTP %s' % first.status)
        if found is not None:
            self.accepted.append(what)
            self.warn('%s was answered with HTTP %s, but Manila shows that it took '
                      'effect; the task went on from there.' % (_capital(what), first.status))
            return found
        self.sleep(self.retry_delay)
        try:
            result = send()
        except AnswerLost as lost:
            return self._after_lost_answer(lost, observe, what)
        except ManilaError as again:
            if again.status not in RETRIABLE_STATUSES:
                raise
            found = self._observe(observe, what, 'was answered with HTTP %s twice' % again.status)
            if found is not None:
                self.accepted.append(what)
                self.warn('%s was answered with HTTP %s twice, but Manila shows that it '
                          'took effect; the task went on from there.' % (
                              _capital(what), again.status))
                return found
            raise NotApplied('%s failed twice (%s, then %s), and Manila shows that it '
                             'was not applied. Nothing was changed by it; Manila seems '
                             'unwell: run the task again later.' % (
                                 _capital(what), first, again), status=again.status,
                             request_id=again.request_id, method=again.method, url=again.url)
        self.warn('%s was refused once with HTTP %s and nothing had been made; it was '
                  'sent again and succeeded.' % (_capital(what), first.status))
        return result

    def _after_lost_answer(self, lost, observe, what):
        cause = lost.cause if lost.cause is not None else lost.message
        waited = 0
        for pause in LOST_ANSWER_PAUSES:
            if pause:
                self.sleep(pause)
                waited += pause
            found = self._observe(observe, what, 'got no answer (%s)' % cause)
            if found is not None:
                self.accepted.append(what)
                self.warn('No answer came to %s (%s); Manila shows that it took effect, '
                          'so the task went on from there.' % (what, cause))
                return found
        raise NotApplied(
            'No answer came to %s (%s), and %d seconds later Manila still shows no '
            'sign of it: it was not applied and nothing was changed by it. Run the '
            'task again: it looks before it writes.'
            % (what, cause, waited), method=lost.method, url=lost.url)

    @staticmethod
    def _observe(observe, what, happened):
        try:
            return observe()
        except ManilaError as exc:
            raise ManilaError(
                '%s %s, and Manila could not be asked whether it took effect: %s. '
                'Check what Manila shows before running the task again.' % (
                    _capital(what), happened, exc), status=exc.status,
                request_id=exc.request_id)


def _capital(text):
    return text[:1].upper() + text[1:]
