# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Share servers: the storage virtual machines (or vservers, or containers)
that a backend handling share servers (``driver_handles_share_servers``)
creates on a share network for its shares.  Admin-only under Manila's
default policy.

The listing is one request filtered by Manila (``host``, ``status``,
``share_network`` by name or ID, ``share_network_subnet_id``, ``project_id``);
one server by ID is one GET, which adds its ``backend_details``.  The shares on
each server are one share listing per server (``share_server_id``, every
project), asked for only when the task wants them.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils import errors, lookups

# The listing filters Manila takes (from Manila 23.0 an unknown one makes the listing empty).
# Manila filters by network, subnet and project through a join, after which it
# applies the server's own filters to the joined table (Manila 23.0 answers 500:
# 'Entity namespace for "share_networks" has no property "host"'): with one of
# JOIN_FILTERS, the server's own filters are matched here in the listing instead.
JOIN_FILTERS = ('share_network', 'share_network_subnet_id', 'project_id')
OWN_FILTERS = ('host', 'status')
SERVER_FILTERS = OWN_FILTERS + JOIN_FILTERS
# What each share on a server shows.
SHARE_FIELDS = ('id', 'name', 'status', 'size', 'share_proto', 'project_id')

admin_only = errors.admin_only('Share servers are')


@admin_only
def get_server(client, server_id):
    """The share server with this ID (with its backend_details), or None."""
    return lookups.get_by_id(client, 'share_server', server_id)


@admin_only
def list_servers(client, **filters):
    """The share servers that match ``filters`` (Manila's), sorted by host and ID;
    one request (see JOIN_FILTERS for the filters matched here)."""
    given = dict((k, v) for k, v in filters.items() if k in SERVER_FILTERS and v is not None)
    joined = any(k in given for k in JOIN_FILTERS)
    query = dict((k, v) for k, v in given.items() if not (joined and k in OWN_FILTERS))
    found = client.get('share-servers', query=query).get('share_servers') or []
    here = dict((k, v) for k, v in given.items() if k not in query)
    found = [s for s in found if all(s.get(k) == v for k, v in here.items())]
    return sorted(found, key=lambda s: (s.get('host') or '', s.get('id') or ''))


def shares_on(client, server_id):
    """The shares of every project on this server (one paged listing)."""
    found = lookups.list_all(client, 'shares/detail', 'shares',
                             {'share_server_id': server_id, 'all_tenants': 1})
    views = [dict((k, s.get(k)) for k in SHARE_FIELDS) for s in found]
    return sorted(views, key=lambda s: (s.get('name') or '', s['id']))


def with_shares(client, servers):
    """``servers``, each with ``shares``: the shares on it."""
    return [dict(server, shares=shares_on(client, server['id'])) for server in servers]
