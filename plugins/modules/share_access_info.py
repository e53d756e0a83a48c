#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_access_info
short_description: Read the access rules of an OpenStack Manila share
version_added: 0.1.0
description:
  - Lists the access rules of one share, optionally filtered by type,
    target, level and metadata.
  - Filters are sent to Manila where it offers them (API 2.45+); an ip
    target is matched as a network, so V(10.0.0.1) finds a rule written
    V(10.0.0.1/32).
  - Rules hidden by a visibility lock show C(******) as their target and
    key, and never match a target filter.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
  - openkeel.manila.attributes.info_module
options:
  share:
    description:
      - Name or ID of the share.
    type: str
    required: true
  access_type:
    description:
      - Only rules of this type.
    type: str
    choices: [ip, user, cert, cephx]
  access_to:
    description:
      - Only the rule with this target; needs O(access_type).
    type: str
  access_level:
    description:
      - Only rules with this level.
    type: str
    choices: [rw, ro]
  metadata:
    description:
      - Only rules carrying all these metadata items (API 2.45+).
    type: dict
'''

EXAMPLES = r'''
- name: Every rule of a share
  openkeel.manila.share_access_info:
    cloud: mycloud
    share: projects
  register: access

- name: The cephx rule of one client
  openkeel.manila.share_access_info:
    cloud: mycloud
    share: cephfs-data
    access_type: cephx
    access_to: app1
  register: app1

- name: Read-only rules owned by the batch team
  openkeel.manila.share_access_info:
    cloud: mycloud
    share: projects
    access_level: ro
    metadata:
      owner: batch
'''

RETURN = r'''
rules:
  description:
    - The matching rules, as Manila lists them.
    - A rule's C(access_key) (the cephx secret) is never returned.
  returned: always
  type: list
  elements: dict
  sample: [{"id": "a4c5d6e7-1111-4222-8333-444455556666", "access_type": "ip", "access_to": "10.0.0.0/24",
            "access_level": "rw", "state": "active", "metadata": {}}]
  contains:
    id:
      description: Rule ID.
      type: str
    access_type:
      description: ip, user, cert or cephx.
      type: str
    access_to:
      description: The target (C(******) when hidden by a visibility lock).
      type: str
    access_level:
      description: rw or ro.
      type: str
    state:
      description: Rule state, for example V(active) or V(error).
      type: str
    metadata:
      description: Rule metadata, free-form keys (API 2.45+).
      type: dict
      elements: str
    created_at:
      description: When the rule was made (API 2.33+).
      type: str
    updated_at:
      description: When the rule last changed (API 2.33+).
      type: str
share:
  description: The share's ID, name and C(access_rules_status).
  returned: always
  type: dict
  sample: {"id": "0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a", "name": "projects", "access_rules_status": "active"}
  contains:
    id:
      description: Share ID.
      type: str
    name:
      description: Share name.
      type: str
    access_rules_status:
      description: V(active), V(syncing) or V(error) - whether Manila has applied the share's rules (API 2.10+).
      type: str
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
  sample: '2.99'
'''

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.access import (
    AccessAPI,
    filter_rules,
    validate_target,
)
from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule
from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput, reword


class ShareAccessInfoModule(ManilaModule):
    argument_spec = dict(
        share=dict(type='str', required=True),
        access_type=dict(type='str', choices=['ip', 'user', 'cert', 'cephx']),
        access_to=dict(type='str'),
        access_level=dict(type='str', choices=['rw', 'ro']),
        metadata=dict(type='dict'),
    )
    module_kwargs = dict(required_by={'access_to': 'access_type'})

    def run(self):
        p = self.params
        client = self.client
        if p['access_to'] is not None:
            checked = reword(InvalidInput, lambda exc: InvalidInput('access_to: %s' % exc.message))
            checked(validate_target)(p['access_type'], p['access_to'], client.version)
        metadata = None
        if p['metadata']:
            client.require('access_rule_metadata', 'Filtering by rule metadata')
            metadata = dict((str(k), str(v)) for k, v in p['metadata'].items())
        share = lookups.require(client, 'share', p['share'])
        server_filters = {}
        if client.supports('share_access_rules_api'):
            server_filters = dict(access_type=p['access_type'],
                                  access_level=p['access_level'], metadata=metadata)
            if p['access_type'] != 'ip':
                # ip targets are compared as networks below, not as text.
                server_filters['access_to'] = p['access_to']
        rules = AccessAPI(client).list(share['id'], server_filters)
        rules = filter_rules(rules, access_type=p['access_type'], access_to=p['access_to'],
                             access_level=p['access_level'], metadata=metadata)
        self.finish(rules=rules, share=dict(
            id=share['id'], name=share.get('name'),
            access_rules_status=share.get('access_rules_status')))


def main():
    ShareAccessInfoModule()()


if __name__ == '__main__':
    main()
