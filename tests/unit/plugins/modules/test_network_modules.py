# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""share_network, security_service and share_type on scripted HTTP, for what
the local cloud cannot show: share networks with share servers (refusals
before any write, the 2.63 check-then-change flow and its wait), old APIs, a
Manila that hides passwords."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Fail,
    run_scripted,
)

from ansible_collections.openkeel.manila.plugins.modules import security_service
from ansible_collections.openkeel.manila.plugins.modules import share_network
from ansible_collections.openkeel.manila.plugins.modules import share_type
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    ok,
)

NET = '99999999-0000-0000-0000-000000000001'
SUBNET = '99999999-0000-0000-0000-000000000002'
LDAP = {'id': '11111111-0000-0000-0000-000000000001', 'name': 'ldap-one', 'type': 'ldap',
        'status': 'new'}
LDAP2 = {'id': '11111111-0000-0000-0000-000000000002', 'name': 'ldap-two', 'type': 'ldap',
         'status': 'new'}
KRB = {'id': '11111111-0000-0000-0000-000000000003', 'name': 'krb', 'type': 'kerberos',
       'status': 'new'}
SERVER = {'id': '77777777-0000-0000-0000-000000000001', 'status': 'active',
          'share_network_id': NET, 'share_network_subnet_ids': [SUBNET],
          'is_auto_deletable': True}


def network(status='active', **fields):
    view = {'id': NET, 'name': 'net', 'description': None, 'status': status,
            'share_network_subnets': [{'id': SUBNET, 'availability_zone': None,
                                       'neutron_net_id': None, 'neutron_subnet_id': None}]}
    view.update(fields)
    return view


def listed(*services):
    return ok({'security_services': list(services)})


MODULES = {
    'share_network': (share_network, share_network.ShareNetworkModule),
    'security_service': (security_service, security_service.SecurityServiceModule),
    'share_type': (share_type, share_type.ShareTypeModule),
}


def run(monkeypatch, module, args, exchanges, max_version='2.99', check_mode=False):
    return run_scripted(monkeypatch, MODULES[module][0], args, exchanges, max_version=max_version,
                        check_mode=check_mode)


def network_reads(attached, services_lookups=()):
    """The reads every share_network task starts with."""
    reads = [('GET', '/v2/share-networks/detail?name=net', ok({'share_networks': [network()]})),
             ('GET', '/v2/security-services?share_network_id=' + NET, listed(*attached))]
    for service in services_lookups:
        reads.append(('GET', '/v2/security-services/detail?name=' + service['name'],
                      listed(service)))
    return reads


SERVERS = ('GET', '/v2/share-servers?share_network_id=' + NET, ok({'share_servers': [SERVER]}))
SHARE = {'id': '55555555-0000-0000-0000-000000000001', 'name': 'data', 'status': 'available',
         'access_rules_status': 'active', 'availability_zone': 'nova',
         'share_server_id': SERVER['id'], 'created_at': '2026-12-01T10:00:00.000000'}


def shares_on(*shares):
    return ('GET', '/v2/shares/detail?share_network_id=%s&all_tenants=1&with_count=true'
            '&limit=1000&offset=0' % NET, ok({'shares': list(shares), 'count': len(shares)}))


def recycled(*shares):
    return ('GET', '/v2/shares/detail?share_network_id=%s&is_soft_deleted=true&all_tenants=1'
            '&with_count=true&limit=1000&offset=0' % NET, ok({'shares': list(shares), 'count': len(shares)}))


def groups_on(*groups):
    return ('GET', '/v2/share-groups/detail?share_network_id=%s&all_tenants=1' % NET,
            ok({'share_groups': list(groups)}))


# -- share_network ------------------------------------------------------------------------

def test_detaching_from_a_network_with_share_servers_is_refused_before_any_write(monkeypatch):
    outcome, session = run(monkeypatch, 'share_network', {
        'name': 'net', 'security_services': ['ldap-one'], 'purge_security_services': True},
        network_reads([LDAP, KRB]) + [SERVERS])
    assert isinstance(outcome, Fail)
    assert 'never detaches a security service' in outcome.result['msg']
    assert SERVER['id'] in outcome.result['msg'] and 'krb' in outcome.result['msg']
    assert 'nothing was changed' in outcome.result['msg']
    assert session.writes() == []


def test_adding_to_a_network_in_use_below_2_63_is_refused_before_any_write(monkeypatch):
    outcome, session = run(monkeypatch, 'share_network', {
        'name': 'net', 'security_services': ['ldap-one']},
        network_reads([], [LDAP]) + [SERVERS], max_version='2.62')
    assert isinstance(outcome, Fail)
    assert 'needs Manila API 2.63' in outcome.result['msg']
    assert session.writes() == []


def test_from_2_63_a_service_reaches_share_servers_after_the_check_and_is_waited_for(
        monkeypatch):
    action = '/v2/share-networks/%s/action' % NET
    outcome, session = run(monkeypatch, 'share_network', {
        'name': 'net', 'security_services': ['ldap-one']},
        network_reads([], [LDAP]) + [
            SERVERS, shares_on(SHARE), recycled(),
            # the check starts afresh, is still running, then says yes
            ('POST', action, ok({'compatible': None}, 202)),
            ('POST', action, ok({'compatible': True}, 202)),
            ('POST', action, ok({'share_network': network('network_change')})),
            ('GET', '/v2/share-networks/' + NET, ok({'share_network': network('network_change')})),
            ('GET', '/v2/share-networks/' + NET, ok({'share_network': network('active')})),
            ('GET', '/v2/share-networks/' + NET, ok({'share_network': network('active')})),
            ('GET', '/v2/security-services?share_network_id=' + NET, listed(LDAP)),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert session.bodies('POST') == [
        {'add_security_service_check': {'security_service_id': LDAP['id'],
                                        'reset_operation': True}},
        {'add_security_service_check': {'security_service_id': LDAP['id'],
                                        'reset_operation': False}},
        {'add_security_service': {'security_service_id': LDAP['id']}},
    ]
    assert outcome.result['changed'] is True
    assert outcome.result['share_network']['security_services'] == [
        dict(id=LDAP['id'], name='ldap-one', type='ldap')]


def test_a_backend_that_cannot_take_the_service_fails_the_task_before_the_change(monkeypatch):
    action = '/v2/share-networks/%s/action' % NET
    outcome, session = run(monkeypatch, 'share_network', {
        'name': 'net', 'security_services': ['ldap-two'], 'purge_security_services': True},
        network_reads([LDAP], [LDAP2]) + [
            SERVERS, shares_on(SHARE), recycled(),
            ('POST', action, ok({'compatible': False,
                                 'hosts_check_result': {'host@dhss': False}}, 202)),
            # the backend's reason is filed under the new service
            ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3'
             % LDAP2['id'], ok({'messages': []})),
    ])
    assert isinstance(outcome, Fail)
    assert 'cannot take the change' in outcome.result['msg']
    assert 'host@dhss' in outcome.result['msg']
    assert session.bodies('POST') == [{'update_security_service_check': {
        'current_service_id': LDAP['id'], 'new_service_id': LDAP2['id'],
        'reset_operation': True}}]


def test_a_member_sees_shares_where_admins_see_servers(monkeypatch):
    shares = ok({'shares': [{'id': '55555555-0000-0000-0000-000000000001', 'name': 'data',
                             'availability_zone': 'nova'}], 'count': 1})
    outcome, session = run(monkeypatch, 'share_network', {
        'name': 'net', 'neutron_net_id': NET, 'neutron_subnet_id': SUBNET},
        network_reads([]) + [
            ('GET', '/v2/share-servers?share_network_id=' + NET, ok({'forbidden': {
                'code': 403, 'message': 'Policy does not allow'}}, 403)),
            ('GET', '/v2/shares/detail?share_network_id=%s&all_tenants=1&with_count=true&limit=1000&offset=0'
             % NET, shares),
    ])
    assert isinstance(outcome, Fail)
    assert "neutron_subnet_id cannot change while it has share servers (shares data" \
        in outcome.result['msg']
    assert session.writes() == []


def test_manilas_in_use_refusal_is_explained(monkeypatch):
    # A member cannot see share servers left after the last share: Manila refuses.
    outcome, session = run(monkeypatch, 'share_network', {
        'name': 'net', 'security_services': [], 'purge_security_services': True},
        network_reads([LDAP]) + [
            ('GET', '/v2/share-servers?share_network_id=' + NET, ok({'forbidden': {
                'code': 403, 'message': 'Policy does not allow'}}, 403)),
            ('GET', '/v2/shares/detail?share_network_id=%s&all_tenants=1&with_count=true&limit=1000&offset=0'
             % NET, ok({'shares': [], 'count': 0})),
            ('POST', '/v2/share-networks/%s/action' % NET, ok({'forbidden': {
                'code': 403, 'message': 'Cannot remove security services. Share network is '
                                        'used.'}}, 403)),
    ])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'].startswith('Manila refused the change because the share '
                                            'network is in use: Cannot remove')
    assert 'an admin can list them' in outcome.result['msg']


def test_a_network_in_error_takes_no_security_service(monkeypatch):
    outcome, session = run(monkeypatch, 'share_network', {
        'name': 'net', 'security_services': ['ldap-one']}, [
            ('GET', '/v2/share-networks/detail?name=net',
             ok({'share_networks': [network('error')]})),
            ('GET', '/v2/security-services?share_network_id=' + NET, listed()),
            ('GET', '/v2/security-services/detail?name=ldap-one', listed(LDAP)),
    ])
    assert isinstance(outcome, Fail)
    assert 'is in status error' in outcome.result['msg'] and session.writes() == []


def test_check_mode_create_sends_no_write(monkeypatch):
    outcome, session = run(monkeypatch, 'share_network', {
        'name': 'net', 'subnets': [{'availability_zone': 'nova'}], 'security_services': ['krb']}, [
            ('GET', '/v2/share-networks/detail?name=net', ok({'share_networks': []})),
            ('GET', '/v2/security-services/detail?name=krb', listed(KRB)),
            ('GET', '/v2/availability-zones', ok({'availability_zones': [{'name': 'nova'}]})),
    ], check_mode=True)
    assert outcome.result['changed'] is True and session.writes() == []
    assert outcome.result['share_network']['share_network_subnets'][0]['availability_zone'] \
        == 'nova'


# -- security_service ---------------------------------------------------------------------

def test_settings_of_a_service_in_use_are_refused_naming_the_networks(monkeypatch):
    used = dict(LDAP, server='old.example', share_networks=[NET])
    outcome, session = run(monkeypatch, 'security_service', {
        'name': 'ldap-one', 'server': 'new.example', 'description': 'x'}, [
            ('GET', '/v2/security-services/detail?name=ldap-one', listed(used)),
            SERVERS,
    ], max_version='2.62')
    assert isinstance(outcome, Fail)
    msg = outcome.result['msg']
    assert NET in msg and 'only name and description' in msg and 'server' in msg
    assert 'needs Manila API 2.63' in msg
    assert session.writes() == []


def test_name_and_description_change_on_a_service_in_use(monkeypatch):
    used = dict(LDAP, share_networks=[NET], password='secret')
    outcome, session = run(monkeypatch, 'security_service', {
        'name': 'ldap-one', 'description': 'bind for app'}, [
            ('GET', '/v2/security-services/detail?name=ldap-one', listed(used)),
            ('PUT', '/v2/security-services/' + LDAP['id'], ok({'security_service': dict(
                used, description='bind for app')})),
    ])
    assert outcome.result['changed'] is True
    assert session.bodies('PUT') == [{'security_service': {'description': 'bind for app'}}]
    assert 'password' not in outcome.result['security_service']
    assert 'secret' not in str(outcome.result)


def test_a_hidden_password_is_sent_on_every_run_with_a_warning(monkeypatch):
    hidden = dict(LDAP, share_networks=[])
    outcome, session = run(monkeypatch, 'security_service', {
        'name': 'ldap-one', 'password': 'new', 'update_password': 'always',
        '_ansible_diff': True}, [
            ('GET', '/v2/security-services/detail?name=ldap-one', listed(hidden)),
            ('PUT', '/v2/security-services/' + LDAP['id'], ok({'security_service': hidden})),
    ])
    assert outcome.result['changed'] is True
    assert session.bodies('PUT') == [{'security_service': {'password': 'new'}}]
    assert 'cannot be compared' in outcome.result['warnings'][0]
    assert outcome.result['diff']['after']['password'] == '(changed)'


def test_a_shown_password_is_compared_and_on_create_never_sends_it(monkeypatch):
    shown = dict(LDAP, share_networks=[], password='same')
    for mode in ('always', 'on_create'):
        outcome, session = run(monkeypatch, 'security_service', {
            'name': 'ldap-one', 'password': 'same' if mode == 'always' else 'other',
            'update_password': mode}, [
                ('GET', '/v2/security-services/detail?name=ldap-one', listed(shown)),
        ])
        assert outcome.result['changed'] is False and session.writes() == []


def test_an_attached_service_is_not_deleted(monkeypatch):
    outcome, session = run(monkeypatch, 'security_service', {'id': LDAP['id'], 'state': 'absent'}, [
        ('GET', '/v2/security-services/' + LDAP['id'], ok({'security_service': LDAP})),
        ('GET', '/v2/security-services/detail?id=%s&all_tenants=1' % LDAP['id'],
         listed(dict(LDAP, share_networks=[NET]))),
    ])
    assert isinstance(outcome, Fail)
    assert 'attached to share network(s) %s' % NET in outcome.result['msg']
    assert session.writes() == []


def test_a_type_changes_on_a_service_whose_networks_have_no_share_servers(monkeypatch):
    # Manila 23 takes a new type unless share servers use the service (issue 36).
    attached = dict(LDAP, share_networks=[NET])
    outcome, session = run(monkeypatch, 'security_service', {
        'name': 'ldap-one', 'type': 'kerberos', '_ansible_diff': True}, [
            ('GET', '/v2/security-services/detail?name=ldap-one', listed(attached)),
            ('GET', '/v2/share-servers?share_network_id=' + NET, ok({'share_servers': []})),
            ('PUT', '/v2/security-services/' + LDAP['id'], ok({'security_service': dict(
                attached, type='kerberos')})),
    ])
    assert outcome.result['changed'] is True
    assert session.bodies('PUT') == [{'security_service': {'type': 'kerberos'}}]
    assert outcome.result['security_service']['type'] == 'kerberos'
    assert (outcome.result['diff']['before']['type'],
            outcome.result['diff']['after']['type']) == ('ldap', 'kerberos')


def test_a_type_changes_on_a_service_without_share_networks_and_converges(monkeypatch):
    alone = dict(LDAP, share_networks=[])
    outcome, session = run(monkeypatch, 'security_service', {
        'id': LDAP['id'], 'type': 'active_directory'}, [
            ('GET', '/v2/security-services/' + LDAP['id'], ok({'security_service': LDAP})),
            ('GET', '/v2/security-services/detail?id=%s&all_tenants=1' % LDAP['id'],
             listed(alone)),
            ('PUT', '/v2/security-services/' + LDAP['id'], ok({'security_service': dict(
                LDAP, type='active_directory')})),
    ])
    assert session.bodies('PUT') == [{'security_service': {'type': 'active_directory'}}]
    outcome, session = run(monkeypatch, 'security_service', {
        'id': LDAP['id'], 'type': 'active_directory'}, [
            ('GET', '/v2/security-services/' + LDAP['id'], ok({'security_service': dict(
                LDAP, type='active_directory')})),
    ])
    assert outcome.result['changed'] is False and session.writes() == []


def test_a_type_change_on_a_service_in_use_is_refused_naming_the_networks(monkeypatch):
    used = dict(LDAP, share_networks=[NET])
    outcome, session = run(monkeypatch, 'security_service', {
        'name': 'ldap-one', 'type': 'kerberos'}, [
            ('GET', '/v2/security-services/detail?name=ldap-one', listed(used)),
            SERVERS,
    ])
    assert isinstance(outcome, Fail)
    msg = outcome.result['msg']
    assert ('is used by share network(s) %s, which have share servers: Manila lets only name '
            'and description change, not type.' % NET) in msg
    assert session.writes() == []


def test_default_ad_site_on_an_old_api_and_with_a_server(monkeypatch):
    outcome, session = run(monkeypatch, 'security_service', {
        'name': 'ad', 'type': 'active_directory', 'default_ad_site': 'east'}, [],
        max_version='2.75')
    assert outcome.result['msg'] == ('default_ad_site needs Manila API 2.76; this cloud '
                                     'offers 2.75.')
    outcome, session = run(monkeypatch, 'security_service', {
        'name': 'ad', 'type': 'active_directory', 'default_ad_site': 'east',
        'server': 'dc1'}, [])
    assert 'server or default_ad_site, not both' in outcome.result['msg']


# -- share_type ---------------------------------------------------------------------------

TYPE = {'id': '33333333-0000-0000-0000-000000000001', 'name': 'gold', 'description': None,
        'share_type_access:is_public': True,
        'extra_specs': {'driver_handles_share_servers': 'True', 'snapshot_support': 'true',
                        'share_backend_name': 'GOLD'}}


def test_boolean_specs_compare_regardless_of_case_and_dhss_is_never_purged(monkeypatch):
    outcome, session = run(monkeypatch, 'share_type', {
        'name': 'gold', 'extra_specs': {'snapshot_support': True}, 'purge_extra_specs': True}, [
            ('GET', '/v2/types?is_public=all', ok({'share_types': [TYPE]})),
            ('DELETE', '/v2/types/%s/extra_specs/share_backend_name' % TYPE['id'], ok(status=202)),
    ])
    assert outcome.result['changed'] is True
    assert [c.path for c in session.writes()] == [
        '/v2/types/%s/extra_specs/share_backend_name' % TYPE['id']]
    assert outcome.result['share_type']['extra_specs'] == {
        'driver_handles_share_servers': 'True', 'snapshot_support': 'true'}


def test_a_type_left_without_options_is_left_alone(monkeypatch):
    # openstack.cloud.share_type would make it public and DHSS=true here.
    private = dict(TYPE, **{'share_type_access:is_public': False,
                            'extra_specs': {'driver_handles_share_servers': 'False'}})
    outcome, session = run(monkeypatch, 'share_type', {'name': 'gold'}, [
        ('GET', '/v2/types?is_public=all', ok({'share_types': [private]})),
    ])
    assert outcome.result['changed'] is False and session.writes() == []
    assert outcome.result['share_type']['is_public'] is False


def test_visibility_changes_need_2_50(monkeypatch):
    outcome, session = run(monkeypatch, 'share_type', {'name': 'gold', 'is_public': False}, [
        ('GET', '/v2/types?is_public=all', ok({'share_types': [TYPE]})),
    ], max_version='2.49')
    assert outcome.result['msg'] == ("Changing a share type's visibility needs Manila API "
                                     "2.50; this cloud offers 2.49.")
    assert session.writes() == []


def test_a_type_in_use_is_not_deleted(monkeypatch):
    outcome, session = run(monkeypatch, 'share_type', {'name': 'gold', 'state': 'absent'}, [
        ('GET', '/v2/types?is_public=all', ok({'share_types': [TYPE]})),
        ('GET', '/v2/shares?share_type_id=%s&all_tenants=1&limit=10' % TYPE['id'],
         ok({'shares': [{'id': '55555555-0000-0000-0000-000000000001', 'name': 'data'}]})),
    ])
    assert isinstance(outcome, Fail)
    assert 'used by shares' in outcome.result['msg'] and 'data (5555' in outcome.result['msg']
    assert session.writes() == []


def test_an_unknown_id_is_not_a_new_types_name(monkeypatch):
    outcome, session = run(monkeypatch, 'share_type', {
        'name': TYPE['id'], 'driver_handles_share_servers': False}, [
        ('GET', '/v2/types/' + TYPE['id'], ok({'itemNotFound': {
            'code': 404, 'message': 'Share type not found.'}}, 404)),
        # a UUID-shaped value is also tried as a name (lookups.find)
        ('GET', '/v2/types?is_public=all', ok({'share_types': []})),
    ])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'] == ('No share type with ID %s exists; give a name to create '
                                     'one.' % TYPE['id'])
    assert session.writes() == []


# -- a namesake another task created at the same moment (the converge template's adopt) ---

MINE = '11111111-0000-0000-0000-0000000000ff'


def test_a_service_another_task_created_meanwhile_is_adopted_and_updated(monkeypatch):
    theirs = dict(LDAP, server='old.example', created_at='2026-01-01T00:00:00.000000')
    mine = dict(LDAP, id=MINE, server='new.example', created_at='2026-01-01T00:00:01.000000')
    outcome, session = run(monkeypatch, 'security_service', {
        'name': 'ldap-one', 'type': 'ldap', 'server': 'new.example'}, [
            ('GET', '/v2/security-services/detail?name=ldap-one', listed()),
            ('POST', '/v2/security-services', ok({'security_service': mine})),
            ('GET', '/v2/security-services/detail?name=ldap-one', listed(theirs, mine)),
            ('DELETE', '/v2/security-services/' + MINE, ok(status=202)),
            # the server may change only on a service no share server uses
            ('GET', '/v2/security-services/detail?id=%s&all_tenants=1' % LDAP['id'],
             listed(dict(theirs, share_networks=[]))),
            ('PUT', '/v2/security-services/' + LDAP['id'],
             ok({'security_service': dict(theirs, server='new.example')})),
    ])
    result = outcome.result
    assert result['changed'] is True and result['security_service']['id'] == LDAP['id']
    assert result['security_service']['server'] == 'new.example'
    assert [c.method for c in session.writes()] == ['POST', 'DELETE', 'PUT']
    assert any('at the same time' in w for w in result['warnings'])


def test_a_network_another_task_created_meanwhile_is_adopted_and_updated(monkeypatch):
    theirs = network(created_at='2026-01-01T00:00:00.000000')
    mine = network(id=MINE, created_at='2026-01-01T00:00:01.000000', description='d')
    outcome, session = run(monkeypatch, 'share_network', {'name': 'net', 'description': 'd'}, [
        ('GET', '/v2/share-networks/detail?name=net', ok({'share_networks': []})),
        ('POST', '/v2/share-networks', ok({'share_network': mine})),
        ('GET', '/v2/share-networks/detail?name=net', ok({'share_networks': [theirs, mine]})),
        ('DELETE', '/v2/share-networks/' + MINE, ok(status=202)),
        ('GET', '/v2/security-services?share_network_id=' + NET, listed()),
        ('PUT', '/v2/share-networks/' + NET, ok({'share_network': dict(theirs, description='d')})),
        ('GET', '/v2/share-networks/' + NET, ok({'share_network': dict(theirs, description='d')})),
        ('GET', '/v2/security-services?share_network_id=' + NET, listed(LDAP)),
    ])
    result = outcome.result
    assert result['changed'] is True and result['share_network']['id'] == NET
    assert result['share_network']['description'] == 'd'
    assert [s['id'] for s in result['share_network']['security_services']] == [LDAP['id']]
    assert [c.method for c in session.writes()] == ['POST', 'DELETE', 'PUT']


def test_a_type_another_task_created_meanwhile_is_adopted_and_updated(monkeypatch):
    outcome, session = run(monkeypatch, 'share_type', {
        'name': 'gold', 'driver_handles_share_servers': True,
        'extra_specs': {'share_backend_name': 'SILVER'}}, [
            ('GET', '/v2/types?is_public=all', ok({'share_types': []})),
            ('POST', '/v2/types', ScriptedResponse(409, {'conflictingRequest': {
                'code': 409, 'message': 'Share Type gold already exists.'}})),
            ('GET', '/v2/types?is_public=all', ok({'share_types': [TYPE]})),
            ('POST', '/v2/types/%s/extra_specs' % TYPE['id'],
             ok({'extra_specs': {'share_backend_name': 'SILVER'}})),
    ])
    result = outcome.result
    assert result['changed'] is True and result['share_type']['id'] == TYPE['id']
    assert result['share_type']['extra_specs']['share_backend_name'] == 'SILVER'
    assert [c.method for c in session.writes()] == ['POST', 'POST']
    assert any('one type per name' in w for w in result['warnings'])


# -- text Manila's database would refuse, refused before any request (issue 37) ----------

@pytest.mark.parametrize('args,needle', [
    ({'name': 'n' * 256}, 'name is 256 characters long; Manila takes at most 255.'),
    ({'name': 'net', 'description': 'd' * 300}, 'description is 300 characters long'),
    ({'name': ''}, 'name cannot be empty'),
    ({'name': '   ', 'state': 'absent'}, 'name cannot be empty'),
    ({'name': 'net', 'neutron_net_id': 'x' * 37, 'neutron_subnet_id': SUBNET},
     'neutron_net_id is 37 characters long; Manila takes at most 36. A Neutron ID is a UUID.'),
    ({'name': 'net', 'subnets': [{}, {'availability_zone': 'nova', 'neutron_net_id': NET,
                                      'neutron_subnet_id': 's' * 40}]},
     'subnets[1].neutron_subnet_id is 40 characters long'),
])
def test_share_network_text_manila_would_refuse_is_refused_before_any_request(
        monkeypatch, args, needle):
    outcome, session = run(monkeypatch, 'share_network', args, [])
    assert isinstance(outcome, Fail), outcome.result
    assert needle in outcome.result['msg']
    assert session.requests() in ([], ['GET /'])


@pytest.mark.parametrize('args,needle', [
    ({'name': 's' * 256, 'type': 'ldap'}, 'name is 256 characters long; Manila takes at most 255.'),
    ({'name': 'svc', 'type': 'ldap', 'description': 'd' * 256}, 'description is 256'),
    ({'name': 'svc', 'type': 'ldap', 'server': 'h' * 256}, 'server is 256'),
    ({'name': 'svc', 'type': 'ldap', 'password': 'p' * 300}, 'password is 300'),
    ({'name': 'svc', 'type': 'ldap', 'dns_ip': 'dns.example.com'}, 'dns_ip'),
    ({'name': 'svc', 'type': 'ldap', 'dns_ip': '10.0.0.1,10.0.0.300'}, 'not an IP address'),
    ({'name': 'svc', 'type': 'ldap', 'dns_ip': 'fe80::1%eth0'}, 'dns_ip'),
])
def test_security_service_text_manila_would_refuse_is_refused_before_any_request(
        monkeypatch, args, needle):
    outcome, session = run(monkeypatch, 'security_service', args, [])
    assert isinstance(outcome, Fail), outcome.result
    assert needle in outcome.result['msg']
    assert 'p' * 300 not in outcome.result['msg']
    assert session.requests() in ([], ['GET /'])
