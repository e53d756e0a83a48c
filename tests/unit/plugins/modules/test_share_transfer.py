# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""share_transfer on scripted HTTP: the exact requests of an offer, an accept and a
cancel; check mode (reads only); an existing transfer found (no key) or replaced;
the refusals before any write (share network, group, replicas, status, API < 2.77)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Exit,
    Fail,
    run_scripted,
)

from ansible_collections.openkeel.manila.plugins.modules import share_transfer
from ansible_collections.openkeel.manila.plugins.module_utils.transfers import (
    check_transferable,
    transfer_refusals,
    view,
)
from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    expect,
    share_locks,
)

SHARE_ID = '11111111-2222-3333-4444-555555555555'
TRANSFER_ID = '99999999-8888-7777-6666-555555555555'
SOURCE = 'p-source'
DEST = 'p-dest'
KEY = 'f00dfeedc0ffee12'
SHARE = {'id': SHARE_ID, 'name': 'data', 'status': 'available', 'project_id': SOURCE,
         'share_network_id': None, 'share_group_id': None, 'has_replicas': False,
         'size': 1, 'share_proto': 'NFS'}
WAITING = dict(SHARE, status='awaiting_transfer')
MOVED = dict(SHARE, project_id=DEST)
TRANSFER = {'id': TRANSFER_ID, 'name': 'data', 'resource_type': 'share',
            'resource_id': SHARE_ID, 'source_project_id': SOURCE,
            'destination_project_id': None, 'accepted': False,
            'created_at': '2026-12-02T01:00:00', 'expires_at': '2026-12-02T01:05:00'}
CREATED = dict(TRANSFER, auth_key=KEY)
BY_NAME = ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [SHARE]}))
LIST = ('GET', '/v2/share-transfers/detail?resource_id=' + SHARE_ID,
        ScriptedResponse(200, {'transfers': [TRANSFER]}))
# An offer reads the share's delete locks first (API 2.81+; issue 36): none here.
NO_LOCKS = share_locks(SHARE_ID)


def by_name(share):
    return ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [share]}))


def by_id(share):
    return ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': share}))


def run(monkeypatch, args, exchanges, max_version='2.99', check_mode=False, project=DEST,
        fails=False):
    def prepare(client, _session):
        client.token_project = lambda: {'id': project, 'name': project, 'roles': []}
    outcome, session = run_scripted(monkeypatch, share_transfer, args, exchanges,
                                    max_version=max_version, check_mode=check_mode,
                                    expect=Fail if fails else Exit, prepare=prepare)
    if not fails:
        assert not isinstance(outcome, Fail), outcome.result
    return outcome.result, session


def test_offer_creates_one_transfer_and_returns_its_key(monkeypatch):
    result, session = run(monkeypatch, {'share': 'data'}, [
        BY_NAME, NO_LOCKS,
        expect('POST', '/v2/share-transfers', ScriptedResponse(202, {'transfer': CREATED}),
               body={'transfer': {'share_id': SHARE_ID, 'name': 'data'}}),
        by_id(WAITING),
    ], project=SOURCE)
    assert result['changed'] is True
    assert result['auth_key'] == KEY
    assert result['transfer'] == view(TRANSFER)
    assert 'auth_key' not in result['transfer']
    assert result['share']['status'] == 'awaiting_transfer'
    assert result['api_version'] == '2.99'


def test_a_transfer_has_no_diff_even_in_diff_mode(monkeypatch):
    # diff_mode support none: the converge template gives no diff (has_diff)
    def prepare(client, _session):
        client.token_project = lambda: {'id': SOURCE, 'name': SOURCE, 'roles': []}
    outcome, session = run_scripted(monkeypatch, share_transfer, {'share': 'data'}, [BY_NAME, NO_LOCKS],
                                    check_mode=True, diff=True, prepare=prepare)
    assert outcome.result['changed'] is True and outcome.result['transfer'] == {}
    assert 'diff' not in outcome.result
    assert session.writes() == []


def test_offer_check_mode_reads_only(monkeypatch):
    result, session = run(monkeypatch, {'share': 'data'}, [BY_NAME, NO_LOCKS], check_mode=True,
                          project=SOURCE)
    assert result['changed'] is True
    assert session.writes() == []
    assert 'auth_key' not in result


def test_an_existing_transfer_is_found_without_a_key_and_a_warning(monkeypatch):
    result, session = run(monkeypatch, {'share': 'data'}, [by_name(WAITING), LIST],
                          project=SOURCE)
    assert result['changed'] is False
    assert result['transfer']['id'] == TRANSFER_ID
    assert 'auth_key' not in result
    assert 'only when it is created' in result['warnings'][0]
    assert session.writes() == []


def test_replace_cancels_the_existing_transfer_and_makes_a_new_one(monkeypatch):
    new = dict(CREATED, id='new-transfer')
    result, session = run(monkeypatch, {'share': 'data', 'replace': True}, [
        by_name(WAITING), LIST, NO_LOCKS, snapshots(SNAP),
        expect('DELETE', '/v2/share-transfers/' + TRANSFER_ID, ScriptedResponse(200)),
        expect('POST', '/v2/share-transfers', ScriptedResponse(202, {'transfer': new}),
               body={'transfer': {'share_id': SHARE_ID, 'name': 'data'}}),
        by_id(WAITING),
    ], project=SOURCE)
    assert result['changed'] is True
    assert result['transfer']['id'] == 'new-transfer'
    assert result['auth_key'] == KEY


@pytest.mark.parametrize('share, words', [
    (dict(SHARE, share_network_id='net-1'), 'share network net-1'),
    (dict(SHARE, share_group_id='group-1'), 'share group group-1'),
    (dict(SHARE, has_replicas=True), 'it has replicas'),
    (dict(SHARE, status='extending'), 'its status is extending'),
    (dict(SHARE, is_soft_deleted=True, status='available'), 'recycle bin'),
])
def test_refused_before_any_write(monkeypatch, share, words):
    result, session = run(monkeypatch, {'share': 'data'}, [by_name(share)], project=SOURCE,
                          fails=True)
    assert words in result['msg']
    assert result['msg'].startswith('share: Share data (%s) cannot be transferred' % SHARE_ID)
    assert session.writes() == []
    assert result.get('changed') is not True


def test_refused_in_check_mode_too(monkeypatch):
    result, session = run(monkeypatch, {'share': 'data'},
                          [by_name(dict(SHARE, share_network_id='net-1'))],
                          check_mode=True, project=SOURCE, fails=True)
    assert 'share network' in result['msg']


def test_every_reason_is_named():
    share = dict(SHARE, share_network_id='n', share_group_id='g', has_replicas=True)
    assert len(transfer_refusals(share)) == 3
    with pytest.raises(InvalidInput):
        check_transferable(share)
    assert transfer_refusals(SHARE) == []
    assert transfer_refusals(WAITING) == []


def test_the_mount_point_name_refusal_of_manila_is_reworded(monkeypatch):
    refusal = ScriptedResponse(400, {'badRequest': {'code': 400, 'message': (
        'Invalid: Share data has a custom mount_point_name p-source_data. This has the '
        'project_id encoded in it.')}})
    result, session = run(monkeypatch, {'share': 'data'}, [
        BY_NAME, NO_LOCKS, ('POST', '/v2/share-transfers', refusal)], project=SOURCE, fails=True)
    assert 'mount point name that holds its project ID' in result['msg']
    assert 'Nothing was changed' in result['msg']
    assert result.get('changed') is not True


@pytest.mark.parametrize('args', [
    {'share': 'data'},
    {'id': TRANSFER_ID, 'auth_key': KEY, 'state': 'accepted'},
    {'id': TRANSFER_ID, 'state': 'absent'},
])
def test_refused_below_2_77_before_any_write(monkeypatch, args):
    result, session = run(monkeypatch, args, [], max_version='2.76', fails=True)
    assert 'share transfers needs Manila API 2.77; this cloud offers 2.76' in result['msg']
    assert session.requests() == ['GET /']


def test_accept_sends_the_key_once(monkeypatch):
    result, session = run(monkeypatch, {'id': TRANSFER_ID, 'auth_key': KEY, 'state': 'accepted',
                                        'share': SHARE_ID}, [
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(404, {})),
        ('GET', '/v2/shares/detail?name=' + SHARE_ID, ScriptedResponse(200, {'shares': []})),
        expect('POST', '/v2/share-transfers/%s/accept' % TRANSFER_ID, ScriptedResponse(202),
               body={'accept': {'auth_key': KEY}}),
        by_id(MOVED),
    ])
    assert result['changed'] is True
    assert result['transfer'] == {'id': TRANSFER_ID, 'accepted': True}
    assert result['share']['project_id'] == DEST
    assert KEY not in repr(result)


def test_accept_is_ok_when_the_share_is_here_already(monkeypatch):
    result, session = run(monkeypatch, {'id': TRANSFER_ID, 'auth_key': KEY, 'state': 'accepted',
                                        'share': SHARE_ID}, [by_id(MOVED)])
    assert result['changed'] is False
    assert session.writes() == []


def test_accept_of_a_public_share_of_another_project_is_not_taken_as_done(monkeypatch):
    result, session = run(monkeypatch, {'id': TRANSFER_ID, 'auth_key': KEY, 'state': 'accepted',
                                        'share': SHARE_ID}, [by_id(WAITING)], check_mode=True)
    assert result['changed'] is True
    assert session.writes() == []


def test_accept_check_mode_reads_only(monkeypatch):
    result, session = run(monkeypatch, {'id': TRANSFER_ID, 'auth_key': KEY, 'state': 'accepted'},
                          [], check_mode=True)
    assert result['changed'] is True
    assert session.requests() == ['GET /']


@pytest.mark.parametrize('message, words', [
    ('Attempt to transfer %s with invalid auth key.' % TRANSFER_ID, 'auth_key does not match'),
    ('Transfer %s could not be found.' % TRANSFER_ID, 'accepted, cancelled or has expired'),
])
def test_accept_refusals_are_reworded(monkeypatch, message, words):
    refusal = ScriptedResponse(400, {'badRequest': {'code': 400, 'message': message}})
    result, session = run(monkeypatch, {'id': TRANSFER_ID, 'auth_key': KEY, 'state': 'accepted'}, [
        ('POST', '/v2/share-transfers/%s/accept' % TRANSFER_ID, refusal)], fails=True)
    assert words in result['msg']
    assert KEY not in result['msg']


def test_cancel_by_share(monkeypatch):
    result, session = run(monkeypatch, {'share': 'data', 'state': 'absent'}, [
        by_name(WAITING), LIST,
        expect('DELETE', '/v2/share-transfers/' + TRANSFER_ID, ScriptedResponse(200)),
        by_id(SHARE),
    ], project=SOURCE)
    assert result['changed'] is True
    assert result['share']['status'] == 'available'


def test_cancel_of_a_gone_transfer_is_ok(monkeypatch):
    result, session = run(monkeypatch, {'id': TRANSFER_ID, 'state': 'absent'}, [
        ('GET', '/v2/share-transfers/' + TRANSFER_ID, ScriptedResponse(404, {}))])
    assert result['changed'] is False
    assert session.writes() == []


def test_cancel_check_mode_reads_only(monkeypatch):
    result, session = run(monkeypatch, {'share': 'data', 'state': 'absent'},
                          [by_name(WAITING), LIST], check_mode=True, project=SOURCE)
    assert result['changed'] is True
    assert session.writes() == []


@pytest.mark.parametrize('args, words', [
    ({'share': 'data', 'auth_key': KEY}, 'auth_key only applies with state=accepted'),
    ({'share': 'data', 'id': TRANSFER_ID}, 'id does not apply with state=present'),
    ({'share': 'data', 'state': 'absent', 'replace': True}, 'replace only applies'),
    ({'id': TRANSFER_ID, 'auth_key': KEY, 'state': 'accepted', 'name': 'x'},
     'name only applies'),
])
def test_bad_combinations_before_any_request(monkeypatch, args, words):
    result, session = run(monkeypatch, args, [], fails=True)
    assert words in result['msg']
    assert session.requests() == ['GET /']


def test_an_offer_whose_answer_was_a_5xx_is_found_and_its_lost_key_said(monkeypatch):
    result, session = run(monkeypatch, {'share': 'data'}, [
        BY_NAME, NO_LOCKS,
        ('POST', '/v2/share-transfers', ScriptedResponse(503, {})),
        LIST,
    ], project=SOURCE, fails=True)
    assert [w.method for w in session.writes()] == ['POST']
    assert 'its answer, which alone holds the auth_key, was lost' in result['msg']
    assert 'replace=true' in result['msg']
    assert result['changed'] is True
    assert result['transfer']['id'] == TRANSFER_ID


UNAVAILABLE = ScriptedResponse(503, {'computeFault': {'code': 503, 'message': 'busy'}})
LABEL = 'Share data (%s)' % SHARE_ID


def refusal(status, message):
    return ScriptedResponse(status, {'badRequest': {'code': status, 'message': message}})


def test_the_refusals_are_worded_exactly_naming_the_cause_and_that_nothing_changed(monkeypatch):
    result, session = run(monkeypatch, {'share': 'data'},
                          [by_name(dict(SHARE, share_network_id='net-1', has_replicas=True))],
                          project=SOURCE, fails=True)
    assert result['msg'] == (
        'share: %s cannot be transferred: it is exported over share network net-1 (Manila '
        'transfers no share on a share network: its share server belongs to the source '
        'project); it has replicas (Manila transfers no replicated share; drop the replicas '
        'with openkeel.manila.share_replica state=absent first). Nothing was changed.' % LABEL)


@pytest.mark.parametrize('status', ['available', 'error'])
def test_a_share_in_the_recycle_bin_is_refused_for_that_alone(status):
    assert transfer_refusals(dict(SHARE, is_soft_deleted=True, status=status)) == [
        'it is in the recycle bin (restore it first)']


def test_the_mount_point_name_refusal_is_worded_exactly(monkeypatch):
    message = ('Invalid: Share data has a custom mount_point_name p-source_data. This has the '
               'project_id encoded in it.')
    result, session = run(monkeypatch, {'share': 'data'}, [
        BY_NAME, NO_LOCKS, ('POST', '/v2/share-transfers', refusal(400, message))],
        project=SOURCE, fails=True)
    assert result['msg'] == (
        'share: %s cannot be transferred: it has a mount point name that holds its project ID '
        '(Manila refused: %s). Nothing was changed.' % (LABEL, message))


@pytest.mark.parametrize('message', ['Share data is busy', 'Share data is busy.'])
def test_any_other_refusal_of_the_create_is_passed_on_with_the_share(monkeypatch, message):
    result, session = run(monkeypatch, {'share': 'data'}, [
        BY_NAME, NO_LOCKS, ('POST', '/v2/share-transfers', refusal(400, message))],
        project=SOURCE, fails=True)
    assert result['msg'] == (
        'share: Manila refused to transfer %s: Share data is busy. Nothing was changed.' % LABEL)
    assert result.get('changed') is not True


def test_an_offer_that_a_5xx_left_unmade_is_sent_once_more(monkeypatch):
    result, session = run(monkeypatch, {'share': 'data'}, [
        BY_NAME, NO_LOCKS,
        ('POST', '/v2/share-transfers', UNAVAILABLE),
        ('GET', '/v2/share-transfers/detail?resource_id=' + SHARE_ID,
         ScriptedResponse(200, {'transfers': []})),
        ('POST', '/v2/share-transfers', ScriptedResponse(202, {'transfer': CREATED})),
        by_id(WAITING),
    ], project=SOURCE)
    assert [w.method for w in session.writes()] == ['POST', 'POST']
    assert result['auth_key'] == KEY


def test_a_listing_shows_no_open_transfer_in_an_accepted_one_or_that_of_another_share(monkeypatch):
    accepted = dict(TRANSFER, accepted=True)
    another = dict(TRANSFER, id='other-transfer', resource_id='other-share')
    result, session = run(monkeypatch, {'share': 'data'}, [
        by_name(WAITING),
        ('GET', '/v2/share-transfers/detail?resource_id=' + SHARE_ID,
         ScriptedResponse(200, {'transfers': [accepted, another]})),
        NO_LOCKS,
        expect('POST', '/v2/share-transfers', ScriptedResponse(202, {'transfer': CREATED}),
               body={'transfer': {'share_id': SHARE_ID, 'name': 'data'}}),
        by_id(WAITING),
    ], project=SOURCE)
    assert result['changed'] is True and result['auth_key'] == KEY


def test_accept_can_clear_the_access_rules(monkeypatch):
    result, session = run(monkeypatch, {'id': TRANSFER_ID, 'auth_key': KEY, 'state': 'accepted',
                                        'clear_access_rules': True}, [
        expect('POST', '/v2/share-transfers/%s/accept' % TRANSFER_ID, ScriptedResponse(202),
               body={'accept': {'auth_key': KEY, 'clear_access_rules': True}}),
    ])
    assert result['changed'] is True


def test_an_accept_answered_with_a_5xx_and_no_share_to_look_at_is_sent_once_more(monkeypatch):
    accept = '/v2/share-transfers/%s/accept' % TRANSFER_ID
    result, session = run(monkeypatch, {'id': TRANSFER_ID, 'auth_key': KEY, 'state': 'accepted'}, [
        ('POST', accept, UNAVAILABLE),
        ('POST', accept, ScriptedResponse(202)),
    ])
    assert result['changed'] is True
    assert [w.path for w in session.writes()] == [accept, accept]
    assert 'sent again and succeeded' in result['warnings'][0]


@pytest.mark.parametrize('status, message, text', [
    (400, 'Attempt to transfer %s with invalid auth key.' % TRANSFER_ID,
     'auth_key does not match transfer %s (Manila: %s). Nothing was changed.'),
    (400, 'Invalid auth_key for transfer %s.' % TRANSFER_ID,
     'auth_key does not match transfer %s (Manila: %s). Nothing was changed.'),
    (404, 'Transfer %s could not be found.' % TRANSFER_ID,
     'id: transfer %s does not exist: it was accepted, cancelled or has expired (Manila: %s). '
     'Give the share as share= so that a run after the accept finds it in this project.'),
    (400, 'Transfer %s not found.' % TRANSFER_ID,
     'id: transfer %s does not exist: it was accepted, cancelled or has expired (Manila: %s). '
     'Give the share as share= so that a run after the accept finds it in this project.'),
    (400, 'Share type of share data is not accessible by project p-dest',
     'Manila refused to accept transfer %s: %s. Nothing was changed.'),
    (400, 'Share type of share data is not accessible by project p-dest.',
     'Manila refused to accept transfer %s: %s Nothing was changed.'),
])
def test_accept_refusals_are_worded_exactly(monkeypatch, status, message, text):
    result, session = run(monkeypatch, {'id': TRANSFER_ID, 'auth_key': KEY, 'state': 'accepted'}, [
        ('POST', '/v2/share-transfers/%s/accept' % TRANSFER_ID, refusal(status, message))],
        fails=True)
    assert result['msg'] == text % (TRANSFER_ID, message)
    assert '..' not in result['msg']


def test_cancel_by_id_of_an_open_transfer(monkeypatch):
    result, session = run(monkeypatch, {'id': TRANSFER_ID, 'state': 'absent'}, [
        ('GET', '/v2/share-transfers/' + TRANSFER_ID, ScriptedResponse(200, {'transfer': TRANSFER})),
        expect('DELETE', '/v2/share-transfers/' + TRANSFER_ID, ScriptedResponse(200)),
    ], project=SOURCE)
    assert result['changed'] is True
    assert result['transfer'] == view(TRANSFER)


def test_a_cancel_answered_with_a_5xx_is_done_when_the_transfer_is_gone(monkeypatch):
    result, session = run(monkeypatch, {'id': TRANSFER_ID, 'state': 'absent'}, [
        ('GET', '/v2/share-transfers/' + TRANSFER_ID, ScriptedResponse(200, {'transfer': TRANSFER})),
        ('DELETE', '/v2/share-transfers/' + TRANSFER_ID, UNAVAILABLE),
        ('GET', '/v2/share-transfers/' + TRANSFER_ID, ScriptedResponse(404, {})),
    ], project=SOURCE)
    assert result['changed'] is True
    assert [w.method for w in session.writes()] == ['DELETE']
    assert 'Manila shows that it took effect' in result['warnings'][0]


def test_a_cancel_answered_with_a_5xx_of_a_transfer_still_shown_is_sent_once_more(monkeypatch):
    result, session = run(monkeypatch, {'id': TRANSFER_ID, 'state': 'absent'}, [
        ('GET', '/v2/share-transfers/' + TRANSFER_ID, ScriptedResponse(200, {'transfer': TRANSFER})),
        ('DELETE', '/v2/share-transfers/' + TRANSFER_ID, UNAVAILABLE),
        ('GET', '/v2/share-transfers/' + TRANSFER_ID, ScriptedResponse(200, {'transfer': TRANSFER})),
        ('DELETE', '/v2/share-transfers/' + TRANSFER_ID, ScriptedResponse(200)),
    ], project=SOURCE)
    assert result['changed'] is True
    assert [w.method for w in session.writes()] == ['DELETE', 'DELETE']


# -- issue 36: what an offer and an accept know before a write -------------------------
LOCK = {'id': 'lock-1', 'resource_id': SHARE_ID, 'resource_type': 'share',
        'resource_action': 'delete', 'lock_reason': 'payroll', 'user_id': 'u1',
        'project_id': SOURCE, 'lock_context': 'user', 'created_at': '2026-12-01T10:00:00'}
SNAPSHOTS = ('/v2/snapshots/detail?share_id=%s&all_tenants=1&with_count=true&limit=1000&offset=0'
             % SHARE_ID)
SNAP = {'id': 'snap-1', 'name': 'monday', 'share_id': SHARE_ID, 'status': 'available', 'size': 1}
OTHER = dict(SHARE, id='22222222-2222-3333-4444-555555555555', project_id=DEST)


def snapshots(*found):
    return ('GET', SNAPSHOTS, ScriptedResponse(200, {'snapshots': list(found), 'count': len(found)}))


@pytest.mark.parametrize('check_mode', [False, True])
def test_an_offer_of_a_share_with_delete_locks_is_refused_before_any_write(monkeypatch, check_mode):
    result, session = run(monkeypatch, {'share': 'data'}, [BY_NAME, share_locks(SHARE_ID, LOCK)],
                          project=SOURCE, check_mode=check_mode, fails=True)
    assert session.writes() == [] and not result.get('changed')
    assert 'lock-1' in result['msg'] and "'payroll'" in result['msg']
    assert 'the new owner could neither see nor lift them' in result['msg']
    assert result['msg'].endswith('Nothing was changed.')


def test_replace_reads_the_snapshots_and_cancels_nothing_when_manila_would_refuse_the_new_one(
        monkeypatch):
    result, session = run(monkeypatch, {'share': 'data', 'replace': True}, [
        by_name(WAITING), LIST, share_locks(SHARE_ID),
        snapshots(SNAP, dict(SNAP, id='snap-2', name='tuesday', status='creating'))],
        project=SOURCE, fails=True)
    assert session.writes() == [] and not result.get('changed')
    assert 'tuesday (snap-2) is creating' in result['msg'] and 'monday' not in result['msg']
    assert ('Nothing was changed: transfer %s is still open' % TRANSFER_ID) in result['msg']


def test_replace_refused_after_the_cancel_says_the_cancel_was_written(monkeypatch):
    result, session = run(monkeypatch, {'share': 'data', 'replace': True}, [
        by_name(WAITING), LIST, share_locks(SHARE_ID), snapshots(SNAP),
        ('DELETE', '/v2/share-transfers/' + TRANSFER_ID, ScriptedResponse(200)),
        ('POST', '/v2/share-transfers', ScriptedResponse(400, {'badRequest': {
            'code': 400, 'message': 'Share data has a custom mount_point_name p-source_x.'}})),
    ], project=SOURCE, fails=True)
    assert result['changed'] is True
    assert result['accepted_writes'] == ['DELETE share-transfers/' + TRANSFER_ID]
    assert 'Nothing was changed' not in result['msg']
    assert ('Transfer %s of the share was cancelled before (replace=true)' % TRANSFER_ID) in result['msg']


def test_accept_by_name_accepts_when_another_share_of_that_name_is_here(monkeypatch):
    result, session = run(monkeypatch, {'id': TRANSFER_ID, 'auth_key': KEY, 'state': 'accepted',
                                        'share': 'data'}, [
        by_name(OTHER),
        expect('POST', '/v2/share-transfers/%s/accept' % TRANSFER_ID, ScriptedResponse(202),
               body={'accept': {'auth_key': KEY}}),
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [OTHER, MOVED]})),
    ])
    assert result['changed'] is True
    assert result['share']['id'] == SHARE_ID


def test_accept_by_name_of_a_gone_transfer_with_one_share_of_that_name_here_is_ok(monkeypatch):
    result, session = run(monkeypatch, {'id': TRANSFER_ID, 'auth_key': KEY, 'state': 'accepted',
                                        'share': 'data'}, [
        by_name(MOVED),
        ('POST', '/v2/share-transfers/%s/accept' % TRANSFER_ID, ScriptedResponse(400, {'badRequest': {
            'code': 400, 'message': 'Transfer %s could not be found.' % TRANSFER_ID}})),
    ])
    assert result['changed'] is False
    assert result['share']['id'] == SHARE_ID
    assert "give the share's ID to be exact" in result['warnings'][0]


def test_accept_by_name_of_a_gone_transfer_with_two_shares_of_that_name_fails(monkeypatch):
    result, session = run(monkeypatch, {'id': TRANSFER_ID, 'auth_key': KEY, 'state': 'accepted',
                                        'share': 'data'}, [
        ('GET', '/v2/shares/detail?name=data', ScriptedResponse(200, {'shares': [OTHER, MOVED]})),
        ('POST', '/v2/share-transfers/%s/accept' % TRANSFER_ID, ScriptedResponse(400, {'badRequest': {
            'code': 400, 'message': 'Transfer %s could not be found.' % TRANSFER_ID}})),
    ], fails=True)
    assert 'does not exist' in result['msg'] and not result.get('changed')


def test_accept_by_name_in_check_mode_with_a_namesake_here_says_it_would_accept(monkeypatch):
    result, session = run(monkeypatch, {'id': TRANSFER_ID, 'auth_key': KEY, 'state': 'accepted',
                                        'share': 'data'}, [by_name(OTHER)], check_mode=True)
    assert result['changed'] is True and session.writes() == []


# -- a value that cannot be a key (issue 37) -----------------------------------------------

@pytest.mark.parametrize('key,detail', [
    ('x', '1 character, not all of them hexadecimal digits'),
    ('f00d', '4 characters.'),
    ('F00DFEEDC0FFEE12', '16 characters, not all of them hexadecimal digits'),
    ('not-a-key-at-all!', '17 characters, not all of them hexadecimal digits'),
])
def test_a_key_of_the_wrong_form_is_refused_before_any_request_and_left_unmasked(
        monkeypatch, key, detail):
    seen = {}
    original = share_transfer.ShareTransferModule.fail

    def fail(self, msg, **extra):
        seen['no_log_values'] = set(self.ansible.no_log_values)
        seen['param'] = self.params['auth_key']
        original(self, msg, **extra)
    monkeypatch.setattr(share_transfer.ShareTransferModule, 'fail', fail)
    result, session = run(monkeypatch, {'id': TRANSFER_ID, 'auth_key': key, 'state': 'accepted'},
                          [], fails=True)
    assert result['msg'].startswith('auth_key is not a transfer key: Manila makes keys of 16 or '
                                    'more hexadecimal digits (0-9, a-f), and this one has ' + detail)
    assert key not in seen['no_log_values']            # nothing of the message is masked
    assert seen['param'] == 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER'  # the option stays hidden
    assert session.requests() in ([], ['GET /'])
