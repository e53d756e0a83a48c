#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_message_info
short_description: Read OpenStack Manila's user messages (why did my share go to error?)
version_added: 0.1.0
description:
  - Returns Manila's user messages (API 2.37+), newest first. Manila writes
    one when an asynchronous operation fails, for example why the scheduler
    found no storage for a share (action C(allocate host)).
  - Filters by resource (a share by name or ID, or any O(resource_id) and
    O(resource_type)), action, level and time. Manila applies them itself;
    the time filters are sent as C(created_since)/C(created_before) on API
    2.52+ and applied here on older clouds (reading the messages newest first
    only as far back as needed).
  - A project member sees the messages of their project, an admin those of
    every project.
  - Never fails because nothing matched.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
  - openkeel.manila.attributes.info_module
options:
  id:
    description: ID of one message (a UUID; any other value is refused).
    type: str
  share:
    description:
      - Name or ID of a share whose messages to read. A deleted share's
        messages stay readable through its ID (O(resource_id)).
    type: str
  resource_id:
    description: ID of the resource the messages are about (any kind; a UUID).
    type: str
  resource_type:
    description:
      - Kind of resource, as Manila names it, for example V(SHARE),
        V(SHARE_SNAPSHOT), V(SHARE_REPLICA), V(SHARE_GROUP),
        V(SECURITY_SERVICE), V(SHARE_NETWORK_SUBNET) (case does not matter).
    type: str
  action_id:
    description:
      - The action that failed, as Manila's code, for example V(001)
        (allocate host), V(002) (create), V(006) (revert to snapshot),
        V(007) (delete), V(008) (extend), V(009) (shrink), V(010) (update
        access rules). The code is the start of each message's
        C(user_message).
    type: str
  message_level:
    description: Level of the messages; Manila writes only V(ERROR) so far.
    type: str
  request_id:
    description: Only the messages of this request (C(req-...)).
    type: str
  since:
    description:
      - Only messages created at or after this time, an ISO 8601 timestamp
        (UTC when it has no zone, for example V(2026-01-31T08:00:00Z)) or an
        age before now, for example V(30m), V(1h), V(2d), V(1w) (units s, m,
        h, d, w).
    type: str
  before:
    description:
      - Only messages created at or before this time, written as for
        O(since).
    type: str
  limit:
    description: At most this many messages (the newest). All when omitted.
    type: int
seealso:
  - module: openkeel.manila.share
'''

EXAMPLES = r'''
- name: Why is the share in error?
  openkeel.manila.share_message_info:
    cloud: mycloud
    share: projects
    limit: 1
  register: why

- name: Say it
  ansible.builtin.debug:
    msg: "{{ why.messages[0].user_message | default('Manila left no message') }}"

- name: Every failed placement of the last day
  openkeel.manila.share_message_info:
    cloud: mycloud
    action_id: '001'
    since: 1d
'''

RETURN = r'''
messages:
  description: The matching messages, newest first, as Manila shows them.
  returned: always
  type: list
  elements: dict
  sample: [{"id": "d4e5f6a7-7777-4888-8999-000011112222",
            "user_message": "allocate host: No storage could be allocated for this share request, Capabilities filter didn't succeed.",
            "action_id": "001", "detail_id": "008", "message_level": "ERROR",
            "resource_type": "SHARE", "resource_id": "0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a",
            "request_id": "req-1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
            "created_at": "2026-12-01T10:00:05.000000", "expires_at": "2027-01-01T10:00:05.000000"}]
  contains:
    id:
      description: Message ID.
      type: str
    user_message:
      description: What went wrong, in Manila's words (the action, a colon, the reason).
      type: str
    action_id:
      description: Code of the action that failed.
      type: str
    detail_id:
      description: Code of the reason.
      type: str
    message_level:
      description: Level (V(ERROR)).
      type: str
    resource_type:
      description: Kind of the resource (V(SHARE), ...).
      type: str
    resource_id:
      description: ID of the resource.
      type: str
    request_id:
      description: The request that failed.
      type: str
    created_at:
      description: When Manila wrote it (UTC).
      type: str
    expires_at:
      description: When Manila deletes it (UTC).
      type: str
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
  sample: '2.99'
'''

import datetime
import re

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils import manila_messages
from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule
from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput

ACTION_ID_RE = re.compile(r'^\d{3}$')


def time_window(since, before, now):
    """(since, before) as aware UTC datetimes (None where not given); checked."""
    start = manila_messages.parse_time(since, 'since', now) if since else None
    end = manila_messages.parse_time(before, 'before', now) if before else None
    if start is not None and end is not None and start > end:
        raise InvalidInput('since (%s) is after before (%s): no message can match.' % (
            manila_messages.manila_time(start), manila_messages.manila_time(end)))
    return start, end


class ShareMessageInfoModule(ManilaModule):
    argument_spec = dict(
        id=dict(type='str'),
        share=dict(type='str'),
        resource_id=dict(type='str'),
        resource_type=dict(type='str'),
        action_id=dict(type='str'),
        message_level=dict(type='str'),
        request_id=dict(type='str'),
        since=dict(type='str'),
        before=dict(type='str'),
        limit=dict(type='int'),
    )
    module_kwargs = dict(mutually_exclusive=[('share', 'resource_id'),
                                             ('share', 'resource_type')])

    def run(self):
        p = self.params
        lookups.check_id_filters(p, ('id', 'resource_id'))
        start, end = self.validate_input()
        self.client.require('user_messages', 'Manila user messages')
        if p['id']:
            message = lookups.get_by_id(self.client, 'message', p['id'])
            messages = [message] if message and self.matches(message, start, end) else []
            return self.finish(messages=messages)
        filters = self.filters()
        keep = past = None
        if start is not None or end is not None:
            if self.client.supports('message_time_filters'):
                if start is not None:
                    filters['created_since'] = manila_messages.manila_time(start)
                if end is not None:
                    filters['created_before'] = manila_messages.manila_time(end)
            else:
                # Older clouds ignore both filters: read newest first, stop
                # once past "since".
                def keep(message):
                    return self.in_window(message, start, end)

                def past(message):
                    return start is not None and manila_messages.created_at(message) < start
        messages = manila_messages.list_messages(self.client, filters, limit=p['limit'],
                                                 keep=keep, past=past)
        self.finish(messages=messages)

    def validate_input(self):
        p = self.params
        if p['limit'] is not None and p['limit'] < 1:
            raise InvalidInput('limit must be at least 1, got %s.' % p['limit'])
        if p['action_id'] is not None and not ACTION_ID_RE.match(p['action_id']):
            raise InvalidInput(
                'action_id must be Manila\'s three-digit action code such as 001 (allocate '
                'host) or 002 (create), got %r. In YAML, quote it (\'001\').' % p['action_id'])
        now = datetime.datetime.now(datetime.timezone.utc)
        return time_window(p['since'], p['before'], now)

    def filters(self):
        p = self.params
        filters = {
            'resource_id': p['resource_id'],
            'resource_type': p['resource_type'].upper() if p['resource_type'] else None,
            'action_id': p['action_id'],
            'message_level': p['message_level'].upper() if p['message_level'] else None,
            'request_id': p['request_id'],
        }
        if p['share']:
            filters['resource_id'] = lookups.resolve_id(self.client, 'share', p['share'], option='share')
            filters['resource_type'] = 'SHARE'
        return dict((k, v) for k, v in filters.items() if v is not None)

    @staticmethod
    def in_window(message, start, end):
        moment = manila_messages.created_at(message)
        return (start is None or moment >= start) and (end is None or moment <= end)

    def matches(self, message, start, end):
        """One message read by ID against the other filters given."""
        for key, value in self.filters().items():
            if str(message.get(key) or '').upper() != str(value).upper():
                return False
        return self.in_window(message, start, end)


def main():
    ShareMessageInfoModule()()


if __name__ == '__main__':
    main()
