#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_service_info
short_description: List OpenStack Manila's services and their state
version_added: 0.1.0
description:
  - Returns Manila's services (C(GET /services)) - each C(manila-share)
    backend, the schedulers and the data services - with whether each is up
    and whether it is enabled for scheduling, as
    C(openstack share service list) does. This is where a storage team sees a
    backend that stopped reporting, a service left behind after a node was
    replaced, or a backend disabled for maintenance and why.
  - The filters are applied by Manila, in one request.
  - Listing services is admin-only under Manila's default policy; a member
    gets a clear refusal (HTTP 403).
  - Never fails because nothing matched.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
  - openkeel.manila.attributes.info_module
options:
  binary:
    description:
      - Only services of this binary, for example V(manila-share),
        V(manila-scheduler) or V(manila-data).
    type: str
  host:
    description:
      - Only services on this host, as Manila names it (for a
        C(manila-share) service C(host@backend), for example
        V(storage1@alpha)); matched whole.
    type: str
  zone:
    description:
      - Only services in this availability zone (its name). An unknown zone
        matches nothing.
    type: str
  state:
    description:
      - Only services whose heartbeat Manila sees (V(up)) or misses (V(down)).
    type: str
    choices: [down, up]
  status:
    description:
      - Only services enabled for scheduling (V(enabled)) or disabled
        (V(disabled)).
    type: str
    choices: [disabled, enabled]
  ensuring:
    description:
      - Only services that are (V(true)) or are not (V(false)) running
        Manila's ensure-shares.
      - Needs Manila API 2.86 (the task fails before any request that would
        list otherwise); Manila filters from API 2.93, and the listing is
        matched here at 2.86 to 2.92.
    type: bool
seealso:
  - module: openkeel.manila.availability_zone_info
  - module: openkeel.manila.share_pool_info
'''

EXAMPLES = r'''
- name: Share services that are down
  openkeel.manila.share_service_info:
    cloud: admin
    binary: manila-share
    state: down
  register: down

- name: Say which backends stopped reporting
  ansible.builtin.debug:
    msg: "Down: {{ down.services | map(attribute='host') | join(', ') or 'none' }}"

- name: Backends disabled for maintenance, and why
  openkeel.manila.share_service_info:
    cloud: admin
    binary: manila-share
    status: disabled
  register: disabled
'''

RETURN = r'''
services:
  description: The matching services, sorted by binary and host.
  returned: always
  type: list
  elements: dict
  sample:
    - id: 3
      binary: manila-share
      host: storage1@alpha
      zone: nova
      status: enabled
      state: up
      updated_at: '2026-12-04T10:00:01.000000'
      disabled_reason: null
      ensuring: false
  contains:
    id:
      description: Manila's ID of the service (an integer).
      type: int
    binary:
      description: The service's program, for example C(manila-share).
      type: str
    host:
      description: The host it runs on; for C(manila-share) C(host@backend).
      type: str
    zone:
      description: The availability zone it serves.
      type: str
    status:
      description: C(enabled) or C(disabled) (for scheduling).
      type: str
    state:
      description: C(up) when Manila receives its heartbeat, else C(down).
      type: str
    updated_at:
      description: When the service last reported.
      type: str
    disabled_reason:
      description:
        - Why the service was disabled (null when none was given).
        - Only with Manila API 2.83 or newer.
      type: str
      returned: with API 2.83+
    ensuring:
      description:
        - Whether the service is running Manila's ensure-shares.
        - Only with Manila API 2.86 or newer.
      type: bool
      returned: with API 2.86+
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
'''

from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule
from ansible_collections.openkeel.manila.plugins.module_utils.services import list_services
from ansible_collections.openkeel.manila.plugins.module_utils.states import (
    SERVICE_STATES,
    SERVICE_STATUSES,
)


class ShareServiceInfoModule(ManilaModule):
    argument_spec = dict(
        binary=dict(type='str'),
        host=dict(type='str'),
        zone=dict(type='str'),
        state=dict(type='str', choices=sorted(SERVICE_STATES)),
        status=dict(type='str', choices=sorted(SERVICE_STATUSES)),
        ensuring=dict(type='bool'),
    )

    def run(self):
        p = self.params
        self.finish(services=list_services(
            self.client, ensuring=p['ensuring'], binary=p['binary'], host=p['host'],
            zone=p['zone'], state=p['state'], status=p['status']))


def main():
    ShareServiceInfoModule()()


if __name__ == '__main__':
    main()
