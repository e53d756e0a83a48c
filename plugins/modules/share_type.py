#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_type
short_description: Create, change and delete OpenStack Manila share types
version_added: 0.1.0
description:
  - Makes one Manila share type match the task - its extra specs, its
    description, whether it is public, and which projects may use it when it
    is private. Only what the task states is changed; an option left out
    leaves that part of the type alone.
  - The options have the names of C(openstack.cloud.share_type) where they
    mean the same, so tasks can switch; see the notes for the differences.
  - Share types are admin-only under Manila's default policy; a member's task
    fails saying so. A member who names a type it cannot see (a private type
    its project was not granted, or none at all) is told that, before
    anything else, instead of being asked for what a new type needs.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
attributes:
  check_mode:
    support: full
    description: Reads only; reports the same C(changed) and diff as a real run.
  diff_mode:
    support: full
    description: Name, description, visibility, extra specs and (when declared) projects.
options:
  name:
    description:
      - Name or ID of the share type (a UUID-shaped value is an ID). Private
        types are found by name too. Without O(id) it identifies the type.
      - A new type gets this name; an ID of a type that does not exist fails
        the task.
      - With O(id), the name the type should have (a rename, API 2.50+).
        Manila keeps one type per name, so a name another type has fails the
        task before any write, naming that type.
      - Required unless O(id) is given.
    type: str
  id:
    description:
      - ID of an existing share type. It then identifies the type and O(name)
        becomes its desired name (a rename); without O(name) the type keeps
        its name.
      - A type is never created with a given ID; an ID of a type that does
        not exist fails the task (with O(state=absent) it is already gone).
    type: str
  state:
    description:
      - V(present) makes the type exist as described; V(absent) deletes it.
      - Manila deletes no type in use. Shares of the type, and from API 2.69
        shares of the type in the recycle bin, fail the task before any
        write, naming them. When Manila still refuses (a share group type
        lists the type), the task says so.
    type: str
    choices: [present, absent]
    default: present
  description:
    description:
      - Description (API 2.41+ to create with one, 2.50+ to change it). An
        empty string clears it.
    type: str
  driver_handles_share_servers:
    description:
      - Whether shares of the type live on share servers that the backend
        creates on a share network (V(true)) or on existing servers (V(false)).
      - Required to create a type; no default, so an existing type keeps its
        value unless the task states one.
    type: bool
  extra_specs:
    description:
      - Extra specs the type has, for example C(share_backend_name) or
        C(snapshot_support). Values are strings; numbers are sent as text,
        boolean values are stored as V(True)/V(False), and a dict or a list
        is refused (give the text the backend expects, such as V(a,b));
        boolean-looking values compare regardless of case and with or without
        C(<is>) (V(true) equals V(<is> True)), as Manila reads them.
      - The values of Manila's standard specs are checked with Manila's rules
        before any write, and the task fails naming the spec and the values
        it takes - C(driver_handles_share_servers) and the boolean specs
        (C(snapshot_support), C(create_share_from_snapshot_support),
        C(revert_to_snapshot_support), C(mount_snapshot_support),
        C(mount_point_name_support),
        C(snapshot_inherit_share_access_support)), C(replication_type)
        (V(writable), V(readable), V(dr)), C(encryption_support) (V(share),
        V(share_server)), C(availability_zones) (names separated by commas,
        none empty) and C(provisioning:max_share_size),
        C(provisioning:min_share_size), C(provisioning:max_share_extend_size)
        (whole numbers from 1).
      - C(availability_zones) is sent and compared as Manila stores it, without
        spaces around the commas (V(az1, az2) is V(az1,az2)).
      - Merged into the type's extra specs; with O(purge_extra_specs) they are
        the exact set.
    type: dict
  purge_extra_specs:
    description:
      - Delete the extra specs that O(extra_specs) does not list.
        C(driver_handles_share_servers) is never deleted (Manila requires it).
    type: bool
    default: false
  is_public:
    description:
      - Whether every project may use the type. New types are public unless
        this says otherwise. Changing it on an existing type needs API 2.50.
      - No default, so an existing type keeps its visibility unless the task
        states one.
    type: bool
  projects:
    description:
      - Projects that may use the type, for a private type, by name or ID. The
        exact list - projects not listed lose access. Needs O(is_public=false)
        (or a type that is private already). Left out, the list is left alone.
      - Each project is looked up in Keystone (one request for each project
        not already on the type's list under its exact ID) and granted under
        its ID exactly as Keystone has it, with or without dashes; an entry
        on the type's list spelt otherwise gives no access and is replaced.
        A project Keystone does not know, or a name that several domains
        use, fails the task before any write.
    type: list
    elements: str
notes:
  - Differences with C(openstack.cloud.share_type) - there, O(is_public) and
    O(driver_handles_share_servers) default to V(true), so a task that leaves
    them out makes an existing private or DHSS=false type public or DHSS=true;
    here they have no default. There, O(extra_specs) is always the exact set;
    here set O(purge_extra_specs=true) for that. There, errors of Manila are
    partly swallowed; here every refusal fails the task with Manila's reason.
    There, a type cannot be renamed; here O(id) with O(name) renames it.
'''

EXAMPLES = r'''
- name: A type for a DHSS=true backend, with snapshots
  openkeel.manila.share_type:
    cloud: mycloud
    name: nfs-gold
    description: NFS on share servers, with snapshots
    driver_handles_share_servers: true
    extra_specs:
      share_backend_name: GOLD
      snapshot_support: true
      create_share_from_snapshot_support: true

- name: A private type for two projects
  openkeel.manila.share_type:
    cloud: mycloud
    name: nfs-silver
    driver_handles_share_servers: false
    is_public: false
    projects:
      - 5e1f7b1c2a3d4e5f8a9b0c1d2e3f4a5b
      - research    # a project name: granted under its Keystone ID

- name: Exactly these extra specs
  openkeel.manila.share_type:
    cloud: mycloud
    name: nfs-gold
    extra_specs:
      share_backend_name: GOLD
      snapshot_support: false
      availability_zones: az1, az2   # stored (and compared) as az1,az2
    purge_extra_specs: true

- name: Rename a type, found by its ID
  openkeel.manila.share_type:
    cloud: mycloud
    id: a3c8e1b4-6d2f-4e0a-9b1c-2d3e4f5a6b7c
    name: nfs-platinum

- name: Delete a type
  openkeel.manila.share_type:
    cloud: mycloud
    name: nfs-silver
    state: absent
'''

RETURN = r'''
share_type:
  description:
    - The type as Manila shows it at the negotiated version, with C(is_public)
      and, when the task declares O(projects), C(projects). Empty after a
      deletion. In check mode, the type as it would be.
  returned: always
  type: dict
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
      description:
        - Project IDs with access, as Keystone has them (private types, when
          O(projects) is given).
      type: list
      elements: str
  sample: {"id": "a3c8e1b4-6d2f-4e0a-9b1c-2d3e4f5a6b7c", "name": "nfs-gold", "is_public": true,
           "extra_specs": {"driver_handles_share_servers": "True", "share_backend_name": "GOLD"}}
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
  sample: '2.99'
'''

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule
from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput
from ansible_collections.openkeel.manila.plugins.module_utils.resource import DELETE
from ansible_collections.openkeel.manila.plugins.module_utils.share_types import (
    IS_PUBLIC,
    ShareTypeAPI,
    is_public,
    plan_absent,
    plan_create,
    plan_update,
    prepare_extra_specs,
    prepare_projects,
    public_view,
    required_features,
)


class ShareTypeModule(ManilaModule):
    argument_spec = dict(
        name=dict(type='str'),
        id=dict(type='str'),
        state=dict(type='str', default='present', choices=['present', 'absent']),
        description=dict(type='str'),
        driver_handles_share_servers=dict(type='bool'),
        extra_specs=dict(type='dict'),
        purge_extra_specs=dict(type='bool', default=False),
        is_public=dict(type='bool'),
        projects=dict(type='list', elements='str'),
    )

    module_kwargs = dict(required_one_of=[('name', 'id')])
    gone_diff = {}

    def run(self):
        p = self.params
        self.specs = prepare_extra_specs(p['extra_specs'], p['driver_handles_share_servers'])
        self.projects = prepare_projects(p['projects'])
        self.api = ShareTypeAPI(self.client)
        self.converge()

    # -- the hooks of the converge template (base.ManilaModule) ------------
    def find_current(self):
        if self.params['id']:
            return self.api.get(self.params['id'])
        return self.api.find(self.params['name'])

    def plan(self, current):
        p = self.params
        if p['state'] == 'absent':
            return self.plan_absent(current)
        if current is None:
            self.api.refuse_unseen_for_member(p['id'] or p['name'])
            if p['id']:
                raise InvalidInput('No share type with ID %s exists; a type cannot be '
                                   'created with a given ID (leave out "id" to create '
                                   'one).' % p['id'])
            if lookups.looks_like_uuid(p['name']):
                raise InvalidInput('No share type with ID %s exists; give a name to create '
                                   'one.' % p['name'])
            projects = self.projects
            if projects and p['is_public'] is False:
                projects = self.api.resolve_projects(projects)
            plan = plan_create(p['name'], self.specs, p['description'], p['is_public'],
                               projects)
        else:
            plan = self.plan_update(current)
        for feature, what in required_features(plan):
            self.client.require(feature, what)
        if 'name' in plan.update:
            self.api.refuse_taken_name(share_type=current, name=plan.update['name'])
        return plan

    def plan_update(self, share_type):
        """The plan for an existing type; the projects of a type that stays (or
        becomes) private are read and resolved through Keystone first."""
        p = self.params
        projects = self.projects
        current_projects = None
        private = p['is_public'] is False or (p['is_public'] is None
                                              and not is_public(share_type))
        if projects is not None and private:
            if not is_public(share_type):
                current_projects = self.api.projects(share_type['id'])
            projects = self.api.resolve_projects(projects, current_projects or ())
        return plan_update(share_type, self.specs, p['purge_extra_specs'], p['description'],
                           p['is_public'], projects, current_projects,
                           name=p['name'] if p['id'] else None)

    def plan_absent(self, share_type):
        shares = self.api.shares_of(share_type['id'])
        if shares:
            raise InvalidInput(
                'Share type %s (%s) is used by shares, and Manila deletes no type in '
                'use: %s. Delete them (or move them to another type) first.' % (
                    share_type.get('name'), share_type['id'], ', '.join(
                        '%s (%s)' % (s.get('name'), s['id']) for s in shares)))
        self.api.refuse_if_recycled_shares_hold(share_type)
        return plan_absent(share_type)

    @staticmethod
    def predict(plan, current):
        if plan.action == DELETE:
            return None
        view = dict(current or {}, name=plan.after['name'],
                    description=plan.after.get('description'),
                    extra_specs=plan.after['extra_specs'])
        view[IS_PUBLIC] = plan.after['is_public']
        return view

    def apply_create(self, plan, current):
        share_type, adopted = self.api.create(plan.body)
        if not adopted:
            for project in plan.grant:
                self.api.grant(share_type['id'], project)
            return share_type
        # Another task made the type at the same moment: bring it to the task as
        # a type this task had found.
        again = self.plan_update(share_type)
        plan.after = again.after
        return self.api.apply(share_type, again)

    def apply_update(self, plan, share_type):
        return self.api.apply(share_type, plan)

    def apply_delete(self, plan, share_type):
        self.api.delete(share_type['id'], share_type)

    def result(self, plan, resource):
        projects = plan.after.get('projects') if plan is not None else None
        return dict(share_type=public_view(resource, projects))


def main():
    ShareTypeModule()()


if __name__ == '__main__':
    main()
