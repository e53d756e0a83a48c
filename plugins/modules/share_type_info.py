#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_type_info
short_description: List OpenStack Manila share types
version_added: 0.1.0
description:
  - Returns the share types this user may see, private ones included for
    admins, each with C(is_public); optionally one type by name or ID, types
    with given extra specs, and the projects of private types.
  - Members see the public types, with the extra specs Manila shows tenants.
  - Never fails because nothing matched.
  - With O(name), the one type it names is also returned as RV(share_type),
    the key C(openstack.cloud.share_type_info) returns, so tasks written for
    that module read their result unchanged.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
  - openkeel.manila.attributes.info_module
options:
  name:
    description:
      - Name or ID of one type.
      - A UUID-shaped value is tried as a type ID first (one request), then as a
        name when no type has that ID, as in openstack.cloud; the type with that ID
        must also match the other filters given. Any other value costs no extra request.
      - Manila keeps one type per name, so at most one type matches; it is
        returned in RV(share_types) and as RV(share_type).
    type: str
  extra_specs:
    description:
      - Only types with these extra specs. Every key must match (Manila's own
        filter compares only the first one, so it is applied here to the one
        listing). Values compare as Manila reads them - boolean-looking values
        regardless of case and with or without C(<is>) (V(true) matches
        V(<is> True)), C(availability_zones) without the spaces around its
        commas.
    type: dict
  is_public:
    description:
      - V(true) only public types, V(false) only private ones; left out, both
        (admins; members only ever see public types).
    type: bool
  with_projects:
    description:
      - Add C(projects), the project IDs with access, to each private type
        (one request per private type; admins).
    type: bool
    default: false
'''

EXAMPLES = r'''
- name: Every type, private ones included (admin)
  openkeel.manila.share_type_info:
    cloud: mycloud
  register: types

- name: The types for backends that create share servers
  openkeel.manila.share_type_info:
    cloud: mycloud
    extra_specs:
      driver_handles_share_servers: true

- name: One type and who may use it
  openkeel.manila.share_type_info:
    cloud: mycloud
    name: nfs-gold
    with_projects: true
'''

RETURN = r'''
share_types:
  description:
    - The matching types as Manila shows them at the negotiated version.
    - A member sees the public types and the private ones their project may use; listing
      the projects of a private type (O(with_projects)) is admin-only by default.
  returned: always
  type: list
  elements: dict
  sample: [{"id": "a3c8e1b4-6d2f-4e0a-9b1c-2d3e4f5a6b7c", "name": "nfs-gold", "is_public": true,
            "description": null, "is_default": false,
            "extra_specs": {"driver_handles_share_servers": "True", "snapshot_support": "True"},
            "required_extra_specs": {"driver_handles_share_servers": "True"}}]
  contains:
    id:
      description: Type ID.
      type: str
    name:
      description: Name.
      type: str
    description:
      description: Description (API 2.41+).
      type: str
    is_public:
      description:
        - Whether every project may use it.
        - The result also carries Manila's own key for it, C(share_type_access:is_public), as
          Manila sends it (read it as C(share_type['share_type_access:is_public'])).
      type: bool
    is_default:
      description: Whether it is the cloud's default type (API 2.46+).
      type: bool
    extra_specs:
      description:
        - Its extra specs, the required one included, free-form keys with string values (for
          example C(driver_handles_share_servers), C(snapshot_support), C(replication_type),
          C(share_backend_name)).
      type: dict
      elements: str
    required_extra_specs:
      description: The required extra spec, C(driver_handles_share_servers).
      type: dict
      contains:
        driver_handles_share_servers:
          description: V(True) or V(False) (a string) - whether shares of the type need a share network.
          type: str
    projects:
      description: Project IDs with access (private types, with O(with_projects)).
      type: list
      elements: str
share_type:
  description:
    - The one type O(name) names, the same dict as its entry in
      RV(share_types); empty when no type matches (C(openstack.cloud.share_type_info)
      fails instead).
    - The key of C(openstack.cloud.share_type_info), with Manila's view in it,
      not openstack.cloud's reshaped one - C(extra_specs) holds every extra
      spec (there is no C(optional_extra_specs)), C(description) is null when
      the type has none (not an empty string), and C(is_default) comes from
      API 2.46 on. The guide's "coming from openstack.cloud" table lists every
      difference.
  returned: when O(name) is given
  type: dict
  sample: {"id": "a3c8e1b4-6d2f-4e0a-9b1c-2d3e4f5a6b7c", "name": "nfs-gold", "is_public": true,
           "description": null, "is_default": false,
           "extra_specs": {"driver_handles_share_servers": "True"},
           "required_extra_specs": {"driver_handles_share_servers": "True"}}
  contains:
    id:
      description: Type ID.
      type: str
    name:
      description: Name.
      type: str
    description:
      description: Description (API 2.41+).
      type: str
    is_public:
      description:
        - Whether every project may use it.
        - The result also carries Manila's own key for it, C(share_type_access:is_public), as
          Manila sends it (read it as C(share_type['share_type_access:is_public'])).
      type: bool
    is_default:
      description: Whether it is the cloud's default type (API 2.46+).
      type: bool
    extra_specs:
      description:
        - Its extra specs, the required one included, free-form keys with string values (for
          example C(driver_handles_share_servers), C(snapshot_support), C(replication_type),
          C(share_backend_name)).
      type: dict
      elements: str
    required_extra_specs:
      description: The required extra spec, C(driver_handles_share_servers).
      type: dict
      contains:
        driver_handles_share_servers:
          description: V(True) or V(False) (a string) - whether shares of the type need a share network.
          type: str
    projects:
      description: Project IDs with access (private types, with O(with_projects)).
      type: list
      elements: str
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
  sample: '2.99'
'''

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule
from ansible_collections.openkeel.manila.plugins.module_utils.metadata import as_metadata_value
from ansible_collections.openkeel.manila.plugins.module_utils.share_types import (
    ShareTypeAPI,
    is_public,
    public_view,
    same_spec_value,
)


class ShareTypeInfoModule(ManilaModule):
    argument_spec = dict(
        name=dict(type='str'),
        extra_specs=dict(type='dict'),
        is_public=dict(type='bool'),
        with_projects=dict(type='bool', default=False),
    )

    def run(self):
        p = self.params
        query = {'is_public': 'all' if p['is_public'] is None else str(p['is_public']).lower()}

        def listing(name):
            # Manila's type listing has no name filter: matched in the one listing.
            found = self.client.get('types', query=query).get('share_types', [])
            return [t for t in found if name in (None, t.get('name'))]
        # The visibility and extra spec filters are applied here, to either answer.
        types = lookups.listed_by_name_or_id(self.client, 'share_type', p['name'], listing)
        types = [t for t in types if self.matches(t, p)]
        api = ShareTypeAPI(self.client)
        views = []
        for share_type in types:
            projects = None
            if p['with_projects'] and not is_public(share_type):
                projects = api.projects(share_type['id'])
            views.append(public_view(share_type, projects))
        result = dict(share_types=views)
        if p['name'] is not None:
            # Manila keeps one type per name: at most one (openstack.cloud's key).
            result['share_type'] = views[0] if views else {}
        self.finish(**result)

    @staticmethod
    def matches(share_type, p):
        """The visibility and extra spec filters, for one type."""
        if p['is_public'] is not None and is_public(share_type) != p['is_public']:
            return False
        specs = share_type.get('extra_specs') or {}
        return all(same_spec_value(specs.get(str(k)), as_metadata_value(v), str(k))
                   for k, v in (p['extra_specs'] or {}).items())


def main():
    ShareTypeInfoModule()()


if __name__ == '__main__':
    main()
