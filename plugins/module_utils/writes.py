# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Writes that take effect once, and the name races that creates start.

``client.write_once(send, observe, what)`` asks ``observe()`` after a lost
answer or a 5xx: the observers here see a create by its name, a change by
reading the resource back, a deletion by its absence.  Tasks that create one
name at the same moment each make one: ``settle_namesakes`` keeps the oldest
(created_at, then ID) and has the others removed."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils.lookups import (
    KINDS,
    get_by_id,
    list_by_name,
)


def oldest(resources):
    """The resource that keeps a name several tasks created at once: the oldest
    (created_at, then ID, so that every task picks the same one)."""
    return min(resources, key=lambda r: (r.get('created_at') or '', r['id']))


def present_namesakes(client, kind, name, extra_filters=None, leaving=()):
    """Every resource of ``kind`` named ``name``, without those on their way out
    (a status in ``leaving``)."""
    return [r for r in list_by_name(client, kind, name, extra_filters)
            if r.get('status') not in leaving]


def made_by_name(client, kind, name, extra_filters=None, leaving=()):
    """An observer for a create: the resource named ``name`` (with several, the
    oldest, as settle_namesakes chooses), or None."""
    def observe():
        found = present_namesakes(client, kind, name, extra_filters, leaving)
        return oldest(found) if found else None
    return observe


def create_once(client, kind, send, name, extra_filters=None, leaving=()):
    """Send a create through write_once, seeing it by its name."""
    return client.write_once(send, made_by_name(client, kind, name, extra_filters, leaving),
                             'the create of %s %r' % (KINDS[kind].label, name))


def shows(resource, expected):
    """True when ``resource`` has every field of ``expected`` with its value
    (a field the resource does not show counts as not seen)."""
    return resource is not None and all(
        key in resource and shown_as_sent(resource[key], value) for key, value in expected.items())


def shown_as_sent(shown, wanted):
    """Whether a field Manila shows has the value a write sent (an empty text
    and none are the same; a boolean compares as one)."""
    if wanted in ('', None):
        return shown in ('', None)
    if isinstance(wanted, bool):
        return shown is wanted or str(shown).lower() == str(wanted).lower()
    return shown == wanted


def changed_to(client, kind, resource_id, expected):
    """An observer for a change: the resource (read by ID) when it shows
    ``expected`` (field: value), else None."""
    def observe():
        found = get_by_id(client, kind, resource_id)
        return found if shows(found, expected) else None
    return observe


def holds_items(client, kind, resource_id, items, field='metadata'):
    """An observer for a metadata (or extra spec) update: True when the
    resource's ``field`` holds every item, else None."""
    def observe():
        found = get_by_id(client, kind, resource_id) or {}
        held = found.get(field) or {}
        return True if all(held.get(k) == v for k, v in items.items()) else None
    return observe


def lacks_key(client, kind, resource_id, key, field='metadata'):
    """An observer for the removal of one metadata (or extra spec) key."""
    def observe():
        found = get_by_id(client, kind, resource_id) or {}
        return True if key not in (found.get(field) or {}) else None
    return observe


def gone_or_leaving(client, kind, resource_id, leaving=()):
    """An observer for a deletion: True when the resource is gone or on its
    way out (a status in ``leaving``), else None."""
    def observe():
        found = get_by_id(client, kind, resource_id)
        return True if found is None or found.get('status') in leaving else None
    return observe


def settle_namesakes(client, kind, mine, remove, extra_filters=None, leaving=()):
    """After creating ``mine``: make sure its name ends up on one resource.

    Tasks that create the same name at the same moment each find none and
    each create one.  Afterwards each looks again: the oldest namesake (by
    created_at, then ID) stays; a task whose own resource is newer removes it
    (``remove(mine)``: the API class knows when that is safe) and converges
    on the oldest, with a warning.  Returns ``(resource, adopted)``: the one
    that keeps the name, and whether it is another task's.
    """
    label = KINDS[kind].label
    name = mine.get('name')
    present = present_namesakes(client, kind, name, extra_filters, leaving)
    if not any(r['id'] == mine['id'] for r in present):
        present.append(mine)
    keeper = oldest(present)
    others = sorted(r['id'] for r in present if r['id'] != keeper['id'])
    if keeper['id'] == mine['id']:
        if others:
            client.warn(
                'Other tasks created %ss named %r at the same time (%s); this task keeps '
                '%s, the oldest, and the tasks that made the others remove them.'
                % (label, name, ', '.join(others), mine['id']))
        return mine, False
    client.warn(
        'Another task created %s %r (%s) at the same time as this one; the %s this '
        'task created (%s) was deleted, and the task converged on %s instead.'
        % (label, name, keeper['id'], label, mine['id'], keeper['id']))
    remove(mine)
    return keeper, True
