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

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils import scheduler_pools
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    Forbidden,
    InvalidInput,
    ManilaError,
    reword,
    same_details,
)
from ansible_collections.openkeel.manila.plugins.module_utils.lookups import share_in_sentence
from ansible_collections.openkeel.manila.plugins.module_utils.kinds import KINDS
from ansible_collections.openkeel.manila.plugins.module_utils.resource import (
    NOTHING,
    Plan,
    ResourceAPI,
)
from ansible_collections.openkeel.manila.plugins.module_utils.states import (
    MIGRATION_CANCELLABLE_STATES,
    MIGRATION_CANCELLED,
    MIGRATION_CANCELLING_STATES,
    MIGRATION_COMPLETING_STATES,
    MIGRATION_DESTINATION_INSTANCE_STATUS,
    MIGRATION_DRIVER_PHASE1_DONE,
    MIGRATION_ERROR_STATES,
    MIGRATION_FINAL_STATES,
    MIGRATION_IN_FLIGHT_STATES,
    MIGRATION_PHASE1_DONE_STATES,
    MIGRATION_SOURCE_INSTANCE_STATUS,
    MIGRATION_SUCCESS,
)
from ansible_collections.openkeel.manila.plugins.module_utils.waiter import (
    explain_safely,
    user_message_explainer,
    wait_for_status,
    wait_until,
)

COMPLETED = 'completed'
PHASE1_DONE = 'phase1_done'
CANCELLED = 'cancelled'
DESIRED_STATES = (COMPLETED, PHASE1_DONE, CANCELLED)

# Steps a plan is made of, in the order they run.
START = 'start'
WAIT_PHASE1 = 'wait_phase1'
COMPLETE = 'complete'
WAIT_SUCCESS = 'wait_success'
WAIT_CANCELLABLE = 'wait_cancellable'
CANCEL = 'cancel'
WAIT_CANCELLED = 'wait_cancelled'
WRITE_STEPS = (START, COMPLETE, CANCEL)

# Plan actions (a one-word summary of the plan; START, COMPLETE and CANCEL
# above, NOTHING from resource.py).
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


# -- before any request ---------------------------------------------------------

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
            raise InvalidInput(
                'force_host_assisted_migration=true cannot be combined with %s '
                'set to true: a host-assisted migration copies the data through '
                'the data service and can keep none of those guarantees (Manila '
                'refuses the combination). Set %s to false.' % (
                    ', '.join(conflicting), ', '.join(conflicting)))
    return flags


def validate_request(state, host, flags):
    """Everything checkable before the first request; raises InvalidInput."""
    if state not in DESIRED_STATES:
        raise InvalidInput('state must be one of %s.' % ', '.join(DESIRED_STATES))
    if state in (COMPLETED, PHASE1_DONE) and not host:
        raise InvalidInput('host (the target pool) is required with state=%s.' % state)
    if host:
        scheduler_pools.parse_pool_name(host)
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

class MigrationPlan(Plan):
    """What to do: ``action`` (a summary, the module's ``action``), ``steps``
    (in order) and why (``reason``).

    ``changed``: the steps include a write (START, COMPLETE or CANCEL), not
    ``action != NOTHING``: the actions start, complete and cancel always
    write, RESUME (a migration already in flight) writes only when it still
    has to cut over, FIND_DESTINATION and ERROR have no steps (the planner's
    answers: ``Migration.prepare`` waits, or fails).  The diff views are the
    module's (the share's host and task state), not the plan's.
    """

    def __init__(self, action, steps=(), reason=''):
        super(MigrationPlan, self).__init__(action)
        self.steps = tuple(steps)
        self.reason = reason

    @property
    def changed(self):
        return any(step in WRITE_STEPS for step in self.steps)

    def __eq__(self, other):
        return (self.action, self.steps) == (other.action, other.steps)

    def __repr__(self):
        return 'MigrationPlan(%r, %r)' % (self.action, self.steps)


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
    name = share_in_sentence(share)
    if move_needed is None:
        move_needed = bool(host) and share.get('host') != host

    if in_flight(share):
        if destination is None and (host or state != CANCELLED):
            return MigrationPlan(FIND_DESTINATION, reason=(
                'A migration of %s is in flight (%s); its destination is not '
                'known yet.' % (name, task_state)))
        if host and destination != host:
            return MigrationPlan(ERROR, reason=(
                'A migration of %s to %s is already in flight (task_state %s); '
                'the task asks for %s. Let it finish, or cancel it with '
                'state=cancelled first.' % (name, destination, task_state, host)))
        return _plan_in_flight(name, task_state, state)

    if state == CANCELLED:
        return MigrationPlan(NOTHING, reason='No migration of %s is in flight (task_state %s).'
                             % (name, task_state))
    if not move_needed:
        return MigrationPlan(NOTHING, reason='%s is already on %s.' % (name, host))
    status = share.get('status')
    if status != 'available':
        return MigrationPlan(ERROR, reason=(
            '%s is %s; a migration can only start from available.' % (name, status)))
    steps = [START, WAIT_PHASE1]
    if state == COMPLETED:
        steps += [COMPLETE, WAIT_SUCCESS]
    return MigrationPlan(START, steps, reason='%s is on %s; moving it to %s.' % (
        name, share.get('host'), host))


def _plan_in_flight(name, task_state, state):
    if state == CANCELLED:
        if task_state in MIGRATION_COMPLETING_STATES:
            return MigrationPlan(ERROR, reason=(
                'The migration of %s is already cutting over (%s); it can no '
                'longer be cancelled.' % (name, task_state)))
        if task_state in MIGRATION_CANCELLING_STATES:
            return MigrationPlan(RESUME, [WAIT_CANCELLED],
                                 'The migration of %s is already being cancelled.' % name)
        if task_state in MIGRATION_CANCELLABLE_STATES:
            return MigrationPlan(CANCEL, [CANCEL, WAIT_CANCELLED],
                                 'Cancelling the migration of %s (%s).' % (name, task_state))
        return MigrationPlan(CANCEL, [WAIT_CANCELLABLE, CANCEL, WAIT_CANCELLED],
                             'The migration of %s is starting (%s); cancelling it once '
                             'Manila allows.' % (name, task_state))

    if task_state in MIGRATION_CANCELLING_STATES:
        return MigrationPlan(ERROR, reason=(
            'The migration of %s is being cancelled (%s); run the task again '
            'once it is cancelled to start a new one.' % (name, task_state)))
    if task_state in MIGRATION_COMPLETING_STATES:
        return MigrationPlan(RESUME, [WAIT_SUCCESS],
                             'The migration of %s is cutting over (%s).' % (name, task_state))
    if task_state in MIGRATION_PHASE1_DONE_STATES:
        if state == PHASE1_DONE:
            return MigrationPlan(NOTHING, reason='The data of %s is copied (%s); waiting '
                                 'for the cutover.' % (name, task_state))
        return MigrationPlan(COMPLETE, [COMPLETE, WAIT_SUCCESS],
                             'Phase 1 of the migration of %s is done; cutting over.' % name)
    steps = [WAIT_PHASE1]
    if state == COMPLETED:
        steps += [COMPLETE, WAIT_SUCCESS]
    return MigrationPlan(RESUME, steps, 'Resuming the migration of %s in flight (%s).'
                         % (name, task_state))


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

def admin_only(what):
    """A rewording for Forbidden from a migration call, so a member knows why."""
    return reword(Forbidden, lambda exc: same_details(
        exc, ManilaError, '%s %s (Manila said: %s)' % (what, ADMIN_ONLY, exc.message)))


# A migrated share's own statuses (after the cutover).
SHARE = KINDS['share'].statuses


class MigrationAPI(ResourceAPI):
    """The migration calls of one share, and waits that explain failures: the
    shared calls (resource.ResourceAPI: a migration is read on its share, its
    status is the share's ``task_state``), and the steps, the progress and
    the waits of a migration."""

    kind = 'share_migration'

    def __init__(self, client, timeout=3600, on_poll=None):
        super(MigrationAPI, self).__init__(client, timeout)
        self.on_poll = on_poll
        self.last_progress = None
        self.last_seen = None

    # reads
    def get_share(self, share_id):
        return self.get(share_id)

    @admin_only('Listing the instances of a share failed.')
    def instances(self, share_id):
        """The share's instances (admin-only by default)."""
        body = self.client.get('shares/%s/instances' % share_id)
        return body.get('share_instances', [])

    def hosts(self, share_id):
        """(source host, destination host) of the share's instances."""
        source = destination = None
        for instance in self.instances(share_id):
            if instance.get('status') == MIGRATION_DESTINATION_INSTANCE_STATUS:
                destination = instance.get('host')
            elif instance.get('status') == MIGRATION_SOURCE_INSTANCE_STATUS:
                source = instance.get('host')
        return source, destination

    @admin_only('Reading migration progress failed.')
    def _read_progress(self, share_id):
        if self.client.supports('migration_progress_api'):
            return self.client.get('shares/%s/migration-progress' % share_id,
                                   feature='migration_progress_api')
        return self.client.action('shares/%s' % share_id, 'migration_get_progress',
                                  None, feature='migration', read_only=True)

    def progress(self, share_id):
        """{total_progress, task_state, details} or None when Manila has none.

        2.98+: ``GET /shares/{id}/migration-progress``; below, the
        ``migration_get_progress`` action (experimental header below 2.96).
        Manila answers 400 when no migration runs or the driver cannot tell.
        A 500 is no progress either: Manila 2023.2 answers the progress read
        with one a moment after a cancel (its log: ShareMigrationFailed,
        "Share instances None and None in inconsistent states"; the answer
        says only "The server has either erred ..."), while the share's
        task_state still says the driver is at work. The caller then reads
        the share's task_state, which a broken Manila fails to give as well.
        """
        try:
            body = self._read_progress(share_id)
        except ManilaError as exc:
            if exc.status in (400, 500):
                return None
            raise
        # Manila reports 100 for a failed migration too: that is no progress.
        if (body.get('total_progress') is not None
                and body.get('task_state') not in MIGRATION_ERROR_STATES):
            self.last_progress = body.get('total_progress')
        return body

    # writes: after a lost answer or a 5xx, the task state tells whether
    # the step took effect (write_once) before anything is sent again.
    def _step(self, share_id, name, body, took_effect, what):
        def observe():
            share = self.get_share(share_id) or {}
            return True if share.get('task_state') in took_effect else None
        return self.client.write_once(
            lambda: self.client.action('shares/%s' % share_id, name, body,
                                       feature='migration'),
            observe, '%s of share %s' % (what, share_id))

    @admin_only('Starting the migration failed.')
    def start(self, share_id, body):
        return self._step(share_id, 'migration_start', body, MIGRATION_IN_FLIGHT_STATES,
                          'the start of the migration')

    @admin_only('Completing the migration failed.')
    def complete(self, share_id):
        return self._step(share_id, 'migration_complete', None,
                          MIGRATION_COMPLETING_STATES | frozenset([MIGRATION_SUCCESS]),
                          'the cutover of the migration')

    @admin_only('Cancelling the migration failed.')
    def cancel(self, share_id):
        return self._step(share_id, 'migration_cancel', None,
                          MIGRATION_CANCELLING_STATES | frozenset([MIGRATION_CANCELLED]),
                          'the cancel of the migration')

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
        return seen

    def wait_task_state(self, share, targets, errors, what):
        return wait_for_status(
            self.client, lambda: self._fetch(share['id']), targets, errors, what,
            self.timeout, field=self.spec.status_field, explain=lambda _seen: self.explain(share),
            on_poll=self.on_poll)

    def wait_phase1(self, share):
        return self.wait_task_state(
            share, MIGRATION_PHASE1_DONE_STATES | frozenset([MIGRATION_SUCCESS]),
            MIGRATION_ERROR_STATES | frozenset([MIGRATION_CANCELLED]),
            'The migration of %s' % share_in_sentence(share))

    def wait_success(self, share):
        return self.wait_task_state(
            share, [MIGRATION_SUCCESS],
            MIGRATION_ERROR_STATES | frozenset([MIGRATION_CANCELLED]),
            'The cutover of %s' % share_in_sentence(share))

    def wait_cancellable(self, share):
        return self.wait_task_state(
            share, MIGRATION_CANCELLABLE_STATES | MIGRATION_CANCELLING_STATES
            | MIGRATION_FINAL_STATES,
            MIGRATION_ERROR_STATES, 'The migration of %s' % share_in_sentence(share))

    def wait_cancelled(self, share):
        return self.wait_task_state(
            share, [MIGRATION_CANCELLED],
            MIGRATION_ERROR_STATES | frozenset([MIGRATION_SUCCESS]),
            'Cancelling the migration of %s' % share_in_sentence(share))

    def wait_available(self, share):
        """After the cutover: the share is available again (or failed)."""
        return wait_for_status(
            self.client, lambda: self.get_share(share['id']), SHARE.ready,
            SHARE.error, share_in_sentence(share).capitalize(), self.timeout,
            explain=lambda _share: self.explain(share))

    def wait_destination(self, share, timeout):
        """A migration just started: wait until Manila names its destination.

        Returns (share, source host, destination host).
        """
        found = {}

        def fetch():
            current = self.get_share(share['id'])
            if current is not None:
                found['share'] = current
                found['hosts'] = (self.hosts(current['id']) if in_flight(current)
                                  else (current.get('host'), None))
            return current

        def ready(current):
            return current is not None and (not in_flight(current)
                                            or found['hosts'][1] is not None)

        wait_until(self.client, fetch, ready,
                   'The destination of the migration of %s' % share_in_sentence(share),
                   'Manila to name it', timeout,
                   describe=lambda current: 'unknown (task_state %s)' % current.get('task_state'))
        source, destination = found['hosts']
        return found['share'], source or found['share'].get('host'), destination

    def explain(self, share):
        """Where a failed migration stands: task_state, progress, the share's
        status and Manila's words."""
        parts = []
        seen = self.last_seen or {}
        if seen.get('task_state'):
            parts.append('task_state: %s.' % seen['task_state'])
        if self.last_progress is not None:
            parts.append('Progress reached: %s%%.' % self.last_progress)
        try:
            current = self.get_share(share['id'])
        except ManilaError:
            current = None
        if current is not None:
            parts.append('The share is now %s.' % current.get('status'))
            if current.get('status') == 'error':
                parts.append('An error during the cutover leaves the share '
                             'instances in error; an administrator has to '
                             'look at the backends before anything else.')
        said = explain_safely(user_message_explainer(self.client, share['id']), share)
        if said:
            parts.append(said)
        return ' '.join(parts)


# -- running a plan ----------------------------------------------------------------

# How long a run waits for a fresh migration's destination to appear.
DESTINATION_WAIT = 120


def steps_without_waiting(steps):
    """wait=false: the writes up to the first wait, nothing after it."""
    taken = []
    for step in steps:
        if step not in WRITE_STEPS:
            break
        taken.append(step)
    return taken


class Migration(object):
    """One task's migration of one share: look up, plan, run the steps.

    ``prepare()`` only reads (check mode stops after it); ``run()`` sends the
    plan's writes and waits.  Nothing here resets the task state.
    """

    def __init__(self, client, share, state, host=None, new_share_type=None,
                 new_share_network=None, flags=None, timeout=3600, on_poll=None):
        self.client = client
        self.api = MigrationAPI(client, timeout, on_poll=on_poll)
        self.share_ref = share
        self.state = state
        self.host = host
        self.new_share_type = new_share_type
        self.new_share_network = new_share_network
        self.flags = flags
        self.timeout = timeout
        self.share = self.before = None
        self.source = self.destination = None
        self.type_id = self.network_id = None
        self.plan = None

    def prepare(self):
        """Read the share and what the task names; make the plan (reads only)."""
        self.client.require('migration', 'Share migration')
        share = lookups.require(self.client, 'share', self.share_ref)
        if 'host' not in share:
            raise CannotConverge('Share migration needs an administrator: Manila does '
                                 'not show this user where %s lives. %s'
                                 % (share_in_sentence(share), ADMIN_ONLY))
        if self.new_share_type:
            self.type_id = lookups.require(self.client, 'share_type', self.new_share_type,
                                           option='new_share_type')['id']
        if self.new_share_network:
            self.network_id = lookups.require(self.client, 'share_network',
                                              self.new_share_network,
                                              option='new_share_network')['id']
        self.share = self.before = share
        self.source, self.destination = self.hosts(share)
        self.plan = plan(share, self.state, self.host, self.destination,
                         self.move_needed(share))
        if self.plan.action == FIND_DESTINATION:
            self.share, self.source, self.destination = self.api.wait_destination(
                share, min(self.timeout, DESTINATION_WAIT))
            # the share as it is now: a migration that ended meanwhile may
            # already have brought it where the task wants it
            self.plan = plan(self.share, self.state, self.host, self.destination,
                             self.move_needed(self.share))
        if self.plan.action == ERROR:
            raise CannotConverge(self.plan.reason, result=dict(
                share=self.share, migration=summarize(self.share, None, self.source,
                                                      self.destination)))
        if START in self.plan.steps:
            scheduler_pools.require_pool(self.client, self.host)
        return self.plan

    def move_needed(self, share):
        """Is ``share`` (with no migration in flight) not yet where the task wants it?"""
        return bool(self.host) and needs_move(share, self.host, self.type_id,
                                              self.network_id)

    def hosts(self, share):
        if not in_flight(share):
            return share.get('host'), None
        source, destination = self.api.hosts(share['id'])
        return source or share.get('host'), destination

    def run(self, wait=True):
        """Send the plan's steps (only the writes before the first wait when
        ``wait`` is false); returns the steps sent."""
        steps = self.plan.steps if wait else steps_without_waiting(self.plan.steps)
        sent = []
        for step in steps:
            self.run_step(step)
            sent.append(step)
        if not sent:
            return sent
        share = self.api.get_share(self.share['id'])
        if WAIT_SUCCESS in sent:
            if share.get('status') != 'available':
                share = self.api.wait_available(share)
            self.source, self.destination = share.get('host'), None
        else:
            self.source, self.destination = self.hosts(share)
        self.share = share
        return sent

    def run_step(self, step):
        api, share = self.api, self.share
        last_state = (api.last_seen or {}).get('task_state')
        if step == START:
            api.start(share['id'], start_body(self.host, self.flags, self.type_id,
                                              self.network_id))
        elif step == WAIT_PHASE1:
            api.wait_phase1(share)
        elif step == COMPLETE:
            if last_state != MIGRATION_SUCCESS:  # else Manila found nothing to move
                api.complete(share['id'])
        elif step == WAIT_SUCCESS:
            api.wait_success(share)
        elif step == WAIT_CANCELLABLE:
            api.wait_cancellable(share)
        elif step == CANCEL:
            if last_state not in MIGRATION_FINAL_STATES:
                api.cancel(share['id'])
        elif step == WAIT_CANCELLED:
            api.wait_cancelled(share)

    @staticmethod
    def sent_writes(sent):
        """Whether any of the steps sent was a write."""
        return any(step in WRITE_STEPS for step in sent)

    def progress(self, ran):
        """The progress to report: the last poll's, or a fresh read in flight."""
        if ran and self.api.last_seen:
            return self.api.last_seen
        if in_flight(self.share):
            return self.api.progress(self.share['id'])
        return None

    def summary(self, ran=True):
        return summarize(self.share, self.progress(ran), self.source, self.destination)

    def predicted_task_state(self):
        return {COMPLETED: MIGRATION_SUCCESS,
                PHASE1_DONE: MIGRATION_DRIVER_PHASE1_DONE,
                CANCELLED: MIGRATION_CANCELLED}[self.state]
