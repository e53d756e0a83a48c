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
      - Such a lock is learnt from Manila's refusal, which names every lock. When
        the deletion needs writes before it (O(delete_snapshots=true) with
        snapshots, O(deletion_lock=false) with locks to lift), the share's deletion
        is sent first, while they still hold it back, and a lock the task does not
        lift ends the task there, naming its ID, before any snapshot is deleted or
        any lock lifted. Check mode cannot know of such a lock, and
        O(deletion_lock=false) with O(state=present) leaves it (no read shows it).
      - See the locks guide (docs/locks.md).
    type: bool
  lock_reason:
    description:
      - Why the share is locked (up to 1023 characters), with O(deletion_lock=true).
        A lock with another reason gets this one (Manila updates it in place).
    type: str
'''
