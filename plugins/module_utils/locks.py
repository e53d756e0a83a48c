# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""A share's Manila delete lock (API 2.81, ``/resource-locks``) as desired state.

A delete lock on a share makes Manila refuse its deletion, soft deletion and
unmanaging, whoever asks (the CLI, Horizon, any tool).  ``share`` and
``shares`` take ``deletion_lock`` (true: the share carries one; false: it
carries none; omitted: the locks are left as they are) and ``lock_reason``.

- Pure functions: the input check (``check_lock_input``), the plan
  (``plan_locks``), the diff view, the words that name a lock, and the
  refusal of a deletion (``absent_refusal``).
- ``LockAPI``: the listing (one paged request for one share or for the
  whole project) and the writes, each through ``write_once``.
- What a user cannot list: Manila shows a user the locks of the user's own
  project only (an admin who asks for every project sees all), but refuses a
  deletion for the locks of every project.  Its refusal names them all
  ("Resource lock/s [ID, ...] prevent delete action.") and comes before any
  other check of the deletion (status, replicas, snapshots), so a deletion
  sent while the share still has the snapshots or the locks the task removes
  first is refused whatever happens and tells which locks hold
  (``refusing_locks``, ``ShareLockTask.send_deletion``).

Manila puts a delete lock of its own on a share when an access rule of it is
created with ``lock_deletion`` (its reason reads "Locked by access lock:
ID"): such a lock belongs to the rule.  It blocks the share's deletion like
any other, but ``deletion_lock`` neither counts it as the share's lock nor
removes it (``share_access`` manages the rule and its lock).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils import writes
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    ManilaError,
    NotFound,
)
from ansible_collections.openkeel.manila.plugins.module_utils.kinds import KINDS
from ansible_collections.openkeel.manila.plugins.module_utils.resource import (
    NOTHING,
    Plan,
    ResourceAPI,
)

FEATURE = KINDS['resource_lock'].feature
# The locks this collection places and reads: those against a share's deletion.
DELETE_LOCKS = dict(resource_type='share', resource_action='delete')
RULE_LOCK_PREFIX = 'Locked by access lock:'
MAX_REASON = 1023
# What the results show of a lock.
FIELDS = ('id', 'lock_reason', 'user_id', 'project_id', 'lock_context', 'created_at')
# Manila's refusal of an action on a share that delete locks hold (a 403 to a
# deletion, a soft deletion or an unmanaging): it names every lock, of every
# project.
LOCK_REFUSAL = re.compile(r'Resource lock/s \[([^\]]*)\] prevent (\w+) action')
# The actions of a plan (NOTHING from resource.py).
CREATE = 'create'
UPDATE = 'update'
DELETE = 'delete'


# -- pure functions ----------------------------------------------------------------

def check_lock_input(deletion_lock, lock_reason, state):
    """What is wrong with the task's lock options (a list of words, empty when fine)."""
    problems = []
    if lock_reason is not None and deletion_lock is not True:
        problems.append('lock_reason only applies with deletion_lock=true.')
    if lock_reason is not None and len(lock_reason) > MAX_REASON:
        problems.append('lock_reason can have at most %d characters, got %d.'
                        % (MAX_REASON, len(lock_reason)))
    if deletion_lock is not None and state == 'unmanaged':
        problems.append('deletion_lock does not apply with state=unmanaged: Manila unmanages '
                        'no locked share; lift the lock first (deletion_lock=false with '
                        'state=present).')
    if deletion_lock is True and state == 'absent':
        problems.append('deletion_lock=true contradicts state=absent: Manila deletes no '
                        'locked share. To lift the lock and delete the share, set '
                        'deletion_lock=false with state=absent.')
    return problems


def rule_lock(lock):
    """Whether Manila placed this lock for an access rule's deletion lock."""
    return (lock.get('lock_reason') or '').startswith(RULE_LOCK_PREFIX)


def share_locks(locks):
    """The locks that ``deletion_lock`` manages (those of rules left out)."""
    return [lock for lock in locks if not rule_lock(lock)]


def brief(lock):
    return dict((key, lock.get(key)) for key in FIELDS)


def lock_words(lock):
    """``lock ID (reason 'x', set by user U of project P as admin)``."""
    reason = lock.get('lock_reason')
    return 'lock %s (%s, set by user %s of project %s%s)' % (
        lock.get('id'), 'reason %r' % reason if reason else 'no reason given',
        lock.get('user_id'), lock.get('project_id'),
        ' as %s' % lock['lock_context'] if lock.get('lock_context') not in (None, 'user') else '')


def oldest_first(locks):
    return sorted(locks, key=lambda lock: (lock.get('created_at') or '', lock.get('id') or ''))


def diff_view(locks):
    """The share's lock as the diff shows it."""
    own = oldest_first(share_locks(locks))
    view = dict(deletion_lock=bool(own))
    if own:
        view['lock_reason'] = own[0].get('lock_reason')
    return view


class LockPlan(Plan):
    """What to do to a share's delete locks: ``create`` (the reason, '' for
    none; None: nothing to create), ``update`` (a lock and its new reason),
    ``remove`` (locks); ``before``/``after`` the diff views.

    ``action`` follows those steps: CREATE, UPDATE or DELETE for the one
    there is (``plan_locks`` plans at most one), UPDATE for several, NOTHING
    for none."""

    def __init__(self, locks, create=None, update=None, remove=None):
        super(LockPlan, self).__init__(NOTHING)
        self.locks = list(locks)
        self.create = create
        self.update = update
        self.remove = list(remove or [])
        self.before = diff_view(self.locks)
        self.after = diff_view(self.predicted())

    @property
    def action(self):
        steps = [action for action, planned in ((CREATE, self.create is not None),
                                                (UPDATE, self.update is not None),
                                                (DELETE, bool(self.remove))) if planned]
        if not steps:
            return NOTHING
        return steps[0] if len(steps) == 1 else UPDATE

    def predicted(self):
        """The locks as they will be after the plan (for check mode)."""
        gone = set(lock['id'] for lock in self.remove)
        locks = [lock for lock in self.locks if lock['id'] not in gone]
        if self.update is not None:
            lock, reason = self.update
            locks = [dict(x, lock_reason=reason) if x['id'] == lock['id'] else x for x in locks]
        if self.create is not None:
            locks.append(dict(id=None, lock_reason=self.create or None, resource_action='delete'))
        return locks

    def words(self):
        """What the plan changes, in words (the fleet's ``changes``)."""
        found = []
        if self.create is not None:
            found.append('locked against deletion')
        if self.update is not None:
            found.append('reason of its deletion lock')
        if self.remove:
            found.append('deletion lock lifted')
        return found


def plan_locks(locks, deletion_lock, lock_reason=None):
    """The plan for a share with ``locks`` (its delete locks) and the task's
    ``deletion_lock`` (None: leave them) and ``lock_reason``."""
    own = oldest_first(share_locks(locks))
    if deletion_lock is None:
        return LockPlan(locks)
    if not deletion_lock:
        return LockPlan(locks, remove=own)
    if not own:
        return LockPlan(locks, create=lock_reason or '')
    if lock_reason is not None and all(lock.get('lock_reason') != lock_reason for lock in own):
        return LockPlan(locks, update=(own[0], lock_reason))
    return LockPlan(locks)


def absent_refusal(label, locks, deletion_lock, action='delete'):
    """Why a locked share is not deleted (None when the task may delete it).

    Without ``deletion_lock=false`` every delete lock refuses; with it, only
    the locks of access rules do (this task does not remove them).
    """
    blocking = list(locks) if deletion_lock is not False else [
        lock for lock in locks if rule_lock(lock)]
    if not blocking:
        return None
    named = '; '.join(lock_words(lock) for lock in oldest_first(blocking))
    if deletion_lock is False:
        return ('%s is locked against deletion by the lock of an access rule: %s. Nothing '
                'was deleted: remove the rule, or its lock, first (openkeel.manila.share_access).'
                % (label, named))
    if action == 'unmanage':
        return ('%s is locked against deletion, which Manila applies to unmanaging too: %s. '
                'Nothing was changed. Lift the lock first (deletion_lock=false with '
                'state=present).' % (label, named))
    return ('%s is locked against deletion: %s. Nothing was deleted. To delete it, lift the '
            'lock in the same task: deletion_lock=false with state=absent.' % (label, named))


def refusing_locks(exc):
    """The IDs of the locks that Manila's refusal ``exc`` names (None: ``exc``
    is no refusal by locks)."""
    match = LOCK_REFUSAL.search(getattr(exc, 'message', None) or str(exc))
    if match is None:
        return None
    return [lock_id.strip() for lock_id in match.group(1).split(',') if lock_id.strip()]


def locks_keeping(exc, lifted, first):
    """What a refused deletion of a share means (``exc``, a ManilaError):
    None when the task goes on (refused only by the locks ``lifted``, which
    it lifts next, or, sent ``first``, for another reason such as the
    snapshots it deletes next), else the IDs of the locks that keep the
    share.  Any other refusal is raised again."""
    named = refusing_locks(exc)
    if named is None:
        if first and (isinstance(exc, NotFound) or exc.status in (400, 403, 409)):
            return None
        raise exc
    if all(lock_id in lifted for lock_id in named):
        return None
    return named


def unseen_words(ids):
    """The locks of ``ids`` as the result shows them: only their IDs are known."""
    return [dict((key, lock_id if key == 'id' else None) for key in FIELDS) for lock_id in ids]


def unseen_refusal(label, ids, seen=()):
    """Why a share is not deleted when Manila names locks this user does not list."""
    unseen = [lock_id for lock_id in ids if lock_id not in set(seen)]
    return ('%s is locked against deletion by %s this user cannot see: %s. Manila checks the '
            'delete locks of every project but shows a user only those of the user\'s own '
            'project (a lock set by an admin, a service or another project is not listed), '
            'so the task learns of them only from Manila\'s refusal. Nothing was deleted. '
            'Whoever set the lock can lift it; an admin sees and lifts every lock '
            '(openkeel.manila.share with id, state=absent and deletion_lock=false).'
            % (label, 'lock' if len(unseen) == 1 else 'locks', ', '.join(unseen or ids)))


# -- calls ---------------------------------------------------------------------------

class LockAPI(ResourceAPI):
    """The delete locks of shares: the shared calls (resource.ResourceAPI;
    every one carries the ``resource_locks`` feature of the kind's row), the
    listings and the writes of a lock's reason."""

    kind = 'resource_lock'

    # A lock has no name: require() is the feature check, as its callers know it.
    def require(self, what='deletion_lock'):  # pylint: disable=arguments-renamed
        self.require_feature(what)

    def list(self, share_id=None, all_projects=False):
        """The delete locks of one share, or of every share the user sees (paged)."""
        query = dict(DELETE_LOCKS)
        if share_id:
            query['resource_id'] = share_id
        if all_projects:
            query['all_projects'] = 'true'
        if share_id:
            return self.list_for(share_id, query, paged=True)
        return lookups.list_all(self.client, self.spec.listing, self.spec.list_key, query,
                                kind_feature=self.feature)

    def by_share(self):
        """Every delete lock the user sees, per share ID (one listing)."""
        found = {}
        for lock in self.list():
            found.setdefault(lock.get('resource_id'), []).append(lock)
        return found

    def for_share(self, share):
        """The delete locks of ``share``.  An admin acting on a share of another
        project asks for every project's locks (a member's locks are in the
        member's project)."""
        own = self.client.token_project()
        other = bool(own and share.get('project_id') and share['project_id'] != own['id'])
        return self.list(share['id'], all_projects=other)

    def create(self, share_id, reason, known=()):
        """Lock the share; ``known``: the IDs of its locks before (for the
        look after a lost answer: the lock of the share with this reason that
        was not there before)."""
        body = dict(resource_id=share_id, resource_type='share', resource_action='delete')
        if reason:
            body['lock_reason'] = reason
        return self.create_unnamed(
            body, share_id, known, 'the deletion lock of share %s' % share_id,
            matches=lambda lock: (lock.get('lock_reason') or '') == (reason or ''),
            listing=lambda: self.list(share_id))

    def update_reason(self, lock, reason):
        return self.client.write_once(
            lambda: self.client.put(self.path(lock['id']),
                                    dict(resource_lock=dict(lock_reason=reason)),
                                    feature=self.feature)['resource_lock'],
            writes.changed_to(self.client, self.kind, lock['id'], dict(lock_reason=reason)),
            'the reason of lock %s' % lock['id'])

    def delete(self, resource_id):
        """Remove a lock (``resource_id``: the lock, or its ID)."""
        lock_id = resource_id['id'] if isinstance(resource_id, dict) else resource_id
        return super(LockAPI, self).delete(lock_id)

    def deletion_words(self, resource_id):
        return 'the removal of lock %s' % resource_id

    def apply(self, share_id, plan):
        """Send the plan; the share's delete locks afterwards (as far as known)."""
        locks = list(plan.locks)
        for lock in plan.remove:
            self.delete(lock)
            locks = [x for x in locks if x['id'] != lock['id']]
        if plan.update is not None:
            lock, reason = plan.update
            changed = self.update_reason(lock, reason)
            locks = [changed if x['id'] == lock['id'] else x for x in locks]
        if plan.create is not None:
            locks.append(self.create(share_id, plan.create, [x['id'] for x in plan.locks]))
        return locks


class ShareLockTask(object):
    """The share module's side of the locks: gate, read, refuse, converge, and
    what the result and the diff show.  ``locks`` is None until read (a task
    that neither names ``deletion_lock`` nor deletes reads none)."""

    def __init__(self, client, deletion_lock=None, lock_reason=None, check_mode=False):
        self.api = LockAPI(client)
        self.deletion_lock = deletion_lock
        self.lock_reason = lock_reason
        self.check_mode = check_mode
        self.plan = None
        self.locks = None
        if deletion_lock is not None:
            self.api.require()

    def guard_absent(self, share, action='delete'):
        """Before the deletion (or unmanaging) of ``share``, before any write:
        refuse a locked share, naming its locks, unless the task lifts them
        (CannotConverge)."""
        if share is None or share.get('is_soft_deleted') or not self.api.supported():
            return
        locks = self.api.for_share(share)
        label = 'Share %s (%s)' % (share.get('name'), share['id'])
        refusal = absent_refusal(label, locks, self.deletion_lock, action)
        if refusal:
            raise CannotConverge(refusal, result=dict(deletion_locks=[brief(x) for x in locks]))
        self.plan = plan_locks(locks, self.deletion_lock)
        self.locks = locks

    def guard_unmanage(self, share):
        """Before unmanaging ``share``: Manila's delete locks hold against it too."""
        self.guard_absent(share, 'unmanage')

    def send_deletion(self, shares, share, soft=False, first=False):
        """Send the share's deletion (``soft``: to the recycle bin) through
        ``shares`` (a shares.ShareAPI); True when Manila took it.

        ``first``: sent before the writes the deletion needs (its snapshots
        deleted, the locks this task lifts), while they still hold it back.
        Manila checks the delete locks of every project before anything else,
        so its refusal names every lock, those this user cannot list too; a
        refusal that names only the locks this task lifts, or that refuses for
        another reason (the snapshots still there), returns False: the task
        goes on.  A lock this task does not lift refuses the deletion
        (CannotConverge naming it), first or not: then nothing was written."""
        try:
            if soft:
                shares.soft_delete(share['id'])
            else:
                shares.delete(share['id'])
            return True
        except ManilaError as exc:
            lifted = set(lock['id'] for lock in self.plan.remove) if (
                first and self.plan is not None) else set()
            named = locks_keeping(exc, lifted, first)
            if named is None:
                return False
            seen = [lock['id'] for lock in self.locks or []]
            label = 'Share %s (%s)' % (share.get('name'), share['id'])
            shown = [brief(x) for x in self.locks or []] + unseen_words(
                x for x in named if x not in seen)
            raise CannotConverge(unseen_refusal(label, named, seen), status=exc.status,
                                 request_id=exc.request_id, result=dict(deletion_locks=shown))

    @property
    def lifts(self):
        """Whether the task removes delete locks before the deletion."""
        return self.plan is not None and bool(self.plan.remove)

    def before_delete(self, share_id):
        """The writes before the share's deletion: its locks removed."""
        if self.plan is not None and self.plan.changed:
            self.locks = self.api.apply(share_id, self.plan)

    def converge(self, share):
        """A present share (``{}``: one check mode would create) gets the lock
        the task asks for."""
        if self.deletion_lock is None:
            return
        locks = self.api.for_share(share) if share.get('id') else []
        self.plan = plan_locks(locks, self.deletion_lock, self.lock_reason)
        if not self.plan.changed:
            self.locks = locks
        elif self.check_mode or not share.get('id'):
            self.locks = self.plan.predicted()
        else:
            self.locks = self.api.apply(share['id'], self.plan)

    @property
    def changed(self):
        return self.plan is not None and self.plan.changed

    def merge(self, before, after, result, gone=False):
        """The diff views and the result with the locks (``gone``: the share
        was deleted, its after view stays empty)."""
        if self.plan is None:
            return before, after
        before = dict(before or {}, **self.plan.before) if before else before
        if not gone:
            after = dict(after or {}, **self.plan.after)
        shown = self.plan.predicted() if self.check_mode else self.locks
        result['deletion_locks'] = [brief(x) for x in shown or []]
        return before, after
