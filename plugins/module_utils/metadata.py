# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Metadata of shares and snapshots, and the PUT body the two kinds share.

Helpers that no kind owns, used by shares.py, snapshots.py, access.py (the
metadata of a rule), share_types.py (extra spec values), fleet.py and the
share_type_info module.  All are pure functions but ``send_metadata_plan``,
which sends through the API class it is given:

- what a task's metadata becomes before any request: Manila's own checks
  (``metadata_items``, the one validator; ``normalize_metadata`` also
  refuses Manila's reserved ``__`` keys), its values as Manila stores them
  (``as_metadata_value``), a null value as "remove this key";
- what an update changes (``metadata_changes``: keys to set and keys to
  delete, never a reserved key) and how a plan's changes are sent through an
  API class (``send_metadata_plan``); what a create sends
  (``metadata_to_send``) and which keys are the user's (``user_metadata``);
- the PUT body of a share or a snapshot (``update_body``: Manila's
  ``display_*`` keys, only what differs) and what the resource shows once it
  took effect (``update_fields``).

What belongs to one kind stays in its file: a share's limits and plan in
shares.py, a snapshot's revert keys in snapshots.py.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput

# Keys Manila sets for itself (scheduler affinity and the like).
RESERVED_METADATA_PREFIX = '__'

# Manila's limits on metadata keys and values.
METADATA_KEY_MAX, METADATA_VALUE_MAX = 255, 1023


# -- metadata ------------------------------------------------------------------

def user_metadata(metadata):
    """The metadata keys a user owns (Manila's ``__`` keys left out)."""
    return dict((k, v) for k, v in (metadata or {}).items()
                if not k.startswith(RESERVED_METADATA_PREFIX))


def as_metadata_value(value):
    """A metadata value as Manila stores it: a string (booleans as True/False)."""
    if isinstance(value, bool):
        return 'True' if value else 'False'
    return str(value)


def metadata_items(metadata, where='metadata', removals=False):
    """Task metadata as Manila takes it, checked by Manila's rules before any request.

    The one metadata validator of the collection (shares, snapshots, the
    fleet, access rules).  Manila (``check_metadata_properties`` in
    manila/api/common.py) refuses an empty key, a key longer than 255
    characters, an empty value and a value longer than 1023 characters;
    keys that are only blanks are refused here too.  Numbers and booleans
    become strings (booleans as True/False); lists and dicts are refused.

    A null value (``{key: null}`` or ``{key: }`` in YAML) means "remove this
    key if present" where ``removals`` is true: it stays None in the result.
    Elsewhere it is refused (it would be stored as the text "None").
    ``where`` starts every message ("metadata", "ip rule '10.0.0.1' metadata").
    """
    nested = sorted(str(k) for k, v in (metadata or {}).items() if isinstance(v, (dict, list)))
    if nested:
        raise InvalidInput('%s values must be strings, numbers or booleans; %s '
                           'holds a %s.' % (where, ', '.join(nested), 'list or dict'))
    items = dict((str(k), None if v is None else as_metadata_value(v))
                 for k, v in (metadata or {}).items())
    for key, value in sorted(items.items()):
        if not key.strip():
            raise InvalidInput('%s: a key is empty.' % where)
        if len(key) > METADATA_KEY_MAX:
            raise InvalidInput('%s: key %r is longer than %d characters.'
                               % (where, key, METADATA_KEY_MAX))
        if value is None:
            if not removals:
                raise InvalidInput('%s: key %r has no value (null); give it a value.'
                                   % (where, key))
            continue
        if not value:
            raise InvalidInput(
                '%s: key %r has an empty value, which Manila refuses.%s' % (
                    where, key, ' To remove the key, give it no value (null): %s: ~'
                    % key if removals else ''))
        if len(value) > METADATA_VALUE_MAX:
            raise InvalidInput('%s: the value of key %r is longer than %d characters.'
                               % (where, key, METADATA_VALUE_MAX))
    return items


def normalize_metadata(metadata):
    """A share's or snapshot's metadata from the task, with string keys and
    values, checked before any request (metadata_items; Manila's reserved
    ``__`` keys refused).  A key whose value is None is to be removed."""
    normalized = metadata_items(metadata, removals=True)
    reserved = sorted(k for k in normalized if k.startswith(RESERVED_METADATA_PREFIX))
    if reserved:
        raise InvalidInput('metadata keys starting with "__" are reserved for '
                           'Manila and cannot be set here: %s' % ', '.join(reserved))
    return normalized


def metadata_to_send(metadata):
    """The items of normalized metadata that a create sends (removals left out)."""
    return dict((k, v) for k, v in (metadata or {}).items() if v is not None)


def metadata_changes(current, desired, purge):
    """(keys to set with their values, keys to delete) to reach ``desired``.

    Values are compared as Manila stores them: strings.  A key whose desired
    value is None (null in the task) is deleted when present, with or without
    ``purge``.  Reserved ``__`` keys are never set or deleted.
    """
    current = user_metadata(current)
    desired = normalize_metadata(desired)
    to_set = dict((k, v) for k, v in desired.items() if v is not None and current.get(k) != v)
    to_delete = sorted(k for k in current if (k in desired and desired[k] is None)
                       or (purge and k not in desired))
    return to_set, to_delete


def send_metadata_plan(api, resource, plan):
    """Send a plan's metadata changes (``metadata_set``, ``metadata_delete``)
    through ``api`` (ShareAPI, SnapshotAPI: set_metadata, delete_metadata_key);
    the resource with its metadata as Manila now has it."""
    if not (plan.metadata_set or plan.metadata_delete):
        return resource
    metadata = dict(resource.get('metadata') or {})
    if plan.metadata_set:
        api.set_metadata(resource['id'], plan.metadata_set)
        metadata.update(plan.metadata_set)
    for key in plan.metadata_delete:
        api.delete_metadata_key(resource['id'], key)
        metadata.pop(key, None)
    return dict(resource, metadata=metadata)


# -- the PUT body of a share or a snapshot ----------------------------------------

def update_body(resource, name=None, description=None, is_public=None):
    """The PUT body of a share or a snapshot (``shares/{id}``, ``snapshots/{id}``)
    for what differs from ``resource`` (Manila's display_* keys)."""
    body = {}
    if name is not None and name != resource.get('name'):
        body['display_name'] = name
    if description is not None and description != (resource.get('description') or ''):
        body['display_description'] = description
    if is_public is not None and bool(is_public) != bool(resource.get('is_public')):
        body['is_public'] = is_public
    return body


def update_fields(body):
    """What a share (or snapshot) shows once the PUT ``body`` took effect: its
    display_* keys under the names Manila shows them."""
    shown = {'display_name': 'name', 'display_description': 'description'}
    return dict((shown.get(key, key), value) for key, value in body.items())
