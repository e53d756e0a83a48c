# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Projects by name or ID, through Keystone: the one place that looks them up.

Manila stores project IDs without checking them, so a project named in a
task (a private share type's ``projects``, the ``project`` of a quota) is
asked from Keystone's v3 API (``ManilaClient.keystone_get``).  What the
caller already knows (the token's own project, a type's access list) it
takes without asking; what to say when nothing or several projects answer
is the caller's, since it names its own option.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from urllib.parse import quote

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.errors import NotFound


def other_uuid_form(value):
    """A UUID-shaped project ID in its other spelling (with or without dashes)."""
    if not lookups.looks_like_uuid(value):
        return None
    plain = value.replace('-', '')
    if '-' in value:
        return plain
    return '-'.join((plain[:8], plain[8:12], plain[12:16], plain[16:20], plain[20:]))


def project_by_id(client, project_id):
    """``[project]`` with this Keystone ID, or ``[]``."""
    try:
        project = client.keystone_get('projects/%s' % quote(project_id, safe=''))
    except NotFound:
        return []
    return [project['project']]


def projects_by_name(client, name):
    """The Keystone projects named ``name``: those spelt exactly so when
    Keystone's filter also gave others (a case-insensitive database), else
    all it gave (one per domain that uses the name)."""
    found = client.keystone_get('projects', {'name': name}).get('projects', [])
    exact = [p for p in found if p.get('name') == name]
    return exact or found


def find_projects(client, value, other_spellings=False):
    """The Keystone projects that ``value`` (a name or an ID) stands for.

    One GET per lookup, in order, each sent only when the ones before found
    nothing: a UUID-shaped value by ID, then by name; any other by name.
    ``other_spellings`` adds the other spelling of a UUID-shaped ID (dashes
    or none, after the ID as given) and, for any other value, a lookup by ID
    after the name (Keystone IDs need not be UUIDs).

    Returns what the first lookup that found anything found (several
    projects: one name in several domains), or ``[]``.  Keystone's refusal
    (Forbidden, for a user who may not look projects up) is raised as it is.
    """
    other = other_uuid_form(value)
    if other:
        ids = [value, other] if other_spellings else [value]
        steps = [(project_by_id, v) for v in ids] + [(projects_by_name, value)]
    else:
        steps = [(projects_by_name, value)]
        if other_spellings:
            steps.append((project_by_id, value))
    for look, key in steps:
        found = look(client, key)
        if found:
            return found
    return []
