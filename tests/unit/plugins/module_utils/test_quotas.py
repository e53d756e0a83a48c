# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The quota plan, the usage check and the fleet preflight (pure functions),
table-driven; the quota calls on scripted HTTP."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import quotas as q
from ansible_collections.openkeel.manila.plugins.module_utils import resource
from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    expect,
    make_client,
)

PROJECT = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'


def detail(limit, in_use=0, reserved=0):
    return {'limit': limit, 'in_use': in_use, 'reserved': reserved}


# -- plan_present: (actual, desired) -> (action, body, before, after) -----------------
PRESENT = [
    ('nothing differs', {'shares': 10, 'gigabytes': 100}, {'shares': 10},
     q.NOTHING, {}, {'shares': 10}, {'shares': 10}),
    ('one of two differs', {'shares': 10, 'gigabytes': 100}, {'shares': 10, 'gigabytes': 200},
     q.UPDATE, {'gigabytes': 200}, {'shares': 10, 'gigabytes': 100},
     {'shares': 10, 'gigabytes': 200}),
    ('unlimited is a value', {'shares': 10}, {'shares': -1},
     q.UPDATE, {'shares': -1}, {'shares': 10}, {'shares': -1}),
    ('a name the server did not show', {'shares': 10}, {'backups': 5},
     q.UPDATE, {'backups': 5}, {'backups': None}, {'backups': 5}),
    ('zero is not unset', {'snapshots': 0}, {'snapshots': 0},
     q.NOTHING, {}, {'snapshots': 0}, {'snapshots': 0}),
]


@pytest.mark.parametrize('case,actual,desired,action,body,before,after', PRESENT,
                         ids=[c[0] for c in PRESENT])
def test_plan_present(case, actual, desired, action, body, before, after):
    plan = q.plan_present(actual, desired)
    assert (plan.action, plan.body, plan.before, plan.after) == (action, body, before, after)
    assert plan.changed is (action != q.NOTHING)


# -- plan_absent: (actual, reference) -> (action, before, after) -----------------------
ABSENT = [
    ('already the defaults', {'shares': 50, 'gigabytes': 1000},
     {'shares': 50, 'gigabytes': 1000}, q.NOTHING,
     {'shares': 50, 'gigabytes': 1000}, {'shares': 50, 'gigabytes': 1000}),
    ('one differs', {'shares': 10, 'gigabytes': 1000}, {'shares': 50, 'gigabytes': 1000},
     q.RESET, {'shares': 10, 'gigabytes': 1000}, {'shares': 50, 'gigabytes': 1000}),
    ('names only one side shows are left out', {'shares': 10, 'backups': 3}, {'shares': 10},
     q.NOTHING, {'shares': 10}, {'shares': 10}),
]


@pytest.mark.parametrize('case,actual,reference,action,before,after', ABSENT,
                         ids=[c[0] for c in ABSENT])
def test_plan_absent(case, actual, reference, action, before, after):
    plan = q.plan_absent(actual, reference)
    assert (plan.action, plan.before, plan.after) == (action, before, after)


@pytest.mark.parametrize('planner,actual,other,action', [
    (q.plan_present, row[1], row[2], row[3]) for row in PRESENT] + [
    (q.plan_absent, row[1], row[2], row[3]) for row in ABSENT],
    ids=['present: ' + row[0] for row in PRESENT] + ['absent: ' + row[0] for row in ABSENT])
def test_quota_plan_shape(planner, actual, other, action):
    """The plan shape (resource.Plan): ``changed`` is ``action != NOTHING``."""
    plan = planner(actual, other)
    assert isinstance(plan, resource.Plan) and plan.action == action
    assert plan.changed is (plan.action != resource.NOTHING)
    assert plan.changed is (action in (q.UPDATE, q.RESET))


# -- below_use: what Manila refuses without force --------------------------------------
BELOW = [
    ('under use', {'shares': 2}, {'shares': detail(10, 3, 1)}, [('shares', 2, 4)]),
    ('equal to use is fine', {'shares': 4}, {'shares': detail(10, 3, 1)}, []),
    ('unlimited is fine', {'shares': -1}, {'shares': detail(10, 30)}, []),
    ('Manila does not check where the limit is -1', {'shares': 1},
     {'shares': detail(-1, 30)}, []),
    ('several, in Manila\'s order', {'gigabytes': 5, 'shares': 0},
     {'shares': detail(10, 1), 'gigabytes': detail(100, 10)},
     [('shares', 0, 1), ('gigabytes', 5, 10)]),
]


@pytest.mark.parametrize('case,body,details,found', BELOW, ids=[c[0] for c in BELOW])
def test_below_use(case, body, details, found):
    assert q.below_use(q.QuotaPlan(q.UPDATE, body=body), details) == found


def test_below_use_message_names_the_numbers_and_force():
    text = q.below_use_message(q.Scope(project_id=PROJECT), [('shares', 2, 4)])
    assert text.startswith('Project %s uses more' % PROJECT)
    assert 'shares 4 in use and reserved, 2 asked' in text and 'force=true' in text


# -- validation and gates ---------------------------------------------------------------
BAD = [
    ({'volumes': 1}, {}, "'volumes' is not a Manila quota"),
    ({'shares': -2}, {}, 'quotas.shares must be a whole number'),
    ({'shares': 'ten'}, {}, 'quotas.shares must be a whole number'),
    ({'shares': True}, {}, 'quotas.shares must be a whole number'),
    ({'shares': '2.5'}, {}, 'quotas.shares must be a whole number'),
    ({'shares': 2.0}, {}, 'quotas.shares must be a whole number'),
    ({'share_networks': 1}, {'share_type': 'gold'}, 'quotas.share_networks cannot be set'),
    ({'share_groups': 1}, {'share_type': 'gold'}, 'quotas.share_groups cannot be set'),
]


@pytest.mark.parametrize('quotas,scope,message', BAD)
def test_validation(quotas, scope, message):
    with pytest.raises(InvalidInput) as err:
        q.validate(quotas, q.Scope(**scope))
    assert message in str(err.value) and 'nothing was changed' in str(err.value)


def test_valid_quotas_pass():
    assert q.validate({'shares': -1, 'gigabytes': 0, 'share_networks': 2}, q.Scope()) == {
        'shares': -1, 'gigabytes': 0, 'share_networks': 2}


def test_templated_numbers_are_whole_numbers():
    # before ansible-core 2.19 a template such as "{{ used + 1 }}" arrives as text
    assert q.validate({'shares': '3', 'gigabytes': '-1', 'snapshots': ' 7 '}, q.Scope()) == {
        'shares': 3, 'gigabytes': -1, 'snapshots': 7}


# name -> the version that brought it (None: always there)
GATES = [
    ('shares', None), ('gigabytes', None), ('snapshots', None), ('snapshot_gigabytes', None),
    ('share_networks', None), ('share_groups', '2.40'), ('share_group_snapshots', '2.40'),
    ('share_replicas', '2.53'), ('replica_gigabytes', '2.53'),
    ('per_share_gigabytes', '2.62'), ('backups', '2.80'), ('backup_gigabytes', '2.80'),
    ('encryption_keys', '2.90'),
]


def _before(version):
    major, minor = version.split('.')
    return '%s.%d' % (major, int(minor) - 1)


@pytest.mark.parametrize('name,version', GATES)
def test_each_quota_name_is_gated_at_its_version(name, version):
    """A capped server on both sides of each name's version."""
    assert sorted(n for n, _v in GATES) == sorted(q.QUOTA_NAMES)
    needed = q.required_features({name: 1}, q.Scope())
    if version is None:
        assert needed == []
        return
    (feature, what), = needed
    client, _session = make_client([], max_version=version)
    client.require(feature, what)
    client, _session = make_client([], max_version=_before(version))
    with pytest.raises(Exception) as err:
        client.require(feature, what)
    assert str(err.value) == 'The quota %s needs Manila API %s; this cloud offers %s.' % (
        name, version, _before(version))


def test_type_quotas_need_2_39():
    assert q.required_features({}, q.Scope(share_type='gold')) == [
        ('share_type_quotas', 'Quotas of a share type')]
    client, _session = make_client([], max_version='2.38')
    with pytest.raises(Exception) as err:
        client.require('share_type_quotas', 'Quotas of a share type')
    assert 'needs Manila API 2.39' in str(err.value)


# -- the fleet preflight ----------------------------------------------------------------
ROOMY = {'shares': detail(10, 2), 'gigabytes': detail(100, 20, 5),
         'per_share_gigabytes': detail(50)}
PREFLIGHT = [
    ('fits', ROOMY, {'shares': 8, 'gigabytes': 75, 'largest': 50}, None, None),
    ('nothing to add', ROOMY, {}, None, None),
    ('one share too many', ROOMY, {'shares': 9, 'gigabytes': 9}, None,
     ['The project: this run would need 9 shares more; it has room for 8 (limit 10)']),
    ('shares and gigabytes', ROOMY, {'shares': 9, 'gigabytes': 76}, None,
     ['9 shares and 76 gigabytes more; it has room for 8 (limit 10) and 75 (limit 100)']),
    ('per share gigabytes', ROOMY, {'shares': 1, 'gigabytes': 51, 'largest': 51}, None,
     ['a share of 51 GiB exceeds per_share_gigabytes 50']),
    ('unlimited', {'shares': detail(-1, 500), 'gigabytes': detail(-1),
                   'per_share_gigabytes': detail(-1)},
     {'shares': 900, 'gigabytes': 9000, 'largest': 900}, None, None),
    ('the type\'s quota', ROOMY,
     {'shares': 2, 'gigabytes': 2, 'per_type': {'gold': {'shares': 2, 'gigabytes': 2}}},
     {'gold': {'shares': detail(3, 2), 'gigabytes': detail(10)}},
     ['Share type gold: this run would need 2 shares more; it has room for 1 (limit 3)']),
    ('a type without details is not checked', ROOMY,
     {'shares': 2, 'gigabytes': 2, 'per_type': {'gold': {'shares': 2, 'gigabytes': 2}}},
     {}, None),
    ('reserved counts, use above the limit is no room', {'shares': detail(5, 6)},
     {'shares': 1}, None, ['need 1 shares more; it has room for 0 (limit 5)']),
]


@pytest.mark.parametrize('case,details,needs,types,found', PREFLIGHT,
                         ids=[c[0] for c in PREFLIGHT])
def test_fleet_preflight(case, details, needs, types, found):
    message = q.fleet_preflight(details, needs, types)
    if found is None:
        assert message is None
        return
    assert message.startswith('Over quota, nothing was changed: ')
    for text in found:
        assert text in message


def test_fleet_needs_counts_creates_and_growth_per_type():
    needs = q.fleet_needs([('gold', 10), (None, 5)], [('gold', 10, 30), ('silver', 8, 4)])
    assert needs == {'shares': 2, 'gigabytes': 35, 'largest': 30,
                     'per_type': {'gold': {'shares': 1, 'gigabytes': 30}}}


# -- the calls ---------------------------------------------------------------------------
def ok(body=None, status=200):
    return ScriptedResponse(status, body if body is not None else {})


def test_update_sends_force_and_the_type_in_the_query():
    client, session = make_client([
        expect('PUT', '/v2/quota-sets/%s?share_type=gold' % PROJECT,
               ok({'quota_set': {'shares': 1, 'gigabytes': 5}}),
               body={'quota_set': {'shares': 1, 'force': True}}),
    ])
    scope = q.Scope(project_id=PROJECT, share_type='gold')
    assert q.QuotaAPI(client).update(scope, {'shares': 1}, force=True) == {
        'shares': 1, 'gigabytes': 5}
    assert session.requests() == ['GET /', 'PUT /v2/quota-sets/%s?share_type=gold' % PROJECT]


def test_a_class_is_updated_without_force():
    client, _session = make_client([
        expect('PUT', '/v2/quota-class-sets/gold',
               ok({'quota_class_set': {'shares': 3}}),
               body={'quota_class_set': {'shares': 3}}),
    ])
    assert q.QuotaAPI(client).update(q.Scope(quota_class='gold'), {'shares': 3},
                                     force=True) == {'shares': 3}


def test_a_lost_reset_is_looked_up():
    client, session = make_client([
        expect('DELETE', '/v2/quota-sets/%s?user_id=u1' % PROJECT, ok(status=503)),
        expect('GET', '/v2/quota-sets/%s?user_id=u1' % PROJECT,
               ok({'quota_set': {'shares': 50}})),
    ])
    q.QuotaAPI(client).reset(q.Scope(project_id=PROJECT, user_id='u1'), {'shares': 50})
    assert len(session.writes()) == 1 and client.warnings


def test_details_and_limits_read_what_manila_shows():
    client, _session = make_client([
        expect('GET', '/v2/quota-sets/%s/detail' % PROJECT, ok({'quota_set': {
            'id': PROJECT, 'shares': detail(10, 1), 'gigabytes': detail(-1, 3, 2)}})),
        ('GET', '/v2/limits', ok({'limits': {'rate': [], 'absolute': {'maxTotalShares': 10}}})),
    ])
    api = q.QuotaAPI(client)
    assert api.details(q.Scope(project_id=PROJECT)) == {
        'shares': detail(10, 1), 'gigabytes': detail(-1, 3, 2)}
    assert api.absolute_limits() == {'maxTotalShares': 10}


class Access(object):
    project_id = PROJECT
    project_name = 'team'
    role_names = ['member']


class Auth(object):
    @staticmethod
    def get_access(session):
        return Access()


def test_fleet_check_reads_the_project_and_each_type():
    client, session = make_client([
        ('GET', '/v2/quota-sets/%s/detail' % PROJECT, ok({'quota_set': {
            'shares': detail(10, 9), 'gigabytes': detail(100)}})),
        ('GET', '/v2/quota-sets/%s/detail?share_type=gold' % PROJECT, ok({'quota_set': {
            'shares': detail(-1), 'gigabytes': detail(5)}})),
        ('GET', '/v2/quota-sets/%s/detail?share_type=gone' % PROJECT,
         ok({'itemNotFound': {'code': 404, 'message': 'no type'}}, status=404)),
    ])
    session.auth = Auth()
    message = q.QuotaAPI(client).fleet_check(q.fleet_needs([('gold', 10), ('gone', 1)], []))
    assert 'The project: this run would need 2 shares more; it has room for 1 (limit 10)' \
        in message
    assert 'Share type gold: this run would need 10 gigabytes more; it has room for 5' in message
    assert session.writes() == []


def test_fleet_check_is_skipped_when_quotas_cannot_be_read():
    client, session = make_client([
        ('GET', '/v2/quota-sets/%s/detail' % PROJECT,
         ok({'forbidden': {'code': 403, 'message': 'Policy does not allow'}}, status=403)),
    ])
    session.auth = Auth()
    assert q.QuotaAPI(client).fleet_check({'shares': 1, 'gigabytes': 1}) is None
    assert client.warnings[0].startswith('The quota preflight was skipped')


def test_fleet_check_reads_nothing_when_nothing_is_added():
    client, _session = make_client([])
    assert q.QuotaAPI(client).fleet_check({'shares': 0, 'gigabytes': 0}) is None


# -- what the tables above leave out ------------------------------------------------------
MORE_BELOW = [
    ('a limit of zero is checked like any other', {'shares': 1},
     {'shares': detail(0, 3)}, [('shares', 1, 3)]),
    ('zero asked of nothing in use is fine', {'shares': 0}, {'shares': detail(10)}, []),
    ('a name without details does not stop the others', {'shares': 1, 'gigabytes': 1},
     {'gigabytes': detail(100, 10)}, [('gigabytes', 1, 10)]),
]


@pytest.mark.parametrize('case,body,details,found', MORE_BELOW, ids=[c[0] for c in MORE_BELOW])
def test_below_use_more(case, body, details, found):
    assert q.below_use(q.QuotaPlan(q.UPDATE, body=body), details) == found


def test_below_use_message_in_full():
    text = q.below_use_message(q.Scope(project_id=PROJECT, user_id='u1'),
                               [('shares', 2, 4), ('gigabytes', 10, 30)])
    assert text == (
        'User u1 of project %s uses more than the task allows: shares 4 in use and reserved, '
        '2 asked, gigabytes 30 in use and reserved, 10 asked. Manila refuses a limit below '
        'what is used and reserved; nothing was changed. Free the resources first, or set '
        'force=true to set the limits anyway (Manila then refuses new resources until the '
        'use falls below the limit; nothing is deleted).' % PROJECT)


def test_details_without_use_or_reservations_count_zero():
    assert q.details_of({'shares': {'limit': 10}, 'gigabytes': 100}) == {'shares': detail(10)}


def test_limits_of_a_detail_set_are_the_limits():
    assert q.limits_of({'shares': detail(10, 2, 1), 'gigabytes': 100, 'backups': None}) == {
        'shares': 10, 'gigabytes': 100}


def test_fleet_needs_of_several_creates_of_one_type_and_growth_only():
    needs = q.fleet_needs([('gold', 10), ('gold', 20)],
                          [('gold', 5, 5), ('silver', 8, 4), ('silver', 4, 9)])
    assert needs == {'shares': 2, 'gigabytes': 35, 'largest': 20,
                     'per_type': {'gold': {'shares': 2, 'gigabytes': 30},
                                  'silver': {'shares': 0, 'gigabytes': 5}}}


def test_fleet_needs_of_nothing_but_shrinks_and_unchanged_sizes():
    assert q.fleet_needs([], [('gold', 8, 4), ('gold', 5, 5)]) == {
        'shares': 0, 'gigabytes': 0, 'largest': 0, 'per_type': {}}


FULL = {'shares': detail(10, 10), 'gigabytes': detail(100, 100)}
MORE_PREFLIGHT = [
    ('growth only, no share added', FULL, {'gigabytes': 0}, None, None),
    ('new shares of no size', dict(FULL, shares=detail(10)), {'shares': 1}, None, None),
    ('no growth, per_share_gigabytes 0', dict(FULL, per_share_gigabytes=detail(0)),
     {}, None, None),
    ('per_share_gigabytes 0 refuses any size', {'per_share_gigabytes': detail(0)},
     {'largest': 1}, None, ['a share of 1 GiB exceeds per_share_gigabytes 0']),
    ('a limit of zero has no room', {'shares': detail(0)}, {'shares': 1}, None,
     ['The project: this run would need 1 shares more; it has room for 0 (limit 0)']),
    ('a type\'s growth only', {}, {'per_type': {'gold': {'gigabytes': 5}}},
     {'gold': {'shares': detail(3, 3), 'gigabytes': detail(10)}}, None),
    ('a type\'s shares of no size', {}, {'per_type': {'gold': {'shares': 1}}},
     {'gold': {'shares': detail(3), 'gigabytes': detail(10, 10)}}, None),
]


@pytest.mark.parametrize('case,details,needs,types,found', MORE_PREFLIGHT,
                         ids=[c[0] for c in MORE_PREFLIGHT])
def test_fleet_preflight_more(case, details, needs, types, found):
    message = q.fleet_preflight(details, needs, types)
    if found is None:
        assert message is None
        return
    for text in found:
        assert text in message


def test_fleet_preflight_message_in_full():
    message = q.fleet_preflight(
        {'shares': detail(2, 1), 'per_share_gigabytes': detail(10)},
        {'shares': 2, 'gigabytes': 40, 'largest': 20,
         'per_type': {'gold': {'shares': 2, 'gigabytes': 40}}},
        {'gold': {'gigabytes': detail(30, 5)}})
    assert message == (
        'Over quota, nothing was changed: The project: this run would need 2 shares more; '
        'it has room for 1 (limit 2); a share of 20 GiB exceeds per_share_gigabytes 10; '
        'Share type gold: this run would need 40 gigabytes more; it has room for 25 '
        '(limit 30). Raise the quotas (openkeel.manila.share_quota, as an admin) or ask '
        'for fewer or smaller shares.')


# -- projects ------------------------------------------------------------------------------
IDENTITY = 'http://127.0.0.1:5000/v3/'


def keystone(path, answer):
    return expect('GET', IDENTITY + path, answer, version=None)


def test_the_own_project_by_name_or_id_asks_no_keystone():
    for value in ('team', PROJECT, None):
        client, session = make_client([])
        session.auth = Auth()
        assert q.resolve_project(client, value) == PROJECT
        assert session.requests() == ['GET /']


def test_a_project_name_in_several_domains_asks_for_the_id():
    client, session = make_client([
        keystone('projects?name=team-a', ok({'projects': [
            {'id': 'p2', 'name': 'team-a'}, {'id': 'p1', 'name': 'team-a'}]})),
    ])
    session.auth = Auth()
    client.identity_url = 'http://127.0.0.1:5000/v3'
    with pytest.raises(InvalidInput) as err:
        q.resolve_project(client, 'team-a')
    assert str(err.value) == ("2 projects are named 'team-a' (in different domains): p1, p2. "
                              "Give the project ID.")


def test_another_project_by_name_is_found_in_keystone():
    client, session = make_client([
        keystone('projects?name=team-a', ok({'projects': [{'id': 'p1', 'name': 'team-a'}]})),
    ])
    session.auth = Auth()
    client.identity_url = 'http://127.0.0.1:5000/v3'
    assert q.resolve_project(client, 'team-a') == 'p1'


def test_keystone_refusal_without_a_scoped_token_names_no_project():
    client, _session = make_client([
        keystone('projects?name=team-a', ok({'error': {'code': 403, 'message': 'no'}},
                                            status=403)),
    ])
    client.identity_url = 'http://127.0.0.1:5000/v3'
    with pytest.raises(InvalidInput) as err:
        q.resolve_project(client, 'team-a')
    assert str(err.value) == ("Keystone does not let this user look up project 'team-a': "
                              "only the task's own project (unknown) can be named without "
                              "an admin.")


# -- more calls ----------------------------------------------------------------------------
def test_a_class_is_read_from_its_own_key():
    client, session = make_client([
        ('GET', '/v2/quota-class-sets/gold', ok({'quota_class_set': {'id': 'gold', 'shares': 7}})),
    ])
    assert q.QuotaAPI(client).limits(q.Scope(quota_class='gold')) == {'shares': 7}
    assert session.requests() == ['GET /', 'GET /v2/quota-class-sets/gold']


def test_a_cloud_without_absolute_limits_shows_none():
    client, _session = make_client([('GET', '/v2/limits', ok({}))])
    assert q.QuotaAPI(client).absolute_limits() == {}
    client, _session = make_client([('GET', '/v2/limits', ok({'limits': {'rate': []}}))])
    assert q.QuotaAPI(client).absolute_limits() == {}


def test_an_update_without_force_sends_none():
    client, _session = make_client([
        expect('PUT', '/v2/quota-sets/%s' % PROJECT, ok({'quota_set': {'shares': 1}}),
               body={'quota_set': {'shares': 1}}),
    ])
    assert q.QuotaAPI(client).update(q.Scope(project_id=PROJECT), {'shares': 1}) == {
        'shares': 1}


def test_an_update_answered_with_503_that_took_effect_is_not_sent_again():
    client, session = make_client([
        ('PUT', '/v2/quota-class-sets/gold', ok(status=503)),
        ('GET', '/v2/quota-class-sets/gold', ok({'quota_class_set': {'shares': 3,
                                                                     'gigabytes': 9}})),
    ])
    assert q.QuotaAPI(client).update(q.Scope(quota_class='gold'), {'shares': 3}) == {
        'shares': 3, 'gigabytes': 9}
    assert len(session.writes()) == 1
    assert client.warnings == [
        'The quota update of quota class gold was answered with HTTP 503, but Manila shows '
        'that it took effect; the task went on from there.']


def test_an_update_answered_with_503_that_did_not_take_effect_is_sent_again():
    client, session = make_client([
        ('PUT', '/v2/quota-sets/%s' % PROJECT, ok(status=503)),
        ('GET', '/v2/quota-sets/%s' % PROJECT, ok({'quota_set': {'shares': 50}})),
        expect('PUT', '/v2/quota-sets/%s' % PROJECT, ok({'quota_set': {'shares': 3}}),
               body={'quota_set': {'shares': 3}}),
    ])
    assert q.QuotaAPI(client).update(q.Scope(project_id=PROJECT), {'shares': 3}) == {
        'shares': 3}
    assert len(session.writes()) == 2
    assert client.warnings[0].startswith('The quota update of project %s was refused once'
                                         % PROJECT)


def test_a_reset_answered_with_503_that_did_not_take_effect_is_sent_again():
    client, session = make_client([
        ('DELETE', '/v2/quota-sets/%s' % PROJECT, ok(status=503)),
        ('GET', '/v2/quota-sets/%s' % PROJECT, ok({'quota_set': {'shares': 20}})),
        ('DELETE', '/v2/quota-sets/%s' % PROJECT, ok(status=202)),
    ])
    q.QuotaAPI(client).reset(q.Scope(project_id=PROJECT), {'shares': 50})
    assert [c.method for c in session.writes()] == ['DELETE', 'DELETE']


def test_fleet_check_of_shares_of_no_size_or_of_growth_alone():
    for needs in ({'shares': 1, 'gigabytes': 0}, {'shares': 0, 'gigabytes': 5}):
        client, session = make_client([
            ('GET', '/v2/quota-sets/%s/detail' % PROJECT, ok({'quota_set': {
                'shares': detail(1, 1), 'gigabytes': detail(4)}})),
        ])
        session.auth = Auth()
        assert q.QuotaAPI(client).fleet_check(needs).startswith('Over quota')


def test_fleet_check_goes_on_after_an_unknown_type():
    client, session = make_client([
        ('GET', '/v2/quota-sets/%s/detail' % PROJECT, ok({'quota_set': {
            'shares': detail(10), 'gigabytes': detail(100)}})),
        ('GET', '/v2/quota-sets/%s/detail?share_type=absent' % PROJECT,
         ok({'itemNotFound': {'code': 404, 'message': 'no type'}}, status=404)),
        ('GET', '/v2/quota-sets/%s/detail?share_type=gold' % PROJECT, ok({'quota_set': {
            'shares': detail(0), 'gigabytes': detail(-1)}})),
    ])
    session.auth = Auth()
    message = q.QuotaAPI(client).fleet_check(q.fleet_needs([('absent', 1), ('gold', 1)], []))
    assert 'Share type gold: this run would need 1 shares more; it has room for 0 (limit 0)' \
        in message


# -- issue 36: Manila's settable range, the send order, what a refusal wrote ---------------
REFUSALS = [
    ('project: below use where the limit is -1', q.Scope(project_id=PROJECT),
     {'shares': 1}, {'shares': detail(-1, 2, 1)}, None,
     [('shares', 1, '1, below the 3 in use and reserved (Manila checks this also where the '
                    'limit is -1)')]),
    ('project: -1 is always settable', q.Scope(project_id=PROJECT),
     {'shares': -1}, {'shares': detail(-1, 30)}, None, []),
    ('project: a finite limit below use is below_use\'s', q.Scope(project_id=PROJECT),
     {'shares': 1}, {'shares': detail(10, 3)}, None, []),
    ('user: above the project', q.Scope(project_id=PROJECT, user_id='u1'),
     {'shares': 11}, {'shares': detail(10)}, {'shares': 10},
     [('shares', 11, "11, above the project's limit 10")]),
    ('user: equal to the project is fine', q.Scope(project_id=PROJECT, user_id='u1'),
     {'shares': 10}, {'shares': detail(10)}, {'shares': 10}, []),
    ('type: -1 while the project is finite', q.Scope(project_id=PROJECT, share_type='gold'),
     {'shares': -1}, {'shares': detail(10)}, {'shares': 10},
     [('shares', -1, "unlimited (-1), while the project's limit is 10 (a user or a share "
                     "type cannot go above it)")]),
    ('type: -1 with an unlimited project', q.Scope(project_id=PROJECT, share_type='gold'),
     {'shares': -1}, {'shares': detail(-1, 5)}, {'shares': -1}, []),
    ('user: anything under an unlimited project', q.Scope(project_id=PROJECT, user_id='u1'),
     {'shares': 99999}, {'shares': detail(-1)}, {'shares': -1}, []),
]


@pytest.mark.parametrize('case,scope,body,details,project,found', REFUSALS,
                         ids=[c[0] for c in REFUSALS])
def test_refusals(case, scope, body, details, project, found):
    assert q.refusals(scope, body, details, project) == found


def test_the_names_manila_may_still_refuse_are_sent_first():
    scope = q.Scope(project_id=PROJECT)
    order = q.send_order(scope, {'shares': 60, 'snapshots': -1, 'gigabytes': 500},
                         {'shares': 50, 'snapshots': 10, 'gigabytes': 1000})
    assert list(order) == ['gigabytes', 'shares', 'snapshots']
    assert list(q.send_order(q.Scope(project_id=PROJECT, user_id='u1'),
                             {'shares': 60, 'gigabytes': 5}, {})) == ['shares', 'gigabytes']


def test_what_a_refused_update_wrote():
    assert q.written_before_refusal({'shares': 20, 'gigabytes': 5},
                                    {'shares': 50, 'gigabytes': 1000},
                                    {'shares': 20, 'gigabytes': 1000}) == {'shares': (50, 20)}


def test_above_the_database_column_is_refused_for_every_scope():
    for scope in (q.Scope(), q.Scope(quota_class='default'), q.Scope(user_id='u1')):
        with pytest.raises(InvalidInput) as err:
            q.validate({'shares': 2147483648}, scope)
        assert 'above the largest limit Manila can hold (2147483647)' in str(err.value)
    assert q.validate({'shares': 2147483647}, q.Scope()) == {'shares': 2147483647}


def test_encryption_keys_is_a_quota_a_type_may_take():
    assert q.validate({'encryption_keys': 5}, q.Scope(share_type='gold')) == {
        'encryption_keys': 5}
    assert q.details_of({'encryption_keys': detail(100, 1)}) == {
        'encryption_keys': detail(100, 1)}


def test_fleet_needs_of_replicated_types_and_of_users():
    needs = q.fleet_needs([('gold', 10, True), ('silver', 5)],
                          [('gold', 10, 12, 3, 'owner'), ('silver', 1, 2, 0, None)], user='me')
    assert needs == {
        'shares': 2, 'gigabytes': 18, 'largest': 12, 'share_replicas': 1,
        'replica_gigabytes': 16,
        'per_type': {'gold': {'shares': 1, 'gigabytes': 12, 'share_replicas': 1,
                              'replica_gigabytes': 16},
                     'silver': {'shares': 1, 'gigabytes': 6}},
        'per_user': {'me': {'shares': 2, 'gigabytes': 15, 'share_replicas': 1,
                            'replica_gigabytes': 10},
                     'owner': {'gigabytes': 2, 'replica_gigabytes': 6}}}


def test_the_type_index_gives_one_key_per_type():
    index = q.TypeIndex({'id': 'T1', 'name': 'default', 'extra_specs': {'replication_type': 'dr'}},
                        [{'share_type': 'T2', 'share_type_name': 'gold'},
                         {'share_type': 'T3', 'share_type_name': None}])
    assert [index.key(v) for v in ('T1', 'default', 'T2', 'gold', 'T3', 'other')] == [
        'default', 'default', 'gold', 'gold', 'T3', 'other']
    assert index.replicated('T1') and not index.replicated('gold')
    assert not index.replicated('other') and index.replicated('other', assume=True)


def test_fleet_preflight_of_a_users_quotas():
    message = q.fleet_preflight({'shares': detail(10)}, {'shares': 2, 'per_user': {
        'u1': {'shares': 2}}}, {}, {'u1': {'shares': detail(5, 4)}})
    assert 'The quotas of user u1: this run would need 2 shares more; it has room for 1 ' \
        '(limit 5)' in message


def test_a_user_without_quotas_of_its_own_repeats_no_project_refusal():
    # a user's detail shows the project's limits where it has none of its own
    message = q.fleet_preflight({'shares': detail(5, 4)}, {'shares': 2, 'per_user': {
        'u1': {'shares': 2}}}, {}, {'u1': {'shares': detail(5, 1)}})
    assert 'The project: this run would need 2 shares more' in message
    assert 'user u1' not in message
