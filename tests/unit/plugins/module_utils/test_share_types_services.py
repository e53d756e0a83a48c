# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Share types and security services: their plans with every branch (pure
functions), and the requests of their API calls (scripted HTTP)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from keystoneauth1 import exceptions as ksa_exc

from ansible_collections.openkeel.manila.plugins.module_utils import identity
from ansible_collections.openkeel.manila.plugins.module_utils import security_services as ss
from ansible_collections.openkeel.manila.plugins.module_utils import share_types as st
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    Forbidden,
    InvalidInput,
    ManilaError,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    FakeClock,
    ScriptedResponse,
    expect,
    make_client,
)

TYPE = {'id': '33333333-0000-0000-0000-000000000001', 'name': 'gold', 'description': 'old',
        'share_type_access:is_public': False,
        'extra_specs': {'driver_handles_share_servers': 'False', 'a': '1'}}


def test_extra_specs_are_strings_and_checked_like_manila():
    assert st.prepare_extra_specs({'snapshot_support': True, 'n': 3}, False) == {
        'snapshot_support': 'True', 'n': '3', 'driver_handles_share_servers': 'False'}
    with pytest.raises(InvalidInput) as err:
        st.prepare_extra_specs({'bad key': 'x', 'long': 'y' * 256, 'empty': ''}, None)
    message = str(err.value)
    assert "'bad key'" in message and "'long'" in message and "'empty'" in message
    with pytest.raises(InvalidInput):
        st.prepare_extra_specs({'driver_handles_share_servers': 'maybe'}, None)


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


def test_service_settings_compare_with_empty_as_unset_and_rename_only_by_id():
    service = {'id': 'x', 'name': 'ldap', 'type': 'ldap', 'server': None, 'domain': 'd'}
    assert ss.plan_update(service, {'server': '', 'domain': 'd', 'name': 'other'}).action \
        == ss.NOTHING
    plan = ss.plan_update(service, {'name': 'other', 'domain': ''}, rename=True)
    assert plan.body == {'name': 'other', 'domain': ''}
    assert plan.restricted() == ['domain']
    # A new type is one more setting Manila takes unless share servers use the service.
    plan = ss.plan_update(service, {'type': 'kerberos'})
    assert plan.body == {'type': 'kerberos'} and plan.restricted() == ['type']


def test_service_validation_names_what_manila_accepts():
    with pytest.raises(InvalidInput) as err:
        ss.validate({'type': 'nis'})
    assert 'active_directory, kerberos, ldap' in str(err.value)
    with pytest.raises(InvalidInput) as err:
        ss.validate({'type': 'ldap'}, update_password='always')
    assert 'needs password' in str(err.value)
    with pytest.raises(InvalidInput) as err:
        ss.plan_create({'name': 'x'})
    assert 'type is required' in str(err.value)
    assert ss.required_features({'ou': 'OU=x', 'default_ad_site': ''}) == [
        ('security_service_ou', 'ou')]


# -- every branch of the plans, and the calls on scripted HTTP ------------------------

PUBLIC = 'share_type_access:is_public'
P1 = 'aaaaaaaa-0000-0000-0000-000000000001'
P2 = 'bbbbbbbb-0000-0000-0000-000000000002'


def stype(**fields):
    base = {'id': 'tid', 'name': 'gold', 'description': None, PUBLIC: True,
            'extra_specs': {'driver_handles_share_servers': 'False'}}
    base.update(fields)
    return base


# -- share types ---------------------------------------------------------------------------

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
    assert identity.other_uuid_form(P1) == P1.replace('-', '')
    assert identity.other_uuid_form(P1.replace('-', '')) == P1
    assert identity.other_uuid_form('demo') is None


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


# -- security services -----------------------------------------------------------------------

def service(**fields):
    base = {'id': 'sid', 'name': 'ad', 'type': 'active_directory', 'description': None,
            'dns_ip': '10.0.0.2', 'server': None, 'domain': 'example.com', 'user': 'admin',
            'ou': None, 'default_ad_site': None}
    base.update(fields)
    return base


def test_service_label_and_public_view():
    assert ss.label({'name': 'a'}) == 'Security service a (new)'
    assert ss.label({'name': 'a', 'id': 'x'}) == 'Security service a (x)'
    assert ss.public_view(None) == {} and ss.public_view({}) == {}
    assert ss.public_view({'a': 1, 'password': 's'}) == {'a': 1}


@pytest.mark.parametrize('desired,update_password,needle', [
    ({'type': 'nis'}, 'on_create', "type must be one of active_directory, kerberos, ldap, got 'nis'."),
    ({'type': 'active_directory', 'server': 's', 'default_ad_site': 'x'}, 'on_create', 'not both'),
    ({'password': None}, 'always', 'update_password=always needs password.'),
])
def test_service_validation_refuses(desired, update_password, needle):
    with pytest.raises(InvalidInput) as err:
        ss.validate(desired, update_password)
    assert str(err.value) == needle or needle in str(err.value)


@pytest.mark.parametrize('desired,update_password', [
    ({'type': 'ldap', 'server': 's', 'default_ad_site': 'x'}, 'on_create'),
    ({'type': 'active_directory', 'server': '', 'default_ad_site': 'x'}, 'on_create'),
    ({'type': 'active_directory', 'server': 's', 'default_ad_site': ''}, 'on_create'),
    ({'type': None}, 'on_create'),
    ({'password': ''}, 'always'),
    ({}, 'on_create'),
])
def test_service_validation_accepts(desired, update_password):
    ss.validate(desired, update_password)


def test_service_features():
    assert ss.required_features({'ou': '', 'default_ad_site': None}) == []
    assert ss.required_features({'ou': 'x', 'default_ad_site': 'y'}) == [
        ('security_service_ou', 'ou'), ('security_service_default_ad_site', 'default_ad_site')]


def test_service_plan_object():
    plan = ss.ServicePlan('nothing')
    assert (plan.body, plan.before, plan.after, plan.password_unknown) == ({}, {}, {}, False)
    assert not plan.changed and ss.ServicePlan('update').changed
    assert ss.ServicePlan('update', body={'server': 1, 'name': 2, 'dns_ip': 3,
                                          'description': 4}).restricted() == ['dns_ip', 'server']
    assert ss.diff_view(None) == {}
    assert ss.diff_view(service(password='s')) == dict(
        (k, service().get(k)) for k in ('type',) + ss.FIELDS)


def test_service_create():
    with pytest.raises(InvalidInput) as err:
        ss.plan_create({'name': 'x'})
    assert str(err.value).startswith('type is required to create security service x')
    with pytest.raises(InvalidInput) as err:
        ss.plan_create({'type': 'ldap'})
    assert str(err.value) == 'name is required to create a security service.'
    plan = ss.plan_create({'type': 'ldap', 'name': 'x', 'server': '', 'dns_ip': '1.2.3.4'})
    assert plan.body == {'type': 'ldap', 'name': 'x', 'dns_ip': '1.2.3.4'} and plan.action == 'create'
    assert 'password' not in plan.after
    plan = ss.plan_create({'type': 'ldap', 'name': 'x', 'password': ''})
    assert plan.body['password'] == '' and plan.after['password'] == '(changed)'


def test_service_update_branches():
    s = service()
    plan = ss.plan_update(s, {'type': 'ldap', 'server': 'ldap1'})
    assert plan.action == 'update' and plan.body == {'type': 'ldap', 'server': 'ldap1'}
    assert (plan.before['type'], plan.after['type']) == ('active_directory', 'ldap')
    assert plan.restricted() == ['server', 'type']
    assert ss.plan_update(s, {'type': 'active_directory', 'name': 'other'}).action == 'nothing'
    plan = ss.plan_update(s, {'name': 'other'}, rename=True)
    assert plan.body == {'name': 'other'} and plan.after['name'] == 'other'
    assert ss.plan_update(s, {'server': ''}).action == 'nothing'
    assert ss.plan_update(s, {'user': 'admin', 'ou': None}).action == 'nothing'
    assert ss.plan_update(s, {'domain': ''}).body == {'domain': ''}
    # the password: only with update_password=always
    assert ss.plan_update(dict(s, password='a'), {'password': 'b'}).body == {}
    plan = ss.plan_update(dict(s, password='a'), {'password': 'b'}, update_password='always')
    assert plan.body == {'password': 'b'} and not plan.password_unknown
    assert plan.before['password'] == '(hidden)' and plan.after['password'] == '(changed)'
    plan = ss.plan_update(dict(s, password='a'), {'password': 'a'}, update_password='always')
    assert plan.action == 'nothing' and 'password' not in plan.before
    plan = ss.plan_update(dict(s, password=None), {'password': ''}, update_password='always')
    assert plan.action == 'nothing'
    plan = ss.plan_update(s, {'password': 'a'}, update_password='always')
    assert plan.password_unknown and plan.body == {'password': 'a'} and plan.action == 'update'


def test_service_absent_and_in_use_error():
    assert ss.plan_absent(None).action == 'nothing'
    plan = ss.plan_absent(service())
    assert plan.action == 'delete' and plan.after == {} and plan.before['name'] == 'ad'
    text = ss.in_use_error(service(), ['server', 'user'], ['n1', 'n2'], True)
    assert text.startswith('Security service ad (sid) is used by share network(s) n1, n2, which '
                           'have share servers: Manila lets only name and description change, '
                           'not server, user. To change them, create a new security service')
    assert '2.63' not in text
    assert text.endswith('on the share servers).')
    assert ss.in_use_error(service(), ['server'], ['n1'], False).endswith(
        'on the share servers); that needs Manila API 2.63, which this task does not have.')


def test_service_plans_show_the_whole_service_before_and_after():
    plan = ss.plan_create({'type': 'ldap', 'name': 'x', 'dns_ip': '1.2.3.4'})
    assert plan.after == dict(dict.fromkeys(ss.FIELDS), type='ldap', name='x', dns_ip='1.2.3.4')
    s = service()
    plan = ss.plan_update(s, {'name': 'other', 'server': 'dc1'}, rename=True)
    view = dict((k, s[k]) for k in ('type',) + ss.FIELDS)
    assert plan.before == view
    assert plan.after == dict(view, name='other', server='dc1')


# -- the calls of security services ------------------------------------------------------------

SERVICE_PATH = '/v2/security-services/sid'


def forbidden(message):
    return ScriptedResponse(403, {'forbidden': {'code': 403, 'message': message}})


def test_service_create_posts_the_body():
    body = {'type': 'ldap', 'name': 'x', 'dns_ip': '1.2.3.4', 'password': 'pw'}
    client, session = make_client([
        expect('POST', '/v2/security-services', ScriptedResponse(200, {'security_service': dict(
            body, id='sid')}), body={'security_service': body}),
    ])
    assert ss.SecurityServiceAPI(client).create(body)['id'] == 'sid'


IN_USE_REFUSALS = [
    ('delete', 'DELETE', 'Cannot delete security service. It is assigned to share network(s).',
     'Detach it from its share networks first'),
    ('update', 'PUT', 'Cannot update security service sid. It is attached to share network with '
     'share server associated. Only \'name\' and \'description\' fields are available for update.',
     'To change the other settings, put a new security service'),
]


@pytest.mark.parametrize('call,method,said,hint', IN_USE_REFUSALS)
def test_manilas_refusal_for_a_service_in_use_says_what_to_do(call, method, said, hint):
    client, session = make_client([expect(method, SERVICE_PATH, forbidden(said))])
    api = ss.SecurityServiceAPI(client)
    with pytest.raises(CannotConverge) as err:
        api.delete('sid') if call == 'delete' else api.update('sid', {'server': 'dc2'})
    assert err.value.message.startswith('Manila refused: %s ' % said)
    assert hint in err.value.message
    assert (err.value.status, err.value.method) == (403, method)


@pytest.mark.parametrize('call,method', [('delete', 'DELETE'), ('update', 'PUT')])
def test_any_other_refusal_stays_a_refusal(call, method):
    said = 'Policy doesn\'t allow security_service:%s to be performed.' % call
    client, session = make_client([expect(method, SERVICE_PATH, forbidden(said))])
    api = ss.SecurityServiceAPI(client)
    with pytest.raises(Forbidden) as err:
        api.delete('sid') if call == 'delete' else api.update('sid', {'server': 'dc2'})
    assert err.value.message == said


def test_the_networks_of_a_service_read_by_id():
    listing = '/v2/security-services/detail?id=sid&all_tenants=1'
    client, session = make_client([
        expect('GET', listing, ScriptedResponse(200, {'security_services': [
            {'id': 'sid', 'share_networks': ['n1', 'n2']}]})),
        expect('GET', listing, ScriptedResponse(200, {'security_services': []})),
    ])
    api = ss.SecurityServiceAPI(client)
    assert api.networks_of({'id': 'sid'}) == ['n1', 'n2']
    assert api.networks_of({'id': 'sid'}) == []
    assert api.networks_of({'id': 'sid', 'share_networks': None}) == []


# -- share types: what the plans show and what the API class sends -----------------------------

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


TYPE_PATH = '/v2/types/tid'


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
