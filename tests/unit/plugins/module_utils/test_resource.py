# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""resource.py: a kind's status table, the defaults of a kind that sets no
label or race rule, an update refused before any request below its feature's
microversion, and a failed wait carrying the resource as last read."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    UnsupportedFeature,
    WaitFailed,
)
from ansible_collections.openkeel.manila.plugins.module_utils.resource import ResourceAPI, Statuses
from ansible_collections.openkeel.manila.plugins.module_utils.share_networks import ShareNetworkAPI
from ansible_collections.openkeel.manila.plugins.module_utils.share_types import ShareTypeAPI
from ansible_collections.openkeel.manila.plugins.module_utils.snapshots import SnapshotAPI
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    GONE,
    expect,
    make_client,
    ok,
)


def test_a_status_table_keeps_the_states_it_is_given():
    busy, error, leaving = frozenset(['extending']), frozenset(['error']), frozenset(['deleting'])
    table = Statuses(ready=['available'], busy=busy, error=error, leaving=leaving)
    assert table.ready == ('available',)
    assert (table.busy, table.error, table.leaving) == (busy, error, leaving)
    empty = Statuses()
    assert (empty.ready, empty.busy, empty.error, empty.leaving) == ((), (), (), ())


def test_the_default_label_names_the_resource_and_its_id():
    assert ResourceAPI.label({'name': 'data', 'id': 'r1'}) == 'Resource data (r1)'
    assert ResourceAPI.label({'name': 'data'}) == 'Resource data (new)'


def test_by_default_namesakes_are_never_racing():
    assert ResourceAPI.racing([{'id': 'a', 'status': 'creating'}, {'id': 'b', 'status': 'deleting'}]) is False


def test_an_update_below_its_features_microversion_sends_nothing():
    client, session = make_client([], cap='2.49')
    with pytest.raises(UnsupportedFeature) as err:
        ShareTypeAPI(client).update('tid', {'description': 'gold'})
    assert 'needs Manila API 2.50' in str(err.value)
    assert len(session.calls) == 1


def test_an_update_at_its_features_microversion_is_sent():
    client, session = make_client([
        expect('PUT', '/v2/types/tid', ok({'share_type': {'id': 'tid', 'description': 'gold'}}),
               body={'share_type': {'description': 'gold'}}),
    ], cap='2.50')
    assert ShareTypeAPI(client).update('tid', {'description': 'gold'}) == {'id': 'tid', 'description': 'gold'}
    assert session.calls[-1].headers['X-OpenStack-Manila-API-Version'] == '2.50'


@pytest.mark.parametrize('api_class,path,key,messages', [
    # A share network's failures are explained by its security services' messages: none here.
    (ShareNetworkAPI, 'share-networks', 'share_network', []),
    (SnapshotAPI, 'snapshots', 'snapshot', [
        expect('GET', '/v2/messages?resource_id=r1&sort_key=created_at&sort_dir=desc&limit=3',
               ok({'messages': []}))]),
])
def test_a_failed_wait_carries_the_resource_as_last_read_under_its_kind(
        api_class, path, key, messages):
    client, session = make_client([
        expect('GET', '/v2/%s/r1' % path, ok({key: {'id': 'r1', 'name': 'n', 'status': 'error'}})),
    ] + messages)
    with pytest.raises(WaitFailed) as err:
        api_class(client).wait({'id': 'r1', 'name': 'n', 'status': 'creating'})
    assert err.value.result == {key: {'id': 'r1', 'name': 'n', 'status': 'error'}}


def test_a_resource_gone_during_a_wait_leaves_no_resource_in_the_result():
    client, session = make_client([expect('GET', '/v2/snapshots/r1', GONE)])
    with pytest.raises(WaitFailed) as err:
        SnapshotAPI(client).wait({'id': 'r1', 'name': 'n', 'status': 'creating'})
    assert err.value.result == {}
