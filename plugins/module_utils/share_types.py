# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Share types: extra specs, visibility and project access as declared state.

The plan is pure (``prepare_extra_specs``, ``plan_create``, ``plan_update``);
``ShareTypeAPI`` sends it.  Manila's rules (manila/api/v2/share_types.py,
share_types_extra_specs.py): ``driver_handles_share_servers`` is required on
create and can never be deleted; extra spec keys are letters, digits and
``_ . : -``, values 1-255 characters; the description needs API 2.41, and
changing a type's name, description or visibility needs 2.50; project access
applies to private types only; every write is admin-only under Manila's
default policy.

The values of Manila's standard specs (manila/share/share_types.py,
``is_valid_required_extra_spec``, ``is_valid_optional_extra_spec``) are
checked here before any write, and compared the way Manila reads and stores
them: ``availability_zones`` without the spaces around its commas
(``sanitize_csv``), booleans regardless of case and with or without
``<is>`` (``parse_boolean_extra_spec``).  Projects are resolved through
Keystone and sent exactly as Keystone has their IDs: Manila stores any
string it is given.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from urllib.parse import quote

from ansible_collections.openkeel.manila.plugins.module_utils import identity, writes
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    Conflict,
    Forbidden,
    InvalidInput,
    ManilaError,
    reword,
    same_details,
)
from ansible_collections.openkeel.manila.plugins.module_utils.metadata import as_metadata_value
from ansible_collections.openkeel.manila.plugins.module_utils.kinds import share_type_label as label
from ansible_collections.openkeel.manila.plugins.module_utils.resource import (
    NOTHING,
    Plan,
    ResourceAPI,
    if_found,
)
from ansible_collections.openkeel.manila.plugins.module_utils.values import whole_number

DHSS = 'driver_handles_share_servers'
# Specs Manila never deletes.
REQUIRED_SPECS = (DHSS,)
IS_PUBLIC = 'share_type_access:is_public'
KEY_RE = re.compile(r'^[\w.:-]+$')
VALUE_MAX = 255
TRUE_WORDS = ('true', 't', 'yes', 'y', 'on', '1')
FALSE_WORDS = ('false', 'f', 'no', 'n', 'off', '0')
# '<is> True', as the scheduler's capability filter writes booleans; Manila's
# boolean specs accept it too (parse_boolean_extra_spec).
IS_BOOL_RE = re.compile(r'^<is>\s*(true|false)$', re.IGNORECASE)

# The standard specs Manila checks (manila/common/constants.py ExtraSpecs).
BOOLEAN_SPECS = ('snapshot_support', 'create_share_from_snapshot_support',
                 'revert_to_snapshot_support', 'mount_snapshot_support',
                 'mount_point_name_support', 'snapshot_inherit_share_access_support')
AVAILABILITY_ZONES = 'availability_zones'
REPLICATION_TYPE = 'replication_type'
REPLICATION_TYPES = ('writable', 'readable', 'dr')
ENCRYPTION_SUPPORT = 'encryption_support'
ENCRYPTION_TYPES = ('share', 'share_server')
SIZE_SPECS = ('provisioning:max_share_size', 'provisioning:min_share_size',
              'provisioning:max_share_extend_size')

CREATE = 'create'
UPDATE = 'update'
DELETE = 'delete'


def as_bool(value, allow_is=True):
    """True/False for a boolean-looking spec value, None otherwise.

    ``'<is> True'`` counts as True, as in Manila's boolean specs, unless
    ``allow_is`` is false (driver_handles_share_servers takes plain words).
    """
    text = str(value).strip()
    match = IS_BOOL_RE.match(text) if allow_is else None
    if match:
        text = match.group(1)
    text = text.lower()
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    return None


def sanitize_csv(value):
    """A comma-separated value as Manila stores it: no spaces around the commas."""
    return ','.join(item.strip() for item in str(value).split(',') if value and item)


def same_spec_value(current, wanted, key=None):
    """Spec values compare as Manila reads them: booleans as booleans when both
    look boolean ('true' == 'True' == '<is> True'), ``availability_zones``
    without the spaces around its commas."""
    if current is None:
        return False
    a, b = as_bool(current), as_bool(wanted)
    if a is not None and b is not None:
        return a == b
    if key == AVAILABILITY_ZONES:
        return sanitize_csv(current) == sanitize_csv(wanted)
    return str(current) == str(wanted)


def is_public(share_type):
    return bool(share_type.get(IS_PUBLIC, share_type.get('os-share-type-access:is_public',
                                                         True)))


def public_view(share_type, projects=None):
    """A type as returned: Manila's view with ``is_public`` (and ``projects``)."""
    if not share_type:
        return {}
    view = dict(share_type, is_public=is_public(share_type))
    if projects is not None:
        view['projects'] = sorted(projects)
    return view


# -- validation ----------------------------------------------------------------------

def spec_problem(key, text):
    """Why Manila would refuse ``text`` as the value of the standard spec
    ``key`` (with the values it takes), or None."""
    if key == DHSS:
        if as_bool(text, allow_is=False) is None:
            return ('extra spec %s must be true or false (or yes/no, on/off, 1/0), got %r.'
                    % (key, text))
    elif key in BOOLEAN_SPECS:
        if as_bool(text) is None:
            return ('extra spec %s must be true or false (or yes/no, on/off, 1/0, '
                    '"<is> True", "<is> False"), got %r.' % (key, text))
    elif key == REPLICATION_TYPE:
        if text not in REPLICATION_TYPES:
            return 'extra spec %s must be one of %s, got %r.' % (
                key, ', '.join(REPLICATION_TYPES), text)
    elif key == ENCRYPTION_SUPPORT:
        if text not in ENCRYPTION_TYPES:
            return 'extra spec %s must be one of %s, got %r.' % (
                key, ', '.join(ENCRYPTION_TYPES), text)
    elif key == AVAILABILITY_ZONES:
        if not all(item.strip() for item in text.split(',')):
            return ('extra spec %s must be availability zone names separated by commas, '
                    'none of them empty, got %r.' % (key, text))
    elif key in SIZE_SPECS:
        number = whole_number(text)
        if number is None or number < 1:
            return 'extra spec %s must be a whole number of GiB, 1 or more, got %r.' % (
                key, text)
    return None


def prepare_extra_specs(extra_specs, dhss):
    """The task's extra specs as strings, with driver_handles_share_servers merged.

    InvalidInput for keys or values Manila refuses (its standard specs
    checked by its own rules: ``spec_problem``), and for a
    driver_handles_share_servers given twice with two values.
    ``availability_zones`` is sent as Manila stores it (``sanitize_csv``).
    """
    specs = {}
    problems = []
    for key, value in (extra_specs or {}).items():
        key = str(key)
        if not KEY_RE.match(key):
            problems.append('extra spec key %r may only hold letters, digits and _ . : -.'
                            % key)
            continue
        if value is None:
            problems.append('extra spec %r has no value.' % key)
            continue
        if isinstance(value, (dict, list, tuple, set)):
            # str() would store Python's text of it ("{'a': 1}").
            problems.append('extra spec %r: the value must be a string, a number or a '
                            'boolean, not a %s (Manila stores extra specs as strings; '
                            'give the text the backend expects, e.g. "a,b" or "<in> a").'
                            % (key, 'dict' if isinstance(value, dict) else 'list'))
            continue
        text = as_metadata_value(value)
        if not 1 <= len(text) <= VALUE_MAX:
            problems.append('extra spec %r: the value must be 1-%d characters long.'
                            % (key, VALUE_MAX))
            continue
        problem = spec_problem(key, text)
        if problem:
            problems.append(problem)
            continue
        specs[key] = sanitize_csv(text) if key == AVAILABILITY_ZONES else text
    if dhss is not None:
        if DHSS in specs and as_bool(specs[DHSS]) not in (None, dhss):
            problems.append('driver_handles_share_servers is %s, but extra_specs says %s.'
                            % (dhss, specs[DHSS]))
        specs[DHSS] = as_metadata_value(dhss)
    if problems:
        raise InvalidInput('Invalid share type settings, nothing was changed: %s'
                           % ' '.join(problems))
    return specs


def prepare_projects(projects):
    """The task's projects (names or IDs), deduplicated and sorted; Keystone
    resolves them (``ShareTypeAPI.resolve_projects``)."""
    if projects is None:
        return None
    wanted = set()
    for project in projects:
        text = (project or '').strip()
        if not text:
            raise InvalidInput('projects: an empty project name or ID is in the list.')
        wanted.add(text)
    return sorted(wanted)


# -- the plan ------------------------------------------------------------------------

class TypePlan(Plan):
    """What to do to one share type.

    ``body``: the create body; ``update``: the PUT body (description,
    visibility); ``specs_set``/``specs_delete``: extra spec changes;
    ``grant``/``revoke``: project IDs.
    """

    def __init__(self, action, body=None, update=None, specs_set=None, specs_delete=None,
                 grant=None, revoke=None, before=None, after=None):
        super(TypePlan, self).__init__(action, before, after)
        self.body = body
        self.update = update or {}
        self.specs_set = specs_set or {}
        self.specs_delete = specs_delete or []
        self.grant = grant or []
        self.revoke = revoke or []


def diff_view(share_type, projects=None):
    if not share_type:
        return {}
    view = dict(name=share_type.get('name'), description=share_type.get('description'),
                is_public=is_public(share_type),
                extra_specs=dict(share_type.get('extra_specs') or {}))
    if projects is not None:
        view['projects'] = sorted(projects)
    return view


def plan_create(name, specs, description=None, public=None, projects=None):
    """Create a type; ``specs`` from prepare_extra_specs."""
    if DHSS not in specs:
        raise InvalidInput(
            'driver_handles_share_servers is required to create share type %s: Manila '
            'needs it (true for backends that create share servers on share networks, '
            'false for those that export from existing servers).' % name)
    if projects and public is not False:
        raise InvalidInput('projects apply to private share types: set is_public=false '
                           'to create %s private.' % name)
    body = {'name': name, 'extra_specs': specs}
    if description is not None:
        body['description'] = description
    if public is not None:
        body[IS_PUBLIC] = public
    after = diff_view(dict(body, **{IS_PUBLIC: True if public is None else public}),
                      projects if public is False else None)
    return TypePlan(CREATE, body=body, grant=list(projects or []), after=after)


def plan_update(share_type, specs, purge_specs=False, description=None, public=None,
                projects=None, current_projects=None, name=None):
    """Bring an existing type to the task (None: left as it is).

    ``current_projects``: the type's access list (read only when the task
    declares ``projects`` for a private type); ``name``: the name the type
    should have (a rename: the task found it by its ID).
    """
    current = share_type.get('extra_specs') or {}
    specs_set = dict((k, v) for k, v in specs.items()
                     if not same_spec_value(current.get(k), v, k))
    specs_delete = []
    if purge_specs:
        specs_delete = sorted(k for k in current if k not in specs and k not in REQUIRED_SPECS)
    update = {}
    if name is not None and name != share_type.get('name'):
        update['name'] = name
    if description is not None and description != (share_type.get('description') or ''):
        update['description'] = description
    if public is not None and public != is_public(share_type):
        update[IS_PUBLIC] = public
    will_be_public = is_public(share_type) if public is None else public
    grant, revoke = [], []
    if projects is not None:
        if will_be_public:
            raise InvalidInput(
                'projects apply to private share types, and share type %s (%s) is public: '
                'set is_public=false, or leave projects out.' % (share_type.get('name'),
                                                                 share_type['id']))
        # Exact IDs: Manila stores any string, so an entry spelt unlike
        # Keystone's ID gives no access and is replaced.
        have = current_projects or []
        grant = [p for p in projects if p not in have]
        revoke = [h for h in have if h not in projects]
    before = diff_view(share_type, current_projects if projects is not None else None)
    after = dict(before)
    extra = dict(current)
    extra.update(specs_set)
    for key in specs_delete:
        extra.pop(key, None)
    after['extra_specs'] = extra
    if 'name' in update:
        after['name'] = update['name']
    if 'description' in update:
        after['description'] = update['description']
    if IS_PUBLIC in update:
        after['is_public'] = update[IS_PUBLIC]
    if projects is not None:
        after['projects'] = sorted(projects)
    changed = bool(specs_set or specs_delete or update or grant or revoke)
    return TypePlan(UPDATE if changed else NOTHING, update=update, specs_set=specs_set,
                    specs_delete=specs_delete, grant=grant, revoke=revoke,
                    before=before, after=after)


def plan_absent(share_type):
    if share_type is None:
        return TypePlan(NOTHING)
    return TypePlan(DELETE, before=diff_view(share_type), after={})


def required_features(plan):
    """[(feature, what)] a plan needs from the negotiated API."""
    needed = []
    if plan.body and 'description' in plan.body:
        needed.append(('share_type_description', 'A share type description'))
    if 'name' in plan.update:
        needed.append(('share_type_rename', 'Renaming a share type'))
    if 'description' in plan.update:
        needed.append(('share_type_update', 'Changing a share type\'s description'))
    if IS_PUBLIC in plan.update:
        needed.append(('share_type_update', 'Changing a share type\'s visibility'))
    return needed


# -- calls ---------------------------------------------------------------------------

def _admin_only(exc):
    return same_details(exc, ManilaError, (
        'Managing share types is admin-only under Manila\'s default policy, and this '
        'user may not (Manila said: %s). Run the task with an admin\'s credentials, or '
        'ask an admin for the type.' % exc.message))


def type_label(share_type):
    return label(share_type) if share_type.get('name') else 'Share type %s' % share_type['id']


def recycled_message(said, binned):
    """The refusal of a type that shares in the recycle bin hold."""
    return ('%s: shares in the recycle bin hold it: %s. Restore them and delete or '
            'move them, or delete them for good (openkeel.manila.share with their id '
            'and state=absent), then delete the type.' % (said, ', '.join(
                '%s (%s)' % (s.get('name'), s['id']) for s in binned)))


class ShareTypeAPI(ResourceAPI):
    """The share type calls: the shared ones (resource.ResourceAPI, admin-only
    refusals explained), and extra specs and project access."""

    kind = 'share_type'

    def resolve_projects(self, wanted, known=()):
        """Keystone's ID of each project of the task (names or IDs), sorted.

        A value that is exactly an ID in ``known`` (the type's access list) is
        taken as it is; every other one costs one Keystone request (a second
        only when the first misses: an ID spelt with or without dashes, or a
        name that looks like an ID).  InvalidInput, before any write, for a
        project Keystone does not know and for a name several domains use.
        """
        ids = set()
        for value in wanted:
            ids.add(value if value in known else self.keystone_project(value))
        return sorted(ids)

    def keystone_project(self, value):
        """The Keystone ID of the project named or identified by ``value``
        (``identity.find_projects``, with the other spellings of an ID)."""
        try:
            found = identity.find_projects(self.client, value, other_spellings=True)
        except Forbidden as exc:
            raise same_details(exc, ManilaError, (
                'projects: Keystone does not let this user look up project %r (Keystone '
                'said: %s). Managing share types takes an admin, who may.'
                % (value, exc.message)))
        if len(found) > 1:
            raise InvalidInput(
                'projects: %d Keystone projects are named %r (IDs: %s); give the ID '
                'of the one meant.' % (len(found), value, ', '.join(sorted(
                    '%s in domain %s' % (p['id'], p.get('domain_id')) for p in found))))
        if found:
            return found[0]['id']
        raise InvalidInput('projects: Keystone has no project with the name or ID %r (or '
                           'this user may not see it).' % value)

    def refuse_unseen_for_member(self, name_or_id):
        """Before anything else, for a type this user cannot see: a caller
        without the admin role is told that types are admins' and that this
        one is not visible to it (a private type shows only to admins and to
        the projects granted access), instead of what a create would need.
        The token's roles are known already: no request."""
        own = self.client.token_project()
        if own is None or 'admin' in own['roles']:
            return
        raise InvalidInput(
            'Share type %r is not visible to this user: no type with that name or ID is '
            'public or granted to project %s (a private type shows only to admins and to '
            'the projects granted access). Creating and changing share types is '
            'admin-only under Manila\'s default policy, and this user has the roles %s, '
            'not admin. Nothing was changed. Run the task with an admin\'s credentials, '
            'or ask an admin to create the type or to grant this project access to it.'
            % (name_or_id, own['name'], ', '.join(sorted(own['roles'])) or 'none'))

    def refuse_taken_name(self, share_type, name):
        """Before a rename: Manila keeps one type per name, so a name another
        type has fails the task before any write, naming that type (one
        listing, only when the task renames)."""
        other = self.find_by_name(name)
        if other is not None and other['id'] != share_type['id']:
            raise InvalidInput(
                '%s cannot be renamed to %r: share type %s has that name, and Manila '
                'keeps one type per name. Nothing was changed; rename or delete that '
                'type first, or choose another name.' % (type_label(share_type), name,
                                                         other['id']))

    def projects(self, type_id):
        """The project IDs with access to a private type (admin-only)."""
        body = if_found(self.client.get, 'types/%s/share_type_access' % type_id)
        if body is None:
            return []   # a public type has no list
        return sorted(p['project_id'] for p in body.get('share_type_access', []))

    # -- writes: each through write_once (see client.write_once) ---------------
    @reword(Forbidden, _admin_only)
    def create(self, body):
        """Create the type ``body`` describes, at most once; returns ``(type, adopted)``.

        After a lost answer or a 5xx the type is looked up by its name.  There
        are no namesakes to settle afterwards, unlike shares: Manila keeps one
        type per name (a unique key on the name), so of two tasks creating one
        type at the same moment the second is refused with 409 "already
        exists".  That task converges on the type the other one made
        (``adopted``: the caller brings it to the task like a type it had
        found), with a warning.
        """
        name = body['name']
        adopted = []

        def send():
            try:
                return self.client.post('types', {'share_type': body})['share_type']
            except Conflict as exc:
                found = writes.made_by_name(self.client, 'share_type', name)()
                if found is None or 'exists' not in (exc.message or ''):
                    raise
                adopted.append(found['id'])
                self.client.warn(
                    'Another task created share type %r (%s) at the same moment as this '
                    'one, and Manila keeps one type per name; the task converged on that '
                    'type.' % (name, found['id']))
                return found
        made = self.create_once(send, body)
        return made, bool(adopted)

    @reword(Forbidden, _admin_only)
    def update(self, resource_id, body, feature='share_type_update'):
        return super(ShareTypeAPI, self).update(resource_id, body, feature)

    @reword(Forbidden, _admin_only)
    def set_specs(self, type_id, specs):
        def applied():
            held = (self.get(type_id) or {}).get('extra_specs') or {}
            return True if all(same_spec_value(held.get(k), v, k) for k, v in specs.items()) else None
        self.client.write_once(
            lambda: self.client.post('types/%s/extra_specs' % type_id, {'extra_specs': specs}),
            applied, 'the extra specs update of share type %s' % type_id)

    @reword(Forbidden, _admin_only)
    def delete_spec(self, type_id, key):
        # a spec already gone is what the task wanted
        self.client.write_once(
            lambda: if_found(self.client.delete,
                             'types/%s/extra_specs/%s' % (type_id, quote(key, safe=''))),
            writes.lacks_key(self.client, 'share_type', type_id, key, 'extra_specs'),
            'the removal of extra spec %r of share type %s' % (key, type_id))

    @reword(Forbidden, _admin_only)
    def grant(self, type_id, project):
        self.client.write_once(
            lambda: self.client.action('types/%s' % type_id, 'addProjectAccess',
                                       {'project': project}),
            lambda: True if project in self.projects(type_id) else None,
            'granting project %s access to share type %s' % (project, type_id))

    @reword(Forbidden, _admin_only)
    def revoke(self, type_id, project):
        self.client.write_once(
            lambda: self.client.action('types/%s' % type_id, 'removeProjectAccess',
                                       {'project': project}),
            lambda: True if project not in self.projects(type_id) else None,
            'revoking the access of project %s to share type %s' % (project, type_id))

    @reword(Forbidden, _admin_only)
    def delete(self, resource_id, share_type=None):
        """Delete the type; Manila's bare "still in use" refusal is explained
        (``in_use``: read only after the refusal)."""
        try:
            super(ShareTypeAPI, self).delete(resource_id)
        except ManilaError as exc:
            if exc.status != 400 or 'in use' not in (exc.message or ''):
                raise
            raise self.in_use(share_type or {'id': resource_id}, exc)

    def refuse_if_recycled_shares_hold(self, share_type):
        """Before a delete: shares of the type in the recycle bin (API 2.69+)
        hold it, and Manila would refuse the delete; say so without sending it."""
        if not self.client.supports('soft_delete'):
            return
        binned = self.shares_of(share_type['id'], soft_deleted=True)
        if binned:
            raise InvalidInput(recycled_message(
                '%s is still in use, and Manila deletes no type in use' % type_label(share_type),
                binned))

    def in_use(self, share_type, refusal):
        """What holds a type Manila refused to delete as still in use: shares in
        the recycle bin (looked up), or else share group types (Manila counts
        both; the shares outside the bin were checked before the delete)."""
        binned = []
        if self.client.supports('soft_delete'):
            binned = self.shares_of(share_type['id'], soft_deleted=True)
        said = '%s is still in use, and Manila deletes no type in use (Manila said: %s)' % (
            type_label(share_type), refusal.message)
        if binned:
            message = recycled_message(said, binned)
        elif self.client.supports('soft_delete'):
            message = (
                '%s. No share of the type is in the recycle bin either, so a share group '
                'type lists it (Manila counts those too): delete that share group type '
                'first.' % said)
        else:
            message = (
                '%s. Either shares in the recycle bin hold it (API %s cannot list the '
                'recycle bin; 2.69 can) or a share group type lists it (Manila counts '
                'those too): delete them first.' % (said, self.client.version))
        return CannotConverge(message, status=refusal.status, request_id=refusal.request_id,
                              method=refusal.method, url=refusal.url)

    def shares_of(self, type_id, limit=10, soft_deleted=False):
        """Up to ``limit`` shares of the type (every project this user may see);
        ``soft_deleted``: those in the recycle bin instead (API 2.69+)."""
        query = {'share_type_id': type_id, 'all_tenants': 1, 'limit': limit}
        if soft_deleted:
            query['is_soft_deleted'] = 'true'
        return self.client.get('shares', query=query).get('shares', [])

    def apply(self, share_type, plan):
        """Send an update plan; return the type as Manila now has it."""
        type_id = share_type['id']
        if plan.update:
            share_type = self.update(type_id, plan.update)
        if plan.specs_set:
            self.set_specs(type_id, plan.specs_set)
        for key in plan.specs_delete:
            self.delete_spec(type_id, key)
        for project in plan.grant:
            self.grant(type_id, project)
        for project in plan.revoke:
            self.revoke(type_id, project)
        if plan.specs_set or plan.specs_delete:
            extra = dict(share_type.get('extra_specs') or {})
            extra.update(plan.specs_set)
            for key in plan.specs_delete:
                extra.pop(key, None)
            share_type = dict(share_type, extra_specs=extra)
        return share_type
