# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Quotas and limits: the plan (pure functions), the fleet preflight, the calls.

Manila's rules (manila/api/v2/quota_sets.py, quota_class_sets.py,
manila/api/v1/limits.py):

- ``/quota-sets/{project}`` shows, updates (PUT) and deletes (back to the
  defaults) a project's quotas; ``?user_id=`` or ``?share_type=`` (2.39)
  narrows them to one user or one share type (not both). A user's or a type's
  quotas that were never set follow the project's.
- ``/quota-sets/{project}/detail`` gives ``limit``, ``in_use`` and
  ``reserved`` of each quota (2.25); ``/quota-sets/{project}/defaults`` the
  defaults (the quota class ``default``); ``/quota-class-sets/{class}`` a
  class (show and update; there is no delete).
- Quota names arrived with microversions: share groups 2.40, replicas 2.53,
  ``per_share_gigabytes`` 2.62, backups 2.80, ``encryption_keys`` 2.90;
  Manila refuses a newer name with 400.
- Manila writes the names of an update one after the other, in the order of
  the body, and refuses (400) at the first name it will not take, after the
  earlier ones are written. Without ``force: true`` it refuses (the checks
  of ``update`` and ``get_settable_quotas`` in manila/quota.py):

  - any scope: a limit below ``in_use + reserved`` where the current limit
    is not -1;
  - a project: a limit other than -1 below ``in_use + reserved`` (also
    where the current limit is -1), or below the sum of the quotas of its
    users (which no API lists: not knowable before the write);
  - a user or a share type: a limit below its own ``in_use + reserved``
    unless both it and the project's limit are -1 (so -1 while the
    project's limit is not), and a limit above the project's.

  Every limit must fit the database's column (2^31-1), with or without
  force. This module checks all it can know before it sends anything
  (``refusals``), sends the names that may still be refused first, and
  after a refusal reads the limits back and reports what was written.
- Deleting a project's quotas also deletes every user quota in it and the
  usage counts and reservations of the project (Manila counts them again
  at the next reservation); its share type quotas stay. Deleting a user's
  or a type's quotas deletes their usage counts and reservations too.
- Share type quotas take neither ``share_networks`` nor the share group
  quotas; user quotas take every name.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils import identity
from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    Forbidden,
    InvalidInput,
    ManilaError,
    NotFound,
)
from ansible_collections.openkeel.manila.plugins.module_utils.replicas import ReplicaAPI
from ansible_collections.openkeel.manila.plugins.module_utils.resource import (
    NOTHING,
    Plan,
)
from ansible_collections.openkeel.manila.plugins.module_utils.values import whole_number

# Manila's quota names, in the order Manila shows them; -1 is unlimited.
QUOTA_NAMES = ('shares', 'gigabytes', 'snapshots', 'snapshot_gigabytes', 'share_networks',
               'share_groups', 'share_group_snapshots', 'share_replicas',
               'replica_gigabytes', 'per_share_gigabytes', 'backups', 'backup_gigabytes',
               'encryption_keys')
# The names that need a newer API: name -> feature (microversions.FEATURES).
NAME_FEATURES = {
    'share_groups': 'share_group_quotas',
    'share_group_snapshots': 'share_group_quotas',
    'share_replicas': 'share_replica_quotas',
    'replica_gigabytes': 'share_replica_quotas',
    'per_share_gigabytes': 'per_share_gigabytes_quota',
    'backups': 'share_backup_quotas',
    'backup_gigabytes': 'share_backup_quotas',
    'encryption_keys': 'encryption_keys_quota',
}
# The largest limit Manila's database column holds (a larger one is refused,
# or fails, after the earlier names are written).
MAX_LIMIT = 2147483647
# What a share type's quotas cannot hold.
NOT_FOR_TYPES = ('share_networks', 'share_groups', 'share_group_snapshots')

# Plan actions (NOTHING from resource.py).
UPDATE = 'update'
RESET = 'reset'

# Manila's absolute limits (GET /limits) and the quota each one shows.
LIMIT_NAMES = {
    'maxTotalShares': 'shares', 'maxTotalShareGigabytes': 'gigabytes',
    'maxTotalShareSnapshots': 'snapshots', 'maxTotalSnapshotGigabytes': 'snapshot_gigabytes',
    'maxTotalShareNetworks': 'share_networks',
}


class Scope(object):
    """Whose quotas: a project (optionally one user of it or one share type),
    or a quota class."""

    def __init__(self, project_id=None, user_id=None, share_type=None, quota_class=None):
        self.project_id = project_id
        self.user_id = user_id
        self.share_type = share_type
        self.quota_class = quota_class

    def query(self):
        if self.user_id:
            return {'user_id': self.user_id}
        if self.share_type:
            return {'share_type': self.share_type}
        return None

    def describe(self):
        if self.quota_class:
            return 'quota class %s' % self.quota_class
        text = 'project %s' % self.project_id
        if self.user_id:
            text = 'user %s of %s' % (self.user_id, text)
        if self.share_type:
            text = 'share type %s in %s' % (self.share_type, text)
        return text


# -- validation --------------------------------------------------------------------

def validate(quotas, scope):
    """{name: int} of the task's quotas; InvalidInput for names and values Manila would
    refuse, before any request."""
    problems = []
    limits = {}
    for name in sorted(quotas or {}):
        value = whole_number(quotas[name])
        if name not in QUOTA_NAMES:
            problems.append('%r is not a Manila quota (one of %s).' % (
                name, ', '.join(QUOTA_NAMES)))
        elif value is None or value < -1:
            problems.append('quotas.%s must be a whole number, -1 for unlimited, got %r.'
                            % (name, quotas[name]))
        elif value > MAX_LIMIT:
            problems.append('quotas.%s is %d, above the largest limit Manila can hold '
                            '(%d); use -1 for unlimited.' % (name, value, MAX_LIMIT))
        elif scope.share_type and name in NOT_FOR_TYPES:
            problems.append('quotas.%s cannot be set for a share type (Manila keeps it per '
                            'project or user only).' % name)
        else:
            limits[name] = value
    if problems:
        raise InvalidInput('Invalid quotas, nothing was changed: %s' % ' '.join(problems))
    return limits


def required_features(quotas, scope):
    """[(feature, what)] the task needs, in the order of QUOTA_NAMES."""
    needed = []
    if scope.share_type:
        needed.append(('share_type_quotas', 'Quotas of a share type'))
    for name in QUOTA_NAMES:
        if name in (quotas or {}) and name in NAME_FEATURES:
            needed.append((NAME_FEATURES[name], 'The quota %s' % name))
    return needed


def limits_of(quota_set):
    """A quota set as Manila shows it -> {name: limit} (details: their limit)."""
    found = {}
    for name in QUOTA_NAMES:
        value = (quota_set or {}).get(name)
        if isinstance(value, dict):
            value = value.get('limit')
        if value is not None:
            found[name] = value
    return found


def details_of(quota_set):
    """A detail quota set -> {name: {limit, in_use, reserved}}."""
    found = {}
    for name in QUOTA_NAMES:
        value = (quota_set or {}).get(name)
        if isinstance(value, dict):
            found[name] = {'limit': value.get('limit'), 'in_use': value.get('in_use', 0),
                           'reserved': value.get('reserved', 0)}
    return found


# -- the plan ----------------------------------------------------------------------

class QuotaPlan(Plan):
    """What to do to one set of quotas.

    ``action``: UPDATE (``body``: the names to send), RESET (delete: back to
    the defaults) or NOTHING; ``before``/``after``: {name: limit} of the names
    that count.
    """

    def __init__(self, action, body=None, before=None, after=None):
        super(QuotaPlan, self).__init__(action, before, after)
        self.body = body or {}


def plan_present(actual, desired):
    """Bring ``actual`` ({name: limit}) to ``desired``; names left out stay."""
    body = dict((name, value) for name, value in desired.items()
                if actual.get(name) != value)
    before = dict((name, actual.get(name)) for name in desired)
    after = dict(before, **body)
    return QuotaPlan(UPDATE if body else NOTHING, body=body, before=before, after=after)


# What a reset deletes besides the limits, as the diff shows it.
RESET_SIDE_EFFECTS = 'side effects of the reset'
USER_QUOTAS_REFUSAL = (
    'Deleting the quotas of %s also deletes every user quota set in the project, and '
    'Manila offers no listing of a project\'s user quotas, so the task cannot know '
    'whether there are any (it does reset the usage counts until Manila\'s next '
    'reservation recounts them; share type quotas stay). Nothing was changed. Set '
    'delete_user_quotas=true to delete them with the project\'s quotas, or set the '
    'project\'s limits to the defaults with state=present, which keeps user quotas.')


def plan_absent(actual, reference, scope=None):
    """Back to ``reference`` (the defaults of a project; for a user or a share
    type, the project's quotas, which they follow once theirs are deleted).
    With ``scope``, a reset's diff also shows what Manila deletes with the
    limits (``RESET_SIDE_EFFECTS``)."""
    names = [name for name in QUOTA_NAMES if name in actual and name in reference]
    differ = [name for name in names if actual[name] != reference[name]]
    if not differ:
        return QuotaPlan(NOTHING, before=dict((n, actual[n]) for n in names),
                         after=dict((n, actual[n]) for n in names))
    plan = QuotaPlan(RESET, before=dict((n, actual[n]) for n in names),
                     after=dict((n, reference[n]) for n in names))
    if scope is not None:
        plan.before[RESET_SIDE_EFFECTS], plan.after[RESET_SIDE_EFFECTS] = reset_effects(scope)
    return plan


def reset_effects(scope):
    """(before, after) words of what Manila's delete of ``scope``'s quotas does
    besides the limits."""
    if scope.user_id or scope.share_type:
        return ('usage counts and reservations of %s kept' % scope.describe(),
                'usage counts and reservations of %s deleted (0 until Manila\'s next '
                'reservation counts them again)' % scope.describe())
    return ('user quotas of the project (Manila lists none) kept; usage counts and '
            'reservations kept',
            'every user quota of the project deleted; usage counts and reservations '
            'deleted (0 until Manila\'s next reservation counts them again); share type '
            'quotas kept')


def below_use(plan, details):
    """The names ``plan`` would set below what is used and reserved, as Manila
    checks it (not where the current limit is -1): [(name, new, used)]."""
    found = []
    for name in QUOTA_NAMES:
        if name not in plan.body or name not in details:
            continue
        value, detail = plan.body[name], details[name]
        used = (detail.get('in_use') or 0) + (detail.get('reserved') or 0)
        if value >= 0 and (detail.get('limit') or 0) >= 0 and used > value:
            found.append((name, value, used))
    return found


def below_use_message(scope, found):
    return ('%s uses more than the task allows: %s. Manila refuses a limit below what '
            'is used and reserved; nothing was changed. Free the resources first, or set '
            'force=true to set the limits anyway (Manila then refuses new resources until '
            'the use falls below the limit; nothing is deleted).' % (
                scope.describe()[:1].upper() + scope.describe()[1:],
                ', '.join('%s %d in use and reserved, %d asked' % (n, u, v)
                          for n, v, u in found)))


def _used(detail):
    return (detail.get('in_use') or 0) + (detail.get('reserved') or 0)


def refusals(scope, body, details, project=None):
    """What Manila would refuse of ``body`` without force, beyond ``below_use``
    (Manila's settable range, ``get_settable_quotas``): [(name, asked, words)].

    ``details``: the scope's quota detail (``details_of``); ``project``: the
    project's limits ({name: limit}) for a user or a share type (None for a
    project).  Each entry names the quota, the value asked and the limit it
    hits."""
    found = []
    sub = bool(scope.user_id or scope.share_type)
    for name in QUOTA_NAMES:
        if name not in body:
            continue
        value, detail = body[name], details.get(name) or {}
        used = _used(detail)
        limit = (project or {}).get(name)
        if sub and limit is not None and limit >= 0 and value == -1:
            found.append((name, value, 'unlimited (-1), while the project\'s limit is %d '
                                       '(a user or a share type cannot go above it)' % limit))
        elif sub and limit is not None and limit >= 0 and value > limit:
            found.append((name, value, '%d, above the project\'s limit %d' % (value, limit)))
        elif value >= 0 and used > value and (detail.get('limit') or 0) < 0:
            found.append((name, value, '%d, below the %d in use and reserved (Manila checks '
                                       'this also where the limit is -1)' % (value, used)))
    return found


def refusal_message(scope, below, others):
    """One message for what ``below_use`` and ``refusals`` found."""
    if not others:
        return below_use_message(scope, below)
    words = ['%s %d in use and reserved, %d asked' % (n, u, v) for n, v, u in below]
    words.extend('quotas.%s %s' % (n, w) for n, _v, w in others)
    what = scope.describe()
    return ('Manila would refuse these limits of %s: %s. Manila writes quota names one by '
            'one and refuses at the first it will not take, after the earlier ones are '
            'written; nothing was changed. Change the limits, or set force=true to set them '
            'anyway (nothing is deleted).' % (what, '; '.join(words)))


def send_order(scope, body, actual):
    """``body`` with the names Manila may still refuse first: for a project, a
    lowered limit may be below the sum of its users' quotas, which no API
    lists.  A single such name is then refused before anything is written."""
    if scope.user_id or scope.share_type or scope.quota_class:
        return dict(body)

    def lowered(name):
        before = actual.get(name)
        value = body[name]
        return value != -1 and (before is None or before == -1 or value < before)
    names = [n for n in body if lowered(n)] + [n for n in body if not lowered(n)]
    return dict((n, body[n]) for n in names)


def written_before_refusal(body, before, now):
    """{name: (old, new)} of the names of ``body`` that ``now`` shows written."""
    return dict((name, (before.get(name), value)) for name, value in body.items()
                if now.get(name) == value and before.get(name) != value)


# -- the fleet preflight -----------------------------------------------------------

def _room(detail):
    """(room, limit) of one quota detail; room None: unlimited."""
    if not detail or detail.get('limit') is None or detail['limit'] < 0:
        return None, None
    used = (detail.get('in_use') or 0) + (detail.get('reserved') or 0)
    return max(detail['limit'] - used, 0), detail['limit']


# What a share's create or extend reserves, as the preflight counts it.
FLEET_COUNTED = ('shares', 'gigabytes', 'share_replicas', 'replica_gigabytes')


def fleet_preflight(detail, needs, type_details=None, user_details=None):
    """The refusal message when a run would exceed a quota, else None.

    ``detail``: the project's quota detail ({name: {limit, in_use,
    reserved}}, ``details_of``); ``needs``: what the run would add:
    ``shares`` (shares to create), ``gigabytes`` (the sizes of the shares to
    create plus the growth of the shares to extend), ``share_replicas`` and
    ``replica_gigabytes`` (what the shares of replicated types reserve),
    ``largest`` (the largest size a share would have after the run: created
    or extended), ``per_type`` ({type: amounts}) and ``per_user`` ({user ID:
    amounts}).  ``type_details`` / ``user_details``: {type or user: detail}
    of those in ``per_type`` / ``per_user`` (one left out is not checked).
    """
    problems = []

    def check(what, detail_of, amounts, skip=()):
        wanted = []
        rooms = []
        for name in FLEET_COUNTED:
            amount = amounts.get(name, 0)
            room, limit = _room((detail_of or {}).get(name))
            if name in skip:
                continue
            if room is not None and amount > room:
                wanted.append('%d %s' % (amount, name))
                rooms.append('%d (limit %d)' % (room, limit))
        if wanted:
            problems.append('%s: this run would need %s more; it has room for %s' % (
                what, ' and '.join(wanted), ' and '.join(rooms)))

    check('The project', detail, needs)
    largest = needs.get('largest') or 0
    limit = ((detail or {}).get('per_share_gigabytes') or {}).get('limit')
    if limit is not None and 0 <= limit < largest:
        problems.append('a share of %d GiB exceeds per_share_gigabytes %d' % (largest, limit))
    for share_type in sorted(needs.get('per_type') or {}):
        if share_type in (type_details or {}):
            check('Share type %s' % share_type, type_details[share_type],
                  needs['per_type'][share_type])
    for user in sorted(needs.get('per_user') or {}):
        if user in (user_details or {}):
            # A limit equal to the project's (a user without quotas of its own shows
            # the project's) leaves at least the project's room: the project's check
            # covers it.
            same = [name for name in FLEET_COUNTED
                    if _room(user_details[user].get(name))[1] == _room(
                        (detail or {}).get(name))[1]]
            check('The quotas of user %s' % user, user_details[user], needs['per_user'][user],
                  skip=same)
    if not problems:
        return None
    return ('Over quota, nothing was changed: %s. Raise the quotas '
            '(openkeel.manila.share_quota, as an admin) or ask for fewer or smaller '
            'shares.' % '; '.join(problems))


def _add(amounts, **more):
    for name, amount in more.items():
        if amount:
            amounts[name] = amounts.get(name, 0) + amount


def fleet_needs(creates, extends, user=None):
    """``needs`` for fleet_preflight from ``creates`` [(share_type, size[,
    replicated])] and ``extends`` [(share_type, old size, new size[,
    replicas, owner])]; a share type is a name or an ID (one key per type:
    see ``TypeIndex``), None where the task names none (then only the
    project's quotas count: the caller may pass the cloud's default type
    instead).  A create of a replicated type reserves a replica and its
    size in replica gigabytes; an extend reserves the growth in replica
    gigabytes once per replica (``replicas``, the active one included: 0
    for a type without replication).  ``user``: the task's user, whose
    quotas a create counts against (an extend counts against its share's
    ``owner``); the keys share_replicas, replica_gigabytes and per_user
    appear only when something counts there."""
    needs = {'shares': len(creates), 'gigabytes': 0, 'largest': 0, 'per_type': {}}
    users = {}
    for create in creates:
        share_type, size, replicated = (tuple(create) + (False,))[:3]
        needs['gigabytes'] += size
        needs['largest'] = max(needs['largest'], size)
        replicas = {'share_replicas': 1, 'replica_gigabytes': size} if replicated else {}
        _add(needs, **replicas)
        if share_type:
            per = needs['per_type'].setdefault(share_type, {'shares': 0, 'gigabytes': 0})
            per['shares'] += 1
            per['gigabytes'] += size
            _add(per, **replicas)
        if user:
            _add(users.setdefault(user, {}), shares=1, gigabytes=size, **replicas)
    for extend in extends:
        share_type, old, new, replicas, owner = (tuple(extend) + (0, None))[:5]
        if new <= old:
            continue
        growth = new - old
        needs['gigabytes'] += growth
        needs['largest'] = max(needs['largest'], new)
        _add(needs, replica_gigabytes=replicas * growth)
        if share_type:
            per = needs['per_type'].setdefault(share_type, {'shares': 0, 'gigabytes': 0})
            per['gigabytes'] += growth
            _add(per, replica_gigabytes=replicas * growth)
        if owner:
            _add(users.setdefault(owner, {}), gigabytes=growth,
                 replica_gigabytes=replicas * growth)
    if users:
        needs['per_user'] = users
    return needs


class TypeIndex(object):
    """The share types of a fleet run by name and by ID, one key each (the
    name where known, else the ID), and whether each replicates: from what
    the run read already (the default type, the shares' own type ID and
    name) and, when a create names a type none of those shows, one listing
    of the types (``load``)."""

    def __init__(self, default_type=None, shares=()):
        self.types = {}
        if default_type:
            self.add(default_type.get('id'), default_type.get('name'),
                     (default_type.get('extra_specs') or {}).get('replication_type'))
        for share in shares:
            self.add(share.get('share_type'), share.get('share_type_name'),
                     share.get('replication_type'))

    def add(self, type_id, name, replication):
        found = {'key': name or type_id, 'replicated': bool(replication)}
        for value in (type_id, name):
            if value:
                self.types[value] = found

    def knows(self, value):
        return value in self.types

    def load(self, client):
        """Read every type this user sees, once (a create of a type the run
        has not seen)."""
        kind = lookups.KINDS['share_type']
        for found in lookups.list_all(client, kind.listing, kind.list_key,
                                      query=dict(kind.listing_query)):
            self.add(found.get('id'), found.get('name'),
                     (found.get('extra_specs') or {}).get('replication_type'))

    def key(self, value):
        return self.types[value]['key'] if value in self.types else value

    def replicated(self, value, assume=False):
        """Whether type ``value`` replicates; ``assume`` for a type not known."""
        if value in self.types:
            return self.types[value]['replicated']
        return bool(value) and assume


class FleetDemand(object):
    """What a fleet run would reserve, before its types are all known:
    ``creates`` [(type name or ID, size)], ``extends`` [(type, old size, new
    size, replicas, owner)].  ``needs`` counts a type no read showed as not
    replicated, or (``assume``) as replicated: the preflight reads the types
    (``resolve``) only when the two differ in their verdict, or when a type
    could be another one named otherwise (a name in one entry, an ID in
    another)."""

    def __init__(self, types, creates, extends):
        self.types = types
        self.creates = creates
        self.extends = extends

    def uncertain(self):
        return any(ref and not self.types.knows(ref) for ref, _size in self.creates)

    def may_alias(self):
        refs = set(self.types.key(ref) for ref, _size in self.creates if ref)
        refs.update(self.types.key(extend[0]) for extend in self.extends if extend[0])
        return self.uncertain() and len(refs) > 1

    def resolve(self, client):
        self.types.load(client)

    def needs(self, user=None, assume=False):
        types = self.types
        creates = [(types.key(ref), size, types.replicated(ref, assume))
                   for ref, size in self.creates]
        extends = [(types.key(extend[0]),) + tuple(extend[1:]) for extend in self.extends]
        return fleet_needs(creates, extends, user)


def replica_count(client, share):
    """How many replicas an extend of ``share`` grows (the active one
    included), as Manila counts them: 0 for a type without replication."""
    if not share.get('replication_type'):
        return 0
    if not share.get('has_replicas'):
        return 1
    return max(len(ReplicaAPI(client).list_for_share(share['id'])), 1)


PREFLIGHT_SKIPPED = ('The quota preflight was skipped: this user may not read the quotas of '
                     'the project (%s); Manila still refuses what exceeds them, share by '
                     'share.')


# -- projects ----------------------------------------------------------------------

def resolve_project(client, value):
    """The ID of project ``value`` (name or ID; None: the task's own project).

    The task's own project is known from its token; any other is asked from
    Keystone (``identity.find_projects``), which members may not do.
    """
    own = client.token_project()
    if value is None:
        if own is None:
            raise InvalidInput('project is required (the session does not say which '
                               'project its token is scoped to).')
        return own['id']
    if own is not None and value in (own['id'], own['name']):
        return own['id']
    try:
        found = identity.find_projects(client, value)
    except Forbidden:
        raise InvalidInput('Keystone does not let this user look up project %r: only the '
                           'task\'s own project (%s) can be named without an admin.' % (
                               value, own['name'] if own else 'unknown'))
    if not found:
        raise InvalidInput('No project %r exists in Keystone.' % value)
    if len(found) > 1:
        raise InvalidInput('%d projects are named %r (in different domains): %s. Give the '
                           'project ID.' % (len(found), value,
                                            ', '.join(sorted(p['id'] for p in found))))
    return found[0]['id']


# -- calls -------------------------------------------------------------------------

class QuotaAPI(object):
    """The quota calls; every write through ``client.write_once``."""

    def __init__(self, client):
        self.client = client
        # The share types fleet_check found unknown (Manila answered their
        # quota detail with 404): the fleet refuses the creates of each.
        self.unknown_types = []

    @staticmethod
    def _path(scope, tail=''):
        if scope.quota_class:
            return 'quota-class-sets/%s' % scope.quota_class
        return 'quota-sets/%s%s' % (scope.project_id, tail)

    def limits(self, scope):
        """{name: limit} of the scope."""
        body = self.client.get(self._path(scope), query=scope.query())
        return limits_of(body.get('quota_class_set' if scope.quota_class else 'quota_set'))

    def details(self, scope):
        """{name: {limit, in_use, reserved}} of a project, user or type."""
        body = self.client.get(self._path(scope, '/detail'), query=scope.query(),
                               feature='quota_details')
        return details_of(body.get('quota_set'))

    def defaults(self, project_id):
        body = self.client.get('quota-sets/%s/defaults' % project_id)
        return limits_of(body.get('quota_set'))

    def project_limits(self, project_id):
        """What the quotas of a user or a share type fall back to: the project's quotas."""
        return self.limits(Scope(project_id=project_id))

    def fleet_check(self, needs):
        """The preflight of a fleet run in the task's own project (``needs``:
        a ``fleet_needs`` dict, or a ``FleetDemand``): the refusal
        message (``fleet_preflight``) or None; None with a warning on the
        client when this user may not read the quotas (the preflight is then
        skipped).  Reads the project's quota detail, and that of each share
        type in ``needs['per_type']`` that adds shares or gigabytes, and of
        each user in ``needs['per_user']`` (a user's own quotas: those a
        create of the task's user and an extend of the share's owner count
        against)."""
        demand = needs if isinstance(needs, FleetDemand) else None
        user = None
        if demand is not None:
            user = self.client.token_user_id()
            needs = demand.needs(user)
        if not needs.get('shares') and not needs.get('gigabytes'):
            return None
        own = self.client.token_project()
        if own is None or not own.get('id'):
            return None
        try:
            detail = self.details(Scope(project_id=own['id']))
        except (Forbidden, NotFound) as exc:
            self.client.warn(PREFLIGHT_SKIPPED % exc)
            return None
        types = {}
        if self.client.supports('share_type_quotas'):
            for share_type in sorted(needs.get('per_type') or {}):
                try:
                    types[share_type] = self.details(Scope(project_id=own['id'],
                                                           share_type=share_type))
                except NotFound:
                    self.unknown_types.append(share_type)  # no such type (fleet.check_quotas)
                    continue
        users = {}
        for user in sorted(needs.get('per_user') or {}):
            try:
                users[user] = self.details(Scope(project_id=own['id'], user_id=user))
            except (Forbidden, NotFound):
                continue  # another user's quotas: the project's and the type's still count
        refusal = fleet_preflight(detail, needs, types, users)
        if refusal or demand is None or not demand.uncertain():
            return refusal
        if fleet_preflight(detail, demand.needs(user, assume=True),
                           types, users) is None:
            return None
        demand.resolve(self.client)   # whether the types replicate decides
        return self.fleet_check(demand)

    def absolute_limits(self):
        """Manila's absolute limits of the task's project (GET /limits)."""
        return self.client.get('limits').get('limits', {}).get('absolute', {})

    # -- writes ------------------------------------------------------------------
    def update(self, scope, body, force=False, before=None):
        """Send ``body`` (in its order); ``before``: the limits it changes from.
        A refusal (400) is read back: the names Manila wrote before it are
        recorded as an accepted write and named in the error."""
        key = 'quota_class_set' if scope.quota_class else 'quota_set'
        sent = dict(body)
        if force and not scope.quota_class:
            sent['force'] = True
        path = self._path(scope)

        def observe():
            now = self.limits(scope)
            return now if all(now.get(k) == v for k, v in body.items()) else None
        try:
            return self.client.write_once(
                lambda: limits_of(self.client.request('PUT', path, body={key: sent},
                                                      query=scope.query()).get(key)),
                observe, 'the quota update of %s' % scope.describe())
        except ManilaError as exc:
            if exc.status != 400 or before is None:
                raise
            refused = exc
        now = self.limits(scope)
        written = written_before_refusal(body, before, now)
        name = next((n for n in body if n not in written), None)
        text = 'Manila refused %s: %s.' % (
            'quotas.%s %s of %s' % (name, body[name], scope.describe()) if name else
            'the quota update of %s' % scope.describe(), refused.message.rstrip('.'))
        if written:
            self.client.record_write('PUT', path + ' (%s, before the refusal)'
                                     % ', '.join(written))
            text += (' It had already written %s (Manila writes the names one by one); the '
                     'others are as they were.' % ', '.join(
                         '%s %s -> %s' % (n, o, v) for n, (o, v) in written.items()))
        else:
            text += ' Nothing was written.'
        raise ManilaError(text, status=refused.status, request_id=refused.request_id,
                          method=refused.method, url=refused.url, result={'quotas': now})

    def reset(self, scope, reference):
        """Delete the scope's quotas (back to ``reference``)."""
        path = self._path(scope)

        def observe():
            now = self.limits(scope)
            return now if all(now.get(k) == v for k, v in reference.items()
                              if k in now) else None
        self.client.write_once(lambda: self.client.request('DELETE', path,
                                                           query=scope.query()), observe,
                               'the quota reset of %s' % scope.describe())
