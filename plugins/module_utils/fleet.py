# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Many shares and their access rules in one task: the executor of the
``shares`` module (which is its thin front end).

The flow, for a list of entries (``Fleet.converge``):

1. the desired state checked before any request (``validate_desired``), then
   every rule at the negotiated version (``Fleet.prepare_rules``);
2. one listing of the project's shares finds every entry (``Fleet.find``) and
   what ``purge`` deletes (``Fleet.purge_items``);
3. busy shares waited for until they rest (``Fleet.wait_if_busy``), then the rules
   and export locations of each share that exists (``Fleet.read_current``);
4. a plan per share from the planners ``share`` and ``share_access`` use
   (``Fleet.plan``), except for a share another task's marker claims, which
   is left untouched (``Fleet.skip_claimed``); check mode stops here;
5. each share at its own pace through ``waiter.run_steps`` (``Fleet.apply``):
   its write, its wait, its rules, their wait, what the result needs, with
   jobs a few at a time on the client and every wait in one poll loop (a poll
   reads the project's listing, or the waiting shares one by one where that
   costs Manila less: ``Fleet.fetch``);
6. one result per entry (``Fleet.outcome``).

Each share that cannot converge fails alone (``Item.fail``); the others go on.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import collections

from ansible_collections.openkeel.manila.plugins.module_utils import lookups, share_steps
from ansible_collections.openkeel.manila.plugins.module_utils.access import (
    LEFT_IN_ERROR,
    AccessAPI,
    diff_view as rules_diff_view,
    failed_rules,
    in_error_words,
    pending_rules,
    plan_rules,
    predicted_rules,
    prepare_rules,
    required_features,
    rule_argument_spec,
    share_needs_wait_for_rules,
    without_secrets,
)
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    InvalidInput,
    ManilaError,
    NotFound,
)
from ansible_collections.openkeel.manila.plugins.module_utils.locks import (
    LockAPI,
    absent_refusal,
    brief as lock_brief,
    check_lock_input,
    locks_keeping,
    plan_locks,
    unseen_refusal,
    unseen_words,
)
from ansible_collections.openkeel.manila.plugins.module_utils.lookups import share_label
from ansible_collections.openkeel.manila.plugins.module_utils.metadata import normalize_metadata
from ansible_collections.openkeel.manila.plugins.module_utils.quotas import (
    FleetDemand,
    QuotaAPI,
    TypeIndex,
    replica_count,
)
from ansible_collections.openkeel.manila.plugins.module_utils.shares import (
    CREATE,
    DELETE,
    RESTORE,
    SOFT_DELETE,
    UPDATE,
    ResizeWatch,
    ShareAPI,
    check_create_options,
    diff_view,
    export_paths,
    marker_items,
    match_in_listing,
    plan_absent,
    purge_candidates,
    with_marker,
)
from ansible_collections.openkeel.manila.plugins.module_utils.states import (
    ACCESS_DENY_STATES,
    ACCESS_ERROR_STATES,
    ACCESS_RULES_STATUS_ACTIVE,
    ACCESS_RULES_STATUS_ERROR,
    SHARE_BUSY_STATES,
    SHARE_ERROR_STATES,
)
from ansible_collections.openkeel.manila.plugins.module_utils.waiter import (
    GONE,
    Pace,
    Step,
    counted,
    failure_words,
    gone_words,
    run_steps,
    timeout_words,
    with_user_messages,
)

# The jobs share the task's one client and keystoneauth Session: its identity
# plugin fetches (and refetches) the token under a lock, every request builds
# its own headers, and the requests Session below pools connections per host
# in urllib3, which is thread-safe (10 per host; run_steps never has more than
# ``concurrency`` open).
MAX_CONCURRENCY = 8

# A share's access_rules_status once Manila is done with its rule changes
SETTLED_RULES = ACCESS_RULES_STATUS_ACTIVE | ACCESS_RULES_STATUS_ERROR

# A poll reads the waiting shares one GET each instead of the project's listing
# while they are at most one per this many shares of the listing.  The listing
# costs Manila about its length (1,000 shares took pages of up to 15 s under
# load in the benchmark of docs/many-shares.md), a GET about as much as a
# listing of a few dozen shares; so a fleet of a few dozen shares always polls
# with one listing, a project of thousands by GETs near the end of a wave.
SHARES_PER_GET = 25


# The references a create names that are looked up before it (once per value in
# a task): the share network is resolved for every entry (plan_item), and a
# share type is checked by the quota preflight's read of its quotas, which
# Manila answers with 404 for a type it does not know (check_quotas).
CREATE_REFERENCES = ('availability_zone',)

# The options of an entry that apply with one state only (a ``share`` task has more).
ENTRY_ONE_STATE_OPTIONS = (('soft_delete', 'absent'),)


def share_argument_spec():
    """The options of one entry of the module's ``shares`` list: the share
    fields (share_steps.SHARE_FIELDS, shared with the ``share`` module), then
    those of an entry only."""
    return share_steps.argument_spec(
        state=dict(type='str', default='present', choices=['present', 'absent']),
        purge_metadata=dict(type='bool'),
        access_rules=dict(type='list', elements='dict', options=rule_argument_spec()),
        purge_rules=dict(type='bool'),
    )


def entry_desired(entry, marker, share_network_id=None):
    """The share an entry wants (share_steps.desired_state), the marker in its metadata."""
    desired = share_steps.desired_state(entry)
    desired.update(metadata=with_marker(entry['metadata'], marker),
                   share_network_id=share_network_id)
    return desired


def module_argument_spec(wait_spec):
    """The options of the ``shares`` module (``wait_spec``: wait and timeout)."""
    spec = dict(
        shares=dict(type='list', elements='dict', required=True, options=share_argument_spec(),
                    required_one_of=[('name', 'id')]),
        purge_metadata=dict(type='bool', default=False),
        purge_rules=dict(type='bool', default=False),
        marker=dict(type='dict', options=dict(
            key=dict(type='str', required=True, no_log=False),
            value=dict(type='str', required=True))),
        purge=dict(type='bool', default=False),
        concurrency=dict(type='int', default=4),
    )
    spec.update(wait_spec)
    return spec


def claimed_by(share, marker):
    """The value of the marker's key on a share when it differs from the
    marker's own (another task owns the share); None otherwise."""
    items = marker_items(marker)
    if not items or not share:
        return None
    metadata = share.get('metadata') or {}
    for key, value in items.items():
        if key in metadata and metadata[key] != value:
            return metadata[key]
    return None


class Item(object):
    """One share of the task: its entry, what was found, planned and done."""

    def __init__(self, index, entry, purged=False):
        self.index = index
        self.entry = entry
        self.purged = purged
        self.share = None          # the share as Manila last showed it
        self.outside = False       # found by ID, not in the project's listing
        self.binned = None         # a soft-deleted namesake (to restore)
        self.plan = None           # shares.SharePlan
        self.desired_rules = None  # prepared rules; None: rules not managed
        self.rules = None          # the rules as last read (None: not read)
        self.rules_before = []
        self.rule_plan = None
        self.desired = None        # the share as the task wants it (for a plan_update)
        self.purge_metadata = False
        self.touched = []
        self.allowed = []          # the rules this task allowed (IDs; see settle_twins)
        self.denied = []
        self.rule_writes = None    # the rule writes not sent yet (None: none queued)
        self.wait_for = None       # 'available' or GONE after a write
        self.resize = None         # a ResizeWatch while a resize is waited for
        self.wrote = False         # a write for this share was accepted
        self.rules_pending = False  # touched rules not active yet (after the status wait)
        self.exports = None
        self.error = None
        self.skipped = None        # why the share is left untouched (another task owns it)
        self.lock_plan = None      # locks.LockPlan (None: the locks are left as they are)
        self.locks = None          # the share's delete locks (None: not read)
        if purged:
            self.where = 'purged share %s (%s)' % (entry.get('name'), entry['id'])
        else:
            self.where = 'shares[%d] (%s)' % (index, entry.get('name') or entry.get('id'))

    @property
    def present(self):
        return self.entry['state'] == 'present'

    @property
    def ok(self):
        return self.error is None

    def skip(self, reason):
        """Leave the share untouched: nothing is planned or sent for it."""
        self.skipped = reason
        self.plan = None
        self.rule_plan = None
        self.lock_plan = None

    def fail(self, error):
        """Record why the share did not converge (the first reason counts)."""
        if self.error is None:
            if isinstance(error, ManilaError):
                # Manila's refusals keep their status and request id; input
                # problems found here are words only.
                error = str(error) if error.status is not None else error.message
            self.error = error

    @property
    def planned(self):
        """Whether the plan changes the share or its rules."""
        return bool((self.plan is not None and self.plan.changed)
                    or (self.rule_plan is not None and self.rule_plan.changed)
                    or self.lock_change)

    @property
    def lock_change(self):
        return self.lock_plan is not None and self.lock_plan.changed


def validate_desired(params):
    """The desired state checked before any request: every problem of every
    entry in one InvalidInput (nothing is sent), or the entries as Items."""
    p = params
    problems = []
    if not 1 <= p['concurrency'] <= MAX_CONCURRENCY:
        problems.append('concurrency must be 1 to %d, got %s.' % (MAX_CONCURRENCY, p['concurrency']))
    if p['purge'] and not p['marker']:
        problems.append('purge needs marker: only shares that carry the marker are ever '
                        'deleted by purge.')
    marker = marker_items(p['marker'])
    try:
        normalize_metadata(marker)
    except InvalidInput as exc:
        problems.append('marker: %s' % exc.message)
    items = []
    seen = {}
    for index, entry in enumerate(p['shares']):
        item = Item(index, entry)
        items.append(item)
        for key in ('name', 'id'):
            if entry[key] and (key, entry[key]) in seen:
                problems.append('%s and shares[%d] both give %s %r; list each share once.'
                                % (item.where, seen[(key, entry[key])], key, entry[key]))
            seen.setdefault((key, entry[key]), index)
        problems.extend('%s: %s' % (item.where, words) for words in share_steps.input_problems(
            entry, ENTRY_ONE_STATE_OPTIONS))
        problems.extend('%s: %s' % (item.where, words) for words in check_lock_input(
            entry['deletion_lock'], entry['lock_reason'], entry['state']))
        try:
            metadata = normalize_metadata(entry['metadata'])
        except InvalidInput as exc:
            problems.append('%s: %s' % (item.where, exc.message))
            continue
        for key, value in marker.items():
            if key in metadata and metadata[key] != value:
                problems.append('%s: metadata %s=%s contradicts the marker %s=%s.'
                                % (item.where, key, metadata[key], key, value))
    if problems:
        raise InvalidInput('Invalid shares, nothing was sent: %s' % ' '.join(problems))
    return items


class Fleet(object):
    """The shares of one task, converged (see the docstring of this file)."""

    def __init__(self, client, params, check_mode=False):
        self.client = client
        self.params = params
        self.check_mode = check_mode
        self.shares = ShareAPI(client, params['timeout'])
        self.access = AccessAPI(client, params['timeout'])
        self.locks = LockAPI(client)
        self.lock_map = None       # delete locks per share ID (None: not read)
        self.kept_locked = []      # purge candidates kept because they are locked
        self.default_type = None
        # The zones the creates name, as read: (option, value) -> resource
        self.references = {}
        # How many jobs run at once, for every run_steps of the task (reads,
        # then writes): O(concurrency) at most, lower after a rate limit.
        self.pace = Pace(params['concurrency'])
        # The length of the project's last listing (Fleet.fetch), None: not read
        self.listed = None

    def converge(self, items):
        """Find, plan and (unless in check mode) apply; returns the purged items."""
        client = self.client
        self.prepare_rules(items)
        if any(i.entry['deletion_lock'] is not None for i in items):
            self.locks.require('shares[].deletion_lock')
        listing = lookups.list_all(client, lookups.KINDS['share'].listing, 'shares')
        self.listed = len(listing)
        self.find(items, listing)
        self.read_locks(items)
        purged = self.purge_items(items, listing)
        self.wait_if_busy(items + purged)
        self.steps([i for i in items if i.present and i.share], Step(run=self.read_current))
        self.plan(items, purged)
        self.check_quotas(items)
        if not self.check_mode:
            self.apply(items, purged)
        return purged

    def check_quotas(self, items):
        """The quota preflight (before any write, also in check mode): what the
        planned creates and extends need against the room the project's quotas
        (and its share types' quotas) leave; InvalidInput naming the numbers.
        Costs nothing when nothing grows; skipped, with a warning, where the
        user may not read the quotas.

        It also bounds the writes in flight: a run it lets through asks for no
        more shares and gigabytes than the room left, and ``apply`` sends a
        create (or an extend) only for an item counted here, each once, so
        the creates in flight at any moment, whatever the concurrency, are a
        part of what fits (a purge's deletions are not counted as room).  No
        cap beside it is needed; what it cannot know is the room taken
        meanwhile by other tasks, or any room when it is skipped: then Manila
        refuses each create beyond the quota alone (an over-quota 413, never
        sent again)."""
        # One key per type (a name and an ID of one type count once), replicated
        # types counted in share_replicas and replica_gigabytes, the user quotas
        # of the task's user (creates) and of each share's owner (extends).
        creates, extends = [], []
        for item in items:
            plan = item.plan
            if not item.ok or plan is None:
                continue
            if plan.action == CREATE:
                share_type = item.entry['share_type'] or (self.default_type or {}).get('name')
                creates.append((share_type, item.desired['size'] or 0))
            elif plan.action == UPDATE and plan.new_size and plan.new_size > item.share['size']:
                share_type = item.share.get('share_type_name') or item.share.get('share_type')
                extends.append((share_type, item.share['size'], plan.new_size,
                                replica_count(self.client, item.share), item.share.get('user_id')))
        demand = FleetDemand(TypeIndex(self.default_type, [i.share for i in items if i.share]),
                             creates, extends)
        if demand.may_alias():
            demand.resolve(self.client)
        quotas = QuotaAPI(self.client)
        refusal = quotas.fleet_check(demand)
        for item in items:   # a type Manila has no quotas for is no type it knows
            entry = item.entry
            if item.ok and item.plan is not None and item.plan.action == CREATE and \
                    entry['share_type'] and demand.types.key(entry['share_type']) in quotas.unknown_types:
                item.fail(lookups.missing_input('share_type', entry['share_type'], 'share_type'))
                item.skip(None)   # nothing is planned for it (check mode's changed)
        if refusal:
            raise InvalidInput(refusal)

    def prepare_rules(self, items):
        """Every rule of every share checked at the negotiated version (before any write)."""
        problems = []
        features = []
        for item in items:
            rules = item.entry['access_rules']
            if not item.present or rules is None:
                continue
            try:
                item.desired_rules = prepare_rules(rules, self.client.version)
            except InvalidInput as exc:
                problems.append('%s: %s' % (item.where, exc.message))
                continue
            features.extend(f for f in required_features(item.desired_rules, 'present')
                            if f not in features)
        if problems:
            raise InvalidInput(' '.join(problems))
        for feature, what in features:
            self.client.require(feature, what)

    # -- reading ---------------------------------------------------------------
    def find(self, items, listing):
        """Each entry's share from the one listing (by ID outside it: one GET)."""
        owners = {}
        for item in items:
            entry = item.entry
            try:
                if entry['id']:
                    item.share = match_in_listing(listing, share_id=entry['id'])
                    if item.share is None:
                        item.share = self.shares.get(entry['id'])
                        item.outside = item.share is not None
                else:
                    item.share = match_in_listing(listing, name=entry['name'])
            except ManilaError as exc:
                item.fail(exc)
                continue
            if item.share is not None:
                other = owners.setdefault(item.share['id'], item)
                if other is not item:
                    item.fail('%s is the share of %s too; list each share once.'
                              % (share_label(item.share), other.where))

    def read_locks(self, items):
        """The delete locks of the project's shares (one listing), when the task
        names deletion_lock, deletes or purges, at API 2.81+."""
        if not (self.params['purge'] or any(
                i.entry['deletion_lock'] is not None or (not i.present and i.share)
                for i in items)) or not self.locks.supported():
            return
        self.lock_map = self.locks.by_share()
        for item in items:
            if item.share:
                item.locks = self.lock_map.get(item.share['id'], [])

    def purge_items(self, items, listing):
        if not self.params['purge']:
            return []
        names = set(i.entry['name'] for i in items if i.entry['name'])
        ids = set(i.entry['id'] for i in items if i.entry['id'])
        ids.update(i.share['id'] for i in items if i.share)
        purged = []
        for share in purge_candidates(listing, self.params['marker'], names, ids):
            locks = (self.lock_map or {}).get(share['id'])
            if locks:
                self.kept_locked.append(dict(id=share['id'], name=share.get('name'),
                                             deletion_locks=[lock_brief(x) for x in locks]))
                self.client.warn('purge kept %s: it is locked against deletion (%s).' % (
                    share_label(share), ', '.join(x['id'] for x in locks)))
                continue
            item = Item(None, dict(name=share.get('name'), id=share['id'], state='absent',
                                   deletion_lock=None), purged=True)
            item.share = share
            purged.append(item)
        return purged

    def fetch(self, items):
        """One poll of the waiting ``items``: the project's listing plus a GET
        for each share outside it, or a GET for each when they are few beside
        the listing's length (SHARES_PER_GET).  A share gone is not in the
        answer, either way."""
        polled = [item for item in items if item.share]
        if self.listed is None or len(polled) * SHARES_PER_GET > self.listed:
            listing = lookups.list_all(self.client, lookups.KINDS['share'].listing, 'shares')
            self.listed = len(listing)
            found = dict((s['id'], s) for s in listing)
            polled = [item for item in polled if item.outside]
        else:
            found = {}
        for item in polled:
            share = self.shares.get(item.share['id'])
            if share is not None:
                found[share['id']] = share
        return found

    def steps(self, items, *steps):
        """Take the items through the steps: jobs ``concurrency`` at a time at
        most (``self.pace``) on the one session, waits in one poll loop (one
        listing per poll)."""
        run_steps(self.client, [i for i in items if i.ok], steps, self.fetch,
                  lambda item: item.share['id'], self.params['timeout'],
                  workers=self.params['concurrency'], poll_failed=self.poll_failed,
                  pace=self.pace)

    @staticmethod
    def poll_failed(item, exc, failures):
        """The words for a share whose state could not be read (run_steps'
        ``poll_failed``): the listing failed, after the client's retries."""
        return ('%s: unknown: could not read its state (%s of the shares in a row '
                'failed): %s. %sRun the task again: it goes on from what Manila shows.' % (
                    share_label(item.share), counted(failures, 'listing'), exc,
                    'What the task asked of Manila for it was sent. ' if item.wrote else ''))

    def wait_if_busy(self, items):
        """Busy shares (creating, extending, ...) waited for until they rest."""
        busy = [i for i in items if i.ok and i.share and i.share.get('status') in SHARE_BUSY_STATES]
        if not self.params['wait']:
            for item in busy:
                try:
                    self.shares.must_wait(item.share, wait=False)
                except CannotConverge as exc:
                    item.fail(exc)
            return

        def rested(item, share):
            if share is None or share.get('status') not in SHARE_BUSY_STATES:
                item.share = share
                return True
            return None
        self.steps(busy, Step(check=rested, timed_out=self.timed_out('it to be done')))

    def read_current(self, item):
        """The rules and export locations of a share that exists (one job)."""
        share_id = item.share['id']
        item.rules = self.access.list(share_id)
        if not item.share.get('is_soft_deleted'):
            self.read_exports(item)

    def read_exports(self, item):
        # One read per share, on purpose.  A listing at API 2.8 (the share view
        # lost export_location(s) in 2.9) carries every share's paths, but only
        # as bare strings of every location, admin-only ones included, for
        # members too, with no is_admin_only nor preferred flag: export_paths
        # (admin-only left out, preferred first) cannot be built from it.
        locations = self.shares.export_locations(item.share['id'])
        item.share = dict(item.share, export_locations=locations)
        item.exports = export_paths(locations)

    # -- planning --------------------------------------------------------------
    def plan(self, items, purged):
        creates = [i for i in items if i.ok and i.present and i.share is None]
        for item in creates:
            if item.entry['id']:
                try:
                    share_steps.refuse_create(item.entry['id'], None)
                except InvalidInput as exc:
                    item.fail(exc)
        creates = [i for i in creates if i.ok]
        if creates and self.client.supports('soft_delete'):
            binned = lookups.list_all(self.client, lookups.KINDS['share'].listing, 'shares',
                                      {'is_soft_deleted': 'true'})
            for item in creates:
                try:
                    item.binned = match_in_listing(binned, name=item.entry['name'])
                except ManilaError as exc:
                    item.fail(exc)
        self.default_type = None
        if any(i.ok and not i.binned and not i.entry['share_type'] for i in creates):
            self.default_type = self.shares.default_share_type()
        binned = [i for i in creates if i.ok and i.binned]
        for item in binned:
            item.share = item.binned
        self.steps(binned, Step(run=self.read_current))
        networks = {}
        for item in items:
            if not item.ok or self.skip_claimed(item, item.share):
                continue
            try:
                self.plan_item(item, networks)
            except ManilaError as exc:
                item.fail(exc)
        for item in purged:
            if item.ok:
                item.plan = plan_absent(item.share)

    def skip_claimed(self, item, share):
        """Skip a share that another task's marker claims (True when skipped).

        The marker's key with another value means another task (a list with
        the same key) owns the share: this one neither changes nor deletes it,
        nor its rules, and says so in the share's result and a warning.
        """
        other = claimed_by(share, self.params['marker'])
        if other is None:
            return False
        key = self.params['marker']['key']
        item.skip('%s carries the marker %s=%s of another task (this task\'s marker is '
                  '%s=%s): it is left untouched.' % (
                      share_label(share), key, other, key, marker_items(self.params['marker'])[key]))
        self.client.warn('%s: %s' % (item.where, item.skipped))
        return True

    def plan_item(self, item, networks):
        p = self.params
        entry = item.entry
        if not item.present:
            if item.share and item.locks is not None and not item.share.get('is_soft_deleted'):
                refusal = absent_refusal(share_label(item.share), item.locks, entry['deletion_lock'])
                if refusal:
                    raise CannotConverge(refusal)
                item.lock_plan = plan_locks(item.locks, entry['deletion_lock'])
            item.plan = share_steps.plan_deletion(self.client, item.share, entry['soft_delete'])
            return
        network = entry['share_network']
        if network and network not in networks:
            networks[network] = lookups.resolve_id(self.client, 'share_network', network)
        desired = entry_desired(entry, p['marker'], networks.get(network))
        purge_metadata = p['purge_metadata'] if entry['purge_metadata'] is None \
            else entry['purge_metadata']
        purge_metadata = purge_metadata and entry['metadata'] is not None
        item.desired, item.purge_metadata = desired, purge_metadata

        def create():
            check_create_options(desired)
            share_steps.refuse_create(None, entry['name'], name_is_id=False)
            share_steps.require_share_type(entry['share_type'], self.default_type)
            share_steps.create_references(self.client, entry, self.references,
                                          CREATE_REFERENCES)
            if not entry['share_type']:   # the default type, read anyway (plan)
                share_steps.check_share_servers(self.default_type, entry['share_network'])
            item.rules = []
            return share_steps.plan_new(desired)
        item.plan = share_steps.plan_present(
            item.share, lambda: desired, restore=entry['restore'],
            purge_metadata=purge_metadata, rename=bool(entry['id']), create=create)
        if entry['deletion_lock'] is not None:
            if item.locks is None:  # a share to create or restore: no locks yet
                item.locks = []
            item.lock_plan = plan_locks(item.locks, entry['deletion_lock'], entry['lock_reason'])
        live = [r for r in item.rules if r.get('state') not in ACCESS_DENY_STATES]
        item.rules_before = rules_diff_view(live)
        self.plan_item_rules(item)

    def plan_item_rules(self, item):
        if item.desired_rules is not None:
            entry = item.entry
            purge = self.params['purge_rules'] if entry['purge_rules'] is None \
                else entry['purge_rules']
            item.rule_plan = plan_rules(item.rules, item.desired_rules, 'present', purge,
                                        update_in_place=self.client.supports('update_access_level'))

    # -- writing ---------------------------------------------------------------
    def apply(self, items, purged):
        """Each share at its own pace: its write, its wait, its rules, their wait,
        what the result needs; jobs a few at a time, waits in one poll loop."""
        wait = self.params['wait']

        def rules_change(item):
            return item.rule_plan is not None and item.rule_plan.changed

        def rules_busy(item):
            return item.share.get('access_rules_status') not in SETTLED_RULES

        self.steps(
            [i for i in items + purged if i.ok and i.plan is not None],
            Step(run=self.send_share, needed=lambda i: i.plan.changed),
            Step(check=self.share_reached_goal, needed=lambda i: wait and i.wait_for is not None,
                 timed_out=self.timed_out(None)),
            Step(run=self.settle_created, needed=lambda i: i.plan.action == CREATE and i.ok
                 and i.share is not None),
            Step(run=self.send_locks, needed=lambda i: i.lock_change and i.present
                 and i.share is not None),
            Step(check=self.rules_status_at_rest, needed=lambda i: rules_change(i) and rules_busy(i),
                 timed_out=self.timed_out('its access rules', 'access_rules_status')),
            Step(run=self.send_rule_write, needed=rules_change),
            Step(check=self.rules_status_at_rest,
                 needed=lambda i: rules_change(i) and (wait or bool(i.rule_writes)),
                 repeat=lambda i: bool(i.rule_writes),
                 timed_out=self.timed_out('its access rules', 'access_rules_status')),
            Step(run=self.settle_twins, needed=lambda i: bool(i.allowed)),
            Step(run=self.read_back, needed=lambda i: i.present and i.share is not None and (
                rules_change(i) or i.exports is None)),
            Step(check=self.rule_states, needed=lambda i: i.rules_pending,
                 timed_out=self.timed_out('its access rules', 'access_rules_status')))

    def send_share(self, item):
        plan = item.plan
        share = item.share
        if plan.action == CREATE:
            try:
                item.share = self.shares.create(plan.body)
            except NotFound as exc:
                asked = ', '.join('%s %r' % (k, item.entry[k]) for k in (
                    'share_type', 'share_network', 'availability_zone') if item.entry[k])
                raise NotFound('Manila could not create the share: %s Check %s.' % (
                    exc.message, asked or 'the default share type'), status=exc.status,
                    request_id=exc.request_id)
            item.wait_for = 'available'
        elif plan.action == RESTORE:
            item.share = share_steps.send_restore(self.shares, share)
            item.exports = None
            item.wait_for = 'available'
        elif plan.action == UPDATE:
            item.share = dict(share_steps.send_update(self.shares, share, plan),
                              export_locations=share.get('export_locations', []))
            item.wait_for = 'available' if plan.new_size else None
            item.resize = ResizeWatch(plan.new_size) if plan.new_size else None
        elif plan.action in (DELETE, SOFT_DELETE):
            return self.send_deletion(item)
        item.wrote = True

    def send_deletion(self, item):
        """The share's deletion (or its move to the recycle bin).  When the
        task lifts its locks first, the deletion is sent before, while they
        hold: Manila checks the delete locks of every project before anything
        else and names them all, those no listing shows this user too.  A
        refusal by the lifted locks alone goes on (lift, then the deletion);
        one by a lock the task does not lift keeps the share (``keep_locked``),
        before any write."""
        if item.lock_change:
            if self.deletion_sent(item, first=True):
                return
            self.send_locks(item)
        self.deletion_sent(item)

    def deletion_sent(self, item, first=False):
        """Send the deletion; True when it is done with (taken, or the share
        kept), False when ``first`` and refused for what the task does next."""
        share_id = item.share['id']
        try:
            share_steps.send_deletion(self.shares, share_id, item.plan.action == SOFT_DELETE)
        except ManilaError as exc:
            lifted = set(lock['id'] for lock in item.lock_plan.remove) if first else set()
            named = locks_keeping(exc, lifted, first)
            if named is None:
                return False
            self.keep_locked(item, named)
            return True
        item.wrote = True
        if item.plan.action == SOFT_DELETE:
            item.share = None
        else:
            item.wait_for = GONE
        return True

    def keep_locked(self, item, named):
        """A share whose deletion Manila refused for locks this task does not
        lift (of another project: no listing shows them to this user): kept,
        in ``kept_locked``, with a warning; not a failure."""
        share = item.share
        seen = [lock['id'] for lock in item.locks or []]
        item.locks = list(item.locks or []) + unseen_words([x for x in named if x not in seen])
        self.kept_locked.append(dict(id=share['id'], name=share.get('name'),
                                     deletion_locks=[lock_brief(x) for x in item.locks]))
        words = unseen_refusal(share_label(share), named, seen)
        if item.purged:
            self.client.warn('purge kept %s: it is locked against deletion (%s), by locks this '
                             'user cannot see.' % (share_label(share), ', '.join(named)))
        else:
            self.client.warn('%s: kept: %s' % (item.where, words))
        item.skipped = words
        item.plan = plan_absent(None)
        item.lock_plan = plan_locks(item.locks or [], None) if item.lock_plan is not None else None

    def send_locks(self, item):
        """The share's delete locks: removed before its deletion, created (or
        their reason changed) once it exists."""
        item.wrote = True
        item.locks = self.locks.apply(item.share['id'], item.lock_plan)

    def share_reached_goal(self, item, share):
        """A share that was written to: available (or gone) yet?"""
        if share is None:
            if item.wait_for != GONE:
                item.fail(gone_words(share_label(item.share), item.wait_for))
            item.share = None
            return True
        status = share.get('status')
        if status in SHARE_ERROR_STATES:
            item.share = dict(share, export_locations=[])
            words = failure_words(share_label(share), 'went to %s' % status,
                                  'its deletion' if item.wait_for == GONE else item.wait_for)
            if item.plan.action == CREATE:
                words += (' The share was created and is left in that state; delete it with '
                          'state=absent.')
            item.fail(with_user_messages(self.client, words, share['id']))
            return True
        if item.resize is not None:   # a resize: over once the new size shows
            refused = item.resize.refused(share)
            if refused:
                item.share = dict(share, export_locations=item.share.get('export_locations', []))
                item.fail(with_user_messages(self.client, failure_words(
                    share_label(share), refused, 'a size of %s GiB' % item.resize.new_size),
                    share['id']))
                return True
            if not item.resize.done(share):
                return None
        if item.wait_for != GONE and status == item.wait_for:
            item.share = dict(share, export_locations=item.share.get('export_locations', []))
            return True
        return None

    def settle_created(self, item):
        """After a create (and its wait): one share per name when tasks race
        (ShareAPI.settle_namesakes).  A task whose share is the newer one
        converges on the other task's share: its rules are read and planned
        again, and what differs from the task is changed."""
        wait = self.params['wait']
        share, adopted = self.shares.settle_namesakes(item.share, wait)
        if not adopted:
            return
        share, touched = share_steps.adopt(self.shares, share, item.desired, item.purge_metadata,
                                           wait, leave=lambda found: self.skip_claimed(item, found))
        item.share = dict(share, export_locations=[])
        item.exports = None
        item.rules = self.access.list(share['id'])
        if touched:
            self.plan_item_rules(item)

    def send_rule_write(self, item):
        """The share's next rule write that makes Manila sync its rules (after
        the metadata changes, which do not).  Manila can lose a rule change
        that reaches it while it applies another (AccessAPI.pacer), so each
        write waits for the one before it to settle; that wait is a step of the
        poll loop (apply: it repeats this job while writes are left), not a
        wait inside the job, so the job's place goes to another share."""
        if item.rule_writes is None:
            # Refuses (with the reason) a share in the recycle bin, migrating or busy.
            share_needs_wait_for_rules(self.client, item.share, wait=False)
            item.rule_writes = collections.deque(
                self.access.plan_writes(item.share['id'], item.rule_plan))
        item.wrote = True
        synced = False
        # one write that syncs, with the metadata changes that follow it
        while item.rule_writes and not (synced and item.rule_writes[0][1]):
            kind, syncs, send = item.rule_writes.popleft()
            rule_id = send()
            synced = synced or syncs
            if kind == 'deny':
                item.denied.append(rule_id)
            elif kind != 'metadata':
                item.touched.append(rule_id)
            if kind in ('allow', 'replace'):
                item.allowed.append(rule_id)

    def settle_twins(self, item):
        """One rule per target when another task allowed the same one at the same
        moment (AccessAPI.settle_twins): the newer twin is denied by its creator,
        which converges on the older one."""
        share_id = item.share['id']
        rules, kept = self.access.settle_twins(share_id, item.allowed,
                                               self.access.list(share_id),
                                               wait=self.params['wait'])
        swapped = dict(zip(item.allowed, kept))
        item.touched = [swapped.get(rule_id, rule_id) for rule_id in item.touched]
        item.allowed = kept
        item.rules = rules

    def rules_status_at_rest(self, item, share):
        """Manila is done with the share's rules: access_rules_status active or error.

        (It was set to syncing by the requests themselves.)"""
        if share is None:
            item.fail(gone_words(share_label(item.share), 'its access rules to be applied'))
            return True
        if share.get('access_rules_status') in SETTLED_RULES:
            item.share = dict(share, export_locations=item.share.get('export_locations', []))
            return True
        return None

    def read_back(self, item):
        """What the result needs after the writes: the rules, new export locations."""
        share_id = item.share['id']
        if item.rule_plan is not None and item.rule_plan.changed:
            if not item.allowed:     # settle_twins has just read them otherwise
                item.rules = self.access.list(share_id)
            item.rules_pending = self.params['wait'] and self.rules_done(item) is None
        if item.exports is None:
            self.read_exports(item)

    def rule_states(self, item, _share):
        """A share whose access_rules_status was already error (another rule):
        Manila did not mark it syncing, so its rules themselves are read."""
        item.rules = self.access.list(item.share['id'])
        return self.rules_done(item)

    def rules_done(self, item):
        """True when every rule this task touched is active and every denied one
        gone (failing the share for a rule in error, denied ones too: Manila marks
        a rule queued_to_deny before it answers, so error after that is a denial
        that failed); None while they are not."""
        failed = failed_rules(item.rules, set(item.touched) | set(item.denied))
        if failed:
            item.fail('%s %s' % (with_user_messages(self.client, failure_words(
                share_label(item.share), in_error_words(failed), 'its access rules to settle'),
                item.share['id']), LEFT_IN_ERROR))
            return True
        if pending_rules(item.rules, item.touched, item.denied):
            return None
        if item.share.get('access_rules_status') in ACCESS_RULES_STATUS_ERROR:
            others = [r for r in item.rules if r.get('state') in ACCESS_ERROR_STATES]
            self.client.warn('%s: the rules of this task are active, but access_rules_status '
                             'is error because of other rules: %s.' % (item.where, ', '.join(
                                 '%s:%s (%s)' % (r['access_type'], r['access_to'], r['id'])
                                 for r in others) or 'none listed'))
        return True

    # -- helpers ---------------------------------------------------------------
    def timed_out(self, goal, field='status'):
        """The words for a wait that ran out of time (a Step's ``timed_out``)."""
        def words(item, share):
            state = (share or item.share or {}).get(field, 'unknown')
            return with_user_messages(self.client, timeout_words(
                share_label(item.share), state, self.params['timeout'], goal or item.wait_for),
                item.share['id'])
        return words

    # -- result ----------------------------------------------------------------
    def changes(self, item):
        words = []
        plan = item.plan
        if plan is not None and plan.changed:
            if plan.action == UPDATE:
                if 'display_name' in plan.update:
                    words.append('renamed to %s' % plan.update['display_name'])
                if 'display_description' in plan.update:
                    words.append('description')
                if 'is_public' in plan.update:
                    words.append('made %s' % ('public' if plan.update['is_public'] else 'private'))
                if plan.new_size:
                    words.append('resized to %d GiB' % plan.new_size)
                if plan.metadata_set or plan.metadata_delete:
                    words.append('metadata')
            else:
                words.append({CREATE: 'created', RESTORE: 'restored', DELETE: 'deleted',
                              SOFT_DELETE: 'moved to the recycle bin'}[plan.action])
        if item.lock_change:  # lifted before a deletion, made after a create
            words[len(words) if item.present else 0:0] = item.lock_plan.words()
        rules = item.rule_plan
        if rules is not None and rules.changed:
            def label(rule):
                return '%s:%s' % (rule['access_type'], rule['access_to'])
            words.extend('allowed %s (%s)' % (label(r), r['access_level']) for r in rules.add)
            words.extend('level of %s to %s' % (label(c), level) for c, level in rules.update)
            words.extend('metadata of %s' % label(c) for c, _items in rules.metadata)
            words.extend('re-created %s (%s)' % (label(r), r['access_level'])
                         for _c, r in rules.replace)
            words.extend('denied %s' % label(c) for c in rules.remove)
        return words

    def result_of(self, item):
        entry = item.entry
        share = item.share or {}
        if not item.present and item.ok and not item.skipped:
            share = {}
        rules = item.rules or []
        if self.check_mode and item.rule_plan is not None:
            rules = predicted_rules(rules, item.rule_plan)
        result = dict(name=entry.get('name') or share.get('name'), id=share.get('id'),
                      state=entry['state'], changed=self.changed(item),
                      changes=self.changes(item) if self.changed(item) else [],
                      share=share, export_paths=item.exports or [],
                      rules=[without_secrets(r) for r in rules] if item.present else [],
                      failed=not item.ok, skipped=bool(item.skipped))
        if self.lock_map is not None or item.lock_plan is not None:
            locks = item.lock_plan.predicted() if self.check_mode and item.lock_change else item.locks
            result['deletion_locks'] = [lock_brief(x) for x in locks or []] if share else []
        if not item.ok:
            result['msg'] = item.error
        elif item.skipped:
            result['msg'] = item.skipped
        return result

    def changed(self, item):
        """Planned changes in check mode; changes Manila accepted otherwise."""
        return item.planned if self.check_mode else item.wrote

    def diff_of(self, item):
        plan = item.plan
        before, after = dict(plan.before), dict(plan.after)
        if plan.action == CREATE and not self.check_mode and item.share:
            after = diff_view(item.share)
        if item.lock_plan is not None:
            if before:
                before.update(item.lock_plan.before)
            if item.present:
                after.update(item.lock_plan.after)
        if item.rule_plan is not None:
            before['rules'] = item.rules_before
            if self.check_mode:
                after['rules'] = rules_diff_view(predicted_rules(item.rules or [], item.rule_plan))
            else:
                after['rules'] = rules_diff_view(r for r in item.rules or []
                                                 if r.get('state') not in ACCESS_DENY_STATES)
        return before, after

    def outcome(self, items, purged):
        """What the task returns: an Outcome (``msg`` set when a share failed)."""
        results = [self.result_of(item) for item in items]
        failures = [i for i in items + purged if not i.ok]
        total = len(items) + len(purged)
        purged = [i for i in purged if i.plan is not None and i.plan.changed]
        gone = [dict(id=i.entry['id'], name=i.entry['name']) for i in purged
                if self.check_mode or i.ok]
        changed = any(self.changed(i) for i in items + purged)
        before, after = {}, {}
        for item in items + purged:
            if self.changed(item) and item.plan is not None:
                before[item.where], after[item.where] = self.diff_of(item)
        msg = None
        if failures:
            msg = '%d of %d shares did not converge: %s' % (
                len(failures), total, ' | '.join('%s: %s' % (i.where, i.error) for i in failures))
        return Outcome(changed, before if changed else None, after if changed else None,
                       dict(shares=results, purged=gone, kept_locked=self.kept_locked,
                            manila_requests=self.client.sent,
                            concurrency=self.params['concurrency'],
                            pace=self.pace.summary()), msg)


class Outcome(object):
    """The task's result: ``changed``, the diff's ``before`` and ``after``, the
    result's fields (``shares``, ``purged``, ``manila_requests``, ``concurrency``, ``pace``) and, when a
    share did not converge, ``msg`` naming each."""

    def __init__(self, changed, before, after, result, msg=None):
        self.changed = changed
        self.before = before
        self.after = after
        self.result = result
        self.msg = msg
