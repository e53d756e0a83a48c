# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""errors.py, more: the Retry-After an error answer carries (a 503 and a rate limit
keep it; any other status, a 504 too, does not)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils.errors import error_from_response
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
)

URL = 'http://m:8786/v2/shares/x'


def answer(status):
    return ScriptedResponse(status, {'computeFault': {'code': status, 'message': 'busy'}},
                            headers={'Retry-After': '5'})


def test_a_503_keeps_its_retry_after():
    exc = error_from_response(answer(503), 'GET', URL)
    assert (exc.status, exc.retry_after) == (503, 5.0)


def test_a_504_does_not_keep_a_retry_after():
    exc = error_from_response(answer(504), 'GET', URL)
    assert (exc.status, exc.retry_after) == (504, None)


def test_a_rate_limit_keeps_its_retry_after():
    exc = error_from_response(answer(429), 'GET', URL)
    assert (exc.status, exc.retry_after) == (429, 5.0)
