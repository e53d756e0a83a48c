# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Share types (share_types.py): their plans with every branch (pure functions),
extra specs compared and checked as Manila stores and reads them, projects
resolved through Keystone and sent as Keystone has their IDs, and the requests
of the API calls on scripted HTTP (a type in use explained, a refusal leaving
no half change, answers that were lost).  The integration target share_type
shows the same against the real cloud."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from keystoneauth1 import exceptions as ksa_exc

from ansible_collections.openkeel.manila.plugins.module_utils import share_types as st
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    InvalidInput,
    ManilaError,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    FakeClock,
    ScriptedResponse,
    expect,
    make_client,
    ok,
)

PUBLIC = 'share_type_access:is_public'
DHSS = 'driver_handles_share_servers'
P1 = 'aaaaaaaa-0000-0000-0000-000000000001'
P2 = 'bbbbbbbb-0000-0000-0000-000000000002'
TYPE_PATH = '/v2/types/tid'
IN_USE = ScriptedResponse(400, {'badRequest': {'code': 400, 'message': 'Target share type is still in use.'}},
                          headers={'x-openstack-request-id': 'req-42'})
BINNED_QUERY = '/v2/shares?share_type_id=tid&all_tenants=1&limit=10&is_soft_deleted=true'
TYPE = {'id': '33333333-0000-0000-0000-000000000001', 'name': 'gold', 'description': 'old',
        'share_type_access:is_public': False,
        'extra_specs': {'driver_handles_share_servers': 'False', 'a': '1'}}


def stype(**fields):
    base = {'id': 'tid', 'name': 'gold', 'description': None, PUBLIC: True,
            'extra_specs': {DHSS: 'False'}}
    base.update(fields)
    return base


def forbidden(message):
    return ScriptedResponse(403, {'forbidden': {'code': 403, 'message': message}})


# -- extra specs, creates and updates, projects: the plans ---------------------------------

def test_only_availability_zones_lose_the_spaces_around_commas():
    specs = st.prepare_extra_specs({'availability_zones': 'az1 , az2', 'capabilities:tags': 'a, b',
                                    'description:note': ' x,y '}, False)
    assert specs == {'availability_zones': 'az1,az2', 'capabilities:tags': 'a, b',
                     'description:note': ' x,y ', 'driver_handles_share_servers': 'False'}


def test_extra_specs_are_strings_and_checked_like_manila():
    assert st.prepare_extra_specs({'snapshot_support': True, 'n': 3}, False) == {
        'snapshot_support': 'True', 'n': '3', 'driver_handles_share_servers': 'False'}
    with pytest.raises(InvalidInput) as err:
        st.prepare_extra_specs({'bad key': 'x', 'long': 'y' * 256, 'empty': ''}, None)
    message = str(err.value)
    assert "'bad key'" in message and "'long'" in message and "'empty'" in message
    with pytest.raises(InvalidInput):
        st.prepare_extra_specs({'driver_handles_share_servers': 'maybe'}, None)


def test_a_dict_or_list_value_is_refused_not_stored_as_python_text():
    # issue 37: str() stored "{'a': 1}" and "['x', 'y']"
    with pytest.raises(InvalidInput) as err:
        st.prepare_extra_specs({'capabilities:tags': ['x', 'y'], 'vendor:opts': {'a': 1},
                                'fine': 'x'}, False)
    message = str(err.value)
    assert "extra spec 'capabilities:tags': the value must be a string, a number or a boolean, " \
        "not a list" in message
    assert "extra spec 'vendor:opts': the value must be a string, a number or a boolean, " \
        "not a dict" in message
    assert "{'a': 1}" not in message


def test_a_type_needs_dhss_to_be_created_and_projects_need_it_private():
    with pytest.raises(InvalidInput) as err:
        st.plan_create('gold', {'a': '1'})
    assert 'driver_handles_share_servers is required' in str(err.value)
    with pytest.raises(InvalidInput) as err:
        st.plan_create('gold', {'driver_handles_share_servers': 'True'}, projects=['a' * 32])
    assert 'is_public=false' in str(err.value)
    plan = st.plan_create('gold', {'driver_handles_share_servers': 'True'}, 'd', False,
                          ['a' * 32])
    assert plan.body == {'name': 'gold', 'description': 'd', 'share_type_access:is_public': False,
                         'extra_specs': {'driver_handles_share_servers': 'True'}}
    assert plan.grant == ['a' * 32]
    assert st.required_features(plan) == [('share_type_description',
                                           'A share type description')]


def test_updates_merge_unless_purged_and_compare_description_to_empty():
    plan = st.plan_update(TYPE, {'b': '2'}, description='old')
    assert (plan.specs_set, plan.specs_delete, plan.update) == ({'b': '2'}, [], {})
    plan = st.plan_update(TYPE, {'b': '2'}, purge_specs=True, description='')
    assert plan.specs_delete == ['a'] and plan.update == {'description': ''}
    assert plan.after['extra_specs'] == {'driver_handles_share_servers': 'False', 'b': '2'}
    assert st.plan_update(dict(TYPE, description=None), {}, description='').action == st.NOTHING


def test_projects_are_names_or_ids_and_compared_exactly():
    assert st.prepare_projects(['demo', ' demo', 'a' * 32]) == ['a' * 32, 'demo']
    with pytest.raises(InvalidInput) as err:
        st.prepare_projects(['demo', ''])
    assert 'projects: an empty project name or ID' in str(err.value)
    # An entry spelt unlike Keystone's ID gives no access: it is replaced.
    dashed = 'aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa'
    plan = st.plan_update(TYPE, {}, projects=[dashed], current_projects=['a' * 32])
    assert (plan.grant, plan.revoke) == ([dashed], ['a' * 32])


# -- every branch of the plans -------------------------------------------------------------

def test_type_label_and_values():
    assert st.label({'name': 'g'}) == 'Share type g (new)'
    assert st.label({'name': 'g', 'id': 'x'}) == 'Share type g (x)'
    assert st.as_metadata_value(True) == 'True' and st.as_metadata_value(False) == 'False' and st.as_metadata_value(3) == '3'
    for word in ('true', ' T ', 'yes', 'y', 'on', '1', True):
        assert st.as_bool(word) is True
    for word in ('false', 'F', 'no', 'n', 'off', '0', False):
        assert st.as_bool(word) is False
    assert st.as_bool('maybe') is None and st.as_bool('') is None
    for word in ('<is> True', ' <IS>true ', '<is>  TRUE'):
        assert st.as_bool(word) is True and st.as_bool(word, allow_is=False) is None
    assert st.as_bool('<is> False') is False and st.as_bool('<is> maybe') is None


@pytest.mark.parametrize('current,wanted,same', [
    (None, 'x', False), ('True', 'true', True), ('1', 'on', True), ('True', 'False', False),
    ('a', 'a', True), ('a', 'b', False), ('True', 'x', False), ('3', 3, True),
    ('<is> True', 'True', True), ('True', '<is> true', True), ('<is> False', 'false', True),
    ('<is> True', 'False', False),
])
def test_same_spec_value(current, wanted, same):
    assert st.same_spec_value(current, wanted) is same


def test_visibility_and_public_view():
    assert st.is_public({}) is True
    assert st.is_public({PUBLIC: False}) is False
    assert st.is_public({'os-share-type-access:is_public': False}) is False
    assert st.is_public({PUBLIC: True, 'os-share-type-access:is_public': False}) is True
    assert st.public_view(None) == {}
    assert st.public_view({PUBLIC: False, 'name': 'g'}) == {PUBLIC: False, 'name': 'g', 'is_public': False}
    assert st.public_view({'name': 'g'}, [P2, P1])['projects'] == [P1, P2]


@pytest.mark.parametrize('specs,dhss,expected', [
    ({'k' * 10: 'v' * 255}, None, {'k' * 10: 'v' * 255}),
    ({'a.b:c-d_e': 1}, True, {'a.b:c-d_e': '1', 'driver_handles_share_servers': 'True'}),
    ({'driver_handles_share_servers': 'yes'}, True, {'driver_handles_share_servers': 'True'}),
    (None, False, {'driver_handles_share_servers': 'False'}),
    (None, None, {}),
])
def test_prepare_extra_specs(specs, dhss, expected):
    assert st.prepare_extra_specs(specs, dhss) == expected


@pytest.mark.parametrize('specs,dhss,needle', [
    ({'k': 'v' * 256}, None, "extra spec 'k': the value must be 1-255 characters long."),
    ({'k': ''}, None, "extra spec 'k': the value must be 1-255 characters long."),
    ({'k': None}, None, "extra spec 'k' has no value."),
    ({'a b': 'x'}, None, "extra spec key 'a b' may only hold letters"),
    ({'driver_handles_share_servers': 'false'}, True,
     'driver_handles_share_servers is True, but extra_specs says false.'),
])
def test_prepare_extra_specs_refuses(specs, dhss, needle):
    with pytest.raises(InvalidInput) as err:
        st.prepare_extra_specs(specs, dhss)
    assert str(err.value).startswith('Invalid share type settings, nothing was changed: ')
    assert needle in str(err.value)


def test_projects():
    assert st.prepare_projects(None) is None
    assert st.prepare_projects([P2, P1, P1, 'demo']) == sorted([P1, P2, 'demo'])
    with pytest.raises(InvalidInput) as err:
        st.prepare_projects([P1, None])
    assert str(err.value) == 'projects: an empty project name or ID is in the list.'


def test_type_plan_defaults_and_views():
    plan = st.TypePlan('nothing')
    assert (plan.body, plan.update, plan.specs_set, plan.specs_delete, plan.grant, plan.revoke,
            plan.before, plan.after) == (None, {}, {}, [], [], [], {}, {})
    assert not plan.changed and st.TypePlan('delete').changed
    assert st.diff_view(None) == {}
    assert st.diff_view(stype(extra_specs=None), [P2, P1]) == {
        'name': 'gold', 'description': None, 'is_public': True, 'extra_specs': {},
        'projects': [P1, P2]}


def test_plan_create_variants():
    specs = {'driver_handles_share_servers': 'False'}
    plan = st.plan_create('g', specs)
    assert plan.body == {'name': 'g', 'extra_specs': specs} and plan.grant == []
    assert plan.after['is_public'] is True and 'projects' not in plan.after
    plan = st.plan_create('g', specs, description='', public=True)
    assert plan.body == {'name': 'g', 'extra_specs': specs, 'description': '', PUBLIC: True}
    plan = st.plan_create('g', specs, public=False, projects=[P1])
    assert plan.after['projects'] == [P1] and plan.after['is_public'] is False and plan.grant == [P1]
    with pytest.raises(InvalidInput):
        st.plan_create('g', specs, public=None, projects=[P1])
    assert st.plan_create('g', specs, public=True, projects=[]).grant == []


def test_plan_update_every_branch():
    t = stype(description='old', extra_specs={'driver_handles_share_servers': 'False', 'a': '1',
                                              'b': 'true'})
    plan = st.plan_update(t, {'a': '1', 'b': 'True'})
    assert plan.action == 'nothing' and plan.before == plan.after
    plan = st.plan_update(t, {'a': '2'}, purge_specs=True)
    assert plan.specs_set == {'a': '2'} and plan.specs_delete == ['b']
    assert plan.after['extra_specs'] == {'driver_handles_share_servers': 'False', 'a': '2'}
    plan = st.plan_update(t, {}, description='old')
    assert plan.update == {}
    plan = st.plan_update(stype(description=None), {}, description='')
    assert plan.update == {} and plan.action == 'nothing'
    plan = st.plan_update(t, {}, description='new', public=False)
    assert plan.update == {'description': 'new', PUBLIC: False}
    assert plan.after['description'] == 'new' and plan.after['is_public'] is False
    assert st.plan_update(t, {}, public=True).update == {}
    with pytest.raises(InvalidInput) as err:
        st.plan_update(t, {}, projects=[P1])
    assert 'is public' in str(err.value) and '(tid)' in str(err.value)
    plan = st.plan_update(t, {}, public=False, projects=[P1, P2], current_projects=[P2, 'gone'])
    assert plan.grant == [P1] and plan.revoke == ['gone'] and plan.after['projects'] == [P1, P2]
    assert plan.before['projects'] == [P2, 'gone']
    private = stype(**{PUBLIC: False})
    plan = st.plan_update(private, {}, projects=[P1])
    assert plan.grant == [P1] and plan.revoke == [] and plan.action == 'update'
    plan = st.plan_update(private, {}, projects=[P1], current_projects=[P1])
    assert plan.action == 'nothing'


def test_type_absent_and_features():
    assert st.plan_absent(None).action == 'nothing'
    plan = st.plan_absent(stype())
    assert plan.action == 'delete' and plan.before['name'] == 'gold' and plan.after == {}
    assert st.required_features(st.TypePlan('nothing')) == []
    assert st.required_features(st.TypePlan('create', body={'name': 'g'})) == []
    assert st.required_features(st.TypePlan('create', body={'description': ''})) == [
        ('share_type_description', 'A share type description')]
    assert st.required_features(st.TypePlan('update', update={'description': 'x', PUBLIC: True})) == [
        ('share_type_update', "Changing a share type's description"),
        ('share_type_update', "Changing a share type's visibility")]


def test_a_rename_is_planned_only_for_a_new_name_and_needs_its_feature():
    plan = st.plan_update(stype(), {}, name='platinum')
    assert plan.action == 'update' and plan.update == {'name': 'platinum'}
    assert (plan.before['name'], plan.after['name']) == ('gold', 'platinum')
    assert st.required_features(plan) == [('share_type_rename', 'Renaming a share type')]
    assert st.plan_update(stype(), {}, name='gold').action == 'nothing'
    assert st.plan_update(stype(), {}).update == {}


def test_type_plans_show_the_description_and_only_declared_projects():
    assert st.diff_view(stype(description='fast disks'))['description'] == 'fast disks'
    specs = {'driver_handles_share_servers': 'False'}
    plan = st.plan_create('g', specs, description='d', public=None)
    assert plan.action == 'create'
    assert plan.after == {'name': 'g', 'description': 'd', 'is_public': True, 'extra_specs': specs}
    assert 'projects' not in st.plan_create('g', specs, public=True, projects=[]).after
    plan = st.plan_update(stype(), {}, current_projects=[P1])
    assert 'projects' not in plan.before and 'projects' not in plan.after


def test_every_bad_extra_spec_is_named():
    with pytest.raises(InvalidInput) as err:
        st.prepare_extra_specs({'bad key': 'x', 'empty': None, 'long': 'y' * 300}, None)
    for needle in ("'bad key'", "'empty'", "'long'"):
        assert needle in str(err.value)


# -- availability_zones as Manila stores them (sanitize_csv; issue 21) ---------------------

def test_availability_zones_are_sent_as_manila_stores_them():
    assert st.prepare_extra_specs({'availability_zones': ' az1, az2 ,az3'}, None) == {
        'availability_zones': 'az1,az2,az3'}
    assert st.sanitize_csv('az1 , az2') == 'az1,az2' and st.sanitize_csv('') == ''


@pytest.mark.parametrize('stored', ['az1,az2', 'az1, az2'])
def test_a_second_run_with_spaced_zones_changes_nothing(stored):
    # Manila 23 stores 'az1,az2'; older releases kept the spaces.
    current = stype(extra_specs={DHSS: 'False', 'availability_zones': stored})
    specs = st.prepare_extra_specs({'availability_zones': 'az1, az2'}, None)
    plan = st.plan_update(current, specs)
    assert plan.action == st.NOTHING and plan.specs_set == {}
    assert st.same_spec_value(stored, 'az2, az1', 'availability_zones') is False
    # Only availability_zones is a list of names: other values compare exactly.
    assert st.same_spec_value('a, b', 'a,b', 'share_backend_name') is False


def test_a_landed_zones_update_whose_answer_was_lost_is_seen_as_applied():
    client, session = make_client([
        expect('POST', TYPE_PATH + '/extra_specs', ksa_exc.ConnectFailure('Connection aborted.')),
        expect('GET', TYPE_PATH, ok({'share_type': stype(extra_specs={
            DHSS: 'False', 'availability_zones': 'az1,az2'})})),
    ], clock=FakeClock())
    st.ShareTypeAPI(client).set_specs('tid', {'availability_zones': 'az1, az2'})
    assert len(session.writes()) == 1 and client.warnings


# -- '<is> True' equals true, as in Manila's boolean specs ---------------------------------

@pytest.mark.parametrize('stored,wanted', [
    ('<is> True', True), ('<is> False', 'false'), ('True', '<is> True'),
    ('true', '<IS>true'),
])
def test_is_booleans_are_not_rewritten(stored, wanted):
    current = stype(extra_specs={DHSS: 'False', 'snapshot_support': stored,
                                 'capabilities:dedupe': stored})
    specs = st.prepare_extra_specs({'snapshot_support': wanted, 'capabilities:dedupe': wanted},
                                   False)
    assert st.plan_update(current, specs).action == st.NOTHING


def test_is_booleans_that_differ_are_changed():
    current = stype(extra_specs={DHSS: 'False', 'snapshot_support': '<is> True'})
    plan = st.plan_update(current, st.prepare_extra_specs({'snapshot_support': False}, None))
    assert plan.specs_set == {'snapshot_support': 'False'}


# -- Manila's rules for its standard specs, before any write -------------------------------

@pytest.mark.parametrize('key,value,allowed', [
    (DHSS, '<is> True', 'true or false'),
    (DHSS, 'maybe', 'true or false'),
    ('snapshot_support', 'maybe', '"<is> True"'),
    ('create_share_from_snapshot_support', 'sure', 'true or false'),
    ('revert_to_snapshot_support', '<is> yes', 'true or false'),
    ('mount_snapshot_support', '2', 'true or false'),
    ('mount_point_name_support', 'x', 'true or false'),
    ('snapshot_inherit_share_access_support', 'x', 'true or false'),
    ('replication_type', 'sync', 'writable, readable, dr'),
    ('replication_type', 'Writable', 'writable, readable, dr'),
    ('encryption_support', 'disk', 'share, share_server'),
    ('availability_zones', 'az1,,az2', 'none of them empty'),
    ('availability_zones', 'az1, ', 'none of them empty'),
    ('provisioning:max_share_size', '0', '1 or more'),
    ('provisioning:min_share_size', -2, '1 or more'),
    ('provisioning:max_share_extend_size', '1.5', 'whole number'),
    ('provisioning:max_share_size', 'ten', 'whole number'),
])
def test_a_spec_manila_refuses_is_named_with_the_values_it_takes(key, value, allowed):
    with pytest.raises(InvalidInput) as err:
        st.prepare_extra_specs({key: value}, None)
    message = str(err.value)
    assert message.startswith('Invalid share type settings, nothing was changed: ')
    assert ('extra spec %s must be' % key) in message and allowed in message
    assert repr(str(value)) in message


def test_every_bad_spec_is_named_at_once():
    with pytest.raises(InvalidInput) as err:
        st.prepare_extra_specs({'snapshot_support': 'x', 'replication_type': 'y'}, True)
    assert 'snapshot_support' in str(err.value) and 'replication_type' in str(err.value)


@pytest.mark.parametrize('key,value', [
    (DHSS, 'yes'), (DHSS, ' 0 '), ('snapshot_support', '<is> True'),
    ('snapshot_support', True), ('mount_snapshot_support', 'off'),
    ('replication_type', 'dr'), ('encryption_support', 'share_server'),
    ('availability_zones', 'az1'), ('provisioning:max_share_size', 10),
    ('provisioning:min_share_size', '1'), ('share_backend_name', 'anything'),
    ('capabilities:thin_provisioning', '<is> maybe'),
])
def test_values_manila_takes_pass(key, value):
    assert key in st.prepare_extra_specs({key: value}, None)


# -- the calls: what ShareTypeAPI sends ------------------------------------------------------

def test_apply_sends_each_change_and_returns_the_type_as_manila_has_it():
    current = stype(extra_specs={'driver_handles_share_servers': 'False', 'old': 'x'})
    updated = dict(current, description='new')
    plan = st.TypePlan('update', update={'description': 'new'},
                       specs_set={'snapshot_support': 'True'}, specs_delete=['old'])
    client, session = make_client([
        expect('PUT', TYPE_PATH, ScriptedResponse(200, {'share_type': updated}),
               body={'share_type': {'description': 'new'}}),
        expect('POST', TYPE_PATH + '/extra_specs', ScriptedResponse(200, {'extra_specs': {
            'snapshot_support': 'True'}}), body={'extra_specs': {'snapshot_support': 'True'}}),
        expect('DELETE', TYPE_PATH + '/extra_specs/old', ScriptedResponse(202)),
    ])
    assert st.ShareTypeAPI(client).apply(current, plan) == dict(updated, extra_specs={
        'driver_handles_share_servers': 'False', 'snapshot_support': 'True'})


def test_a_member_is_told_share_types_are_admin_only():
    said = "Policy doesn't allow share_type:create to be performed."
    client, session = make_client([expect('POST', '/v2/types', forbidden(said))])
    with pytest.raises(ManilaError) as err:
        st.ShareTypeAPI(client).create({'name': 'gold', 'extra_specs': {}})
    assert err.type is ManilaError and err.value.status == 403
    assert err.value.message.startswith('Managing share types is admin-only')
    assert ('(Manila said: %s)' % said) in err.value.message


def test_extra_specs_whose_answer_was_lost_are_seen_on_the_type():
    client, session = make_client([
        expect('POST', TYPE_PATH + '/extra_specs', ksa_exc.ConnectFailure('Connection aborted.')),
        expect('GET', TYPE_PATH, ScriptedResponse(200, {'share_type': stype(extra_specs={
            'driver_handles_share_servers': 'False', 'snapshot_support': 'True'})})),
    ], clock=FakeClock())
    st.ShareTypeAPI(client).set_specs('tid', {'snapshot_support': 'true'})
    assert len(session.writes()) == 1


def test_an_access_answer_without_its_list_has_no_projects():
    client, _session = make_client([expect('GET', '/v2/types/tid/share_type_access', ok({}))])
    assert st.ShareTypeAPI(client).projects('tid') == []


# -- projects through Keystone, sent as Keystone has their IDs -----------------------------

KEYSTONE = 'http://127.0.0.1:5000/v3'
# A project whose ID Keystone keeps with dashes, and the same ID without them.
DASHED = '5e1f7b1c-2a3d-4e5f-8a9b-0c1d2e3f4a5b'
PLAIN = DASHED.replace('-', '')


def keystone(path, answer):
    """An exchange with Keystone: no Manila version header."""
    return expect('GET', KEYSTONE + path, answer, version=None)


def keystone_404():
    return ScriptedResponse(404, {'error': {'code': 404, 'title': 'Not Found',
                                            'message': 'Could not find project.'}})


def keystone_client(exchanges, **kwargs):
    client, session = make_client(exchanges, **kwargs)
    client.identity_url = KEYSTONE
    return client, session


def test_a_project_name_is_granted_under_its_keystone_id():
    client, session = keystone_client([
        keystone('/projects?name=research', ok({'projects': [
            {'id': DASHED, 'name': 'research', 'domain_id': 'default'}]})),
    ])
    assert st.ShareTypeAPI(client).resolve_projects(['research']) == [DASHED]
    assert len(session.calls) == 2  # the versions document, then one Keystone request


def test_an_id_with_dashes_is_sent_with_them():
    client, session = keystone_client([
        keystone('/projects/' + DASHED, ok({'project': {'id': DASHED, 'name': 'research'}})),
        expect('POST', TYPE_PATH + '/action', ScriptedResponse(202),
               body={'addProjectAccess': {'project': DASHED}}),
    ])
    api = st.ShareTypeAPI(client)
    private = stype(**{PUBLIC: False})
    plan = st.plan_update(private, {}, projects=api.resolve_projects([DASHED]),
                          current_projects=[])
    api.apply(private, plan)
    assert plan.after['projects'] == [DASHED]


def test_an_entry_spelt_unlike_keystone_is_repaired():
    # The type holds the ID without dashes (an older run sent it so; Manila
    # keeps any string) and Keystone has it with dashes: the task that names
    # the project gets the right entry granted and the wrong one revoked.
    client, session = keystone_client([
        keystone('/projects?name=research', ok({'projects': [{'id': DASHED, 'name': 'research'}]})),
        expect('POST', TYPE_PATH + '/action', ScriptedResponse(202),
               body={'addProjectAccess': {'project': DASHED}}),
        expect('POST', TYPE_PATH + '/action', ScriptedResponse(202),
               body={'removeProjectAccess': {'project': PLAIN}}),
    ])
    api = st.ShareTypeAPI(client)
    private = stype(**{PUBLIC: False})
    projects = api.resolve_projects(['research'], known=[PLAIN])
    plan = st.plan_update(private, {}, projects=projects, current_projects=[PLAIN])
    assert (plan.grant, plan.revoke) == ([DASHED], [PLAIN])
    api.apply(private, plan)


def test_an_id_without_its_dashes_is_sent_as_keystone_has_it():
    client, session = keystone_client([
        keystone('/projects/' + PLAIN, keystone_404()),
        keystone('/projects/' + DASHED, ok({'project': {'id': DASHED}})),
    ])
    assert st.ShareTypeAPI(client).resolve_projects([PLAIN]) == [DASHED]


def test_projects_already_on_the_type_under_their_exact_id_cost_nothing():
    client, session = keystone_client([])
    assert st.ShareTypeAPI(client).resolve_projects([PLAIN, 'p2'], known=[PLAIN, 'p2']) == [
        PLAIN, 'p2']
    assert len(session.calls) == 1  # the versions document only


def test_a_name_shaped_like_an_id_is_looked_up_by_name_last():
    client, session = keystone_client([
        keystone('/projects/' + DASHED, keystone_404()),
        keystone('/projects/' + PLAIN, keystone_404()),
        keystone('/projects?name=' + DASHED, ok({'projects': [{'id': 'x1', 'name': DASHED}]})),
    ])
    assert st.ShareTypeAPI(client).resolve_projects([DASHED]) == ['x1']


def test_an_id_that_is_not_uuid_shaped_is_tried_after_the_name():
    client, session = keystone_client([
        keystone('/projects?name=admin-project', ok({'projects': []})),
        keystone('/projects/admin-project', ok({'project': {'id': 'admin-project'}})),
    ])
    assert st.ShareTypeAPI(client).resolve_projects(['admin-project']) == ['admin-project']


def test_an_unknown_or_ambiguous_project_fails_before_any_write():
    client, session = keystone_client([
        keystone('/projects?name=nobody', ok({'projects': []})),
        keystone('/projects/nobody', keystone_404()),
    ])
    with pytest.raises(InvalidInput) as err:
        st.ShareTypeAPI(client).resolve_projects(['nobody'])
    assert str(err.value).startswith("projects: Keystone has no project with the name or ID "
                                     "'nobody'")
    client, session = keystone_client([
        keystone('/projects?name=ops', ok({'projects': [
            {'id': 'p2', 'name': 'ops', 'domain_id': 'd2'},
            {'id': 'p1', 'name': 'ops', 'domain_id': 'd1'}]})),
    ])
    with pytest.raises(InvalidInput) as err:
        st.ShareTypeAPI(client).resolve_projects(['ops'])
    assert str(err.value) == ("projects: 2 Keystone projects are named 'ops' (IDs: p1 in "
                              "domain d1, p2 in domain d2); give the ID of the one meant.")
    assert session.writes() == []


def test_keystone_refusing_a_lookup_says_so():
    client, session = keystone_client([
        keystone('/projects?name=ops', ScriptedResponse(403, {'error': {
            'code': 403, 'message': 'You are not authorized.'}})),
    ])
    with pytest.raises(ManilaError) as err:
        st.ShareTypeAPI(client).resolve_projects(['ops'])
    assert err.value.status == 403 and err.value.message.startswith(
        "projects: Keystone does not let this user look up project 'ops' (Keystone said: You "
        "are not authorized.)")


def test_a_case_insensitive_name_match_is_taken_only_without_an_exact_one():
    client, session = keystone_client([
        keystone('/projects?name=Ops', ok({'projects': [
            {'id': 'p1', 'name': 'ops'}, {'id': 'p2', 'name': 'Ops'}]})),
        keystone('/projects?name=OPS', ok({'projects': [{'id': 'p1', 'name': 'ops'}]})),
    ])
    api = st.ShareTypeAPI(client)
    assert api.resolve_projects(['Ops']) == ['p2'] and api.resolve_projects(['OPS']) == ['p1']


# -- a type in use: held by the recycle bin or a share group type --------------------------

@pytest.mark.parametrize('cap, script', [
    (None, [expect('GET', BINNED_QUERY, ok({'shares': [{'id': 's1', 'name': 'old'}]}))]),
    (None, [expect('GET', BINNED_QUERY, ok({'shares': []}))]),
    ('2.68', []),
])
def test_a_type_in_use_keeps_the_request_manila_refused(cap, script):
    client, _session = make_client([expect('DELETE', TYPE_PATH, IN_USE)] + script, cap=cap)
    with pytest.raises(CannotConverge) as err:
        st.ShareTypeAPI(client).delete('tid', {'id': 'tid', 'name': 'gold'})
    exc = err.value
    assert (exc.status, exc.request_id, exc.method, exc.url) == (
        400, 'req-42', 'DELETE', 'http://127.0.0.1:8786/v2/types/tid')


def test_a_type_held_by_a_share_in_the_recycle_bin_says_so():
    client, session = make_client([
        expect('DELETE', TYPE_PATH, IN_USE),
        expect('GET', BINNED_QUERY, ok({'shares': [{'id': 's1', 'name': 'old'}]})),
    ])
    with pytest.raises(CannotConverge) as err:
        st.ShareTypeAPI(client).delete('tid', stype())
    message = str(err.value)
    assert message.startswith('Share type gold (tid) is still in use, and Manila deletes no '
                              'type in use (Manila said: Target share type is still in use.)')
    assert 'shares in the recycle bin hold it: old (s1).' in message
    assert err.value.status == 400 and len(session.writes()) == 1


def test_a_type_held_by_no_share_names_share_group_types():
    client, session = make_client([
        expect('DELETE', TYPE_PATH, IN_USE),
        expect('GET', BINNED_QUERY, ok({'shares': []})),
    ])
    with pytest.raises(CannotConverge) as err:
        st.ShareTypeAPI(client).delete('tid')
    assert 'share group type' in str(err.value) and 'recycle bin' in str(err.value)
    assert str(err.value).startswith('Share type tid is still in use')


def test_below_the_recycle_bin_api_nothing_is_looked_up():
    client, session = make_client([expect('DELETE', TYPE_PATH, IN_USE)], cap='2.68')
    with pytest.raises(CannotConverge) as err:
        st.ShareTypeAPI(client).delete('tid', stype())
    assert 'API 2.68 cannot list the recycle bin' in str(err.value)
    assert 'share group type' in str(err.value)


def test_other_refusals_of_a_delete_stay_as_they_are():
    client, session = make_client([
        expect('DELETE', TYPE_PATH, ScriptedResponse(400, {'badRequest': {
            'code': 400, 'message': 'Something else.'}})),
    ])
    with pytest.raises(ManilaError) as err:
        st.ShareTypeAPI(client).delete('tid', stype())
    assert not isinstance(err.value, CannotConverge) and err.value.message == 'Something else.'
