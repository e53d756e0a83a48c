# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""What a storage team looks at on the second day: Manila's services (one
``manila-share`` per host and backend, the schedulers, the data services)
and the availability zones they serve.

Both listings are one request.  Manila filters the services itself
(``binary``, ``host``, ``zone``, ``state``, ``status``; ``ensuring`` from API
2.93, matched here in the listing at 2.86 to 2.92); the zones are matched here
(Manila's zone listing has no filter).  Listing services is admin-only under
Manila's default policy; zones are for everyone.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.errors import admin_only

# The fields of a service, in the order a result shows them; the last two come
# with API 2.83 and 2.86.
SERVICE_FIELDS = ('id', 'binary', 'host', 'zone', 'status', 'state', 'updated_at',
                  'disabled_reason', 'ensuring')
SERVICE_FILTERS = ('binary', 'host', 'zone', 'state', 'status')
ZONE_FIELDS = ('id', 'name', 'created_at', 'updated_at')


def service_view(service, client):
    """A service as a result shows it: the versioned fields only where the
    negotiated API has them (None when Manila left one out)."""
    view = dict((k, service.get(k)) for k in SERVICE_FIELDS[:7])
    if client.supports('service_disabled_reason'):
        view['disabled_reason'] = service.get('disabled_reason')
    if client.supports('service_ensuring'):
        view['ensuring'] = service.get('ensuring')
    return view


@admin_only("Listing Manila's services is")
def list_services(client, ensuring=None, **filters):
    """The services that match ``filters`` (Manila's), and ``ensuring`` when
    not None (UnsupportedFeature below API 2.86), sorted by binary and host."""
    query = dict((k, v) for k, v in filters.items() if k in SERVICE_FILTERS and v is not None)
    if ensuring is not None:
        client.require('service_ensuring', 'ensuring')
        if client.supports('service_ensuring_filter'):
            query['ensuring'] = 'true' if ensuring else 'false'
    found = client.get('services', query=query).get('services') or []
    if ensuring is not None:
        found = [s for s in found if bool(s.get('ensuring')) == ensuring]
    views = [service_view(s, client) for s in found]
    return sorted(views, key=lambda s: (s.get('binary') or '', s.get('host') or ''))


def list_zones(client, name=None):
    """The availability zones, sorted by name; with ``name`` (a zone's name or
    ID) only that one, or none."""
    spec = lookups.KINDS['availability_zone']
    zones = client.get(spec.listing).get(spec.list_key) or []
    if name is not None:
        zones = [z for z in zones if name in (z.get('name'), z.get('id'))]
    views = [dict((k, z.get(k)) for k in ZONE_FIELDS) for z in zones]
    return sorted(views, key=lambda z: z.get('name') or '')
