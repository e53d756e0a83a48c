# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Share networks: subnets and security services as declared state.

The plan is made of pure functions (``plan_subnets``,
``plan_security_services``, ``in_use_refusals``, ``plan_network``), so that
every decision can be tested without a cloud; ``ShareNetworkAPI`` sends it,
and ``Usage`` answers "what uses this network" (its share servers, visible
to admins, and its shares) for the changes Manila forbids while a network
is in use.

What Manila allows, from its API (manila/api/v2/share_networks.py,
share_network_subnets.py, share/api.py):

- a share network's ``neutron_net_id``/``neutron_subnet_id`` (its default
  subnet) change only while the network has no share servers;
- security services: one of each type per network; removing one is refused
  while the network has share servers; adding one (or replacing one with
  another of the same type, ``update_security_service``) to a network with
  share servers needs API 2.63, a feasibility check first, and the network
  goes to ``network_change`` until the servers are updated;
- a security service is added or replaced (2.63+) only while the network
  is ``active``, and, when it has share servers, only if they all support
  it (``security_service_update_support``), are ``active``, and the shares
  on the network are ``available`` with active access rules and none is in
  the recycle bin (share/api.py ``_share_network_update_initial_checks``);
- a subnet is refused deletion while its share servers hold shares or share
  groups, or one of them is not auto-deletable;
- a network is refused deletion while it has shares (those in the recycle
  bin too), share groups, more than one subnet or a share server that is
  not auto-deletable.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils import writes
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    AmbiguousName,
    AnswerLost,
    CannotConverge,
    Conflict,
    Forbidden,
    InvalidInput,
    NotFound,
    reword,
    same_details,
)
from ansible_collections.openkeel.manila.plugins.module_utils.kinds import network_label
from ansible_collections.openkeel.manila.plugins.module_utils.resource import (
    NOTHING,
    Plan,
    ResourceAPI,
)
from ansible_collections.openkeel.manila.plugins.module_utils.states import (
    SHARE_NETWORK_ACTIVE,
    SHARE_NETWORK_ERROR_STATES,
)
from ansible_collections.openkeel.manila.plugins.module_utils.values import (
    none_if_blank,
    too_long,
)
from ansible_collections.openkeel.manila.plugins.module_utils.waiter import (
    user_message_explainer,
    wait_until,
)

# Plan actions.
CREATE = 'create'
UPDATE = 'update'
DELETE = 'delete'

NEUTRON_FIELDS = ('neutron_net_id', 'neutron_subnet_id')


# The length of a subnet's neutron ID columns (a Neutron ID is a UUID).
NEUTRON_ID_MAX = 36


def check_network_input(params):
    """What Manila would refuse in a share_network task's text (its database
    answers a 500 for a name over 255 characters), before any request."""
    name = params.get('name')
    if name is not None and not name.strip():
        raise InvalidInput('name cannot be empty or blank: give the share network a '
                           'name, or leave name out and give id.')
    problem = too_long([('name', name), ('description', params.get('description'))])
    fields = [('neutron_net_id', params.get('neutron_net_id')),
              ('neutron_subnet_id', params.get('neutron_subnet_id'))]
    for index, subnet in enumerate(params.get('subnets') or []):
        fields.extend(('subnets[%d].%s' % (index, key), subnet.get(key))
                      for key in ('neutron_net_id', 'neutron_subnet_id'))
    problem = problem or too_long(fields, dict((f, NEUTRON_ID_MAX) for f, _v in fields))
    if problem:
        raise InvalidInput(problem + (' A Neutron ID is a UUID.' if 'neutron' in problem else ''))


# -- subnets -----------------------------------------------------------------------

def subnet_entry(availability_zone=None, neutron_net_id=None, neutron_subnet_id=None,
                 subnet_id=None):
    """A subnet as this module compares it (``id`` only for existing ones)."""
    return dict(id=subnet_id, availability_zone=none_if_blank(availability_zone),
                neutron_net_id=none_if_blank(neutron_net_id),
                neutron_subnet_id=none_if_blank(neutron_subnet_id))


def zone_label(zone):
    return 'availability zone %s' % zone if zone else 'the default subnet (every zone)'


def normalize_subnets(subnets):
    """The task's subnets, validated: both neutron IDs or neither; one per zone."""
    entries = []
    problems = []
    for index, raw in enumerate(subnets or []):
        entry = subnet_entry(raw.get('availability_zone'), raw.get('neutron_net_id'),
                             raw.get('neutron_subnet_id'))
        if (entry['neutron_net_id'] is None) != (entry['neutron_subnet_id'] is None):
            problems.append('subnets[%d] (%s): give both neutron_net_id and '
                            'neutron_subnet_id, or neither (Manila needs the pair).'
                            % (index, zone_label(entry['availability_zone'])))
            continue
        twins = [e for e in entries if e['availability_zone'] == entry['availability_zone']]
        if twins:
            problems.append('subnets[%d]: %s is declared twice; declare one subnet per '
                            'availability zone.' % (index, zone_label(entry['availability_zone'])))
            continue
        entries.append(entry)
    if problems:
        raise InvalidInput('Invalid subnets, nothing was changed: %s' % ' '.join(problems))
    return entries


def existing_subnets(network):
    """The network's subnets (API 2.51+), or its one implicit subnet before 2.51."""
    if 'share_network_subnets' in network:
        return [subnet_entry(s.get('availability_zone'), s.get('neutron_net_id'),
                             s.get('neutron_subnet_id'), s.get('id'))
                for s in network.get('share_network_subnets') or []]
    return [subnet_entry(None, network.get('neutron_net_id'),
                         network.get('neutron_subnet_id'))]


def _same_neutron(a, b):
    return all(a[f] == b[f] for f in NEUTRON_FIELDS)


def plan_subnets(existing, desired, purge):
    """(update_default, creates, deletes) that turn ``existing`` into ``desired``.

    Subnets are identified by availability zone (None: the default subnet,
    which serves every zone). A default subnet with other neutron IDs is
    changed in place (``update_default``: the wanted entry); a zone subnet
    with other IDs is deleted and created again.  ``purge``: subnets in zones
    the task does not declare are deleted.
    """
    update_default = None
    creates = []
    deletes = []
    for want in desired:
        have = [s for s in existing if s['availability_zone'] == want['availability_zone']]
        same = [s for s in have if _same_neutron(s, want)]
        if same:
            deletes.extend(s for s in have if s is not same[0])
        elif want['availability_zone'] is None and len(have) == 1:
            update_default = want
        else:
            deletes.extend(have)
            creates.append(want)
    if purge:
        declared = set(w['availability_zone'] for w in desired)
        deletes.extend(s for s in existing if s['availability_zone'] not in declared)
    return update_default, creates, deletes


def first_subnet(desired_subnets):
    """The subnet a share network is created with: the default one if declared."""
    for entry in desired_subnets:
        if entry['availability_zone'] is None:
            return entry
    return desired_subnets[0] if desired_subnets else subnet_entry()


def unknown_zones(desired_zones, known_zones):
    return sorted(set(z for z in desired_zones if z) - set(known_zones))


# -- security services -----------------------------------------------------------------

def service_label(service):
    return '%s (%s, %s)' % (service.get('name'), service.get('type'), service.get('id'))


def fold_services(services):
    """The resolved services of the task, once each; two of one type is an error."""
    folded = []
    for service in services:
        if any(s['id'] == service['id'] for s in folded):
            continue
        twin = [s for s in folded if s.get('type') == service.get('type')]
        if twin:
            raise InvalidInput(
                'security_services lists two services of type %s: %s and %s. Manila '
                'allows one security service of each type per share network.' % (
                    service.get('type'), service_label(twin[0]), service_label(service)))
        folded.append(service)
    return folded


def plan_security_services(attached, desired, purge):
    """(adds, removes, swaps) that turn the attached services into ``desired``.

    A desired service whose type is taken by an attached service that the
    task drops (``purge``) replaces it (a swap); without ``purge`` that is an
    error, since Manila allows one service of each type.
    """
    desired_ids = set(s['id'] for s in desired)
    attached_ids = set(s['id'] for s in attached)
    adds = [s for s in desired if s['id'] not in attached_ids]
    removes = [s for s in attached if s['id'] not in desired_ids] if purge else []
    swaps = []
    for service in list(adds):
        taken = [a for a in attached if a.get('type') == service.get('type')
                 and a['id'] not in desired_ids]
        if not taken:
            continue
        if taken[0] not in removes:
            raise InvalidInput(
                'Security service %s cannot be added: %s of the same type is attached, and '
                'Manila allows one of each type per share network. Set '
                'purge_security_services=true to replace it.' % (
                    service_label(service), service_label(taken[0])))
        removes.remove(taken[0])
        adds.remove(service)
        swaps.append((taken[0], service))
    return adds, removes, swaps


# -- the whole plan ---------------------------------------------------------------------

class NetworkPlan(Plan):
    """What to do to one share network.

    ``update``: the PUT body (name, description, the default subnet's
    neutron IDs); ``subnet_creates``/``subnet_deletes``;
    ``adds``/``removes``/``swaps``: security services.  (A create's body is
    create_body's; the diff views are diff_view's and predicted_after's.)
    """

    def __init__(self, action, update=None, subnet_creates=None,
                 subnet_deletes=None, adds=None, removes=None, swaps=None):
        super(NetworkPlan, self).__init__(action)
        self.update = update or {}
        self.subnet_creates = subnet_creates or []
        self.subnet_deletes = subnet_deletes or []
        self.adds = adds or []
        self.removes = removes or []
        self.swaps = swaps or []

    @property
    def update_neutron(self):
        return any(f in self.update for f in NEUTRON_FIELDS)

    @property
    def service_changes(self):
        return bool(self.adds or self.removes or self.swaps)

    @property
    def changed(self):
        return self.action in (CREATE, DELETE) or bool(
            self.update or self.subnet_creates or self.subnet_deletes or self.service_changes)


def update_body(network, desired, rename, update_default):
    body = {}
    if rename and desired.get('name') and desired['name'] != network.get('name'):
        body['name'] = desired['name']
    description = desired.get('description')
    if description is not None and description != (network.get('description') or ''):
        body['description'] = description
    if update_default is not None:
        body.update((f, update_default[f]) for f in NEUTRON_FIELDS)
    return body


def create_body(desired, subnet):
    body = {'name': desired['name']}
    if desired.get('description') is not None:
        body['description'] = desired['description']
    if subnet['neutron_net_id'] is not None:
        body.update((f, subnet[f]) for f in NEUTRON_FIELDS)
    if subnet['availability_zone']:
        body['availability_zone'] = subnet['availability_zone']
    return body


def plan_network(network, desired, attached, services, purge_services, rename=False):
    """The plan for an existing network (None: it is created first).

    ``desired``: name, description, ``subnets`` (normalized entries or None),
    ``purge_subnets``; ``services``: the resolved services the task declares
    (None: leave them alone).
    """
    subnets = desired.get('subnets')
    update_default, creates, deletes = None, [], []
    if subnets is not None:
        update_default, creates, deletes = plan_subnets(
            existing_subnets(network), subnets, desired.get('purge_subnets'))
    adds, removes, swaps = [], [], []
    if services is not None:
        adds, removes, swaps = plan_security_services(attached, services, purge_services)
    plan = NetworkPlan(UPDATE, update=update_body(network, desired, rename, update_default),
                       subnet_creates=creates, subnet_deletes=deletes,
                       adds=adds, removes=removes, swaps=swaps)
    if not plan.changed:
        plan.action = NOTHING
    return plan


def predicted_network(desired, subnet):
    """The network a create will make, for planning what follows it."""
    return dict(id=None, name=desired['name'], description=desired.get('description'),
                status=SHARE_NETWORK_ACTIVE,
                share_network_subnets=[dict(subnet, id=None)])


# -- refusals while in use -------------------------------------------------------------

def in_use_refusals(plan, network, usage, in_use_updates):
    """Why Manila would refuse parts of the plan on this network, in words.

    ``usage``: a Usage (what uses the network); ``in_use_updates``: the
    negotiated API has 2.63's changes to networks with share servers.
    """
    reasons = []
    if plan.update_neutron and usage.has_servers():
        reasons.append('its default subnet\'s neutron_net_id/neutron_subnet_id cannot '
                       'change while it has share servers (%s)' % usage.describe())
    for subnet in plan.subnet_deletes:
        blockers = usage.subnet_blockers(subnet, network)
        if blockers:
            reasons.append('the subnet of %s (%s) cannot be deleted: %s' % (
                zone_label(subnet['availability_zone']), subnet['id'], blockers))
    if (plan.removes or plan.swaps or plan.adds) and usage.has_servers():
        if plan.removes:
            reasons.append('Manila never detaches a security service from a share network '
                           'with share servers (%s): %s' % (
                               usage.describe(),
                               ', '.join(service_label(s) for s in plan.removes)))
        if (plan.adds or plan.swaps) and not in_use_updates:
            reasons.append('adding or replacing security services on a share network with '
                           'share servers (%s) needs Manila API 2.63' % usage.describe())
    if (plan.adds or plan.swaps) and in_use_updates:
        reasons.extend(service_update_refusals(network, usage))
    return reasons


def labels(resources):
    return ', '.join(sorted('%s (%s)' % (r.get('name'), r['id']) for r in resources))


def service_update_refusals(network, usage):
    """Why Manila (2.63+) would refuse adding or replacing a security service
    on this network, read before any write (Manila checks the same when it is
    asked: share/api.py ``_share_network_update_initial_checks``).

    The network's ``error``/``network_change`` statuses are dealt with
    elsewhere (``check_can_change_services``, ``ShareNetworkAPI.wait_if_busy``).
    """
    reasons = []
    if network.get('security_service_update_support') is False:
        reasons.append(
            'the backend of its share servers cannot add or replace security services on '
            'share servers in use (the network shows security_service_update_support: '
            'false); attach the services before its first share is created, or create the '
            'shares again on a new share network that has them')
    if not (usage.has_servers() or usage.soft_deleted):
        return reasons
    stopped = [s for s in usage.servers or [] if s.get('status') != 'active']
    if stopped:
        reasons.append('its share servers %s are not active; an admin must bring them back '
                       'to active first' % ', '.join(sorted(
                           '%s (%s)' % (s['id'], s.get('status')) for s in stopped)))
    waiting = [s for s in usage.shares if s.get('status') != 'available']
    if waiting:
        reasons.append('Manila changes the share servers only while every share on them is '
                       'available, and these are not: %s; wait for them, or repair or delete '
                       'them first' % ', '.join(sorted(
                           '%s (%s, %s)' % (s.get('name'), s['id'], s.get('status'))
                           for s in waiting)))
    rules = [s for s in usage.shares if s.get('status') == 'available'
             and s.get('access_rules_status', 'active') != 'active']
    if rules:
        reasons.append('the access rules of shares %s are not all applied '
                       '(access_rules_status is not active); wait for them, or deny the '
                       'rules in error first' % labels(rules))
    if usage.soft_deleted:
        reasons.append('shares %s are in the recycle bin, and Manila changes no share server '
                       'of a network with such shares; restore them or delete them for good '
                       'first' % labels(usage.soft_deleted))
    return reasons


def serving_subnet(resource, subnets):
    """The ID of the subnet that served a share (or a share group) when it was
    created, for members, who cannot see share servers: the subnet of its zone
    if that existed then, otherwise the default subnet.  ``subnets``: the
    network's subnets as Manila shows them (with ``created_at``)."""
    zone = resource.get('availability_zone')
    created = resource.get('created_at') or ''
    own = [s for s in subnets if zone and s.get('availability_zone') == zone and (
        not created or not s.get('created_at') or s['created_at'] <= created)]
    if own:
        return own[0].get('id')
    default = [s for s in subnets if not s.get('availability_zone')]
    return default[0].get('id') if default else None


# -- what uses a network ----------------------------------------------------------------

class Usage(object):
    """What uses a share network, read on first need.

    ``servers``: its share servers, or None when this user may not list them
    (share servers are admin-only under Manila's default policy); ``shares``:
    the shares on it that this user can see; ``soft_deleted``: those in the
    recycle bin (2.69+); ``share_groups``: its share groups.
    """

    def __init__(self, client, network_id):
        self.client = client
        self.network_id = network_id
        self._servers = False
        self._shares = None
        self._soft_deleted = None
        self._groups = None

    @property
    def servers(self):
        if self._servers is False:
            try:
                self._servers = self.client.get('share-servers', query={
                    'share_network_id': self.network_id}).get('share_servers', [])
            except Forbidden:
                self._servers = None
        return self._servers

    @property
    def shares(self):
        if self._shares is None:
            self._shares = lookups.list_all(self.client, 'shares/detail', 'shares', {
                'share_network_id': self.network_id, 'all_tenants': 1})
        return self._shares

    @property
    def soft_deleted(self):
        """Its shares in the recycle bin: listings leave them out, Manila counts them."""
        if self._soft_deleted is None:
            self._soft_deleted = []
            if self.client.supports('soft_delete'):
                self._soft_deleted = lookups.list_all(self.client, 'shares/detail', 'shares', {
                    'share_network_id': self.network_id, 'is_soft_deleted': 'true',
                    'all_tenants': 1})
        return self._soft_deleted

    @property
    def share_groups(self):
        """Its share groups ([] where this user may not list them)."""
        if self._groups is None:
            self._groups = []
            if self.client.supports('share_groups'):
                try:
                    self._groups = self.client.get('share-groups/detail', query={
                        'share_network_id': self.network_id, 'all_tenants': 1},
                        feature='share_groups').get('share_groups', [])
                except (Forbidden, NotFound):
                    pass
        return self._groups

    def has_servers(self):
        """True when the network has share servers (members: when it has shares)."""
        if self.servers is not None:
            return bool(self.servers)
        return bool(self.shares)

    def describe(self):
        if self.servers:
            return 'share servers %s' % ', '.join(sorted(s['id'] for s in self.servers))
        return 'shares %s' % labels(self.shares)

    def subnet_blockers(self, subnet, network):
        """Why Manila would refuse deleting ``subnet`` of ``network``: shares or
        share groups on its share servers, or share servers Manila cannot
        delete by itself; '' when nothing blocks it.

        Admins see which share servers are on the subnet and which server
        each share and group is on; for members, ``serving_subnet`` tells.
        """
        servers = self.servers
        shares = self.shares + self.soft_deleted
        if servers is not None:
            on_subnet = set(s['id'] for s in servers if subnet['id'] in server_subnets(s))
            shares = [s for s in shares if s.get('share_server_id') in on_subnet]
            groups = [g for g in self.share_groups if g.get('share_server_id') in on_subnet]
        else:
            subnets = network.get('share_network_subnets') or []
            shares = [s for s in shares if serving_subnet(s, subnets) == subnet['id']]
            groups = [g for g in self.share_groups if serving_subnet(g, subnets) == subnet['id']]
        words = []
        if shares:
            words.append('shares %s use it; delete or move them first' % labels(shares))
        if groups:
            words.append('share groups %s use it; delete them first' % labels(groups))
        kept = [s for s in servers or []
                if subnet['id'] in server_subnets(s) and s.get('is_auto_deletable') is False]
        if kept:
            words.append('share servers %s on it were not created by Manila (not '
                         'auto-deletable); an admin must remove them' % ', '.join(
                             sorted(s['id'] for s in kept)))
        return '; '.join(words)

    def delete_blockers(self):
        """Why Manila would refuse deleting the network (its extra subnets,
        which are deleted first, aside): read before any subnet is deleted."""
        reasons = []
        if self.shares:
            reasons.append('shares %s use it' % labels(self.shares))
        if self.soft_deleted:
            reasons.append('shares %s in the recycle bin use it (delete them for good, or '
                           'restore them)' % labels(self.soft_deleted))
        if self.share_groups:
            reasons.append('share groups %s use it' % labels(self.share_groups))
        if reasons:
            reasons[-1] += '; delete them first'
        kept = [s for s in self.servers or [] if s.get('is_auto_deletable') is False]
        if kept:
            reasons.append('share servers %s were not created by Manila (not auto-deletable); '
                           'an admin must remove them' % ', '.join(sorted(s['id'] for s in kept)))
        return reasons


def server_subnets(server):
    """The subnet IDs of a share server (one before API 2.70, a list from it)."""
    ids = list(server.get('share_network_subnet_ids') or [])
    if server.get('share_network_subnet_id'):
        ids.append(server['share_network_subnet_id'])
    return ids


def in_use_message(exc):
    """Manila's refusal of a change to a network in use, worded with what to do.

    For ``reword``: a 403 that is not about use (a policy refusal) stays as it is.
    """
    if isinstance(exc, Forbidden) and 'used' not in exc.message:
        return exc
    return same_details(exc, CannotConverge, (
        'Manila refused the change because the share network is in use: %s Share '
        'servers can remain after their last share is deleted; an admin can list them '
        '(openstack share server list --share-network ...).' % exc.message))


# -- calls -------------------------------------------------------------------------------

class ShareNetworkAPI(ResourceAPI):
    """The share network calls: the shared ones (resource.ResourceAPI), and
    subnets, security services and the checks of in-use changes."""

    kind = 'share_network'
    busy_hint = ' Nothing was changed.'

    def find(self, name_or_id=None, network_id=None):
        if network_id:
            return self.get(network_id)
        return super(ShareNetworkAPI, self).find(name_or_id)

    def explainer(self, resource):
        """Manila files no user message under a network (see wait_active)."""
        return None

    def security_services(self, network_id):
        """The services attached to a network (id, name, type)."""
        body = self.client.get('security-services', query={'share_network_id': network_id})
        return [dict(id=s['id'], name=s.get('name'), type=s.get('type'))
                for s in body.get('security_services', [])]

    def resolve_services(self, refs, attached):
        """The task's services (names or IDs) as dicts with id, name and type.

        Attached services are matched by name or ID without a request; the
        others are looked up (one request each) and must exist.
        """
        resolved = []
        for ref in refs:
            match = [s for s in attached if ref in (s['id'], s.get('name'))]
            if len(match) > 1:
                raise AmbiguousName(
                    '%d attached security services are named %r (IDs: %s); use an ID.' % (
                        len(match), ref, ', '.join(sorted(s['id'] for s in match))))
            if match:
                resolved.append(match[0])
                continue
            found = lookups.require(self.client, 'security_service', ref)
            resolved.append(dict(id=found['id'], name=found.get('name'),
                                 type=found.get('type')))
        return fold_services(resolved)

    def availability_zones(self):
        body = self.client.get('availability-zones')
        return [z.get('name') for z in body.get('availability_zones', [])]

    def check_zones(self, zones):
        """InvalidInput for availability zones Manila does not know (one request)."""
        zones = [z for z in zones if z]
        if not zones:
            return
        known = self.availability_zones()
        unknown = unknown_zones(zones, known)
        if unknown:
            raise InvalidInput('subnets name availability zones this cloud does not have: '
                               '%s (its zones: %s). Nothing was changed.' % (
                                   ', '.join(unknown), ', '.join(sorted(known)) or 'none'))

    # -- writes: each through write_once (see client.write_once) ---------------
    # create and settle_namesakes: ResourceAPI's.  A network just made has no
    # share servers and no shares, so a newer one of this task's is deleted at
    # once (remove_namesake).

    def update_observer(self, resource_id, body):
        """A change is seen in the network, and one of its neutron fields in
        its default subnet."""
        expected = dict((k, v) for k, v in body.items() if k not in NEUTRON_FIELDS)

        def applied():
            network = self.get(resource_id)
            if not writes.shows(network, expected):
                return None
            if any(f in body for f in NEUTRON_FIELDS):
                default = [s for s in existing_subnets(network) if s['availability_zone'] is None]
                if not default or any(default[0][f] != body[f] for f in NEUTRON_FIELDS
                                      if f in body):
                    return None
            return network
        return applied

    @reword(Forbidden, in_use_message)
    def update(self, resource_id, body, feature=None):
        return super(ShareNetworkAPI, self).update(resource_id, body, feature)

    def create_subnet(self, network_id, subnet):
        body = dict((k, subnet[k]) for k in NEUTRON_FIELDS if subnet[k] is not None)
        if subnet['availability_zone']:
            body['availability_zone'] = subnet['availability_zone']

        def made():
            # One subnet per zone in a network: the zone names the new one.
            for found in (self.get(network_id) or {}).get('share_network_subnets') or []:
                if found.get('availability_zone') == subnet['availability_zone'] and all(
                        found.get(f) == subnet[f] for f in NEUTRON_FIELDS):
                    return found
            return None
        return self.client.write_once(
            lambda: self.client.post('share-networks/%s/subnets' % network_id,
                                     {'share-network-subnet': body},
                                     feature='share_network_subnets')['share_network_subnet'],
            made, 'the create of a subnet (zone %s) in share network %s' % (
                subnet['availability_zone'] or 'default', network_id))

    @reword(Conflict, in_use_message)
    def delete_subnet(self, network_id, subnet_id):
        def gone():
            subnets = (self.get(network_id) or {}).get('share_network_subnets') or []
            return None if any(s.get('id') == subnet_id for s in subnets) else True
        self.client.write_once(
            lambda: self.client.delete('share-networks/%s/subnets/%s' % (network_id, subnet_id),
                                       feature='share_network_subnets'),
            gone, 'the deletion of subnet %s of share network %s' % (subnet_id, network_id))

    def attached(self, network_id, present=(), absent=()):
        """An observer for a security service change: True when the services
        ``present`` are attached to the network and ``absent`` are not."""
        def observe():
            ids = set(s['id'] for s in self.security_services(network_id))
            return True if set(present) <= ids and not ids & set(absent) else None
        return observe

    @reword(Forbidden, in_use_message)
    def add_service(self, network_id, service_id):
        self.client.write_once(
            lambda: self.client.action('share-networks/%s' % network_id, 'add_security_service',
                                       {'security_service_id': service_id}),
            self.attached(network_id, present=[service_id]),
            'adding security service %s to share network %s' % (service_id, network_id))

    @reword(Forbidden, in_use_message)
    def remove_service(self, network_id, service_id):
        self.client.write_once(
            lambda: self.client.action('share-networks/%s' % network_id,
                                       'remove_security_service',
                                       {'security_service_id': service_id}),
            self.attached(network_id, absent=[service_id]),
            'removing security service %s from share network %s' % (service_id, network_id))

    def replace_service(self, network_id, current_id, new_id):
        self.client.write_once(
            lambda: self.client.action('share-networks/%s' % network_id,
                                       'update_security_service',
                                       {'current_service_id': current_id,
                                        'new_service_id': new_id},
                                       feature='share_network_in_use_updates'),
            self.attached(network_id, present=[new_id], absent=[current_id]),
            'replacing security service %s by %s on share network %s' % (
                current_id, new_id, network_id))

    def check_service_change(self, network, new_id, current_id=None):
        """Ask Manila whether the backends can take the change (2.63+); wait for
        the answer. Fails when a backend cannot."""
        if current_id:
            name = 'update_security_service_check'
            args = {'current_service_id': current_id, 'new_service_id': new_id}
        else:
            name = 'add_security_service_check'
            args = {'security_service_id': new_id}
        path = 'share-networks/%s' % network['id']
        first = [True]

        def check():
            # A fresh check first (an earlier "no" would be kept otherwise).  The
            # check is a question, not a change, and this loop asks it again
            # anyway: an answer that is lost is asked for once more (with the
            # reset, as long as no answer came), not recovered by write_once.
            try:
                answer = self.client.action(path, name, dict(args, reset_operation=first[0]),
                                            feature='share_network_in_use_updates')
            except AnswerLost:
                return {}
            first[0] = False
            return answer

        def failure(answer):
            if answer.get('compatible') is False:
                return ('cannot take the change: a backend of its share servers does not '
                        'support it (%s)' % answer.get('hosts_check_result', 'ask an admin'))
            return None

        wait_until(self.client, check, lambda a: a.get('compatible') is True,
                   network_label(network), 'the backends to accept the security service',
                   self.timeout, failure=failure,
                   describe=lambda a: 'being checked',
                   explain=service_messages(self.client, [new_id]))

    def apply(self, network, plan, wait, fresh=False):
        """Send the plan; ``wait``: the task's. ``fresh``: the network was
        just created (no share servers, so no feasibility checks and nothing
        to wait for)."""
        api = self
        network_id = network['id']
        in_use_api = self.client.supports('share_network_in_use_updates') and not fresh
        # API 2.63+: each service change is checked by the backends first, and
        # the network must be active again (its share servers updated) before
        # the next one; the last one is waited for with wait=true.
        steps = [(current['id'], new['id']) for current, new in plan.swaps]
        steps += [(None, service['id']) for service in plan.adds]
        if in_use_api and steps:
            # Before any write: the network at rest, and the backends' yes to
            # the first change (Manila's own checks run with it).
            network = api.wait_if_busy(network, wait, [steps[0][1]])
            api.check_service_change(network, steps[0][1], steps[0][0])
        if plan.update:
            network = api.update(network_id, plan.update)
        for subnet in plan.subnet_deletes:
            api.delete_subnet(network_id, subnet['id'])
        for subnet in plan.subnet_creates:
            api.create_subnet(network_id, subnet)
        for service in plan.removes:
            api.remove_service(network_id, service['id'])
        if not in_use_api:
            for current, new in plan.swaps:
                api.remove_service(network_id, current['id'])
                api.add_service(network_id, new['id'])
            for service in plan.adds:
                api.add_service(network_id, service['id'])
            return
        for index, (current_id, new_id) in enumerate(steps):
            if index:
                network = api.wait_if_busy(network, True, [new_id])
                api.check_service_change(network, new_id, current_id)
            if current_id:
                api.replace_service(network_id, current_id, new_id)
            else:
                api.add_service(network_id, new_id)
            if index < len(steps) - 1 or wait:
                network = api.wait_active(network, [new_id])

    def wait_active(self, network, service_ids=()):
        """Wait until the network is active.  ``service_ids``: the security
        services being added or replaced, under whose IDs Manila files the
        user messages of a failed change (it files none under a network)."""
        return self.wait(network, explain=service_messages(self.client, service_ids))

    def wait_if_busy(self, resource, wait=True, service_ids=()):
        """A network in network_change (2.63+), waited for until it is active."""
        if not self.must_wait(resource, wait):
            return resource
        return self.wait_active(resource, service_ids)


def service_messages(client, service_ids):
    """An ``explain`` for waits on a network: Manila's user messages of the
    security services (resource type SECURITY_SERVICE), where a backend
    records why it refused or failed a security service change."""
    return user_message_explainer(client, *service_ids) if service_ids else None


def check_can_change_services(network):
    if network.get('status') in SHARE_NETWORK_ERROR_STATES:
        raise CannotConverge(
            '%s is in status %s: Manila changes no security service on it until an admin '
            'resets its status (after repairing its share servers).' % (
                network_label(network), network.get('status')))


# -- views -------------------------------------------------------------------------------

def diff_view(network, services):
    """The part of a network shown in diffs ({} for none)."""
    if not network:
        return {}
    return dict(
        name=network.get('name'), description=network.get('description'),
        subnets=sorted(([dict((k, s[k]) for k in ('availability_zone',) + NEUTRON_FIELDS)
                         for s in existing_subnets(network)]),
                       key=lambda s: s['availability_zone'] or ''),
        security_services=sorted(s.get('name') or s['id'] for s in services or []))


def predicted_after(network, services, plan):
    """The diff view of the network once the plan is carried out."""
    after = diff_view(network, services)
    if 'name' in plan.update:
        after['name'] = plan.update['name']
    if 'description' in plan.update:
        after['description'] = plan.update['description']
    subnets = [s for s in existing_subnets(network) if s not in plan.subnet_deletes]
    if plan.update_neutron:
        for subnet in subnets:
            if subnet['availability_zone'] is None:
                subnet.update((f, plan.update[f]) for f in NEUTRON_FIELDS)
    subnets.extend(plan.subnet_creates)
    after['subnets'] = sorted(
        [dict((k, s[k]) for k in ('availability_zone',) + NEUTRON_FIELDS) for s in subnets],
        key=lambda s: s['availability_zone'] or '')
    dropped = set(s['id'] for s in plan.removes) | set(c['id'] for c, _n in plan.swaps)
    kept = [s for s in services or [] if s['id'] not in dropped]
    kept += plan.adds + [n for _c, n in plan.swaps]
    after['security_services'] = sorted(s.get('name') or s['id'] for s in kept)
    return after


def result_view(network, services):
    return dict(network, security_services=list(services or []))
