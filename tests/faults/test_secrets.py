# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""No secret leaves a module: every module runs at -vvv with an ``auth`` dict
(a password), through the fault proxy, which records every Keystone token
and gives every access rule Manila returns a cephx key.  Neither the
password, nor a token, nor the key may appear in what ansible-playbook
prints or logs (which includes every module's result and invocation).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import subprocess
import sys

import yaml

import harness

CEPHX_KEY = 'AQDsecretcephxkeyoftheproxy0000000000000=='

PLAYBOOK = '''
- hosts: localhost
  gather_facts: false
  module_defaults:
    group/openkeel.manila.manila:
      auth: "{{ secret_auth }}"
      auth_type: password
      region_name: RegionOne
  vars:
    share_name: "{{ prefix }}"
  tasks:
    - name: share
      openkeel.manila.share: {name: "{{ share_name }}", size: 1, share_proto: NFS}
    - name: share_info
      openkeel.manila.share_info: {name: "{{ share_name }}", with_export_locations: true}
    - name: share_access
      openkeel.manila.share_access:
        share: "{{ share_name }}"
        rules: [{access_type: ip, access_to: 10.63.0.0/24}]
    - name: share_access_info
      openkeel.manila.share_access_info: {share: "{{ share_name }}"}
    - name: share_pool_info
      openkeel.manila.share_pool_info: {}
    - name: share_migration
      openkeel.manila.share_migration: {share: "{{ share_name }}", state: cancelled}
    - name: share_migration_info
      openkeel.manila.share_migration_info: {share: "{{ share_name }}"}
    - name: a failure from Manila
      openkeel.manila.share_info: {share_type: no-such-type}
      ignore_errors: true
    - name: a failure on input
      openkeel.manila.share_access:
        share: "{{ share_name }}"
        rules: [{access_type: ip, access_to: 10.0.0.5/24}]
      ignore_errors: true
    - name: share, gone
      openkeel.manila.share: {name: "{{ share_name }}", state: absent}
'''


def test_no_password_token_or_cephx_key_in_output_or_logs(coll_path, prefix, proxy, tmp_path):
    proxy.inject_access_key = CEPHX_KEY
    auth = dict(harness.load_clouds()['admin']['auth'])
    password = auth['password']
    auth['auth_url'] = proxy.urls['keystone'] + '/v3'
    playbook = tmp_path / 'secrets.yml'
    playbook.write_text(PLAYBOOK)
    extra = tmp_path / 'vars.yml'
    extra.write_text(yaml.safe_dump({'secret_auth': auth, 'prefix': prefix}))
    log = tmp_path / 'ansible.log'
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=coll_path, ANSIBLE_LOG_PATH=str(log),
               ANSIBLE_COLLECTIONS_SCAN_SYS_PATH='false', ANSIBLE_LOCALHOST_WARNING='false',
               ANSIBLE_INVENTORY_UNPARSED_WARNING='false', ANSIBLE_NOCOLOR='1',
               ANSIBLE_PYTHON_INTERPRETER=sys.executable)
    env.pop('OS_CLIENT_CONFIG_FILE', None)
    env.pop('OS_CLOUD', None)
    ansible_playbook = os.path.join(os.path.dirname(sys.executable), 'ansible-playbook')
    proc = subprocess.run([ansible_playbook, '-vvv', '-i', 'localhost,', '-c', 'local',
                           str(playbook), '-e', '@%s' % extra],
                          env=env, capture_output=True, text=True, timeout=600, check=False)
    output = proc.stdout + proc.stderr + (log.read_text() if log.exists() else '')
    assert proc.returncode == 0, output[-5000:]
    # The run did what the test relies on: every module ran against Manila
    # through the proxy, Keystone issued tokens, rules came back with a key.
    for module in ('share', 'share_info', 'share_access', 'share_access_info',
                   'share_pool_info', 'share_migration', 'share_migration_info'):
        assert 'AnsiballZ_%s.py' % module in output, module
    assert proxy.tokens, 'no Keystone token went through the proxy'
    assert proxy.requests(upstream='manila', path=r'^/v2/share-access-rules')
    assert "'invocation'" in output or '"invocation"' in output
    leaks = [name for name, secret in [('password', password), ('cephx key', CEPHX_KEY)]
             + [('token %s...' % token[:8], token) for token in sorted(proxy.tokens)]
             if secret in output]
    assert leaks == [], 'found in the output of ansible-playbook -vvv: %s' % ', '.join(leaks)
