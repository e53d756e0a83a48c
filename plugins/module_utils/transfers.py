# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Share transfers (API 2.77): the checks before any write and the calls.

A transfer hands a share from the project that owns it (the source) to the
project that accepts it (the destination).  The source creates it; Manila
answers the create once with an ``auth_key`` (it keeps only a salted hash of
it, so no later read shows it again) and puts the share in status
``awaiting_transfer``.  The destination accepts it with the transfer's ID and
that key; the transfer then ends (Manila deletes it) and the share belongs to
the destination.  The source can delete (cancel) a transfer that is not yet
accepted; the share is then available again.

Manila refuses to hand over a share on a share network, in a share group, with
replicas, or not ``available``; ``check_transferable`` refuses the same before
any write, with the reason, from what the share's own view shows.  A share with
a mount point name that embeds its project ID (API 2.84, Manila's default
prefix) is refused by Manila as well, but no share view shows that name: Manila's
own refusal of the create is reworded instead (nothing has changed then, unless
``replace`` cancelled an open transfer first: the words say so).

Manila also refuses an offer while a snapshot of the share is not available;
that needs a listing of the snapshots, read only before a cancel (``replace``),
which the refusal would otherwise follow.  Manila hands a share over with its
delete locks (API 2.81): they stay in the source project, where the new owner
can neither list nor lift them, and they refuse the new owner's deletion; an
offer of a share with delete locks is refused before any write
(``check_offer``), naming them.  A lock that the source cannot list (an
admin's, another project's) cannot be known before the offer.

The destination cannot read a transfer before it accepts it (Manila shows a
transfer to its source project only) nor after (Manila deletes it then): only
the share tells an accept that is done, and only by its ID (``share_arrived``).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    InvalidInput,
    ManilaError,
)
from ansible_collections.openkeel.manila.plugins.module_utils.kinds import KINDS
from ansible_collections.openkeel.manila.plugins.module_utils.locks import (
    LockAPI,
    lock_words,
    oldest_first,
)
from ansible_collections.openkeel.manila.plugins.module_utils.lookups import share_label
from ansible_collections.openkeel.manila.plugins.module_utils.resource import (
    ResourceAPI,
    if_found,
)
from ansible_collections.openkeel.manila.plugins.module_utils.snapshots import SnapshotAPI
from ansible_collections.openkeel.manila.plugins.module_utils.states import (
    SHARE_AVAILABLE,
    SHARE_AWAITING_TRANSFER,
)

FEATURE = KINDS['share_transfer'].feature
VIEW_FIELDS = ('id', 'name', 'resource_type', 'resource_id', 'source_project_id',
               'destination_project_id', 'accepted', 'created_at', 'expires_at')


# Manila's transfer keys: share_transfer_key_length (16 to 255) lowercase
# hexadecimal digits (manila/transfer/api.py).
AUTH_KEY_MIN = 16
AUTH_KEY_RE = re.compile(r'^[0-9a-f]{16,255}$')
HEX_RE = re.compile(r'^[0-9a-f]+$')


def auth_key_problem(auth_key):
    """Why ``auth_key`` cannot be a Manila transfer key (None: it can, or none given)."""
    if auth_key is None or AUTH_KEY_RE.match(auth_key):
        return None
    length = len(auth_key)
    return ('auth_key is not a transfer key: Manila makes keys of %d or more '
            'hexadecimal digits (0-9, a-f), and this one has %d character%s%s. Give '
            'the auth_key the task that created the transfer returned. Nothing was '
            'sent.' % (AUTH_KEY_MIN, length, '' if length == 1 else 's',
                       '' if HEX_RE.match(auth_key) else ', not all of them hexadecimal digits'))


def view(transfer):
    """What a result shows of a transfer (never an auth_key)."""
    if not transfer:
        return {}
    return dict((k, transfer.get(k)) for k in VIEW_FIELDS)


def transfer_refusals(share):
    """Why Manila would refuse to hand over ``share`` (an empty list: it would not)."""
    reasons = []
    if share.get('share_network_id'):
        reasons.append('it is exported over share network %s (Manila transfers no share '
                       'on a share network: its share server belongs to the source '
                       'project)' % share['share_network_id'])
    if share.get('share_group_id'):
        reasons.append('it is in share group %s (Manila transfers no share of a group)'
                       % share['share_group_id'])
    if share.get('has_replicas'):
        reasons.append('it has replicas (Manila transfers no replicated share; drop the '
                       'replicas with openkeel.manila.share_replica state=absent first)')
    if share.get('is_soft_deleted'):
        reasons.append('it is in the recycle bin (restore it first)')
    status = share.get('status')
    if status not in (SHARE_AVAILABLE, SHARE_AWAITING_TRANSFER) and not share.get('is_soft_deleted'):
        reasons.append('its status is %s; Manila transfers only an available share' % status)
    return reasons


def check_transferable(share):
    """Refuse, before any write, a share Manila would not hand over."""
    reasons = transfer_refusals(share)
    if reasons:
        raise InvalidInput('share: %s cannot be transferred: %s. Nothing was changed.'
                           % (share_label(share), '; '.join(reasons)))


def locks_refusal(share, locks):
    """Why an offer of ``share`` with its delete ``locks`` is refused (None: no locks)."""
    if not locks:
        return None
    return ('share: %s is locked against deletion: %s. A transfer would hand it over with '
            'its locks, which stay in this project: the new owner could neither see nor lift '
            'them, nor delete the share. Lift them first (openkeel.manila.share with '
            'deletion_lock=false; the lock of an access rule goes with the rule, '
            'openkeel.manila.share_access), then offer the share. Nothing was changed.'
            % (share_label(share), '; '.join(lock_words(lock) for lock in oldest_first(locks))))


def snapshots_refusal(share, snapshots, transfers):
    """Why ``replace`` cancels nothing: a snapshot that is not available makes
    Manila refuse the new transfer (None: every snapshot is available)."""
    stuck = [s for s in snapshots if s.get('status') != 'available']
    if not stuck:
        return None
    return ('share: %s cannot be offered again: Manila transfers a share only when all its '
            'snapshots are available, and %s %s. Nothing was changed: transfer %s is still '
            'open (replace=true cancels it only when a new one can be made).' % (
                share_label(share), 'snapshot' if len(stuck) == 1 else 'snapshots',
                ', '.join('%s (%s) is %s' % (s.get('name'), s['id'], s.get('status'))
                          for s in stuck), ', '.join(t['id'] for t in transfers)))


def reworded_create_refusal(share, exc, cancelled=()):
    """Manila's 400 to a create, in words that say what to do (and, after the
    cancel of ``cancelled`` transfers, what was changed)."""
    message = exc.message or str(exc)
    done = 'Nothing was changed.'
    if cancelled:
        done = ('Transfer %s of the share was cancelled before (replace=true), so the share is '
                'available in this project again, without an open transfer.'
                % ', '.join(cancelled))
    if 'mount_point_name' in message:
        return InvalidInput(
            'share: %s cannot be transferred: it has a mount point name that holds its '
            'project ID (Manila refused: %s). %s' % (share_label(share), message, done),
            status=exc.status, request_id=exc.request_id)
    return InvalidInput('share: Manila refused to transfer %s: %s. %s'
                        % (share_label(share), message.rstrip('.'), done),
                        status=exc.status, request_id=exc.request_id)


def transfer_gone(exc):
    """Whether Manila's refusal of an accept says the transfer does not exist."""
    lowered = (exc.message or str(exc)).lower()
    return exc.status == 404 or 'could not be found' in lowered or 'not found' in lowered


def reworded_accept_refusal(transfer_id, exc):
    """Manila's 400 to an accept (the key, a transfer that is gone, the share type)."""
    message = exc.message or str(exc)
    lowered = message.lower()
    if 'auth key' in lowered or 'auth_key' in lowered:
        text = ('auth_key does not match transfer %s (Manila: %s). Nothing was changed.'
                % (transfer_id, message))
    elif transfer_gone(exc):
        text = ('id: transfer %s does not exist: it was accepted, cancelled or has expired '
                '(Manila: %s). Give the share as share= so that a run after the accept '
                'finds it in this project.' % (transfer_id, message))
    else:
        text = 'Manila refused to accept transfer %s: %s. Nothing was changed.' % (
            transfer_id, message.rstrip('.'))
    return InvalidInput(text, status=exc.status, request_id=exc.request_id)


class TransferAPI(ResourceAPI):
    """The share transfer calls of one task: the shared ones
    (resource.ResourceAPI; every one carries the ``share_transfers`` feature
    of the kind's row, API 2.77), and the offer checks and the accept."""

    kind = 'share_transfer'

    # A transfer is not found by name: require() is the feature check, as its
    # callers know it.
    def require(self, what='share transfers'):  # pylint: disable=arguments-renamed
        self.require_feature(what)

    def list_for_share(self, share_id):
        """The open transfers of a share (this project's: Manila lists only those)."""
        return [t for t in self.list_for(share_id)
                if t.get('resource_id') == share_id and not t.get('accepted')]

    def check_offer(self, share, replacing=()):
        """Before any write of an offer of ``share``: refuse it when it has
        delete locks (API 2.81+: one listing), and, before the cancel of the
        ``replacing`` transfers, when a snapshot of it is not available (one
        listing): Manila would refuse the new transfer after the cancel."""
        locks = LockAPI(self.client)
        if locks.supported():
            refusal = locks_refusal(share, locks.for_share(share))
            if refusal:
                raise InvalidInput(refusal)
        if replacing:
            refusal = snapshots_refusal(share, SnapshotAPI(self.client).list_for_share(
                share['id']), replacing)
            if refusal:
                raise InvalidInput(refusal)

    def share_arrived(self, name_or_id, owned_here, before=()):
        """The share an accept brought to this project: by ID, or the one of
        that name in this project that was not among ``before`` (IDs); None
        when there is none, or no single one."""
        if lookups.looks_like_uuid(name_or_id):
            share = lookups.get_by_id(self.client, 'share', name_or_id)
            if share is not None:
                return share if owned_here(share) else None
        new = [s for s in lookups.list_by_name(self.client, 'share', name_or_id)
               if owned_here(s) and s['id'] not in before]
        return new[0] if len(new) == 1 else None

    # An offer is made of the share (and a name), not of a body.
    def create(self, share, name=None, cancelled=()):  # pylint: disable=arguments-renamed
        """Create a transfer of ``share``: the transfer with its ``auth_key``.

        Through ``write_once``: after a lost answer or a 5xx, a transfer of the
        share that Manila shows is the one made, but its key is lost with the
        answer: it comes back without ``auth_key`` (the module says so; the
        next run with ``replace`` makes a new one)."""
        body = {'share_id': share['id']}
        if name:
            body['name'] = name

        def send():
            return self.client.post(self.path(), {'transfer': body},
                                    feature=self.feature).get('transfer') or {}
        try:
            return self.create_unnamed(
                body, share['id'], (), 'the create of a transfer of share %s' % share['id'],
                send=send, listing=lambda: self.list_for_share(share['id']))
        except ManilaError as exc:
            if exc.status == 400:
                raise reworded_create_refusal(share, exc, cancelled)
            raise

    def accept(self, transfer_id, auth_key, clear_access_rules=False, owned=None):
        """Accept a transfer.  ``owned()``: the share, when it is in the task's
        project (None otherwise), which is what ``write_once`` looks for after a
        lost answer or a 5xx; without it (the task does not name the share)
        nothing shows an accept to the destination before it is done."""
        body = {'auth_key': auth_key}
        if clear_access_rules:
            body['clear_access_rules'] = True

        def send():
            self.client.post('%s/accept' % self.path(transfer_id), {'accept': body},
                             feature=self.feature)
            return True
        try:
            self.client.write_once(send, owned or (lambda: None),
                                   'the accept of transfer %s' % transfer_id)
        except ManilaError as exc:
            if exc.status in (400, 404):
                raise reworded_accept_refusal(transfer_id, exc)
            raise

    def delete(self, resource_id):
        """Cancel a transfer; one that is gone already is fine (False)."""
        return bool(if_found(super(TransferAPI, self).delete, resource_id))

    def deletion_words(self, resource_id):
        return 'the cancel of transfer %s' % resource_id
