# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""manage.py's own functions: the input checks of a manage or unmanage before any
request, the project a managed share or snapshot lands in, the pool, share type
and share server a manage names (the exact requests on scripted HTTP), and the
body and prediction of a manage.  The manage and unmanage actions
(tasks/manage.py), run through the share and share_snapshot modules, are
tested in test_tasks_manage.py."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import manage
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    InvalidInput,
    ManilaError,
    NotFound,
    UnsupportedFeature,
)
from ansible_collections.openkeel.manila.plugins.module_utils.manage import dhss
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    GONE,
    ScriptedResponse,
    expect,
    make_client,
    ok,
)

POOL = 'h@alpha#pool1'
EXPORT = '10.0.0.10:/path/to/fake/share/share_1'
SERVER_ID = 'cccccccc-0000-0000-0000-000000000003'
TYPE = {'id': 't1', 'name': 'alpha', 'extra_specs': {'driver_handles_share_servers': 'False'}}
DHSS_TYPE = {'id': 't2', 'name': 'dhss', 'extra_specs': {'driver_handles_share_servers': 'True'}}
POOLS = '/v2/scheduler-stats/pools?host=h%24&backend=alpha%24&pool=pool1%24'
ADMIN = {'id': 'p-admin', 'name': 'admin', 'roles': ['admin']}


def share_params(manage_options=None, **params):
    """A share task's parameters with ``manage`` (every option a share task has that
    the checks read)."""
    options = dict(export_path=EXPORT, host=POOL, protocol='nfs', share_type='alpha')
    options.update(manage_options or {})
    base = dict(name='legacy', state='present', manage=options, is_public=None,
                description=None, size=None, snapshot=None, share_network=None,
                availability_zone=None, scheduler_hints=None, mount_point_name=None,
                share_proto=None, share_type=None, restore=None, id=None)
    base.update(params)
    return base


def refused(check, *args):
    with pytest.raises(InvalidInput) as err:
        check(*args)
    return err.value.message


class TokenOf(object):
    """A client that knows only the project of its token."""

    def __init__(self, project):
        self.project = project

    def token_project(self):
        return self.project


# -- dhss ---------------------------------------------------------------------------------------

@pytest.mark.parametrize('value,on_servers', [
    ('True', True), (' true ', True), ('1', True), ('yes', True), ('ON', True),
    ('<is> True', True), (True, True), ('False', False), ('0', False), ('', False),
    (None, False)])
def test_dhss_reads_the_extra_spec_as_manila_does(value, on_servers):
    specs = {} if value is None else {'driver_handles_share_servers': value}
    assert dhss({'extra_specs': specs}) is on_servers
    if specs:
        assert dhss({'required_extra_specs': specs, 'extra_specs': {
            'driver_handles_share_servers': str(not on_servers)}}) is on_servers


def test_a_type_without_specs_has_no_share_servers():
    assert dhss({}) is False
    assert dhss({'required_extra_specs': None, 'extra_specs': None}) is False


# -- the input of a share manage, before any request ---------------------------------------------

def test_a_complete_manage_passes():
    assert manage.check_share_manage_input(share_params()) is None
    assert manage.check_share_manage_input(share_params({'is_public': True}, is_public=True)) is None


def test_manage_only_applies_with_state_present():
    assert refused(manage.check_share_manage_input, share_params(state='absent')) == (
        'manage only applies with state=present (got state=absent).')


def test_every_option_manila_takes_from_the_storage_is_named_in_order():
    message = refused(manage.check_share_manage_input, share_params(
        size=2, share_type='gold', availability_zone='nova', restore=True, snapshot=''))
    assert message.startswith("manage brings existing storage under Manila, which takes the "
                              "share's size, pool and network from it; size, availability_zone, "
                              "share_type, restore cannot be given with manage ")


@pytest.mark.parametrize('name,words', [
    (None, 'manage needs name: the name the managed share gets.'),
    ('', 'manage needs name: the name the managed share gets.'),
    ('11111111-2222-3333-4444-555555555555',
     'name: a managed share is not given a UUID-shaped name (11111111-2222-3333-4444-555555555555);'
     ' choose a name that is not a UUID.'),
])
def test_a_managed_share_needs_a_name_that_is_no_uuid(name, words):
    assert refused(manage.check_share_manage_input, share_params(name=name)) == words


@pytest.mark.parametrize('key', ['export_path', 'host', 'protocol'])
@pytest.mark.parametrize('value', ['', '  ', None])
def test_the_storage_options_must_not_be_empty(key, value):
    assert refused(manage.check_share_manage_input, share_params({key: value})) == (
        'manage.%s must not be empty.' % key)


def test_the_host_must_be_a_full_pool_name_and_the_protocol_one_manila_knows():
    assert refused(manage.check_share_manage_input, share_params({'host': 'h@alpha'})).startswith(
        'manage.host must be a full pool name "host@backend#pool"')
    assert refused(manage.check_share_manage_input, share_params({'protocol': 'nfs4'})).startswith(
        "manage.protocol: share_proto 'nfs4' is not a protocol Manila knows: ")
    assert manage.check_share_manage_input(share_params({'protocol': 'CIFS'})) is None


@pytest.mark.parametrize('inside,outside,disagree', [
    (True, False, True), (False, True, True), (True, True, False), (None, False, False),
    (False, None, False)])
def test_is_public_may_be_given_twice_only_alike(inside, outside, disagree):
    params = share_params({'is_public': inside}, is_public=outside)
    if disagree:
        assert refused(manage.check_share_manage_input, params) == (
            'manage.is_public and is_public disagree; give one of them.')
    else:
        manage.check_share_manage_input(params)


def test_a_share_task_runs_its_own_checks_first_then_those_of_manage_or_unmanage():
    seen = []
    manage.check_share_task(share_params(), seen.append)
    assert len(seen) == 1
    # the share's own checks come first: their refusal is the one reported
    with pytest.raises(ValueError):
        manage.check_share_task(share_params(state='absent'), lambda p: int('x'))
    assert refused(manage.check_share_task, share_params(state='absent'), seen.append).startswith(
        'manage only applies with state=present')
    unmanaged = share_params(state='unmanaged', manage=None, size=1, share_proto='nfs', restore=True,
                             availability_zone='nova')
    assert refused(manage.check_share_task, unmanaged, seen.append) == (
        'size, share_proto, restore cannot be given with state=unmanaged.')
    # neither manage nor unmanage: the share's own checks only
    manage.check_share_task(share_params(manage=None, size=1), seen.append)
    assert len(seen) == 4


def test_the_visibility_of_a_managed_share_is_manage_is_public_first():
    assert manage.manage_is_public(share_params({'is_public': False}, is_public=True)) is False
    assert manage.manage_is_public(share_params({'is_public': None}, is_public=True)) is True
    assert manage.manage_is_public(share_params()) is None


def test_what_manage_says_of_an_existing_share():
    assert manage.desired_fields(share_params(manage=None)) == {}
    assert manage.desired_fields(share_params({'share_type': None, 'is_public': False})) == {
        'share_proto': 'nfs', 'share_type': None, 'is_public': False}


# -- the input of a snapshot manage and of an unmanage ----------------------------------------------

def snapshot_params(**params):
    base = dict(state='present', id=None, share='legacy', name='nightly',
                manage={'provider_location': '/path/to/snapshot_1'})
    base.update(params)
    return base


@pytest.mark.parametrize('params,words', [
    (dict(state='absent'), 'manage only applies with state=present (got state=absent).'),
    (dict(id='s1'), 'manage cannot be given with id: a managed snapshot gets its ID from '
                    'Manila (give share and name).'),
    (dict(share=None), 'manage needs share (the share the snapshot belongs to, already in '
                       'Manila) and name (the name the managed snapshot gets).'),
    (dict(name=''), 'manage needs share (the share the snapshot belongs to, already in '
                    'Manila) and name (the name the managed snapshot gets).'),
    (dict(manage={'provider_location': ' '}), 'manage.provider_location must not be empty.'),
    (dict(manage={'provider_location': None}), 'manage.provider_location must not be empty.'),
])
def test_a_snapshot_manage_is_refused_in_these_words(params, words):
    assert refused(manage.check_snapshot_manage_input, snapshot_params(**params)) == words


def test_a_complete_snapshot_manage_passes():
    assert manage.check_snapshot_manage_input(snapshot_params()) is None


def test_an_unmanage_names_the_options_given_in_their_order():
    options = ('size', 'share_proto', 'snapshot')
    assert manage.check_unmanage_input({'size': None, 'snapshot': '', 'share_proto': None},
                                       options) is None
    assert refused(manage.check_unmanage_input, {'snapshot': 's', 'size': 1}, options) == (
        'size, snapshot cannot be given with state=unmanaged.')


# -- the project a managed share or snapshot lands in -----------------------------------------------

def test_a_project_is_named_with_its_id():
    assert manage.project_words(ADMIN) == 'project admin (p-admin)'
    assert manage.project_words({'id': 'p-admin'}) == 'project p-admin'


@pytest.mark.parametrize('expected', [None, '', 'admin', 'p-admin', ' admin '])
def test_a_manage_in_the_tokens_project_or_without_one_asked_for_returns_it(expected):
    assert manage.check_share_manage_project(TokenOf(ADMIN), expected) == ADMIN


def test_a_manage_from_a_session_that_cannot_name_its_project_is_not_refused():
    assert manage.check_share_manage_project(TokenOf(None), 'demo') is None


def test_a_manage_into_another_project_than_the_tokens_is_refused():
    assert refused(manage.check_share_manage_project, TokenOf(ADMIN), 'demo') == (
        "manage.project is demo, but this task's token is scoped to project admin (p-admin), and "
        "Manila puts a managed share in the project of the token that manages it: the share would "
        "land in project admin (p-admin). Run the task with an admin's credentials scoped to "
        "project demo (a cloud whose auth names that project, with the admin role in it).")


@pytest.mark.parametrize('own,share', [
    (None, {'id': 's1', 'name': 'legacy', 'project_id': 'p-member'}),
    (ADMIN, {'id': 's1', 'name': 'legacy'}),
    (ADMIN, {'id': 's1', 'name': 'legacy', 'project_id': 'p-admin'}),
])
def test_a_snapshot_manage_on_a_share_of_the_tokens_project_or_of_none_known_passes(own, share):
    assert manage.check_snapshot_manage_project(TokenOf(own), share) is None


def test_a_snapshot_manage_on_a_share_of_another_project_is_refused():
    share = {'id': 's1', 'name': 'legacy', 'project_id': 'p-member'}
    assert refused(manage.check_snapshot_manage_project, TokenOf(ADMIN), share) == (
        "Share legacy (s1) is in project p-member, but this task's token is scoped to project "
        "admin (p-admin): Manila puts a managed snapshot in the project of the token that manages "
        "it, where the share's project could neither see nor delete it. Run the task with an "
        "admin's credentials scoped to project p-member (a cloud whose auth names that project, "
        "with the admin role in it).")


# -- the pool, the type and the server a manage names ----------------------------------------------

def test_the_pool_is_looked_up_by_its_exact_name():
    client, session = make_client([expect('GET', POOLS, ok({'pools': [{'name': POOL}]}))])
    assert manage.require_pool(client, POOL) == {'name': POOL}
    assert session.requests() == ['GET /', 'GET ' + POOLS]


def test_an_unknown_pool_is_refused_naming_the_option():
    client, _session = make_client([
        expect('GET', POOLS, ok({'pools': []})),
        expect('GET', '/v2/scheduler-stats/pools', ok({'pools': [{'name': 'h@beta#pool2'}]})),
    ])
    assert refused(manage.require_pool, client, POOL) == (
        'manage.host: no pool named h@alpha#pool1 is known to the scheduler. Pools: h@beta#pool2.')


def test_a_member_is_refused_at_the_pool_listing_as_no_admin():
    client, _session = make_client([expect('GET', POOLS, ScriptedResponse(403, {'forbidden': {
        'code': 403, 'message': 'Policy does not allow it.'}}, headers={'x-openstack-request-id': 'req-9'}))])
    with pytest.raises(manage.AdminRequired) as err:
        manage.require_pool(client, POOL)
    assert err.value.message == (
        "Managing a share is admin-only under Manila's default policy, and Manila does not take "
        "this task's user for an admin: it may not list the scheduler's pools (Listing the "
        "scheduler's pools is admin-only by default (Manila said: Policy does not allow it.)). "
        "Run the task with an admin's credentials (for example cloud: admin).")
    assert (err.value.status, err.value.request_id) == (403, 'req-9')


@pytest.mark.parametrize('answer,error', [
    (GONE, NotFound),
    (ScriptedResponse(400, {'badRequest': {'code': 400, 'message': 'bad filter'}}), ManilaError),
])
def test_another_error_of_the_pool_listing_stays_as_it_is(answer, error):
    client, _session = make_client([expect('GET', POOLS, answer)])
    with pytest.raises(error) as err:
        manage.require_pool(client, POOL)
    assert not isinstance(err.value, manage.AdminRequired)
    assert err.value.status == answer.status_code


def test_a_named_share_type_is_looked_up_and_a_missing_one_named_as_the_option():
    client, session = make_client([
        expect('GET', '/v2/types?is_public=all', ok({'share_types': [TYPE, DHSS_TYPE]})),
        expect('GET', '/v2/types?is_public=all', ok({'share_types': [DHSS_TYPE]})),
    ])
    assert manage.manage_share_type(client, 'alpha') == TYPE
    assert refused(manage.manage_share_type, client, 'alpha') == (
        "manage.share_type: no share type with the name or ID 'alpha' exists (or this user "
        "cannot see it).")
    assert session.writes() == []


@pytest.mark.parametrize('name', [None, ''])
def test_without_a_share_type_the_default_type_is_taken(name):
    client, _session = make_client([expect('GET', '/v2/types/default', ok({'share_type': TYPE}))])
    assert manage.manage_share_type(client, name) == TYPE


@pytest.mark.parametrize('answer', [GONE, ok({'share_type': {}}), ok({})])
def test_a_cloud_without_a_default_type_needs_manage_share_type(answer):
    client, _session = make_client([expect('GET', '/v2/types/default', answer)])
    assert refused(manage.manage_share_type, client, None) == (
        'This cloud has no default share type: set manage.share_type (the type of the share '
        'on that storage).')


def test_a_type_without_share_servers_takes_no_server_and_asks_nothing():
    client, session = make_client([])
    assert manage.check_share_server(client, TYPE, None) is None
    assert refused(manage.check_share_server, client, TYPE, SERVER_ID) == (
        'manage.share_server_id cannot be given: Share type alpha has driver_handles_share_servers'
        '=false (its shares live on no share server).')
    assert session.requests() == ['GET /']


def test_a_type_with_share_servers_needs_one():
    client, _session = make_client([])
    assert refused(manage.check_share_server, client, DHSS_TYPE, None) == (
        'manage.share_server_id is required: Share type dhss has driver_handles_share_servers=true, '
        'so the share lives on a share server.')
    assert refused(manage.check_share_server, client, {'id': 't3', 'extra_specs': {
        'driver_handles_share_servers': 'true'}}, '').startswith(
        'manage.share_server_id is required: Share type t3 has')


def test_the_share_server_is_read_and_must_be_active():
    server = '/v2/share-servers/' + SERVER_ID
    client, session = make_client([
        expect('GET', server, ok({'share_server': {'id': SERVER_ID, 'status': 'active'}})),
        expect('GET', server, ok({'share_server': {'id': SERVER_ID, 'status': 'error'}})),
        expect('GET', server, ok({})),
        expect('GET', server, GONE),
    ])
    assert manage.check_share_server(client, DHSS_TYPE, SERVER_ID) is None
    assert refused(manage.check_share_server, client, DHSS_TYPE, SERVER_ID) == (
        'manage.share_server_id: share server %s is error, not active.' % SERVER_ID)
    assert refused(manage.check_share_server, client, DHSS_TYPE, SERVER_ID) == (
        'manage.share_server_id: share server %s is None, not active.' % SERVER_ID)
    assert refused(manage.check_share_server, client, DHSS_TYPE, SERVER_ID) == (
        'manage.share_server_id: no share server %s exists.' % SERVER_ID)
    assert session.writes() == []


def test_a_share_server_below_2_49_is_refused_before_it_is_read():
    client, session = make_client([], max_version='2.48')
    with pytest.raises(UnsupportedFeature) as err:
        manage.check_share_server(client, DHSS_TYPE, SERVER_ID)
    assert str(err.value).startswith('Managing a share on a share server needs Manila API 2.49')
    assert session.requests() == ['GET /']


# -- the body of a manage and the share it will make ------------------------------------------------

def test_the_body_of_a_manage_has_only_what_the_task_gives():
    body = manage.manage_body(share_params({'export_path': ' %s ' % EXPORT}), TYPE)
    assert body == {'export_path': EXPORT, 'service_host': POOL, 'protocol': 'NFS',
                    'share_type': 't1', 'name': 'legacy', 'driver_options': {}}


def test_the_body_of_a_manage_with_every_option():
    params = share_params({'driver_options': {'opt': '1'}, 'share_server_id': SERVER_ID,
                           'is_public': False}, description='', is_public=None)
    assert manage.manage_body(params, DHSS_TYPE) == {
        'export_path': EXPORT, 'service_host': POOL, 'protocol': 'NFS', 'share_type': 't2',
        'name': 'legacy', 'driver_options': {'opt': '1'}, 'description': '', 'is_public': False,
        'share_server_id': SERVER_ID}
    assert manage.manage_body(share_params(is_public=True), TYPE)['is_public'] is True


def test_the_predicted_share_is_available_in_the_tokens_project():
    body = manage.manage_body(share_params(), TYPE)
    predicted = {'name': 'legacy', 'share_proto': 'NFS', 'share_type': 't1',
                 'share_type_name': 'alpha', 'host': POOL, 'export_path': EXPORT,
                 'status': 'available'}
    assert manage.predicted_share(body, TYPE) == predicted
    assert manage.predicted_share(body, TYPE, ADMIN) == dict(predicted, project_id='p-admin')
    assert manage.predicted_share(body, {'id': 't1'})['share_type_name'] is None


def test_the_view_of_a_released_resource():
    assert manage.task_view({'id': 's1', 'name': 'legacy', 'status': 'available', 'size': 1,
                             'host': POOL, 'metadata': {}}) == {
        'id': 's1', 'name': 'legacy', 'status': 'available', 'size': 1, 'host': POOL}
    assert manage.task_view({'id': 's1'}) == {'id': 's1', 'name': None, 'status': None,
                                              'size': None, 'host': None}
