# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The share network plan: subnets, security services, and what Manila
refuses while a network is in use."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput
from ansible_collections.openkeel.manila.plugins.module_utils.share_networks import (
    existing_subnets,
    first_subnet,
    fold_services,
    in_use_refusals,
    normalize_subnets,
    plan_network,
    plan_security_services,
    plan_subnets,
    predicted_after,
    subnet_entry,
)

NET_A, SUB_A = 'aaaaaaaa-0000-0000-0000-000000000001', 'aaaaaaaa-0000-0000-0000-000000000002'
NET_B, SUB_B = 'bbbbbbbb-0000-0000-0000-000000000001', 'bbbbbbbb-0000-0000-0000-000000000002'

LDAP = dict(id='11111111-0000-0000-0000-000000000001', name='ldap-one', type='ldap')
LDAP2 = dict(id='11111111-0000-0000-0000-000000000002', name='ldap-two', type='ldap')
KRB = dict(id='11111111-0000-0000-0000-000000000003', name='krb', type='kerberos')


def network(*subnets, **fields):
    view = dict(id='99999999-0000-0000-0000-000000000000', name='net', description=None,
                status='active', share_network_subnets=list(subnets))
    view.update(fields)
    return view


def subnet(subnet_id, zone=None, net=None, sub=None):
    return dict(id=subnet_id, availability_zone=zone, neutron_net_id=net, neutron_subnet_id=sub)


class FakeUsage(object):
    def __init__(self, servers=(), shares=(), soft_deleted=()):
        self.servers = list(servers)
        self.shares = list(shares)
        self.soft_deleted = list(soft_deleted)

    def has_servers(self):
        return bool(self.servers or self.shares)

    def describe(self):
        return 'share servers %s' % ', '.join(s['id'] for s in self.servers)

    def subnet_blockers(self, subnet_, network_):
        return 'shares x use it' if self.shares else ''


# -- subnets ------------------------------------------------------------------------------

def test_subnets_need_both_neutron_ids_and_one_entry_per_zone():
    with pytest.raises(InvalidInput) as err:
        normalize_subnets([{'availability_zone': 'nova', 'neutron_net_id': NET_A},
                           {'availability_zone': None}, {'availability_zone': ''}])
    assert 'subnets[0] (availability zone nova): give both' in str(err.value)
    assert 'subnets[2]: the default subnet (every zone) is declared twice' in str(err.value)


def test_matching_subnets_change_nothing():
    existing = existing_subnets(network(subnet('s1', None, NET_A, SUB_A), subnet('s2', 'nova')))
    desired = normalize_subnets([{'neutron_net_id': NET_A, 'neutron_subnet_id': SUB_A},
                                 {'availability_zone': 'nova'}])
    assert plan_subnets(existing, desired, purge=True) == (None, [], [])


def test_the_default_subnet_changes_in_place_a_zone_subnet_is_replaced():
    existing = existing_subnets(network(subnet('s1', None, NET_A, SUB_A),
                                        subnet('s2', 'nova', NET_A, SUB_A)))
    desired = normalize_subnets([{'neutron_net_id': NET_B, 'neutron_subnet_id': SUB_B},
                                 {'availability_zone': 'nova', 'neutron_net_id': NET_B,
                                  'neutron_subnet_id': SUB_B}])
    update_default, creates, deletes = plan_subnets(existing, desired, purge=True)
    assert update_default['neutron_net_id'] == NET_B
    assert [d['id'] for d in deletes] == ['s2']
    assert [(c['availability_zone'], c['neutron_net_id']) for c in creates] == [('nova', NET_B)]


def test_undeclared_zones_go_only_with_purge():
    existing = existing_subnets(network(subnet('s1'), subnet('s2', 'nova'), subnet('s3', 'east')))
    desired = normalize_subnets([{}])
    assert [d['id'] for d in plan_subnets(existing, desired, purge=True)[2]] == ['s2', 's3']
    assert plan_subnets(existing, desired, purge=False) == (None, [], [])


def test_a_second_subnet_in_one_zone_is_deleted():
    # API 2.70+ allows several subnets per zone; the task declares one.
    existing = existing_subnets(network(subnet('s1', 'nova'), subnet('s2', 'nova', NET_A, SUB_A)))
    desired = normalize_subnets([{'availability_zone': 'nova', 'neutron_net_id': NET_A,
                                  'neutron_subnet_id': SUB_A}])
    assert [d['id'] for d in plan_subnets(existing, desired, purge=True)[2]] == ['s1']


def test_before_2_51_the_network_itself_holds_the_neutron_ids():
    old = dict(id='n', name='net', neutron_net_id=NET_A, neutron_subnet_id=SUB_A)
    assert existing_subnets(old) == [subnet_entry(None, NET_A, SUB_A)]
    plan = plan_network(old, dict(name='net', subnets=[subnet_entry(None, NET_B, SUB_B)]),
                        [], None, False)
    assert plan.update == {'neutron_net_id': NET_B, 'neutron_subnet_id': SUB_B}


def test_a_network_is_created_with_the_default_subnet_first():
    desired = normalize_subnets([{'availability_zone': 'nova'},
                                 {'neutron_net_id': NET_A, 'neutron_subnet_id': SUB_A}])
    assert first_subnet(desired)['neutron_net_id'] == NET_A
    assert first_subnet(normalize_subnets([{'availability_zone': 'nova'}]))[
        'availability_zone'] == 'nova'
    assert first_subnet([]) == subnet_entry()


# -- security services ------------------------------------------------------------------

def test_two_services_of_one_type_are_refused():
    with pytest.raises(InvalidInput) as err:
        fold_services([LDAP, KRB, LDAP2])
    assert 'two services of type ldap' in str(err.value)
    assert fold_services([LDAP, LDAP, KRB]) == [LDAP, KRB]


def test_services_are_added_and_with_purge_removed():
    adds, removes, swaps = plan_security_services([LDAP], [LDAP, KRB], purge=True)
    assert (adds, removes, swaps) == ([KRB], [], [])
    assert plan_security_services([LDAP, KRB], [KRB], purge=False) == ([], [], [])
    assert plan_security_services([LDAP, KRB], [KRB], purge=True) == ([], [LDAP], [])


def test_a_service_of_a_taken_type_replaces_it_only_with_purge():
    assert plan_security_services([LDAP], [LDAP2], purge=True) == ([], [], [(LDAP, LDAP2)])
    with pytest.raises(InvalidInput) as err:
        plan_security_services([LDAP], [LDAP2], purge=False)
    assert 'purge_security_services=true to replace it' in str(err.value)


# -- in use -----------------------------------------------------------------------------

def in_use_plan(attached, services, purge=True, subnets=None, net=None):
    desired = dict(name='net')
    if subnets is not None:
        desired.update(subnets=normalize_subnets(subnets), purge_subnets=True)
    return plan_network(net or network(subnet('s1')), desired, attached, services, purge)


def test_a_network_with_share_servers_refuses_detaching_and_old_api_adds():
    servers = FakeUsage(servers=[{'id': 'srv-1', 'status': 'active'}])
    plan = in_use_plan([LDAP, KRB], [LDAP2])
    reasons = in_use_refusals(plan, network(), servers, in_use_updates=True)
    assert len(reasons) == 1 and 'never detaches' in reasons[0] and 'krb' in reasons[0]
    plan = in_use_plan([LDAP], [LDAP2])     # a swap
    assert in_use_refusals(plan, network(), servers, in_use_updates=True) == []
    reasons = in_use_refusals(plan, network(), servers, in_use_updates=False)
    assert 'needs Manila API 2.63' in reasons[0]
    assert in_use_refusals(plan, network(), FakeUsage(), in_use_updates=False) == []


def test_default_subnet_neutron_ids_and_used_subnets_are_refused_in_use():
    net = network(subnet('s1', None, NET_A, SUB_A), subnet('s2', 'nova'))
    plan = in_use_plan([], None, subnets=[{'neutron_net_id': NET_B, 'neutron_subnet_id': SUB_B}],
                       net=net)
    reasons = in_use_refusals(plan, net, FakeUsage(servers=[{'id': 'srv'}], shares=[{}]),
                              in_use_updates=True)
    assert 'cannot change while it has share servers' in reasons[0]
    assert 'availability zone nova (s2) cannot be deleted: shares x use it' in reasons[1]


def test_predicted_after_shows_the_result_of_the_plan():
    net = network(subnet('s1', None, NET_A, SUB_A), subnet('s2', 'east'))
    plan = plan_network(net, dict(name='net', description='new', subnets=normalize_subnets([
        {'neutron_net_id': NET_B, 'neutron_subnet_id': SUB_B}, {'availability_zone': 'nova'}]),
        purge_subnets=True), [LDAP], [LDAP2, KRB], True)
    after = predicted_after(net, [LDAP], plan)
    assert after['description'] == 'new'
    assert after['subnets'] == [
        dict(availability_zone=None, neutron_net_id=NET_B, neutron_subnet_id=SUB_B),
        dict(availability_zone='nova', neutron_net_id=None, neutron_subnet_id=None)]
    assert after['security_services'] == ['krb', 'ldap-two']
