# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Share replicas: the plan (desired vs actual, pure functions) and the calls.

``plan(share, replicas, desired)`` answers "what must happen to this share's
replicas" from what Manila shows and the task, as a ``ReplicaPlan`` (action, before,
after, changed); ``ReplicaAPI`` sends it and waits.  The ``share_replica``
and ``share_replica_info`` modules and the ``share_failover`` role use both.

Replication is experimental below API 2.56: every replica call carries the
experimental header there (the ``share_replicas`` feature of
microversions.FEATURES).  A replica's own export locations need 2.47.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    InvalidInput,
)
from ansible_collections.openkeel.manila.plugins.module_utils.kinds import (
    KINDS,
    replica_label as label,
    share_label,
)
from ansible_collections.openkeel.manila.plugins.module_utils.resource import (
    NOTHING,
    Plan,
    ResourceAPI,
    if_found,
)
from ansible_collections.openkeel.manila.plugins.module_utils.shares import (
    export_paths,
    sort_export_locations,
)
from ansible_collections.openkeel.manila.plugins.module_utils.states import (
    REPLICA_AVAILABLE,
    REPLICA_BUSY_STATES,
    REPLICA_ERROR_STATES,
    REPLICA_LEAVING_STATES,
    REPLICA_STATE_ACTIVE,
    REPLICA_STATE_ERROR,
    REPLICA_STATE_IN_SYNC,
    REPLICA_STATE_OUT_OF_SYNC,
)
from ansible_collections.openkeel.manila.plugins.module_utils.waiter import wait_until

# Plan actions (NOTHING from resource.py).
CREATE = 'create'
DELETE = 'delete'
PROMOTE = 'promote'
RESYNC = 'resync'

VIEW_FIELDS = ('id', 'share_id', 'status', 'replica_state', 'availability_zone', 'host',
               'share_network_id')


def view(replica):
    """The part of a replica shown in diffs and results that list several."""
    if not replica:
        return {}
    return dict((k, replica.get(k)) for k in VIEW_FIELDS)


def is_active(replica):
    return replica.get('replica_state') == REPLICA_STATE_ACTIVE


def present(replicas):
    """Replicas that are not on their way out."""
    return [r for r in replicas if r.get('status') not in REPLICA_LEAVING_STATES]


def active_replica(replicas):
    found = [r for r in present(replicas) if is_active(r)]
    return found[0] if found else None


def secondaries(replicas, zone=None):
    """The replicas besides the active one (in ``zone`` when given), oldest first."""
    found = [r for r in present(replicas) if not is_active(r)
             and (zone is None or r.get('availability_zone') == zone)]
    return sorted(found, key=lambda r: (str(r.get('created_at') or ''), r['id']))


class ReplicaPlan(Plan):
    """What to do: ``action`` (create, delete, promote, resync, nothing) on
    ``targets`` (replicas; none for create), ``body`` (the create body) and the
    ``before``/``after`` views of the share's replicas (lists: one view per
    replica)."""

    def __init__(self, action, before=None, after=None, targets=None, body=None):
        super(ReplicaPlan, self).__init__(action, before if before is not None else [],
                                          after if after is not None else [])
        self.targets = targets or []
        self.body = body

    def __repr__(self):
        return 'ReplicaPlan(%r, %r)' % (self.action, [t['id'] for t in self.targets])


# -- refusals before any write ----------------------------------------------------

def check_replicable(share):
    """Refuse a share Manila would not replicate, before any write."""
    if not share.get('replication_type'):
        raise InvalidInput(
            'share: %s cannot have replicas: its share type %s has no replication_type '
            'extra spec (Manila replicates only shares of a type with replication_type '
            'readable, writable or dr, on backends of one replication_domain). '
            'openkeel.manila.share_capabilities_info shows which types replicate here.'
            % (share_label(share), share.get('share_type_name') or share.get('share_type')))
    if share.get('share_group_id'):
        raise InvalidInput('share: %s is in a share group; Manila replicates no share of '
                           'a group.' % share_label(share))
    if share.get('is_soft_deleted'):
        raise InvalidInput('share: %s is in the recycle bin; restore it first.'
                           % share_label(share))


class ReplicaInError(CannotConverge):
    """A replica in an error state; ``replica`` is it (the module adds Manila's
    user messages about it)."""

    def __init__(self, message, replica):
        super(ReplicaInError, self).__init__(message)
        self.replica = replica


def in_error(replica):
    """In an error status, or in replica_state error."""
    return (replica.get('status') in REPLICA_ERROR_STATES
            or replica.get('replica_state') == REPLICA_STATE_ERROR)


def others_in_error(replicas, replica_id):
    """The replicas besides ``replica_id`` that are in error (a promotion leaves them)."""
    return [r for r in present(replicas) if r['id'] != replica_id and in_error(r)]


def check_healthy(replica):
    """Replicas in error fail the task with what Manila says (the caller adds it)."""
    if in_error(replica):
        raise ReplicaInError(
            '%s is in status %s, replica_state %s. Delete it (state=absent, id=%s) and '
            'run again, or ask an admin to repair it.' % (
                label(replica), replica.get('status'), replica.get('replica_state'),
                replica['id']), replica)


def find_target(replicas, desired):
    """The replica named by ``id`` (None when it is not among the share's)."""
    for replica in replicas:
        if replica['id'] == desired.get('id'):
            return replica
    return None


def views(replicas):
    return [view(r) for r in present(replicas)]


def _with(replicas, changes):
    """The views of ``replicas`` with ``changes`` (id -> fields; None: removed)."""
    result = []
    for replica in present(replicas):
        if replica['id'] in changes and changes[replica['id']] is None:
            continue
        result.append(dict(view(replica), **changes.get(replica['id'], {})))
    return result


# -- the planner -------------------------------------------------------------------

def plan(share, replicas, desired):
    """What the task asks of ``share`` whose replicas Manila shows as ``replicas``.

    ``desired``: state (present, absent, active), id, availability_zone,
    share_network (an ID), resync (bool).
    """
    state = desired.get('state') or 'present'
    if state == 'absent':
        return plan_absent(replicas, desired)
    check_replicable(share)
    if state == 'active':
        return plan_active(replicas, desired)
    return plan_present(share, replicas, desired)


def plan_present(share, replicas, desired):
    zone = desired.get('availability_zone')
    if desired.get('id'):
        target = find_target(replicas, desired)
        if target is None or target.get('status') in REPLICA_LEAVING_STATES:
            raise InvalidInput('id: share %s has no replica %s; leave out id to make one.'
                               % (share['id'], desired['id']))
        found = [target]
    else:
        found = secondaries(replicas, zone)
    if not found:
        body = {'share_id': share['id']}
        if zone:
            body['availability_zone'] = zone
        if desired.get('share_network'):
            body['share_network_id'] = desired['share_network']
        new = {'id': '(new)', 'share_id': share['id'], 'status': REPLICA_AVAILABLE,
               'replica_state': REPLICA_STATE_IN_SYNC, 'availability_zone': zone,
               'share_network_id': desired.get('share_network')}
        return ReplicaPlan(CREATE, views(replicas), views(replicas) + [view(new)], body=body)
    replica = found[0]
    if replica.get('status') in REPLICA_BUSY_STATES:
        return ReplicaPlan(NOTHING, views(replicas), views(replicas), targets=[replica])
    if desired.get('resync') and replica.get('replica_state') == REPLICA_STATE_OUT_OF_SYNC:
        return ReplicaPlan(RESYNC, views(replicas),
                           _with(replicas, {replica['id']: {'replica_state': REPLICA_STATE_IN_SYNC}}),
                           targets=[replica])
    check_healthy(replica)
    return ReplicaPlan(NOTHING, views(replicas), views(replicas), targets=[replica])


def read_as_admin(replicas):
    """Whether the task reads the replicas as an admin: Manila shows a replica's
    ``host`` to admins only (api/views/share_replicas.py), so the listing the plan
    starts from tells, with no request of its own."""
    return any('host' in r for r in replicas)


def promotable_by_anyone(replica):
    """Manila promotes a replica in status available; a member's only when it is
    in_sync (share/api.py promote_share_replica: out_of_sync and error need an admin)."""
    return (replica.get('status') == REPLICA_AVAILABLE
            and replica.get('replica_state') == REPLICA_STATE_IN_SYNC)


def check_promotable(target, admin):
    """Refuse, before any write, the promotion Manila would refuse: a replica not
    available (400), or out_of_sync or in replica_state error for a non-admin (403)."""
    if target.get('status') != REPLICA_AVAILABLE or not admin:
        check_healthy(target)
    if target.get('status') in REPLICA_BUSY_STATES:
        return
    if not admin and target.get('replica_state') == REPLICA_STATE_OUT_OF_SYNC:
        raise InvalidInput(
            '%s is out_of_sync; Manila lets only admins promote a replica that is out_of_sync '
            'or in error, and would refuse this promotion with 403 (forbidden). Run again '
            'once Manila shows it in_sync, or ask an admin.' % label(target))


def plan_active(replicas, desired):
    zone = desired.get('availability_zone')
    admin = read_as_admin(replicas)
    if desired.get('id'):
        target = find_target(replicas, desired)
        if target is None or target.get('status') in REPLICA_LEAVING_STATES:
            raise InvalidInput('id: the share has no replica %s to promote.' % desired['id'])
    elif zone:
        current = active_replica(replicas)
        if current is not None and current.get('availability_zone') == zone:
            target = current
        else:
            candidates = secondaries(replicas, zone)
            if not candidates:
                raise InvalidInput('availability_zone: the share has no replica in zone %s '
                                   'to promote (make one with state=present first).' % zone)
            # the oldest that Manila promotes for anyone (in_sync, available) first
            target = sorted(candidates, key=lambda r: not promotable_by_anyone(r))[0]
    else:
        raise InvalidInput('state=active needs id or availability_zone: the replica to '
                           'promote.')
    if is_active(target):
        return ReplicaPlan(NOTHING, views(replicas), views(replicas), targets=[target])
    check_promotable(target, admin)
    changes = dict((r['id'], {'replica_state': REPLICA_STATE_IN_SYNC}) for r in present(replicas)
                   if is_active(r))
    changes[target['id']] = {'replica_state': REPLICA_STATE_ACTIVE}
    return ReplicaPlan(PROMOTE, views(replicas), _with(replicas, changes), targets=[target])


def plan_absent(replicas, desired):
    if desired.get('id'):
        target = find_target(replicas, desired)
        if target is None or target.get('status') in REPLICA_LEAVING_STATES:
            return ReplicaPlan(NOTHING, views(replicas), views(replicas))
        if is_active(target):
            raise InvalidInput(
                'id: replica %s is the active replica of its share; it is never deleted. '
                'Promote another one first (state=active), or delete the share.'
                % target['id'])
        targets = [target]
    else:
        targets = secondaries(replicas, desired.get('availability_zone'))
    if not targets:
        return ReplicaPlan(NOTHING, views(replicas), views(replicas))
    return ReplicaPlan(DELETE, views(replicas),
                       _with(replicas, dict((t['id'], None) for t in targets)), targets=targets)


# -- calls -------------------------------------------------------------------------

FEATURE = KINDS['share_replica'].feature


class ReplicaAPI(ResourceAPI):
    """The replica calls: the shared ones (resource.ResourceAPI; every one
    carries the ``share_replicas`` feature of the kind's row), and export
    locations, promote, resync and the waits of a replica's own states."""

    kind = 'share_replica'

    def __init__(self, client, timeout=600):
        super(ReplicaAPI, self).__init__(client, timeout)

    # A replica has no name: require() is the feature check, as its callers know it.
    def require(self, what='Share replication'):  # pylint: disable=arguments-renamed
        self.require_feature(what)

    def list_for_share(self, share_id):
        return self.list_for(share_id)

    def export_locations(self, replica_id):
        """A replica's export locations, Manila's preferred ones first, as the
        share's (API 2.47+; [] before: Manila shows only the active replica's, on
        the share)."""
        if not self.client.supports('replica_export_locations'):
            return []
        return sort_export_locations((if_found(
            self.client.get, '%s/export-locations' % self.path(replica_id),
            feature='replica_export_locations') or {}).get('export_locations', []))

    def with_exports(self, replica):
        """The replica with its ``export_locations`` and the ``export_paths`` a
        client mounts (shares.export_paths: preferred first, admin-only left out)."""
        locations = self.export_locations(replica['id'])
        return dict(replica, export_locations=locations, export_paths=export_paths(locations))

    # -- writes --------------------------------------------------------------
    def create(self, body, known_ids=()):
        """Make the replica ``body`` describes, at most once: after a lost answer
        or a 5xx, a replica of the share that was not there before is it."""
        share_id = body['share_id']
        if body.get('share_network_id'):
            self.client.require('replica_share_network', 'share_network for a replica')
        return self.create_unnamed(body, share_id, known_ids,
                                   'the create of a replica of share %s' % share_id)

    def delete(self, resource_id):
        """Delete a replica; one that is gone already is fine (None)."""
        return if_found(super(ReplicaAPI, self).delete, resource_id)

    def promote(self, replica_id, quiesce_wait_time=None):
        args = None
        if quiesce_wait_time:
            self.client.require('replica_quiesce_wait_time', 'quiesce_wait_time')
            args = {'quiesce_wait_time': quiesce_wait_time}

        def observe():
            replica = self.get(replica_id) or {}
            if replica.get('replica_state') == REPLICA_STATE_ACTIVE or \
                    replica.get('status') == 'replication_change':
                return True
            return None
        self.client.write_once(
            lambda: self.client.action(self.path(replica_id), 'promote', args,
                                       feature=self.feature),
            observe, 'the promotion of replica %s' % replica_id)

    def resync(self, replica_id):
        self.client.write_once(
            lambda: self.client.action(self.path(replica_id), 'resync', None,
                                       feature=self.feature),
            lambda: None, 'the resync of replica %s' % replica_id)

    # -- waits ---------------------------------------------------------------
    def wait_in_sync(self, replica):
        """Until the replica is available and in_sync (or active)."""
        replica_id = replica['id']

        def failure(r):
            if r.get('status') in self.states.error:
                return 'went to status %s' % r['status']
            if r.get('replica_state') == REPLICA_STATE_ERROR:
                return 'went to replica_state error'
            return None
        return wait_until(
            self.client, lambda: self.get(replica_id),
            lambda r: r is not None and r.get('status') in self.states.ready
            and r.get('replica_state') in (REPLICA_STATE_IN_SYNC, REPLICA_STATE_ACTIVE),
            'Replica %s' % replica_id, 'it to be in_sync', self.timeout, failure=failure,
            describe=lambda r: '%s/%s' % (r.get('status'), r.get('replica_state')),
            explain=self.explainer(replica))

    def wait_promoted(self, share_id, replica_id):
        """Until ``replica_id`` is the one active replica of the share and every
        replica is at rest; returns the share's replicas.  Fails when the promoted
        replica goes to an error state, not for another replica in error."""
        def ready(replicas):
            mine = [r for r in replicas if r['id'] == replica_id]
            if not mine or not is_active(mine[0]):
                return False
            return all(r.get('status') not in self.states.busy for r in present(replicas)) and \
                [r['id'] for r in present(replicas) if is_active(r)] == [replica_id]

        def failure(replicas):
            # Only the promoted replica tells: a driver that fails the promotion
            # leaves every replica in status error, the promoted one with them; another
            # replica in error beside a promotion that succeeded is not its failure.
            # A replica an admin promotes from replica_state error keeps that state
            # while its status is replication_change: only at rest does it tell.
            for r in present(replicas):
                if r['id'] == replica_id and in_error(r) and r.get('status') not in self.states.busy:
                    return 'has %s in status %s/%s' % (label(r), r.get('status'),
                                                       r.get('replica_state'))
            return None
        return wait_until(
            self.client, lambda: self.list_for(share_id), ready,
            'Share %s' % share_id, 'replica %s to be active' % replica_id, self.timeout,
            failure=failure,
            describe=lambda rs: ', '.join('%s %s/%s' % (r['id'], r.get('status'),
                                                        r.get('replica_state')) for r in rs),
            explain=self.explainer({'id': replica_id}))

    def wait_gone(self, resource):
        """Until Manila no longer shows the replica: its own words, and only
        error_deleting fails it (a replica in error is deleted as well)."""
        replica_id = resource['id']

        def failure(r):
            if r.get('status') == 'error_deleting':
                return 'went to error_deleting'
            return None
        return wait_until(
            self.client, lambda: self.get(replica_id), lambda r: r is None,
            'Replica %s' % replica_id, 'it to be gone', self.timeout, failure=failure,
            describe=lambda r: r.get('status'), explain=self.explainer(resource))

    def wait_out(self, resource):
        """A busy replica waited for until it rests (None once it is gone)."""
        replica_id = resource['id']
        return wait_until(
            self.client, lambda: self.get(replica_id),
            lambda r: r is None or r.get('status') not in self.states.busy,
            'Replica %s' % replica_id, 'it to finish %s' % resource.get('status'),
            self.timeout, describe=lambda r: r.get('status'), explain=self.explainer(resource))
