# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The calls every kind of Manila resource makes the same way: one base class
(and the shape of a plan, ``Plan``).

``ResourceAPI`` gets, finds, creates once (and settles a race for the name,
or, for a kind whose resources have no name, sees the one that was not there
before), lists the resources of a parent share, updates, sets and deletes
metadata, deletes and waits, for any kind.  A kind's API class (ShareAPI,
SnapshotAPI, ShareNetworkAPI, SecurityServiceAPI, ShareTypeAPI, ReplicaAPI,
LockAPI, TransferAPI, AccessAPI, MigrationAPI) sets only ``kind``: its row in
the kinds table (kinds.py), from which the base reads

- how it is listed and read (``spec``: its paths and keys);
- ``noun``: how write messages name it ("the deletion of share network X");
- ``label(resource)``: how waits and errors name one ("Share data (ID)");
- ``states``: its status table (``Statuses``: ready, busy, error, leaving),
  read from the row's ``status_field``;
- ``feature``: the feature every call of the kind carries (the microversion
  check and the experimental header: replicas, locks, transfers);
- ``metadata_feature``: the feature its metadata calls need (None: none);
- its parent (``list_for(parent_id)``: the resources of one share).

and adds only what is its own (resize, revert, subnets, rule lists,
promote), or overrides a hook: ``namesake_filters`` (where a name must be
unique), ``racing`` (namesakes still being made or removed), ``wait_out``
(how a busy resource is waited for), ``update_shown`` (what a PUT shows once
applied), ``update_observer``, ``explainer`` (what explains a failed wait),
``remove_namesake`` (how a task removes the namesake it made and does not
keep), ``deletion_words`` (how the deletion is named).

Missing is fine, said one way: ``get`` answers None for a resource Manila
does not have, and ``if_found(call, ...)`` answers None for any other call
that meets a 404 (``if_found(api.delete, ID)``: a deletion of a resource
already gone is done).

Every write goes through ``client.write_once`` (``writes.create_once``): a
lost answer or a 5xx is followed by a look at Manila, never by a blind second
request.

What stays off the base: ``quotas.QuotaAPI``.  A quota set is a set of
settings of a project (or user, share type, quota class), not a resource: it
has no ID, no name, no status, is never created or deleted (only set and
reset to its defaults), and is read at paths made from its scope; none of
the base's calls would apply to it.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from urllib.parse import quote

from ansible_collections.openkeel.manila.plugins.module_utils import kinds
from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils import writes
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    NotFound,
    WaitFailed,
)
from ansible_collections.openkeel.manila.plugins.module_utils.waiter import (
    GONE,
    user_message_explainer,
    wait_for_status,
    wait_until,
)


# A kind's status table and the one of kinds without a status (kinds.py's).
Statuses = kinds.Statuses
NO_STATUS = kinds.NO_STATUS

# The default ``explain`` of a wait: the resource's own (ResourceAPI.explainer).
OWN = object()


# The action of a plan that changes nothing.
NOTHING = 'nothing'
# The actions most kinds' plans share (a kind may have more: revert, reset, ...).
CREATE = 'create'
UPDATE = 'update'
DELETE = 'delete'


class Plan(object):
    """What to do to one resource, the shape every kind's plan has: ``action``
    (create, update, delete, ... or NOTHING), the ``before`` and ``after``
    views of the diff, and ``changed``.  A kind's plan adds its own fields
    (the create body, the PUT body, the metadata changes, ...).

    A plan whose fields are its steps (a share's access rules, its delete
    locks) overrides ``action`` with a read-only property that names the
    change its steps make, so that ``changed`` follows them."""

    def __init__(self, action, before=None, after=None):
        self._action = action
        self.before = before if before is not None else {}
        self.after = after if after is not None else {}

    @property
    def action(self):
        return self._action

    @action.setter
    def action(self, value):
        self._action = value

    @property
    def changed(self):
        return self.action != NOTHING

    def __repr__(self):
        return '%s(%r)' % (type(self).__name__, self.action)


# The fields of a PUT body as a diff view names them.
UPDATE_VIEW_FIELDS = (('display_name', 'name'), ('display_description', 'description'),
                      ('is_public', 'is_public'))


def apply_to_view(view, update=None, metadata_set=None, metadata_delete=None):
    """A diff view (with its ``metadata``) as it will be after a planned PUT
    body ``update`` and metadata changes: check mode's ``after``."""
    after = dict(view)
    for body_key, view_key in UPDATE_VIEW_FIELDS:
        if body_key in (update or {}):
            after[view_key] = update[body_key]
    metadata = dict(after['metadata'])
    metadata.update(metadata_set or {})
    for key in metadata_delete or []:
        metadata.pop(key, None)
    after['metadata'] = metadata
    return after


def find_settled(client, kind, name, is_race, timeout, extra_filters=None):
    """The resource of ``kind`` named ``name``, or None; AmbiguousName for several.

    Several namesakes of which some are still being created or deleted
    (``is_race(namesakes)``) are tasks racing for the name (see
    writes.settle_namesakes): the lookup waits (up to ``timeout``) until
    they settle, then decides.
    """
    def namesakes():
        return lookups.list_by_name(client, kind, name, extra_filters)
    found = namesakes()
    if len(found) > 1 and is_race(found):
        found = wait_until(
            client, namesakes, ready=lambda items: len(items) < 2 or not is_race(items),
            what='The %ss named %r' % (lookups.KINDS[kind].label, name),
            goal='the tasks creating them at the same time to settle',
            timeout=timeout,
            describe=lambda items: ', '.join('%s %s' % (i['id'], i.get('status'))
                                             for i in items))
    return lookups.single(kind, name, found)


def left_as_read(exc, key):
    """A failed wait (WaitFailed) whose failure carries the resource as the
    wait last read it, under ``key`` of the task's result (the kind: ``share``,
    ``snapshot``, ``share_network``), unless the caller put it there already;
    nothing for a resource that is gone.  Returns ``exc``."""
    if exc.resource is not None:
        exc.result.setdefault(key, exc.resource)
    return exc


def if_found(call, *args, **kwargs):
    """``call(*args, **kwargs)``, or None when Manila answers 404: the one way
    to say that a missing resource is fine."""
    try:
        return call(*args, **kwargs)
    except NotFound:
        return None


class FromRow(object):
    """A class attribute read from the kind's row (``field``), ``default`` for
    a class without a kind; a subclass may still set its own value."""

    def __init__(self, field, default):
        self.field = field
        self.default = default

    def __get__(self, instance, owner):
        if owner.kind is None:
            return self.default
        return getattr(kinds.KINDS[owner.kind], self.field)


class ResourceAPI(object):
    """The shared calls of one kind of resource (see the module docstring)."""

    kind = None
    noun = FromRow('noun', None)
    states = FromRow('statuses', NO_STATUS)
    feature = FromRow('feature', None)
    metadata_feature = FromRow('metadata_feature', None)
    label = FromRow('label_of', kinds.default_label)
    # Added to the message of a busy resource that the task may not wait for.
    busy_hint = ''

    def __init__(self, client, timeout=180):
        self.client = client
        self.timeout = timeout

    # -- the row ---------------------------------------------------------------
    @property
    def spec(self):
        return kinds.KINDS[self.kind]

    def path(self, resource_id=None):
        """The collection's path (``shares``), or one resource's (``shares/ID``)."""
        item = self.spec.item
        return item[:-len('/%s')] if resource_id is None else item % resource_id

    def supported(self):
        """Whether this cloud's microversion has the kind's feature (True without one)."""
        return self.feature is None or self.client.supports(self.feature)

    def require_feature(self, what=None):
        """Fail, before any write, when the kind's feature needs a newer microversion."""
        if self.feature is not None:
            self.client.require(self.feature, what)

    # -- hooks -----------------------------------------------------------------
    def namesake_filters(self, resource):
        """The listing filters within which a name must be unique (None: all)."""
        return None

    @staticmethod
    def racing(namesakes):
        """True when some of several namesakes are still being made or removed."""
        return False

    @staticmethod
    def update_shown(body):
        """What the resource shows once the PUT ``body`` took effect."""
        return body

    def explainer(self, resource):
        """An ``explain`` for the waits on ``resource``: Manila's user messages about it."""
        return user_message_explainer(self.client, resource['id'])

    def update_observer(self, resource_id, body):
        return writes.changed_to(self.client, self.kind, resource_id, self.update_shown(body))

    def remove_namesake(self, resource, wait=True):
        """Remove a namesake this task made and does not keep (settle_namesakes;
        ``wait``: the task's).  A resource just made is used by nothing: it is
        deleted at once."""
        if_found(self.delete, resource['id'])

    def deletion_words(self, resource_id):
        """How messages name the deletion of ``resource_id``."""
        return 'the deletion of %s %s' % (self.noun, resource_id)

    # -- reads -----------------------------------------------------------------
    def get(self, resource_id):
        """The resource with this ID, or None when Manila says it does not exist."""
        return lookups.get_by_id(self.client, self.kind, resource_id)

    def list_for(self, parent_id, query=None, paged=False):
        """The resources of the parent ``parent_id`` (a share: the row's
        ``parent_filter`` names it), with the row's listing query and ``query``;
        one request, or every page (``paged``: lookups.list_all).  The parent
        filter comes after ``query`` in the URL, unless ``query`` places it."""
        spec = self.spec
        full = dict(spec.listing_query)
        full.update(query or {})
        full[spec.parent_filter] = parent_id
        if paged:
            return lookups.list_all(self.client, spec.listing, spec.list_key, full,
                                    kind_feature=self.feature)
        return self.client.get(spec.listing, query=full,
                               feature=self.feature).get(spec.list_key, [])

    def find(self, name_or_id):
        """The resource with this ID (a UUID-shaped value, tried first) or else
        this name (find_by_name)."""
        if lookups.looks_like_uuid(name_or_id):
            found = self.get(name_or_id)
            if found is not None:
                return found
        return self.find_by_name(name_or_id)

    def find_by_name(self, name):
        """The resource named ``name``, or None; AmbiguousName for several,
        unless some are still being made or removed (``racing``): tasks racing
        for the name, waited for (up to the timeout) until they settle."""
        return self.find_named(name)

    def find_named(self, name, extra_filters=None):
        """find_by_name among the resources ``extra_filters`` list."""
        return find_settled(self.client, self.kind, name, self.racing, self.timeout,
                            extra_filters)

    def require(self, name_or_id):
        """Like find(); NotFound naming it when there is none."""
        found = self.find(name_or_id)
        if found is None:
            raise NotFound('No %s with the name or ID %r was found.'
                           % (self.spec.label, name_or_id), status=404)
        return found

    # -- create, once ----------------------------------------------------------
    def create(self, body):
        """Create the resource ``body`` describes, at most once (see write_once).

        After a lost answer or a 5xx it is looked up by its name; found, it is
        taken as the one this create made (with several, the oldest, as
        settle_namesakes would choose).  Follow with ``settle_namesakes``.
        """
        key = self.spec.item_key
        return self.create_once(lambda: self.client.post(
            self.path(), {key: body}, feature=self.feature)[key], body)

    def create_once(self, send, body):
        """``send()`` (a create of ``body``) through writes.create_once."""
        return writes.create_once(self.client, self.kind, send, body['name'],
                                  self.namesake_filters(body), self.states.leaving)

    def created_among(self, parent_id, known_ids, matches=None, listing=None):
        """An observer for the create of a resource without a name: the
        resource of the parent that was not there before (its ID not among
        ``known_ids``, not on its way out, ``matches(resource)`` when given),
        or None.  ``listing()``: how the parent's resources are listed
        (``list_for(parent_id)`` by default)."""
        known = set(known_ids)
        listing = listing or (lambda: self.list_for(parent_id))

        def observe():
            new = [r for r in listing() if r['id'] not in known
                   and r.get(self.spec.status_field) not in self.states.leaving
                   and (matches is None or matches(r))]
            return new[0] if new else None
        return observe

    def create_unnamed(self, body, parent_id, known_ids, what, matches=None, send=None,
                       listing=None):
        """Create a resource that has no name (a replica, a lock, a transfer),
        at most once: after a lost answer or a 5xx, the resource of
        ``parent_id`` that was not among ``known_ids`` is it (created_among,
        with ``matches`` and ``listing``).  ``send``: another request than the
        POST of ``body``; ``what`` names the create in messages."""
        key = self.spec.item_key

        def post():
            return self.client.post(self.path(), {key: body}, feature=self.feature)[key]
        return self.client.write_once(
            send or post, self.created_among(parent_id, known_ids, matches, listing), what)

    def settle_namesakes(self, mine, wait=True):
        """After creating ``mine``: make sure its name ends up on one resource
        (writes.settle_namesakes): a newer one of this task's is removed
        (``remove_namesake``).  Returns ``(resource, adopted)``."""
        return writes.settle_namesakes(
            self.client, self.kind, mine, lambda own: self.remove_namesake(own, wait),
            self.namesake_filters(mine), self.states.leaving)

    # -- other writes: each looks at Manila when its answer is lost ------------
    def update(self, resource_id, body, feature=None):
        key = self.spec.item_key
        return self.client.write_once(
            lambda: self.client.put(self.path(resource_id), {key: body},
                                    feature=feature or self.feature)[key],
            self.update_observer(resource_id, body),
            'the update of %s %s' % (self.noun, resource_id))

    def set_metadata(self, resource_id, items):
        self.client.write_once(
            lambda: self.client.post('%s/metadata' % self.path(resource_id),
                                     {'metadata': items}, feature=self.metadata_feature),
            writes.holds_items(self.client, self.kind, resource_id, items),
            'the metadata update of %s %s' % (self.noun, resource_id))

    def delete_metadata_key(self, resource_id, key):
        self.client.write_once(
            lambda: if_found(self.client.delete, '%s/metadata/%s' % (
                self.path(resource_id), quote(key, safe='')), feature=self.metadata_feature),
            writes.lacks_key(self.client, self.kind, resource_id, key),
            'the removal of metadata key %r of %s %s' % (key, self.noun, resource_id))

    def delete(self, resource_id):
        """Delete the resource; True once Manila took the deletion (NotFound
        when it has no such resource: ``if_found(api.delete, ID)`` where that
        is fine)."""
        def send():
            self.client.delete(self.path(resource_id), feature=self.feature)
            return True
        return self.client.write_once(
            send, writes.gone_or_leaving(self.client, self.kind, resource_id,
                                         self.states.leaving),
            self.deletion_words(resource_id))

    # -- waits -----------------------------------------------------------------
    def wait(self, resource, targets=None, explain=OWN):
        """Wait until the resource is in one of ``targets`` (its ready states);
        an error state fails the wait, with Manila's user messages about it
        (``explainer``; ``explain``: other words for a failure, None: none)."""
        resource_id = resource['id']
        if explain is OWN:
            explain = self.explainer(resource)
        try:
            return wait_for_status(
                self.client, lambda: self.get(resource_id),
                self.states.ready if targets is None else targets, self.states.error,
                self.label(resource), self.timeout, field=self.spec.status_field,
                explain=explain)
        except WaitFailed as exc:
            raise left_as_read(exc, self.kind)

    def wait_gone(self, resource):
        return self.wait(resource, targets=(GONE,))

    def wait_if_busy(self, resource, wait=True):
        """A busy resource waited for until it rests (``wait_out``)."""
        if not self.must_wait(resource, wait):
            return resource
        return self.wait_out(resource)

    def must_wait(self, resource, wait):
        """True when the resource is busy; CannotConverge when it is busy and
        the task may not wait (``wait`` false)."""
        status = resource.get(self.spec.status_field)
        if status not in self.states.busy:
            return False
        if not wait:
            raise CannotConverge('%s is busy (%s); run again later or set wait=true.%s'
                                 % (self.label(resource), status,
                                    self.busy_hint))
        return True

    def wait_out(self, resource):
        """Wait until a busy resource rests (wait_if_busy)."""
        return self.wait(resource)
