# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Shares: the limits of every check at both sides, every planner branch, and
the exact requests (and lost-answer lookups) of every ShareAPI call."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from keystoneauth1 import exceptions as ksa_exc

from ansible_collections.openkeel.manila.plugins.module_utils import manila_messages
from ansible_collections.openkeel.manila.plugins.module_utils import (
    lookups,
    shares as shares_module,
)
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    AmbiguousName,
    CannotConverge,
    InvalidInput,
    NotApplied,
    NotFound,
    UnsupportedFeature,
    WaitFailed,
    WaitTimeout,
)
from ansible_collections.openkeel.manila.plugins.module_utils.shares import (
    check_create_features,
    check_share_task,
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
    predicted_after,
    purge_candidates,
    sort_export_locations,
    plan_absent,
    plan_create,
    plan_restore,
    plan_update,
    with_marker,
    SharePlan,
    check_create_options,
    check_share_input,
    diff_view,
    racing,
    same_share_type,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    FakeClock,
    ScriptedResponse,
    expect,
    make_client,
)
from ansible_collections.openkeel.manila.plugins.modules import (
    share as share_module,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Fail,
    run_scripted,
)

SHARE = {
    'id': '11111111-2222-3333-4444-555555555555', 'name': 'data', 'description': 'old',
    'size': 1, 'share_proto': 'NFS', 'share_type': 'aaaaaaaa-0000-0000-0000-000000000000',
    'share_type_name': 'default', 'availability_zone': 'nova', 'share_network_id': None,
    'snapshot_id': None, 'is_public': False, 'status': 'available',
    'metadata': {'team': 'a', 'env': 'prod', '__affinity_same_host': 'x'},
}


def test_immutable_fields_compare_by_name_or_id():
    assert immutable_differences(SHARE, {'share_proto': 'nfs', 'share_type': 'default'}) == []
    assert immutable_differences(SHARE, {'share_type': SHARE['share_type']}) == []
    diff = immutable_differences(SHARE, {'share_proto': 'CIFS', 'share_type': 'alpha',
                                         'availability_zone': 'az2'})
    assert [d[0] for d in diff] == ['share_proto', 'share_type', 'availability_zone']
    message = immutable_error(SHARE, diff)
    assert 'cannot be changed in place' in message and 'share_migration' in message


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
    assert manila_messages.user_messages(client, 'abc') == ''
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


# -- a share with every field and the answers, for the tests below ---------------------------

SID = '11111111-2222-3333-4444-555555555555'
OTHER = '99999999-2222-3333-4444-555555555555'
LOST = ksa_exc.ConnectFailure('Connection aborted.')


def share(**fields):
    base = {'id': SID, 'name': 'data', 'description': 'd', 'size': 1, 'share_proto': 'NFS',
            'share_type': 'tid', 'share_type_name': 'default', 'availability_zone': 'nova',
            'share_network_id': 'net', 'snapshot_id': None, 'is_public': False,
            'metadata': {'a': '1', '__affinity': 'x'}, 'status': 'available'}
    base.update(fields)
    return base


def ok(body=None, status=200):
    return ScriptedResponse(status, body)


def not_found():
    return ScriptedResponse(404, {'itemNotFound': {'code': 404, 'message': 'no'}})


GET = '/v2/shares/' + SID
ACTION = GET + '/action'


# -- input limits ---------------------------------------------------------------------------

@pytest.mark.parametrize('kwargs,ok_', [
    (dict(share_proto='nfs'), True),
    (dict(share_proto='cephfs'), True),
    (dict(share_proto='MAPRFS'), True),
    (dict(share_proto='S3'), False),
    (dict(name='n' * 255), True),
    (dict(name='n' * 256), False),
    (dict(description='d' * 255), True),
    (dict(description='d' * 256), False),
    (dict(metadata={'k' * 255: 'v'}), True),
    (dict(metadata={'k' * 256: 'v'}), False),
    (dict(metadata={'k': 'v' * 1023}), True),
    (dict(metadata={'k': 'v' * 1024}), False),
    (dict(metadata={' ': 'v'}), False),
    (dict(metadata={'k': ''}), False),
    (dict(metadata={'k': None}), True),
    (dict(metadata={'_k': 'v'}), True),
    (dict(metadata={'__k': 'v'}), False),
    (dict(metadata={'k': [1]}), False),
    (dict(metadata={'k': {'a': 1}}), False),
    (dict(), True),
    # scheduler hints (issue 37)
    (dict(scheduler_hints={}), True),
    (dict(scheduler_hints={'same_host': '11111111-2222-3333-4444-555555555555'}), True),
    (dict(scheduler_hints={'different_host': '11111111-2222-3333-4444-555555555555, '
                                             '21111111-2222-3333-4444-555555555555'}), True),
    (dict(scheduler_hints={'only_host': 'host@backend#pool'}), True),
    (dict(scheduler_hints={'same_hosts': '11111111-2222-3333-4444-555555555555'}), False),
    (dict(scheduler_hints={'affinity': 'x'}), False),
    (dict(scheduler_hints={'same_host': 'data'}), False),
    (dict(scheduler_hints={'different_host': '11111111-2222-3333-4444-555555555555,data'}), False),
    (dict(scheduler_hints={'same_host': ['11111111-2222-3333-4444-555555555555']}), False),
    (dict(scheduler_hints={'only_host': ''}), False),
])
def test_share_input_limits(kwargs, ok_):
    if ok_:
        check_share_input(**kwargs)
    else:
        with pytest.raises(InvalidInput):
            check_share_input(**kwargs)


def test_input_messages():
    with pytest.raises(InvalidInput) as err:
        check_share_input(share_proto='S3')
    assert str(err.value) == ("share_proto 'S3' is not a protocol Manila knows: NFS, CIFS, "
                              "GLUSTERFS, HDFS, CEPHFS, MAPRFS.")
    with pytest.raises(InvalidInput) as err:
        check_share_input(description='d' * 300)
    assert str(err.value) == 'description is 300 characters long; Manila takes at most 255.'


def test_a_create_leaves_the_null_keys_out():
    body = create_body(dict(share_proto='nfs', size=1, name='n', metadata={'a': None, 'b': 'x'}))
    assert body['metadata'] == {'b': 'x'}
    body = create_body(dict(share_proto='nfs', size=1, name='n', metadata={'a': None}))
    assert 'metadata' not in body


# -- what cannot change ---------------------------------------------------------------------------

def test_share_types_compare_by_id_or_name():
    assert same_share_type(share(), 'tid') and same_share_type(share(), 'default')
    assert not same_share_type(share(), 'other')


def test_immutable_differences_each_field():
    s = share()
    assert immutable_differences(s, {'share_proto': 'nfs', 'share_type': 'default',
                                     'share_network_id': 'net', 'availability_zone': 'nova',
                                     'snapshot_id': None}) == []
    assert immutable_differences(s, {'share_proto': 'CIFS'}) == [('share_proto', 'NFS', 'CIFS')]
    assert immutable_differences(s, {'share_type': 'x'}) == [('share_type', 'default', 'x')]
    assert immutable_differences(share(share_type_name=None), {'share_type': 'x'}) == [
        ('share_type', 'tid', 'x')]
    assert immutable_differences(s, {'share_network_id': 'n2', 'availability_zone': 'z2',
                                     'snapshot_id': 's2'}) == [
        ('share_network', 'net', 'n2'), ('availability_zone', 'nova', 'z2'), ('snapshot', None, 's2')]
    assert immutable_differences(share(share_proto=None), {'share_proto': 'nfs'}) == [
        ('share_proto', None, 'nfs')]


def test_immutable_error_hint_only_for_type_and_network():
    text = immutable_error(share(), [('share_type', 'default', 'x')])
    assert text == ("Share data (%s) cannot be changed in place: share_type is 'default', the task "
                    "asks for 'x'. Delete and re-create it, or change the task. To move a share to "
                    "another type, network or backend, use openkeel.manila.share_migration." % SID)
    assert 'share_migration' in immutable_error(share(), [('share_network', 'a', 'b')])
    text = immutable_error(share(), [('availability_zone', 'a', 'b'), ('snapshot', None, 's')])
    assert 'share_migration' not in text and "availability_zone is 'a', the task asks for 'b'; snapshot" in text


# -- bodies and views -------------------------------------------------------------------------------

def test_create_body_every_option():
    desired = {'share_proto': 'cephfs', 'size': 2, 'name': 'n', 'description': 'd',
               'share_type': 't', 'share_network_id': 'net', 'snapshot_id': 's',
               'availability_zone': 'z', 'is_public': False, 'scheduler_hints': {'only_host': 'h'},
               'mount_point_name': 'm', 'metadata': {'k': 1}, 'other': 'x'}
    assert create_body(desired) == {
        'share_proto': 'CEPHFS', 'size': 2, 'name': 'n', 'description': 'd', 'share_type': 't',
        'share_network_id': 'net', 'snapshot_id': 's', 'availability_zone': 'z',
        'is_public': False, 'scheduler_hints': {'only_host': 'h'}, 'mount_point_name': 'm',
        'metadata': {'k': '1'}}
    assert create_body({'share_proto': 'nfs', 'size': 1, 'name': 'n', 'metadata': {}}) == {
        'share_proto': 'NFS', 'size': 1, 'name': 'n'}


def test_diff_view_fields():
    assert diff_view(None) == {} and diff_view({}) == {}
    view = diff_view(share(extra='x'))
    assert sorted(view) == sorted(shares_module.DIFF_FIELDS)
    assert view['metadata'] == {'a': '1'} and view['share_type_name'] == 'default'


def test_predicted_after_every_change():
    after = predicted_after(share(), {'display_name': 'n', 'display_description': 'x',
                                      'is_public': True}, 5, {'b': '2'}, ['a', 'zz'])
    assert (after['name'], after['description'], after['is_public'], after['size']) == ('n', 'x', True, 5)
    assert after['metadata'] == {'b': '2'}
    same = predicted_after(share())
    assert same == diff_view(share())


def test_export_location_order_and_paths():
    locations = [{'path': 'a', 'preferred': False}, {'path': 'b', 'preferred': True},
                 {'path': 'c'}, {'path': 'd', 'preferred': True, 'is_admin_only': True},
                 {'path': None, 'preferred': True}]
    assert [loc['path'] for loc in sort_export_locations(locations)] == ['b', 'd', None, 'a', 'c']
    assert export_paths(locations) == ['b', 'a', 'c']
    assert export_paths(None) == []


def test_racing():
    assert racing([{'status': 'available'}, {'status': 'creating'}])
    assert racing([{'status': 'creating_from_snapshot'}])
    assert racing([{'status': 'deleting'}])
    assert not racing([{'status': 'available'}, {'status': 'error'}])


# -- the plan: every branch ------------------------------------------------------------------------

def test_share_plan_defaults():
    plan = SharePlan('nothing')
    assert (plan.before, plan.after, plan.body, plan.update, plan.new_size,
            plan.metadata_set, plan.metadata_delete) == ({}, {}, None, {}, None, {}, [])
    assert not plan.changed and repr(plan) == "SharePlan('nothing')"
    assert SharePlan('delete').changed


@pytest.mark.parametrize('missing', ['name', 'share_proto', 'size'])
def test_plan_create_needs(missing):
    desired = {'name': 'n', 'share_proto': 'nfs', 'size': 1}
    desired[missing] = None
    with pytest.raises(InvalidInput) as err:
        plan_create(desired)
    assert str(err.value) == '%s is required to create a share.' % missing
    with pytest.raises(InvalidInput):
        check_create_options({'name': 'n'}, options=('name', 'size'))
    check_create_options({'name': 'n'}, options=('name',))


def test_plan_create_after():
    plan = plan_create({'name': 'n', 'share_proto': 'nfs', 'size': 1, 'share_type': 'gold'})
    assert plan.action == 'create' and plan.before == {}
    assert plan.after['share_type_name'] == 'gold' and plan.after['status'] == 'available'
    assert plan.body == {'share_proto': 'NFS', 'size': 1, 'name': 'n', 'share_type': 'gold'}


@pytest.mark.parametrize('status', sorted(shares_module.SHARE_ERROR_STATES))
def test_plan_update_refuses_every_error_state(status):
    with pytest.raises(CannotConverge) as err:
        plan_update(share(status=status), {})
    assert 'is in status %s' % status in str(err.value)


def test_plan_update_branches():
    s = share()
    assert plan_update(s, {'name': 'other'}).action == 'nothing'
    plan = plan_update(s, {'name': 'other'}, rename=True)
    assert plan.update == {'display_name': 'other'} and plan.action == 'update'
    plan = plan_update(s, {'size': 1, 'metadata': None})
    assert plan.new_size is None and plan.action == 'nothing'
    plan = plan_update(s, {'size': 3})
    assert plan.new_size == 3 and plan.after['size'] == 3 and plan.action == 'update'
    plan = plan_update(s, {'metadata': {'a': '1'}})
    assert plan.action == 'nothing'
    plan = plan_update(s, {'metadata': {'a': '1'}}, purge_metadata=True)
    assert plan.action == 'nothing'
    plan = plan_update(share(metadata={'a': '1', 'b': '2'}), {'metadata': {'a': '1'}},
                       purge_metadata=True)
    assert plan.metadata_delete == ['b'] and plan.action == 'update'
    plan = plan_update(share(metadata={'a': '1', 'b': '2'}), {'metadata': {'a': '1'}})
    assert plan.metadata_delete == [] and plan.action == 'nothing'
    plan = plan_update(s, {'metadata': {'c': 'x'}})
    assert plan.metadata_set == {'c': 'x'} and plan.after['metadata'] == {'a': '1', 'c': 'x'}
    assert plan.before == diff_view(s)
    plan = plan_update(s, {'description': 'new', 'is_public': True})
    assert plan.update == {'display_description': 'new', 'is_public': True}
    with pytest.raises(InvalidInput) as err:
        plan_update(s, {'share_network_id': 'other'})
    assert 'cannot be changed in place' in str(err.value)


def test_plan_restore_and_absent():
    with pytest.raises(CannotConverge):
        plan_restore(share(is_soft_deleted=True), False)
    plan = plan_restore(share(is_soft_deleted=True), True)
    assert plan.action == 'restore' and plan.before == diff_view(share())
    assert plan_absent(None).action == 'nothing'
    assert plan_absent(None, soft_delete=True).action == 'nothing'
    assert plan_absent(share(is_soft_deleted=True), soft_delete=True).action == 'nothing'
    assert plan_absent(share(is_soft_deleted=True)).action == 'delete'
    plan = plan_absent(share(), soft_delete=True)
    assert plan.action == 'soft_delete' and plan.after == {} and plan.before == diff_view(share())
    assert plan_absent(share()).action == 'delete'
    nothing = plan_absent(share(is_soft_deleted=True), soft_delete=True)
    assert nothing.before == nothing.after == diff_view(share(is_soft_deleted=True))


# -- the fleet helpers ---------------------------------------------------------------------------------

def test_markers():
    marker = {'key': 'owner', 'value': True}
    assert shares_module.marker_items(None) == {} and shares_module.marker_items({}) == {}
    assert shares_module.marker_items(marker) == {'owner': 'True'}
    assert with_marker(None, None) is None
    assert with_marker({'a': 'b'}, None) == {'a': 'b'}
    assert with_marker(None, marker) == {'owner': 'True'}
    assert with_marker({'a': 'b'}, marker) == {'a': 'b', 'owner': 'True'}
    assert carries_marker({'metadata': {'owner': 'True'}}, marker)
    assert not carries_marker({'metadata': {'owner': 'False'}}, marker)
    assert not carries_marker({'metadata': None}, marker)
    assert not carries_marker({'metadata': {'owner': 'True'}}, None)


def test_match_in_listing_and_purge_candidates():
    listing = [share(id='1', name='a'), share(id='2', name='b'), share(id='3', name='b')]
    assert match_in_listing(listing, share_id='2')['id'] == '2'
    assert match_in_listing(listing, name='a', share_id='9') is None
    assert match_in_listing(listing, name='a')['id'] == '1'
    assert match_in_listing(listing, name='z') is None
    with pytest.raises(AmbiguousName):
        match_in_listing(listing, name='b')
    marker = {'key': 'o', 'value': 'x'}
    marked = [share(id='1', name='a', metadata={'o': 'x'}), share(id='2', name='b', metadata={'o': 'x'}),
              share(id='3', name='c', metadata={'o': 'x'}), share(id='4', name='d', metadata={})]
    assert [s['id'] for s in purge_candidates(marked, marker, {'a'}, {'2'})] == ['3']


# -- the calls on the wire -----------------------------------------------------------------------------

def test_find_by_uuid_then_name_and_require():
    client, _session = make_client([
        expect('GET', GET, ok({'share': share()})),
        expect('GET', '/v2/shares/detail?name=data', ok({'shares': [share(id=OTHER)]})),
    ])
    api = ShareAPI(client)
    assert api.find(SID)['id'] == SID
    assert api.find('data')['id'] == OTHER
    client, _session = make_client([
        expect('GET', GET, not_found()),
        expect('GET', '/v2/shares/detail?name=' + SID, ok({'shares': []})),
    ])
    with pytest.raises(NotFound) as err:
        ShareAPI(client).require(SID)
    assert err.value.status == 404 and repr(SID) in str(err.value)


def test_find_by_name_in_the_recycle_bin():
    client, _session = make_client([
        expect('GET', '/v2/shares/detail?name=data&is_soft_deleted=true',
               ok({'shares': [share(status='creating'), share(id=OTHER, status='available')]})),
    ])
    with pytest.raises(AmbiguousName):
        ShareAPI(client).find_by_name('data', soft_deleted=True)


def test_find_by_name_waits_for_a_race_to_settle():
    clock = FakeClock()
    listing = '/v2/shares/detail?name=data'
    client, _session = make_client([
        expect('GET', listing, ok({'shares': [share(status='creating'), share(id=OTHER)]})),
        expect('GET', listing, ok({'shares': [share(status='creating'), share(id=OTHER)]})),
        expect('GET', listing, ok({'shares': [share(id=OTHER)]})),
    ], clock=clock)
    assert ShareAPI(client, timeout=100).find_by_name('data')['id'] == OTHER
    assert len(clock.sleeps) == 1


def test_default_share_type():
    client, _session = make_client([
        expect('GET', '/v2/types/default', ok({'share_type': {'id': 't'}})),
        expect('GET', '/v2/types/default', not_found()),
    ])
    api = ShareAPI(client)
    assert api.default_share_type() == {'id': 't'}
    assert api.default_share_type() is None


def test_create_posts_the_body_and_finds_a_lost_create_among_live_namesakes():
    body = {'name': 'data', 'size': 1, 'share_proto': 'NFS'}
    client, session = make_client([
        expect('POST', '/v2/shares', ok({'share': share(status='creating')}, 202), body={'share': body}),
        expect('POST', '/v2/shares', LOST, body={'share': body}),
        expect('GET', '/v2/shares/detail?name=data', ok({'shares': [
            share(id='z', status='deleting'), share(id=OTHER, created_at='2'),
            share(id=SID, created_at='1')]})),
    ])
    api = ShareAPI(client)
    assert api.create(body)['status'] == 'creating'
    assert api.create(body)['id'] == SID


def test_settle_namesakes_keeper_and_loser():
    mine = share(created_at='2026-01-01T00:00:01', status='available')
    theirs = share(id=OTHER, created_at='2026-01-01T00:00:00')
    listing = '/v2/shares/detail?name=data'
    # alone (the listing does not show it yet): kept, no warning
    client, _session = make_client([expect('GET', listing, ok({'shares': []}))])
    assert ShareAPI(client).settle_namesakes(mine) == (mine, False)
    assert client.warnings == []
    # the oldest: kept, with a warning naming the others
    client, _session = make_client([
        expect('GET', listing, ok({'shares': [
            mine, share(id='zz', created_at='2026-01-01T00:00:05'),
            share(id='gone', status='deleting', created_at='1')]}))])
    assert ShareAPI(client).settle_namesakes(mine) == (mine, False)
    assert '(zz)' in client.warnings[0]
    # newer: deleted, the task converges on the older one
    client, session = make_client([
        expect('GET', listing, ok({'shares': [mine, theirs]})),
        expect('DELETE', GET, ok(status=202)),
        expect('GET', GET, not_found()),
    ], clock=FakeClock())
    assert ShareAPI(client).settle_namesakes(mine) == (theirs, True)
    assert 'was deleted' in client.warnings[0] and OTHER in client.warnings[0]
    client, session = make_client([
        expect('GET', listing, ok({'shares': [mine, theirs]})),
        expect('DELETE', GET, ok(status=202)),
    ])
    assert ShareAPI(client).settle_namesakes(mine, wait=False) == (theirs, True)


def test_remove_own_waits_for_rest_and_tolerates_gone():
    clock = FakeClock()
    client, session = make_client([
        expect('GET', GET, ok({'share': share(status='creating')})),
        expect('GET', GET, ok({'share': share(status='error')})),
        expect('DELETE', GET, not_found()),
        expect('GET', GET, not_found()),
    ], clock=clock)
    api = ShareAPI(client)
    api.remove_own(share(status='creating'))
    api.remove_own(share(status='creating'))
    assert [c.method for c in session.calls[1:]] == ['GET', 'GET', 'DELETE', 'GET']


def test_update_put_and_lost_update_checks_each_field():
    body = {'display_name': 'n', 'display_description': '', 'is_public': True}
    client, session = make_client([
        expect('PUT', GET, ok({'share': share(name='n')}), body={'share': body}),
        expect('PUT', GET, LOST, body={'share': body}),
        expect('GET', GET, ok({'share': share(name='n', description=None, is_public=False)})),
        expect('GET', GET, ok({'share': share(name='x', description=None, is_public=True)})),
        expect('GET', GET, ok({'share': share(name='n', description=None, is_public=True)})),
    ], clock=FakeClock())
    api = ShareAPI(client)
    assert api.update(SID, body)['name'] == 'n'
    got = api.update(SID, body)
    assert got['is_public'] is True and got['name'] == 'n'


def test_metadata_set_and_delete_requests():
    client, session = make_client([
        expect('POST', GET + '/metadata', ok({'metadata': {'a': 'b'}}), body={'metadata': {'a': 'b'}}),
        expect('DELETE', GET + '/metadata/a%2Fb%20c', ok(status=200)),
        expect('DELETE', GET + '/metadata/x', not_found()),
    ])
    api = ShareAPI(client)
    api.set_metadata(SID, {'a': 'b'})
    api.delete_metadata_key(SID, 'a/b c')
    api.delete_metadata_key(SID, 'x')


def test_lost_metadata_writes_are_looked_up():
    client, session = make_client([
        expect('POST', GET + '/metadata', LOST),
        expect('GET', GET, ok({'share': share(metadata={'a': 'x'})})),
        expect('GET', GET, ok({'share': share(metadata={'a': 'b'})})),
        expect('DELETE', GET + '/metadata/a', LOST),
        expect('GET', GET, ok({'share': share(metadata={'a': 'b'})})),
        expect('GET', GET, not_found()),
    ], clock=FakeClock())
    api = ShareAPI(client)
    api.set_metadata(SID, {'a': 'b'})
    api.delete_metadata_key(SID, 'a')
    assert len(session.writes()) == 2


@pytest.mark.parametrize('new,current,action', [(2, 1, 'extend'), (1, 2, 'shrink')])
def test_resize_action_and_lost_resize(new, current, action):
    busy = 'extending' if action == 'extend' else 'shrinking'
    other = 'shrinking' if action == 'extend' else 'extending'
    client, session = make_client([
        expect('POST', ACTION, ok(status=202), body={action: {'new_size': new}}),
        expect('POST', ACTION, LOST, body={action: {'new_size': new}}),
        expect('GET', GET, ok({'share': share(size=current, status=other)})),
        expect('GET', GET, ok({'share': share(size=current, status=busy)})),
        expect('POST', ACTION, LOST, body={action: {'new_size': new}}),
        expect('GET', GET, ok({'share': share(size=new, status='available')})),
    ], clock=FakeClock())
    api = ShareAPI(client)
    api.resize(SID, new, current)
    api.resize(SID, new, current)
    api.resize(SID, new, current)


def test_delete_soft_delete_restore_requests():
    client, session = make_client([
        expect('DELETE', GET, ok(status=202)),
        expect('POST', ACTION, ok(status=202), body={'soft_delete': None}),
        expect('POST', ACTION, ok(status=202), body={'restore': None}),
    ], max_version='2.69')
    api = ShareAPI(client)
    api.delete(SID)
    api.soft_delete(SID)
    api.restore(SID)
    client, session = make_client([], max_version='2.68')
    for call in (ShareAPI(client).soft_delete, ShareAPI(client).restore):
        with pytest.raises(UnsupportedFeature):
            call(SID)


def test_lost_delete_soft_delete_restore_are_looked_up():
    client, session = make_client([
        expect('DELETE', GET, LOST),
        expect('GET', GET, ok({'share': share(status='available')})),
        expect('GET', GET, ok({'share': share(status='deleting')})),
        expect('POST', ACTION, LOST),
        expect('GET', GET, ok({'share': share(is_soft_deleted=False)})),
        expect('GET', GET, not_found()),
        expect('POST', ACTION, LOST),
        expect('GET', GET, not_found()),
        expect('GET', GET, ok({'share': share(is_soft_deleted=True)})),
        expect('GET', GET, ok({'share': share(is_soft_deleted=False)})),
    ], clock=FakeClock())
    api = ShareAPI(client)
    api.delete(SID)
    api.soft_delete(SID)
    api.restore(SID)
    assert len(session.writes()) == 3


def test_export_locations_request():
    client, _session = make_client([
        expect('GET', GET + '/export_locations', ok({'export_locations': [
            {'path': 'a'}, {'path': 'b', 'preferred': True}]})),
        expect('GET', GET + '/export_locations', ok({})),
    ])
    api = ShareAPI(client)
    assert [loc['path'] for loc in api.export_locations(SID)] == ['b', 'a']
    assert api.export_locations(SID) == []


def test_apply_update_metadata_only_and_shrink_status():
    plan = SharePlan('update', metadata_set={'b': '2'}, metadata_delete=['a'])
    client, session = make_client([
        expect('POST', GET + '/metadata', ok({}), body={'metadata': {'b': '2'}}),
        expect('DELETE', GET + '/metadata/a', ok()),
    ])
    got = ShareAPI(client).apply_update(share(metadata={'a': '1'}), plan)
    assert got['metadata'] == {'b': '2'} and got['status'] == 'available'
    plan = SharePlan('update', metadata_delete=['a'])
    client, session = make_client([expect('DELETE', GET + '/metadata/a', ok())])
    assert ShareAPI(client).apply_update(share(metadata=None), plan)['metadata'] == {}
    plan = SharePlan('update', new_size=3)
    client, session = make_client([
        expect('POST', ACTION, ok(status=202), body={'extend': {'new_size': 3}})])
    got = ShareAPI(client).apply_update(share(size=2), plan)
    assert got['status'] == 'extending' and got['size'] == 2
    assert ShareAPI(client).apply_update(share(), SharePlan('nothing')) == share()


def test_wait_settle_and_wait_gone():
    clock = FakeClock()
    client, session = make_client([
        expect('GET', GET, ok({'share': share(status='creating')})),
        expect('GET', GET, ok({'share': share(status='available')})),
        expect('GET', GET, not_found()),
    ], clock=clock)
    api = ShareAPI(client, timeout=50)
    assert api.wait_if_busy(share(status='available')) == share(status='available')
    assert api.wait_if_busy(share(status='extending'))['status'] == 'available'
    assert api.wait_gone(share()) is None
    with pytest.raises(CannotConverge) as err:
        api.wait_if_busy(share(status='extending'), wait=False)
    assert 'is busy (extending)' in str(err.value)


def test_share_api_defaults():
    client, _session = make_client([])
    api = ShareAPI(client)
    assert api.client is client and api.timeout == 180


@pytest.mark.parametrize('seen', [
    dict(name='x', description='', is_public=True),
    dict(name='n', description='other', is_public=True),
    dict(name='n', description=None, is_public=False),
])
def test_a_lost_update_is_applied_only_when_every_field_shows_it(seen):
    body = {'display_name': 'n', 'display_description': '', 'is_public': True}
    client, session = make_client([expect('PUT', GET, LOST, body={'share': body})] + [
        expect('GET', GET, ok({'share': share(**seen)})) for _i in range(3)], clock=FakeClock())
    with pytest.raises(NotApplied):
        ShareAPI(client).update(SID, body)


def test_plan_restore_after():
    plan = plan_restore(share(is_soft_deleted=True), True)
    assert plan.after == diff_view(share()) and plan.after != {}


def test_the_option_named_by_a_length_error():
    with pytest.raises(InvalidInput) as err:
        check_share_input(name='n' * 256)
    assert str(err.value) == 'name is 256 characters long; Manila takes at most 255.'


def test_one_share_being_created_is_no_race():
    client, _session = make_client([
        expect('GET', '/v2/shares/detail?name=data', ok({'shares': [share(status='creating')]}))])
    assert ShareAPI(client).find_by_name('data')['status'] == 'creating'


def test_a_race_that_does_not_settle_names_the_shares():
    clock = FakeClock()
    racing_now = ok({'shares': [share(status='creating'), share(id=OTHER, status='available')]})
    client, _session = make_client([expect('GET', '/v2/shares/detail?name=data', racing_now)
                                    for _i in range(4)], clock=clock)
    with pytest.raises(WaitTimeout) as err:
        ShareAPI(client, timeout=1).find_by_name('data')
    assert ("The shares named 'data' is still %s creating, %s available after 1 seconds"
            % (SID, OTHER)) in str(err.value)


def test_ambiguity_names_the_name():
    with pytest.raises(AmbiguousName) as err:
        match_in_listing([share(id='1', name='b'), share(id='2', name='b')], name='b')
    assert "named 'b'" in str(err.value)
    client, _session = make_client([
        expect('GET', '/v2/shares/detail?name=data', ok({'shares': [share(id='1'), share(id='2')]}))])
    with pytest.raises(AmbiguousName) as err:
        ShareAPI(client).find_by_name('data')
    assert "named 'data'" in str(err.value)


def test_a_lost_soft_delete_is_seen_in_the_flag():
    client, session = make_client([
        expect('POST', ACTION, LOST),
        expect('GET', GET, ok({'share': share(is_soft_deleted=False)})),
        expect('GET', GET, ok({'share': share(is_soft_deleted=True)})),
    ], clock=FakeClock())
    ShareAPI(client).soft_delete(SID)
    assert len(session.writes()) == 1


def test_apply_update_shrink_status():
    plan = SharePlan('update', new_size=1)
    client, _session = make_client([
        expect('POST', ACTION, ok(status=202), body={'shrink': {'new_size': 1}})])
    assert ShareAPI(client).apply_update(share(size=2), plan)['status'] == 'shrinking'


def test_plan_create_after_shows_the_body():
    plan = plan_create({'name': 'n', 'share_proto': 'nfs', 'size': 2})
    assert (plan.after['name'], plan.after['size'], plan.after['share_proto']) == ('n', 2, 'NFS')


def test_settle_namesakes_when_the_listing_does_not_show_this_share_yet():
    mine = share(created_at='2026-01-01T00:00:00', status='available')
    newer = share(id=OTHER, created_at='2026-01-01T00:00:09')
    client, _session = make_client([
        expect('GET', '/v2/shares/detail?name=data', ok({'shares': [newer]}))])
    assert ShareAPI(client).settle_namesakes(mine) == (mine, False)
    assert OTHER in client.warnings[0]


def test_a_race_that_ends_with_two_shares_at_rest_is_ambiguous_at_once():
    clock = FakeClock()
    listing = '/v2/shares/detail?name=data'
    client, _session = make_client([
        expect('GET', listing, ok({'shares': [share(status='creating'), share(id=OTHER)]})),
        expect('GET', listing, ok({'shares': [share(), share(id=OTHER)]})),
    ], clock=clock)
    with pytest.raises(AmbiguousName):
        ShareAPI(client, timeout=100).find_by_name('data')
    assert clock.sleeps == []


def test_find_by_name_looks_in_the_recycle_bin_only_when_asked():
    recycled = share(is_soft_deleted=True)
    client, session = make_client([
        expect('GET', '/v2/shares/detail?name=data&is_soft_deleted=true',
               ScriptedResponse(200, {'shares': [recycled]})),
        expect('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [share()]})),
    ])
    api = ShareAPI(client)
    assert api.find_by_name('data', soft_deleted=True) == recycled
    assert api.find_by_name('data') == share()


# -- the create options each microversion takes, the checks of a share task before any
# request, metadata removals that do not hide a bad value after them, and a share already
# in the recycle bin that a soft delete leaves alone ------------------------------------

SHARE_ID = '11111111-2222-3333-4444-555555555555'


@pytest.mark.parametrize('cap, hints, mount, refused', [
    (None, {'only_host': 'h@b#p', 'same_host': 'x'}, 'data', None),
    ('2.66', {'same_host': 'x'}, None, None),
    ('2.67', {'only_host': 'h@b#p'}, None, None),
    ('2.66', {'only_host': 'h@b#p'}, None, '2.67'),
    ('2.64', {'same_host': 'x'}, None, '2.65'),
    ('2.84', None, 'data', None),
    ('2.83', None, 'data', '2.84'),
    ('2.29', None, None, None),
])
def test_create_features_by_microversion(cap, hints, mount, refused):
    client, session = make_client([], cap=cap)
    params = {'scheduler_hints': hints, 'mount_point_name': mount}
    if refused is None:
        check_create_features(client, params)
    else:
        with pytest.raises(UnsupportedFeature) as err:
            check_create_features(client, params)
        assert 'needs Manila API %s' % refused in str(err.value)
    assert len(session.calls) == 1   # no request beyond the versions document


def task(**options):
    p = dict(size=None, soft_delete=False, state='present', restore=False, delete_snapshots=False,
             share_proto=None, name=None, description=None, metadata=None)
    p.update(options)
    return p


@pytest.mark.parametrize('options', [
    dict(size=0),
    dict(size=-1),
    dict(share_proto='XFS'),
    dict(name='n' * 256),
    dict(description='d' * 256),
])
def test_a_share_task_refused_before_any_request(options):
    with pytest.raises(InvalidInput):
        check_share_task(task(**options))


def test_a_share_task_within_the_limits_passes():
    check_share_task(task(size=1, share_proto='nfs', name='n' * 255, description='d' * 255,
                          metadata={'a': '1', 'b': None}))


def test_a_soft_delete_of_a_share_already_in_the_recycle_bin_changes_nothing(monkeypatch):
    binned = {'id': SHARE_ID, 'name': 'data', 'size': 1, 'share_proto': 'NFS', 'status': 'available',
              'is_soft_deleted': True, 'metadata': {}}
    outcome, session = run_scripted(monkeypatch, share_module, {
        'name': SHARE_ID, 'state': 'absent', 'soft_delete': True}, [
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': binned})),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert outcome.result['changed'] is False
    assert outcome.result['deleted_snapshots'] == []
    assert session.writes() == []


def test_scheduler_hint_messages_name_the_hint():
    with pytest.raises(InvalidInput) as err:
        check_share_input(scheduler_hints={'same_hosts': 'x', 'only_host': 'h@b#p'})
    assert str(err.value).startswith('scheduler_hints: unknown hint(s) same_hosts; Manila knows '
                                     'same_host, different_host, only_host')
    with pytest.raises(InvalidInput) as err:
        check_share_input(scheduler_hints={'same_host': 'data'})
    assert str(err.value).startswith("scheduler_hints.same_host must be the ID of a share")
