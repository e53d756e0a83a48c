# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""resource.py: a kind's status table, the defaults of a kind that sets no
label or race rule, an update refused before any request below its feature's
microversion, a failed wait carrying the resource as last read; and what the
base reads from a kind's row: the feature every call carries, the listing of
a parent share, the create of a resource without a name, missing is fine."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import kinds, writes
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    NotFound,
    UnsupportedFeature,
    WaitFailed,
)
from ansible_collections.openkeel.manila.plugins.module_utils.resource import (
    NO_STATUS,
    ResourceAPI,
    Statuses,
    if_found,
)
from ansible_collections.openkeel.manila.plugins.module_utils.share_networks import ShareNetworkAPI
from ansible_collections.openkeel.manila.plugins.module_utils.share_types import ShareTypeAPI
from ansible_collections.openkeel.manila.plugins.module_utils.snapshots import SnapshotAPI
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    GONE,
    ScriptedResponse,
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


# -- the row, and the pieces of the base for every kind (issue 35) -----------------

def widget_row(**more):
    """A kind of the table's shape: replicas' feature (experimental below 2.56),
    a parent share and a status table."""
    fields = dict(name_filter=False, noun='widget', feature='share_replicas',
                  statuses=Statuses(ready=('available',), busy=frozenset(['creating']),
                                    error=frozenset(['error']),
                                    leaving=frozenset(['deleting'])),
                  parent='share', parent_filter='share_id',
                  label_of=lambda w: 'Widget %s' % w['id'])
    fields.update(more)
    return kinds.Kind('widget', 'widgets/detail', 'widgets', 'widgets/%s', 'widget', **fields)


class WidgetAPI(ResourceAPI):
    kind = 'widget'


@pytest.fixture
def widgets(monkeypatch):
    monkeypatch.setitem(kinds.KINDS, 'widget', widget_row())


def test_what_the_base_names_and_waits_on_is_the_rows(widgets):
    row = kinds.KINDS['widget']
    assert (WidgetAPI.noun, WidgetAPI.states, WidgetAPI.feature, WidgetAPI.metadata_feature) == (
        'widget', row.statuses, 'share_replicas', None)
    assert WidgetAPI.label({'id': 'w1'}) == 'Widget w1'
    assert WidgetAPI(None).label({'id': 'w2'}) == 'Widget w2'
    assert (ResourceAPI.noun, ResourceAPI.states, ResourceAPI.feature) == (None, NO_STATUS, None)


def test_every_call_of_a_kind_carries_its_feature(widgets):
    new = {'id': 'w9', 'share_id': 's1', 'status': 'creating'}
    client, session = make_client([
        expect('GET', '/v2/widgets/w1', ok({'widget': {'id': 'w1'}}), experimental=True),
        expect('GET', '/v2/widgets/detail?share_id=s1', ok({'widgets': [{'id': 'w1'}]}),
               experimental=True),
        expect('POST', '/v2/widgets', ok({'widget': new}), experimental=True,
               body={'widget': {'share_id': 's1'}}),
        expect('PUT', '/v2/widgets/w1', ok({'widget': {'id': 'w1', 'x': 1}}), experimental=True,
               body={'widget': {'x': 1}}),
        expect('DELETE', '/v2/widgets/w1', ok(status=202), experimental=True),
        # the look after a lost answer reads with the feature too
        expect('GET', '/v2/widgets/w1', GONE, experimental=True),
    ], max_version='2.55')
    api = WidgetAPI(client)
    assert api.get('w1') == {'id': 'w1'}
    assert api.list_for('s1') == [{'id': 'w1'}]
    assert api.create_unnamed({'share_id': 's1'}, 's1', ['w1'], 'the create of a widget') == new
    assert api.update('w1', {'x': 1}) == {'id': 'w1', 'x': 1}
    assert api.delete('w1') is True
    assert writes.gone_or_leaving(client, 'widget', 'w1')() is True
    assert api.supported()
    api.require_feature()


def test_below_its_features_microversion_a_kind_sends_nothing(monkeypatch):
    monkeypatch.setitem(kinds.KINDS, 'widget', widget_row(feature='share_transfers'))
    client, session = make_client([], max_version='2.76')
    api = WidgetAPI(client)
    assert not api.supported()
    for call in (lambda: api.get('w1'), lambda: api.list_for('s1'), lambda: api.delete('w1'),
                 lambda: api.create_unnamed({'share_id': 's1'}, 's1', (), 'the create'),
                 lambda: api.require_feature('Widgets')):
        with pytest.raises(UnsupportedFeature):
            call()
    assert len(session.calls) == 1


def test_a_kind_without_a_feature_needs_none():
    client, session = make_client([], max_version='2.29')
    ShareTypeAPI(client).require_feature()
    assert ShareTypeAPI(client).supported() and len(session.calls) == 1


def test_the_listing_of_a_parent_one_request_or_every_page(widgets):
    client, session = make_client([
        expect('GET', '/v2/widgets/detail?state=x&share_id=s1', ok({'widgets': [{'id': 'a'}]})
               , experimental=False),
        expect('GET', '/v2/widgets/detail?share_id=s2&limit=1000&offset=0',
               ok({'widgets': [{'id': 'b'}]})),
        expect('GET', '/v2/widgets/detail?share_id=s2&limit=1000&offset=1', ok({'widgets': []})),
    ])
    api = WidgetAPI(client)
    assert api.list_for('s1', {'state': 'x'}) == [{'id': 'a'}]
    assert api.list_for('s2', paged=True) == [{'id': 'b'}]
    assert session.requests()[1:] == [
        'GET /v2/widgets/detail?state=x&share_id=s1',
        'GET /v2/widgets/detail?share_id=s2&limit=1000&offset=0',
        'GET /v2/widgets/detail?share_id=s2&limit=1000&offset=1']


def test_the_listing_of_a_parent_keeps_the_place_a_query_gives_its_filter(widgets):
    client, session = make_client([
        expect('GET', '/v2/widgets/detail?a=1&share_id=s1&b=2', ok({'widgets': []})),
    ])
    assert WidgetAPI(client).list_for('s1', {'a': 1, 'share_id': 's1', 'b': 2}) == []


def test_an_unnamed_create_answered_500_is_the_one_that_was_not_there_before(widgets):
    client, session = make_client([
        expect('POST', '/v2/widgets', ScriptedResponse(500, {'computeFault': {
            'code': 500, 'message': 'boom'}}), experimental=False),
        expect('GET', '/v2/widgets/detail?share_id=s1', ok({'widgets': [
            {'id': 'old', 'status': 'available'},
            {'id': 'going', 'status': 'deleting'},
            {'id': 'other', 'status': 'creating', 'tag': 'b'},
            {'id': 'mine', 'status': 'creating', 'tag': 'a'}]})),
    ])
    made = WidgetAPI(client).create_unnamed(
        {'share_id': 's1'}, 's1', ['old'], 'the create of a widget of share s1',
        matches=lambda w: w.get('tag') == 'a')
    assert made['id'] == 'mine'
    assert [c.method for c in session.calls[1:]] == ['POST', 'GET']


def test_an_unnamed_create_with_nothing_new_is_sent_again(widgets):
    client, session = make_client([
        expect('POST', '/v2/widgets', ScriptedResponse(503, {}), experimental=False),
        expect('GET', '/v2/widgets/detail?share_id=s1', ok({'widgets': [{'id': 'old'}]})),
        expect('POST', '/v2/widgets', ok({'widget': {'id': 'new'}})),
    ])
    assert WidgetAPI(client).create_unnamed({'share_id': 's1'}, 's1', ['old'], 'the create') == {
        'id': 'new'}


@pytest.fixture
def plain_widgets(monkeypatch):
    monkeypatch.setitem(kinds.KINDS, 'widget', widget_row(feature=None))


def test_missing_is_fine_where_the_task_says_so(plain_widgets):
    client, session = make_client([
        expect('GET', '/v2/widgets/w1', GONE),
        expect('DELETE', '/v2/widgets/w1', GONE),
        expect('DELETE', '/v2/widgets/w1', GONE),
        expect('GET', '/v2/widgets/w2/things', GONE),
    ])
    api = WidgetAPI(client)
    assert api.get('w1') is None
    assert if_found(api.delete, 'w1') is None
    with pytest.raises(NotFound):
        api.delete('w1')
    assert if_found(client.get, 'widgets/w2/things') is None
    assert if_found(lambda a, b=None: (a, b), 1, b=2) == (1, 2)


def test_a_namesake_the_task_removes_may_be_gone_already(plain_widgets):
    client, session = make_client([expect('DELETE', '/v2/widgets/w1', GONE)])
    assert WidgetAPI(client).remove_namesake({'id': 'w1'}) is None


def test_a_wait_reads_the_status_field_of_the_row(monkeypatch):
    monkeypatch.setitem(kinds.KINDS, 'widget', widget_row(feature=None, status_field='state'))
    client, session = make_client([
        expect('GET', '/v2/widgets/w1', ok({'widget': {'id': 'w1', 'state': 'creating'}})),
        expect('GET', '/v2/widgets/w1', ok({'widget': {'id': 'w1', 'state': 'available'}})),
    ])
    api = WidgetAPI(client)
    with pytest.raises(CannotConverge):
        api.must_wait({'id': 'w1', 'state': 'creating'}, wait=False)
    assert not api.must_wait({'id': 'w1', 'status': 'creating'}, wait=False)
    assert api.wait({'id': 'w1'}, explain=None) == {'id': 'w1', 'state': 'available'}


def test_a_deletion_is_named_by_the_rows_noun(plain_widgets):
    assert WidgetAPI(None).deletion_words('w1') == 'the deletion of widget w1'
