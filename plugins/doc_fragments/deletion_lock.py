# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):

    # The share module's delete lock (module_utils/locks.py).
    DOCUMENTATION = r'''
options:
  deletion_lock:
    description:
      - V(true) - the share carries a Manila delete lock (API 2.81+), created once
        the share is available; Manila then refuses to delete, soft-delete or
        unmanage it, whoever asks (the CLI, Horizon, any tool).
      - V(false) - the share carries none; its delete locks are removed (those
        Manila placed for locked access rules excepted - they belong to the rules).
      - When omitted, the locks are left as they are.
      - With O(state=absent) a locked share is refused before any write, naming each
        lock, its reason and the user and project that set it; only
        O(deletion_lock=false) with O(state=absent) lifts the locks and then deletes
        the share. A lock that another project set (an admin's) is only listed to
        admins; Manila still refuses the deletion.
      - See the locks guide (docs/locks.md).
    type: bool
  lock_reason:
    description:
      - Why the share is locked (up to 1023 characters), with O(deletion_lock=true).
        A lock with another reason gets this one (Manila updates it in place).
    type: str
'''
