# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The scheduler's pools: full pool names (host@backend#pool) and listings
matched exactly, not as the regular expressions Manila's filters take."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    InvalidInput,
    admin_only,
)

# Manila's pool names: host@backend#pool (no spaces, one of each separator).
POOL_NAME_RE = re.compile(r'^([^@#\s]+)@([^@#\s]+)#([^@#\s]+)$')


def parse_pool_name(name, option='host'):
    """(host, backend, pool) of ``host@backend#pool``; InvalidInput otherwise."""
    match = POOL_NAME_RE.match(name or '')
    if not match:
        raise InvalidInput(
            '%s must be a full pool name "host@backend#pool" (as '
            'openkeel.manila.share_pool_info lists them), got %r.' % (option, name))
    return match.groups()


def exact(value):
    """A Manila pool filter (a regular expression matched at the start) for one value."""
    return '%s$' % re.escape(value)


@admin_only("Listing the scheduler's pools is")
def list_pools(client, host=None, backend=None, pool=None, share_type=None,
               detail=True):
    """The scheduler's pools; the filters are Manila's regular expressions."""
    query = {'host': host, 'backend': backend, 'pool': pool, 'share_type': share_type}
    path = 'scheduler-stats/pools/detail' if detail else 'scheduler-stats/pools'
    return client.get(path, query=query).get('pools', [])


def require_pool(client, name):
    """The pool named exactly ``name``; an error listing the pools when there is none."""
    host, backend, pool = parse_pool_name(name)
    for candidate in list_pools(client, host=exact(host), backend=exact(backend),
                                pool=exact(pool), detail=False):
        if candidate.get('name') == name:
            return candidate
    known = sorted(p.get('name') for p in list_pools(client, detail=False))
    raise InvalidInput('host: no pool named %s is known to the scheduler. Pools: %s.' % (
        name, ', '.join(known) or 'none'))
