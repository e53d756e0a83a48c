# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The value helpers every kind compares with."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.openkeel.manila.plugins.module_utils.values import (
    TEXT_MAX,
    none_if_blank,
    too_long,
    whole_number,
)


@pytest.mark.parametrize('value, expected', [
    (None, None), ('', None), (' ', ' '), ('az1', 'az1'), (0, 0), (False, False)])
def test_none_if_blank(value, expected):
    assert none_if_blank(value) is expected or none_if_blank(value) == expected
    assert type(none_if_blank(value)) is type(expected)


@pytest.mark.parametrize('value, expected', [
    (3, 3), (-1, -1), ('3', 3), (' 7 ', 7), ('-1', -1),
    (True, None), (False, None), (2.0, None), ('2.5', None), ('ten', None), (None, None)])
def test_whole_number(value, expected):
    assert whole_number(value) == expected
    assert type(whole_number(value)) is type(expected)


def test_too_long_names_the_first_field_over_its_limit():
    assert TEXT_MAX == 255
    assert too_long([('name', 'n' * 255), ('description', None), ('x', 5)]) is None
    assert too_long([('name', 'n' * 255), ('description', 'd' * 256), ('server', 's' * 999)]) \
        == 'description is 256 characters long; Manila takes at most 255.'
    assert too_long([('dns_ip', '1' * 65)], {'dns_ip': 64}) \
        == 'dns_ip is 65 characters long; Manila takes at most 64.'
    assert too_long([('dns_ip', '1' * 64)], {'dns_ip': 64}) is None
