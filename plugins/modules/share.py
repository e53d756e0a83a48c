#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share
short_description: Create, change and delete OpenStack Manila shares
version_added: 0.1.0
description:
  - Makes one Manila share match the task, changing only what differs.
  - Creates the share and waits until it is available; extends or shrinks it
    to O(size); renames it and changes its description and visibility;
    converges its metadata; deletes it, or moves it to the recycle bin.
  - Fields that cannot change in place (protocol, type, network, availability
    zone, source snapshot) are never changed silently; a difference fails the
    task and says so.
  - Never resets the share's task state, so a running migration is safe.
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
    description: Before and after views of the share.
options:
  state:
    description:
      - V(present) makes the share exist as described; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
  name:
    description:
      - Name of the share. Without O(id) it identifies the share (Manila
        names are not unique; two shares with the name fail the task).
      - With O(id), the name the share should have (a rename).
    type: str
  id:
    description:
      - ID of an existing share. It then identifies the share and O(name)
        becomes its desired name.
    type: str
  size:
    description:
      - Size in GiB. Required to create a share, unless it is made from
        O(snapshot) (the snapshot's size is then used).
      - A different size on an existing share extends or shrinks it.
    type: int
  share_proto:
    description:
      - Protocol, for example V(NFS) or V(CIFS) (case does not matter).
        Required to create a share.
    type: str
  share_type:
    description:
      - Share type name or ID. When omitted the cloud's default type is used;
        a cloud without one fails the task, asking for this option.
    type: str
  share_network:
    description:
      - Share network name or ID (for types that handle share servers).
    type: str
  availability_zone:
    description:
      - Availability zone to create the share in.
    type: str
  snapshot:
    description:
      - Name or ID of a share snapshot to create the share from.
    type: str
  description:
    description:
      - Description of the share.
    type: str
  metadata:
    description:
      - Metadata the share should carry. Keys are merged into the existing
        ones unless O(purge_metadata) is set. Values are stored as strings.
      - Keys starting with C(__) belong to Manila and are never touched.
    type: dict
  purge_metadata:
    description:
      - Remove metadata keys not listed in O(metadata) (Manila's own C(__)
        keys are kept). Has no effect when O(metadata) is not given.
    type: bool
    default: false
  is_public:
    description:
      - Whether the share is visible to every project. Making a share public
        needs admin rights under Manila's default policy.
      - When omitted an existing share keeps its visibility.
    type: bool
  scheduler_hints:
    description:
      - Scheduler hints for creation (API 2.65+), for example
        C(only_host) (2.67+), C(same_host), C(different_host).
    type: dict
  mount_point_name:
    description:
      - Custom mount point name (API 2.84+); only used at creation.
    type: str
  soft_delete:
    description:
      - With O(state=absent), move the share to the recycle bin instead of
        deleting it (API 2.69+).
    type: bool
    default: false
  restore:
    description:
      - With O(state=present), restore the share from the recycle bin when
        only a soft-deleted share matches.
    type: bool
    default: false
  wait:
    description:
      - Wait until the share is available (or gone).
    type: bool
    default: true
  timeout:
    description:
      - Seconds to wait for each asynchronous step.
    type: int
    default: 180
'''

EXAMPLES = r'''
- name: A 10 GiB NFS share on the default type
  openkeel.manila.share:
    cloud: mycloud
    name: projects
    size: 10
    share_proto: NFS
    metadata:
      team: data

- name: Grow it to 20 GiB
  openkeel.manila.share:
    cloud: mycloud
    name: projects
    size: 20

- name: Rename a share by ID
  openkeel.manila.share:
    cloud: mycloud
    id: 0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a
    name: projects-archive

- name: Into the recycle bin
  openkeel.manila.share:
    cloud: mycloud
    name: projects-archive
    state: absent
    soft_delete: true
'''

RETURN = r'''
share:
  description:
    - The share as Manila shows it at the negotiated microversion, with its
      export locations (preferred first). Empty after a deletion.
  returned: always
  type: dict
  contains:
    id:
      description: Share ID.
      type: str
    name:
      description: Share name.
      type: str
    size:
      description: Size in GiB.
      type: int
    status:
      description: Share status.
      type: str
    share_proto:
      description: Protocol.
      type: str
    share_type_name:
      description: Name of the share type.
      type: str
    metadata:
      description: All metadata, Manila's own keys included.
      type: dict
    export_locations:
      description: Export locations; C(path) is the mount source.
      type: list
      elements: dict
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
  sample: '2.99'
'''

from ansible_collections.openkeel.manila.plugins.module_utils import resources
from ansible_collections.openkeel.manila.plugins.module_utils.base import (
    ManilaModule,
    wait_argument_spec,
)
from ansible_collections.openkeel.manila.plugins.module_utils.client import NotFound
from ansible_collections.openkeel.manila.plugins.module_utils.shares import (
    ShareAPI,
    create_body,
    diff_view,
    immutable_differences,
    immutable_error,
    metadata_changes,
    predicted_after,
    update_body,
)
from ansible_collections.openkeel.manila.plugins.module_utils.states import (
    SHARE_BUSY_STATES,
    SHARE_ERROR_STATES,
)
from ansible_collections.openkeel.manila.plugins.module_utils.waiter import WaitFailed


class ShareModule(ManilaModule):
    argument_spec = dict(
        state=dict(type='str', default='present', choices=['present', 'absent']),
        name=dict(type='str'),
        id=dict(type='str'),
        size=dict(type='int'),
        share_proto=dict(type='str'),
        share_type=dict(type='str'),
        share_network=dict(type='str'),
        availability_zone=dict(type='str'),
        snapshot=dict(type='str'),
        description=dict(type='str'),
        metadata=dict(type='dict'),
        purge_metadata=dict(type='bool', default=False),
        is_public=dict(type='bool'),
        scheduler_hints=dict(type='dict'),
        mount_point_name=dict(type='str'),
        soft_delete=dict(type='bool', default=False),
        restore=dict(type='bool', default=False),
        **wait_argument_spec(180)
    )
    module_kwargs = dict(required_one_of=[('name', 'id')])

    def run(self):
        self.validate_input()
        self.shares = ShareAPI(self.client, self.params['timeout'])
        share = self.find_share()
        if self.params['state'] == 'absent':
            self.ensure_absent(share)
        else:
            self.ensure_present(share)

    # -- before any request ------------------------------------------------
    def validate_input(self):
        p = self.params
        if p['size'] is not None and p['size'] < 1:
            self.fail('size must be at least 1 (GiB), got %s.' % p['size'])
        if p['soft_delete'] and p['state'] != 'absent':
            self.fail('soft_delete only applies with state=absent.')
        if p['metadata']:
            try:
                metadata_changes({}, p['metadata'], False)
            except ValueError as exc:
                self.fail(str(exc))

    def find_share(self):
        if self.params['id']:
            return self.shares.get(self.params['id'])
        return self.shares.find_by_name(self.params['name'])

    # -- present -----------------------------------------------------------
    def ensure_present(self, share):
        p = self.params
        if share is None:
            if p['id']:
                self.fail('No share with ID %s exists; a share cannot be created '
                          'with a given ID (leave out "id" to create one).' % p['id'])
            binned = self.soft_deleted_namesake()
            if binned is not None:
                return self.restore_or_refuse(binned)
            return self.create()
        if share.get('is_soft_deleted'):
            return self.restore_or_refuse(share)
        share = self.settle(share)
        return self.converge(share)

    def soft_deleted_namesake(self):
        if not self.client.supports('soft_delete'):
            return None
        return self.shares.find_by_name(self.params['name'], soft_deleted=True)

    def restore_or_refuse(self, share):
        if not self.params['restore']:
            self.fail('Share %s (%s) is in the recycle bin (soft-deleted). Set '
                      'restore=true to bring it back, or delete it for good with '
                      'state=absent and its id.' % (share.get('name'), share['id']))
        before = diff_view(share)
        if not self.check_mode:
            self.shares.restore(share['id'])
            if self.params['wait']:
                share = self.shares.wait(share)
            else:
                share = self.shares.get(share['id'])
        share = dict(share, is_soft_deleted=False)
        self.finish(True, share, before, diff_view(share))

    def settle(self, share):
        """A share must be at rest before it can be changed."""
        status = share.get('status')
        if status in SHARE_ERROR_STATES:
            self.fail('Share %s (%s) is in status %s and cannot be converged. '
                      'Delete it (state=absent) and create it again, or ask an '
                      'admin to repair it.' % (share.get('name'), share['id'], status))
        if status in SHARE_BUSY_STATES:
            if not self.params['wait']:
                self.fail('Share %s (%s) is busy (%s); run again later or set '
                          'wait=true.' % (share.get('name'), share['id'], status))
            share = self.shares.wait(share)
        return share

    def create(self):
        p = self.params
        if not p['name']:
            self.fail('name is required to create a share.')
        if not p['share_proto']:
            self.fail('share_proto is required to create a share.')
        self.check_create_features()
        snapshot = None
        if p['snapshot']:
            snapshot = resources.require(self.client, 'snapshot', p['snapshot'])
        if p['size'] is None and snapshot is None:
            self.fail('size is required to create a share.')
        if not p['share_type'] and self.shares.default_share_type() is None:
            self.fail('This cloud has no default share type, so Manila cannot '
                      'choose one: set share_type (a type name or ID).')
        network_id = (self.shares.resolve_id('share_network', p['share_network'])
                      if p['share_network'] else None)
        params = dict(p, size=p['size'] or snapshot['size'])
        body = create_body(params, share_type=p['share_type'],
                           share_network_id=network_id,
                           snapshot_id=snapshot['id'] if snapshot else None)
        after = dict(diff_view(dict(body, share_type_name=p['share_type'],
                                    status='available')))
        if self.check_mode:
            return self.finish(True, {}, {}, after)
        try:
            share = self.shares.create(body)
        except NotFound as exc:
            # Manila's 404 names no culprit ("Share type not found."): say
            # which of the referenced resources the task asked for.
            asked = ', '.join('%s %r' % (k, p[k]) for k in
                              ('share_type', 'share_network', 'snapshot',
                               'availability_zone') if p[k])
            self.fail('Manila could not create share %s: %s Check %s.' % (
                p['name'], exc, asked or 'the default share type'),
                status=exc.status, request_id=exc.request_id)
        if p['wait']:
            try:
                share = self.shares.wait(share)
            except WaitFailed as exc:
                self.fail('%s The share %s was created and is left in that state; '
                          'delete it with state=absent.' % (exc, share['id']),
                          share=share)
        self.finish(True, share, {}, diff_view(share))

    def check_create_features(self):
        p = self.params
        if p['scheduler_hints']:
            self.client.require('scheduler_hints', 'scheduler_hints')
            if 'only_host' in p['scheduler_hints']:
                self.client.require('only_host_hint', 'The only_host scheduler hint')
        if p['mount_point_name']:
            self.client.require('mount_point_name', 'mount_point_name')

    def converge(self, share):
        p = self.params
        desired = dict(
            share_proto=p['share_proto'], share_type=p['share_type'],
            availability_zone=p['availability_zone'],
            share_network_id=(self.shares.resolve_id('share_network', p['share_network'])
                              if p['share_network'] else None),
            snapshot_id=(self.shares.resolve_id('snapshot', p['snapshot'])
                         if p['snapshot'] else None),
        )
        differences = immutable_differences(share, desired)
        if differences:
            self.fail(immutable_error(share, differences))

        update = update_body(share, name=p['name'] if p['id'] else None,
                             description=p['description'], is_public=p['is_public'])
        new_size = p['size'] if p['size'] not in (None, share['size']) else None
        md_set, md_delete = ({}, [])
        if p['metadata'] is not None:
            md_set, md_delete = metadata_changes(share.get('metadata'), p['metadata'],
                                                 p['purge_metadata'])
        changed = bool(update or new_size or md_set or md_delete)
        before = diff_view(share)
        after = predicted_after(share, update, new_size, md_set, md_delete)
        if not changed or self.check_mode:
            return self.finish(changed, share, before, after)

        share_id = share['id']
        if update:
            # Manila answers a PUT with the whole share: no read-back needed.
            share = self.shares.update(share_id, update)
        if md_set or md_delete:
            metadata = dict(share.get('metadata') or {})
            if md_set:
                self.shares.set_metadata(share_id, md_set)
                metadata.update(md_set)
            for key in md_delete:
                self.shares.delete_metadata_key(share_id, key)
                metadata.pop(key, None)
            share = dict(share, metadata=metadata)
        if new_size:
            self.shares.resize(share_id, new_size, share['size'])
            share = self.shares.wait(share) if p['wait'] else self.shares.get(share_id)
        self.finish(True, share, before, diff_view(share))

    # -- absent ------------------------------------------------------------
    def ensure_absent(self, share):
        p = self.params
        if share is None or (p['soft_delete'] and share.get('is_soft_deleted')):
            return self.finish(False, share or {}, diff_view(share), diff_view(share),
                               with_exports=False)
        before = diff_view(share)
        if p['soft_delete']:
            self.client.require('soft_delete', 'soft_delete')
            if not self.check_mode:
                self.shares.soft_delete(share['id'])
            return self.finish(True, {}, before, {}, with_exports=False)
        if self.check_mode:
            return self.finish(True, {}, before, {}, with_exports=False)
        if share.get('status') in SHARE_BUSY_STATES and p['wait']:
            share = self.shares.wait(share)
        self.shares.delete(share['id'])
        if p['wait']:
            self.shares.wait_gone(share)
        self.finish(True, {}, before, {}, with_exports=False)

    # -- result ------------------------------------------------------------
    def finish(self, changed, share, before, after, with_exports=True):
        result = dict(changed=changed, share=share or {})
        if share and with_exports and share.get('id'):
            result['share'] = dict(share, export_locations=self.shares.export_locations(share['id']))
        if self.diff_mode:
            result['diff'] = dict(before=before, after=after)
        self.exit(**result)


def main():
    ShareModule()()


if __name__ == '__main__':
    main()
