#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: share_migration_info
short_description: Read the migration state of an OpenStack Manila share
version_added: 0.1.0
description:
  - Returns where a share lives, whether a migration is in flight, where it
    is going, its task state, and its progress as Manila reports it.
  - Changes nothing; polling with it is safe (the role
    P(openkeel.manila.share_migrate#role) prints its progress line from it).
  - Reads the share; with a migration in flight also its instances (for the
    destination) and the migration progress (C(GET
    /shares/{id}/migration-progress) on API 2.98+, the
    C(migration_get_progress) action below). Both are admin-only under
    Manila's default policy.
author:
  - openkeel.manila contributors (@openkeel)
extends_documentation_fragment:
  - openkeel.manila.auth
  - openkeel.manila.attributes.info_module
options:
  share:
    description: Name or ID of the share.
    type: str
    required: true
seealso:
  - module: openkeel.manila.share_migration
'''

EXAMPLES = r'''
- name: Where is the migration of projects?
  openkeel.manila.share_migration_info:
    cloud: admin
    share: projects
  register: moving

- name: Say it
  ansible.builtin.debug:
    msg: "{{ moving.migration.total_progress }}% ({{ moving.migration.task_state }})"
'''

RETURN = r'''
share:
  description: The share (ID, name, host, status, task_state, ...).
  returned: always
  type: dict
migration:
  description: The migration's state.
  returned: always
  type: dict
  contains:
    task_state:
      description: Manila's task state (None when no migration ever ran).
      type: str
    total_progress:
      description: Percent done as Manila reports it (None without a migration in flight).
      type: int
    details:
      description: Driver-specific details (API 2.59+).
      type: dict
    source_host:
      description: The pool the share lives on (or leaves).
      type: str
    destination_host:
      description: The pool a migration in flight goes to.
      type: str
    in_flight:
      description: Whether a migration is in flight.
      type: bool
    phase1_done:
      description: Whether the data is copied and the migration awaits its cutover.
      type: bool
    failed:
      description: Whether the last migration ended in an error task state.
      type: bool
api_version:
  description: The microversion negotiated with Manila for this task.
  returned: always
  type: str
'''

from ansible_collections.openkeel.manila.plugins.module_utils import lookups
from ansible_collections.openkeel.manila.plugins.module_utils.base import ManilaModule
from ansible_collections.openkeel.manila.plugins.module_utils.migration import (
    MigrationAPI,
    in_flight,
    summarize,
)
from ansible_collections.openkeel.manila.plugins.module_utils.states import (
    MIGRATION_ERROR_STATES,
    MIGRATION_PHASE1_DONE_STATES,
)


class ShareMigrationInfoModule(ManilaModule):
    argument_spec = dict(
        share=dict(type='str', required=True),
    )

    def run(self):
        self.client.require('migration', 'Share migration')
        api = MigrationAPI(self.client)
        share = lookups.require(self.client, 'share', self.params['share'])
        if 'host' not in share:
            self.warn('Manila does not show this user the share\'s host: share '
                      'migration and its details are admin-only by default.')
        progress = source = destination = None
        moving = in_flight(share)
        if moving:
            source, destination = api.hosts(share['id'])
            progress = api.progress(share['id'])
        migration = summarize(share, progress, source, destination)
        migration['in_flight'] = moving
        migration['phase1_done'] = migration['task_state'] in MIGRATION_PHASE1_DONE_STATES
        migration['failed'] = migration['task_state'] in MIGRATION_ERROR_STATES
        self.finish(share=share, migration=migration)


def main():
    ShareMigrationInfoModule()()


if __name__ == '__main__':
    main()
