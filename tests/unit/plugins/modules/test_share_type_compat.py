# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""share_type and share_type_info on scripted HTTP (issue 36): openstack.cloud's
``share_type`` key of share_type_info, a rename by ID (API 2.50), and a member
who names a type it cannot see."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Fail,
    run_scripted,
)

from ansible_collections.openkeel.manila.plugins.modules import share_type
from ansible_collections.openkeel.manila.plugins.modules import share_type_info
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ok,
)

TYPE = {'id': '33333333-0000-0000-0000-000000000001', 'name': 'gold', 'description': None,
        'share_type_access:is_public': True,
        'extra_specs': {'driver_handles_share_servers': 'True'}}
OTHER = dict(TYPE, id='33333333-0000-0000-0000-000000000002', name='silver')
LISTING = ('GET', '/v2/types?is_public=all', ok({'share_types': [TYPE, OTHER]}))
BY_ID = ('GET', '/v2/types/' + TYPE['id'], ok({'share_type': TYPE}))
MEMBER = {'id': 'p1', 'name': 'demo', 'roles': ['member', 'reader']}


def as_user(project):
    def prepare(client, _session):
        client.token_project = lambda: project
    return prepare


def run(monkeypatch, args, exchanges, max_version='2.99', check_mode=False, project=None):
    return run_scripted(monkeypatch, share_type, args, exchanges, max_version=max_version,
                        check_mode=check_mode, diff=True, prepare=as_user(project))


# -- share_type_info: openstack.cloud's share_type key ----------------------------------

@pytest.mark.parametrize('name,exchanges', [
    ('gold', [LISTING]),
    (TYPE['id'], [BY_ID]),
])
def test_one_type_by_name_or_id_is_also_the_share_type_key(monkeypatch, name, exchanges):
    outcome, session = run_scripted(monkeypatch, share_type_info, {'name': name}, exchanges)
    view = dict(TYPE, is_public=True)
    assert outcome.result['share_types'] == [view]
    assert outcome.result['share_type'] == view
    assert len(session.calls) == len(exchanges) + 1     # the versions document, no more


def test_a_name_nothing_matches_gives_an_empty_share_type(monkeypatch):
    outcome, _session = run_scripted(monkeypatch, share_type_info, {'name': 'bronze'}, [LISTING])
    assert outcome.result['share_types'] == [] and outcome.result['share_type'] == {}


def test_without_a_name_there_is_only_the_list(monkeypatch):
    outcome, _session = run_scripted(monkeypatch, share_type_info, {}, [LISTING])
    assert len(outcome.result['share_types']) == 2 and 'share_type' not in outcome.result


# -- share_type: a rename by ID ---------------------------------------------------------

def test_a_type_is_renamed_by_its_id_after_the_name_is_found_free(monkeypatch):
    renamed = dict(TYPE, name='platinum')
    outcome, session = run(monkeypatch, {'id': TYPE['id'], 'name': 'platinum'}, [
        BY_ID,
        LISTING,                                  # is another type named platinum?
        ('PUT', '/v2/types/' + TYPE['id'], ok({'share_type': renamed})),
    ])
    assert outcome.result['changed'] is True
    assert session.bodies('PUT') == [{'share_type': {'name': 'platinum'}}]
    assert outcome.result['share_type']['name'] == 'platinum'
    assert (outcome.result['diff']['before']['name'],
            outcome.result['diff']['after']['name']) == ('gold', 'platinum')


def test_a_renamed_type_runs_again_without_a_change_or_an_extra_request(monkeypatch):
    renamed = dict(TYPE, name='platinum')
    outcome, session = run(monkeypatch, {'id': TYPE['id'], 'name': 'platinum'}, [
        ('GET', '/v2/types/' + TYPE['id'], ok({'share_type': renamed})),
    ])
    assert outcome.result['changed'] is False and session.writes() == []


def test_a_rename_in_check_mode_reads_only_and_predicts_the_name(monkeypatch):
    outcome, session = run(monkeypatch, {'id': TYPE['id'], 'name': 'platinum'}, [
        BY_ID, LISTING], check_mode=True)
    assert outcome.result['changed'] is True and session.writes() == []
    assert outcome.result['share_type']['name'] == 'platinum'


def test_a_rename_to_a_name_another_type_has_is_refused_before_any_write(monkeypatch):
    outcome, session = run(monkeypatch, {'id': TYPE['id'], 'name': 'silver',
                                         'description': 'new'}, [BY_ID, LISTING])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'].startswith(
        "Share type gold (%s) cannot be renamed to 'silver': share type %s has that name"
        % (TYPE['id'], OTHER['id']))
    assert session.writes() == []


def test_a_rename_needs_api_2_50(monkeypatch):
    outcome, session = run(monkeypatch, {'id': TYPE['id'], 'name': 'platinum'}, [BY_ID],
                           max_version='2.49')
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'] == ('Renaming a share type needs Manila API 2.50; this '
                                     'cloud offers 2.49.')
    assert session.writes() == []


def test_without_id_the_name_identifies_the_type_and_is_never_changed(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'gold', 'description': 'd'}, [
        LISTING,
        ('PUT', '/v2/types/' + TYPE['id'], ok({'share_type': dict(TYPE, description='d')})),
    ])
    assert session.bodies('PUT') == [{'share_type': {'description': 'd'}}]


def test_an_id_alone_deletes_the_type(monkeypatch):
    outcome, session = run(monkeypatch, {'id': TYPE['id'], 'state': 'absent'}, [
        BY_ID,
        ('GET', '/v2/shares?share_type_id=%s&all_tenants=1&limit=10' % TYPE['id'],
         ok({'shares': []})),
        ('GET', '/v2/shares?share_type_id=%s&all_tenants=1&limit=10&is_soft_deleted=true'
         % TYPE['id'], ok({'shares': []})),
        ('DELETE', '/v2/types/' + TYPE['id'], ok(status=202)),
    ])
    assert outcome.result['changed'] is True and outcome.result['share_type'] == {}


def test_an_id_no_type_has_is_refused_and_creates_nothing(monkeypatch):
    outcome, session = run(monkeypatch, {'id': TYPE['id'], 'name': 'gold',
                                         'driver_handles_share_servers': True}, [
        ('GET', '/v2/types/' + TYPE['id'], ok({'itemNotFound': {
            'code': 404, 'message': 'not found'}}, 404)),
    ])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'].startswith('No share type with ID %s exists' % TYPE['id'])
    assert session.writes() == []


# -- a member who names a type it cannot see -------------------------------------------

@pytest.mark.parametrize('args', [
    {'name': 'hidden', 'extra_specs': {'snapshot_support': True}},     # no DHSS: not asked
    {'name': 'hidden', 'driver_handles_share_servers': False},         # no POST to refuse
    {'name': '44444444-0000-0000-0000-000000000001'},                  # an ID it cannot read
])
def test_a_member_is_told_types_are_admins_and_this_one_is_not_visible(monkeypatch, args):
    exchanges = [LISTING]
    if args['name'].startswith('4444'):
        exchanges = [('GET', '/v2/types/' + args['name'], ok({'itemNotFound': {
            'code': 404, 'message': 'not found'}}, 404)), LISTING]
    outcome, session = run(monkeypatch, args, exchanges, project=MEMBER)
    assert isinstance(outcome, Fail)
    msg = outcome.result['msg']
    assert msg.startswith("Share type %r is not visible to this user: no type with that "
                          "name or ID is public or granted to project demo" % args['name'])
    assert "admin-only under Manila's default policy" in msg
    assert 'roles member, reader, not admin' in msg
    assert 'driver_handles_share_servers' not in msg
    assert session.writes() == []


def test_an_admin_is_still_asked_for_what_a_new_type_needs(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'hidden'}, [LISTING],
                           project={'id': 'a', 'name': 'admin', 'roles': ['admin', 'member']})
    assert isinstance(outcome, Fail)
    assert 'driver_handles_share_servers is required' in outcome.result['msg']
    assert session.writes() == []


def test_a_member_deleting_a_type_it_cannot_see_finds_it_already_gone(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'hidden', 'state': 'absent'}, [LISTING],
                           project=MEMBER)
    assert outcome.result['changed'] is False and session.writes() == []
