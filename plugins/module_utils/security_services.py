# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Security services: validation and the plan (pure functions), and the calls.

Manila's rules (manila/api/v2/security_service.py): the type is one of
active_directory, kerberos, ldap; ``ou`` arrived in API 2.44 and
``default_ad_site`` in 2.76 (an active_directory service takes a server or a
default AD site, not both); while a share network the service is attached to
has share servers, only ``name`` and ``description`` may change - other
settings, the type among them, reach share servers only through a replacement
on the share network (API 2.63+, ``update_security_service``).  Otherwise
(no share network, or none with share servers) Manila 23's update takes every
setting, the type too.

The password is never returned by this collection. Manila 23 shows it to
whoever may read the service, which makes comparing it possible; where a
Manila hides it, ``update_password=always`` sends it on every run.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import ipaddress

from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    Forbidden,
    InvalidInput,
    reword,
    same_details,
)
from ansible_collections.openkeel.manila.plugins.module_utils.kinds import security_service_label as label
from ansible_collections.openkeel.manila.plugins.module_utils.resource import (
    NOTHING,
    Plan,
    ResourceAPI,
)
from ansible_collections.openkeel.manila.plugins.module_utils.share_networks import Usage
from ansible_collections.openkeel.manila.plugins.module_utils.values import (
    none_if_blank,
    too_long,
)

SERVICE_TYPES = ('active_directory', 'kerberos', 'ldap')

# The settings of a service besides its type and password, in Manila's names.
FIELDS = ('name', 'description', 'dns_ip', 'server', 'domain', 'user', 'ou',
          'default_ad_site')
# What Manila lets change while the service's share networks have share servers.
IN_USE_FIELDS = ('name', 'description')
# Settings that need a newer API: field -> feature.
FIELD_FEATURES = (('ou', 'security_service_ou'),
                  ('default_ad_site', 'security_service_default_ad_site'))

CREATE = 'create'
UPDATE = 'update'
DELETE = 'delete'

# The columns of security_services that are not String(255).
FIELD_LIMITS = {'dns_ip': 64}

PASSWORD_SHOWN = '(hidden)'
PASSWORD_CHANGED = '(changed)'


def public_view(service):
    """A service as this collection returns it: without its password."""
    if not service:
        return {}
    return dict((k, v) for k, v in service.items() if k != 'password')


# -- validation --------------------------------------------------------------------

def validate(desired, update_password='on_create'):
    """InvalidInput for what Manila (or this module) would refuse; before any request."""
    service_type = desired.get('type')
    if service_type is not None and service_type not in SERVICE_TYPES:
        raise InvalidInput('type must be one of %s, got %r.' % (
            ', '.join(SERVICE_TYPES), service_type))
    problem = too_long([(k, desired.get(k)) for k in FIELDS + ('password',)], FIELD_LIMITS)
    if problem:
        raise InvalidInput(problem)
    check_dns_ip(desired.get('dns_ip'))
    if (service_type == 'active_directory' and none_if_blank(desired.get('server'))
            and none_if_blank(desired.get('default_ad_site'))):
        raise InvalidInput('An active_directory security service takes server or '
                           'default_ad_site, not both (Manila refuses the pair).')
    if update_password == 'always' and desired.get('password') is None:
        raise InvalidInput('update_password=always needs password.')


def check_dns_ip(value):
    """InvalidInput unless ``value`` is an IP address (or a comma-separated list
    of them, as some drivers take); Manila stores any text and the driver fails
    on the share server later."""
    if none_if_blank(value) is None:
        return
    for item in value.split(','):
        try:
            ipaddress.ip_address(item.strip())
        except ValueError:
            raise InvalidInput(
                'dns_ip %r is not an IP address (give the DNS server\'s address, '
                'or several separated by commas; not a host name).' % value)
        if '%' in item:
            raise InvalidInput('dns_ip %r: give the address without an IPv6 zone.' % value)


def required_features(desired):
    """[(feature, what)] the task's settings need."""
    return [(feature, field) for field, feature in FIELD_FEATURES
            if none_if_blank(desired.get(field)) is not None]


# -- the plan ----------------------------------------------------------------------

class ServicePlan(Plan):
    """What to do to one security service.

    ``body``: the create body or the PUT body; ``password_unknown``: the
    password is sent without knowing whether it differs (Manila hid it).
    """

    def __init__(self, action, body=None, before=None, after=None,
                 password_unknown=False):
        super(ServicePlan, self).__init__(action, before, after)
        self.body = body or {}
        self.password_unknown = password_unknown

    def restricted(self):
        """The changed settings Manila refuses on a service in use."""
        return sorted(k for k in self.body if k not in IN_USE_FIELDS)


def diff_view(service):
    if not service:
        return {}
    view = dict((k, service.get(k)) for k in ('type',) + FIELDS)
    return view


def plan_create(desired):
    if not desired.get('type'):
        raise InvalidInput('type is required to create security service %s (one of %s).'
                           % (desired.get('name'), ', '.join(SERVICE_TYPES)))
    if not desired.get('name'):
        raise InvalidInput('name is required to create a security service.')
    body = dict((k, desired[k]) for k in ('type',) + FIELDS
                if none_if_blank(desired.get(k)) is not None)
    after = diff_view(body)
    if desired.get('password') is not None:
        body['password'] = desired['password']
        after['password'] = PASSWORD_CHANGED
    return ServicePlan(CREATE, body=body, after=after)


def plan_update(service, desired, rename=False, update_password='on_create'):
    """Bring an existing service to ``desired`` (None settings: left alone).

    A new type is one more setting: like every setting but name and
    description, Manila refuses it only while share servers use the service
    (``ServicePlan.restricted``)."""
    body = {}
    wanted_type = desired.get('type')
    if wanted_type and wanted_type != service.get('type'):
        body['type'] = wanted_type
    for field in FIELDS:
        if field == 'name' and not rename:
            continue
        value = desired.get(field)
        if value is not None and none_if_blank(value) != none_if_blank(service.get(field)):
            body[field] = value
    before = diff_view(service)
    after = dict(before, **body)
    password_unknown = False
    password = desired.get('password')
    if update_password == 'always' and password is not None:
        if 'password' not in service:
            password_unknown = True
            body['password'] = password
        elif none_if_blank(password) != none_if_blank(service.get('password')):
            body['password'] = password
        if 'password' in body:
            before['password'] = PASSWORD_SHOWN
            after['password'] = PASSWORD_CHANGED
    return ServicePlan(UPDATE if body else NOTHING, body=body, before=before, after=after,
                       password_unknown=password_unknown)


def plan_absent(service):
    if service is None:
        return ServicePlan(NOTHING)
    return ServicePlan(DELETE, before=diff_view(service), after={})


def in_use_error(service, restricted, networks, in_use_updates):
    """The message for settings that cannot change while share servers use the service."""
    how = ('create a new security service with the new settings and put it in the '
           'share network\'s security_services instead of this one (with '
           'purge_security_services=true, openkeel.manila.share_network replaces it '
           'on the share servers)')
    if not in_use_updates:
        how += '; that needs Manila API 2.63, which this task does not have'
    return ('%s is used by share network(s) %s, which have share servers: Manila lets only '
            'name and description change, not %s. To change them, %s.' % (
                label(service), ', '.join(networks), ', '.join(restricted), how))


# -- calls -------------------------------------------------------------------------

def _delete_refusal(exc):
    if 'assigned' not in exc.message:
        return exc
    return same_details(exc, CannotConverge, (
        'Manila refused: %s Detach it from its share networks first (their '
        'security_services without it, purge_security_services=true).' % exc.message))


def _update_refusal(exc):
    if 'attached' not in exc.message:
        return exc
    return same_details(exc, CannotConverge, (
        'Manila refused: %s Share servers can remain after their last share is deleted, '
        'and only an admin can list them. To change the other settings, put a new '
        'security service in the share network\'s security_services instead of this one '
        '(API 2.63+).' % exc.message))


class SecurityServiceAPI(ResourceAPI):
    """The security service calls: the shared ones (resource.ResourceAPI), and
    the share networks a service is attached to."""

    kind = 'security_service'

    def find(self, name_or_id=None, service_id=None):
        if service_id:
            return self.get(service_id)
        return super(SecurityServiceAPI, self).find(name_or_id)

    def networks_of(self, service):
        """The IDs of the share networks the service is attached to.

        A listing shows them; a service read by ID needs one more request.
        """
        if 'share_networks' in service:
            return list(service['share_networks'] or [])
        found = self.client.get('security-services/detail', query={
            'id': service['id'], 'all_tenants': 1}).get('security_services', [])
        return list(found[0].get('share_networks') or []) if found else []

    def networks_in_use(self, network_ids):
        """The networks among ``network_ids`` that have share servers (members: shares)."""
        return [n for n in network_ids if Usage(self.client, n).has_servers()]

    # -- writes: ResourceAPI's, Manila's refusals explained ----------------------
    # create and settle_namesakes: ResourceAPI's.  A service just made is
    # attached to no share network, so a newer one of this task's is deleted at
    # once (remove_namesake).

    @reword(Forbidden, _update_refusal)
    def update(self, resource_id, body, feature=None):
        # The password counts only where Manila shows it (a field not shown is
        # not seen: the write is then reported as not applied, never assumed).
        return super(SecurityServiceAPI, self).update(resource_id, body, feature)

    @reword(Forbidden, _delete_refusal)
    def delete(self, resource_id):
        super(SecurityServiceAPI, self).delete(resource_id)
