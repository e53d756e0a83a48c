# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The base every module of the collection builds on.

A module sets ``argument_spec`` (and ``module_kwargs``) and implements
``run()``, which ends with ``self.finish(...)``; a write module's ``run()``
hands over to the converge template (``ManilaModule.converge``), which ends
the task from the module's hooks.  The base adds the
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
from ansible_collections.openkeel.manila.plugins.module_utils.resource import DELETE
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CheckModeWrite,
    Forbidden,
    InvalidInput,
    ManilaError,
    WaitFailed,
)

# How many accepted writes a failure message names (the result lists them all).
MAX_WRITES_SHOWN = 5


def option_error(messages, msg):
    """The message of a failed check of the options that names the option.

    For a string given where a list of dicts is expected (``rules: foo``),
    ansible-core's first error is "dictionary requested, could not parse JSON
    or key=value", without the option; a later one of the same check names it.
    """
    if msg is None or not msg.startswith('dictionary requested'):
        return msg
    for message in messages or ():
        if "option '" in message and 'convert to dict' in message:
            return message + ('. Give a list of dicts (in YAML, a list of mappings), '
                              'not a string.')
    return msg


class OptionsModule(AnsibleModule):
    """AnsibleModule whose failure to check the task's options names the option."""

    def fail_json(self, msg=None, **kwargs):
        result = getattr(self, 'validation_result', None)
        if not getattr(self, 'options_checked', False) and result is not None:
            msg = option_error(result.error_messages, msg)
        super(OptionsModule, self).fail_json(msg=msg, **kwargs)


def bool_where_int(spec, params, prefix=''):
    """(option, value) of the first boolean given for an int option (suboptions
    too), or None.  ansible-core takes ``true`` as an int (a bool is one in
    Python), and Manila would see ``size: true``."""
    for name, option in spec.items():
        value = (params or {}).get(name)
        if value is None:
            continue
        where = prefix + name
        if option.get('type') == 'int' and isinstance(value, bool):
            return where, str(value).lower()
        if option.get('type') == 'list' and option.get('elements') == 'int' \
                and isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, bool):
                    return '%s[%d]' % (where, index), str(item).lower()
        suboptions = option.get('options')
        if suboptions and isinstance(value, dict):
            found = bool_where_int(suboptions, value, where + '.')
            if found:
                return found
        if suboptions and isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, dict):
                    found = bool_where_int(suboptions, item, '%s[%d].' % (where, index))
                    if found:
                        return found
    return None


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


def last_read(exc, resource):
    """The resource as the failed wait ``exc`` last read it; ``resource``
    (what the task knew before the wait) when the wait read none."""
    return exc.resource if exc.resource is not None else resource


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
                      **{kind: last_read(exc, resource)})
    resource, adopted = api.settle_namesakes(resource, wait)
    return resource, adopted and (wait or resource.get('status') not in busy_states)


class ManilaModule(object):
    """Subclasses set ``argument_spec`` (and friends) and implement ``run()``.

    A write module's ``run()`` reads its input, makes its API objects and
    calls ``self.converge()``, the template every write module follows; the
    module implements only its hooks:

    ``find_current()``
        The resource as Manila has it now, or None.
    ``plan(current)``
        A ``resource.Plan``: its ``action`` (``resource.NOTHING`` when the
        resource is as the task wants it), the ``before`` and ``after`` of
        the diff, ``changed``.  Every refusal is raised here, before any
        write.  A plan that read the resource again (it waited until it
        was at rest) sets ``plan.current`` to that: the hooks that follow
        get it as ``current``.  Besides create, update and delete, a plan's
        action may be any a module dispatches to: ``manage``, ``unmanage``
        (tasks/manage.py), ``revert`` (tasks/snapshot.py), ``accept``
        (share_transfer), each with its ``apply_<action>``.
    ``as_is(plan, current)``
        The resource of a plan that changes nothing: by default
        ``current``.  A module whose resource may be as asked but still
        busy (a replica syncing, a migration in flight) waits for it here,
        outside check mode, and may set ``plan.after``.
    ``predict(plan, current)``
        The resource as check mode shows it for a plan that changes
        something: by default ``current``, and None for a
        ``resource.DELETE`` plan.
    ``apply(plan, current)``
        Send the plan's writes and wait; returns the resource as it ends
        (None: deleted).  The default calls ``apply_<action>(plan,
        current)``.  It may set ``plan.after`` to what it read back.
    ``applied_changes(plan)``
        Whether ``apply`` changed the cloud: true by default; false for a
        plan that stopped before its first write (a migration's
        ``wait=false`` before a wait).
    ``result(plan, resource)``
        The module's own keys of the result (``share_type=...``);
        ``plan`` and ``resource`` are None when the resource was already
        gone.  It runs before the diff is taken, so it may set
        ``plan.before`` and ``plan.after`` (to what it read back, or with
        what follows the resource's own writes: a share's deletion lock,
        whose writes ``result_changed()`` then reports).

    The template (``converge()``, or ``converge_on(current)`` for a module
    that looked already) runs them in this order and owns what every module
    did alike: with ``state=absent``, a resource not found is already gone
    (unchanged, no plan, no further request; the diff is ``gone_diff``); a
    plan that changes nothing finishes unchanged with ``as_is``; in check
    mode a plan that changes something finishes changed with ``predict``
    and sends nothing; else ``apply`` runs and the task finishes changed
    (``applied_changes``); each with the plan's diff.
    Inside ``apply_create``, ``adopt(plan, found)`` brings the namesake
    that another task created at the same moment (and that this task keeps)
    to the task (``apply_manage`` brings the managed resource so): the diff
    is then that of a creation.

    The hooks live in the module or, for a module with many, in a class of
    their own in module_utils/tasks/ (one way to write a flow: no flow
    outside the template does its own check mode or finishes the task).
    """

    argument_spec = {}
    module_kwargs = {}
    # The diff of a task whose resource was already gone: None (no diff) or
    # {} (an empty before and after, in diff mode).
    gone_diff = None
    # False for a module without settings to compare (diff_mode support none):
    # the template then gives no diff.
    has_diff = True

    @classmethod
    def full_argument_spec(cls):
        """The module's options: the common ones (connection.py), then its own."""
        spec = connection.connection_argument_spec()
        spec.update(cls.argument_spec)
        return spec

    def __init__(self):
        self.ansible = OptionsModule(argument_spec=self.full_argument_spec(),
                                     supports_check_mode=True, **self.module_kwargs)
        self.ansible.options_checked = True
        self.params = self.ansible.params
        self.check_mode = self.ansible.check_mode
        self.diff_mode = self.ansible._diff
        self.warnings = []
        self._client = None
        flag = bool_where_int(self.full_argument_spec(), self.params)
        if flag:
            self.fail('%s must be a whole number, not %s (a boolean).' % flag)
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

    # -- the converge template (see the class docstring) ------------------
    def converge(self):
        """Find the resource, then converge_on it."""
        self.converge_on(self.find_current())

    def converge_on(self, current):
        """Bring ``current`` (None: not found) to the task and finish."""
        if current is None and self.params.get('state') == 'absent':
            return self.finish(False, self.gone_diff, self.gone_diff,
                               **self.result(None, None))
        plan = self.plan(current)
        # A plan that read the resource again (it waited for it) carries it.
        current = getattr(plan, 'current', current)
        if not plan.changed:
            resource, changed = self.as_is(plan, current), False
        elif self.check_mode:
            resource, changed = self.predict(plan, current), True
        else:
            resource = self.apply(plan, current)
            changed = self.applied_changes(plan)
        result = self.result(plan, resource)
        return self.finish(changed or self.result_changed(), *self.diff_of(plan), **result)

    def diff_of(self, plan):
        """(before, after) of the task's diff: the plan's, or none (has_diff)."""
        return (plan.before, plan.after) if self.has_diff else (None, None)

    def adopt(self, plan, found):
        """In ``apply_create``, after another task created a namesake at the same
        moment and this task keeps it (settle_namesakes): bring ``found`` to the
        task as a resource it had found.  ``plan`` (the create's) takes the
        ``after`` of that; returns the resource as it ends."""
        again = self.plan(found)
        if again.changed:
            found = self.apply(again, found)
        plan.after = again.after
        return found

    def find_current(self):
        raise NotImplementedError

    def plan(self, current):
        raise NotImplementedError

    def as_is(self, plan, current):
        """The resource of a plan that changes nothing (check mode too)."""
        return current

    @staticmethod
    def predict(plan, current):
        return None if plan.action == DELETE else current

    def applied_changes(self, plan):
        """Whether ``apply`` changed the cloud (the task's ``changed``)."""
        return True

    def apply(self, plan, current):
        return getattr(self, 'apply_' + plan.action)(plan, current)

    def result(self, plan, resource):
        return {}

    def result_changed(self):
        """Whether ``result`` changed the cloud too."""
        return False

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
