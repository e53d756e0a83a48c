#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_transfer
short_description: Hand an OpenStack Manila share to another project (share transfers)
version_added: 0.1.0
description:
  - Hands a Manila share from the project that owns it to another project, with
    Manila's share transfers (API 2.77+; refused before any request that
    writes on an older cloud).
  - V(present), with the credentials of the source project, offers O(share) for
    transfer. It returns the transfer's ID and RV(auth_key), the secret the
    destination needs. Manila shows the key only in its answer to the create;
    a transfer the task finds already (the share is C(awaiting_transfer)) is
    returned without it, with a warning. O(replace=true) then cancels that
    transfer and creates a new one, so that the task returns a key.
  - V(accepted), with the credentials of the destination project, accepts the
    transfer O(id) with O(auth_key). With O(share) given by its ID, the task is
    ok without any write when that share already belongs to this project.
  - O(share) given by its name cannot tell whether a share of that name in this
    project is the one the transfer brings (the destination can read the
    transfer neither before nor after the accept), so the accept is always
    sent. When Manila answers that the transfer is gone (accepted before,
    cancelled, expired) and this project has exactly one share of that name,
    the task is ok without a change and warns that it takes that share as the
    one handed over; otherwise it fails. Give the ID to be exact.
  - V(absent) cancels the transfer O(id), or every open transfer of O(share),
    in the source project; the share is available there again.
  - A share Manila does not hand over (on a share network, in a share group,
    with replicas, in the recycle bin, not available) is refused before any
    write, with the reason. A mount point name that holds the project ID (API
    2.84) is not shown by Manila; its refusal of the create is reworded.
  - A share with delete locks (API 2.81+) is refused before any write, naming
    each lock, since Manila would hand it over with its locks, which the new owner
    can neither see nor lift. A lock the source project cannot list (an
    admin's) cannot be known before the offer.
  - With O(replace=true), the share's snapshots are read before the cancel,
    and nothing is cancelled while one is not available (Manila would refuse
    the new transfer). A refusal of the new transfer after the cancel fails
    with C(changed=true), saying that the old transfer was cancelled.
  - The action plugin of this module hides the whole task result from the
    output at every verbosity when it carries an RV(auth_key), as if the task
    had C(no_log) (a registered variable still holds the key for the next
    task). The O(auth_key) option is C(no_log).
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
attributes:
  check_mode:
    support: full
    description: >-
      Reads only; reports the same C(changed) as a real run (an accept with a
      wrong key cannot be foreseen: only Manila knows the key's hash).
  diff_mode:
    support: none
    description: A transfer has no settings to compare; the result shows it.
options:
  share:
    description:
      - Name or ID of the share. Required with V(present); with V(accepted), the
        share the transfer hands over (optional; lets a second run find it in
        this project).
      - With V(accepted), only an ID tells the share exactly; a name sends the
        accept on every run (see the description).
    type: str
  id:
    description: ID of the transfer (required with V(accepted)).
    type: str
  auth_key:
    description:
      - The key RV(auth_key) of the task that created the transfer.
      - Manila's keys are 16 or more hexadecimal digits; another value is refused
        before any request.
    type: str
  name:
    description: A name for a new transfer (by default the share's name).
    type: str
  replace:
    description:
      - With V(present), cancel a transfer of the share that exists already
        (its key cannot be read again) and create a new one.
      - The share's snapshots are read first; while one is not available
        nothing is cancelled.
    type: bool
    default: false
  clear_access_rules:
    description: With V(accepted), drop the share's access rules on the way.
    type: bool
    default: false
  state:
    description:
      - V(present) offers the share, V(accepted) takes it, V(absent) cancels.
    type: str
    choices: [present, accepted, absent]
    default: present
seealso:
  - module: openkeel.manila.share_info
  - module: openkeel.manila.share_replica
'''

EXAMPLES = r'''
- name: Offer the share in the source project
  openkeel.manila.share_transfer:
    cloud: team-a
    share: projects
    replace: true
  register: offer

- name: Take it in the destination project
  openkeel.manila.share_transfer:
    cloud: team-b
    id: "{{ offer.transfer.id }}"
    auth_key: "{{ offer.auth_key }}"
    share: "{{ offer.share.id }}"
    state: accepted

- name: Cancel the transfers of a share
  openkeel.manila.share_transfer:
    cloud: team-a
    share: projects
    state: absent
'''

RETURN = r'''
transfer:
  description:
    - The transfer the task made, found, accepted or cancelled (no key). Empty
      when there was none to act on, and in check mode before a create.
  returned: always
  type: dict
  sample: {"id": "9a8b7c6d-8888-4777-8666-555555555555", "name": "data", "resource_type": "share",
           "resource_id": "0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a",
           "source_project_id": "6a0d1e0b4c7e4f4e9b1e2d3c4b5a6978", "destination_project_id": null,
           "accepted": false, "created_at": "2026-12-02T01:00:00.000000",
           "expires_at": "2026-12-02T01:05:00.000000"}
  contains:
    id:
      description: Transfer ID.
      type: str
    name:
      description: Its name.
      type: str
    resource_type:
      description: V(share).
      type: str
    resource_id:
      description: The share's ID.
      type: str
    source_project_id:
      description: The project that offered the share.
      type: str
    destination_project_id:
      description: The project that accepted it (after an accept).
      type: str
    accepted:
      description: Whether the transfer was accepted.
      type: bool
    created_at:
      description: When the transfer was made.
      type: str
    expires_at:
      description: When Manila drops the transfer unless accepted.
      type: str
auth_key:
  description:
    - The secret the destination needs to accept the transfer. Only when the
      task created the transfer (Manila shows it once). Never give it to
      set_stats, a debug task or a file that others read.
  returned: when the task created a transfer
  type: str
  sample: f00dfeedc0ffee12
share:
  description:
    - The share after the task, as far as this project may read it (empty when the task found
      none, and after an accept that names no share).
  returned: always
  type: dict
  sample: {"id": "0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a", "name": "data", "status": "awaiting_transfer",
           "project_id": "6a0d1e0b4c7e4f4e9b1e2d3c4b5a6978", "size": 1, "share_proto": "NFS"}
  contains:
    id:
      description: Share ID.
      type: str
    name:
      description: Share name.
      type: str
    status:
      description: Share status (V(awaiting_transfer) while offered).
      type: str
    project_id:
      description: The project that owns it (the destination's after an accept).
      type: str
    size:
      description: Size in GiB.
      type: int
    share_proto:
      description: Protocol.
      type: str
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
  sample: '2.99'
'''

from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput
from ansible_collections.openkeel.manila.plugins.module_utils.tasks.transfer import TransferTask
from ansible_collections.openkeel.manila.plugins.module_utils.transfers import (
    TransferAPI,
    auth_key_problem,
)


class ShareTransferModule(TransferTask):
    argument_spec = dict(
        share=dict(type='str'),
        id=dict(type='str'),
        auth_key=dict(type='str', no_log=True),
        name=dict(type='str'),
        replace=dict(type='bool', default=False),
        clear_access_rules=dict(type='bool', default=False),
        state=dict(type='str', default='present', choices=['present', 'accepted', 'absent']),
    )
    module_kwargs = dict(
        required_if=[('state', 'present', ['share']),
                     ('state', 'accepted', ['id', 'auth_key']),
                     ('state', 'absent', ['share', 'id'], True)],
    )

    def run(self):
        self.validate_input()
        self.api = TransferAPI(self.client)
        self.api.require()
        self.converge()

    def validate_input(self):
        p = self.params
        if p['replace'] and p['state'] != 'present':
            raise InvalidInput('replace only applies with state=present.')
        if p['clear_access_rules'] and p['state'] != 'accepted':
            raise InvalidInput('clear_access_rules only applies with state=accepted.')
        if p['name'] and p['state'] != 'present':
            raise InvalidInput('name only applies with state=present.')
        if p['auth_key'] is not None and p['state'] != 'accepted':
            raise InvalidInput('auth_key only applies with state=accepted.')
        if p['id'] and p['state'] == 'present':
            raise InvalidInput('id does not apply with state=present: the task finds the '
                               'transfer of the share, or makes one.')
        problem = auth_key_problem(p['auth_key'])
        if problem:
            self.forget_auth_key()
            raise InvalidInput(problem)


def main():
    ShareTransferModule()()


if __name__ == '__main__':
    main()
