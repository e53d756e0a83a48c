# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The info modules that take ``project`` or ``all_projects`` (issue 37): for a user
without the admin role Manila ignores them and answers with the user's own
resources, so the task fails before it lists anything instead of returning them
as another project's.  And the ID filters of the info modules: a value that is
not a UUID matches nothing, so it is refused."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Fail,
    run_scripted,
)

from ansible_collections.openkeel.manila.plugins.modules import (
    security_service_info,
    share_info,
    share_message_info,
    share_network_info,
    share_snapshot_info,
)

MEMBER = {'id': 'p1', 'name': 'demo', 'roles': ['member', 'reader']}
OTHER = '0b0b0b0b0b0b4b0b8b0b0b0b0b0b0b0b'


def as_user(project):
    def prepare(client, _session):
        client.token_project = lambda: project
    return prepare


@pytest.mark.parametrize('module,what,args,option', [
    (share_info, 'shares', {'all_projects': True}, 'all_projects'),
    (share_info, 'shares', {'project': OTHER}, 'project'),
    (share_snapshot_info, 'snapshots', {'all_projects': True}, 'all_projects'),
    (share_snapshot_info, 'snapshots', {'project': OTHER}, 'project'),
    (share_network_info, 'share networks', {'project': OTHER}, 'project'),
    (share_network_info, 'share networks', {'all_projects': True}, 'all_projects'),
    (security_service_info, 'security services', {'all_projects': True}, 'all_projects'),
])
def test_a_member_asking_for_other_projects_fails_before_any_listing(
        monkeypatch, module, what, args, option):
    outcome, session = run_scripted(monkeypatch, module, args, [], expect=Fail,
                                    prepare=as_user(MEMBER))
    assert outcome.result['msg'] == (
        "%s: only admins can list another project's %s (or those of every project); this "
        "task runs as a user with the roles member, reader of project demo, for whom Manila "
        "ignores the filter and would answer with this project's own %s." % (option, what, what))
    assert session.requests() in ([], ['GET /'])


@pytest.mark.parametrize('module,option', [
    (security_service_info, 'id'),
    (share_network_info, 'id'),
    (share_network_info, 'neutron_net_id'),
    (share_network_info, 'neutron_subnet_id'),
    (share_message_info, 'id'),
    (share_message_info, 'resource_id'),
])
def test_an_id_filter_that_is_not_an_id_is_refused_before_any_listing(monkeypatch, module, option):
    outcome, session = run_scripted(monkeypatch, module, {option: 'my-thing'}, [], expect=Fail)
    assert outcome.result['msg'].startswith("%s 'my-thing' is not an ID (a UUID" % option)
    assert session.requests() in ([], ['GET /'])
