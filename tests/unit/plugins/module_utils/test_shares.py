# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import resources
from ansible_collections.openkeel.manila.plugins.module_utils.shares import (
    ShareAPI,
    create_body,
    immutable_differences,
    immutable_error,
    metadata_changes,
    predicted_after,
    sort_export_locations,
    update_body,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.recorded_http import (
    RecordedResponse,
    make_client,
)

SHARE = {
    'id': '11111111-2222-3333-4444-555555555555', 'name': 'data', 'description': 'old',
    'size': 1, 'share_proto': 'NFS', 'share_type': 'aaaaaaaa-0000-0000-0000-000000000000',
    'share_type_name': 'default', 'availability_zone': 'nova', 'share_network_id': None,
    'snapshot_id': None, 'is_public': False, 'status': 'available',
    'metadata': {'team': 'a', 'env': 'prod', '__affinity_same_host': 'x'},
}


def test_metadata_merge_sets_only_differences():
    assert metadata_changes(SHARE['metadata'], {'team': 'b', 'env': 'prod'}, False) == ({'team': 'b'}, [])


def test_metadata_purge_deletes_unlisted_user_keys_but_never_reserved_ones():
    assert metadata_changes(SHARE['metadata'], {'team': 'a'}, True) == ({}, ['env'])
    assert metadata_changes(SHARE['metadata'], {}, True) == ({}, ['env', 'team'])


def test_metadata_values_compare_as_strings():
    assert metadata_changes({'n': '1', 'b': 'True'}, {'n': 1, 'b': True}, False) == ({}, [])


def test_reserved_metadata_keys_are_refused():
    with pytest.raises(ValueError) as err:
        metadata_changes({}, {'__affinity_same_host': 'x'}, False)
    assert '__affinity_same_host' in str(err.value)


def test_immutable_fields_compare_by_name_or_id():
    assert immutable_differences(SHARE, {'share_proto': 'nfs', 'share_type': 'default'}) == []
    assert immutable_differences(SHARE, {'share_type': SHARE['share_type']}) == []
    diff = immutable_differences(SHARE, {'share_proto': 'CIFS', 'share_type': 'alpha',
                                         'availability_zone': 'az2'})
    assert [d[0] for d in diff] == ['share_proto', 'share_type', 'availability_zone']
    message = immutable_error(SHARE, diff)
    assert 'cannot be changed in place' in message and 'share_migration' in message


def test_update_uses_manilas_display_keys_and_only_differences():
    assert update_body(SHARE, name='data', description='old', is_public=False) == {}
    assert update_body(SHARE, name='new', description='d', is_public=True) == {
        'display_name': 'new', 'display_description': 'd', 'is_public': True}


def test_create_body_leaves_out_unset_options():
    params = {'share_proto': 'nfs', 'size': 2, 'name': 'x', 'metadata': {'a': 1}}
    assert create_body(params, share_type='alpha') == {
        'share_proto': 'NFS', 'size': 2, 'name': 'x', 'share_type': 'alpha', 'metadata': {'a': '1'}}


def test_predicted_after():
    after = predicted_after(SHARE, {'display_name': 'n'}, 5, {'x': '1'}, ['env'])
    assert after['name'] == 'n' and after['size'] == 5
    assert after['metadata'] == {'team': 'a', 'x': '1'}


def test_preferred_export_location_first():
    locs = [{'path': 'a', 'preferred': False}, {'path': 'b', 'preferred': True}, {'path': 'c'}]
    assert [loc['path'] for loc in sort_export_locations(locs)] == ['b', 'a', 'c']


def test_lookup_by_name_is_one_filtered_request():
    client, session = make_client([('GET', '/v2/shares/detail?name=data', RecordedResponse(200, {'shares': [SHARE]}))])
    assert ShareAPI(client).find('data')['id'] == SHARE['id']
    assert len(session.calls) == 2


def test_two_shares_with_one_name_are_reported_with_their_ids():
    other = dict(SHARE, id='99999999-2222-3333-4444-555555555555')
    client, _session = make_client([('GET', 'name=data', RecordedResponse(200, {'shares': [SHARE, other]}))])
    with pytest.raises(resources.AmbiguousName) as err:
        ShareAPI(client).find('data')
    assert SHARE['id'] in str(err.value) and other['id'] in str(err.value)


def test_uuid_is_looked_up_as_an_id():
    client, session = make_client([('GET', '/v2/shares/' + SHARE['id'], RecordedResponse(404, {'itemNotFound': {'message': 'nope'}}))])
    assert ShareAPI(client).find(SHARE['id']) is None


def test_no_default_share_type_is_none_not_an_error():
    client, _session = make_client([('GET', '/v2/types/default', RecordedResponse(
        404, {'itemNotFound': {'code': 404, 'message': 'Default share type not found'}}))])
    assert ShareAPI(client).default_share_type() is None


def test_listing_pages_with_limit_and_offset():
    client, session = make_client([
        ('GET', 'limit=2&offset=0', RecordedResponse(200, {'shares': [{'id': 1}, {'id': 2}]})),
        ('GET', 'limit=2&offset=2', RecordedResponse(200, {'shares': [{'id': 3}]})),
    ])
    assert [s['id'] for s in resources.list_all(client, 'shares/detail', 'shares', {'status': 'available'},
                                                page_size=2)] == [1, 2, 3]


def test_failed_wait_carries_manila_user_messages():
    from ansible_collections.openkeel.manila.plugins.module_utils.waiter import WaitFailed
    client, session = make_client([
        ('GET', '/v2/shares/' + SHARE['id'], RecordedResponse(200, {'share': dict(SHARE, status='error')})),
        ('GET', '/v2/messages?resource_id=' + SHARE['id'], RecordedResponse(200, {'messages': [
            {'user_message': 'allocate host: No storage could be allocated for this share request.'}]})),
    ])
    with pytest.raises(WaitFailed) as err:
        ShareAPI(client).wait(SHARE)
    assert 'No storage could be allocated' in str(err.value)


def test_user_messages_skipped_on_old_clouds():
    client, session = make_client([], max_version='2.30')
    assert resources.user_messages(client, 'abc') == ''
    assert len(session.calls) == 1
