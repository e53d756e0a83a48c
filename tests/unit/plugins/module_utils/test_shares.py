# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    AmbiguousName,
    CannotConverge,
    InvalidInput,
    NotFound,
    WaitFailed,
)
from ansible_collections.openkeel.manila.plugins.module_utils.shares import (
    CREATE,
    DELETE,
    NOTHING,
    RESTORE,
    SOFT_DELETE,
    UPDATE,
    ShareAPI,
    carries_marker,
    create_body,
    export_paths,
    immutable_differences,
    immutable_error,
    match_in_listing,
    metadata_changes,
    predicted_after,
    purge_candidates,
    sort_export_locations,
    plan_absent,
    plan_create,
    plan_restore,
    plan_update,
    update_body,
    with_marker,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
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
    with pytest.raises(InvalidInput) as err:
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
    params = {'share_proto': 'nfs', 'size': 2, 'name': 'x', 'metadata': {'a': 1},
              'share_type': 'alpha', 'description': None}
    assert create_body(params) == {
        'share_proto': 'NFS', 'size': 2, 'name': 'x', 'share_type': 'alpha', 'metadata': {'a': '1'}}


def test_predicted_after():
    after = predicted_after(SHARE, {'display_name': 'n'}, 5, {'x': '1'}, ['env'])
    assert after['name'] == 'n' and after['size'] == 5
    assert after['metadata'] == {'team': 'a', 'x': '1'}


def test_preferred_export_location_first():
    locs = [{'path': 'a', 'preferred': False}, {'path': 'b', 'preferred': True}, {'path': 'c'}]
    assert [loc['path'] for loc in sort_export_locations(locs)] == ['b', 'a', 'c']


def test_lookup_by_name_is_one_filtered_request():
    client, session = make_client([('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [SHARE]}))])
    assert lookups.find(client, 'share', 'data')['id'] == SHARE['id']
    assert len(session.calls) == 2


def test_two_shares_with_one_name_are_reported_with_their_ids():
    other = dict(SHARE, id='99999999-2222-3333-4444-555555555555')
    client, _session = make_client([('GET', '/v2/shares/detail?name=data',
                                     ScriptedResponse(200, {'shares': [SHARE, other]}))])
    with pytest.raises(AmbiguousName) as err:
        lookups.find(client, 'share', 'data')
    assert SHARE['id'] in str(err.value) and other['id'] in str(err.value)


NOT_FOUND = ScriptedResponse(404, {'itemNotFound': {'message': 'nope'}})


def test_uuid_is_looked_up_as_an_id_first():
    client, session = make_client([('GET', '/v2/shares/' + SHARE['id'], ScriptedResponse(200, {'share': SHARE}))])
    assert lookups.find(client, 'share', SHARE['id'])['name'] == 'data'
    # the versions document and one GET: no listing when the ID exists
    assert session.requests() == ['GET /', 'GET /v2/shares/' + SHARE['id']]


def test_uuid_that_is_no_id_is_looked_up_as_a_name():
    named = dict(SHARE, id='99999999-2222-3333-4444-555555555555', name=SHARE['id'])
    client, session = make_client([
        ('GET', '/v2/shares/' + SHARE['id'], NOT_FOUND),
        ('GET', '/v2/shares/detail?name=' + SHARE['id'], ScriptedResponse(200, {'shares': [named]})),
    ])
    assert lookups.find(client, 'share', SHARE['id'])['id'] == named['id']


def test_uuid_that_is_neither_id_nor_name_is_absent():
    client, session = make_client([
        ('GET', '/v2/shares/' + SHARE['id'], NOT_FOUND),
        ('GET', '/v2/shares/detail?name=' + SHARE['id'], ScriptedResponse(200, {'shares': []})),
    ])
    assert lookups.find(client, 'share', SHARE['id']) is None


def test_share_type_uuid_falls_back_to_the_listing_with_private_types():
    type_id = 'aaaaaaaa-0000-0000-0000-000000000000'
    client, session = make_client([
        ('GET', '/v2/types/' + type_id, NOT_FOUND),
        ('GET', '/v2/types?is_public=all', ScriptedResponse(200, {'share_types': [
            {'id': 'bbbbbbbb-0000-0000-0000-000000000000', 'name': type_id}]})),
    ])
    assert lookups.resolve_id(client, 'share_type', type_id) == 'bbbbbbbb-0000-0000-0000-000000000000'


def test_resolve_id_checks_an_id_unless_it_is_known():
    net_id = '22222222-3333-4444-5555-666666666666'
    client, session = make_client([
        ('GET', '/v2/share-networks/' + net_id, ScriptedResponse(200, {'share_network': {'id': net_id}})),
    ])
    assert lookups.resolve_id(client, 'share_network', net_id, known_ids=(None, 'x')) == net_id
    assert lookups.resolve_id(client, 'share_network', net_id, known_ids=(net_id,)) == net_id
    assert session.requests() == ['GET /', 'GET /v2/share-networks/' + net_id]


def test_resolve_id_names_what_is_missing():
    net_id = '22222222-3333-4444-5555-666666666666'
    client, session = make_client([
        ('GET', '/v2/share-networks/' + net_id, NOT_FOUND),
        ('GET', '/v2/share-networks/detail?name=' + net_id, ScriptedResponse(200, {'share_networks': []})),
    ])
    with pytest.raises(NotFound) as err:
        lookups.resolve_id(client, 'share_network', net_id)
    assert err.value.message == "No share network with the name or ID '%s' was found." % net_id


def test_no_default_share_type_is_none_not_an_error():
    client, _session = make_client([('GET', '/v2/types/default', ScriptedResponse(
        404, {'itemNotFound': {'code': 404, 'message': 'Default share type not found'}}))])
    assert ShareAPI(client).default_share_type() is None


def test_listing_pages_with_limit_and_offset():
    client, session = make_client([
        ('GET', '/v2/shares/detail?status=available&with_count=true&limit=2&offset=0',
         ScriptedResponse(200, {'shares': [{'id': 1}, {'id': 2}], 'count': 3})),
        ('GET', '/v2/shares/detail?status=available&with_count=true&limit=2&offset=2',
         ScriptedResponse(200, {'shares': [{'id': 3}], 'count': 3})),
    ])
    assert [s['id'] for s in lookups.list_all(client, 'shares/detail', 'shares', {'status': 'available'},
                                              page_size=2)] == [1, 2, 3]


def test_failed_wait_carries_manila_user_messages():
    client, session = make_client([
        ('GET', '/v2/shares/' + SHARE['id'], ScriptedResponse(200, {'share': dict(SHARE, status='error')})),
        ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3' % SHARE['id'],
         ScriptedResponse(200, {'messages': [
             {'user_message': 'allocate host: No storage could be allocated for this share request.'}]})),
    ])
    with pytest.raises(WaitFailed) as err:
        ShareAPI(client).wait(SHARE)
    assert 'No storage could be allocated' in str(err.value)


def test_user_messages_skipped_on_old_clouds():
    client, session = make_client([], max_version='2.30')
    assert lookups.user_messages(client, 'abc') == ''
    assert len(session.calls) == 1


# -- the plan ---------------------------------------------------------------------

DESIRED = {'name': 'data', 'size': 1, 'share_proto': 'nfs', 'share_type': None,
           'metadata': None, 'description': None, 'is_public': None}


def test_plan_create_needs_name_protocol_and_size():
    for option in ('name', 'share_proto', 'size'):
        with pytest.raises(InvalidInput) as err:
            plan_create(dict(DESIRED, **{option: None}))
        assert str(err.value) == '%s is required to create a share.' % option


def test_plan_create_body_and_diff():
    plan = plan_create(dict(DESIRED, share_type='alpha', metadata={'a': 1}))
    assert plan.action == CREATE and plan.changed
    assert plan.body == {'share_proto': 'NFS', 'size': 1, 'name': 'data',
                         'share_type': 'alpha', 'metadata': {'a': '1'}}
    assert plan.before == {} and plan.after['share_type_name'] == 'alpha'


def test_plan_update_nothing_when_the_share_matches():
    plan = plan_update(SHARE, dict(DESIRED, description='old', metadata={'team': 'a'}))
    assert plan.action == NOTHING and not plan.changed
    assert plan.before == plan.after


@pytest.mark.parametrize('size, new_size', [(2, 2), (1, None), (None, None)])
def test_plan_update_resizes_only_to_another_size(size, new_size):
    share = dict(SHARE, size=1)
    plan = plan_update(share, dict(DESIRED, size=size))
    assert plan.new_size == new_size
    assert plan.changed is (new_size is not None)


def test_plan_update_renames_only_when_identified_by_id():
    assert plan_update(SHARE, dict(DESIRED, name='other')).update == {}
    plan = plan_update(SHARE, dict(DESIRED, name='other'), rename=True)
    assert plan.action == UPDATE and plan.update == {'display_name': 'other'}
    assert plan.after['name'] == 'other' and plan.before['name'] == 'data'


def test_plan_update_metadata_merge_keeps_unlisted_keys_unless_purged():
    merged = plan_update(SHARE, dict(DESIRED, metadata={'team': 'b'}))
    assert merged.metadata_set == {'team': 'b'} and merged.metadata_delete == []
    purged = plan_update(SHARE, dict(DESIRED, metadata={'team': 'b'}), purge_metadata=True)
    assert purged.metadata_delete == ['env']
    assert purged.after['metadata'] == {'team': 'b'}


def test_plan_update_refuses_immutable_changes_and_error_states():
    with pytest.raises(InvalidInput) as err:
        plan_update(SHARE, dict(DESIRED, share_proto='CIFS'))
    assert 'cannot be changed in place' in str(err.value)
    with pytest.raises(CannotConverge) as err:
        plan_update(dict(SHARE, status='extending_error'), DESIRED)
    assert 'status extending_error' in str(err.value)


def test_plan_restore_needs_restore():
    with pytest.raises(CannotConverge) as err:
        plan_restore(dict(SHARE, is_soft_deleted=True), False)
    assert 'restore=true' in str(err.value)
    assert plan_restore(dict(SHARE, is_soft_deleted=True), True).action == RESTORE


@pytest.mark.parametrize('share, soft, action', [
    (None, False, NOTHING),
    (None, True, NOTHING),
    (SHARE, False, DELETE),
    (SHARE, True, SOFT_DELETE),
    (dict(SHARE, is_soft_deleted=True), True, NOTHING),
    (dict(SHARE, is_soft_deleted=True), False, DELETE),
])
def test_plan_absent(share, soft, action):
    plan = plan_absent(share, soft)
    assert plan.action == action
    assert plan.after == ({} if plan.changed else plan.before)


def test_apply_update_sends_put_metadata_and_resize_in_order():
    share_id = SHARE['id']
    plan = plan_update(SHARE, dict(DESIRED, name='new', size=3, metadata={'team': 'b'}),
                       purge_metadata=True, rename=True)
    renamed = dict(SHARE, name='new')
    client, session = make_client([
        ('PUT', '/v2/shares/' + share_id, ScriptedResponse(200, {'share': renamed})),
        ('POST', '/v2/shares/%s/metadata' % share_id, ScriptedResponse(200, {'metadata': {}})),
        ('DELETE', '/v2/shares/%s/metadata/env' % share_id, ScriptedResponse(200)),
        ('POST', '/v2/shares/%s/action' % share_id, ScriptedResponse(202)),
    ])
    share = ShareAPI(client).apply_update(SHARE, plan)
    assert session.bodies('PUT') == [{'share': {'display_name': 'new'}}]
    assert session.bodies('POST') == [{'metadata': {'team': 'b'}}, {'extend': {'new_size': 3}}]
    assert share['name'] == 'new' and share['status'] == 'extending'
    assert share['metadata'] == {'team': 'b', '__affinity_same_host': 'x'}


def test_a_smaller_size_shrinks():
    client, session = make_client([('POST', '/v2/shares/%s/action' % SHARE['id'], ScriptedResponse(202))])
    ShareAPI(client).resize(SHARE['id'], 1, 2)
    assert session.bodies('POST') == [{'shrink': {'new_size': 1}}]


# -- the fleet form's helpers ------------------------------------------------------

MARKER = {'key': 'owner', 'value': 'repo'}


def test_the_marker_joins_the_metadata_a_task_wants():
    assert with_marker(None, None) is None
    assert with_marker(None, MARKER) == {'owner': 'repo'}
    assert with_marker({'team': 'a'}, MARKER) == {'team': 'a', 'owner': 'repo'}
    # with the marker, plan_update sets it on an unmarked share (merge: other keys kept)
    plan = plan_update(SHARE, {'metadata': with_marker(None, MARKER)})
    assert plan.action == UPDATE and plan.metadata_set == {'owner': 'repo'}
    assert plan.metadata_delete == []


def test_purge_takes_only_marked_shares_the_task_does_not_name():
    mine = dict(SHARE, id='1', name='mine', metadata={'owner': 'repo'})
    listed = dict(SHARE, id='2', name='listed', metadata={'owner': 'repo'})
    by_id = dict(SHARE, id='3', name='renamed', metadata={'owner': 'repo'})
    foreign = dict(SHARE, id='4', name='theirs', metadata={'owner': 'other'})
    bare = dict(SHARE, id='5', name='bare', metadata={})
    listing = [mine, listed, by_id, foreign, bare]
    assert carries_marker(mine, MARKER) and not carries_marker(foreign, MARKER)
    assert not carries_marker(mine, None)
    assert purge_candidates(listing, MARKER, {'listed'}, {'3'}) == [mine]
    assert purge_candidates(listing, None, set(), set()) == []


def test_matching_in_a_listing_by_id_or_by_one_name():
    a, b = dict(SHARE, id='1', name='x'), dict(SHARE, id='2', name='x')
    assert match_in_listing([a, b], share_id='2') is b
    assert match_in_listing([a], name='x') is a
    assert match_in_listing([a], name='y') is None
    with pytest.raises(AmbiguousName) as err:
        match_in_listing([a, b], name='x')
    assert '1, 2' in str(err.value)


def test_export_paths_preferred_first_without_admin_only_ones():
    admin_view = [{'path': 'b', 'preferred': False, 'is_admin_only': False},
                  {'path': 'internal', 'preferred': True, 'is_admin_only': True},
                  {'path': 'a', 'preferred': True, 'is_admin_only': False}]
    member_view = [{'path': 'b', 'preferred': False}, {'path': 'a', 'preferred': True}]
    assert export_paths(admin_view) == ['a', 'b']
    assert export_paths(member_view) == ['a', 'b']
    assert export_paths(None) == []
