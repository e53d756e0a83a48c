# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The bad-input table (bad_inputs.yml) against the real local cloud.

Each row runs its module once, the way Ansible does, and must fail with a
message that names the option at fault and send no write to Manila: every
request the module sends is recorded, and none may be a POST, PUT, DELETE or
PATCH.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import string
import uuid

import pytest
import yaml

import harness

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'bad_inputs.yml')
POOL_ALPHA = os.environ.get('OPENKEEL_POOL_ALPHA', 'openkeel@alpha#fake_pool_for_ALPHA')
# The modules on main when the table was made; every one has rows.
COVERED = ('share', 'share_info', 'share_access', 'share_access_info', 'share_migration',
           'share_migration_info', 'share_pool_info', 'share_snapshot', 'share_snapshot_info',
           'share_message_info', 'share_network', 'share_network_info', 'security_service',
           'security_service_info', 'share_type')

with open(TABLE) as handle:
    ROWS = yaml.safe_load(handle)


def test_the_table_is_sound():
    ids = [row['id'] for row in ROWS]
    assert len(ids) == len(set(ids)), 'duplicate ids'
    assert len(ROWS) >= 60
    assert set(COVERED) <= set(row['module'] for row in ROWS)
    for row in ROWS:
        assert set(row) <= {'id', 'module', 'args', 'expect', 'cloud'}, row
        assert row['expect'] and os.path.exists(os.path.join(
            harness.COLLECTION, 'plugins', 'modules', row['module'] + '.py')), row


@pytest.fixture(scope='session')
def references():
    """What the rows refer to: an admin share, a member share, a share type's ID."""
    admin = harness.Admin()
    member = harness.Admin('member')
    tag = harness.unique('flt-bad')
    share = admin.create(tag + '-admin', wait=False)
    member_share = member.create(tag + '-member', wait=False)
    admin.wait(share['id'])
    admin.wait(member_share['id'])
    types = admin.call('GET', 'types', params={'is_public': 'all'}).json()['share_types']
    values = {
        'share_name': share['name'], 'share_id': share['id'],
        'member_share_name': member_share['name'],
        'type_id': [t['id'] for t in types if t['name'] == 'alpha'][0],
        'missing_uuid': str(uuid.uuid4()), 'pool_alpha': POOL_ALPHA,
        'new_name': tag + '-new', 'long_300': 'x' * 300, 'long_1100': 'y' * 1100,
    }
    yield values
    admin.cleanup(tag)


def fill(value, values):
    if isinstance(value, str):
        return string.Template(value).safe_substitute(values)
    if isinstance(value, list):
        return [fill(item, values) for item in value]
    if isinstance(value, dict):
        return dict((fill(k, values), fill(v, values)) for k, v in value.items())
    return value


@pytest.mark.parametrize('row', ROWS, ids=[row['id'] for row in ROWS])
def test_bad_input_fails_naming_the_option_and_writes_nothing(coll_path, references, row):
    args = fill(row['args'], references)
    run = harness.run_module(coll_path, row['module'], args, cloud=row.get('cloud', 'admin'))
    assert run.failed, run
    assert 'MODULE CRASH' not in run.msg, run.msg
    for expected in fill(row['expect'], references):
        assert expected in run.msg, run.msg
    assert run.writes() == [], run.writes()
