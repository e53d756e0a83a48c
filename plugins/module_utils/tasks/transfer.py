# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The share_transfer module's hooks on the converge template (base.ManilaModule).

``TransferTask`` is the base of the share_transfer module, which keeps its
options, checks its input, sets ``self.api`` (a transfers.TransferAPI) and
calls ``converge``.  Here is what the template asks of it, one set of hooks
per ``state`` (``find_<state>``, ``plan_<state>``, dispatched by name): the
offer of a share (present), its accept in the other project (accepted) and
the cancel of its open transfers (absent), each acting on a ``Found``, and
the result: the transfer, the share and, after a create, the auth_key.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

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
    check_transferable,
    transfer_gone,
    view,
)

SHARE_FIELDS = ('id', 'name', 'status', 'project_id', 'size', 'share_proto')

# The plan of state=accepted that takes the share
ACCEPT = 'accept'


def share_view(share):
    return dict((k, share.get(k)) for k in SHARE_FIELDS) if share else {}


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


# What ansible-core shows for a no_log option.
NO_LOG_PLACEHOLDER = 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER'


class TransferTask(ManilaModule):
    """The share_transfer module's hooks (the module sets ``api``)."""

    has_diff = False   # a transfer has no settings to compare
    accepted_before = False   # an accept by name found the transfer gone and the share here

    # -- input ------------------------------------------------------------------
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
