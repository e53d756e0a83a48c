# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The share type and security service plans (pure functions)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils import security_services as ss
from ansible_collections.openkeel.manila.plugins.module_utils import share_types as st
from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput

TYPE = {'id': '33333333-0000-0000-0000-000000000001', 'name': 'gold', 'description': 'old',
        'share_type_access:is_public': False,
        'extra_specs': {'driver_handles_share_servers': 'False', 'a': '1'}}


def test_extra_specs_are_strings_and_checked_like_manila():
    assert st.prepare_extra_specs({'snapshot_support': True, 'n': 3}, False) == {
        'snapshot_support': 'True', 'n': '3', 'driver_handles_share_servers': 'False'}
    with pytest.raises(InvalidInput) as err:
        st.prepare_extra_specs({'bad key': 'x', 'long': 'y' * 256, 'empty': ''}, None)
    message = str(err.value)
    assert "'bad key'" in message and "'long'" in message and "'empty'" in message
    with pytest.raises(InvalidInput):
        st.prepare_extra_specs({'driver_handles_share_servers': 'maybe'}, None)


def test_a_type_needs_dhss_to_be_created_and_projects_need_it_private():
    with pytest.raises(InvalidInput) as err:
        st.plan_create('gold', {'a': '1'})
    assert 'driver_handles_share_servers is required' in str(err.value)
    with pytest.raises(InvalidInput) as err:
        st.plan_create('gold', {'driver_handles_share_servers': 'True'}, projects=['a' * 32])
    assert 'is_public=false' in str(err.value)
    plan = st.plan_create('gold', {'driver_handles_share_servers': 'True'}, 'd', False,
                          ['a' * 32])
    assert plan.body == {'name': 'gold', 'description': 'd', 'share_type_access:is_public': False,
                         'extra_specs': {'driver_handles_share_servers': 'True'}}
    assert plan.grant == ['a' * 32]
    assert st.required_features(plan) == [('share_type_description',
                                           'A share type description')]


def test_updates_merge_unless_purged_and_compare_description_to_empty():
    plan = st.plan_update(TYPE, {'b': '2'}, description='old')
    assert (plan.specs_set, plan.specs_delete, plan.update) == ({'b': '2'}, [], {})
    plan = st.plan_update(TYPE, {'b': '2'}, purge_specs=True, description='')
    assert plan.specs_delete == ['a'] and plan.update == {'description': ''}
    assert plan.after['extra_specs'] == {'driver_handles_share_servers': 'False', 'b': '2'}
    assert st.plan_update(dict(TYPE, description=None), {}, description='').action == st.NOTHING


def test_projects_are_names_or_ids_and_compared_exactly():
    assert st.prepare_projects(['demo', ' demo', 'a' * 32]) == ['a' * 32, 'demo']
    with pytest.raises(InvalidInput) as err:
        st.prepare_projects(['demo', ''])
    assert 'projects: an empty project name or ID' in str(err.value)
    # An entry spelt unlike Keystone's ID gives no access: it is replaced.
    dashed = 'aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa'
    plan = st.plan_update(TYPE, {}, projects=[dashed], current_projects=['a' * 32])
    assert (plan.grant, plan.revoke) == ([dashed], ['a' * 32])


def test_service_settings_compare_with_empty_as_unset_and_rename_only_by_id():
    service = {'id': 'x', 'name': 'ldap', 'type': 'ldap', 'server': None, 'domain': 'd'}
    assert ss.plan_update(service, {'server': '', 'domain': 'd', 'name': 'other'}).action \
        == ss.NOTHING
    plan = ss.plan_update(service, {'name': 'other', 'domain': ''}, rename=True)
    assert plan.body == {'name': 'other', 'domain': ''}
    assert plan.restricted() == ['domain']
    with pytest.raises(InvalidInput) as err:
        ss.plan_update(service, {'type': 'kerberos'})
    assert 'a type cannot change' in str(err.value)


def test_service_validation_names_what_manila_accepts():
    with pytest.raises(InvalidInput) as err:
        ss.validate({'type': 'nis'})
    assert 'active_directory, kerberos, ldap' in str(err.value)
    with pytest.raises(InvalidInput) as err:
        ss.validate({'type': 'ldap'}, update_password='always')
    assert 'needs password' in str(err.value)
    with pytest.raises(InvalidInput) as err:
        ss.plan_create({'name': 'x'})
    assert 'type is required' in str(err.value)
    assert ss.required_features({'ou': 'OU=x', 'default_ad_site': ''}) == [
        ('security_service_ou', 'ou')]
