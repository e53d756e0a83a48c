# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Manila API microversions: the one table of what needs which version."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import functools
import re


@functools.total_ordering
class APIVersion(object):
    """A Manila microversion such as ``2.65`` that compares numerically."""

    def __init__(self, value):
        if isinstance(value, APIVersion):
            self.major, self.minor = value.major, value.minor
            return
        match = re.match(r'^\s*(\d+)\.(\d+)\s*$', str(value))
        if not match:
            raise ValueError('%r is not a Manila API version (expected e.g. 2.65)' % (value,))
        self.major, self.minor = int(match.group(1)), int(match.group(2))

    def _key(self):
        return (self.major, self.minor)

    def __eq__(self, other):
        return self._key() == APIVersion(other)._key()

    def __lt__(self, other):
        return self._key() < APIVersion(other)._key()

    def __hash__(self):
        return hash(self._key())

    def __str__(self):
        return '%d.%d' % (self.major, self.minor)

    __repr__ = __str__


# The newest microversion whose behaviour this collection knows.
MAX_KNOWN_VERSION = APIVersion('2.99')
# The oldest one it supports (migration's required flags arrived in 2.29).
MIN_SUPPORTED_VERSION = APIVersion('2.29')

# feature -> (first microversion, first microversion that no longer needs the
# experimental header, or None when the call never needed it).
FEATURES = {
    'user_messages': ('2.37', None),
    # snapshots, revert and user-message filters (issue 11)
    'revert_to_snapshot': ('2.27', None),
    'snapshot_export_locations': ('2.32', None),
    'message_time_filters': ('2.52', None),
    'snapshot_metadata': ('2.73', None),
    'ipv6_access_rules': ('2.38', None),
    'cephx_access_rules': ('2.13', None),
    'name_pattern_filter': ('2.36', None),
    # listings that answer with_count=true with the number of matches: paging
    # stops once it has them all (issue 21)
    'share_list_count': ('2.42', None),
    'snapshot_list_count': ('2.79', None),
    'export_location_filter': ('2.35', None),
    'access_rule_metadata': ('2.45', None),
    'share_access_rules_api': ('2.45', None),
    'scheduler_hints': ('2.65', None),
    'only_host_hint': ('2.67', None),
    'soft_delete': ('2.69', None),
    'access_rules_on_error_share': ('2.74', None),
    # share delete locks (issue 24); access rule locks came one version later
    'resource_locks': ('2.81', None),
    'access_rule_locks': ('2.82', None),
    'mount_point_name': ('2.84', None),
    'update_access_level': ('2.88', None),
    'availability_zone_filter': ('2.97', None),
    'migration': ('2.29', '2.96'),
    'migration_progress_api': ('2.98', None),
    # share networks, security services, share types (issue 11)
    'share_type_description': ('2.41', None),
    'security_service_ou': ('2.44', None),
    'share_type_update': ('2.50', None),
    'share_type_rename': ('2.50', None),   # `name` in the share type update (issue 36)
    'share_network_subnets': ('2.51', None),
    'share_network_in_use_updates': ('2.63', None),
    'share_groups': ('2.31', '2.55'),   # listed to find what blocks a network's deletion
    'security_service_default_ad_site': ('2.76', None),
    # quotas and limits (issue 22)
    'quota_details': ('2.25', None),
    'share_type_quotas': ('2.39', None),
    'share_group_quotas': ('2.40', None),
    'share_replica_quotas': ('2.53', None),
    'per_share_gigabytes_quota': ('2.62', None),
    'share_backup_quotas': ('2.80', None),
    'encryption_keys_quota': ('2.90', None),
    # share replicas (issue 23): experimental until 2.56
    'share_replicas': ('2.11', '2.56'),
    'replica_export_locations': ('2.47', '2.56'),
    'replica_share_network': ('2.72', None),
    'replica_quiesce_wait_time': ('2.75', None),
    'replica_metadata': ('2.95', None),
    # manage and unmanage (issue 24): is_public on a managed share, snapshots,
    # shares on share servers (manage with share_server_id, unmanage of them)
    'manage_is_public': ('2.8', None),
    'manage_snapshot': ('2.12', None),
    'manage_share_server': ('2.49', None),
    # share transfers (issue 24)
    'share_transfers': ('2.77', None),
    # services (issue 38): why one is disabled, whether it is ensuring its shares
    # (the field at 2.86, the listing filter at 2.93)
    'service_disabled_reason': ('2.83', None),
    'service_ensuring': ('2.86', None),
    'service_ensuring_filter': ('2.93', None),
}


def feature_min_version(feature):
    return APIVersion(FEATURES[feature][0])


def feature_needs_experimental(feature, version):
    graduated = FEATURES[feature][1]
    return graduated is not None and APIVersion(version) < APIVersion(graduated)
