# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Security services (security_services.py): their plans with every branch (pure
functions), and the requests of their API calls (scripted HTTP)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import security_services as ss
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    Forbidden,
    InvalidInput,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    expect,
    make_client,
)


def service(**fields):
    base = {'id': 'sid', 'name': 'ad', 'type': 'active_directory', 'description': None,
            'dns_ip': '10.0.0.2', 'server': None, 'domain': 'example.com', 'user': 'admin',
            'ou': None, 'default_ad_site': None}
    base.update(fields)
    return base


# -- the plans -----------------------------------------------------------------------------

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


# -- every branch of the plans --------------------------------------------------------------

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


# -- text Manila's database would refuse, and dns_ip (issue 37) ---------------------------

@pytest.mark.parametrize('value', [None, '', '10.0.0.1', '10.0.0.1, 10.0.0.2', 'fd00::53'])
def test_dns_ip_takes_addresses_and_lists_of_them(value):
    ss.check_dns_ip(value)


@pytest.mark.parametrize('value', ['dns.example.com', '10.0.0.1,', '10.0.0.256', 'fe80::1%eth0'])
def test_dns_ip_that_is_not_an_address_is_refused_naming_it(value):
    with pytest.raises(InvalidInput) as err:
        ss.check_dns_ip(value)
    assert str(err.value).startswith('dns_ip %r' % value)


def test_validate_refuses_text_longer_than_its_column_without_showing_a_password():
    with pytest.raises(InvalidInput) as err:
        ss.validate({'type': 'ldap', 'name': 'svc', 'ou': 'o' * 256})
    assert str(err.value) == 'ou is 256 characters long; Manila takes at most 255.'
    with pytest.raises(InvalidInput) as err:
        ss.validate({'type': 'ldap', 'name': 'svc', 'password': 'secret' * 50})
    assert str(err.value) == 'password is 300 characters long; Manila takes at most 255.'
    with pytest.raises(InvalidInput) as err:
        ss.validate({'type': 'ldap', 'dns_ip': '1' * 65})
    assert 'at most 64' in str(err.value)
