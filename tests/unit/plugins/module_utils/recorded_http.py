# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Recorded HTTP for unit tests: answers a client's requests from a script.

Only for what the real local cloud cannot produce (old servers, 5xx,
connection failures); everything else is proved against the real Manila.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json


class RecordedResponse(object):
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


class RecordedSession(object):
    """A stand-in for a keystoneauth session.

    ``exchanges`` is a list of (method, path fragment, response or exception).
    Each request must match the next exchange; every request is recorded in
    ``calls`` as (method, url, headers, json body).
    """

    def __init__(self, exchanges):
        self.exchanges = list(exchanges)
        self.calls = []

    def request(self, url, method, raise_exc=True, authenticated=True, **kwargs):
        self.calls.append((method, url, kwargs.get('headers') or {}, kwargs.get('json')))
        if not self.exchanges:
            raise AssertionError('unexpected request %s %s' % (method, url))
        want_method, fragment, answer = self.exchanges.pop(0)
        if want_method != method or fragment not in url:
            raise AssertionError('expected %s %s, got %s %s' % (
                want_method, fragment, method, url))
        if isinstance(answer, Exception):
            raise answer
        return answer

    def paths(self):
        return ['%s %s' % (method, url.split('8786', 1)[-1]) for method, url, _h, _b in self.calls]


def versions_document(max_version, min_version='2.0', base='http://127.0.0.1:8786'):
    """A versions document shaped like Manila's answer to GET / (HTTP 300)."""
    return RecordedResponse(300, {'versions': [
        {'id': 'v1.0', 'status': 'DEPRECATED', 'version': '', 'min_version': '',
         'links': [{'rel': 'self', 'href': base + '/v1/'}]},
        {'id': 'v2.0', 'status': 'CURRENT', 'version': max_version,
         'min_version': min_version,
         'links': [{'rel': 'self', 'href': base + '/v2/'}]},
    ]})


def make_client(exchanges, max_version='2.99', cap=None, check_mode=False):
    from ansible_collections.openkeel.manila.plugins.module_utils.client import ManilaClient
    session = RecordedSession([('GET', '8786/', versions_document(max_version))] + list(exchanges))
    client = ManilaClient(session, 'http://127.0.0.1:8786/v2', api_version_cap=cap,
                          check_mode=check_mode, sleep=lambda seconds: None)
    client.negotiate()
    return client, session
