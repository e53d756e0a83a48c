# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Share networks: the plan's remaining branches (pure functions)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import share_networks as sn
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    InvalidInput,
)


def network(**fields):
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
    assert (plan.create, plan.update, plan.subnet_creates, plan.subnet_deletes, plan.adds,
            plan.removes, plan.swaps) == (None, {}, [], [], [], [], [])
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
    n = network(description='d')
    assert sn.update_body(n, {'name': 'other', 'description': 'd'}, False, None) == {}
    assert sn.update_body(n, {'name': 'other'}, True, None) == {'name': 'other'}
    assert sn.update_body(n, {'name': 'net'}, True, None) == {}
    assert sn.update_body(n, {'name': ''}, True, None) == {}
    assert sn.update_body(network(), {'description': ''}, False, None) == {}
    assert sn.update_body(n, {'description': ''}, False, None) == {'description': ''}
    assert sn.update_body(n, {}, False, {'neutron_net_id': 'a', 'neutron_subnet_id': 'b'}) == {
        'neutron_net_id': 'a', 'neutron_subnet_id': 'b'}
    subnet = sn.subnet_entry('z1', 'n', 's')
    assert sn.create_body({'name': 'x', 'description': ''}, subnet) == {
        'name': 'x', 'description': '', 'neutron_net_id': 'n', 'neutron_subnet_id': 's',
        'availability_zone': 'z1'}
    assert sn.create_body({'name': 'x'}, sn.subnet_entry()) == {'name': 'x'}


def test_plan_network_nothing_and_rename():
    n = network()
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
    sn.check_can_change_services(network())
    with pytest.raises(CannotConverge) as err:
        sn.check_can_change_services(network(status='error'))
    assert 'Share network net (nid) is in status error' in str(err.value)


def test_views_and_prediction():
    assert sn.diff_view(None, []) == {}
    view = sn.diff_view(network(), [{'id': 'b'}, {'id': 'a', 'name': 'z'}])
    assert view['security_services'] == ['b', 'z'] and view['name'] == 'net'
    plan = sn.NetworkPlan('update', update={'name': 'new', 'description': 'd',
                                            'neutron_net_id': 'n1', 'neutron_subnet_id': 's1'})
    after = sn.predicted_after(network(), [], plan)
    assert (after['name'], after['description']) == ('new', 'd')
    assert after['subnets'] == [{'availability_zone': None, 'neutron_net_id': 'n1',
                                 'neutron_subnet_id': 's1'}]
    assert sn.result_view({'id': 'x'}, None) == {'id': 'x', 'security_services': []}
