# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Share types converge, and a refusal leaves no half change (issue 21).

Extra specs compared as Manila stores and reads them, Manila's spec rules
checked before any write, projects resolved through Keystone and sent as
Keystone has their IDs, and a type in use explained.  The exchanges with
Keystone and Manila are scripted; the integration target share_type shows
the same against the real cloud.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from keystoneauth1 import exceptions as ksa_exc

from ansible_collections.openkeel.manila.plugins.module_utils import connection
from ansible_collections.openkeel.manila.plugins.module_utils import share_types as st
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    ConfigurationError,
    InvalidInput,
    ManilaError,
    NotFound,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    FakeClock,
    ScriptedResponse,
    expect,
    make_client,
)

PUBLIC = 'share_type_access:is_public'
DHSS = 'driver_handles_share_servers'
KEYSTONE = 'http://127.0.0.1:5000/v3'
TYPE_PATH = '/v2/types/tid'
# A project whose ID Keystone keeps with dashes, and the same ID without them.
DASHED = '5e1f7b1c-2a3d-4e5f-8a9b-0c1d2e3f4a5b'
PLAIN = DASHED.replace('-', '')


def stype(**fields):
    base = {'id': 'tid', 'name': 'gold', 'description': None, PUBLIC: True,
            'extra_specs': {DHSS: 'False'}}
    base.update(fields)
    return base


def ok(body):
    return ScriptedResponse(200, body)


def keystone(path, answer):
    """An exchange with Keystone: no Manila version header."""
    return expect('GET', KEYSTONE + path, answer, version=None)


def keystone_404():
    return ScriptedResponse(404, {'error': {'code': 404, 'title': 'Not Found',
                                            'message': 'Could not find project.'}})


def keystone_client(exchanges, **kwargs):
    client, session = make_client(exchanges, **kwargs)
    client.identity_url = KEYSTONE
    return client, session


# -- item 1: availability_zones as Manila stores them (sanitize_csv) -------------------------

def test_availability_zones_are_sent_as_manila_stores_them():
    assert st.prepare_extra_specs({'availability_zones': ' az1, az2 ,az3'}, None) == {
        'availability_zones': 'az1,az2,az3'}
    assert st.sanitize_csv('az1 , az2') == 'az1,az2' and st.sanitize_csv('') == ''


@pytest.mark.parametrize('stored', ['az1,az2', 'az1, az2'])
def test_a_second_run_with_spaced_zones_changes_nothing(stored):
    # Manila 23 stores 'az1,az2'; older releases kept the spaces.
    current = stype(extra_specs={DHSS: 'False', 'availability_zones': stored})
    specs = st.prepare_extra_specs({'availability_zones': 'az1, az2'}, None)
    plan = st.plan_update(current, specs)
    assert plan.action == st.NOTHING and plan.specs_set == {}
    assert st.same_spec_value(stored, 'az2, az1', 'availability_zones') is False
    # Only availability_zones is a list of names: other values compare exactly.
    assert st.same_spec_value('a, b', 'a,b', 'share_backend_name') is False


def test_a_landed_zones_update_whose_answer_was_lost_is_seen_as_applied():
    client, session = make_client([
        expect('POST', TYPE_PATH + '/extra_specs', ksa_exc.ConnectFailure('Connection aborted.')),
        expect('GET', TYPE_PATH, ok({'share_type': stype(extra_specs={
            DHSS: 'False', 'availability_zones': 'az1,az2'})})),
    ], clock=FakeClock())
    st.ShareTypeAPI(client).set_specs('tid', {'availability_zones': 'az1, az2'})
    assert len(session.writes()) == 1 and client.warnings


# -- item 5: '<is> True' equals true, as in Manila's boolean specs ---------------------------

@pytest.mark.parametrize('stored,wanted', [
    ('<is> True', True), ('<is> False', 'false'), ('True', '<is> True'),
    ('true', '<IS>true'),
])
def test_is_booleans_are_not_rewritten(stored, wanted):
    current = stype(extra_specs={DHSS: 'False', 'snapshot_support': stored,
                                 'capabilities:dedupe': stored})
    specs = st.prepare_extra_specs({'snapshot_support': wanted, 'capabilities:dedupe': wanted},
                                   False)
    assert st.plan_update(current, specs).action == st.NOTHING


def test_is_booleans_that_differ_are_changed():
    current = stype(extra_specs={DHSS: 'False', 'snapshot_support': '<is> True'})
    plan = st.plan_update(current, st.prepare_extra_specs({'snapshot_support': False}, None))
    assert plan.specs_set == {'snapshot_support': 'False'}


# -- item 8: Manila's rules for its standard specs, before any write -------------------------

@pytest.mark.parametrize('key,value,allowed', [
    (DHSS, '<is> True', 'true or false'),
    (DHSS, 'maybe', 'true or false'),
    ('snapshot_support', 'maybe', '"<is> True"'),
    ('create_share_from_snapshot_support', 'sure', 'true or false'),
    ('revert_to_snapshot_support', '<is> yes', 'true or false'),
    ('mount_snapshot_support', '2', 'true or false'),
    ('mount_point_name_support', 'x', 'true or false'),
    ('snapshot_inherit_share_access_support', 'x', 'true or false'),
    ('replication_type', 'sync', 'writable, readable, dr'),
    ('replication_type', 'Writable', 'writable, readable, dr'),
    ('encryption_support', 'disk', 'share, share_server'),
    ('availability_zones', 'az1,,az2', 'none of them empty'),
    ('availability_zones', 'az1, ', 'none of them empty'),
    ('provisioning:max_share_size', '0', '1 or more'),
    ('provisioning:min_share_size', -2, '1 or more'),
    ('provisioning:max_share_extend_size', '1.5', 'whole number'),
    ('provisioning:max_share_size', 'ten', 'whole number'),
])
def test_a_spec_manila_refuses_is_named_with_the_values_it_takes(key, value, allowed):
    with pytest.raises(InvalidInput) as err:
        st.prepare_extra_specs({key: value}, None)
    message = str(err.value)
    assert message.startswith('Invalid share type settings, nothing was changed: ')
    assert ('extra spec %s must be' % key) in message and allowed in message
    assert repr(str(value)) in message


def test_every_bad_spec_is_named_at_once():
    with pytest.raises(InvalidInput) as err:
        st.prepare_extra_specs({'snapshot_support': 'x', 'replication_type': 'y'}, True)
    assert 'snapshot_support' in str(err.value) and 'replication_type' in str(err.value)


@pytest.mark.parametrize('key,value', [
    (DHSS, 'yes'), (DHSS, ' 0 '), ('snapshot_support', '<is> True'),
    ('snapshot_support', True), ('mount_snapshot_support', 'off'),
    ('replication_type', 'dr'), ('encryption_support', 'share_server'),
    ('availability_zones', 'az1'), ('provisioning:max_share_size', 10),
    ('provisioning:min_share_size', '1'), ('share_backend_name', 'anything'),
    ('capabilities:thin_provisioning', '<is> maybe'),
])
def test_values_manila_takes_pass(key, value):
    assert key in st.prepare_extra_specs({key: value}, None)


# -- item 3: projects through Keystone, sent as Keystone has their IDs -----------------------

def test_a_project_name_is_granted_under_its_keystone_id():
    client, session = keystone_client([
        keystone('/projects?name=research', ok({'projects': [
            {'id': DASHED, 'name': 'research', 'domain_id': 'default'}]})),
    ])
    assert st.ShareTypeAPI(client).resolve_projects(['research']) == [DASHED]
    assert len(session.calls) == 2  # the versions document, then one Keystone request


def test_an_id_with_dashes_is_sent_with_them():
    client, session = keystone_client([
        keystone('/projects/' + DASHED, ok({'project': {'id': DASHED, 'name': 'research'}})),
        expect('POST', TYPE_PATH + '/action', ScriptedResponse(202),
               body={'addProjectAccess': {'project': DASHED}}),
    ])
    api = st.ShareTypeAPI(client)
    private = stype(**{PUBLIC: False})
    plan = st.plan_update(private, {}, projects=api.resolve_projects([DASHED]),
                          current_projects=[])
    api.apply(private, plan)
    assert plan.after['projects'] == [DASHED]


def test_an_entry_spelt_unlike_keystone_is_repaired():
    # The type holds the ID without dashes (an older run sent it so; Manila
    # keeps any string) and Keystone has it with dashes: the task that names
    # the project gets the right entry granted and the wrong one revoked.
    client, session = keystone_client([
        keystone('/projects?name=research', ok({'projects': [{'id': DASHED, 'name': 'research'}]})),
        expect('POST', TYPE_PATH + '/action', ScriptedResponse(202),
               body={'addProjectAccess': {'project': DASHED}}),
        expect('POST', TYPE_PATH + '/action', ScriptedResponse(202),
               body={'removeProjectAccess': {'project': PLAIN}}),
    ])
    api = st.ShareTypeAPI(client)
    private = stype(**{PUBLIC: False})
    projects = api.resolve_projects(['research'], known=[PLAIN])
    plan = st.plan_update(private, {}, projects=projects, current_projects=[PLAIN])
    assert (plan.grant, plan.revoke) == ([DASHED], [PLAIN])
    api.apply(private, plan)


def test_an_id_without_its_dashes_is_sent_as_keystone_has_it():
    client, session = keystone_client([
        keystone('/projects/' + PLAIN, keystone_404()),
        keystone('/projects/' + DASHED, ok({'project': {'id': DASHED}})),
    ])
    assert st.ShareTypeAPI(client).resolve_projects([PLAIN]) == [DASHED]


def test_projects_already_on_the_type_under_their_exact_id_cost_nothing():
    client, session = keystone_client([])
    assert st.ShareTypeAPI(client).resolve_projects([PLAIN, 'p2'], known=[PLAIN, 'p2']) == [
        PLAIN, 'p2']
    assert len(session.calls) == 1  # the versions document only


def test_a_name_shaped_like_an_id_is_looked_up_by_name_last():
    client, session = keystone_client([
        keystone('/projects/' + DASHED, keystone_404()),
        keystone('/projects/' + PLAIN, keystone_404()),
        keystone('/projects?name=' + DASHED, ok({'projects': [{'id': 'x1', 'name': DASHED}]})),
    ])
    assert st.ShareTypeAPI(client).resolve_projects([DASHED]) == ['x1']


def test_an_id_that_is_not_uuid_shaped_is_tried_after_the_name():
    client, session = keystone_client([
        keystone('/projects?name=admin-project', ok({'projects': []})),
        keystone('/projects/admin-project', ok({'project': {'id': 'admin-project'}})),
    ])
    assert st.ShareTypeAPI(client).resolve_projects(['admin-project']) == ['admin-project']


def test_an_unknown_or_ambiguous_project_fails_before_any_write():
    client, session = keystone_client([
        keystone('/projects?name=nobody', ok({'projects': []})),
        keystone('/projects/nobody', keystone_404()),
    ])
    with pytest.raises(InvalidInput) as err:
        st.ShareTypeAPI(client).resolve_projects(['nobody'])
    assert str(err.value).startswith("projects: Keystone has no project with the name or ID "
                                     "'nobody'")
    client, session = keystone_client([
        keystone('/projects?name=ops', ok({'projects': [
            {'id': 'p2', 'name': 'ops', 'domain_id': 'd2'},
            {'id': 'p1', 'name': 'ops', 'domain_id': 'd1'}]})),
    ])
    with pytest.raises(InvalidInput) as err:
        st.ShareTypeAPI(client).resolve_projects(['ops'])
    assert str(err.value) == ("projects: 2 Keystone projects are named 'ops' (IDs: p1 in "
                              "domain d1, p2 in domain d2); give the ID of the one meant.")
    assert session.writes() == []


def test_keystone_refusing_a_lookup_says_so():
    client, session = keystone_client([
        keystone('/projects?name=ops', ScriptedResponse(403, {'error': {
            'code': 403, 'message': 'You are not authorized.'}})),
    ])
    with pytest.raises(ManilaError) as err:
        st.ShareTypeAPI(client).resolve_projects(['ops'])
    assert err.value.status == 403 and err.value.message.startswith(
        "projects: Keystone does not let this user look up project 'ops' (Keystone said: You "
        "are not authorized.)")


def test_a_case_insensitive_name_match_is_taken_only_without_an_exact_one():
    client, session = keystone_client([
        keystone('/projects?name=Ops', ok({'projects': [
            {'id': 'p1', 'name': 'ops'}, {'id': 'p2', 'name': 'Ops'}]})),
        keystone('/projects?name=OPS', ok({'projects': [{'id': 'p1', 'name': 'ops'}]})),
    ])
    api = st.ShareTypeAPI(client)
    assert api.resolve_projects(['Ops']) == ['p2'] and api.resolve_projects(['OPS']) == ['p1']


def test_keystone_get_needs_an_identity_endpoint_and_maps_errors():
    client, session = make_client([
        keystone('/projects/x', keystone_404()),
    ])
    with pytest.raises(ConfigurationError) as err:
        client.keystone_get('projects/x')
    assert 'No Keystone endpoint is known' in str(err.value)
    asked = []
    client.identity_url = lambda: asked.append(1) or KEYSTONE + '/'
    with pytest.raises(NotFound) as err:
        client.keystone_get('projects/x')
    assert err.value.message == 'Could not find project.' and client.identity_url == KEYSTONE + '/'
    assert asked == [1]


@pytest.mark.parametrize('url,v3', [
    ('http://k:5000/v3', 'http://k:5000/v3'), ('http://k:5000/v3/', 'http://k:5000/v3'),
    ('http://k:5000', 'http://k:5000/v3'), ('https://h/identity', 'https://h/identity/v3'),
    ('https://h/identity/v2.0', 'https://h/identity/v3'), ('http://k/v3.14', 'http://k/v3'),
])
def test_keystone_v3_url(url, v3):
    assert connection.keystone_v3_url(url) == v3


class _Access(object):
    def __init__(self, catalog):
        self.service_catalog = type('Catalog', (), {'catalog': catalog})()


class _Auth(object):
    auth_url = 'http://auth:5000'

    def __init__(self, catalog):
        self.catalog = catalog

    def get_access(self, session):
        return _Access(self.catalog)


class _Region(object):
    def __init__(self, region):
        self.region = region

    def get_region_name(self, service_type):
        assert service_type == 'identity'
        return self.region


def _identity(*endpoints):
    return {'type': 'identity', 'endpoints': [
        {'interface': i, 'region_id': r, 'url': u} for i, r, u in endpoints]}


def test_identity_url_from_the_catalog_or_the_auth_url():
    session = type('S', (), {})()
    session.auth = _Auth([_identity(('public', 'r1', 'http://k1/v3'),
                                    ('public', 'r2', 'http://k2'),
                                    ('internal', 'r2', 'http://k3'))])
    assert connection.identity_url(session, _Region('r2'), 'public') == 'http://k2/v3'
    assert connection.identity_url(session, _Region('r9'), 'public') == 'http://k1/v3'
    assert connection.identity_url(session, _Region(None), 'internal') == 'http://k3/v3'
    assert connection.identity_url(session, _Region(None), 'admin') == 'http://auth:5000/v3'
    session.auth = _Auth([])
    session.auth.auth_url = None
    assert connection.identity_url(session, _Region(None), 'public') is None


# -- item 11: a type held by the recycle bin or a share group type ---------------------------

IN_USE = ScriptedResponse(400, {'badRequest': {
    'code': 400, 'message': 'Target share type is still in use.'}})
BINNED_QUERY = '/v2/shares?share_type_id=tid&all_tenants=1&limit=10&is_soft_deleted=true'


def test_a_type_held_by_a_share_in_the_recycle_bin_says_so():
    client, session = make_client([
        expect('DELETE', TYPE_PATH, IN_USE),
        expect('GET', BINNED_QUERY, ok({'shares': [{'id': 's1', 'name': 'old'}]})),
    ])
    with pytest.raises(CannotConverge) as err:
        st.ShareTypeAPI(client).delete('tid', stype())
    message = str(err.value)
    assert message.startswith('Share type gold (tid) is still in use, and Manila deletes no '
                              'type in use (Manila said: Target share type is still in use.)')
    assert 'shares in the recycle bin hold it: old (s1).' in message
    assert err.value.status == 400 and len(session.writes()) == 1


def test_a_type_held_by_no_share_names_share_group_types():
    client, session = make_client([
        expect('DELETE', TYPE_PATH, IN_USE),
        expect('GET', BINNED_QUERY, ok({'shares': []})),
    ])
    with pytest.raises(CannotConverge) as err:
        st.ShareTypeAPI(client).delete('tid')
    assert 'share group type' in str(err.value) and 'recycle bin' in str(err.value)
    assert str(err.value).startswith('Share type tid is still in use')


def test_below_the_recycle_bin_api_nothing_is_looked_up():
    client, session = make_client([expect('DELETE', TYPE_PATH, IN_USE)], cap='2.68')
    with pytest.raises(CannotConverge) as err:
        st.ShareTypeAPI(client).delete('tid', stype())
    assert 'API 2.68 cannot list the recycle bin' in str(err.value)
    assert 'share group type' in str(err.value)


def test_other_refusals_of_a_delete_stay_as_they_are():
    client, session = make_client([
        expect('DELETE', TYPE_PATH, ScriptedResponse(400, {'badRequest': {
            'code': 400, 'message': 'Something else.'}})),
    ])
    with pytest.raises(ManilaError) as err:
        st.ShareTypeAPI(client).delete('tid', stype())
    assert not isinstance(err.value, CannotConverge) and err.value.message == 'Something else.'
