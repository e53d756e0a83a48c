# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Manila's user messages (API 2.37+) and the points in time tasks give.

The messages explain why an asynchronous operation failed; waits and the
message info module read them.  Times are relative ages ("1h") or ISO 8601
timestamps, turned into what Manila's filters take."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime
import re

from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput
from ansible_collections.openkeel.manila.plugins.module_utils.lookups import (
    PAGE_SIZE,
    pages,
)


def list_messages(client, filters=None, limit=None, keep=None, past=None):
    """Manila's user messages (2.37+), newest first, paged (see pages()).

    ``filters`` are Manila's own (resource_id, resource_type, action_id,
    message_level, request_id, created_since/created_before at 2.52+).
    ``keep(message)`` filters on this side; ``past(message)`` says the
    listing (newest first) has gone past what is wanted, ending it early.
    At most ``limit`` messages (None: all); without ``keep`` and ``past``
    the page asked for is ``limit`` long, so that a full first page is the
    only request.
    """
    query = dict(filters or {})
    query.update(sort_key='created_at', sort_dir='desc')
    page_size = PAGE_SIZE
    if keep is None and past is None and limit is not None:
        page_size = min(limit, PAGE_SIZE)
    found = []
    if limit is not None and limit < 1:
        return found
    for message in pages(client, 'messages', 'messages', query, page_size):
        if past is not None and past(message):
            return found
        if keep is None or keep(message):
            found.append(message)
            if limit is not None and len(found) >= limit:
                return found
    return found


def newest_messages(client, filters, limit):
    """Up to ``limit`` of Manila's newest user messages in one request (a
    page as long as the cloud's osapi_max_limit allows: enough to explain)."""
    query = dict(filters, sort_key='created_at', sort_dir='desc', limit=limit)
    return client.get('messages', query=query).get('messages', [])


# How far back a relative time reaches: "90s", "30m", "1h", "2d", "1w".
RELATIVE_TIME_RE = re.compile(r'^\s*(\d+)\s*([smhdw])\s*$')
TIME_UNITS = {'s': 'seconds', 'm': 'minutes', 'h': 'hours', 'd': 'days', 'w': 'weeks'}


def parse_time(value, option, now):
    """A task's point in time as an aware UTC datetime.

    ``value`` is a relative age ("1h": one hour before ``now``) or an ISO 8601
    timestamp (without a zone it is UTC).  InvalidInput names ``option``.
    """
    text = str(value).strip()
    match = RELATIVE_TIME_RE.match(text)
    if match:
        amount, unit = int(match.group(1)), match.group(2)
        return now - datetime.timedelta(**{TIME_UNITS[unit]: amount})
    try:
        moment = datetime.datetime.fromisoformat(text.replace('Z', '+00:00'))
    except ValueError:
        raise InvalidInput(
            '%s must be an ISO 8601 time such as 2026-01-31T08:00:00Z, or an age '
            'such as 30m, 1h, 2d or 1w (s, m, h, d, w), got %r.' % (option, value))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return moment.astimezone(datetime.timezone.utc)


def manila_time(moment):
    """An aware datetime as Manila's filters take it (UTC, RFC 3339)."""
    return moment.astimezone(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')


def created_at(resource):
    """A resource's ``created_at`` (naive UTC in Manila's answers), aware UTC."""
    moment = datetime.datetime.fromisoformat(str(resource['created_at']).replace('Z', '+00:00'))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return moment


def user_messages(client, resource_id, limit=3):
    """Manila's newest user messages for a resource, as one sentence (2.37+).

    These explain why an asynchronous operation failed ("No storage could be
    allocated for this share request..."). Empty when the cloud is too old.
    ``resource_id`` may be a list of IDs: the messages of each (one request each).
    """
    if not client.supports('user_messages'):
        return ''
    texts = []
    ids = [resource_id] if isinstance(resource_id, str) else list(resource_id)
    for one_id in ids:
        for message in newest_messages(client, {'resource_id': one_id}, limit):
            text = message.get('user_message')
            if text and text not in texts:
                texts.append(text)
    if not texts:
        return ''
    return 'Manila says: %s' % ' | '.join(texts)
