# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Fixtures of the fault, bad-input and secrets tests (see harness.py)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import shutil

import pytest

import harness
from fault_proxy import FaultProxy


def pytest_configure(config):
    if not os.path.exists(harness.CLOUDS_YAML):
        raise pytest.UsageError('%s is missing: run tests/cloud/manila-cloud up first.'
                                % harness.CLOUDS_YAML)


@pytest.fixture(scope='session')
def coll_path():
    path = harness.collections_path()
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope='session')
def admin():
    return harness.Admin()


@pytest.fixture
def prefix(admin):
    """A name prefix of this test's own; its shares are deleted afterwards."""
    name = harness.unique()
    yield name
    admin.cleanup(name)


@pytest.fixture
def proxy():
    with FaultProxy({'keystone': harness.KEYSTONE, 'manila': harness.MANILA},
                    lifetime=600) as running:
        yield running


@pytest.fixture
def proxied(proxy, tmp_path):
    """A clouds.yaml whose clouds talk to Keystone and Manila through ``proxy``."""
    return harness.write_clouds_yaml(str(tmp_path), proxy)
