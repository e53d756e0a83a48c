# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""One share's steps, taken alike by the ``share`` task (tasks/share.py: ShareTask)
and by each entry of the ``shares`` fleet (fleet.Fleet).

Here is, once, what a share is asked and what is done to it:

- its fields (``SHARE_FIELDS``): the options a ``share`` task and a
  ``shares`` entry both take, from which both argument specs
  (``argument_spec``) and both desired states (``desired_state``) are made;
- its checks before any request (``input_problems``: size, protocol, the
  length of name and description, the options of one state) and before a
  create (``refuse_create``: no create with a given ID nor under a
  UUID-shaped name; ``create_references``: every share type, network,
  snapshot and zone the create names exists; ``require_share_type``: a
  cloud without a default type needs one named);
- its plans (``plan_present``: create, restore or update; ``plan_deletion``:
  delete or soft delete) and its writes (``send_restore``, ``send_update``,
  ``send_deletion``, ``adopt``: a namesake another task created at the same
  moment, converged on as a found share).

What differs stays with the flows: the share task waits for each step
inline and handles snapshots, locks and manage; the fleet batches the
entries, polls every wait in one loop and reports per share.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput
from ansible_collections.openkeel.manila.plugins.module_utils.shares import (
    SOFT_DELETE,
    check_create_options,
    plan_absent,
    plan_create,
    plan_restore,
    plan_update,
    share_input_problems,
)

# -- the fields ----------------------------------------------------------------------
# The options a ``share`` task and a ``shares`` entry both take: (option,
# argument spec, in the desired state).  A field in the desired state goes
# into the plan as given (share_network is resolved to share_network_id
# first; the others steer the plan).  Options of one flow stay with it (the
# module's argument_spec, fleet.share_argument_spec), named as such.
SHARE_FIELDS = (
    ('name', dict(type='str'), True),
    ('id', dict(type='str'), False),
    ('size', dict(type='int'), True),
    ('share_proto', dict(type='str'), True),
    ('share_type', dict(type='str'), True),
    ('share_network', dict(type='str'), False),
    ('availability_zone', dict(type='str'), True),
    ('description', dict(type='str'), True),
    ('metadata', dict(type='dict'), True),
    ('is_public', dict(type='bool'), True),
    ('soft_delete', dict(type='bool', default=False), False),
    ('restore', dict(type='bool', default=False), False),
    ('deletion_lock', dict(type='bool'), False),
    ('lock_reason', dict(type='str'), False),
)

# The references a create names (option = lookups kind), looked up before it is sent.
CREATE_REFERENCES = ('share_type', 'share_network', 'snapshot', 'availability_zone')


def argument_spec(**own):
    """The argument spec of the share fields, with a flow's ``own`` options."""
    spec = dict((option, dict(field)) for option, field, _desired in SHARE_FIELDS)
    spec.update(own)
    return spec


def desired_state(params, *own):
    """The share as a task (or entry) ``params`` wants it: the desired fields
    of ``SHARE_FIELDS``, then the flow's ``own`` options."""
    options = [option for option, _field, desired in SHARE_FIELDS if desired]
    return dict((option, params[option]) for option in options + list(own))


# -- checks before any request -----------------------------------------------------------
# input_problems (shares.share_input_problems): the fields' checks, one set for both flows.
input_problems = share_input_problems


def refuse_create(share_id, name, name_is_id=True):
    """No share is created with a given ID, nor under a UUID-shaped name (a
    mistyped ID): InvalidInput.  ``name_is_id``: the flow tried a UUID-shaped
    name as an ID first (the ``share`` task; the fleet matches names only)."""
    if share_id:
        raise InvalidInput('No share with ID %s exists; a share cannot be created with a '
                           'given ID (leave out "id" to create one).' % share_id)
    if lookups.looks_like_uuid(name):
        if name_is_id:
            raise InvalidInput(
                'No share has the ID or the name %s. A UUID-shaped name is taken as a share '
                'ID, and no share is created under such a name: check the ID (is the share '
                'deleted, or in another project?), or give the new share a name that is '
                'not a UUID.' % name)
        raise InvalidInput(
            'name: no share is named %s, and no share is created under a UUID-shaped '
            'name (a mistyped ID?): give an existing share\'s ID as id, or the new share '
            'a name that is not a UUID.' % name)


def create_references(client, p, found=None, options=CREATE_REFERENCES):
    """Every resource a create names (those of ``options`` that ``p`` gives),
    looked up before anything is sent: an unknown one fails naming the
    option (check mode too).  ``found``: the lookups made so far (option,
    value) -> resource, filled in (the fleet looks each value up once)."""
    found = {} if found is None else found
    references = {}
    for option in options:
        value = p.get(option)
        if value:
            key = (option, value)
            if key not in found:
                try:
                    found[key] = lookups.require(client, option, value, option=option)
                except InvalidInput as exc:
                    found[key] = exc   # an unknown one is not asked for again
            if isinstance(found[key], InvalidInput):
                raise found[key]
            references[option] = found[key]
    return references


def require_share_type(share_type, default_type):
    """A create on a cloud without a default share type must name one."""
    if not share_type and default_type is None:
        raise InvalidInput('This cloud has no default share type, so Manila cannot '
                           'choose one: set share_type (a type name or ID).')


def uses_share_servers(share_type):
    """The share type's driver_handles_share_servers (True or False; None when
    the type as read does not say)."""
    specs = dict((share_type or {}).get('required_extra_specs') or {})
    specs.update((share_type or {}).get('extra_specs') or {})
    value = specs.get('driver_handles_share_servers')
    if value is None:
        return None
    return str(value).strip().lower() in ('true', 't', '1', 'yes', 'y', 'on')


def check_share_servers(share_type, share_network, snapshot=None):
    """A share network goes with a share type that uses share servers, and
    such a type needs one (a share made from a snapshot has its parent's):
    Manila makes a share in a network with a type that does not go to error,
    and refuses the other.  ``share_type``: the type as read (the named one,
    or the default one)."""
    uses = uses_share_servers(share_type)
    name = (share_type or {}).get('name') or (share_type or {}).get('id')
    if uses is False and share_network:
        raise InvalidInput(
            'share_network: share type %s does not use share servers '
            '(driver_handles_share_servers is False), and a share of it in share network '
            '%s would go to error: leave out share_network, or name a share type whose '
            'driver_handles_share_servers is True.' % (name, share_network))
    if uses and not share_network and not snapshot:
        raise InvalidInput(
            'share_network is required: share type %s uses share servers '
            '(driver_handles_share_servers is True), and Manila creates such a share in '
            'a share network only.' % name)


# -- plans -----------------------------------------------------------------------------------
def plan_new(desired):
    """The create of ``desired`` (its references resolved to IDs), refused for a
    missing name, protocol or size."""
    check_create_options(desired)
    return plan_create(desired)


def plan_present(share, desired, restore=False, purge_metadata=False, rename=False,
                 create=None):
    """The plan of a share the task wants present: ``create()`` for none, its
    restore from the recycle bin, or its update to ``desired`` (a callable
    giving the desired state, resolved only for an update); ``rename``: the
    task named the share by ID, so its name is the one to give it."""
    if share is None:
        return create()
    if share.get('is_soft_deleted'):
        return plan_restore(share, restore)
    return plan_update(share, desired(), purge_metadata=purge_metadata, rename=rename)


def plan_deletion(client, share, soft_delete):
    """Delete the share or move it to the recycle bin (API 2.69+)."""
    plan = plan_absent(share, soft_delete)
    if plan.action == SOFT_DELETE:
        client.require('soft_delete', 'soft_delete')
    return plan


# -- writes --------------------------------------------------------------------------------
def send_update(shares, share, plan):
    """The share's rename, description, visibility, resize and metadata."""
    return shares.apply_update(share, plan)


def send_restore(shares, share):
    """The share back from the recycle bin (Manila answers before it is done)."""
    shares.restore(share['id'])
    return dict(share, is_soft_deleted=False)


def send_deletion(shares, share_id, soft):
    if soft:
        shares.soft_delete(share_id)
    else:
        shares.delete(share_id)


def adopt(shares, share, desired, purge_metadata, wait, leave=None):
    """After a create, the namesake another task created at the same moment
    and this one keeps (ShareAPI.settle_namesakes): waited for when busy and
    brought to ``desired`` as a found share.  ``leave(share)``: True for a
    share to leave untouched.  Returns (share, touched)."""
    if wait:
        share = shares.wait_if_busy(share)
    if leave is not None and leave(share):
        return share, False
    plan = plan_update(share, desired, purge_metadata=purge_metadata)
    if plan.changed:
        share = send_update(shares, share, plan)
    return share, True
