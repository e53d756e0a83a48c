# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The base every module of the collection builds on.

A module sets ``argument_spec`` (and ``module_kwargs``) and implements
``run()``, which ends with ``self.finish(...)``.  The base adds the
connection options (connection.py), connects on first use of
``self.client``, produces the result (diff in diff mode, warnings, the
negotiated microversion) and is the one place where errors become a failure:
input errors, Manila's refusals, failed waits.  A failure after Manila
accepted writes of the task reports ``changed: true`` and those writes.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.module_utils.basic import AnsibleModule, missing_required_lib

from ansible_collections.openkeel.manila.plugins.module_utils import connection
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CheckModeWrite,
    Forbidden,
    InvalidInput,
    ManilaError,
    WaitFailed,
)

# How many accepted writes a failure message names (the result lists them all).
MAX_WRITES_SHOWN = 5


def wait_argument_spec(default_timeout):
    """``wait`` and ``timeout`` for a module that waits on Manila."""
    return dict(
        wait=dict(type='bool', default=True),
        timeout=dict(type='int', default=default_timeout),
    )


def forbidden_hint(exc):
    """What a 403 means: Manila answers 403 both when its policy forbids the
    call and when a resize exceeds a quota."""
    if 'quota' in (exc.message or '').lower():
        return ('The project\'s quota leaves no room for it: an admin can raise it '
                '(openkeel.manila.share_quota), or ask for less.')
    return 'The policy of this cloud does not allow it for this user; it may need an admin.'


def create_and_settle(task, api, body, kind, busy_states, taken='created'):
    """The create flow the resource modules share: create -> wait -> settle namesakes.

    ``api`` (ShareAPI, SnapshotAPI) sends the create of ``body``; with the
    task's ``wait``, a wait that fails ends the task naming the resource
    ``kind`` left behind.  Returns ``(resource, adopt)``: ``adopt`` is true
    when another task created a namesake at the same moment and this task
    keeps that one (it waited, or the namesake is not busy): the module then
    converges on it as on a resource it had found.
    """
    wait = task.params['wait']
    resource = api.create(body)
    if wait:
        try:
            resource = api.wait(resource)
        except WaitFailed as exc:
            task.fail('%s The %s %s was %s and is left in that state; delete it with '
                      'state=absent.' % (exc, kind, resource['id'], taken),
                      **{kind: resource})
    resource, adopted = api.settle_namesakes(resource, wait)
    return resource, adopted and (wait or resource.get('status') not in busy_states)


class ManilaModule(object):
    """Subclasses set ``argument_spec`` (and friends) and implement ``run()``."""

    argument_spec = {}
    module_kwargs = {}

    @classmethod
    def full_argument_spec(cls):
        """The module's options: the common ones (connection.py), then its own."""
        spec = connection.connection_argument_spec()
        spec.update(cls.argument_spec)
        return spec

    def __init__(self):
        self.ansible = AnsibleModule(argument_spec=self.full_argument_spec(),
                                     supports_check_mode=True, **self.module_kwargs)
        self.params = self.ansible.params
        self.check_mode = self.ansible.check_mode
        self.diff_mode = self.ansible._diff
        self.warnings = []
        self._client = None
        timeout = self.params.get('timeout')
        if timeout is not None and timeout < 1:
            self.fail('timeout must be a positive number of seconds, got %s.' % timeout)

    @property
    def client(self):
        if self._client is None:
            self._client = self._connect()
        return self._client

    def _connect(self):
        if connection.SDK_IMPORT_ERROR is not None:
            self.ansible.fail_json(msg=missing_required_lib('openstacksdk'),
                                   exception=connection.SDK_IMPORT_ERROR)
        connection.setup_sdk_logging(self.params)
        return connection.connect(self.params, check_mode=self.check_mode)

    # -- running ---------------------------------------------------------
    def run(self):
        raise NotImplementedError

    def warn(self, message):
        self.warnings.append(message)

    def all_warnings(self):
        """The module's warnings, then the client's (recoveries, races)."""
        found = list(self.warnings)
        if self._client is not None:
            found.extend(w for w in self._client.warnings if w not in found)
        return found

    def hand_over_warnings(self):
        """Give every warning to AnsibleModule.warn, which puts them into the result
        (a ``warnings`` key handed to exit_json is deprecated from ansible-core 2.19)."""
        for message in self.all_warnings():
            self.ansible.warn(message)

    def finish(self, changed=False, before=None, after=None, **result):
        """Exit with the result; ``before``/``after`` become the diff in diff mode."""
        result['changed'] = changed
        if self.diff_mode and (before is not None or after is not None):
            result['diff'] = dict(before=before if before is not None else {},
                                  after=after if after is not None else {})
        self.hand_over_warnings()
        if self._client is not None and self._client.version is not None:
            result.setdefault('api_version', str(self._client.version))
        self.ansible.exit_json(**result)

    def accepted_writes(self):
        """The writes Manila accepted in this task (client.accepted), in order."""
        return list(self._client.accepted) if self._client is not None else []

    def fail(self, msg, **extra):
        """Fail the task.  When Manila had already accepted writes of this task,
        the failure says so: ``changed`` is true (the cloud moved) and
        ``accepted_writes`` lists them, so that a pipeline knows."""
        self.hand_over_warnings()
        accepted = self.accepted_writes()
        if accepted:
            extra['changed'] = True
            extra['accepted_writes'] = accepted
            shown = '; '.join(accepted[:MAX_WRITES_SHOWN])
            if len(accepted) > MAX_WRITES_SHOWN:
                shown += '; and %d more (see accepted_writes)' % (len(accepted) - MAX_WRITES_SHOWN)
            msg = '%s Manila had already accepted %s of this task, so the cloud was ' \
                  'changed: %s.' % (msg, '1 write' if len(accepted) == 1 else
                                    '%d writes' % len(accepted), shown)
        self.ansible.fail_json(msg=msg, **extra)

    def __call__(self):
        try:
            self.run()
        except CheckModeWrite as exc:
            self.fail('Internal error: %s. Nothing was sent.' % exc)
        except InvalidInput as exc:
            self.fail(exc.message, **exc.result)
        except Forbidden as exc:
            self.fail('Manila refused the request: %s. %s' % (exc, forbidden_hint(exc)),
                      status=exc.status, request_id=exc.request_id, **exc.result)
        except ManilaError as exc:
            self.fail(str(exc), status=exc.status, request_id=exc.request_id,
                      **exc.result)
