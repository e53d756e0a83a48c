# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Share types (share_types.py): only availability_zones is rewritten the way Manila stores
it, the explained refusal of a type in use keeps the request it answers, and an
access answer without its list is an empty list."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import share_types as st
from ansible_collections.openkeel.manila.plugins.module_utils.errors import CannotConverge
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    expect,
    make_client,
    ok,
)

TYPE_PATH = '/v2/types/tid'
IN_USE = ScriptedResponse(400, {'badRequest': {'code': 400, 'message': 'Target share type is still in use.'}},
                          headers={'x-openstack-request-id': 'req-42'})


def test_only_availability_zones_lose_the_spaces_around_commas():
    specs = st.prepare_extra_specs({'availability_zones': 'az1 , az2', 'capabilities:tags': 'a, b',
                                    'description:note': ' x,y '}, False)
    assert specs == {'availability_zones': 'az1,az2', 'capabilities:tags': 'a, b',
                     'description:note': ' x,y ', 'driver_handles_share_servers': 'False'}


@pytest.mark.parametrize('cap, script', [
    (None, [expect('GET', '/v2/shares?share_type_id=tid&all_tenants=1&limit=10&is_soft_deleted=true',
                   ok({'shares': [{'id': 's1', 'name': 'old'}]}))]),
    (None, [expect('GET', '/v2/shares?share_type_id=tid&all_tenants=1&limit=10&is_soft_deleted=true',
                   ok({'shares': []}))]),
    ('2.68', []),
])
def test_a_type_in_use_keeps_the_request_manila_refused(cap, script):
    client, _session = make_client([expect('DELETE', TYPE_PATH, IN_USE)] + script, cap=cap)
    with pytest.raises(CannotConverge) as err:
        st.ShareTypeAPI(client).delete('tid', {'id': 'tid', 'name': 'gold'})
    exc = err.value
    assert (exc.status, exc.request_id, exc.method, exc.url) == (
        400, 'req-42', 'DELETE', 'http://127.0.0.1:8786/v2/types/tid')


def test_an_access_answer_without_its_list_has_no_projects():
    client, _session = make_client([expect('GET', '/v2/types/tid/share_type_access', ok({}))])
    assert st.ShareTypeAPI(client).projects('tid') == []
