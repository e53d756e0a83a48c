# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""share_type as a whole task on scripted HTTP (Manila and Keystone): projects
through Keystone, runs that converge, refusals that write nothing, a type held
by the recycle bin (issue 21)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Fail,
    run_scripted,
)

from ansible_collections.openkeel.manila.plugins.modules import share_type
from ansible_collections.openkeel.manila.plugins.modules import share_type_info
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    expect,
    ok,
)

KEYSTONE = 'http://127.0.0.1:5000/v3'
TYPE = {'id': '33333333-0000-0000-0000-000000000001', 'name': 'gold', 'description': None,
        'share_type_access:is_public': True,
        'extra_specs': {'driver_handles_share_servers': 'True'}}
PRIVATE = dict(TYPE, **{'share_type_access:is_public': False})
LISTING = ('GET', '/v2/types?is_public=all', ScriptedResponse(200, {'share_types': [TYPE]}))
ACTION = '/v2/types/%s/action' % TYPE['id']


def keystone(path, answer):
    return expect('GET', KEYSTONE + path, answer, version=None)


def run(monkeypatch, args, exchanges, max_version='2.99', check_mode=False):
    def prepare(client, _session):
        client.identity_url = KEYSTONE
    return run_scripted(monkeypatch, share_type, args, exchanges, max_version=max_version,
                        check_mode=check_mode, prepare=prepare)


def test_private_type_projects_are_the_declared_list(monkeypatch):
    keep, drop, add = 'a' * 32, 'b' * 32, 'c' * 32
    outcome, session = run(monkeypatch, {'name': 'gold', 'projects': [keep, add]}, [
        ('GET', '/v2/types?is_public=all', ok({'share_types': [PRIVATE]})),
        ('GET', '/v2/types/%s/share_type_access' % TYPE['id'], ok({'share_type_access': [
            {'project_id': keep}, {'project_id': drop}]})),
        # keep is on the list under its exact ID: only add is looked up
        keystone('/projects/' + add, ok({'project': {'id': add}})),
        ('POST', ACTION, ok(status=202)),
        ('POST', ACTION, ok(status=202)),
    ])
    assert session.bodies('POST') == [{'addProjectAccess': {'project': add}},
                                      {'removeProjectAccess': {'project': drop}}]
    assert outcome.result['share_type']['projects'] == [keep, add]


def test_a_project_by_name_is_granted_under_keystones_id_and_converges(monkeypatch):
    dashed = '5e1f7b1c-2a3d-4e5f-8a9b-0c1d2e3f4a5b'
    args = {'name': 'gold', 'is_public': False, 'projects': ['research']}
    outcome, session = run(monkeypatch, args, [
        LISTING,
        keystone('/projects?name=research', ok({'projects': [{'id': dashed, 'name': 'research'}]})),
        ('PUT', '/v2/types/' + TYPE['id'], ok({'share_type': PRIVATE})),
        ('POST', ACTION, ok(status=202)),
    ])
    assert session.bodies('POST') == [{'addProjectAccess': {'project': dashed}}]
    assert outcome.result['changed'] is True and outcome.result['share_type']['projects'] == [
        dashed]
    # The second run: one Keystone lookup for the name, no write.
    outcome, session = run(monkeypatch, args, [
        ('GET', '/v2/types?is_public=all', ok({'share_types': [PRIVATE]})),
        ('GET', '/v2/types/%s/share_type_access' % TYPE['id'], ok({'share_type_access': [
            {'project_id': dashed}]})),
        keystone('/projects?name=research', ok({'projects': [{'id': dashed, 'name': 'research'}]})),
    ])
    assert outcome.result['changed'] is False and session.writes() == []


def test_projects_of_a_type_that_stays_public_cost_no_keystone_request(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'gold', 'projects': ['research']}, [LISTING])
    assert isinstance(outcome, Fail) and 'projects apply to private share types' in \
        outcome.result['msg']


def test_an_unknown_project_fails_before_any_write(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'new', 'driver_handles_share_servers': False,
                                         'is_public': False, 'projects': ['nobody']}, [
        ('GET', '/v2/types?is_public=all', ok({'share_types': []})),
        keystone('/projects?name=nobody', ok({'projects': []})),
        keystone('/projects/nobody', ok({'error': {'code': 404, 'message': 'No project.'}}, 404)),
    ])
    assert isinstance(outcome, Fail)
    assert outcome.result['msg'].startswith("projects: Keystone has no project with the name "
                                            "or ID 'nobody'")
    assert session.writes() == []


def test_spaced_zones_and_is_booleans_are_no_change(monkeypatch):
    stored = dict(TYPE, extra_specs={'driver_handles_share_servers': 'True',
                                     'availability_zones': 'az1,az2',
                                     'snapshot_support': '<is> True'})
    outcome, session = run(monkeypatch, {'name': 'gold', 'extra_specs': {
        'availability_zones': 'az1, az2', 'snapshot_support': True}}, [
        ('GET', '/v2/types?is_public=all', ok({'share_types': [stored]})),
    ])
    assert outcome.result['changed'] is False and session.writes() == []


def test_a_spec_manila_refuses_stops_the_task_before_the_description_goes_out(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'gold', 'description': 'new',
                                         'extra_specs': {'replication_type': 'sync'}}, [])
    assert isinstance(outcome, Fail)
    assert 'extra spec replication_type must be one of writable, readable, dr' in \
        outcome.result['msg']
    assert session.writes() == []


LIVE_SHARES = ('GET', '/v2/shares?share_type_id=%s&all_tenants=1&limit=10' % TYPE['id'], ok({'shares': []}))
BINNED = '/v2/shares?share_type_id=%s&all_tenants=1&limit=10&is_soft_deleted=true' % TYPE['id']


def test_a_type_held_by_the_recycle_bin_is_refused_before_the_delete(monkeypatch):
    # Before: the DELETE went out and Manila's bare "still in use" came back.
    outcome, session = run(monkeypatch, {'name': 'gold', 'state': 'absent'}, [
        LISTING, LIVE_SHARES,
        ('GET', BINNED, ok({'shares': [{'id': 's1', 'name': 'binned'}]})),
    ])
    assert isinstance(outcome, Fail)
    assert 'shares in the recycle bin hold it: binned (s1)' in outcome.result['msg']
    assert session.writes() == []


def test_a_refusal_with_nothing_in_the_recycle_bin_names_share_group_types(monkeypatch):
    outcome, session = run(monkeypatch, {'name': 'gold', 'state': 'absent'}, [
        LISTING, LIVE_SHARES,
        ('GET', BINNED, ok({'shares': []})),
        ('DELETE', '/v2/types/' + TYPE['id'], ok({'badRequest': {
            'code': 400, 'message': 'Target share type is still in use.'}}, 400)),
        ('GET', BINNED, ok({'shares': []})),
    ])
    assert isinstance(outcome, Fail) and outcome.result['status'] == 400
    assert 'a share group type lists it' in outcome.result['msg']


def test_types_are_found_by_their_specs_as_manila_reads_them(monkeypatch):
    stored = dict(TYPE, extra_specs={'driver_handles_share_servers': 'True',
                                     'availability_zones': 'az1,az2',
                                     'snapshot_support': '<is> True'})
    outcome, _session = run_scripted(monkeypatch, share_type_info, {
        'extra_specs': {'availability_zones': 'az1, az2', 'snapshot_support': True}}, [
        ('GET', '/v2/types?is_public=all', ok({'share_types': [stored, PRIVATE]})),
    ])
    assert [t['id'] for t in outcome.result['share_types']] == [TYPE['id']]
