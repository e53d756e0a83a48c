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
  contains:
    id:
      description: Transfer ID.
      type: str
    name:
      description: Its name.
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
share:
  description: The share (its ID, name, status and project) after the task.
  returned: when known
  type: dict
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
'''

import re

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule
from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput
from ansible_collections.openkeel.manila.plugins.module_utils.lookups import share_label
from ansible_collections.openkeel.manila.plugins.module_utils.resource import (
    CREATE,
    DELETE,
    NOTHING,
    Plan,
)
from ansible_collections.openkeel.manila.plugins.module_utils.states import SHARE_AWAITING_TRANSFER
from ansible_collections.openkeel.manila.plugins.module_utils.transfers import (
    TransferAPI,
    check_transferable,
    transfer_gone,
    view,
)

SHARE_FIELDS = ('id', 'name', 'status', 'project_id', 'size', 'share_proto')

# The plan of state=accepted that takes the share
ACCEPT = 'accept'


def share_view(share):
    return dict((k, share.get(k)) for k in SHARE_FIELDS) if share else {}


# Manila's transfer keys: share_transfer_key_length (16 to 255) lowercase
# hexadecimal digits (manila/transfer/api.py).
AUTH_KEY_MIN = 16
AUTH_KEY_RE = re.compile(r'^[0-9a-f]{16,255}$')
HEX_RE = re.compile(r'^[0-9a-f]+$')
# What ansible-core shows for a no_log option.
NO_LOG_PLACEHOLDER = 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER'


class Found(object):
    """What the task acts on: the share (None: not named, or not found), the
    transfers of it that the task found (to cancel, or already offered), the
    transfer its result shows (``shown``; by default the first of those), the
    key of a transfer it created and, for an accept of a share named by its
    name, this project's shares of that name before it (``namesakes``)."""

    def __init__(self, share, transfers=(), shown=None, auth_key=None, namesakes=()):
        self.share = share
        self.namesakes = list(namesakes)
        self.transfers = list(transfers)
        self.shown = shown if shown is not None else (
            view(self.transfers[0]) if self.transfers else {})
        self.auth_key = auth_key


class ShareTransferModule(ManilaModule):
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
    has_diff = False   # a transfer has no settings to compare
    accepted_before = False   # an accept by name found the transfer gone and the share here

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
        if p['auth_key'] is not None and not AUTH_KEY_RE.match(p['auth_key']):
            length = len(p['auth_key'])
            hexadecimal = bool(HEX_RE.match(p['auth_key']))
            self.forget_auth_key()
            raise InvalidInput(
                'auth_key is not a transfer key: Manila makes keys of %d or more '
                'hexadecimal digits (0-9, a-f), and this one has %d character%s%s. Give '
                'the auth_key the task that created the transfer returned. Nothing was '
                'sent.' % (AUTH_KEY_MIN, length, '' if length == 1 else 's',
                           '' if hexadecimal else ', not all of them hexadecimal digits'))
        if p['id'] and p['state'] == 'present':
            raise InvalidInput('id does not apply with state=present: the task finds the '
                               'transfer of the share, or makes one.')

    def forget_auth_key(self):
        """A value that cannot be a key needs no masking: ansible-core masks every
        occurrence of a no_log value in the result, and a short one ("x") turns
        every message into asterisks ("e********ist").  The option itself
        stays hidden as no_log options are."""
        self.ansible.no_log_values.discard(self.params['auth_key'])
        self.params['auth_key'] = NO_LOG_PLACEHOLDER

    # -- the converge template's hooks, one set per state ----------------------
    def find_current(self):
        return getattr(self, 'find_' + self.params['state'])()

    def plan(self, current):
        return getattr(self, 'plan_' + self.params['state'])(current)

    def predict(self, plan, current):
        """Check mode's result: no transfer yet before a create, the one asked
        for (not accepted yet) before an accept, the ones to cancel."""
        if plan.action == CREATE:
            return Found(current.share, shown={})
        if plan.action == ACCEPT:
            return Found(current.share, shown={'id': self.params['id']})
        return current

    def result(self, plan, resource):
        if resource is None:
            return dict(transfer={}, share={})
        result = dict(transfer=resource.shown, share=share_view(resource.share))
        if resource.auth_key:
            result['auth_key'] = resource.auth_key
        return result

    # -- the source: offer ---------------------------------------------------
    def find_present(self):
        share = lookups.require(self.client, 'share', self.params['share'], option='share')
        return Found(share, self.api.list_for_share(share['id'])
                     if share.get('status') == SHARE_AWAITING_TRANSFER else [])

    def plan_present(self, current):
        if current.transfers and not self.params['replace']:
            self.warn('%s is offered already (transfer %s). Manila shows a transfer\'s '
                      'auth_key only when it is created, so this task returns none: use the '
                      'key of the task that created it, or replace=true to cancel it and '
                      'make a new one.' % (share_label(current.share), current.transfers[0]['id']))
            return Plan(NOTHING)
        check_transferable(current.share)
        self.api.check_offer(current.share, current.transfers)
        return Plan(CREATE)

    def apply_create(self, _plan, current):
        share = current.share
        for old in current.transfers:
            self.api.delete(old['id'])
        created = self.api.create(share, self.params['name'] or share.get('name'),
                                  [old['id'] for old in current.transfers])
        auth_key = created.get('auth_key')
        if not auth_key:
            return self.fail('Manila made transfer %s of %s, but its answer, which alone '
                             'holds the auth_key, was lost. Run the task again with '
                             'replace=true to cancel it and make a new one.'
                             % (created.get('id'), share_label(share)), transfer=view(created))
        share = lookups.get_by_id(self.client, 'share', share['id']) or share
        return Found(share, shown=view(created), auth_key=auth_key)

    # -- the destination: accept ---------------------------------------------
    def accepted_view(self):
        return {'id': self.params['id'], 'accepted': True}

    def find_accepted(self):
        """The share by its ID; by a name, only this project's shares of that
        name (none of them may be the one the transfer brings)."""
        named = self.params['share']
        share = lookups.get_by_id(self.client, 'share', named) if (
            named and lookups.looks_like_uuid(named)) else None
        namesakes = [s for s in lookups.list_by_name(self.client, 'share', named)
                     if self.owned_here(s)] if named and share is None else []
        return Found(share, shown=self.accepted_view(), namesakes=namesakes)

    def plan_accepted(self, current):
        if current.share is not None and self.owned_here(current.share):
            return Plan(NOTHING)
        return Plan(ACCEPT)

    def apply_accept(self, _plan, current):
        """The accept; by a name, a transfer Manila no longer has, with one
        share of that name here, is taken as accepted before (a warning)."""
        p = self.params
        before = [s['id'] for s in current.namesakes]
        arrived = (lambda: self.api.share_arrived(p['share'], self.owned_here, before)) \
            if p['share'] else None
        try:
            self.api.accept(p['id'], p['auth_key'], p['clear_access_rules'], arrived)
        except InvalidInput as exc:
            if len(current.namesakes) != 1 or not transfer_gone(exc):
                raise
            self.accepted_before = True
            share = current.namesakes[0]
            self.warn('Transfer %s no longer exists: it was accepted, cancelled or has expired. '
                      '%s is the one share of that name in this project and is taken as the '
                      'share it handed over; give the share\'s ID to be exact.'
                      % (p['id'], share_label(share)))
            return Found(share, shown={'id': p['id']})
        return Found(arrived() if arrived else None, shown=self.accepted_view())

    def applied_changes(self, plan):
        return not self.accepted_before

    def owned_here(self, share):
        """Whether ``share`` belongs to the task's project (Manila shows public
        shares of other projects too)."""
        project = self.client.token_project()
        if project is None or not share.get('project_id'):
            return share.get('status') != SHARE_AWAITING_TRANSFER
        return share['project_id'] == project['id']

    # -- the source: cancel --------------------------------------------------
    def find_absent(self):
        """The open transfer O(id), or every open transfer of O(share); None
        when there is none and no share either (already gone)."""
        p = self.params
        share = None
        if p['id']:
            transfer = self.api.get(p['id'])
            targets = [transfer] if transfer and not transfer.get('accepted') else []
        else:
            share = lookups.find(self.client, 'share', p['share'])
            targets = self.api.list_for_share(share['id']) if share else []
        if not targets and share is None:
            return None
        return Found(share, targets)

    @staticmethod
    def plan_absent(current):
        return Plan(DELETE if current.transfers else NOTHING)

    def apply_delete(self, _plan, current):
        for transfer in current.transfers:
            self.api.delete(transfer['id'])
        share = current.share
        if share is not None:
            share = lookups.get_by_id(self.client, 'share', share['id']) or share
        return Found(share, shown=view(current.transfers[0]))


def main():
    ShareTransferModule()()


if __name__ == '__main__':
    main()
