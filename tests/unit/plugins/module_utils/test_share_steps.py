# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One share's steps (plugins/module_utils/share_steps.py): the field table
both flows derive their options and desired state from, the checks before
any request and before a create, the plans and the adoption of a namesake."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import fleet, share_steps
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    InvalidInput,
)
from ansible_collections.openkeel.manila.plugins.module_utils.shares import (
    CREATE,
    DELETE,
    RESTORE,
    UPDATE,
    SharePlan,
)
from ansible_collections.openkeel.manila.plugins.modules import share as share_module

SHARE = {'id': '11111111-2222-3333-4444-555555555555', 'name': 'data', 'size': 1,
         'share_proto': 'NFS', 'status': 'available', 'share_type': 't1',
         'share_type_name': 'gold', 'metadata': {}, 'description': None, 'is_public': False}


def params_of(spec, **given):
    """Parameters as AnsibleModule makes them from ``spec``: defaults, then ``given``."""
    params = dict((k, v.get('default')) for k, v in spec.items())
    params.update(given)
    return params


# -- one field table ------------------------------------------------------------------
def test_a_field_added_to_the_table_is_in_both_specs_and_both_desired_states(monkeypatch):
    monkeypatch.setattr(share_steps, 'SHARE_FIELDS', share_steps.SHARE_FIELDS + (
        ('share_group', dict(type='str'), True),))
    module_spec = share_module.module_argument_spec()
    entry_spec = fleet.share_argument_spec()
    assert module_spec['share_group'] == entry_spec['share_group'] == dict(type='str')

    task = object.__new__(share_module.ShareModule)
    task.params = params_of(module_spec, name='data', share_group='g1')
    assert task.desired()['share_group'] == 'g1'
    entry = params_of(entry_spec, name='data', share_group='g1')
    assert fleet.entry_desired(entry, None)['share_group'] == 'g1'


def test_the_share_fields_are_the_options_both_flows_share():
    module_spec = share_module.ShareModule.argument_spec
    entry_spec = fleet.share_argument_spec()
    shared = set(option for option, _spec, _desired in share_steps.SHARE_FIELDS)
    assert set(module_spec) & set(entry_spec) == shared | {'state', 'purge_metadata'}
    # the two options of one name that differ, each kept by its flow
    assert module_spec['state']['choices'] == ['present', 'absent', 'unmanaged']
    assert entry_spec['state']['choices'] == ['present', 'absent']
    assert module_spec['purge_metadata'].get('default') is False
    assert entry_spec['purge_metadata'].get('default') is None


def test_the_desired_state_takes_the_desired_fields_and_the_flows_own():
    params = dict((option, option.upper()) for option, _s, _d in share_steps.SHARE_FIELDS)
    params.update(scheduler_hints='H')
    assert share_steps.desired_state(params, 'scheduler_hints') == dict(
        name='NAME', size='SIZE', share_proto='SHARE_PROTO', share_type='SHARE_TYPE',
        availability_zone='AVAILABILITY_ZONE', description='DESCRIPTION',
        metadata='METADATA', is_public='IS_PUBLIC', scheduler_hints='H')


def test_the_fleet_desired_state_carries_the_marker_and_the_network():
    entry = params_of(fleet.share_argument_spec(), name='data', metadata={'a': '1'})
    desired = fleet.entry_desired(entry, {'key': 'owner', 'value': 'me'}, 'net-1')
    assert desired['metadata'] == {'a': '1', 'owner': 'me'}
    assert desired['share_network_id'] == 'net-1'


# -- checks -------------------------------------------------------------------------------
def entry_params(**given):
    return params_of(fleet.share_argument_spec(), **dict(dict(name='data'), **given))


@pytest.mark.parametrize('given, words', [
    (dict(size=0), ['size must be at least 1 (GiB), got 0.']),
    (dict(share_proto='NFZ'), ["share_proto 'NFZ' is not a protocol Manila knows: NFS, CIFS, "
                               "GLUSTERFS, HDFS, CEPHFS, MAPRFS."]),
    (dict(name='n' * 300), ['name is 300 characters long; Manila takes at most 255.']),
    (dict(description='d' * 256), ['description is 256 characters long; Manila takes at most 255.']),
    (dict(soft_delete=True), ['soft_delete only applies with state=absent.']),
    (dict(size=0, soft_delete=True, share_proto='x'), [
        'size must be at least 1 (GiB), got 0.', 'soft_delete only applies with state=absent.',
        "share_proto 'x' is not a protocol Manila knows: NFS, CIFS, GLUSTERFS, HDFS, CEPHFS, "
        "MAPRFS."]),
    (dict(size=1, share_proto='nfs', name='n' * 255, description='d' * 255), []),
])
def test_input_problems_name_the_option(given, words):
    assert list(share_steps.input_problems(entry_params(**given),
                                           fleet.ENTRY_ONE_STATE_OPTIONS)) == words


def test_input_problems_of_a_share_task_check_its_own_one_state_options():
    p = params_of(share_module.ShareModule.argument_spec, name='d', state='absent', restore=True)
    assert list(share_steps.input_problems(p)) == ['restore only applies with state=present.']
    p.update(restore=False, state='present', delete_snapshots=True)
    assert list(share_steps.input_problems(p)) == ['delete_snapshots only applies with state=absent.']


def test_no_share_is_created_with_an_id_or_under_a_uuid_shaped_name():
    with pytest.raises(InvalidInput, match='cannot be created with a given ID'):
        share_steps.refuse_create('abc', 'data')
    with pytest.raises(InvalidInput, match='A UUID-shaped name is taken as a share ID'):
        share_steps.refuse_create(None, SHARE['id'])
    with pytest.raises(InvalidInput, match='^name: no share is named %s' % SHARE['id']):
        share_steps.refuse_create(None, SHARE['id'], name_is_id=False)
    share_steps.refuse_create(None, 'data')


def test_the_references_of_a_create_are_looked_up_once_per_value(monkeypatch):
    asked = []

    def require(client, kind, value, option=None):
        asked.append((kind, value, option))
        return {'id': 'id-of-' + value}
    monkeypatch.setattr(share_steps.lookups, 'require', require)
    found = {}
    p = dict(share_type='gold', availability_zone='az1', share_network=None)
    refs = share_steps.create_references(None, p, found)
    assert refs == {'share_type': {'id': 'id-of-gold'}, 'availability_zone': {'id': 'id-of-az1'}}
    share_steps.create_references(None, dict(p, availability_zone='az2'), found)
    assert asked == [('share_type', 'gold', 'share_type'),
                     ('availability_zone', 'az1', 'availability_zone'),
                     ('availability_zone', 'az2', 'availability_zone')]


def test_a_create_without_a_type_needs_a_default_type():
    with pytest.raises(InvalidInput, match='no default share type'):
        share_steps.require_share_type(None, None)
    share_steps.require_share_type('gold', None)
    share_steps.require_share_type(None, {'id': 't'})


# -- plans ----------------------------------------------------------------------------------
def test_the_plan_of_a_present_share_is_a_create_a_restore_or_an_update():
    made = SharePlan(CREATE)
    assert share_steps.plan_present(None, None, create=lambda: made) is made
    binned = dict(SHARE, is_soft_deleted=True)
    assert share_steps.plan_present(binned, None, restore=True).action == RESTORE
    with pytest.raises(CannotConverge, match='recycle bin'):
        share_steps.plan_present(binned, None)
    plan = share_steps.plan_present(SHARE, lambda: dict(name='new', size=2), rename=True)
    assert plan.action == UPDATE and plan.new_size == 2
    assert plan.update == {'display_name': 'new'}


def test_a_create_needs_name_protocol_and_size():
    with pytest.raises(InvalidInput, match='size is required'):
        share_steps.plan_new(dict(name='d', share_proto='NFS'))
    plan = share_steps.plan_new(dict(name='d', share_proto='nfs', size=1))
    assert plan.body == {'name': 'd', 'share_proto': 'NFS', 'size': 1}


class FakeClient(object):
    def __init__(self):
        self.required = []

    def require(self, feature, what):
        self.required.append((feature, what))


def test_a_soft_delete_needs_its_microversion():
    client = FakeClient()
    assert share_steps.plan_deletion(client, SHARE, False).action == DELETE
    assert client.required == []
    share_steps.plan_deletion(client, SHARE, True)
    assert client.required == [('soft_delete', 'soft_delete')]


# -- writes ---------------------------------------------------------------------------------
class FakeShares(object):
    def __init__(self):
        self.sent = []

    def wait_if_busy(self, share):
        self.sent.append('wait')
        return dict(share, status='available')

    def apply_update(self, share, plan):
        self.sent.append(('update', plan.update))
        return dict(share, **plan.update)

    def restore(self, share_id):
        self.sent.append(('restore', share_id))

    def delete(self, share_id):
        self.sent.append(('delete', share_id))

    def soft_delete(self, share_id):
        self.sent.append(('soft_delete', share_id))


def test_a_namesake_is_adopted_as_a_found_share_or_left_alone():
    shares = FakeShares()
    share, touched = share_steps.adopt(shares, SHARE, dict(description='d'), False, wait=True)
    assert touched and share['display_description'] == 'd'
    assert shares.sent == ['wait', ('update', {'display_description': 'd'})]
    shares = FakeShares()
    share, touched = share_steps.adopt(shares, SHARE, dict(description='d'), False, wait=False,
                                       leave=lambda found: True)
    assert not touched and share is SHARE and shares.sent == []


def test_the_writes_of_a_restore_and_a_deletion():
    shares = FakeShares()
    assert share_steps.send_restore(shares, dict(SHARE, is_soft_deleted=True))['is_soft_deleted'] is False
    share_steps.send_deletion(shares, 's1', soft=False)
    share_steps.send_deletion(shares, 's2', soft=True)
    assert shares.sent == [('restore', SHARE['id']), ('delete', 's1'), ('soft_delete', 's2')]


@pytest.mark.parametrize('share_type, network, snapshot, refused', [
    ({'name': 't', 'extra_specs': {'driver_handles_share_servers': 'False'}}, 'n', None,
     'share_network: share type t does not use share servers'),
    ({'name': 't', 'required_extra_specs': {'driver_handles_share_servers': 'true'}}, None, None,
     'share_network is required: share type t uses share servers'),
    ({'name': 't', 'extra_specs': {'driver_handles_share_servers': 'True'}}, None, 'snap', None),
    ({'name': 't', 'extra_specs': {'driver_handles_share_servers': 'True'}}, 'n', None, None),
    ({'name': 't', 'extra_specs': {'driver_handles_share_servers': 'False'}}, None, None, None),
    ({'name': 't', 'extra_specs': {}}, 'n', None, None),
    (None, 'n', None, None),
])
def test_a_share_network_must_suit_the_types_share_servers(share_type, network, snapshot, refused):
    if refused:
        with pytest.raises(InvalidInput, match='^' + refused):
            share_steps.check_share_servers(share_type, network, snapshot)
    else:
        share_steps.check_share_servers(share_type, network, snapshot)
