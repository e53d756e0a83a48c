# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The kinds table: one row per kind of Manila resource, every fact the
shared code needs about it in one place.

A row (``Kind``) says how the kind is listed and read (``listing`` and its
``list_key``, ``item`` and its ``item_key``, whether the listing filters by
name, the query every listing carries), how messages name it (``label``: "the
share snapshots named ...", ``noun``: "the deletion of snapshot X",
``label_of(resource)``: "Snapshot data (ID)"), its status table
(``statuses``, read from the resource's ``status_field``), the feature every
call of the kind needs (``feature``: the experimental header and the
microversion check come from microversions.FEATURES), the feature of its
metadata calls, and its parent (``parent``: the kind it belongs to, and the
listing filter that names it, ``parent_filter``).

``lookups`` (finding by name or ID), ``writes`` (the observers of write_once)
and ``resource.ResourceAPI`` (the base of every API class) read the rows; the
status constants themselves are states.py's.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils.states import (
    ACCESS_ACTIVE_STATES,
    ACCESS_DENY_STATES,
    ACCESS_ERROR_STATES,
    MIGRATION_ERROR_STATES,
    MIGRATION_FINAL_STATES,
    MIGRATION_IN_FLIGHT_STATES,
    REPLICA_AVAILABLE,
    REPLICA_BUSY_STATES,
    REPLICA_ERROR_STATES,
    REPLICA_LEAVING_STATES,
    SHARE_AVAILABLE,
    SHARE_BUSY_STATES,
    SHARE_ERROR_STATES,
    SHARE_LEAVING_STATES,
    SHARE_NETWORK_ACTIVE,
    SHARE_NETWORK_BUSY_STATES,
    SHARE_NETWORK_ERROR_STATES,
    SNAPSHOT_AVAILABLE,
    SNAPSHOT_BUSY_STATES,
    SNAPSHOT_ERROR_STATES,
    SNAPSHOT_LEAVING_STATES,
)


class Statuses(object):
    """A kind's status table: the states a wait reaches (``ready``), those of
    work under way (``busy``), failures (``error``) and those on the way out
    (``leaving``: a namesake there no longer holds its name)."""

    def __init__(self, ready=(), busy=(), error=(), leaving=()):
        self.ready = tuple(ready)
        self.busy = busy
        self.error = error
        self.leaving = leaving


# Kinds without a status (security services, share types, locks, transfers).
NO_STATUS = Statuses()


def default_label(resource):
    return 'Resource %s (%s)' % (resource.get('name'), resource.get('id') or 'new')


def share_label(share):
    """'Share NAME (ID)', capitalised: the subject that opens a message
    (lookups.share_in_sentence names a share inside one)."""
    return 'Share %s (%s)' % (share.get('name'), share['id'])


def snapshot_label(snapshot):
    return 'Snapshot %s (%s)' % (snapshot.get('name'), snapshot['id'])


def network_label(network):
    return 'Share network %s (%s)' % (network.get('name'), network.get('id') or 'new')


def security_service_label(service):
    return 'Security service %s (%s)' % (service.get('name'), service.get('id') or 'new')


def share_type_label(share_type):
    return 'Share type %s (%s)' % (share_type.get('name'), share_type.get('id') or 'new')


def replica_label(replica):
    return 'Replica %s (%s, zone %s)' % (replica['id'], replica.get('replica_state'),
                                         replica.get('availability_zone'))


def lock_label(lock):
    return 'Lock %s' % lock['id']


def transfer_label(transfer):
    return 'Transfer %s' % transfer['id']


def access_rule_label(rule):
    return 'Access rule %s' % rule['id']


def migration_label(share):
    return 'The migration of share %s' % share['id']


class Kind(object):
    """One row of the kinds table (see the module docstring)."""

    def __init__(self, label, listing, list_key, item, item_key,
                 name_filter=True, listing_query=None, noun=None, statuses=NO_STATUS,
                 status_field='status', feature=None, metadata_feature=None,
                 parent=None, parent_filter=None, label_of=default_label):
        self.label = label
        self.listing = listing
        self.list_key = list_key
        self.item = item
        self.item_key = item_key
        # False: the listing has no server-side name filter (match in it).
        self.name_filter = name_filter
        self.listing_query = listing_query or {}
        self.noun = noun or label
        self.statuses = statuses
        self.status_field = status_field
        # Every call of the kind carries it (None: no feature of its own).
        self.feature = feature
        self.metadata_feature = metadata_feature
        # The kind this one belongs to, and the listing filter naming it.
        self.parent = parent
        self.parent_filter = parent_filter
        self.label_of = label_of


KINDS = {
    'share': Kind(
        'share', 'shares/detail', 'shares', 'shares/%s', 'share',
        statuses=Statuses(ready=(SHARE_AVAILABLE,), busy=SHARE_BUSY_STATES,
                          error=SHARE_ERROR_STATES, leaving=SHARE_LEAVING_STATES),
        label_of=share_label),
    'snapshot': Kind(
        'share snapshot', 'snapshots/detail', 'snapshots', 'snapshots/%s', 'snapshot',
        noun='snapshot',
        statuses=Statuses(ready=(SNAPSHOT_AVAILABLE,), busy=SNAPSHOT_BUSY_STATES,
                          error=SNAPSHOT_ERROR_STATES, leaving=SNAPSHOT_LEAVING_STATES),
        metadata_feature='snapshot_metadata', parent='share', parent_filter='share_id',
        label_of=snapshot_label),
    'message': Kind('user message', 'messages', 'messages', 'messages/%s', 'message',
                    name_filter=False),
    'share_network': Kind(
        'share network', 'share-networks/detail', 'share_networks', 'share-networks/%s',
        'share_network',
        statuses=Statuses(ready=(SHARE_NETWORK_ACTIVE,), busy=SHARE_NETWORK_BUSY_STATES,
                          error=SHARE_NETWORK_ERROR_STATES),
        label_of=network_label),
    'share_type': Kind('share type', 'types', 'share_types', 'types/%s',
                       'share_type', name_filter=False,
                       listing_query={'is_public': 'all'}, label_of=share_type_label),
    # No GET by ID: an ID is matched in the (short) listing too.
    'availability_zone': Kind('availability zone', 'availability-zones',
                              'availability_zones', None, None, name_filter=False),
    'security_service': Kind('security service', 'security-services/detail',
                             'security_services', 'security-services/%s',
                             'security_service', label_of=security_service_label),
    # A share's delete locks (the only locks this collection places).
    'resource_lock': Kind('resource lock', 'resource-locks', 'resource_locks',
                          'resource-locks/%s', 'resource_lock', name_filter=False,
                          noun='lock', feature='resource_locks', parent='share',
                          parent_filter='resource_id', label_of=lock_label),
    # Experimental below 2.56: every replica call carries the header there.
    'share_replica': Kind(
        'share replica', 'share-replicas/detail', 'share_replicas', 'share-replicas/%s',
        'share_replica', name_filter=False, noun='replica',
        statuses=Statuses(ready=(REPLICA_AVAILABLE,), busy=REPLICA_BUSY_STATES,
                          error=REPLICA_ERROR_STATES, leaving=REPLICA_LEAVING_STATES),
        feature='share_replicas', parent='share', parent_filter='share_id',
        label_of=replica_label),
    'share_transfer': Kind('share transfer', 'share-transfers/detail', 'transfers',
                           'share-transfers/%s', 'transfer', name_filter=False,
                           noun='transfer', feature='share_transfers', parent='share',
                           parent_filter='resource_id', label_of=transfer_label),
    # A rule's status is its ``state``.  The listing (2.45+) has an older
    # form, the share's access_list action: access.AccessAPI chooses.
    'access_rule': Kind(
        'access rule', 'share-access-rules', 'access_list', 'share-access-rules/%s',
        'access', name_filter=False, noun='access rule',
        statuses=Statuses(ready=ACCESS_ACTIVE_STATES, error=ACCESS_ERROR_STATES,
                          leaving=ACCESS_DENY_STATES),
        status_field='state', parent='share', parent_filter='share_id',
        label_of=access_rule_label),
    # A share's migration, read on the share: its status is the ``task_state``.
    # Only its actions carry the ``migration`` feature (experimental below
    # 2.96): the share is read as any share is, so the row has no feature.
    'share_migration': Kind(
        'share migration', 'shares/detail', 'shares', 'shares/%s', 'share',
        name_filter=False, noun='migration',
        statuses=Statuses(ready=MIGRATION_FINAL_STATES, busy=MIGRATION_IN_FLIGHT_STATES,
                          error=MIGRATION_ERROR_STATES),
        status_field='task_state', label_of=migration_label),
    # Admin-only (share_server_info); no name of its own.
    'share_server': Kind('share server', 'share-servers', 'share_servers',
                         'share-servers/%s', 'share_server', name_filter=False),
}


def row(kind):
    """The row of ``kind`` (KeyError for a kind the table does not know)."""
    return KINDS[kind]
