#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: availability_zone_info
short_description: List OpenStack Manila's availability zones
version_added: 0.1.0
description:
  - Returns the availability zones Manila's services serve
    (C(GET /availability-zones)), as C(openstack share availability zone list)
    does. Their names are the values that
    O(openkeel.manila.share#module:availability_zone) and a replica's zone take.
  - Every user may list them. One request; Manila's listing has no filter, so
    O(name) is matched in it.
  - These are Manila's zones, which need not be those of Nova or Cinder.
  - Never fails because nothing matched.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
  - openkeel.manila.attributes.info_module
options:
  name:
    description:
      - Name or ID of a zone; only that zone is returned (none when it does
        not exist).
    type: str
seealso:
  - module: openkeel.manila.share_service_info
  - module: openkeel.manila.share_replica
'''

EXAMPLES = r'''
- name: Manila's availability zones
  openkeel.manila.availability_zone_info:
    cloud: mycloud
  register: zones

- name: Does the zone the playbook wants exist?
  openkeel.manila.availability_zone_info:
    cloud: mycloud
    name: nova
  register: wanted
  failed_when: wanted.availability_zones | length != 1
'''

RETURN = r'''
availability_zones:
  description: The matching zones, sorted by name.
  returned: always
  type: list
  elements: dict
  sample:
    - id: 2f6b6a5e-1c1c-4d2e-9d8e-3c3f5a7b9d01
      name: nova
      created_at: '2026-12-04T09:00:00.000000'
      updated_at: null
  contains:
    id:
      description: The zone's ID.
      type: str
    name:
      description: The zone's name (what a share's C(availability_zone) takes).
      type: str
    created_at:
      description: When Manila first saw a service in the zone.
      type: str
    updated_at:
      description: When the zone was last updated (often null).
      type: str
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
'''

from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule
from ansible_collections.openkeel.manila.plugins.module_utils.services import list_zones


class AvailabilityZoneInfoModule(ManilaModule):
    argument_spec = dict(
        name=dict(type='str'),
    )

    def run(self):
        self.finish(availability_zones=list_zones(self.client, self.params['name']))


def main():
    AvailabilityZoneInfoModule()()


if __name__ == '__main__':
    main()
