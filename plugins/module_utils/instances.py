# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Share instances and snapshot instances: where a share or a snapshot really
lives (its host, its share server, its export locations on the backend).  A
share has one instance, more while it migrates or has replicas; a snapshot
one per instance of its share.  Admin-only under Manila's default policy.

A share's instances are one request (``shares/ID/instances``), every
instance one (``share_instances``, filtered by export location from API
2.35); a snapshot's instances one (``snapshot-instances/detail``, by
snapshot).  Export locations are one request per instance, asked for only
when the task wants them.  A share or snapshot named by name is looked for in
every project (admins see them all), one listing.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils import errors, lookups

admin_only = errors.admin_only('Share and snapshot instances are')

EVERY_PROJECT = {'all_tenants': 1}


def by_creation(instances):
    """Oldest first (the original before a migration's or a replica's copy)."""
    return sorted(instances, key=lambda i: (str(i.get('created_at') or ''), i.get('id') or ''))


def resolve(client, kind, name_or_id, option):
    """The ID of the share or snapshot a task names, looked for in every project."""
    return lookups.require(client, kind, name_or_id, extra_filters=EVERY_PROJECT,
                           option=option)['id']


@admin_only
def share_instances(client, share_id=None, export_location_path=None,
                    export_location_id=None):
    """A share's instances (``share_id``), or every instance Manila has
    (filtered by an export location's path or ID, API 2.35+)."""
    if share_id is not None:
        found = client.get('shares/%s/instances' % share_id).get('share_instances') or []
    else:
        query = {'export_location_path': export_location_path,
                 'export_location_id': export_location_id}
        if export_location_path or export_location_id:
            client.require('export_location_filter',
                           'export_location_path' if export_location_path
                           else 'export_location_id')
        found = client.get('share_instances', query=query).get('share_instances') or []
    return by_creation(found)


@admin_only
def snapshot_instances(client, snapshot_id=None):
    """A snapshot's instances, or every snapshot instance Manila has."""
    query = {'snapshot_id': snapshot_id}
    found = client.get('snapshot-instances/detail', query=query).get('snapshot_instances') or []
    return by_creation(found)


@admin_only
def with_export_locations(client, instances, snapshot=False):
    """``instances``, each with ``export_locations`` (one request each; preferred first)."""
    if snapshot:
        client.require('snapshot_export_locations', 'export_locations of snapshot instances')
        path, key = 'snapshot-instances/%s/export-locations', 'share_snapshot_export_locations'
    else:
        path, key = 'share_instances/%s/export_locations', 'export_locations'
    out = []
    for instance in instances:
        locations = client.get(path % instance['id']).get(key) or []
        locations = sorted(locations, key=lambda loc: not loc.get('preferred', False))
        out.append(dict(instance, export_locations=locations))
    return out
