# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Share migration: planning as pure functions, then the calls and the waits.

Planning answers "what must happen so that the share ends where the task
wants it" from what Manila shows (status, task_state, host, the destination
instance).  It never guesses: a migration in flight to another pool, or in a
state that cannot lead where the task wants, is an error that says why.

Nothing here ever sends ``reset_task_state``: during a migration it throws
Manila's record of the migration away.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re
import time

from ansible_collections.openkeel.manila.plugins.module_utils import resources
from ansible_collections.openkeel.manila.plugins.module_utils.client import (
    Forbidden,
    ManilaError,
    NotFound,
    looks_like_uuid,
)
from ansible_collections.openkeel.manila.plugins.module_utils.states import (
    MIGRATION_CANCELLABLE_STATES,
    MIGRATION_CANCELLING_STATES,
    MIGRATION_COMPLETING_STATES,
    MIGRATION_ERROR_STATES,
    MIGRATION_FINAL_STATES,
    MIGRATION_IN_FLIGHT_STATES,
    MIGRATION_PHASE1_DONE_STATES,
    SHARE_ERROR_STATES,
)
from ansible_collections.openkeel.manila.plugins.module_utils.waiter import (
    WaitFailed,
    wait_for,
)

COMPLETED = 'completed'
PHASE1_DONE = 'phase1_done'
CANCELLED = 'cancelled'
DESIRED_STATES = (COMPLETED, PHASE1_DONE, CANCELLED)

# Instance statuses of a migration's two halves.
SOURCE_INSTANCE_STATUS = 'migrating'
DESTINATION_INSTANCE_STATUS = 'migrating_to'

# Manila's pool names: host@backend#pool (no spaces, one of each separator).
POOL_NAME_RE = re.compile(r'^([^@#\s]+)@([^@#\s]+)#([^@#\s]+)$')

# Steps a plan is made of, in the order they run.
START = 'start'
WAIT_PHASE1 = 'wait_phase1'
COMPLETE = 'complete'
WAIT_SUCCESS = 'wait_success'
WAIT_CANCELLABLE = 'wait_cancellable'
CANCEL = 'cancel'
WAIT_CANCELLED = 'wait_cancelled'
WRITE_STEPS = (START, COMPLETE, CANCEL)

# Plan actions (a one-word summary of the plan).
NOTHING = 'nothing'
RESUME = 'resume'
FIND_DESTINATION = 'find_destination'
ERROR = 'error'

ADMIN_ONLY = ('Share migration is admin-only by default: Manila\'s policy lets '
              'only administrators start, complete, cancel or watch a migration '
              '(and list pools and share instances).')

BOOL_FLAGS = ('writable', 'preserve_metadata', 'preserve_snapshots',
              'nondisruptive', 'force_host_assisted_migration')
# Flags that must be false when the migration is forced host-assisted.
NOT_WITH_HOST_ASSISTED = ('writable', 'preserve_metadata', 'preserve_snapshots',
                          'nondisruptive')


class MigrationError(ManilaError):
    """A migration that failed, or a request that cannot be carried out."""


# -- before any request ---------------------------------------------------------

def parse_pool_name(name):
    """(host, backend, pool) of ``host@backend#pool``; ValueError otherwise."""
    match = POOL_NAME_RE.match(name or '')
    if not match:
        raise ValueError(
            'host must be a full pool name "host@backend#pool" (as '
            'openkeel.manila.share_pool_info lists them), got %r.' % (name,))
    return match.groups()


def resolve_flags(params):
    """Manila's five migration flags, validated, with defaults filled in.

    ``writable``, ``preserve_metadata`` and ``preserve_snapshots`` left unset
    (None) mean true, or false when the migration is forced host-assisted;
    ``nondisruptive`` and ``force_host_assisted_migration`` default to false.
    Manila refuses a host-assisted migration that must keep any of the four
    guarantees: that combination is an error here, before any request.
    """
    forced = bool(params.get('force_host_assisted_migration'))
    flags = {'force_host_assisted_migration': forced}
    for name in ('writable', 'preserve_metadata', 'preserve_snapshots'):
        value = params.get(name)
        flags[name] = (not forced) if value is None else bool(value)
    flags['nondisruptive'] = bool(params.get('nondisruptive'))
    if forced:
        conflicting = [name for name in NOT_WITH_HOST_ASSISTED if flags[name]]
        if conflicting:
            raise ValueError(
                'force_host_assisted_migration=true cannot be combined with %s '
                'set to true: a host-assisted migration copies the data through '
                'the data service and can keep none of those guarantees (Manila '
                'refuses the combination). Set %s to false.' % (
                    ', '.join(conflicting), ', '.join(conflicting)))
    return flags


def validate_request(state, host, flags):
    """Everything checkable before the first request; raises ValueError."""
    if state not in DESIRED_STATES:
        raise ValueError('state must be one of %s.' % ', '.join(DESIRED_STATES))
    if state in (COMPLETED, PHASE1_DONE) and not host:
        raise ValueError('host (the target pool) is required with state=%s.' % state)
    if host:
        parse_pool_name(host)
    return flags


def start_body(host, flags, new_share_type_id=None, new_share_network_id=None):
    """The ``migration_start`` action's arguments (2.29+: all four flags sent)."""
    body = {'host': host}
    for name in BOOL_FLAGS:
        body[name] = bool(flags[name])
    if new_share_type_id:
        body['new_share_type_id'] = new_share_type_id
    if new_share_network_id:
        body['new_share_network_id'] = new_share_network_id
    return body


# -- planning -------------------------------------------------------------------

class Plan(object):
    """What to do: ``action`` (a summary), ``steps`` (in order) and why."""

    def __init__(self, action, steps=(), reason=''):
        self.action = action
        self.steps = tuple(steps)
        self.reason = reason

    @property
    def changes(self):
        return any(step in WRITE_STEPS for step in self.steps)

    def __eq__(self, other):
        return (self.action, self.steps) == (other.action, other.steps)

    def __repr__(self):
        return 'Plan(%r, %r)' % (self.action, self.steps)


def in_flight(share):
    return share.get('task_state') in MIGRATION_IN_FLIGHT_STATES


def needs_move(share, host, new_share_type=None, new_share_network=None):
    """True when the share is not yet where (and what) the task wants."""
    if share.get('host') != host:
        return True
    if new_share_type and new_share_type not in (share.get('share_type'),
                                                 share.get('share_type_name')):
        return True
    if new_share_network and new_share_network != share.get('share_network_id'):
        return True
    return False


def plan(share, state, host=None, destination=None, move_needed=None):
    """The plan that brings ``share`` to ``state`` (on ``host``).

    ``destination`` is the host of the share instance in ``migrating_to``
    (None when there is none, or it is not known yet).  ``move_needed`` says
    whether a share with no migration in flight is somewhere else than the
    task wants (defaults to comparing its host with ``host``).
    """
    task_state = share.get('task_state')
    name = share_label(share)
    if move_needed is None:
        move_needed = bool(host) and share.get('host') != host

    if in_flight(share):
        if destination is None and (host or state != CANCELLED):
            return Plan(FIND_DESTINATION, reason=(
                'A migration of %s is in flight (%s); its destination is not '
                'known yet.' % (name, task_state)))
        if host and destination != host:
            return Plan(ERROR, reason=(
                'A migration of %s to %s is already in flight (task_state %s); '
                'the task asks for %s. Let it finish, or cancel it with '
                'state=cancelled first.' % (name, destination, task_state, host)))
        return _plan_in_flight(name, task_state, state)

    if state == CANCELLED:
        return Plan(NOTHING, reason='No migration of %s is in flight (task_state %s).'
                    % (name, task_state))
    if not move_needed:
        return Plan(NOTHING, reason='%s is already on %s.' % (name, host))
    status = share.get('status')
    if status != 'available':
        return Plan(ERROR, reason=(
            '%s is %s; a migration can only start from available.' % (name, status)))
    steps = [START, WAIT_PHASE1]
    if state == COMPLETED:
        steps += [COMPLETE, WAIT_SUCCESS]
    return Plan(START, steps, reason='%s is on %s; moving it to %s.' % (
        name, share.get('host'), host))


def _plan_in_flight(name, task_state, state):
    if state == CANCELLED:
        if task_state in MIGRATION_COMPLETING_STATES:
            return Plan(ERROR, reason=(
                'The migration of %s is already cutting over (%s); it can no '
                'longer be cancelled.' % (name, task_state)))
        if task_state in MIGRATION_CANCELLING_STATES:
            return Plan(RESUME, [WAIT_CANCELLED],
                        'The migration of %s is already being cancelled.' % name)
        if task_state in MIGRATION_CANCELLABLE_STATES:
            return Plan(CANCEL, [CANCEL, WAIT_CANCELLED],
                        'Cancelling the migration of %s (%s).' % (name, task_state))
        return Plan(CANCEL, [WAIT_CANCELLABLE, CANCEL, WAIT_CANCELLED],
                    'The migration of %s is starting (%s); cancelling it once '
                    'Manila allows.' % (name, task_state))

    if task_state in MIGRATION_CANCELLING_STATES:
        return Plan(ERROR, reason=(
            'The migration of %s is being cancelled (%s); run the task again '
            'once it is cancelled to start a new one.' % (name, task_state)))
    if task_state in MIGRATION_COMPLETING_STATES:
        return Plan(RESUME, [WAIT_SUCCESS],
                    'The migration of %s is cutting over (%s).' % (name, task_state))
    if task_state in MIGRATION_PHASE1_DONE_STATES:
        if state == PHASE1_DONE:
            return Plan(NOTHING, reason='The data of %s is copied (%s); waiting '
                        'for the cutover.' % (name, task_state))
        return Plan(COMPLETE, [COMPLETE, WAIT_SUCCESS],
                    'Phase 1 of the migration of %s is done; cutting over.' % name)
    steps = [WAIT_PHASE1]
    if state == COMPLETED:
        steps += [COMPLETE, WAIT_SUCCESS]
    return Plan(RESUME, steps, 'Resuming the migration of %s in flight (%s).'
                % (name, task_state))


def share_label(share):
    if share.get('name'):
        return 'share %s (%s)' % (share['name'], share.get('id'))
    return 'share %s' % share.get('id')


def summarize(share, progress=None, source=None, destination=None):
    """The ``migration`` part of a result."""
    progress = progress or {}
    return {
        'task_state': progress.get('task_state') or share.get('task_state'),
        'total_progress': progress.get('total_progress'),
        'details': progress.get('details') or {},
        'source_host': source or share.get('host'),
        'destination_host': destination,
    }


# -- calls ------------------------------------------------------------------------

def admin_only(exc, what):
    """A Forbidden from a migration call, reworded so a member knows why."""
    return MigrationError('%s %s (Manila said: %s)' % (what, ADMIN_ONLY, exc.message),
                          status=exc.status, request_id=exc.request_id,
                          method=exc.method, url=exc.url)


class MigrationAPI(object):
    """The migration calls of one share, and waits that explain failures."""

    def __init__(self, client, timeout=3600, on_poll=None, sleep=time.sleep):
        self.client = client
        self.timeout = timeout
        self.on_poll = on_poll
        self.sleep = sleep
        self.last_progress = None
        self.last_seen = None

    def _call(self, what, func, *args, **kwargs):
        try:
            return func(*args, **kwargs)
        except Forbidden as exc:
            raise admin_only(exc, what)

    # reads
    def get_share(self, share_id):
        return resources.get_by_id(self.client, 'share', share_id)

    def instances(self, share_id):
        """The share's instances (admin-only by default)."""
        body = self._call('Listing the instances of a share failed.', self.client.get,
                          'shares/%s/instances' % share_id)
        return body.get('share_instances', [])

    def hosts(self, share_id):
        """(source host, destination host) of the share's instances."""
        source = destination = None
        for instance in self.instances(share_id):
            if instance.get('status') == DESTINATION_INSTANCE_STATUS:
                destination = instance.get('host')
            elif instance.get('status') == SOURCE_INSTANCE_STATUS:
                source = instance.get('host')
        return source, destination

    def progress(self, share_id):
        """{total_progress, task_state, details} or None when Manila has none.

        2.98+: ``GET /shares/{id}/migration-progress``; below, the
        ``migration_get_progress`` action (experimental header below 2.96).
        Manila answers 400 when no migration runs or the driver cannot tell.
        """
        try:
            if self.client.supports('migration_progress_api'):
                body = self.client.get('shares/%s/migration-progress' % share_id,
                                       feature='migration_progress_api')
            else:
                body = self.client.action('shares/%s' % share_id,
                                          'migration_get_progress', None,
                                          feature='migration', read_only=True)
        except Forbidden as exc:
            raise admin_only(exc, 'Reading migration progress failed.')
        except ManilaError as exc:
            if exc.status == 400:
                return None
            raise
        # Manila reports 100 for a failed migration too: that is no progress.
        if (body.get('total_progress') is not None
                and body.get('task_state') not in MIGRATION_ERROR_STATES):
            self.last_progress = body.get('total_progress')
        return body

    def pools(self, host=None, backend=None, pool=None, share_type=None, detail=True):
        query = {'host': host, 'backend': backend, 'pool': pool,
                 'share_type': share_type}
        path = 'scheduler-stats/pools/detail' if detail else 'scheduler-stats/pools'
        try:
            return self.client.get(path, query=query).get('pools', [])
        except Forbidden as exc:
            raise MigrationError(
                'Listing the scheduler\'s pools is admin-only by default (Manila '
                'said: %s)' % exc.message, status=exc.status,
                request_id=exc.request_id, method=exc.method, url=exc.url)

    def require_pool(self, name):
        """The pool named exactly ``name``; a clear error when there is none."""
        host, backend, pool = parse_pool_name(name)
        found = self.pools(host=exact(host), backend=exact(backend),
                           pool=exact(pool), detail=False)
        for candidate in found:
            if candidate.get('name') == name:
                return candidate
        known = sorted(p.get('name') for p in self.pools(detail=False))
        raise MigrationError(
            'No pool named %s is known to the scheduler. Pools: %s.' % (
                name, ', '.join(known) or 'none'))

    # writes
    def start(self, share_id, body):
        return self._call('Starting the migration failed.', self.client.action,
                          'shares/%s' % share_id, 'migration_start', body,
                          feature='migration')

    def complete(self, share_id):
        return self._call('Completing the migration failed.', self.client.action,
                          'shares/%s' % share_id, 'migration_complete', None,
                          feature='migration')

    def cancel(self, share_id):
        return self._call('Cancelling the migration failed.', self.client.action,
                          'shares/%s' % share_id, 'migration_cancel', None,
                          feature='migration')

    # waits
    def _fetch(self, share_id):
        """One read per poll: the progress (it carries task_state), or the share."""
        progress = self.progress(share_id)
        if progress is not None and progress.get('task_state'):
            seen = {'task_state': progress['task_state'],
                    'total_progress': progress.get('total_progress'),
                    'details': progress.get('details') or {}}
        else:
            share = self.get_share(share_id)
            if share is None:
                return None
            seen = {'task_state': share.get('task_state'), 'total_progress': None,
                    'details': {}, 'status': share.get('status')}
        self.last_seen = seen
        if self.on_poll is not None:
            self.on_poll(seen)
        return seen

    def wait_task_state(self, share, targets, errors, what):
        share_id = share['id']
        try:
            return wait_for(
                fetch=lambda: self._fetch(share_id),
                targets=targets, errors=errors, timeout=self.timeout, what=what,
                state_of=lambda seen: seen.get('task_state'), sleep=self.sleep,
            )
        except WaitFailed as exc:
            raise MigrationError(self.explain(share, exc))

    def wait_phase1(self, share):
        return self.wait_task_state(
            share, MIGRATION_PHASE1_DONE_STATES | frozenset(['migration_success']),
            MIGRATION_ERROR_STATES | frozenset(['migration_cancelled']),
            'The migration of %s' % share_label(share))

    def wait_success(self, share):
        return self.wait_task_state(
            share, ['migration_success'],
            MIGRATION_ERROR_STATES | frozenset(['migration_cancelled']),
            'The cutover of %s' % share_label(share))

    def wait_cancellable(self, share):
        return self.wait_task_state(
            share, MIGRATION_CANCELLABLE_STATES | MIGRATION_CANCELLING_STATES
            | MIGRATION_FINAL_STATES,
            MIGRATION_ERROR_STATES, 'The migration of %s' % share_label(share))

    def wait_cancelled(self, share):
        return self.wait_task_state(
            share, ['migration_cancelled'],
            MIGRATION_ERROR_STATES | frozenset(['migration_success']),
            'Cancelling the migration of %s' % share_label(share))

    def wait_available(self, share):
        """After the cutover: the share is available again (or failed)."""
        share_id = share['id']
        try:
            return wait_for(
                fetch=lambda: self.get_share(share_id), targets=['available'],
                errors=SHARE_ERROR_STATES, timeout=self.timeout,
                what=share_label(share).capitalize(), sleep=self.sleep)
        except WaitFailed as exc:
            raise MigrationError(self.explain(share, exc))

    def explain(self, share, failure):
        """A failure with the task_state, the progress reached and Manila's words."""
        parts = [str(failure.message if isinstance(failure, ManilaError) else failure)]
        seen = self.last_seen or {}
        if seen.get('task_state'):
            parts.append('task_state: %s.' % seen['task_state'])
        if self.last_progress is not None:
            parts.append('Progress reached: %s%%.' % self.last_progress)
        try:
            current = self.get_share(share['id'])
            if current is not None:
                parts.append('The share is now %s.' % current.get('status'))
                if current.get('status') == 'error':
                    parts.append('An error during the cutover leaves the share '
                                 'instances in error; an administrator has to '
                                 'look at the backends before anything else.')
        except ManilaError:
            pass
        try:
            said = resources.user_messages(self.client, share['id'])
        except ManilaError as exc:
            said = 'Manila user messages could not be read: %s' % exc
        if said:
            parts.append(said)
        return ' '.join(parts)


def exact(value):
    """A Manila pool filter (a regular expression matched at the start) for one value."""
    return '%s$' % re.escape(value)


def resolve_share_type(client, name_or_id):
    """The ID of a share type given by name or ID (one read)."""
    if looks_like_uuid(name_or_id):
        try:
            return client.get('types/%s' % name_or_id)['share_type']['id']
        except NotFound:
            raise MigrationError('No share type with the ID %s exists.' % name_or_id)
    types = client.get('types', query={'is_public': 'all'}).get('share_types', [])
    matches = [t['id'] for t in types if t.get('name') == name_or_id]
    if len(matches) != 1:
        raise MigrationError('%s share type named %r was found%s.' % (
            'No' if not matches else 'More than one', name_or_id,
            '' if not matches else ' (IDs: %s); use an ID' % ', '.join(sorted(matches))))
    return matches[0]
