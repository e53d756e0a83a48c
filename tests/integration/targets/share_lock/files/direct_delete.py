# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Delete a share the way any other tool does, past this collection: one DELETE
with openstacksdk's session. Prints the HTTP status and Manila's answer as JSON.

Usage: python direct_delete.py CLOUD SHARE_ID
"""

from __future__ import absolute_import, division, print_function

import json
import sys

import openstack


def main():
    cloud, share_id = sys.argv[1:3]
    conn = openstack.connect(cloud=cloud)
    answer = conn.shared_file_system.delete(
        '/shares/%s' % share_id, headers={'X-OpenStack-Manila-API-Version': '2.81'},
        raise_exc=False)
    print(json.dumps({'status': answer.status_code, 'body': answer.text}))


if __name__ == '__main__':
    main()
