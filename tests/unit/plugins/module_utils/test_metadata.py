# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""metadata.py: a task's metadata checked by Manila's rules, the changes an
update makes and how they are sent, and the PUT body of a share or a snapshot."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from types import SimpleNamespace

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils.errors import InvalidInput
from ansible_collections.openkeel.manila.plugins.module_utils.metadata import (
    metadata_changes,
    metadata_items,
    metadata_to_send,
    normalize_metadata,
    send_metadata_plan,
    update_body,
    update_fields,
    user_metadata,
)

# A share or a snapshot as Manila shows it (the fields these helpers read).
RESOURCE = {
    'id': '11111111-2222-3333-4444-555555555555', 'name': 'data', 'description': 'old',
    'is_public': False, 'status': 'available',
    'metadata': {'team': 'a', 'env': 'prod', '__affinity_same_host': 'x'},
}


# -- a task's metadata, checked before any request -------------------------------------------

def test_metadata_normalization():
    assert normalize_metadata(None) == {}
    assert normalize_metadata({1: True, 'b': False, 'c': 2.5}) == {'1': 'True', 'b': 'False', 'c': '2.5'}
    assert user_metadata(None) == {}
    assert user_metadata({'__a': 1, '_b': 2, 'c': 3}) == {'_b': 2, 'c': 3}


def test_metadata_is_checked_by_manilas_rules_before_any_request():
    # manila/api/common.py check_metadata_properties: a blank value is refused
    with pytest.raises(InvalidInput) as err:
        normalize_metadata({'a': ''})
    assert str(err.value) == ("metadata: key 'a' has an empty value, which Manila refuses. "
                              "To remove the key, give it no value (null): a: ~")
    # null means "remove this key": kept as None, never the text 'None'
    assert normalize_metadata({'a': None, 'b': 1}) == {'a': None, 'b': '1'}
    assert metadata_items({'a': 'x'}, "ip rule '1.2.3.4' metadata") == {'a': 'x'}
    with pytest.raises(InvalidInput) as err:
        metadata_items({'a': None}, "ip rule '1.2.3.4' metadata")
    assert str(err.value) == "ip rule '1.2.3.4' metadata: key 'a' has no value (null); give it a value."
    assert metadata_to_send({'a': None, 'b': '1'}) == {'b': '1'}


def test_a_removal_does_not_hide_an_empty_value_after_it():
    with pytest.raises(InvalidInput) as err:
        metadata_items({'a': None, 'b': ''}, removals=True)
    assert "'b'" in str(err.value)
    assert metadata_items({'a': None, 'b': 'x'}, removals=True) == {'a': None, 'b': 'x'}


def test_nested_values_and_reserved_keys_are_named_in_the_refusal():
    with pytest.raises(InvalidInput) as err:
        normalize_metadata({'b': [1], 'a': {}, 'c': 1})
    assert 'a, b holds a list or dict' in str(err.value)
    with pytest.raises(InvalidInput) as err:
        normalize_metadata({'__b': 1, '__a': 1})
    assert str(err.value).endswith(': __a, __b')


# -- what an update changes, and how it is sent ----------------------------------------------

def test_metadata_merge_sets_only_differences():
    assert metadata_changes(RESOURCE['metadata'], {'team': 'b', 'env': 'prod'}, False) == ({'team': 'b'}, [])


def test_metadata_purge_deletes_unlisted_user_keys_but_never_reserved_ones():
    assert metadata_changes(RESOURCE['metadata'], {'team': 'a'}, True) == ({}, ['env'])
    assert metadata_changes(RESOURCE['metadata'], {}, True) == ({}, ['env', 'team'])


def test_metadata_values_compare_as_strings():
    assert metadata_changes({'n': '1', 'b': 'True'}, {'n': 1, 'b': True}, False) == ({}, [])


def test_reserved_metadata_keys_are_refused():
    with pytest.raises(InvalidInput) as err:
        metadata_changes({}, {'__affinity_same_host': 'x'}, False)
    assert '__affinity_same_host' in str(err.value)


def test_null_removes_a_key_with_or_without_purge():
    current = {'a': '1', 'b': '2', '__x': 'y'}
    assert metadata_changes(current, {'a': None}, purge=False) == ({}, ['a'])
    assert metadata_changes(current, {'c': None}, purge=False) == ({}, [])
    assert metadata_changes(current, {'a': None, 'c': 3}, purge=True) == ({'c': '3'}, ['a', 'b'])
    with pytest.raises(InvalidInput):
        metadata_changes(current, {'__x': None}, purge=False)


def test_metadata_changes():
    current = {'a': '1', 'b': '2', '__x': 'y'}
    assert metadata_changes(current, {'a': 1, 'c': True}, purge=False) == ({'c': 'True'}, [])
    assert metadata_changes(current, {'a': 1, 'c': True}, purge=True) == ({'c': 'True'}, ['b'])
    assert metadata_changes(current, {}, purge=True) == ({}, ['a', 'b'])
    assert metadata_changes(None, {'a': '1'}, purge=True) == ({'a': '1'}, [])


class RecordingAPI(object):
    """The two metadata calls of an API class (ShareAPI, SnapshotAPI), recorded."""

    def __init__(self):
        self.calls = []

    def set_metadata(self, resource_id, items):
        self.calls.append(('set', resource_id, dict(items)))

    def delete_metadata_key(self, resource_id, key):
        self.calls.append(('delete', resource_id, key))


def metadata_plan(metadata_set=None, metadata_delete=None):
    return SimpleNamespace(metadata_set=metadata_set or {}, metadata_delete=metadata_delete or [])


def test_a_plan_sets_its_items_in_one_call_then_deletes_each_key():
    api = RecordingAPI()
    resource = dict(RESOURCE, metadata={'a': '1', 'c': '3'})
    after = send_metadata_plan(api, resource, metadata_plan({'b': '2', 'c': '4'}, ['a', 'gone']))
    assert api.calls == [('set', RESOURCE['id'], {'b': '2', 'c': '4'}),
                         ('delete', RESOURCE['id'], 'a'), ('delete', RESOURCE['id'], 'gone')]
    # the resource as Manila now has it; the one given is left as it was
    assert after == dict(resource, metadata={'b': '2', 'c': '4'})
    assert resource['metadata'] == {'a': '1', 'c': '3'}


def test_a_plan_that_only_deletes_sends_no_set():
    api = RecordingAPI()
    after = send_metadata_plan(api, dict(RESOURCE, metadata=None), metadata_plan(metadata_delete=['a']))
    assert api.calls == [('delete', RESOURCE['id'], 'a')]
    assert after['metadata'] == {}


def test_a_plan_without_metadata_changes_sends_nothing():
    api = RecordingAPI()
    assert send_metadata_plan(api, RESOURCE, metadata_plan()) is RESOURCE
    assert api.calls == []


# -- the PUT body of a share or a snapshot ---------------------------------------------------

def test_update_uses_manilas_display_keys_and_only_differences():
    assert update_body(RESOURCE, name='data', description='old', is_public=False) == {}
    assert update_body(RESOURCE, name='new', description='d', is_public=True) == {
        'display_name': 'new', 'display_description': 'd', 'is_public': True}


def test_update_body_each_field():
    s = dict(RESOURCE, description=None, is_public=None)
    assert update_body(s) == {}
    assert update_body(s, name='data', description='', is_public=False) == {}
    assert update_body(s, name='new', description='x', is_public=True) == {
        'display_name': 'new', 'display_description': 'x', 'is_public': True}
    assert update_body(dict(RESOURCE, is_public=True), is_public=0) == {'is_public': 0}


def test_what_a_put_shows_once_applied():
    assert update_fields({'display_name': 'n', 'display_description': 'd', 'is_public': True}) == {
        'name': 'n', 'description': 'd', 'is_public': True}
    assert update_fields({}) == {}
