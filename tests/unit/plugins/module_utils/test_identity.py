# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Keystone project lookups (identity.py): which requests find_projects sends (the other
spelling of an ID only when asked for), how an ID is put into the URL, and the
other spelling of a UUID-shaped ID."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.openkeel.manila.plugins.module_utils import identity
from ansible_collections.openkeel.manila.plugins.module_utils.identity import find_projects
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    GONE,
    ScriptedResponse,
    expect,
    make_client,
)

KEYSTONE = 'http://127.0.0.1:5000/v3'
DASHED = '0c9f4c5e-9f87-4b0a-a3ef-1d7a5c1d2b3a'


def keystone(path, answer):
    return expect('GET', KEYSTONE + path, answer, version=None)


def client_for(exchanges):
    client, session = make_client(exchanges)
    client.identity_url = KEYSTONE
    return client, session


def test_an_id_is_looked_up_as_given_then_by_name_without_other_spellings():
    client, session = client_for([
        keystone('/projects/' + DASHED, GONE),
        keystone('/projects?name=' + DASHED, ScriptedResponse(200, {'projects': []})),
    ])
    assert find_projects(client, DASHED) == []
    assert len(session.calls) == 3   # the versions document, then the two lookups


def test_the_other_spelling_of_an_id_is_tried_when_asked_for():
    plain = DASHED.replace('-', '')
    project = {'id': plain, 'name': 'batch'}
    client, _session = client_for([
        keystone('/projects/' + DASHED, GONE),
        keystone('/projects/' + plain, ScriptedResponse(200, {'project': project})),
    ])
    assert find_projects(client, DASHED, other_spellings=True) == [project]


def test_an_id_with_a_slash_stays_one_path_segment():
    project = {'id': 'team/a', 'name': 'other'}
    client, _session = client_for([
        keystone('/projects?name=team%2Fa', ScriptedResponse(200, {'projects': []})),
        keystone('/projects/team%2Fa', ScriptedResponse(200, {'project': project})),
    ])
    assert find_projects(client, 'team/a', other_spellings=True) == [project]


def test_an_answer_without_a_project_list_finds_nothing():
    client, _session = client_for([
        keystone('/projects?name=batch', ScriptedResponse(200, {})),
    ])
    assert find_projects(client, 'batch') == []


def test_the_other_uuid_form_adds_or_drops_the_dashes():
    dashed = 'aaaaaaaa-0000-0000-0000-000000000001'
    assert identity.other_uuid_form(dashed) == dashed.replace('-', '')
    assert identity.other_uuid_form(dashed.replace('-', '')) == dashed
    assert identity.other_uuid_form('demo') is None
