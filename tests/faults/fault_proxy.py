# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A small fault-injecting HTTP proxy between the modules and Keystone/Manila.

Standard library only.  Each ``FaultProxy`` listens on loopback ports of its
own (one per upstream, chosen by the kernel) and forwards to loopback
upstreams only (the local cloud).  It is bounded: a lifetime after which it
stops by itself, a cap on concurrent connections and on request bodies, and
a timeout on every upstream request.

Faults are rules matched against each request (upstream, method, path); a
rule lets the first ``after`` matching requests pass, fires ``times`` times
(None: always), then stands aside:

- ``status``:  answer ``status`` (with ``headers``) without forwarding; the
               body is ``{fault_key: {code, message}}`` (``fault_key``
               ``overLimitFault``: the answer of Manila's rate limit);
- ``status_after``: forward, let Manila act, then answer ``status`` instead;
- ``reset``:   read the request, then reset the connection (nothing forwarded);
- ``lose``:    forward, let Manila act, then reset the connection: the
               answer is lost;
- ``slow``:    forward, then hold the answer for ``delay`` seconds (longer
               than the client's timeout: the answer is lost to a timeout);
- ``hold``:    hold matching requests until ``count`` of them are waiting
               (or ``delay`` seconds passed), then forward them all at once:
               a barrier that makes concurrent tasks race.

Upstream URLs in answers (versions documents, the service catalog) are
rewritten to the proxy's own, so clients keep talking through it.  Every
request is logged (``log``): upstream, method, path, the body's first key
for actions, the fault applied, whether it was forwarded, and the statuses.
``tokens`` collects every Keystone token seen, for leak checks;
``next_token_lifetime`` (seconds) rewrites the expiry of the next token
Keystone issues, once, to that much from now, so that a client renews it
during a run (Keystone itself keeps the token valid for as long as it is
configured to; the tokens after it keep their expiry, so that the client
renews once);
``inject_access_key`` adds a cephx key to every access rule Manila returns.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import http.client
import json
import re
import socket
import struct
import threading
import time

from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

LOOPBACK = ('127.0.0.1', 'localhost', '::1')
HOP_BY_HOP = ('connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization',
              'te', 'trailers', 'transfer-encoding', 'upgrade', 'content-length')
MAX_BODY = 1024 * 1024
MAX_CONNECTIONS = 64
UPSTREAM_TIMEOUT = 120
DEFAULT_LIFETIME = 900


class Fault(object):
    """One rule: which requests (``upstream``, ``method``, ``path`` regular
    expression searched in path+query) and what to do to them."""

    ACTIONS = ('status', 'status_after', 'reset', 'lose', 'slow', 'hold')

    def __init__(self, action, upstream='manila', method=None, path=None, times=1,
                 status=503, headers=None, delay=0.0, count=2, body_key=None, after=0,
                 fault_key='fault'):
        if action not in self.ACTIONS:
            raise ValueError('unknown fault action %r' % action)
        self.action = action
        self.upstream = upstream
        self.methods = (method,) if isinstance(method, str) else method
        self.path = re.compile(path) if path else None
        self.times = times
        self.status = status
        self.headers = headers or {}
        self.fault_key = fault_key
        self.delay = delay
        self.count = count
        # Only requests whose JSON body has this first key (an action name).
        self.body_key = body_key
        self.after = after
        self.passed = 0
        self.fired = 0
        self.waiting = 0
        self.released = threading.Event()

    def matches(self, upstream, method, path, body_key):
        if self.times is not None and self.fired >= self.times:
            return False
        if upstream != self.upstream:
            return False
        if self.methods and method not in self.methods:
            return False
        if self.path and not self.path.search(path):
            return False
        if self.body_key and body_key != self.body_key:
            return False
        if self.passed < self.after:
            self.passed += 1
            return False
        return True


def first_key(body):
    try:
        data = json.loads(body.decode('utf-8'))
    except (ValueError, UnicodeDecodeError):
        return None
    if isinstance(data, dict) and len(data) == 1:
        return next(iter(data))
    return None


class _Listener(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, proxy, name, upstream_url):
        self.proxy = proxy
        self.name = name
        parts = urlsplit(upstream_url)
        if parts.hostname not in LOOPBACK:
            raise ValueError('the fault proxy forwards to loopback only, not %s' % upstream_url)
        self.upstream_host = parts.hostname
        self.upstream_port = parts.port or 80
        self.upstream_base = '%s://%s' % (parts.scheme, parts.netloc)
        ThreadingHTTPServer.__init__(self, ('127.0.0.1', 0), _Handler)
        self.base = 'http://127.0.0.1:%d' % self.server_address[1]

    def handle_error(self, request, client_address):
        # A connection this proxy reset on purpose ends in an error here; the
        # log already says what happened.
        pass


class _Handler(BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def log_message(self, format, *args):  # pylint: disable=redefined-builtin
        pass  # the proxy keeps its own log

    def _any(self):
        server = self.server
        proxy = server.proxy
        if not proxy.slots.acquire(timeout=5):
            self._answer(503, {}, b'{"error": "fault proxy: too many connections"}')
            return
        try:
            self._handle(proxy, server)
        finally:
            proxy.slots.release()

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = _any

    def _handle(self, proxy, server):
        length = int(self.headers.get('Content-Length') or 0)
        if length > MAX_BODY:
            self._answer(413, {}, b'{"error": "fault proxy: body too large"}')
            return
        body = self.rfile.read(length) if length else b''
        body_key = first_key(body) if body else None
        entry = {'time': time.time(), 'upstream': server.name, 'method': self.command,
                 'path': self.path, 'body_key': body_key, 'fault': None,
                 'forwarded': False, 'upstream_status': None, 'status': None}
        token = self.headers.get('X-Auth-Token')
        if token:
            proxy.tokens.add(token)
        fault = proxy.take_fault(server.name, self.command, self.path, body_key)
        proxy.record(entry)
        if fault is not None:
            entry['fault'] = fault.action
        if fault is not None and fault.action == 'status':
            entry['status'] = fault.status
            self._answer(fault.status, fault.headers, json.dumps(
                {fault.fault_key: {'code': fault.status,
                                   'message': 'injected by the fault proxy'}}
            ).encode('utf-8'))
            return
        if fault is not None and fault.action == 'reset':
            self._reset()
            return
        if fault is not None and fault.action == 'hold':
            proxy.hold(fault)
        try:
            status, headers, answer = self._forward(server, body)
        except (OSError, http.client.HTTPException) as exc:
            entry['status'] = 502
            self._answer(502, {}, json.dumps({'error': 'fault proxy: upstream failed: %s'
                                              % exc}).encode('utf-8'))
            return
        entry['forwarded'] = True
        entry['upstream_status'] = status
        if fault is not None and fault.action == 'lose':
            self._reset()
            return
        if fault is not None and fault.action == 'slow':
            time.sleep(fault.delay)
        if fault is not None and fault.action == 'status_after':
            status, headers = fault.status, dict(fault.headers)
            answer = json.dumps({'fault': {'code': status, 'message':
                                           'injected by the fault proxy after forwarding'}}
                                ).encode('utf-8')
        entry['status'] = status
        self._answer(status, headers, answer)

    def _forward(self, server, body):
        proxy = server.proxy
        upstream = http.client.HTTPConnection(server.upstream_host, server.upstream_port,
                                              timeout=UPSTREAM_TIMEOUT)
        try:
            headers = dict((k, v) for k, v in self.headers.items()
                           if k.lower() not in HOP_BY_HOP and k.lower() != 'host')
            headers['Host'] = '%s:%s' % (server.upstream_host, server.upstream_port)
            if body:
                headers['Content-Length'] = str(len(body))
            upstream.request(self.command, self.path, body=body or None, headers=headers)
            response = upstream.getresponse()
            answer = response.read()
            status = response.status
            out = dict((k, v) for k, v in response.getheaders() if k.lower() not in HOP_BY_HOP)
        finally:
            upstream.close()
        subject = out.get('X-Subject-Token') or out.get('x-subject-token')
        if subject:
            proxy.tokens.add(subject)
        answer = proxy.rewrite(answer)
        if server.name == 'keystone' and subject:
            answer = proxy.shorten_token(answer)
        if proxy.inject_access_key and server.name == 'manila':
            answer = proxy.add_access_key(answer)
        return status, out, answer

    def _answer(self, status, headers, body):
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        if 'content-type' not in set(k.lower() for k in headers):
            self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        if self.command != 'HEAD' and body:
            self.wfile.write(body)

    def _reset(self):
        """Close the connection with a TCP reset, without a word."""
        self.close_connection = True
        try:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                       struct.pack('ii', 1, 0))
        except OSError:
            pass
        self.wfile.close()
        self.rfile.close()
        self.connection.close()


class FaultProxy(object):
    """Proxies for Keystone and Manila with faults; a context manager.

    ``upstreams``: {'keystone': 'http://127.0.0.1:5000', 'manila': ...}.
    ``urls``: the proxy's own base URL per upstream.
    """

    def __init__(self, upstreams, lifetime=DEFAULT_LIFETIME, inject_access_key=None):
        self.faults = []
        self.retired = []
        self.log = []
        self.tokens = set()
        self.inject_access_key = inject_access_key
        self.next_token_lifetime = None
        self.lock = threading.Lock()
        self.slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self.listeners = dict((name, _Listener(self, name, url))
                              for name, url in upstreams.items())
        self.urls = dict((name, listener.base) for name, listener in self.listeners.items())
        self.threads = []
        self.lifetime = lifetime
        self.timer = None

    # -- running ----------------------------------------------------------
    def start(self):
        for listener in self.listeners.values():
            thread = threading.Thread(target=listener.serve_forever, kwargs={'poll_interval': 0.2},
                                      name='fault-proxy-%s' % listener.name, daemon=True)
            thread.start()
            self.threads.append(thread)
        # Stops by itself, whatever happens to the test that started it.
        self.timer = threading.Timer(self.lifetime, self.stop)
        self.timer.daemon = True
        self.timer.start()
        return self

    def stop(self):
        if self.timer is not None:
            self.timer.cancel()
        for fault in self.faults:
            fault.released.set()
        for listener in self.listeners.values():
            listener.shutdown()
            listener.server_close()
        for thread in self.threads:
            thread.join(5)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # -- faults -----------------------------------------------------------
    def add(self, *faults):
        with self.lock:
            self.faults.extend(faults)
        return self

    def clear(self):
        """No more faults (the log and ``fired()`` keep them)."""
        with self.lock:
            for fault in self.faults:
                fault.released.set()
            self.retired.extend(self.faults)
            self.faults = []

    def take_fault(self, upstream, method, path, body_key):
        with self.lock:
            for fault in self.faults:
                if fault.matches(upstream, method, path, body_key):
                    fault.fired += 1
                    return fault
        return None

    def hold(self, fault):
        """A barrier: wait until ``fault.count`` requests wait (or ``fault.delay`` s)."""
        with self.lock:
            fault.waiting += 1
            if fault.waiting >= fault.count:
                fault.released.set()
        fault.released.wait(fault.delay or 60)

    def record(self, entry):
        with self.lock:
            if len(self.log) < 100000:
                self.log.append(entry)

    # -- answers ----------------------------------------------------------
    def rewrite(self, body):
        """Upstream base URLs in an answer become the proxy's own."""
        for listener in self.listeners.values():
            body = body.replace(listener.upstream_base.encode('ascii'),
                                listener.base.encode('ascii'))
        return body

    def shorten_token(self, body):
        """A token answer whose ``expires_at`` is ``next_token_lifetime`` seconds
        from now (to the microsecond), once; other answers as they are."""
        with self.lock:
            lifetime, self.next_token_lifetime = self.next_token_lifetime, None
        if lifetime is None:
            return body
        try:
            data = json.loads(body.decode('utf-8'))
        except (ValueError, UnicodeDecodeError):
            return body
        token = data.get('token') if isinstance(data, dict) else None
        if not isinstance(token, dict) or 'expires_at' not in token:
            return body
        expires = time.time() + lifetime
        token['expires_at'] = '%s.%06dZ' % (time.strftime('%Y-%m-%dT%H:%M:%S', time.gmtime(expires)),
                                            int((expires % 1) * 1000000))
        return json.dumps(data).encode('utf-8')

    def add_access_key(self, body):
        """Give every access rule in a Manila answer a cephx key."""
        try:
            data = json.loads(body.decode('utf-8'))
        except (ValueError, UnicodeDecodeError):
            return body
        if not isinstance(data, dict):
            return body
        rules = []
        if isinstance(data.get('access_list'), list):
            rules = data['access_list']
        elif isinstance(data.get('access'), dict):
            rules = [data['access']]
        for rule in rules:
            if isinstance(rule, dict):
                rule['access_key'] = self.inject_access_key
        return json.dumps(data).encode('utf-8') if rules else body

    # -- reading the log --------------------------------------------------
    def requests(self, upstream=None, method=None, path=None, forwarded=None, body_key=None):
        pattern = re.compile(path) if path else None
        with self.lock:
            entries = list(self.log)
        return [e for e in entries
                if (upstream is None or e['upstream'] == upstream)
                and (method is None or e['method'] == method)
                and (pattern is None or pattern.search(e['path']))
                and (forwarded is None or e['forwarded'] == forwarded)
                and (body_key is None or e['body_key'] == body_key)]

    def writes(self, forwarded=True):
        """The write requests that reached Manila (or all, forwarded=None)."""
        return [e for e in self.requests(upstream='manila', forwarded=forwarded)
                if e['method'] not in ('GET', 'HEAD')]

    def fired(self):
        """(action, how often it fired) of every fault added, cleared ones too."""
        return [(f.action, f.fired) for f in self.retired + self.faults]
