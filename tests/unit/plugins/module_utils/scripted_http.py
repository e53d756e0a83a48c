# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Scripted HTTP for unit tests: answers a client's requests from a script.

Only for what the real local cloud cannot produce (old servers, 5xx,
connection failures, exact request sequences); everything else is proved
against the real Manila.

Each scripted exchange says what the next request must be, exactly: method,
path and query (or the whole URL), whether it carries a token, the
microversion header, the experimental header, and optionally the JSON body.
A request that differs fails the test at once; a scripted exchange that no
request used fails the test at its end (see conftest.py).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import collections
import json

from urllib.parse import urlsplit

VERSION_HEADER = 'X-OpenStack-Manila-API-Version'
EXPERIMENTAL_HEADER = 'X-OpenStack-Manila-API-Experimental'

# The version header a request must carry: the one negotiated by the client.
NEGOTIATED = object()
# A JSON body that is not checked.
ANY_BODY = object()

# Every session made by the current test (conftest.py checks them at the end).
OPEN_SESSIONS = []

Call = collections.namedtuple('Call', 'method url path headers body authenticated')


class ScriptedResponse(object):
    def __init__(self, status_code, body=None, headers=None):
        self.status_code = status_code
        self._body = body
        self.headers = headers or {}
        self.text = json.dumps(body) if body is not None else ''
        self.content = self.text.encode('utf-8')

    def json(self):
        if self._body is None:
            raise ValueError('no JSON body')
        return self._body


def ok(body=None, status=200):
    """A successful answer (an empty JSON object without ``body``)."""
    return ScriptedResponse(status, body if body is not None else {})


# Manila's answer for a resource that does not exist (or is not visible).
GONE = ScriptedResponse(404, {'itemNotFound': {'code': 404, 'message': 'not found'}})


class Exchange(object):
    """One expected request and the answer (a response or an exception);
    ``takes``: the seconds the answer takes on the session's clock (a
    FakeClock; make_client gives it one)."""

    def __init__(self, method, path, answer, version=NEGOTIATED, experimental=False,
                 authenticated=True, body=ANY_BODY, takes=0):
        self.method = method
        self.path = path
        self.answer = answer
        self.version = version
        self.experimental = experimental
        self.authenticated = authenticated
        self.body = body
        self.takes = takes

    def mismatches(self, call, negotiated):
        """What about ``call`` differs from this exchange (empty: it matches)."""
        problems = []
        if call.method != self.method:
            problems.append('method %s, expected %s' % (call.method, self.method))
        seen = call.url if self.path.startswith('http') else call.path
        if seen != self.path:
            problems.append('URL %s, expected %s' % (seen, self.path))
        if call.authenticated != self.authenticated:
            problems.append('authenticated=%s, expected %s' % (call.authenticated,
                                                               self.authenticated))
        want_version = negotiated if self.version is NEGOTIATED else self.version
        have_version = call.headers.get(VERSION_HEADER)
        if have_version != want_version:
            problems.append('version header %r, expected %r' % (have_version, want_version))
        have_experimental = call.headers.get(EXPERIMENTAL_HEADER) == 'True'
        if EXPERIMENTAL_HEADER in call.headers and not have_experimental:
            problems.append('experimental header %r' % call.headers[EXPERIMENTAL_HEADER])
        if have_experimental != self.experimental:
            problems.append('experimental header %s, expected %s' % (
                'sent' if have_experimental else 'missing',
                'sent' if self.experimental else 'none'))
        if self.body is not ANY_BODY and call.body != self.body:
            problems.append('body %r, expected %r' % (call.body, self.body))
        return problems


def expect(method, path, answer, **checks):
    """An Exchange; ``checks``: version, experimental, authenticated, body (and takes)."""
    return Exchange(method, path, answer, **checks)


def _exchange(item):
    return item if isinstance(item, Exchange) else Exchange(*item)


class ScriptedSession(object):
    """A stand-in for a keystoneauth session that follows a script.

    ``exchanges`` are Exchange objects or (method, path, answer) tuples.  The
    client must always pass ``raise_exc=False`` (it maps errors itself).
    """

    def __init__(self, exchanges):
        self.exchanges = [_exchange(e) for e in exchanges]
        self.calls = []
        # Set by make_client once the client negotiated.
        self.negotiated = None
        # The FakeClock that an exchange's ``takes`` moves on (make_client sets it).
        self.clock = None
        OPEN_SESSIONS.append(self)

    def request(self, url, method, raise_exc=True, authenticated=True, headers=None,
                json=None, **kwargs):  # pylint: disable=redefined-outer-name
        parts = urlsplit(url)
        call = Call(method, url, parts.path + ('?' + parts.query if parts.query else ''),
                    dict(headers or {}), json, authenticated)
        self.calls.append(call)
        if kwargs:
            raise AssertionError('unexpected arguments %s for %s %s' % (sorted(kwargs), method, url))
        if raise_exc is not False:
            raise AssertionError('%s %s sent with raise_exc=%r; the client must map '
                                 'errors itself' % (method, url, raise_exc))
        if not self.exchanges:
            raise AssertionError('unexpected request %s %s (the script is used up)' % (method, url))
        exchange = self.exchanges.pop(0)
        problems = exchange.mismatches(call, self.negotiated)
        if problems:
            raise AssertionError('request %d (%s %s) does not match the script: %s' % (
                len(self.calls), method, call.path, '; '.join(problems)))
        if exchange.takes:
            self.clock.now += exchange.takes  # time passes, but nobody slept
        if isinstance(exchange.answer, Exception):
            raise exchange.answer
        return exchange.answer

    def unused(self):
        return ['%s %s' % (e.method, e.path) for e in self.exchanges]

    def requests(self):
        """Every request as 'METHOD path?query'."""
        return ['%s %s' % (c.method, c.path) for c in self.calls]

    def bodies(self, method='POST'):
        """The JSON bodies of the requests with ``method``, in order."""
        return [c.body for c in self.calls if c.method == method]

    def writes(self):
        return [c for c in self.calls if c.method not in ('GET', 'HEAD')]


def forget_sessions():
    del OPEN_SESSIONS[:]


def check_every_exchange_used():
    """Fail (AssertionError) when a session of this test left exchanges unused;
    forgets the sessions either way."""
    unused = [(index, session.unused()) for index, session in enumerate(OPEN_SESSIONS)
              if session.unused()]
    forget_sessions()
    if unused:
        raise AssertionError('scripted HTTP exchanges were never requested: %s' % '; '.join(
            'session %d: %s' % (index, ', '.join(left)) for index, left in unused))


def versions_document(max_version, min_version='2.0', base='http://127.0.0.1:8786'):
    """A versions document shaped like Manila's answer to GET / (HTTP 300)."""
    return ScriptedResponse(300, {'versions': [
        {'id': 'v1.0', 'status': 'DEPRECATED', 'version': '', 'min_version': '',
         'links': [{'rel': 'self', 'href': base + '/v1/'}]},
        {'id': 'v2.0', 'status': 'CURRENT', 'version': max_version,
         'min_version': min_version,
         'links': [{'rel': 'self', 'href': base + '/v2/'}]},
    ]})


def versions_exchange(max_version, **kwargs):
    """The first exchange of every client: the versions document, without a token."""
    return Exchange('GET', '/', versions_document(max_version, **kwargs), version=None,
                    authenticated=False)


class FailsThen(object):
    """A callable (a token fetch) that raises ``errors`` one per call, then returns
    ``result``; ``calls`` counts the calls."""

    def __init__(self, result, *errors):
        self.result = result
        self.errors = list(errors)
        self.calls = 0

    def __call__(self):
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return self.result


class FakeClock(object):
    """A clock and sleep that only move when slept on."""

    def __init__(self):
        self.now = 0.0
        self.sleeps = []

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds

    def __call__(self):
        return self.now


def make_client(exchanges, max_version='2.99', cap=None, check_mode=False, clock=None):
    """A negotiated ManilaClient on a ScriptedSession; the script starts after
    the versions document."""
    from ansible_collections.openkeel.manila.plugins.module_utils.client import ManilaClient
    clock = clock or FakeClock()
    session = ScriptedSession([versions_exchange(max_version)] + list(exchanges))
    session.clock = clock
    client = ManilaClient(session, 'http://127.0.0.1:8786/v2', api_version_cap=cap,
                          check_mode=check_mode, sleep=clock.sleep, clock=clock)
    client.negotiate()
    session.negotiated = str(client.version)
    return client, session


def share_locks(share_id=None, *locks):
    """The listing of delete locks (API 2.81+) of one share (or of the project
    without ``share_id``) answered with ``locks``: the read that every share
    deletion and every ``deletion_lock`` task makes."""
    query = 'resource_type=share&resource_action=delete'
    if share_id:
        query += '&resource_id=%s' % share_id
    body = {'resource_locks': list(locks)}
    if locks:
        body['count'] = len(locks)
    return ('GET', '/v2/resource-locks?%s&with_count=true&limit=1000&offset=0' % query,
            ScriptedResponse(200, body))
