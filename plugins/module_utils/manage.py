# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Manage and unmanage: storage Manila does not know brought under it, and a
share or snapshot released from Manila without deleting its data (issue 24).

``share`` with ``manage`` (state=present, no share of the name) sends
``POST /shares/manage`` and waits until the share is available;
``state=unmanaged`` sends the ``unmanage`` action and waits until Manila
forgets the share.  ``share_snapshot`` does the same with
``POST /snapshots/manage``.  Everything Manila would refuse, and what only an
admin may do, is checked before any write: the pool (``host@backend#pool``,
looked up in the scheduler's pools, which only an admin may list), the
share type and its ``driver_handles_share_servers`` against
``share_server_id``, the microversion of each field, and for an unmanage
the share's snapshots, replicas and recycle bin state.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils import scheduler_pools
from ansible_collections.openkeel.manila.plugins.module_utils import writes
from ansible_collections.openkeel.manila.plugins.module_utils.base import last_read
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    InvalidInput,
    ManilaError,
    NotFound,
    WaitFailed,
)
from ansible_collections.openkeel.manila.plugins.module_utils.lookups import share_label
from ansible_collections.openkeel.manila.plugins.module_utils.shares import check_share_input
from ansible_collections.openkeel.manila.plugins.module_utils.snapshots import SnapshotAPI
from ansible_collections.openkeel.manila.plugins.module_utils.states import (
    SHARE_LEAVING_STATES,
    SNAPSHOT_BUSY_STATES,
    UNMANAGING_STATES as UNMANAGING,
)
from ansible_collections.openkeel.manila.plugins.module_utils.waiter import GONE

# The option of ``share`` (its suboptions are documented in the doc fragment
# openkeel.manila.manage).
SHARE_MANAGE_SPEC = dict(type='dict', options=dict(
    export_path=dict(type='str', required=True),
    host=dict(type='str', required=True),
    protocol=dict(type='str', required=True),
    share_type=dict(type='str'),
    driver_options=dict(type='dict'),
    is_public=dict(type='bool'),
    share_server_id=dict(type='str'),
    project=dict(type='str'),
))

# The option of ``share_snapshot``.
SNAPSHOT_MANAGE_SPEC = dict(type='dict', options=dict(
    provider_location=dict(type='str', required=True),
    driver_options=dict(type='dict'),
))

# Options of ``share`` that describe a share Manila makes; a managed share
# takes them from the storage.
NOT_WITH_MANAGE = ('size', 'snapshot', 'share_network', 'availability_zone',
                   'scheduler_hints', 'mount_point_name', 'share_proto', 'share_type',
                   'restore', 'id')

ADMIN_ONLY = ('is admin-only under Manila\'s default policy, and Manila does not take '
              'this task\'s user for an admin')
RUN_AS_ADMIN = 'Run the task with an admin\'s credentials (for example cloud: admin).'
KEPT = 'its data stays on the storage, untouched'
RUN_IN_PROJECT = ('Run the task with an admin\'s credentials scoped to project %s (a cloud whose '
                  'auth names that project, with the admin role in it).')


class AdminRequired(InvalidInput):
    """A manage or unmanage by a user Manila does not take for an admin,
    refused before any write."""


def dhss(share_type):
    """Whether a share type's shares live on share servers."""
    specs = share_type.get('required_extra_specs') or share_type.get('extra_specs') or {}
    return str(specs.get('driver_handles_share_servers', '')).strip().lower() in (
        'true', '1', 'yes', 'on', '<is> true')


# -- before any request ----------------------------------------------------------------

def check_share_manage_input(params):
    """The task's options with ``manage``, checked before any request."""
    manage = params['manage']
    if params['state'] != 'present':
        raise InvalidInput('manage only applies with state=present (got state=%s).'
                           % params['state'])
    given = [option for option in NOT_WITH_MANAGE if params.get(option)]
    if given:
        raise InvalidInput(
            'manage brings existing storage under Manila, which takes the share\'s size, '
            'pool and network from it; %s cannot be given with manage (the protocol and '
            'share type go inside manage: manage.protocol, manage.share_type).'
            % ', '.join(given))
    if not params['name']:
        raise InvalidInput('manage needs name: the name the managed share gets.')
    if lookups.looks_like_uuid(params['name']):
        raise InvalidInput('name: a managed share is not given a UUID-shaped name (%s); '
                           'choose a name that is not a UUID.' % params['name'])
    for key in ('export_path', 'host', 'protocol'):
        if not (manage.get(key) or '').strip():
            raise InvalidInput('manage.%s must not be empty.' % key)
    scheduler_pools.parse_pool_name(manage['host'], option='manage.host')
    try:
        check_share_input(manage['protocol'])
    except InvalidInput as exc:
        raise InvalidInput('manage.protocol: %s' % exc.message)
    if manage.get('is_public') is not None and params.get('is_public') is not None \
            and manage['is_public'] != params['is_public']:
        raise InvalidInput('manage.is_public and is_public disagree; give one of them.')


def check_share_task(params, other_checks):
    """The options of a ``share`` task: ``other_checks(params)`` (the share's
    own), then those of manage and unmanage."""
    other_checks(params)
    if params['manage'] is not None:
        check_share_manage_input(params)
    elif params['state'] == 'unmanaged':
        check_unmanage_input(params, ('size', 'share_proto', 'snapshot', 'restore'))


def manage_is_public(params):
    """The visibility a managed share is given (manage.is_public or is_public)."""
    if params['manage'].get('is_public') is not None:
        return params['manage']['is_public']
    return params.get('is_public')


def desired_fields(params):
    """What ``manage`` says of the share, for the plan of an existing one: a
    share of the name with another protocol or type fails the task."""
    if not params['manage']:
        return {}
    return dict(share_proto=params['manage']['protocol'],
                share_type=params['manage'].get('share_type'),
                is_public=manage_is_public(params))


def check_snapshot_manage_input(params):
    if params['state'] != 'present':
        raise InvalidInput('manage only applies with state=present (got state=%s).'
                           % params['state'])
    if params['id']:
        raise InvalidInput('manage cannot be given with id: a managed snapshot gets its ID '
                           'from Manila (give share and name).')
    if not params['share'] or not params['name']:
        raise InvalidInput('manage needs share (the share the snapshot belongs to, already '
                           'in Manila) and name (the name the managed snapshot gets).')
    if not (params['manage'].get('provider_location') or '').strip():
        raise InvalidInput('manage.provider_location must not be empty.')


def check_unmanage_input(params, options):
    """Options that make no sense with state=unmanaged."""
    given = [option for option in options if params.get(option)]
    if given:
        raise InvalidInput('%s cannot be given with state=unmanaged.' % ', '.join(given))


# -- the project a managed share or snapshot lands in -------------------------------------

def project_words(project):
    return 'project %s (%s)' % (project.get('name'), project['id']) if project.get('name') \
        else 'project %s' % project['id']


def check_share_manage_project(client, expected):
    """The project a managed share lands in: Manila puts it in the project
    of the task's token, whatever project the share had before an unmanage.
    With ``manage.project`` (a name or ID), a token scoped to another project
    is refused before any write.  Returns the token's project (None when the
    session cannot say)."""
    own = client.token_project()
    if expected and own is not None and expected.strip() not in (own['id'], own.get('name')):
        raise InvalidInput(
            'manage.project is %s, but this task\'s token is scoped to %s, and Manila puts a '
            'managed share in the project of the token that manages it: the share would '
            'land in %s. %s' % (expected, project_words(own), project_words(own),
                                RUN_IN_PROJECT % expected))
    return own


def check_snapshot_manage_project(client, share):
    """A managed snapshot lands in the project of the task's token; refused
    before any write when the share is in another project (its owner could
    neither see nor delete the snapshot).  An admin sees a share's
    ``project_id``; a session that cannot name its project is not refused."""
    own = client.token_project()
    owner = share.get('project_id')
    if own is None or not owner or owner == own['id']:
        return
    raise InvalidInput(
        '%s is in project %s, but this task\'s token is scoped to %s: Manila puts a managed '
        'snapshot in the project of the token that manages it, where the share\'s project '
        'could neither see nor delete it. %s' % (share_label(share), owner, project_words(own),
                                                 RUN_IN_PROJECT % owner))


# -- the pool, the type and the server a manage names ---------------------------------------

def require_pool(client, host):
    """The pool ``manage.host`` names (the listing is admin-only: a member is
    refused here, before any write)."""
    try:
        return scheduler_pools.require_pool(client, host)
    except InvalidInput as exc:
        raise InvalidInput('manage.%s' % exc.message)
    except ManilaError as exc:
        if exc.status != 403:
            raise
        raise AdminRequired('Managing a share %s: it may not list the scheduler\'s pools '
                            '(%s). %s' % (ADMIN_ONLY, exc.message, RUN_AS_ADMIN),
                            status=exc.status, request_id=exc.request_id)


def manage_share_type(client, name_or_id):
    """The share type of a managed share: manage.share_type, or the default type."""
    if name_or_id:
        return lookups.require(client, 'share_type', name_or_id, option='manage.share_type')
    try:
        found = client.get('types/default').get('share_type')
    except NotFound:
        found = None
    if not found:
        raise InvalidInput('This cloud has no default share type: set manage.share_type '
                           '(the type of the share on that storage).')
    return found


def check_share_server(client, share_type, server_id):
    """manage.share_server_id against the type (Manila refuses a mismatch)."""
    label = 'Share type %s' % share_type.get('name', share_type.get('id'))
    if dhss(share_type) and not server_id:
        raise InvalidInput(
            'manage.share_server_id is required: %s has driver_handles_share_servers=true, '
            'so the share lives on a share server.' % label)
    if not server_id:
        return
    if not dhss(share_type):
        raise InvalidInput(
            'manage.share_server_id cannot be given: %s has driver_handles_share_servers='
            'false (its shares live on no share server).' % label)
    client.require('manage_share_server', 'Managing a share on a share server')
    try:
        server = client.get('share-servers/%s' % server_id).get('share_server') or {}
    except NotFound:
        raise InvalidInput('manage.share_server_id: no share server %s exists.' % server_id)
    if server.get('status') != 'active':
        raise InvalidInput('manage.share_server_id: share server %s is %s, not active.'
                           % (server_id, server.get('status')))


def manage_body(params, share_type):
    manage = params['manage']
    body = {
        'export_path': manage['export_path'].strip(),
        'service_host': manage['host'],
        'protocol': manage['protocol'].upper(),
        'share_type': share_type['id'],
        'name': params['name'],
        'driver_options': manage.get('driver_options') or {},
    }
    if params.get('description') is not None:
        body['description'] = params['description']
    is_public = manage_is_public(params)
    if is_public is not None:
        body['is_public'] = is_public
    if manage.get('share_server_id'):
        body['share_server_id'] = manage['share_server_id']
    return body


def predicted_share(body, share_type, project=None):
    """What a managed share will look like (check mode, the diff); in
    ``project``, the token's (None: the session cannot say)."""
    share = {
        'name': body['name'], 'share_proto': body['protocol'],
        'share_type': share_type['id'], 'share_type_name': share_type.get('name'),
        'host': body['service_host'], 'export_path': body['export_path'],
        'status': 'available',
    }
    if project is not None:
        share['project_id'] = project['id']
    return share


# -- the flows of the share module ----------------------------------------------------------

def to_be_managed(task, share):
    """Whether the task manages its share: no share of the name exists (one
    on its way out by an unmanage is waited for until it is gone)."""
    if share is not None and share.get('status') in UNMANAGING:
        share = task.shares.wait(share, targets=(GONE,))
    return share is None


def share_manage_flow(task):
    """state=present with manage and no share of the name: manage -> wait."""
    p = task.params
    client = task.client
    require_pool(client, p['manage']['host'])
    share_type = manage_share_type(client, p['manage'].get('share_type'))
    check_share_server(client, share_type, p['manage'].get('share_server_id'))
    body = manage_body(p, share_type)
    if 'is_public' in body:
        client.require('manage_is_public', 'manage.is_public')
    own = check_share_manage_project(client, p['manage'].get('project'))
    if own is not None and not p['manage'].get('project'):
        task.warn('The managed share %s in %s, the project of this task\'s token: Manila puts '
                  'a managed share there, whatever project it had before it was unmanaged. '
                  'Set manage.project to the project it belongs to, to have a task scoped to '
                  'another project refused before any write.' % (
                      'would land' if task.check_mode else 'lands', project_words(own)))
    after = predicted_share(body, share_type, own)
    if task.check_mode:
        return task.finish(True, {}, after, share=after,
                           msg='Share %r would be managed from %s on %s%s.' % (
                               p['name'], body['export_path'], body['service_host'],
                               ' into %s, the project of this task\'s token'
                               % project_words(own) if own else ''))
    share = writes.create_once(
        client, 'share', lambda: client.post('shares/manage', {'share': body})['share'],
        p['name'], leaving=SHARE_LEAVING_STATES)
    if p['wait']:
        try:
            share = task.shares.wait(share)
        except WaitFailed as exc:
            task.fail('%s Manila could not manage %s on %s; the share %s it made is left in '
                      'that state: release it with state=unmanaged (the storage is not '
                      'touched), check manage.export_path, manage.host and '
                      'manage.driver_options, and run the task again.' % (
                          exc, body['export_path'], body['service_host'], share['id']),
                      share=last_read(exc, share))
    # Metadata and the rest of the task: as on a share the task had found.
    return task.converge_on(share, created=True)


def share_unmanage_flow(task, share, guard=None):
    """state=unmanaged: release the share from Manila, keeping its data.

    ``guard(share)`` refuses what else stops the unmanaging (the share's
    delete locks: locks.ShareLockTask.guard_unmanage), after the checks here.
    """
    if share is None:
        return task.finish(False, share={}, msg='No share %s is known to Manila: nothing to '
                           'unmanage.' % (task.params['name'] or task.params['id']))
    client = task.client
    label = share_label(share)
    if share.get('status') in UNMANAGING:
        if task.params['wait'] and not task.check_mode:
            task.shares.wait(share, targets=(GONE,))
        return task.finish(False, share={}, msg='%s is already being unmanaged.' % label)
    check_can_unmanage_share(task, share)
    if guard is not None:
        guard(share)
    locations = task.shares.export_locations(share['id'])
    released = dict(share, export_locations=locations)
    done = '%s %s from Manila; %s (export path %s, host %s): manage it again with ' \
           'manage.export_path and manage.host%s.' % (
               label, 'would be released' if task.check_mode else 'was released', KEPT,
               ', '.join(loc['path'] for loc in locations[:1]) or 'none', share.get('host'),
               ', with credentials scoped to its project %s (Manila puts a managed share in '
               'the project of the token that manages it; manage.project checks it)'
               % share['project_id'] if share.get('project_id') else '')
    if task.check_mode:
        return task.finish(True, task_view(share), {}, share=released, msg=done)
    client.write_once(
        lambda: client.action('shares/%s' % share['id'], 'unmanage', None),
        writes.gone_or_leaving(client, 'share', share['id'], UNMANAGING),
        'the unmanage of share %s' % share['id'])
    if task.params['wait']:
        task.shares.wait(share, targets=(GONE,))
    task.finish(True, task_view(share), {}, share=released, msg=done)


def task_view(resource):
    return dict((k, resource.get(k)) for k in ('id', 'name', 'status', 'size', 'host'))


def check_can_unmanage_share(task, share):
    """What Manila refuses, and what only an admin may do, before any write."""
    label = share_label(share)
    if 'host' not in share:
        raise AdminRequired('Unmanaging a share %s (Manila shows it no host of %s). %s' % (
            ADMIN_ONLY, label, RUN_AS_ADMIN))
    if share.get('is_soft_deleted'):
        raise InvalidInput('%s is in the recycle bin: Manila unmanages no such share. '
                           'Restore it first (state=present, restore=true).' % label)
    if share.get('has_replicas'):
        raise InvalidInput('%s has replicas: Manila unmanages it only once they are '
                           'deleted (openkeel.manila.share_replica, state=absent).' % label)
    if share.get('share_server_id'):
        task.client.require('manage_share_server', 'Unmanaging a share on a share server')
    share = task.shares.wait_if_busy(share, task.params['wait'])
    snapshots = SnapshotAPI(task.client).list_for_share(share['id'])
    if snapshots:
        raise InvalidInput(
            '%s has snapshots, and Manila unmanages no share that has: %s. Unmanage them '
            'first (openkeel.manila.share_snapshot, state=unmanaged), or delete them.' % (
                label, ', '.join('%s (%s)' % (s.get('name'), s['id']) for s in snapshots)))


# -- the flows of the share_snapshot module -----------------------------------------------------

def snapshot_manage_flow(task):
    """state=present with manage and no snapshot of the name on the share."""
    p = task.params
    client = task.client
    client.require('manage_snapshot', 'Managing a snapshot')
    share = task.share_record()
    if 'host' not in share:
        raise AdminRequired('Managing a snapshot %s (Manila shows it no host of %s). %s' % (
            ADMIN_ONLY, share_label(share), RUN_AS_ADMIN))
    if share.get('has_replicas'):
        raise InvalidInput('%s has replicas: Manila manages no snapshot of it until they '
                           'are deleted.' % share_label(share))
    check_snapshot_manage_project(client, share)
    body = {'share_id': share['id'], 'provider_location': p['manage']['provider_location'],
            'name': p['name'], 'driver_options': p['manage'].get('driver_options') or {}}
    if p['description'] is not None:
        body['description'] = p['description']
    after = dict(body, status='available')
    after.pop('driver_options')
    if task.check_mode:
        return task.finish(True, {}, after, snapshot=after,
                           msg='Snapshot %r of %s would be managed from %s.' % (
                               p['name'], share_label(share), body['provider_location']))
    snapshot = writes.create_once(
        client, 'snapshot', lambda: client.post('snapshots/manage', {'snapshot': body},
                                                feature='manage_snapshot')['snapshot'],
        p['name'], {'share_id': share['id']})
    if p['wait']:
        try:
            snapshot = task.snapshots.wait(snapshot)
        except WaitFailed as exc:
            task.fail('%s Manila could not manage %s; the snapshot %s it made is left in '
                      'that state: release it with state=unmanaged (the storage is not '
                      'touched), check manage.provider_location and manage.driver_options, '
                      'and run the task again.' % (exc, body['provider_location'],
                                                   snapshot['id']),
                      snapshot=last_read(exc, snapshot))
    return task.converge_on(snapshot, created=True)


def snapshot_unmanage_flow(task, snapshot):
    """state=unmanaged: release the snapshot from Manila, keeping its data."""
    p = task.params
    if snapshot is None:
        return task.finish(False, snapshot={}, msg='No snapshot %s is known to Manila: '
                           'nothing to unmanage.' % (p['name'] or p['id']))
    client = task.client
    label = 'Snapshot %s (%s)' % (snapshot.get('name'), snapshot['id'])
    if snapshot.get('status') in UNMANAGING:
        if p['wait'] and not task.check_mode:
            task.snapshots.wait_gone(snapshot)
        return task.finish(False, snapshot={}, msg='%s is already being unmanaged.' % label)
    client.require('manage_snapshot', 'Unmanaging a snapshot')
    share = task.known_share
    if share is not None and share.get('share_server_id'):
        client.require('manage_share_server', 'Unmanaging a snapshot of a share on a share server')
    if 'provider_location' not in snapshot:
        raise AdminRequired('Unmanaging a snapshot %s (Manila shows it no '
                            'provider_location of %s). %s' % (ADMIN_ONLY, label, RUN_AS_ADMIN))
    if snapshot.get('status') in SNAPSHOT_BUSY_STATES:
        snapshot = task.snapshots.wait_if_busy(snapshot, p['wait'])
        if snapshot is None:
            return task.finish(False, snapshot={}, msg='%s is gone.' % label)
    done = '%s %s from Manila; %s (provider_location %s): manage it again with ' \
           'manage.provider_location.' % (
               label, 'would be released' if task.check_mode else 'was released', KEPT,
               snapshot.get('provider_location'))
    before = dict((k, snapshot.get(k)) for k in ('id', 'name', 'share_id', 'status'))
    if task.check_mode:
        return task.finish(True, before, {}, snapshot=snapshot, msg=done)
    client.write_once(
        lambda: client.action('snapshots/%s' % snapshot['id'], 'unmanage', None),
        writes.gone_or_leaving(client, 'snapshot', snapshot['id'], UNMANAGING),
        'the unmanage of snapshot %s' % snapshot['id'])
    if p['wait']:
        task.snapshots.wait_gone(snapshot)
    task.finish(True, before, {}, snapshot=snapshot, msg=done)
