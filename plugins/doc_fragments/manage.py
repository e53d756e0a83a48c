# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):

    # openkeel.manila.share: bring existing storage under Manila (issue 24).
    SHARE = r'''
options:
  manage:
    description:
      - Storage Manila does not know, to bring under Manila as the share
        O(name) (C(POST /shares/manage)) when no share of that name exists,
        with O(state=present). The task then waits until the share is
        available and fails at once on C(manage_error), with Manila's user
        messages. Once the share exists, the task converges it like any
        share (O(description), O(metadata), O(is_public)) and manages
        nothing again.
      - Admin only under Manila's default policy. Checked before any write -
        the pool O(manage.host) (in the scheduler's pools, which only an
        admin may list, so a member is refused here), the share type, and
        O(manage.share_server_id) against the type's
        C(driver_handles_share_servers), and, when O(manage.project) is
        given, the project of the task's token.
      - Manila puts the managed share in the project of the token that
        manages it, whatever project the share belonged to before it was
        unmanaged. An admin's manage of a member's share puts it in the
        admin's project, out of the member's sight. Run the task scoped to
        the project the share belongs to (credentials of a user with the
        admin role in that project), and give O(manage.project) so that a
        task scoped to another project is refused before any write. Without
        it, nothing tells the task which project the storage belonged to -
        the task warns when it manages (check mode too), naming the project
        the share lands in, as do the check-mode message and the share's
        C(project_id) in the result; a share's unmanage names the project to
        manage it into again.
      - Manila takes the size from the storage; O(size), O(share_proto),
        O(share_type), O(share_network), O(snapshot), O(availability_zone),
        O(scheduler_hints), O(mount_point_name), O(restore) and O(id) cannot
        be given with it.
      - O(state=unmanaged) is the way back - Manila forgets the share, the
        storage keeps the data.
    type: dict
    suboptions:
      export_path:
        description:
          - The export path of the storage as the backend knows it, for
            example C(10.0.0.10:/path/to/fake/share/share_1) (an export path
            Manila showed for the share before it was unmanaged).
        type: str
        required: true
      host:
        description:
          - The pool the storage is on, C(host@backend#pool), as
            M(openkeel.manila.share_pool_info) lists them (also the C(host) of
            a share as an admin sees it).
        type: str
        required: true
      protocol:
        description:
          - The share's protocol, for example V(NFS) or V(CIFS) (case does
            not matter).
        type: str
        required: true
      share_type:
        description:
          - Share type name or ID of the managed share; the cloud's default
            type when omitted.
        type: str
      driver_options:
        description:
          - Options for the backend's driver, passed to it as given (what a
            driver reads is the driver's own; Manila's Dummy driver reads
            none and reports a size of 1 GiB).
        type: dict
      is_public:
        description:
          - Whether the managed share is visible to every project (API 2.8+).
          - Same meaning as O(is_public); give one of them.
        type: bool
      share_server_id:
        description:
          - The share server the storage is on (API 2.49+), required for a
            share type with C(driver_handles_share_servers=true), refused
            for the others.
        type: str
      project:
        description:
          - The project (name or ID) the managed share must belong to.
            Manila puts it in the project of the task's token; when the
            token is scoped to another project, the task is refused before
            any write, naming the project the token is scoped to.
          - Compared with the token's own project name and ID, so it costs
            no request.
          - When omitted, the share lands in the token's project unchecked.
        type: str
'''

    # openkeel.manila.share_snapshot: bring an existing snapshot under Manila.
    SNAPSHOT = r'''
options:
  manage:
    description:
      - A snapshot on the storage, to bring under Manila as the snapshot
        O(name) of O(share) (C(POST /snapshots/manage), API 2.12+) when the
        share has no snapshot of that name, with O(state=present). The task
        waits until it is available and fails at once on C(manage_error).
        Once it exists, the task converges it like any snapshot and manages
        nothing again.
      - Admin only under Manila's default policy (a member is refused
        before any write). O(share) must be in Manila already.
      - Manila puts the managed snapshot in the project of the token that
        manages it, not in the project of its share. The share's project
        could neither see nor delete a snapshot in another project, so the
        task is refused
        before any write when O(share) is in another project than the
        task's token (an admin sees a share's C(project_id)). Run the task
        scoped to the share's project, with credentials of a user with the
        admin role in it.
      - Checked before any write - the microversion, that the task's user
        is taken for an admin (Manila shows it the share's C(host)), that
        the share has no replicas, and the share's project against the
        token's. Manila checks O(manage.provider_location) itself, after the
        request - a wrong one ends in C(manage_error).
      - O(state=unmanaged) is the way back - Manila forgets the snapshot,
        the storage keeps it.
    type: dict
    suboptions:
      provider_location:
        description:
          - The snapshot as the backend knows it (an admin sees it as the
            C(provider_location) of a snapshot).
        type: str
        required: true
      driver_options:
        description:
          - Options for the backend's driver, passed to it as given.
        type: dict
'''
