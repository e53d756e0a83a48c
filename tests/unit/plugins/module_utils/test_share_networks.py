# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Share networks: the plan (subnets, security services, and what Manila refuses
while a network is in use) with its every branch (pure functions), what uses a
network (Usage), and what the API class sends (scripted HTTP)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    AmbiguousName,
    CannotConverge,
    InvalidInput,
    UnsupportedFeature,
    WaitFailed,
    WaitTimeout,
)
from ansible_collections.openkeel.manila.plugins.module_utils.share_networks import (
    check_network_input,
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
from ansible_collections.openkeel.manila.plugins.module_utils import share_networks as sn
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    FakeClock,
    ScriptedResponse,
    expect,
    make_client,
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


# -- a network with one default subnet, for the tests below -------------------------

def network_with_subnet(**fields):
    base = {'id': 'nid', 'name': 'net', 'description': None, 'status': 'active',
            'share_network_subnets': [{'id': 'sub0', 'availability_zone': None,
                                       'neutron_net_id': 'n0', 'neutron_subnet_id': 's0'}]}
    base.update(fields)
    return base


def test_labels_and_entries():
    assert sn.network_label({'name': 'a'}) == 'Share network a (new)'
    assert sn.network_label({'name': 'a', 'id': 'x'}) == 'Share network a (x)'
    assert sn.zone_label(None) == 'the default subnet (every zone)'
    assert sn.zone_label('z1') == 'availability zone z1'
    assert sn.subnet_entry('', '', None, 'id') == dict(id='id', availability_zone=None,
                                                       neutron_net_id=None, neutron_subnet_id=None)


def test_normalize_subnets():
    assert sn.normalize_subnets(None) == []
    got = sn.normalize_subnets([{'availability_zone': 'z1', 'neutron_net_id': 'n', 'neutron_subnet_id': 's'},
                                {}])
    assert [e['availability_zone'] for e in got] == ['z1', None]
    with pytest.raises(InvalidInput) as err:
        sn.normalize_subnets([{'neutron_net_id': 'n'}, {'availability_zone': 'z'},
                              {'availability_zone': 'z'}])
    text = str(err.value)
    assert text.startswith('Invalid subnets, nothing was changed: subnets[0] (the default subnet '
                           '(every zone)): give both neutron_net_id and neutron_subnet_id')
    assert 'subnets[2]: availability zone z is declared twice' in text


def test_plan_object():
    plan = sn.NetworkPlan('nothing')
    assert (plan.update, plan.subnet_creates, plan.subnet_deletes, plan.adds,
            plan.removes, plan.swaps) == ({}, [], [], [], [], [])
    assert repr(plan) == "NetworkPlan('nothing')"
    assert not plan.changed and not plan.update_neutron and not plan.service_changes
    assert sn.NetworkPlan('create').changed and sn.NetworkPlan('delete').changed
    for field in ('subnet_creates', 'subnet_deletes', 'adds', 'removes', 'swaps'):
        plan = sn.NetworkPlan('update', **{field: ['x']})
        assert plan.changed
        assert plan.service_changes is (field in ('adds', 'removes', 'swaps'))
    assert sn.NetworkPlan('update', update={'neutron_net_id': 'n'}).update_neutron
    assert not sn.NetworkPlan('update', update={'name': 'n'}).update_neutron
    assert sn.NetworkPlan('update', update={'name': 'n'}).changed


def test_update_and_create_bodies():
    n = network_with_subnet(description='d')
    assert sn.update_body(n, {'name': 'other', 'description': 'd'}, False, None) == {}
    assert sn.update_body(n, {'name': 'other'}, True, None) == {'name': 'other'}
    assert sn.update_body(n, {'name': 'net'}, True, None) == {}
    assert sn.update_body(n, {'name': ''}, True, None) == {}
    assert sn.update_body(network_with_subnet(), {'description': ''}, False, None) == {}
    assert sn.update_body(n, {'description': ''}, False, None) == {'description': ''}
    assert sn.update_body(n, {}, False, {'neutron_net_id': 'a', 'neutron_subnet_id': 'b'}) == {
        'neutron_net_id': 'a', 'neutron_subnet_id': 'b'}
    subnet = sn.subnet_entry('z1', 'n', 's')
    assert sn.create_body({'name': 'x', 'description': ''}, subnet) == {
        'name': 'x', 'description': '', 'neutron_net_id': 'n', 'neutron_subnet_id': 's',
        'availability_zone': 'z1'}
    assert sn.create_body({'name': 'x'}, sn.subnet_entry()) == {'name': 'x'}


def test_plan_network_nothing_and_rename():
    n = network_with_subnet()
    plan = sn.plan_network(n, {'name': 'net'}, [], None, False)
    assert plan.action == 'nothing'
    plan = sn.plan_network(n, {'name': 'new'}, [], None, False, rename=True)
    assert plan.action == 'update' and plan.update == {'name': 'new'}


def test_predicted_network():
    subnet = sn.subnet_entry('z', 'n', 's')
    got = sn.predicted_network({'name': 'x'}, subnet)
    assert got == {'id': None, 'name': 'x', 'description': None, 'status': 'active',
                   'share_network_subnets': [dict(subnet, id=None)]}


def test_services_cannot_change_on_a_network_in_error():
    sn.check_can_change_services(network_with_subnet())
    with pytest.raises(CannotConverge) as err:
        sn.check_can_change_services(network_with_subnet(status='error'))
    assert 'Share network net (nid) is in status error' in str(err.value)


def test_views_and_prediction():
    assert sn.diff_view(None, []) == {}
    view = sn.diff_view(network_with_subnet(), [{'id': 'b'}, {'id': 'a', 'name': 'z'}])
    assert view['security_services'] == ['b', 'z'] and view['name'] == 'net'
    plan = sn.NetworkPlan('update', update={'name': 'new', 'description': 'd',
                                            'neutron_net_id': 'n1', 'neutron_subnet_id': 's1'})
    after = sn.predicted_after(network_with_subnet(), [], plan)
    assert (after['name'], after['description']) == ('new', 'd')
    assert after['subnets'] == [{'availability_zone': None, 'neutron_net_id': 'n1',
                                 'neutron_subnet_id': 's1'}]
    assert sn.result_view({'id': 'x'}, None) == {'id': 'x', 'security_services': []}


# -- more of the plan ------------------------------------------------------------------------

def test_every_bad_subnet_and_service_is_looked_at():
    with pytest.raises(InvalidInput) as err:
        sn.normalize_subnets([{'neutron_net_id': 'n'}, {'availability_zone': 'z', 'neutron_subnet_id': 's'}])
    assert 'subnets[0]' in str(err.value) and 'subnets[1]' in str(err.value)
    ldap = {'id': 'l1', 'name': 'ldap', 'type': 'ldap'}
    krb = {'id': 'k1', 'name': 'krb', 'type': 'kerberos'}
    adds, removes, swaps = sn.plan_security_services([], [krb, ldap], purge=False)
    assert (adds, removes, swaps) == ([krb, ldap], [], [])


def test_rename_only_when_asked():
    assert sn.plan_network(network_with_subnet(), {'name': 'new'}, [], None, False).update == {}


def test_views_show_the_description_and_the_subnets():
    view = sn.diff_view(network_with_subnet(description='d'), [])
    assert view == {'name': 'net', 'description': 'd', 'security_services': [], 'subnets': [
        {'availability_zone': None, 'neutron_net_id': 'n0', 'neutron_subnet_id': 's0'}]}
    got = sn.predicted_network({'name': 'x', 'description': 'd'}, sn.subnet_entry('z', 'n', 's', 'old'))
    assert got['description'] == 'd' and got['share_network_subnets'][0]['id'] is None


def test_predicted_after_keeps_the_services_not_dropped():
    ldap = {'id': 'l1', 'name': 'ldap'}
    krb = {'id': 'k1', 'name': 'krb'}
    ad = {'id': 'a1'}
    plan = sn.NetworkPlan('update', adds=[ad])
    after = sn.predicted_after(network_with_subnet(description='d'), [ldap, krb], plan)
    assert after['security_services'] == ['a1', 'krb', 'ldap'] and after['description'] == 'd'
    assert after['name'] == 'net'


# -- Usage: what uses a network ---------------------------------------------------------------

SERVERS = '/v2/share-servers?share_network_id=nid'
SHARES = '/v2/shares/detail?share_network_id=nid&all_tenants=1&with_count=true&limit=1000&offset=0'


def ok(body):
    return ScriptedResponse(200, body)


def test_usage_reads_the_servers_once():
    client, session = make_client([
        expect('GET', SERVERS, ok({'share_servers': [{'id': 'srv-b'}, {'id': 'srv-a'}]})),
    ])
    usage = sn.Usage(client, 'nid')
    assert usage.has_servers() and usage.has_servers()
    assert usage.describe() == 'share servers srv-a, srv-b'


@pytest.mark.parametrize('shares,has', [([{'id': 's2', 'name': 'b'}, {'id': 's1', 'name': 'a'}], True),
                                        ([], False)])
def test_a_member_sees_the_shares_instead_of_the_servers(shares, has):
    client, session = make_client([
        expect('GET', SERVERS, ScriptedResponse(403, {'forbidden': {'code': 403, 'message': 'policy'}})),
        expect('GET', SHARES, ok({'shares': shares, 'count': len(shares)})),
    ])
    usage = sn.Usage(client, 'nid')
    assert usage.servers is None and usage.has_servers() is has
    if has:
        assert usage.describe() == 'shares a (s1), b (s2)'


SUBNETS = [sn.subnet_entry(None, 'n0', 's0', 'sub-default'), sn.subnet_entry('z1', 'n1', 's1', 'sub-z1')]
# As Manila shows them: the zone's subnet was added at noon.
SHOWN = network_with_subnet(share_network_subnets=[
    dict(SUBNETS[0], created_at='2026-12-01T09:00:00.000000'),
    dict(SUBNETS[1], created_at='2026-12-01T12:00:00.000000')])


def usage_of(servers=(), shares=(), soft_deleted=(), groups=()):
    usage = sn.Usage(None, 'nid')
    usage._servers = None if servers is None else list(servers)
    usage._shares = list(shares)
    usage._soft_deleted = list(soft_deleted)
    usage._groups = list(groups)
    return usage


def share(share_id, name, zone, created='2026-12-01T13:00:00', server=None):
    return {'id': share_id, 'name': name, 'availability_zone': zone, 'created_at': created,
            'share_server_id': server}


@pytest.mark.parametrize('subnet,servers,shares,blockers', [
    # a member: shares of the subnet's zone made after it; for the default
    # subnet: those of zones without a subnet, and older ones of zones with one
    (SUBNETS[1], None, [share('s1', 'a', 'z1'), share('s0', 'b', 'z1')],
     'shares a (s1), b (s0) use it; delete or move them first'),
    (SUBNETS[1], None, [share('s2', 'c', 'z2')], ''),
    (SUBNETS[0], None, [share('s2', 'c', 'z2')], 'shares c (s2) use it; delete or move them first'),
    (SUBNETS[0], None, [share('s1', 'a', 'z1')], ''),
    (SUBNETS[0], None, [share('s1', 'a', 'z1', created='2026-12-01T10:00:00')],
     'shares a (s1) use it; delete or move them first'),
    (SUBNETS[1], None, [share('s1', 'a', 'z1', created='2026-12-01T10:00:00')], ''),
    (SUBNETS[1], None, [share('s1', 'a', 'z1', created=None)],
     'shares a (s1) use it; delete or move them first'),
    # an admin: the shares on the subnet's share servers, whatever their zone
    (SUBNETS[1], [{'id': 'srv-z', 'share_network_subnet_ids': ['sub-z1']},
                  {'id': 'srv-d', 'share_network_subnet_ids': ['sub-default']}],
     [share('s1', 'a', 'z1', server='srv-d'), share('s2', 'b', 'z2', server='srv-z')],
     'shares b (s2) use it; delete or move them first'),
    (SUBNETS[0], [{'id': 'srv-d', 'share_network_subnet_id': 'sub-default'}],
     [share('s1', 'a', 'z1', server='srv-d')], 'shares a (s1) use it; delete or move them first'),
    (SUBNETS[0], [], [share('s1', 'a', None)], ''),
    # share servers Manila did not create itself, on the subnet (2.70+: a list of subnets)
    (SUBNETS[1], [{'id': 'srv-2', 'share_network_subnet_ids': ['sub-z1'], 'is_auto_deletable': False},
                  {'id': 'srv-1', 'share_network_subnet_id': 'sub-z1', 'is_auto_deletable': False}], [],
     'share servers srv-1, srv-2 on it were not created by Manila (not auto-deletable); '
     'an admin must remove them'),
    (SUBNETS[1], [{'id': 'srv-1', 'share_network_subnet_id': 'sub-default', 'is_auto_deletable': False}],
     [], ''),
    (SUBNETS[1], [{'id': 'srv-1', 'share_network_subnet_id': 'sub-z1', 'is_auto_deletable': True},
                  {'id': 'srv-2', 'share_network_subnet_id': 'sub-z1'}], [], ''),
    (SUBNETS[1], None, [], ''),      # servers hidden from a member
])
def test_what_blocks_deleting_a_subnet(subnet, servers, shares, blockers):
    assert usage_of(servers, shares).subnet_blockers(subnet, SHOWN) == blockers


def test_recycled_shares_and_share_groups_block_a_subnet_too():
    groups = [{'id': 'g1', 'name': 'grp', 'availability_zone': 'z1', 'share_server_id': 'srv-z'}]
    binned = [share('s9', 'old', 'z1', server='srv-z')]
    member = usage_of(None, (), binned, groups)
    assert member.subnet_blockers(SUBNETS[1], SHOWN) == (
        'shares old (s9) use it; delete or move them first; '
        'share groups grp (g1) use it; delete them first')
    admin = usage_of([{'id': 'srv-z', 'share_network_subnet_ids': ['sub-z1']}], (), binned, groups)
    assert admin.subnet_blockers(SUBNETS[1], SHOWN) == member.subnet_blockers(SUBNETS[1], SHOWN)
    assert admin.subnet_blockers(SUBNETS[0], SHOWN) == ''


def test_what_blocks_deleting_a_network():
    assert usage_of(None).delete_blockers() == []
    usage = usage_of([{'id': 'srv', 'is_auto_deletable': False}], [share('s1', 'a', None)],
                     [share('s2', 'b', None)], [{'id': 'g1', 'name': 'grp'}])
    assert usage.delete_blockers() == [
        'shares a (s1) use it',
        'shares b (s2) in the recycle bin use it (delete them for good, or restore them)',
        'share groups grp (g1) use it; delete them first',
        'share servers srv were not created by Manila (not auto-deletable); an admin must '
        'remove them']


def test_soft_deleted_shares_and_share_groups_are_read_where_the_api_has_them():
    recycled = ('/v2/shares/detail?share_network_id=nid&is_soft_deleted=true&all_tenants=1'
                '&with_count=true&limit=1000&offset=0')
    groups = '/v2/share-groups/detail?share_network_id=nid&all_tenants=1'
    client, session = make_client([
        expect('GET', recycled, ok({'shares': [{'id': 's1'}], 'count': 1})),
        expect('GET', groups, ok({'share_groups': [{'id': 'g1'}]})),
    ])
    usage = sn.Usage(client, 'nid')
    assert usage.soft_deleted == usage.soft_deleted == [{'id': 's1'}]
    assert usage.share_groups == usage.share_groups == [{'id': 'g1'}]
    # share groups need the experimental header before 2.55; a policy may hide them
    client, session = make_client([
        expect('GET', groups, ScriptedResponse(403, {'forbidden': {'code': 403, 'message': 'no'}}),
               experimental=True),
    ], max_version='2.54')
    usage = sn.Usage(client, 'nid')
    assert usage.share_groups == [] and usage.soft_deleted == []
    client, session = make_client([], max_version='2.30')
    assert sn.Usage(client, 'nid').share_groups == []


def test_what_stops_a_security_service_change_on_a_network_in_use():
    unsupported = network_with_subnet(security_service_update_support=False)
    assert len(sn.service_update_refusals(unsupported, usage_of([]))) == 1
    assert sn.service_update_refusals(network_with_subnet(), usage_of([])) == []
    assert sn.service_update_refusals(network_with_subnet(security_service_update_support=True),
                                      usage_of([{'id': 'srv', 'status': 'active'}],
                                               [dict(share('s1', 'a', None), status='available',
                                                     access_rules_status='active')])) == []
    # a member with only recycled shares: the network still has its share server
    reasons = sn.service_update_refusals(network_with_subnet(), usage_of(None, (), [share('s2', 'b', None)]))
    assert len(reasons) == 1 and 'b (s2) are in the recycle bin' in reasons[0]


def test_the_subnets_of_a_share_server():
    assert sn.server_subnets({'share_network_subnet_ids': ['a'], 'share_network_subnet_id': 'b'}) == ['a', 'b']
    assert sn.server_subnets({'share_network_subnet_ids': None, 'share_network_subnet_id': None}) == []
    assert sn.server_subnets({}) == []


def test_in_use_refusals_ask_usage_about_each_deleted_subnet():
    seen = []

    class Seeing(sn.Usage):
        def subnet_blockers(self, subnet, network):
            seen.append((subnet['id'], [s['id'] for s in network['share_network_subnets']]))
            return 'shares x use it'
    net = network_with_subnet(share_network_subnets=[{'id': 'sub0', 'availability_zone': None,
                                                      'neutron_net_id': 'n0', 'neutron_subnet_id': 's0'},
                                                     {'id': 'sub1', 'availability_zone': 'z1',
                                                      'neutron_net_id': 'n1', 'neutron_subnet_id': 's1'}])
    plan = sn.NetworkPlan('update', subnet_deletes=[sn.existing_subnets(net)[1]])
    reasons = sn.in_use_refusals(plan, net, Seeing(None, 'nid'), True)
    assert seen == [('sub1', ['sub0', 'sub1'])] and len(reasons) == 1


# -- the API class ----------------------------------------------------------------------------

NET_PATH = '/v2/share-networks/nid'


def error(status):
    return ScriptedResponse(status, {'computeFault': {'code': status, 'message': 'busy'}})


def test_network_api_create_and_find_by_id():
    body = {'name': 'net', 'neutron_net_id': 'n0', 'neutron_subnet_id': 's0'}
    client, session = make_client([
        expect('POST', '/v2/share-networks', ok({'share_network': dict(body, id='nid')}),
               body={'share_network': body}),
        expect('GET', NET_PATH, ok({'share_network': network_with_subnet()})),
    ])
    api = sn.ShareNetworkAPI(client)
    assert api.timeout == 180
    assert api.create(body)['id'] == 'nid'
    assert api.find(network_id='nid')['id'] == 'nid'


def test_a_deletion_answered_503_is_looked_up_before_sending_again():
    client, session = make_client([
        expect('DELETE', NET_PATH, error(503)),
        expect('GET', NET_PATH, ScriptedResponse(404, {'itemNotFound': {'code': 404, 'message': 'x'}})),
    ])
    sn.ShareNetworkAPI(client).delete('nid')
    assert len(session.writes()) == 1


SUBNETS_PATH = NET_PATH + '/subnets'


def test_a_subnet_create_sends_the_zone_and_the_ids():
    made = {'id': 'sub1', 'availability_zone': 'z1', 'neutron_net_id': 'n1', 'neutron_subnet_id': 's1'}
    client, session = make_client([
        expect('POST', SUBNETS_PATH, ok({'share_network_subnet': made}), body={'share-network-subnet': {
            'neutron_net_id': 'n1', 'neutron_subnet_id': 's1', 'availability_zone': 'z1'}}),
        expect('POST', SUBNETS_PATH, ok({'share_network_subnet': made}), body={'share-network-subnet': {}}),
    ])
    api = sn.ShareNetworkAPI(client)
    assert api.create_subnet('nid', sn.subnet_entry('z1', 'n1', 's1')) == made
    assert api.create_subnet('nid', sn.subnet_entry(None)) == made


def test_subnets_need_2_51():
    client, session = make_client([], max_version='2.50')
    with pytest.raises(UnsupportedFeature):
        sn.ShareNetworkAPI(client).create_subnet('nid', sn.subnet_entry('z1', 'n1', 's1'))
    assert session.writes() == []


def test_a_subnet_of_the_zone_with_other_ids_is_not_the_one_made():
    made = {'id': 'sub1', 'availability_zone': 'z1', 'neutron_net_id': 'n1', 'neutron_subnet_id': 's1'}
    other = dict(made, id='sub9', neutron_net_id='n9', neutron_subnet_id='s9')
    client, session = make_client([
        expect('POST', SUBNETS_PATH, error(503)),
        expect('GET', NET_PATH, ok({'share_network': network_with_subnet(share_network_subnets=[other])})),
        expect('POST', SUBNETS_PATH, ok({'share_network_subnet': made})),
    ], clock=FakeClock())
    assert sn.ShareNetworkAPI(client).create_subnet('nid', sn.subnet_entry('z1', 'n1', 's1')) == made
    assert len(session.writes()) == 2


SERVICES_OF = '/v2/security-services?share_network_id=nid'
ACTION = NET_PATH + '/action'


@pytest.mark.parametrize('present,absent,ids,seen', [
    (['new'], [], ['new'], True),
    (['new'], [], [], None),
    (['new'], ['cur'], ['new', 'cur'], None),
    (['new'], ['cur'], ['cur'], None),
    ([], ['cur'], [], True),
])
def test_the_attachment_observer(present, absent, ids, seen):
    client, session = make_client([
        expect('GET', SERVICES_OF, ok({'security_services': [{'id': i} for i in ids]})),
    ])
    assert sn.ShareNetworkAPI(client).attached('nid', present, absent)() is seen


def test_a_replacement_is_one_action_and_needs_2_63():
    client, session = make_client([
        expect('POST', ACTION, error(503), body={'update_security_service': {
            'current_service_id': 'cur', 'new_service_id': 'new'}}),
        expect('GET', SERVICES_OF, ok({'security_services': [{'id': 'cur'}]})),
        expect('POST', ACTION, ScriptedResponse(202)),
    ], clock=FakeClock())
    sn.ShareNetworkAPI(client).replace_service('nid', 'cur', 'new')
    assert len(session.writes()) == 2
    client, session = make_client([], max_version='2.62')
    with pytest.raises(UnsupportedFeature):
        sn.ShareNetworkAPI(client).replace_service('nid', 'cur', 'new')
    with pytest.raises(UnsupportedFeature):
        sn.ShareNetworkAPI(client).check_service_change(network_with_subnet(), 'new')
    assert session.writes() == []


def test_a_replacement_already_made_is_not_sent_again():
    client, session = make_client([
        expect('POST', ACTION, error(503)),
        expect('GET', SERVICES_OF, ok({'security_services': [{'id': 'new', 'name': 'n', 'type': 'ldap'}]})),
    ], clock=FakeClock())
    sn.ShareNetworkAPI(client).replace_service('nid', 'cur', 'new')
    assert len(session.writes()) == 1


def test_a_service_check_without_an_answer_times_out_being_checked():
    client, session = make_client([
        expect('POST', ACTION, ok({'compatible': None})),
        expect('GET', '/v2/messages?resource_id=new&sort_key=created_at&sort_dir=desc&limit=3',
               ok({'messages': []})),
    ], clock=FakeClock())
    with pytest.raises(WaitTimeout) as err:
        sn.ShareNetworkAPI(client, timeout=0).check_service_change(network_with_subnet(), 'new')
    assert 'is still being checked after 0 seconds' in str(err.value)


def test_a_refused_service_check_without_hosts_says_to_ask_an_admin():
    client, session = make_client([
        expect('POST', ACTION, ok({'compatible': False})),
        expect('GET', '/v2/messages?resource_id=new&sort_key=created_at&sort_dir=desc&limit=3',
               ok({'messages': []})),
    ], clock=FakeClock())
    with pytest.raises(WaitFailed) as err:
        sn.ShareNetworkAPI(client).check_service_change(network_with_subnet(), 'new')
    assert 'does not support it (ask an admin)' in str(err.value)


def test_resolving_services_attached_and_looked_up():
    ldap = {'id': 'l1', 'name': 'ldap', 'type': 'ldap'}
    client, session = make_client([
        expect('GET', '/v2/security-services/detail?name=krb', ok({'security_services': [
            {'id': 'k1', 'name': 'krb', 'type': 'kerberos', 'server': 'kdc'}]})),
    ])
    api = sn.ShareNetworkAPI(client)
    assert api.resolve_services(['l1', 'krb'], [ldap]) == [
        ldap, {'id': 'k1', 'name': 'krb', 'type': 'kerberos'}]
    with pytest.raises(AmbiguousName) as err:
        api.resolve_services(['ldap'], [ldap, dict(ldap, id='l0')])
    assert str(err.value) == "2 attached security services are named 'ldap' (IDs: l0, l1); use an ID."


ZONES = '/v2/availability-zones'


def test_zones_are_checked_against_the_cloud():
    client, session = make_client([
        expect('GET', ZONES, ok({'availability_zones': [{'name': 'z2'}, {'name': 'z1'}]})),
        expect('GET', ZONES, ok({'availability_zones': [{'name': 'z2'}, {'name': 'z1'}]})),
        expect('GET', ZONES, ok({'availability_zones': []})),
    ])
    api = sn.ShareNetworkAPI(client)
    api.check_zones([None, ''])          # no zone named: no request
    api.check_zones(['z1', None])
    with pytest.raises(InvalidInput) as err:
        api.check_zones(['z9', 'z1', 'z8'])
    assert str(err.value) == ('subnets name availability zones this cloud does not have: z8, z9 '
                              '(its zones: z1, z2). Nothing was changed.')
    with pytest.raises(InvalidInput) as err:
        api.check_zones(['z1'])
    assert '(its zones: none)' in str(err.value)


def test_a_network_in_network_change_is_waited_for():
    busy = network_with_subnet(status='network_change')
    client, session = make_client([
        expect('GET', NET_PATH, ok({'share_network': network_with_subnet()})),
        expect('GET', NET_PATH, ok({'share_network': network_with_subnet(status='error')})),
        # Manila files a failed security service change under the service
        expect('GET', '/v2/messages?resource_id=ss1&sort_key=created_at&sort_dir=desc&limit=3',
               ok({'messages': [{'user_message': 'update security service: backend refused.'}]})),
    ], clock=FakeClock())
    api = sn.ShareNetworkAPI(client)
    assert api.wait_if_busy(network_with_subnet()) == network_with_subnet()          # at rest: no request
    assert api.wait_if_busy(busy)['status'] == 'active'
    with pytest.raises(WaitFailed) as err:
        api.wait_if_busy(busy, service_ids=['ss1'])
    assert 'went to error' in str(err.value) and 'backend refused' in str(err.value)
    with pytest.raises(CannotConverge) as err:
        api.wait_if_busy(busy, wait=False)
    assert 'is busy (network_change)' in str(err.value)


def test_the_default_subnet_is_listed_first_whatever_the_zone_names():
    net = network_with_subnet(share_network_subnets=[
        {'id': 'sub1', 'availability_zone': 'AZ1', 'neutron_net_id': 'n1', 'neutron_subnet_id': 's1'},
        {'id': 'sub0', 'availability_zone': None, 'neutron_net_id': 'n0', 'neutron_subnet_id': 's0'}])
    assert [s['availability_zone'] for s in sn.diff_view(net, [])['subnets']] == [None, 'AZ1']
    after = sn.predicted_after(net, [], sn.NetworkPlan('nothing'))
    assert [s['availability_zone'] for s in after['subnets']] == [None, 'AZ1']


def test_every_subnet_after_a_zone_declared_twice_is_looked_at():
    with pytest.raises(InvalidInput) as err:
        sn.normalize_subnets([{'availability_zone': 'z'}, {'availability_zone': 'z'},
                              {'neutron_net_id': 'n'}])
    assert 'subnets[1]' in str(err.value) and 'subnets[2]' in str(err.value)


def test_a_swap_after_a_plain_add():
    old = {'id': 'l0', 'name': 'ldap-old', 'type': 'ldap'}
    new = {'id': 'l1', 'name': 'ldap-new', 'type': 'ldap'}
    krb = {'id': 'k1', 'name': 'krb', 'type': 'kerberos'}
    assert sn.plan_security_services([old], [krb, new], purge=True) == ([krb], [], [(old, new)])


@pytest.mark.parametrize('attached', [[], ['cur', 'new']])
def test_a_replacement_not_seen_whole_is_sent_again(attached):
    client, session = make_client([
        expect('POST', ACTION, error(503)),
        expect('GET', SERVICES_OF, ok({'security_services': [{'id': i} for i in attached]})),
        expect('POST', ACTION, ScriptedResponse(202)),
    ], clock=FakeClock())
    sn.ShareNetworkAPI(client).replace_service('nid', 'cur', 'new')
    assert len(session.writes()) == 2


def test_the_messages_of_several_services_make_one_sentence():
    def messages(resource_id, *texts):
        return expect('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc'
                      '&limit=3' % resource_id,
                      ok({'messages': [{'user_message': t} for t in texts]}))
    client, session = make_client([messages('ss1', 'refused.', 'down.'),
                                   messages('ss2', 'down.', 'no realm.')])
    explain = sn.service_messages(client, ['ss1', 'ss2'])
    assert explain(None) == 'Manila says: refused. | down. | no realm.'
    assert sn.service_messages(client, []) is None


# -- what the refusals and the subnet of a share say exactly ---------------------------------

def test_shares_not_available_are_named_with_their_status():
    usage = usage_of([{'id': 'srv', 'status': 'active'}],
                     [dict(share('s2', 'b', None), status='extending'),
                      dict(share('s1', 'a', None), status='creating')])
    assert sn.service_update_refusals(network_with_subnet(), usage) == [
        'Manila changes the share servers only while every share on them is available, and '
        'these are not: a (s1, creating), b (s2, extending); wait for them, or repair or '
        'delete them first']


def test_a_share_that_shows_no_access_rules_status_does_not_block_a_service_change():
    # Manila before 2.10 shows no access_rules_status: nothing says a rule is pending
    usage = usage_of([{'id': 'srv', 'status': 'active'}],
                     [dict(share('s1', 'a', None), status='available')])
    assert sn.service_update_refusals(network_with_subnet(), usage) == []


def test_a_share_made_the_moment_its_zones_subnet_was_is_served_by_it():
    assert sn.serving_subnet(share('s1', 'a', 'z1', created='2026-12-01T12:00:00.000000'),
                             SHOWN['share_network_subnets']) == 'sub-z1'


def test_the_default_subnet_serves_other_zones_wherever_it_is_listed():
    zone_first = list(reversed(SHOWN['share_network_subnets']))
    assert sn.serving_subnet(share('s2', 'c', 'z2'), zone_first) == 'sub-default'
    # a network without a default subnet serves no other zone
    assert sn.serving_subnet(share('s2', 'c', 'z2'), zone_first[:1]) is None


def test_answers_without_their_list_are_empty_lists():
    client, session = make_client([
        expect('GET', SERVICES_OF, ok({})),
        expect('GET', ZONES, ok({})),
    ])
    api = sn.ShareNetworkAPI(client)
    assert api.security_services('nid') == []
    with pytest.raises(InvalidInput) as err:
        api.check_zones(['z1'])
    assert str(err.value) == ('subnets name availability zones this cloud does not have: z1 '
                              '(its zones: none). Nothing was changed.')


# -- an update or a subnet create whose answer is a 5xx ------------------------------------

NEUTRON_UPDATE = {'name': 'new', 'neutron_net_id': 'n1', 'neutron_subnet_id': 's1'}


def test_an_update_seen_in_the_network_and_its_default_subnet_is_not_sent_again():
    done = network_with_subnet(name='new', share_network_subnets=[
        {'id': 'sub1', 'availability_zone': 'z1', 'neutron_net_id': 'n9', 'neutron_subnet_id': 's9'},
        {'id': 'sub0', 'availability_zone': None, 'neutron_net_id': 'n1', 'neutron_subnet_id': 's1'}])
    client, session = make_client([
        expect('PUT', NET_PATH, error(503), body={'share_network': NEUTRON_UPDATE}),
        expect('GET', NET_PATH, ok({'share_network': done})),
    ], clock=FakeClock())
    assert sn.ShareNetworkAPI(client).update('nid', NEUTRON_UPDATE) == done
    assert len(session.writes()) == 1
    assert client.warnings == [
        'The update of share network nid was answered with HTTP 503, but Manila shows that it '
        'took effect; the task went on from there.']


@pytest.mark.parametrize('shown', [
    network_with_subnet(name='new'),       # the default subnet keeps its neutron IDs
    network_with_subnet(name='net', share_network_subnets=[
        {'id': 'sub0', 'availability_zone': None, 'neutron_net_id': 'n1', 'neutron_subnet_id': 's1'}]),
    network_with_subnet(name='new', share_network_subnets=[]),
])
def test_an_update_not_seen_whole_is_sent_again(shown):
    client, session = make_client([
        expect('PUT', NET_PATH, error(503), body={'share_network': NEUTRON_UPDATE}),
        expect('GET', NET_PATH, ok({'share_network': shown})),
        expect('PUT', NET_PATH, ok({'share_network': dict(shown, name='new')}),
               body={'share_network': NEUTRON_UPDATE}),
    ], clock=FakeClock())
    assert sn.ShareNetworkAPI(client).update('nid', NEUTRON_UPDATE)['name'] == 'new'
    assert len(session.writes()) == 2


def test_a_default_subnet_create_seen_made_is_named_so_in_the_warning():
    made = {'id': 'sub5', 'availability_zone': None, 'neutron_net_id': 'n5', 'neutron_subnet_id': 's5'}
    client, session = make_client([
        expect('POST', SUBNETS_PATH, error(503), body={'share-network-subnet': {
            'neutron_net_id': 'n5', 'neutron_subnet_id': 's5'}}),
        expect('GET', NET_PATH, ok({'share_network': network_with_subnet(share_network_subnets=[made])})),
    ], clock=FakeClock())
    assert sn.ShareNetworkAPI(client).create_subnet('nid', sn.subnet_entry(None, 'n5', 's5')) == made
    assert client.warnings == [
        'The create of a subnet (zone default) in share network nid was answered with HTTP 503, '
        'but Manila shows that it took effect; the task went on from there.']


# -- apply: the plan's requests, in order -------------------------------------------------------

AD = dict(id='11111111-0000-0000-0000-000000000004', name='ad', type='active_directory')
KRB2 = dict(id='11111111-0000-0000-0000-000000000005', name='krb-two', type='kerberos')


def service_action(name, **args):
    return expect('POST', ACTION, ScriptedResponse(202), body={name: args})


def service_check(name, **args):
    return expect('POST', ACTION, ok({'compatible': True}),
                  body={name: dict(args, reset_operation=True)})


def test_before_2_63_the_plan_is_sent_in_order_and_a_swap_is_a_removal_then_an_add():
    plan = sn.NetworkPlan('update', update={'name': 'new'},
                          subnet_deletes=[sn.subnet_entry('z1', 'n1', 's1', 'sub1')],
                          subnet_creates=[sn.subnet_entry('z2', 'n2', 's2')],
                          removes=[AD], swaps=[(LDAP, LDAP2)], adds=[KRB])
    made = {'id': 'sub2', 'availability_zone': 'z2', 'neutron_net_id': 'n2', 'neutron_subnet_id': 's2'}
    client, session = make_client([
        expect('PUT', NET_PATH, ok({'share_network': network_with_subnet(name='new')}),
               body={'share_network': {'name': 'new'}}),
        expect('DELETE', SUBNETS_PATH + '/sub1', ScriptedResponse(202)),
        expect('POST', SUBNETS_PATH, ok({'share_network_subnet': made}), body={
            'share-network-subnet': {'neutron_net_id': 'n2', 'neutron_subnet_id': 's2',
                                     'availability_zone': 'z2'}}),
        service_action('remove_security_service', security_service_id=AD['id']),
        service_action('remove_security_service', security_service_id=LDAP['id']),
        service_action('add_security_service', security_service_id=LDAP2['id']),
        service_action('add_security_service', security_service_id=KRB['id']),
    ], max_version='2.62')
    sn.ShareNetworkAPI(client).apply(network_with_subnet(), plan, wait=True)


def test_a_network_just_created_takes_its_services_without_checks_or_waits():
    client, session = make_client([
        service_action('add_security_service', security_service_id=LDAP['id']),
    ])
    sn.ShareNetworkAPI(client).apply(network_with_subnet(), sn.NetworkPlan('update', adds=[LDAP]),
                                     wait=True, fresh=True)


def test_from_2_63_each_service_change_is_checked_sent_and_waited_for_before_the_next():
    plan = sn.NetworkPlan('update', swaps=[(LDAP, LDAP2), (KRB, KRB2)], adds=[AD])
    client, session = make_client([
        service_check('update_security_service_check', current_service_id=LDAP['id'],
                      new_service_id=LDAP2['id']),
        service_action('update_security_service', current_service_id=LDAP['id'],
                       new_service_id=LDAP2['id']),
        expect('GET', NET_PATH, ok({'share_network': network_with_subnet()})),
        service_check('update_security_service_check', current_service_id=KRB['id'],
                      new_service_id=KRB2['id']),
        service_action('update_security_service', current_service_id=KRB['id'],
                       new_service_id=KRB2['id']),
        expect('GET', NET_PATH, ok({'share_network': network_with_subnet()})),
        service_check('add_security_service_check', security_service_id=AD['id']),
        service_action('add_security_service', security_service_id=AD['id']),
        # wait=false: the last change is not waited for
    ])
    sn.ShareNetworkAPI(client).apply(network_with_subnet(), plan, wait=False)


def test_a_network_changing_when_the_task_starts_is_explained_by_the_services_messages():
    client, session = make_client([
        expect('GET', NET_PATH, ok({'share_network': network_with_subnet(status='error')})),
        expect('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3'
               % LDAP2['id'], ok({'messages': [
                   {'user_message': 'update security service: backend refused.'}]})),
    ], clock=FakeClock())
    with pytest.raises(WaitFailed) as err:
        sn.ShareNetworkAPI(client).apply(network_with_subnet(status='network_change'),
                                         sn.NetworkPlan('update', adds=[LDAP2]), wait=True)
    assert str(err.value) == ('Share network net (nid) went to error while waiting for active. '
                              'Manila says: update security service: backend refused.')
    assert session.writes() == []


# -- text Manila's database would refuse (issue 37) ---------------------------------------

def test_check_network_input():
    check_network_input({'name': 'n' * 255, 'description': 'd' * 255,
                         'neutron_net_id': 'x' * 36, 'subnets': [{'neutron_net_id': None}]})
    check_network_input({'id': 'x'})
    for params, message in (
            ({'name': ''}, 'name cannot be empty'),
            ({'name': 'n' * 256}, 'name is 256 characters long; Manila takes at most 255.'),
            ({'name': 'n', 'description': 'd' * 256}, 'description is 256 characters long'),
            ({'name': 'n', 'neutron_subnet_id': 'x' * 37}, 'neutron_subnet_id is 37'),
            ({'name': 'n', 'subnets': [{'neutron_net_id': 'x' * 37}]}, 'subnets[0].neutron_net_id')):
        with pytest.raises(InvalidInput) as err:
            check_network_input(params)
        assert str(err.value).startswith(message), params
