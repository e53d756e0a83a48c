# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Every error this collection raises, and the one translation of HTTP
answers and keystoneauth exceptions into them.

The module base (base.py) turns each of these into one clean failure; no
module catches them itself.  ``reword`` changes the message of one kind of
error for a whole call, instead of a try/except around every call.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime
import email.utils
import functools
import re

from urllib.parse import urlsplit

try:
    from keystoneauth1 import exceptions as ksa_exc
except ImportError:  # reported by the module base (missing_required_lib)
    ksa_exc = None

REQUEST_ID_HEADERS = ('x-openstack-request-id', 'x-compute-request-id')

# Manila's rate-limit filter answers 413 with an ``overLimitFault`` body and a
# Retry-After of a second or more; the over-quota 413 of the API itself has an
# ``overLimit`` body (and Retry-After: 0) and must never be sent again.
RATE_LIMIT_FAULT = 'overLimitFault'


class ManilaError(Exception):
    """A request to Manila (or Keystone) that did not succeed.

    ``status`` is the HTTP status (None when no answer came back),
    ``message`` the service's own message, ``request_id`` the ID the service
    logged the request under.  ``result`` holds what the failed task should
    still return (the resource as it was left, for example).
    """

    def __init__(self, message, status=None, request_id=None, method=None,
                 url=None, result=None, retry_after=None):
        super(ManilaError, self).__init__(message)
        self.message = message
        self.status = status
        self.request_id = request_id
        self.method = method
        self.url = url
        self.result = result or {}
        # Seconds the answer's Retry-After asked for (429, 503 and the
        # rate-limit 413 only), or None.
        self.retry_after = retry_after

    def __str__(self):
        parts = [self.message]
        wait = ''
        if self.retry_after is not None:
            wait = ', Retry-After %s s' % seconds_text(self.retry_after)
        if self.status is not None and self.method:
            parts.append('(HTTP %s on %s %s%s)' % (self.status, self.method,
                                                   path_of(self.url), wait))
        elif self.status is not None:
            parts.append('(HTTP %s%s)' % (self.status, wait))
        if self.request_id:
            parts.append('[request id %s]' % self.request_id)
        return ' '.join(parts)


class NotFound(ManilaError):
    pass


class Forbidden(ManilaError):
    pass


class Conflict(ManilaError):
    pass


class ConfigurationError(ManilaError):
    """Auth, endpoint or version problems found before talking to Manila's API."""


class UnsupportedFeature(ManilaError):
    """A feature the negotiated microversion cannot do (raised before any write)."""


class InvalidInput(ManilaError):
    """Task input Manila would refuse (or that cannot work), found before any write."""


class CannotConverge(ManilaError):
    """The resource is in a state from which the task cannot be carried out."""


class AmbiguousName(InvalidInput):
    """More than one resource carries the name the task gave."""


class AnswerLost(ManilaError):
    """A write was sent and no answer came back (the connection dropped after
    sending, or the answer timed out): Manila may or may not have applied it.

    Raised by the client for every write without an answer; the API classes
    find out what happened with ``client.write_once`` (look the resource up,
    continue from what Manila shows).  ``cause`` is keystoneauth's exception.
    """

    def __init__(self, message, method=None, url=None, cause=None):
        super(AnswerLost, self).__init__(message, method=method, url=url)
        self.cause = cause


class NotApplied(ManilaError):
    """A write was refused or lost, and Manila shows that it was not applied."""


class WaitFailed(ManilaError):
    """The resource reached an error state (or vanished) while we waited."""

    def __init__(self, message, resource=None, state=None):
        super(WaitFailed, self).__init__(message)
        self.resource = resource
        self.state = state


class WaitTimeout(WaitFailed):
    """The deadline passed before the resource was ready."""


class CheckModeWrite(Exception):
    """A write was attempted in check mode: a bug, never sent to Manila."""


_STATUS_CLASSES = {403: Forbidden, 404: NotFound, 409: Conflict}


def path_of(url):
    """The path and query of a URL, for messages."""
    if not url:
        return ''
    parts = urlsplit(url)
    return parts.path + ('?' + parts.query if parts.query else '')


def seconds_text(value):
    """``1`` for 1.0, ``2.5`` for 2.5: seconds for messages."""
    return ('%.1f' % value).rstrip('0').rstrip('.')


def retry_after(response, now=None):
    """Seconds a ``Retry-After`` header asks for (a number or an HTTP date), or None."""
    headers = getattr(response, 'headers', None) or {}
    value = headers.get('Retry-After') or headers.get('retry-after')
    if value is None:
        return None
    value = str(value).strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    now = now or datetime.datetime.now(datetime.timezone.utc)
    return max(0.0, (when - now).total_seconds())


def is_rate_limited(response):
    """True for an answer of a rate limit: the request never reached Manila's API.

    That is a 429, or Manila's rate-limit 413 (body ``overLimitFault``, with a
    Retry-After of at least a second).  The over-quota 413 (body
    ``overLimit``) is not: Manila's API refused the request itself.
    """
    status = getattr(response, 'status_code', None)
    if status == 429:
        return True
    if status != 413:
        return False
    try:
        body = response.json()
    except ValueError:
        return False
    if not isinstance(body, dict) or RATE_LIMIT_FAULT not in body:
        return False
    wait = retry_after(response)
    return wait is not None and wait >= 1


def error_from_response(response, method, url):
    """A ManilaError (of the class the status calls for) from an error answer."""
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
    wait = None
    if response.status_code == 503 or is_rate_limited(response):
        wait = retry_after(response)
    cls = _STATUS_CLASSES.get(response.status_code, ManilaError)
    return cls(message, status=response.status_code, request_id=request_id,
               method=method, url=url, retry_after=wait)


def is_connection_error(exc):
    """True for a keystoneauth error that means no answer came back."""
    return ksa_exc is not None and isinstance(
        exc, (ksa_exc.ConnectFailure, ksa_exc.ConnectTimeout,
              ksa_exc.UnknownConnectionError))


# What keystoneauth appends to the text of its HTTP errors; ManilaError adds
# the status (and the request ID) itself.
_KSA_STATUS_SUFFIX = re.compile(r'\s*\((?:HTTP \d{3}|Request-ID: [^)]*)\)')


def _bare_text(exc):
    """keystoneauth's message of ``exc`` without its "(HTTP 401)" and request ID."""
    return _KSA_STATUS_SUFFIX.sub('', str(exc)).strip() or type(exc).__name__


def error_from_keystoneauth(exc, method=None, url=None):
    """The ManilaError for an exception keystoneauth raised.

    Used for requests to Manila and for Keystone itself (token, catalog):
    the one place where keystoneauth's exceptions are interpreted.
    """
    if ksa_exc is not None:
        if isinstance(exc, ksa_exc.EndpointNotFound):
            return ConfigurationError(str(exc))
        if isinstance(exc, ksa_exc.Unauthorized):
            return ManilaError('Keystone refused the credentials: %s' % _bare_text(exc),
                               status=401, request_id=getattr(exc, 'request_id', None),
                               method=method, url=url)
        if isinstance(exc, ksa_exc.HttpError):
            return ManilaError(_bare_text(exc), status=getattr(exc, 'http_status', None),
                               request_id=getattr(exc, 'request_id', None),
                               method=method, url=url)
        if isinstance(exc, ksa_exc.ConnectTimeout):
            # keystoneauth raises it for a connection that timed out and for
            # an answer that did not come in time (a read timeout) alike.
            where = url or 'the cloud'
            return ManilaError(
                'No answer from %s in time (%s): the request timed out after '
                'api_timeout seconds; raise api_timeout if the cloud is slow, or '
                'check that it is reachable.' % (where, _bare_text(exc)),
                method=method, url=url)
        if is_connection_error(exc):
            where = url or 'the cloud'
            return ManilaError('Could not connect to %s: %s' % (where, exc),
                               method=method, url=url)
        if isinstance(exc, ksa_exc.ClientException):
            return ManilaError(str(exc), method=method, url=url)
    return ManilaError('%s while calling %s %s: %s' % (
        type(exc).__name__, method, path_of(url), exc), method=method, url=url)


def reword(error_class, build):
    """Decorator: an ``error_class`` raised by the call becomes ``build(exc)``.

    ``build`` returns the exception to raise instead (usually with the
    original's status and request id kept).
    """
    def decorate(func):
        @functools.wraps(func)
        def call(*args, **kwargs):
            try:
                return func(*args, **kwargs)
            except error_class as exc:
                raise build(exc)
        return call
    return decorate


def same_details(exc, cls, message):
    """A new ``cls`` error with ``message`` and the details of ``exc``."""
    return cls(message, status=exc.status, request_id=exc.request_id,
               method=exc.method, url=exc.url, retry_after=exc.retry_after)


def admin_only(what):
    """Decorator: a 403 of the call (Manila's default policy keeps it for
    admins) becomes a ManilaError saying "``what`` admin-only by default",
    with Manila's words and the request's details kept; ``what`` ends with
    its verb ("Share servers are", "Listing Manila's services is")."""
    return reword(Forbidden, lambda exc: same_details(
        exc, ManilaError, '%s admin-only by default (Manila said: %s)' % (what, exc.message)))
