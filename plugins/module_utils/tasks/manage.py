# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Manage and unmanage as actions of the converge template (base.ManilaModule).

``ShareManageHooks`` (for the ``share`` module) and ``SnapshotManageHooks``
(for ``share_snapshot``, through tasks/snapshot.py) come first among the bases
of a module: their ``plan`` answers ``state=unmanaged``, and ``state=present``
with ``manage`` when there is nothing of the name, with a ``ManagePlan``
(action ``manage`` or ``unmanage``); every other plan is the next base's.
The template then does what it does for every plan: check mode shows
``predict`` (the share or snapshot as it would be managed, or as it is
released) and sends nothing, else ``apply_manage`` or ``apply_unmanage``
runs; a plan that changes nothing (nothing of the name to unmanage, or one
being unmanaged already) finishes unchanged without a diff.  A real manage
ends as a create does when it adopts a namesake: the task converges on the
managed resource (its metadata and the rest, ``adopt``), with the diff of a
creation.  The checks, request bodies and calls are manage.py's.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils import manage
from ansible_collections.openkeel.manila.plugins.module_utils.base import last_read
from ansible_collections.openkeel.manila.plugins.module_utils.errors import WaitFailed
from ansible_collections.openkeel.manila.plugins.module_utils.lookups import share_label
from ansible_collections.openkeel.manila.plugins.module_utils.resource import NOTHING, Plan
from ansible_collections.openkeel.manila.plugins.module_utils.states import (
    SNAPSHOT_BUSY_STATES,
    UNMANAGING_STATES as UNMANAGING,
)
from ansible_collections.openkeel.manila.plugins.module_utils.waiter import GONE

MANAGE = 'manage'
UNMANAGE = 'unmanage'


class ManagePlan(Plan):
    """A plan of state=unmanaged, or of a manage: ``shown``, the resource the
    result shows in check mode (as managed, or as released); ``body``, that
    of the manage; ``msg``, the result's message (None: none); ``leaving``: a
    NOTHING plan for a resource being unmanaged already (the task waits
    until it is gone)."""

    def __init__(self, action, before=None, after=None, shown=None, body=None, msg=None):
        super(ManagePlan, self).__init__(action, before, after)
        self.shown = shown
        self.body = body
        self.msg = msg
        self.leaving = False


def unchanged(msg, leaving=False):
    """A plan that changes nothing, with ``msg`` and no diff."""
    plan = ManagePlan(NOTHING, msg=msg)
    plan.before = plan.after = None
    plan.leaving = leaving
    return plan


def released(check_mode):
    return 'would be released' if check_mode else 'was released'


class ManageHooks(object):
    """What the share's and the snapshot's hooks do alike; ``noun`` is the
    result's key, ``api_of_noun()`` the task's API object of that kind
    (ShareAPI, SnapshotAPI)."""

    noun = None

    def plan(self, current):
        if self.params['state'] == 'unmanaged':
            return self.plan_unmanage(current)
        if current is None and self.to_be_managed():
            return self.plan_manage()
        return super(ManageHooks, self).plan(current)

    def predict(self, plan, current):
        if plan.action in (MANAGE, UNMANAGE):
            return plan.shown
        return super(ManageHooks, self).predict(plan, current)

    def as_is(self, plan, current):
        if self.params['state'] != 'unmanaged':
            return super(ManageHooks, self).as_is(plan, current)
        if plan.leaving and self.params['wait'] and not self.check_mode:
            self.wait_unmanaged(current)
        return None

    def result(self, plan, resource):
        """An unmanage's result, and that of a manage in check mode, is the
        resource and the message; a managed resource's is the module's own."""
        if self.params['state'] == 'unmanaged' or (
                self.check_mode and plan is not None and plan.action == MANAGE):
            return {self.noun: resource or {}, 'msg': plan.msg}
        return super(ManageHooks, self).result(plan, resource)

    def managed(self, plan, resource, failed):
        """After the manage was sent: wait for ``resource`` (a wait that fails
        ends the task with Manila's reason, then ``failed``), then converge on
        it as on a resource the task had found.  ``failed(made)`` says what to
        do about the resource ``made`` (its ID) that Manila left."""
        if self.params['wait']:
            try:
                resource = self.api_of_noun().wait(resource)
            except WaitFailed as exc:
                self.fail('%s %s' % (exc, failed(resource['id'])),
                          **{self.noun: last_read(exc, resource)})
        return self.adopt(plan, resource)


class ShareManageHooks(ManageHooks):
    """The share's manage and unmanage (the class using it sets ``shares``,
    ``locks``, and calls ``to_manage(share)`` before it converges)."""

    noun = 'share'
    managing = False

    def api_of_noun(self):
        return self.shares

    def to_manage(self, share):
        """Whether the task manages its share: ``manage`` is given and no share
        of the name exists (one on its way out by an unmanage is waited for
        until it is gone)."""
        if not self.params['manage']:
            return False
        if share is not None and share.get('status') in UNMANAGING:
            share = self.shares.wait(share, targets=(GONE,))
        self.managing = share is None
        return self.managing

    def to_be_managed(self):
        return self.managing

    def wait_unmanaged(self, share):
        self.shares.wait(share, targets=(GONE,))

    def plan_manage(self):
        """The pool, the type, the server and the project, checked before any write."""
        p, client = self.params, self.client
        manage.require_pool(client, p['manage']['host'])
        share_type = manage.manage_share_type(client, p['manage'].get('share_type'))
        manage.check_share_server(client, share_type, p['manage'].get('share_server_id'))
        body = manage.manage_body(p, share_type)
        if 'is_public' in body:
            client.require('manage_is_public', 'manage.is_public')
        own = manage.check_share_manage_project(client, p['manage'].get('project'))
        if own is not None and not p['manage'].get('project'):
            self.warn('The managed share %s in %s, the project of this task\'s token: Manila '
                      'puts a managed share there, whatever project it had before it was '
                      'unmanaged. Set manage.project to the project it belongs to, to have a '
                      'task scoped to another project refused before any write.' % (
                          'would land' if self.check_mode else 'lands', manage.project_words(own)))
        after = manage.predicted_share(body, share_type, own)
        return ManagePlan(MANAGE, {}, after, shown=after, body=body, msg=(
            'Share %r would be managed from %s on %s%s.' % (
                p['name'], body['export_path'], body['service_host'],
                ' into %s, the project of this task\'s token' % manage.project_words(own)
                if own else '')))

    def apply_manage(self, plan, _current):
        body = plan.body
        share = manage.send_share_manage(self.client, body)
        return self.managed(plan, share, lambda made: (
            'Manila could not manage %s on %s; the share %s it made is left in that state: '
            'release it with state=unmanaged (the storage is not touched), check '
            'manage.export_path, manage.host and manage.driver_options, and run the task '
            'again.' % (body['export_path'], body['service_host'], made)))

    def plan_unmanage(self, share):
        """Release the share from Manila, keeping its data; refused before any
        write when Manila would refuse it (its snapshots, replicas, recycle
        bin state, delete locks: locks.ShareLockTask.guard_unmanage)."""
        p = self.params
        if share is None:
            return unchanged('No share %s is known to Manila: nothing to unmanage.'
                             % (p['name'] or p['id']))
        label = share_label(share)
        if share.get('status') in UNMANAGING:
            return unchanged('%s is already being unmanaged.' % label, leaving=True)
        manage.check_can_unmanage_share(self.client, self.shares, share, p['wait'])
        self.locks.guard_unmanage(share)
        locations = self.shares.export_locations(share['id'])
        msg = '%s %s from Manila; %s (export path %s, host %s): manage it again with ' \
              'manage.export_path and manage.host%s.' % (
                  label, released(self.check_mode), manage.KEPT,
                  ', '.join(loc['path'] for loc in locations[:1]) or 'none', share.get('host'),
                  ', with credentials scoped to its project %s (Manila puts a managed share in '
                  'the project of the token that manages it; manage.project checks it)'
                  % share['project_id'] if share.get('project_id') else '')
        return ManagePlan(UNMANAGE, manage.task_view(share), {},
                          shown=dict(share, export_locations=locations), msg=msg)

    def apply_unmanage(self, plan, share):
        manage.send_share_unmanage(self.client, share['id'])
        if self.params['wait']:
            self.shares.wait(share, targets=(GONE,))
        return plan.shown


class SnapshotManageHooks(ManageHooks):
    """The snapshot's manage and unmanage (the class using it sets
    ``snapshots`` and has ``share_record()`` and ``known_share``)."""

    noun = 'snapshot'

    def api_of_noun(self):
        return self.snapshots

    def to_be_managed(self):
        return self.params['state'] == 'present' and bool(self.params['manage'])

    def wait_unmanaged(self, snapshot):
        self.snapshots.wait_gone(snapshot)

    def plan_manage(self):
        p, client = self.params, self.client
        client.require('manage_snapshot', 'Managing a snapshot')
        share = self.share_record()
        manage.check_snapshot_manage_share(share)
        manage.check_snapshot_manage_project(client, share)
        body = manage.snapshot_manage_body(p, share)
        after = manage.predicted_snapshot(body)
        return ManagePlan(MANAGE, {}, after, shown=after, body=body, msg=(
            'Snapshot %r of %s would be managed from %s.' % (
                p['name'], share_label(share), body['provider_location'])))

    def apply_manage(self, plan, _current):
        snapshot = manage.send_snapshot_manage(self.client, plan.body)
        return self.managed(plan, snapshot, lambda made: (
            'Manila could not manage %s; the snapshot %s it made is left in that state: '
            'release it with state=unmanaged (the storage is not touched), check '
            'manage.provider_location and manage.driver_options, and run the task again.'
            % (plan.body['provider_location'], made)))

    def plan_unmanage(self, snapshot):
        """Release the snapshot from Manila, keeping its data (a busy one is
        waited for first: ``plan.current``)."""
        p = self.params
        if snapshot is None:
            return unchanged('No snapshot %s is known to Manila: nothing to unmanage.'
                             % (p['name'] or p['id']))
        label = manage.snapshot_words(snapshot)
        if snapshot.get('status') in UNMANAGING:
            return unchanged('%s is already being unmanaged.' % label, leaving=True)
        manage.check_can_unmanage_snapshot(self.client, snapshot, self.known_share)
        if snapshot.get('status') in SNAPSHOT_BUSY_STATES:
            snapshot = self.snapshots.wait_if_busy(snapshot, p['wait'])
            if snapshot is None:
                plan = unchanged('%s is gone.' % label)
                plan.current = None
                return plan
        msg = '%s %s from Manila; %s (provider_location %s): manage it again with ' \
              'manage.provider_location.' % (label, released(self.check_mode), manage.KEPT,
                                             snapshot.get('provider_location'))
        plan = ManagePlan(UNMANAGE, dict((k, snapshot.get(k)) for k in (
            'id', 'name', 'share_id', 'status')), {}, shown=snapshot, msg=msg)
        plan.current = snapshot
        return plan

    def apply_unmanage(self, plan, snapshot):
        manage.send_snapshot_unmanage(self.client, snapshot['id'])
        if self.params['wait']:
            self.snapshots.wait_gone(snapshot)
        return snapshot
