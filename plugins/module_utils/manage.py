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

Here are the pure parts (the options, the checks, the request bodies) and the
calls; the actions of the two modules (plan, check mode, apply) are the hooks
of tasks/manage.py on the converge template.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils import scheduler_pools
from ansible_collections.openkeel.manila.plugins.module_utils import writes
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    InvalidInput,
    ManilaError,
    NotFound,
)
from ansible_collections.openkeel.manila.plugins.module_utils.lookups import share_label
from ansible_collections.openkeel.manila.plugins.module_utils.shares import check_share_input
from ansible_collections.openkeel.manila.plugins.module_utils.snapshots import SnapshotAPI
from ansible_collections.openkeel.manila.plugins.module_utils.states import (
    SHARE_LEAVING_STATES,
    UNMANAGING_STATES as UNMANAGING,
)

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


# -- the checks of an unmanage and a manage that read Manila ----------------------------------

def check_can_unmanage_share(client, shares, share, wait):
    """What Manila refuses, and what only an admin may do, before any write
    (``shares``: a shares.ShareAPI, which waits for a busy share)."""
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
        client.require('manage_share_server', 'Unmanaging a share on a share server')
    share = shares.wait_if_busy(share, wait)
    snapshots = SnapshotAPI(client).list_for_share(share['id'])
    if snapshots:
        raise InvalidInput(
            '%s has snapshots, and Manila unmanages no share that has: %s. Unmanage them '
            'first (openkeel.manila.share_snapshot, state=unmanaged), or delete them.' % (
                label, ', '.join('%s (%s)' % (s.get('name'), s['id']) for s in snapshots)))


def check_snapshot_manage_share(share):
    """The share a managed snapshot belongs to, as this user sees it."""
    if 'host' not in share:
        raise AdminRequired('Managing a snapshot %s (Manila shows it no host of %s). %s' % (
            ADMIN_ONLY, share_label(share), RUN_AS_ADMIN))
    if share.get('has_replicas'):
        raise InvalidInput('%s has replicas: Manila manages no snapshot of it until they '
                           'are deleted.' % share_label(share))


def check_can_unmanage_snapshot(client, snapshot, share):
    """The feature, and what only an admin may do, before an unmanage of
    ``snapshot`` (of ``share``, None: not read)."""
    client.require('manage_snapshot', 'Unmanaging a snapshot')
    if share is not None and share.get('share_server_id'):
        client.require('manage_share_server', 'Unmanaging a snapshot of a share on a share server')
    if 'provider_location' not in snapshot:
        raise AdminRequired('Unmanaging a snapshot %s (Manila shows it no '
                            'provider_location of %s). %s' % (ADMIN_ONLY, snapshot_words(snapshot),
                                                              RUN_AS_ADMIN))


def snapshot_words(snapshot):
    return 'Snapshot %s (%s)' % (snapshot.get('name'), snapshot['id'])


def snapshot_manage_body(params, share):
    body = {'share_id': share['id'], 'provider_location': params['manage']['provider_location'],
            'name': params['name'], 'driver_options': params['manage'].get('driver_options') or {}}
    if params['description'] is not None:
        body['description'] = params['description']
    return body


def predicted_snapshot(body):
    """What a managed snapshot will look like (check mode, the diff)."""
    after = dict(body, status='available')
    after.pop('driver_options')
    return after


def task_view(resource):
    return dict((k, resource.get(k)) for k in ('id', 'name', 'status', 'size', 'host'))


# -- the calls (each through write_once) --------------------------------------------------------

def send_share_manage(client, body):
    """``POST /shares/manage``; a lost answer is looked up by the share's name."""
    return writes.create_once(
        client, 'share', lambda: client.post('shares/manage', {'share': body})['share'],
        body['name'], leaving=SHARE_LEAVING_STATES)


def send_share_unmanage(client, share_id):
    client.write_once(
        lambda: client.action('shares/%s' % share_id, 'unmanage', None),
        writes.gone_or_leaving(client, 'share', share_id, UNMANAGING),
        'the unmanage of share %s' % share_id)


def send_snapshot_manage(client, body):
    """``POST /snapshots/manage``; a lost answer is looked up by name on the share."""
    return writes.create_once(
        client, 'snapshot', lambda: client.post('snapshots/manage', {'snapshot': body},
                                                feature='manage_snapshot')['snapshot'],
        body['name'], {'share_id': body['share_id']})


def send_snapshot_unmanage(client, snapshot_id):
    client.write_once(
        lambda: client.action('snapshots/%s' % snapshot_id, 'unmanage', None),
        writes.gone_or_leaving(client, 'snapshot', snapshot_id, UNMANAGING),
        'the unmanage of snapshot %s' % snapshot_id)
