# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""writes.py on scripted HTTP: the observers that client.write_once asks after a
lost answer or a 5xx (a create seen by its name, a change by reading the
resource back, a deletion by its absence), what counts as a field shown as
sent, and settle_namesakes, which keeps the oldest of the resources that tasks
created under one name at the same moment.

An observer answers None, never False, when Manila shows no sign of the write:
write_once takes anything else for "it took effect".  The rule that every
write of module_utils goes through write_once is a source check of its own,
test_writes_once.py."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from keystoneauth1 import exceptions as ksa_exc

from ansible_collections.openkeel.manila.plugins.module_utils import writes
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    GONE,
    FakeClock,
    ScriptedResponse,
    expect,
    make_client,
    ok,
)

MINE = 'aaaaaaaa-0000-0000-0000-000000000002'
OLDER = 'aaaaaaaa-0000-0000-0000-000000000001'
NEWER = 'aaaaaaaa-0000-0000-0000-000000000003'
LISTING = '/v2/shares/detail?name=data'
SHARE_PATH = '/v2/shares/' + MINE


def share(share_id=MINE, status='available', created='2026-01-01T10:00:00.500000', name='data',
          **fields):
    found = {'id': share_id, 'name': name, 'status': status, 'created_at': created}
    found.update(fields)
    return found


def listing(*shares):
    return expect('GET', LISTING, ok({'shares': list(shares)}))


# -- oldest and present_namesakes ---------------------------------------------------------

def test_the_oldest_is_the_first_created_then_the_lowest_id():
    first = share(NEWER, created='2026-01-01T10:00:00.100000')
    later = share(OLDER, created='2026-01-01T10:00:00.200000')
    assert writes.oldest([later, first]) == first
    # the same moment: the lower ID, so that every task picks the same one
    tie_a = share(NEWER, created='2026-01-01T10:00:00.100000')
    tie_b = share(OLDER, created='2026-01-01T10:00:00.100000')
    assert writes.oldest([tie_a, tie_b]) == tie_b and writes.oldest([tie_b, tie_a]) == tie_b
    # a resource shown without created_at counts as older than any time
    undated = share(NEWER, created=None)
    assert writes.oldest([first, undated]) == undated


def test_namesakes_are_named_exactly_and_leave_out_those_on_their_way_out():
    client, session = make_client([
        listing(share(OLDER, status='deleting'), share(MINE), share(NEWER, name='data2')),
        listing(share(OLDER, status='deleting'), share(MINE)),
    ])
    assert [r['id'] for r in writes.present_namesakes(client, 'share', 'data',
                                                      leaving=('deleting',))] == [MINE]
    # without leaving states, a share being deleted still holds its name
    assert [r['id'] for r in writes.present_namesakes(client, 'share', 'data')] == [OLDER, MINE]
    assert session.writes() == []


def test_namesakes_are_listed_with_the_filters_given():
    path = '/v2/snapshots/detail?name=tuesday&share_id=s1'
    snapshot = {'id': MINE, 'name': 'tuesday', 'status': 'available'}
    client, _session = make_client([expect('GET', path, ok({'snapshots': [snapshot]}))])
    assert writes.present_namesakes(client, 'snapshot', 'tuesday', {'share_id': 's1'}) == [snapshot]


# -- the observer of a create, and create_once --------------------------------------------------

def test_a_create_is_seen_as_the_oldest_namesake_present_or_not_at_all():
    older = share(OLDER, created='2026-01-01T10:00:00.100000')
    client, _session = make_client([
        listing(share(MINE), older),
        listing(share(MINE, status='deleting')),
        listing(),
    ])
    observe = writes.made_by_name(client, 'share', 'data', leaving=('deleting',))
    assert observe() == older
    assert observe() is None
    assert observe() is None


def test_a_lost_create_is_seen_by_its_name_and_never_sent_again():
    created = share()
    client, session = make_client([
        expect('POST', '/v2/shares', ksa_exc.ConnectFailure('Connection aborted.')),
        listing(created),
    ], clock=FakeClock())
    assert writes.create_once(client, 'share', lambda: client.post('shares', {'share': {}}),
                              'data') == created
    assert [c.method for c in session.writes()] == ['POST']
    assert client.accepted == ["the create of share 'data'"]
    assert "No answer came to the create of share 'data'" in client.warnings[0]


def test_a_create_answered_503_and_not_seen_by_its_name_is_sent_once_more():
    created = share()
    client, session = make_client([
        expect('POST', '/v2/shares', ScriptedResponse(503, {'computeFault': {
            'code': 503, 'message': 'busy'}})),
        listing(share(OLDER, status='deleting')),   # on its way out: not this create
        expect('POST', '/v2/shares', ok({'share': created})),
    ], clock=FakeClock())

    def send():
        return client.post('shares', {'share': {}})['share']
    assert writes.create_once(client, 'share', send, 'data', leaving=('deleting',)) == created
    assert [c.method for c in session.writes()] == ['POST', 'POST']
    assert client.warnings == ["The create of share 'data' was refused once with HTTP 503 and "
                               "nothing had been made; it was sent again and succeeded."]


# -- what a change looks like once Manila shows it --------------------------------------------

@pytest.mark.parametrize('shown,wanted,same', [
    # an empty text and none are the same
    ('', None, True), (None, '', True), ('x', '', False), ('x', None, False),
    # a boolean sent compares as one, whichever way Manila shows it
    (True, True, True), ('True', True, True), ('false', False, True),
    ('false', True, False), (False, True, False), ('yes', True, False),
    ('a', 'a', True), ('A', 'a', False),
])
def test_what_a_write_sent_and_what_manila_shows(shown, wanted, same):
    assert writes.shown_as_sent(shown, wanted) is same
    assert writes.shows({'field': shown}, {'field': wanted}) is same
    assert writes.shows({}, {'field': wanted}) is False


def test_a_resource_shows_a_change_only_with_every_field_of_it():
    found = {'name': 'data', 'description': None, 'size': 2}
    assert writes.shows(found, {'name': 'data', 'size': 2}) is True
    assert writes.shows(found, {'name': 'data', 'size': 3}) is False
    assert writes.shows(found, {'description': ''}) is True
    assert writes.shows(found, {}) is True
    assert writes.shows(None, {}) is False


def test_a_change_is_seen_by_reading_the_resource_by_id():
    client, session = make_client([
        expect('GET', SHARE_PATH, ok({'share': share(size=2)})),
        expect('GET', SHARE_PATH, ok({'share': share(size=1)})),
        expect('GET', SHARE_PATH, GONE),
    ])
    observe = writes.changed_to(client, 'share', MINE, {'size': 2})
    assert observe() == share(size=2)
    assert observe() is None
    assert observe() is None
    assert session.writes() == []


def test_metadata_items_are_seen_when_the_resource_holds_every_one():
    client, _session = make_client([
        expect('GET', SHARE_PATH, ok({'share': share(metadata={'a': '1', 'b': '2'})})),
        expect('GET', SHARE_PATH, ok({'share': share(metadata={'a': '1', 'b': '3'})})),
        expect('GET', SHARE_PATH, ok({'share': share(metadata=None)})),
        expect('GET', SHARE_PATH, GONE),
    ])
    observe = writes.holds_items(client, 'share', MINE, {'a': '1', 'b': '2'})
    assert observe() is True
    assert observe() is None
    assert observe() is None
    assert observe() is None


def test_extra_specs_are_seen_in_the_field_named():
    shown = {'id': 'tid', 'name': 'gold', 'metadata': {'snapshot_support': 'True'},
             'extra_specs': {'snapshot_support': 'False'}}
    client, _session = make_client([
        expect('GET', '/v2/types/tid', ok({'share_type': shown})),
        expect('GET', '/v2/types/tid', ok({'share_type': shown})),
    ])
    assert writes.holds_items(client, 'share_type', 'tid', {'snapshot_support': 'False'},
                              field='extra_specs')() is True
    assert writes.lacks_key(client, 'share_type', 'tid', 'snapshot_support',
                            field='extra_specs')() is None


def test_a_removed_key_is_seen_when_the_resource_lacks_it_or_is_gone():
    client, _session = make_client([
        expect('GET', SHARE_PATH, ok({'share': share(metadata={'a': '1'})})),
        expect('GET', SHARE_PATH, ok({'share': share(metadata={'b': '1'})})),
        expect('GET', SHARE_PATH, ok({'share': share(metadata=None)})),
        expect('GET', SHARE_PATH, GONE),
    ])
    observe = writes.lacks_key(client, 'share', MINE, 'a')
    assert observe() is None
    assert observe() is True
    assert observe() is True
    assert observe() is True


def test_a_deletion_is_seen_when_the_resource_is_gone_or_leaving():
    client, _session = make_client([
        expect('GET', SHARE_PATH, GONE),
        expect('GET', SHARE_PATH, ok({'share': share(status='deleting')})),
        expect('GET', SHARE_PATH, ok({'share': share(status='available')})),
        expect('GET', SHARE_PATH, ok({'share': share(status='deleting')})),
    ])
    observe = writes.gone_or_leaving(client, 'share', MINE, leaving=('deleting',))
    assert observe() is True
    assert observe() is True
    assert observe() is None
    # without leaving states only its absence counts
    assert writes.gone_or_leaving(client, 'share', MINE)() is None


# -- settle_namesakes ----------------------------------------------------------------------------

def settle(client, mine, leaving=()):
    removed = []
    kept = writes.settle_namesakes(client, 'share', mine, removed.append, leaving=leaving)
    return kept, removed


def test_the_oldest_namesake_keeps_the_name_and_the_others_are_named():
    mine = share(MINE, created='2026-01-01T10:00:00.100000')
    newer = share(NEWER, created='2026-01-01T10:00:00.900000')
    client, session = make_client([listing(newer, mine)])
    assert settle(client, mine) == ((mine, False), [])
    assert client.warnings == [
        "Other tasks created shares named 'data' at the same time (%s); this task keeps %s, "
        "the oldest, and the tasks that made the others remove them." % (NEWER, MINE)]
    assert session.writes() == []


def test_a_newer_namesake_is_removed_and_the_task_converges_on_the_oldest():
    mine = share(MINE, created='2026-01-01T10:00:00.500000')
    older = share(OLDER, created='2026-01-01T10:00:00.100000')
    client, _session = make_client([listing(mine, older)])
    assert settle(client, mine) == ((older, True), [mine])
    assert client.warnings == [
        "Another task created share 'data' (%s) at the same time as this one; the share this "
        "task created (%s) was deleted, and the task converged on %s instead." % (
            OLDER, MINE, OLDER)]


def test_alone_with_the_name_nothing_is_removed_nor_warned_about():
    mine = share()
    # the listing does not show the new share yet: it counts anyway
    client, _session = make_client([listing(), listing(mine)])
    assert settle(client, mine) == ((mine, False), [])
    assert settle(client, mine) == ((mine, False), [])
    assert client.warnings == []


def test_an_older_namesake_on_its_way_out_does_not_keep_the_name():
    mine = share(MINE, created='2026-01-01T10:00:00.500000')
    leaving = share(OLDER, status='deleting', created='2026-01-01T10:00:00.100000')
    client, _session = make_client([listing(leaving, mine)])
    assert settle(client, mine, leaving=('deleting',)) == ((mine, False), [])
    assert client.warnings == []
