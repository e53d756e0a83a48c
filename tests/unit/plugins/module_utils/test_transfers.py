# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The share transfer calls (TransferAPI) on scripted HTTP: each refuses an
older cloud before sending; an accept sends only the key unless told to clear
the access rules, and its reworded refusal keeps Manila's status and request
ID; a cancel says whether it cancelled the transfer or found it gone."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import resource as base_resource
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    InvalidInput,
    UnsupportedFeature,
)
from ansible_collections.openkeel.manila.plugins.module_utils.transfers import TransferAPI
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    expect,
    make_client,
)

SHARE_ID = '11111111-2222-3333-4444-555555555555'
TRANSFER_ID = '99999999-8888-7777-6666-555555555555'
KEY = 'f00dfeedc0ffee12'


@pytest.mark.parametrize('call', [
    lambda api: api.list_for_share(SHARE_ID),
    lambda api: api.get(TRANSFER_ID),
    lambda api: api.create({'id': SHARE_ID, 'name': 'data'}),
    lambda api: api.accept(TRANSFER_ID, KEY),
    lambda api: api.delete(TRANSFER_ID),
])
def test_every_call_refuses_an_older_cloud_before_sending(call):
    client, session = make_client([], max_version='2.76')
    with pytest.raises(UnsupportedFeature) as caught:
        call(TransferAPI(client))
    assert str(caught.value).startswith('share transfers needs Manila API 2.77; this cloud '
                                        'offers 2.76.')
    assert session.requests() == ['GET /']


def test_an_accept_sends_only_the_key_by_default():
    client, session = make_client([
        expect('POST', '/v2/share-transfers/%s/accept' % TRANSFER_ID, ScriptedResponse(202),
               body={'accept': {'auth_key': KEY}}),
    ])
    TransferAPI(client).accept(TRANSFER_ID, KEY)
    assert len(session.writes()) == 1


def test_a_refused_accept_keeps_the_status_and_request_id_of_manilas_answer():
    client, session = make_client([
        ('POST', '/v2/share-transfers/%s/accept' % TRANSFER_ID, ScriptedResponse(
            400, {'badRequest': {'code': 400, 'message': 'Invalid auth key'}},
            headers={'x-openstack-request-id': 'req-1'})),
    ])
    with pytest.raises(InvalidInput) as caught:
        TransferAPI(client).accept(TRANSFER_ID, KEY)
    assert caught.value.message == ('auth_key does not match transfer %s (Manila: Invalid auth '
                                    'key). Nothing was changed.' % TRANSFER_ID)
    assert (caught.value.status, caught.value.request_id) == (400, 'req-1')


def test_a_cancel_says_whether_it_cancelled_the_transfer_or_found_it_gone():
    path = '/v2/share-transfers/' + TRANSFER_ID
    client, session = make_client([
        ('DELETE', path, ScriptedResponse(200)),
        ('DELETE', path, ScriptedResponse(404, {'itemNotFound': {'code': 404, 'message': 'gone'}})),
        ('DELETE', path, ScriptedResponse(503, {})),
        ('GET', path, ScriptedResponse(404, {})),
    ])
    api = TransferAPI(client)
    assert api.delete(TRANSFER_ID) is True
    assert api.delete(TRANSFER_ID) is False
    assert api.delete(TRANSFER_ID) is True  # answered 503, then seen gone: cancelled


@pytest.mark.parametrize('message', ['Share data is busy.',
                                     'Share data has a custom mount_point_name p-1_data.'])
def test_a_refused_create_keeps_the_status_and_request_id_of_manilas_answer(message):
    share = {'id': 'share-1', 'name': 'data'}
    client, session = make_client([
        ('POST', '/v2/share-transfers', ScriptedResponse(
            400, {'badRequest': {'code': 400, 'message': message}},
            headers={'x-openstack-request-id': 'req-2'})),
    ])
    with pytest.raises(InvalidInput) as caught:
        TransferAPI(client).create(share)
    assert (caught.value.status, caught.value.request_id) == (400, 'req-2')
    assert '..' not in caught.value.message
    assert len(session.writes()) == 1


# -- on the base (issue 35) ------------------------------------------------------

def test_the_transfer_calls_are_the_bases_with_the_transfer_row():
    assert issubclass(TransferAPI, base_resource.ResourceAPI)
    assert TransferAPI.kind == 'share_transfer' and TransferAPI.feature == 'share_transfers'


def test_a_transfer_that_is_gone_reads_as_none_and_cancels_as_done():
    gone = ScriptedResponse(404, {'itemNotFound': {'code': 404, 'message': 'not found'}})
    client, session = make_client([
        expect('GET', '/v2/share-transfers/t1', gone),
        expect('DELETE', '/v2/share-transfers/t1', gone),
    ])
    api = TransferAPI(client)
    assert api.get('t1') is None
    assert api.delete('t1') is False
    assert api.deletion_words('t1') == 'the cancel of transfer t1'


def test_transfers_below_2_77_are_refused_before_any_request():
    client, session = make_client([], max_version='2.76')
    with pytest.raises(UnsupportedFeature):
        TransferAPI(client).get('t1')
    assert len(session.calls) == 1
