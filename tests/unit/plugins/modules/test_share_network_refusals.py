# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""share_network on scripted HTTP (issue 21): what Manila would refuse is
refused before any write, whatever else the task changes: security services
on a network in use (2.63+), and a deletion its share groups, recycled
shares or kept share servers block; the user messages of a failed security
service change are read under the service."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import Fail

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.test_network_modules import (
    LDAP,
    LDAP2,
    NET,
    SERVER,
    SERVERS,
    SHARE,
    SUBNET,
    groups_on,
    listed,
    network,
    ok,
    recycled,
    run,
    shares_on,
)

ZONE_SUBNET = '99999999-0000-0000-0000-000000000003'
ACTION = '/v2/share-networks/%s/action' % NET
FORBIDDEN = ok({'forbidden': {'code': 403, 'message': 'Policy does not allow'}}, 403)
ZONES = ('GET', '/v2/availability-zones', ok({'availability_zones': [{'name': 'nova'}]}))


def reads(net, attached=(), lookups=(LDAP,)):
    found = [('GET', '/v2/share-networks/detail?name=net', ok({'share_networks': [net]})),
             ('GET', '/v2/security-services?share_network_id=' + NET, listed(*attached))]
    for service in lookups:
        found.append(('GET', '/v2/security-services/detail?name=' + service['name'],
                      listed(service)))
    return found


# A rename, a new zone subnet and a new security service in one task: the
# service is what Manila refuses, and nothing else may be sent before it.
EVERYTHING = {'name': 'net', 'description': 'renamed', 'security_services': ['ldap-one'],
              'subnets': [{}, {'availability_zone': 'nova'}]}


def test_a_backend_without_security_service_updates_is_refused_before_any_write(monkeypatch):
    outcome, session = run(monkeypatch, 'share_network', EVERYTHING,
                           reads(network(security_service_update_support=False)) + [
                               ZONES, SERVERS, shares_on(SHARE), recycled()])
    assert isinstance(outcome, Fail), outcome.result
    msg = outcome.result['msg']
    assert 'nothing was changed' in msg
    assert 'security_service_update_support: false' in msg
    assert 'attach the services before its first share is created' in msg
    assert session.writes() == []


def test_shares_not_available_or_recycled_are_refused_for_a_member(monkeypatch):
    broken = dict(SHARE, status='error')
    rules = dict(SHARE, id='55555555-0000-0000-0000-000000000002', name='rules',
                 access_rules_status='syncing')
    binned = dict(SHARE, id='55555555-0000-0000-0000-000000000003', name='binned')
    outcome, session = run(monkeypatch, 'share_network', EVERYTHING, reads(network()) + [
        ZONES, ('GET', '/v2/share-servers?share_network_id=' + NET, FORBIDDEN),
        shares_on(broken, rules), recycled(binned)])
    assert isinstance(outcome, Fail), outcome.result
    msg = outcome.result['msg']
    assert 'data (%s, error)' % SHARE['id'] in msg and 'wait for them, or repair' in msg
    assert 'access rules of shares rules (%s)' % rules['id'] in msg
    assert 'binned (%s) are in the recycle bin' % binned['id'] in msg
    assert 'restore them or delete them for good' in msg
    assert session.writes() == []


def test_a_share_server_not_active_is_refused_for_an_admin(monkeypatch):
    outcome, session = run(monkeypatch, 'share_network', EVERYTHING, reads(network()) + [
        ZONES, ('GET', '/v2/share-servers?share_network_id=' + NET,
                ok({'share_servers': [dict(SERVER, status='error')]})),
        shares_on(SHARE), recycled()])
    assert isinstance(outcome, Fail), outcome.result
    assert 'share servers %s (error) are not active' % SERVER['id'] in outcome.result['msg']
    assert session.writes() == []


def test_a_network_in_network_change_is_waited_for_before_any_write(monkeypatch):
    # wait=false: refused before the rename; wait=true: the rename follows the wait
    outcome, session = run(monkeypatch, 'share_network', dict(EVERYTHING, wait=False, subnets=None),
                           reads(network('network_change')) + [
                               SERVERS, shares_on(SHARE), recycled()])
    assert isinstance(outcome, Fail), outcome.result
    assert 'is busy (network_change)' in outcome.result['msg']
    assert 'Nothing was changed' in outcome.result['msg']
    assert session.writes() == []
    outcome, session = run(monkeypatch, 'share_network', dict(EVERYTHING, subnets=None),
                           reads(network('network_change')) + [
        SERVERS, shares_on(SHARE), recycled(),
        ('GET', '/v2/share-networks/' + NET, ok({'share_network': network()})),
        ('POST', ACTION, ok({'compatible': True}, 202)),
        ('PUT', '/v2/share-networks/' + NET, ok({'share_network': network(
            description='renamed')})),
        ('POST', ACTION, ok({'share_network': network('network_change')})),
        ('GET', '/v2/share-networks/' + NET, ok({'share_network': network()})),
        ('GET', '/v2/share-networks/' + NET, ok({'share_network': network()})),
        ('GET', '/v2/security-services?share_network_id=' + NET, listed(LDAP)),
    ])
    assert not isinstance(outcome, Fail), outcome.result
    assert [c.method for c in session.writes()] == ['POST', 'PUT', 'POST']
    assert list(session.bodies('POST')[0]) == ['add_security_service_check']


def test_the_backends_are_asked_before_any_write_and_their_messages_read(monkeypatch):
    # A backend that refuses the service files its reason under the service.
    outcome, session = run(monkeypatch, 'share_network', dict(
        EVERYTHING, subnets=None, security_services=['ldap-two'],
        purge_security_services=True), reads(network(), [LDAP], [LDAP2]) + [
            SERVERS, shares_on(SHARE), recycled(),
            ('POST', ACTION, ok({'compatible': False,
                                 'hosts_check_result': {'host@dhss': False}}, 202)),
            ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3'
             % LDAP2['id'], ok({'messages': [{'user_message': 'add or update security '
                                              'service: the backend cannot use it.'}]})),
    ])
    assert isinstance(outcome, Fail), outcome.result
    assert 'cannot take the change' in outcome.result['msg']
    assert 'Manila says: add or update security service' in outcome.result['msg']
    assert [c.method for c in session.writes()] == ['POST']     # the check alone


def test_a_failed_change_is_explained_by_the_services_messages(monkeypatch):
    outcome, session = run(monkeypatch, 'share_network', {
        'name': 'net', 'security_services': ['ldap-one']}, reads(network()) + [
            SERVERS, shares_on(SHARE), recycled(),
            ('POST', ACTION, ok({'compatible': True}, 202)),
            ('POST', ACTION, ok({'share_network': network('network_change')})),
            ('GET', '/v2/share-networks/' + NET, ok({'share_network': network('error')})),
            ('GET', '/v2/messages?resource_id=%s&sort_key=created_at&sort_dir=desc&limit=3'
             % LDAP['id'], ok({'messages': [{'user_message': 'the directory is down.'}]})),
    ])
    assert isinstance(outcome, Fail), outcome.result
    assert 'went to error' in outcome.result['msg']
    assert 'Manila says: the directory is down.' in outcome.result['msg']


# -- deleting a network ----------------------------------------------------------------------

TWO_SUBNETS = network(share_network_subnets=[
    {'id': SUBNET, 'availability_zone': None, 'neutron_net_id': None, 'neutron_subnet_id': None,
     'created_at': '2026-12-01T09:00:00.000000'},
    {'id': ZONE_SUBNET, 'availability_zone': 'nova', 'neutron_net_id': None,
     'neutron_subnet_id': None, 'created_at': '2026-12-01T11:00:00.000000'}])


def absent_reads():
    return [('GET', '/v2/share-networks/detail?name=net', ok({'share_networks': [TWO_SUBNETS]})),
            ('GET', '/v2/security-services?share_network_id=' + NET, listed())]


def test_a_deletion_that_share_groups_or_recycled_shares_block_deletes_no_subnet(monkeypatch):
    group = {'id': '66666666-0000-0000-0000-000000000001', 'name': 'grp'}
    binned = dict(SHARE, name='binned')
    outcome, session = run(monkeypatch, 'share_network', {'name': 'net', 'state': 'absent'},
                           absent_reads() + [shares_on(), recycled(binned), groups_on(group),
                                             SERVERS])
    assert isinstance(outcome, Fail), outcome.result
    msg = outcome.result['msg']
    assert msg.startswith('Share network net (%s) cannot be deleted, and nothing was changed'
                          % NET)
    assert 'binned (%s) in the recycle bin' % SHARE['id'] in msg
    assert 'share groups grp (%s) use it; delete them first' % group['id'] in msg
    assert session.writes() == []


def test_a_deletion_that_a_kept_share_server_blocks_deletes_no_subnet(monkeypatch):
    kept = dict(SERVER, is_auto_deletable=False)
    outcome, session = run(monkeypatch, 'share_network', {'name': 'net', 'state': 'absent'},
                           absent_reads() + [shares_on(), recycled(), groups_on(),
                                             ('GET', '/v2/share-servers?share_network_id=' + NET,
                                              ok({'share_servers': [kept]}))])
    assert isinstance(outcome, Fail), outcome.result
    assert 'share servers %s were not created by Manila' % SERVER['id'] in outcome.result['msg']
    assert session.writes() == []


def test_a_deletion_nothing_blocks_deletes_the_extra_subnet_then_the_network(monkeypatch):
    outcome, session = run(monkeypatch, 'share_network', {'name': 'net', 'state': 'absent'},
                           absent_reads() + [
        shares_on(), recycled(), groups_on(),
        ('GET', '/v2/share-servers?share_network_id=' + NET, FORBIDDEN),
        ('DELETE', '/v2/share-networks/%s/subnets/%s' % (NET, ZONE_SUBNET), ok(status=202)),
        ('DELETE', '/v2/share-networks/' + NET, ok(status=202)),
    ])
    assert outcome.result['changed'] is True, outcome.result


# -- deleting a subnet: its share servers where visible -----------------------------------------

def test_an_admin_deletes_the_zone_subnet_whose_zone_shares_use_the_default_one(monkeypatch):
    # The share in nova was made before nova had a subnet: it is on the default
    # subnet's share server, so the nova subnet may go and the default one may not.
    on_default = dict(SERVER, share_network_subnet_ids=[SUBNET])
    shares = [SHARE]
    outcome, session = run(monkeypatch, 'share_network', {
        'name': 'net', 'subnets': [{'availability_zone': 'nova'}]}, absent_reads() + [
            ('GET', '/v2/share-servers?share_network_id=' + NET,
             ok({'share_servers': [on_default]})),
            shares_on(*shares), recycled(),
            ('GET', '/v2/share-groups/detail?share_network_id=%s&all_tenants=1' % NET,
             ok({'share_groups': []})),
    ])
    assert isinstance(outcome, Fail), outcome.result
    assert 'the subnet of the default subnet (every zone) (%s) cannot be deleted: shares data' \
        % SUBNET in outcome.result['msg']
    assert session.writes() == []
    outcome, session = run(monkeypatch, 'share_network', {'name': 'net', 'subnets': [{}]},
                           absent_reads() + [
        ('GET', '/v2/share-servers?share_network_id=' + NET, ok({'share_servers': [on_default]})),
        shares_on(*shares), recycled(), groups_on(),
        ('DELETE', '/v2/share-networks/%s/subnets/%s' % (NET, ZONE_SUBNET), ok(status=202)),
        ('GET', '/v2/share-networks/' + NET, ok({'share_network': network()})),
        ('GET', '/v2/security-services?share_network_id=' + NET, listed()),
    ])
    assert outcome.result['changed'] is True, outcome.result


def test_a_member_tells_the_subnet_of_a_share_by_its_zone_and_age(monkeypatch):
    # created before the nova subnet: on the default subnet
    old = dict(SHARE, created_at='2026-12-01T10:00:00.000000')
    new = dict(SHARE, id='55555555-0000-0000-0000-000000000009', name='new',
               created_at='2026-12-01T12:00:00.000000')
    hidden = ('GET', '/v2/share-servers?share_network_id=' + NET, FORBIDDEN)
    for shares, blocked in (([old], SUBNET), ([new], ZONE_SUBNET)):
        keep = [{'availability_zone': 'nova'}] if blocked == SUBNET else [{}]
        outcome, session = run(monkeypatch, 'share_network', {'name': 'net', 'subnets': keep},
                               absent_reads() + [hidden, shares_on(*shares), recycled(),
                                                 groups_on()])
        assert isinstance(outcome, Fail), outcome.result
        assert '(%s) cannot be deleted: shares %s' % (blocked, shares[0]['name']) \
            in outcome.result['msg']
        assert session.writes() == []
