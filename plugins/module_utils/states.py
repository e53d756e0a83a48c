# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Every Manila status list this collection reasons about, defined once."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

# The status of a share at rest, ready for use.
SHARE_AVAILABLE = 'available'

# Share statuses that mean an operation failed: a wait stops on them at once.
SHARE_ERROR_STATES = frozenset([
    'error',
    'error_deleting',
    'error_deferred_deleting',
    'extending_error',
    'shrinking_error',
    'shrinking_possible_data_loss_error',
    'manage_error',
    'unmanage_error',
    'reverting_error',
    'backup_restoring_error',
])

# The share status in which Manila refuses access rule changes below API 2.74
# (manila/share/api.py _any_invalid_share_instance adds STATUS_ERROR to the
# refused statuses unless the request is 2.74+). The other *_error statuses
# (extending_error, reverting_error, ...) take rule changes at every version.
SHARE_RULES_NEED_2_74_STATES = frozenset(['error'])

# Share and snapshot statuses on the way out of Manila by an unmanage (the data
# stays on the storage): the resource then disappears from Manila.
UNMANAGING_STATES = frozenset([
    'unmanage_starting',
    'manage_error_unmanage_starting',
    'unmanaged',
])

# Share statuses that are on their way somewhere else.
SHARE_BUSY_STATES = frozenset([
    'creating',
    'creating_from_snapshot',
    'deleting',
    'deferred_deleting',
    'extending',
    'shrinking',
    'migrating',
    'migrating_to',
    'manage_starting',
    'unmanage_starting',
    'replication_change',
    'reverting',
    'reverting_to_snapshot',
    'awaiting_transfer',
    'backup_creating',
    'backup_restoring',
    'ensuring',
    'server_migrating',
    'server_migrating_to',
])

# A revert under way, and the status Manila leaves a share in when it failed.
SHARE_REVERTING_STATES = frozenset(['reverting', 'reverting_to_snapshot'])
SHARE_REVERT_FAILED = 'reverting_error'

# A share Manila is handing over to another project (an open transfer offer).
SHARE_AWAITING_TRANSFER = 'awaiting_transfer'

# Share statuses of a share being created: namesakes in them are tasks racing
# for the name, not a standing ambiguity.
SHARE_CREATING_STATES = frozenset(['creating', 'creating_from_snapshot'])

# Share statuses of a share on its way out: it still carries its name (and
# shows in listings) but is no longer a share anyone can converge on.
SHARE_LEAVING_STATES = frozenset([
    'deleting',
    'deferred_deleting',
    'deleted',
])

# Share statuses of a migration under way: Manila refuses access rule
# changes for as long as they last.
SHARE_MIGRATING_STATES = frozenset([
    'migrating',
    'migrating_to',
    'server_migrating',
    'server_migrating_to',
])

# Snapshot statuses (manila/common/constants.py SHARE_SNAPSHOT_STATUSES, and
# the deferred-deletion ones of snapshot instances).
SNAPSHOT_AVAILABLE = 'available'
SNAPSHOT_ERROR_STATES = frozenset([
    'error',
    'error_deleting',
    'error_deferred_deleting',
    'manage_error',
    'unmanage_error',
])
SNAPSHOT_BUSY_STATES = frozenset([
    'creating',
    'deleting',
    'deferred_deleting',
    'manage_starting',
    'unmanage_starting',
    'restoring',
    'migrating',
    'migrating_to',
])
# A snapshot a share is being reverted to.
SNAPSHOT_RESTORING = 'restoring'
# Manila deletes a snapshot only in these (the others need an admin's force-delete).
SNAPSHOT_DELETABLE_STATES = frozenset(['available', 'error'])
# Snapshots on their way out: they still carry their name but nobody can converge on them.
SNAPSHOT_LEAVING_STATES = frozenset(['deleting', 'deferred_deleting'])
# On their way out: Manila leaves them out when it picks a share's latest snapshot.
SNAPSHOT_DEFERRED_DELETE_STATES = frozenset(['deferred_deleting', 'error_deferred_deleting'])

# Share replica statuses (a replica is a share instance; manila/common/constants.py).
REPLICA_AVAILABLE = 'available'
REPLICA_ERROR_STATES = frozenset(['error', 'error_deleting'])
REPLICA_BUSY_STATES = frozenset(['creating', 'deleting', 'replication_change'])
# Replicas on their way out: a listing still shows them, but they no longer count.
REPLICA_LEAVING_STATES = frozenset(['deleting', 'error_deleting', 'deleted'])
# A replica's replica_state (manila/common/constants.py REPLICA_STATE_*).
REPLICA_STATE_ACTIVE = 'active'
REPLICA_STATE_IN_SYNC = 'in_sync'
REPLICA_STATE_OUT_OF_SYNC = 'out_of_sync'
REPLICA_STATE_ERROR = 'error'

# Access rule states.
ACCESS_ERROR_STATES = frozenset(['error'])
ACCESS_ACTIVE_STATES = frozenset(['active'])
# Rule states on the way out: the rule still exists (and still blocks an
# allow of the same target) until it is gone from the listing.
ACCESS_DENY_STATES = frozenset(['queued_to_deny', 'denying', 'deleted'])
# Rules shown with these values were hidden by a visibility lock (2.82+).
ACCESS_REDACTED_VALUE = '******'
# A share's access_rules_status.
ACCESS_RULES_STATUS_ACTIVE = frozenset(['active'])
ACCESS_RULES_STATUS_ERROR = frozenset(['error'])

# Migration task states.
MIGRATION_SUCCESS = 'migration_success'
MIGRATION_CANCELLED = 'migration_cancelled'
MIGRATION_DRIVER_PHASE1_DONE = 'migration_driver_phase1_done'
MIGRATION_PHASE1_DONE_STATES = frozenset([
    MIGRATION_DRIVER_PHASE1_DONE,
    'data_copying_completed',
])
MIGRATION_ERROR_STATES = frozenset(['migration_error', 'data_copying_error'])
MIGRATION_FINAL_STATES = frozenset([MIGRATION_SUCCESS, MIGRATION_CANCELLED])
MIGRATION_IN_FLIGHT_STATES = frozenset([
    'migration_starting',
    'migration_in_progress',
    'migration_driver_starting',
    'migration_driver_in_progress',
    MIGRATION_DRIVER_PHASE1_DONE,
    'data_copying_starting',
    'data_copying_in_progress',
    'data_copying_completing',
    'data_copying_completed',
    'data_copying_cancelled',
    'migration_completing',
    'migration_cancel_in_progress',
])
# Where a migration can be cancelled (Manila refuses elsewhere with 400).
MIGRATION_CANCELLABLE_STATES = frozenset([
    'migration_driver_in_progress',
    MIGRATION_DRIVER_PHASE1_DONE,
    'data_copying_in_progress',
    'data_copying_completed',
])
# A cancel under way.
MIGRATION_CANCELLING_STATES = frozenset([
    'migration_cancel_in_progress',
    'data_copying_cancelled',
])
# The cutover (phase 2) under way: too late to cancel.
MIGRATION_COMPLETING_STATES = frozenset(['migration_completing'])
# The statuses of a migration's two share instances: the source and the
# destination.
MIGRATION_SOURCE_INSTANCE_STATUS = 'migrating'
MIGRATION_DESTINATION_INSTANCE_STATUS = 'migrating_to'

# Share network statuses (2.63+; older APIs show none). network_change: a
# security service or subnet change is being applied to its share servers.
SHARE_NETWORK_ACTIVE = 'active'
SHARE_NETWORK_ERROR_STATES = frozenset(['error'])
SHARE_NETWORK_BUSY_STATES = frozenset(['network_change'])

# A Manila service's scheduling status (its ``disabled`` flag) and its heartbeat state
# (manila/api/views/services.py; the listing filters on both).
SERVICE_STATUSES = frozenset(['enabled', 'disabled'])
SERVICE_STATES = frozenset(['up', 'down'])

# Share server statuses (manila/common/constants.py SHARE_SERVER_STATUSES).
SHARE_SERVER_STATUSES = frozenset([
    'active', 'error', 'deleting', 'creating', 'manage_starting', 'unmanage_starting',
    'unmanage_error', 'manage_error', 'inactive', 'server_migrating', 'server_migrating_to',
    'network_change',
])
