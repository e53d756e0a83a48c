# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):

    # Options shared by every module (connection.connection_argument_spec):
    # those of openstack.cloud's doc fragment with their names, types, defaults
    # and meaning, so clouds.yaml files and module_defaults carry over.
    DOCUMENTATION = r'''
options:
  cloud:
    description:
      - Name of a cloud in C(clouds.yaml), or a dict holding a whole cloud
        configuration.
      - When omitted, openstacksdk's usual sources apply (C(OS_CLOUD),
        C(OS_*) variables, the C(auth) option).
      - The file is found the way openstacksdk finds it, for example through
        C(OS_CLIENT_CONFIG_FILE).
    type: raw
  auth:
    description:
      - Authentication parameters (C(auth_url), C(username), C(password),
        C(project_name), C(user_domain_name), ...) that override or replace
        those of O(cloud).
      - Secrets in it are never logged.
    type: dict
  auth_type:
    description:
      - Keystone authentication plugin, for example C(password),
        C(v3applicationcredential) or C(token).
    type: str
  region_name:
    description:
      - Region whose shared-file-system endpoint is used.
    type: str
  interface:
    description:
      - Which endpoint of the catalog to use.
    type: str
    choices: [admin, internal, public]
    default: public
    aliases: [endpoint_type]
  validate_certs:
    description:
      - Whether TLS certificates are verified. Defaults to the cloud
        configuration, else C(true).
    type: bool
    aliases: [verify]
  ca_cert:
    description:
      - A CA bundle used to verify TLS certificates.
    type: str
    aliases: [cacert]
  client_cert:
    description:
      - A client certificate for TLS client authentication.
    type: str
    aliases: [cert]
  client_key:
    description:
      - The private key of O(client_cert).
    type: str
    aliases: [key]
  api_timeout:
    description:
      - Seconds to wait for one HTTP answer. Must be above 0; unset, a request
        waits as long as it takes. A request that takes longer fails saying that
        it timed out.
    type: int
  wait:
    description:
      - Whether a module that starts asynchronous work in Manila waits until
        it is done. Such a module documents what it waits for.
      - Modules that only read (the C(_info) modules) accept it and ignore
        it, so C(module_defaults) shared with C(openstack.cloud) work.
    type: bool
    default: true
  timeout:
    description:
      - How many seconds a module that waits gives each asynchronous step.
      - Modules that only read (the C(_info) modules) accept it and ignore it.
    type: int
    default: 180
  sdk_log_path:
    description:
      - Append the log of openstacksdk and keystoneauth to this file, as
        C(openstack.cloud) does. Without it nothing is logged.
      - Secrets (passwords, tokens, cephx access keys) are replaced by
        C(<redacted>) in the file.
    type: str
  sdk_log_level:
    description:
      - Level of the log written to O(sdk_log_path). V(DEBUG) adds every HTTP
        request and response (headers and bodies) the task sends to Keystone
        and Manila.
    type: str
    default: INFO
    choices: [INFO, DEBUG]
  api_version:
    description:
      - Highest Manila API microversion to use, for example C(2.65).
      - The collection negotiates once per task the lowest of the newest
        version it knows (2.99), the server's newest and this cap.
      - Manila's microversions are all 2.x; a cap such as C(3.0) is refused.
      - Features newer than the negotiated version fail before any write, with
        a message naming the version they need.
    type: str
requirements:
  - python >= 3.11
  - openstacksdk >= 4.22.0
  - keystoneauth1 >= 5.18.1
notes:
  - Talks to the v2 API of the C(shared-file-system) service (catalog type
    C(sharev2)); the v1 C(share) endpoint is never used.
'''
