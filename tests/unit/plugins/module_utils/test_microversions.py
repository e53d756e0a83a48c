# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""microversions.FEATURES at both sides of every boundary, through the client.

The table below restates, from Manila's API reference, the microversion that
brought each feature and the one from which its calls no longer need the
experimental header. A row that moves in FEATURES (or a feature added there
without a row here) fails a test.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import microversions
from ansible_collections.openkeel.manila.plugins.module_utils.errors import UnsupportedFeature
from ansible_collections.openkeel.manila.plugins.module_utils.microversions import (
    APIVersion,
    FEATURES,
    MAX_KNOWN_VERSION,
    MIN_SUPPORTED_VERSION,
    feature_min_version,
    feature_needs_experimental,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    expect,
    make_client,
)

# feature: (first version, first version without the experimental header or None)
EXPECTED = {
    'cephx_access_rules': ('2.13', None),
    'revert_to_snapshot': ('2.27', None),
    'migration': ('2.29', '2.96'),
    'share_groups': ('2.31', '2.55'),
    'snapshot_export_locations': ('2.32', None),
    'export_location_filter': ('2.35', None),
    'name_pattern_filter': ('2.36', None),
    'user_messages': ('2.37', None),
    'ipv6_access_rules': ('2.38', None),
    'share_type_description': ('2.41', None),
    'share_list_count': ('2.42', None),
    'security_service_ou': ('2.44', None),
    'access_rule_metadata': ('2.45', None),
    'share_access_rules_api': ('2.45', None),
    'share_type_update': ('2.50', None),
    'share_type_rename': ('2.50', None),
    'share_network_subnets': ('2.51', None),
    'message_time_filters': ('2.52', None),
    'share_network_in_use_updates': ('2.63', None),
    'scheduler_hints': ('2.65', None),
    'only_host_hint': ('2.67', None),
    'soft_delete': ('2.69', None),
    'snapshot_metadata': ('2.73', None),
    'access_rules_on_error_share': ('2.74', None),
    'security_service_default_ad_site': ('2.76', None),
    'snapshot_list_count': ('2.79', None),
    'resource_locks': ('2.81', None),
    'access_rule_locks': ('2.82', None),
    'mount_point_name': ('2.84', None),
    'update_access_level': ('2.88', None),
    'availability_zone_filter': ('2.97', None),
    'migration_progress_api': ('2.98', None),
    'quota_details': ('2.25', None),
    'share_type_quotas': ('2.39', None),
    'share_group_quotas': ('2.40', None),
    'share_replica_quotas': ('2.53', None),
    'per_share_gigabytes_quota': ('2.62', None),
    'share_backup_quotas': ('2.80', None),
    'encryption_keys_quota': ('2.90', None),
    'share_replicas': ('2.11', '2.56'),
    'replica_export_locations': ('2.47', '2.56'),
    'replica_share_network': ('2.72', None),
    'replica_quiesce_wait_time': ('2.75', None),
    'replica_metadata': ('2.95', None),
    'manage_is_public': ('2.8', None),
    'manage_snapshot': ('2.12', None),
    'manage_share_server': ('2.49', None),
    'share_transfers': ('2.77', None),
    'service_disabled_reason': ('2.83', None),
    'service_ensuring': ('2.86', None),
    'service_ensuring_filter': ('2.93', None),
}


def before(version):
    v = APIVersion(version)
    return '%d.%d' % (v.major, v.minor - 1)


def test_every_feature_has_a_row_here():
    assert sorted(FEATURES) == sorted(EXPECTED)


def test_the_supported_range():
    assert str(MIN_SUPPORTED_VERSION) == '2.29'
    assert str(MAX_KNOWN_VERSION) == '2.99'


@pytest.mark.parametrize('feature', sorted(EXPECTED))
def test_feature_boundary(feature):
    first, graduated = EXPECTED[feature]
    assert feature_min_version(feature) == APIVersion(first)
    # (below 2.29, the oldest version the collection negotiates, a feature is always there)
    client, _session = make_client([], max_version=str(max(APIVersion(first), MIN_SUPPORTED_VERSION)))
    assert client.supports(feature) is True
    client.require(feature)  # no error
    if APIVersion(first) > MIN_SUPPORTED_VERSION:
        client, _session = make_client([], max_version=before(first))
        assert client.supports(feature) is False
        with pytest.raises(UnsupportedFeature) as info:
            client.require(feature)
        assert 'needs Manila API %s; this cloud offers %s.' % (first, before(first)) in str(info.value)


@pytest.mark.parametrize('feature', sorted(EXPECTED))
def test_experimental_header_boundary(feature):
    first, graduated = EXPECTED[feature]
    if graduated is None:
        for version in (first, '2.99'):
            assert feature_needs_experimental(feature, version) is False
        return
    assert feature_needs_experimental(feature, first) is True
    assert feature_needs_experimental(feature, before(graduated)) is True
    assert feature_needs_experimental(feature, graduated) is False
    assert feature_needs_experimental(feature, '2.99') is False
    # and on the wire, both sides of the boundary
    for version, experimental in ((before(graduated), True), (graduated, False)):
        client, _session = make_client(
            [expect('GET', '/v2/x', ScriptedResponse(200, {}), experimental=experimental)],
            max_version=version)
        client.get('x', feature=feature)


@pytest.mark.parametrize('value,text', [('2.65', '2.65'), (' 2.7 ', '2.7'), ('10.100', '10.100'),
                                        (APIVersion('2.3'), '2.3')])
def test_versions_parse_and_print(value, text):
    v = APIVersion(value)
    assert str(v) == text and repr(v) == text
    assert v == APIVersion(text) and hash(v) == hash(APIVersion(text))


@pytest.mark.parametrize('value', ['2', '2.x', 'v2.1', '2.1.1', '', None, '2.-1'])
def test_not_a_version(value):
    with pytest.raises(ValueError) as info:
        APIVersion(value)
    assert 'is not a Manila API version' in str(info.value)


def test_versions_compare_numerically_not_as_text():
    assert APIVersion('2.9') < APIVersion('2.10')
    assert APIVersion('2.10') > '2.9'
    assert APIVersion('1.99') < '2.0'
    assert (APIVersion('2.10') < '2.10') is False
    assert APIVersion('2.10') <= '2.10'
    assert APIVersion('2.10') != '2.1'
    assert len({APIVersion('2.5'), APIVersion(' 2.5'), APIVersion('2.6')}) == 2


def test_module_exports():
    assert microversions.feature_min_version('migration') == APIVersion('2.29')
