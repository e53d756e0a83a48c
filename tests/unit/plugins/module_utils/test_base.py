# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""base.ManilaModule: options, the result (diff, warnings, api_version) and how
each kind of error becomes a failure."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import ast
import os

import pytest

from ansible.module_utils import basic
from ansible.module_utils.common import warnings as common_warnings

from ansible_collections.openkeel.manila.plugins.module_utils import connection
from ansible_collections.openkeel.manila.plugins.module_utils.base import (
    ManilaModule,
    bool_where_int,
    option_error,
    create_and_settle,
    wait_argument_spec,
)
from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    CheckModeWrite,
    Forbidden,
    InvalidInput,
    ManilaError,
)
from ansible_collections.openkeel.manila.plugins.module_utils.resource import (
    CREATE,
    DELETE,
    NOTHING,
    UPDATE,
    Plan,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.module_utils.scripted_http import (
    ScriptedResponse,
    make_client,
)
from ansible_collections.openkeel.manila.tests.unit.plugins.modules.module_args import (
    Exit,
    Fail,
    patch_module_args,
)


class Sample(ManilaModule):
    argument_spec = dict(name=dict(type='str'), **wait_argument_spec(30))
    action = None

    def run(self):
        type(self).action(self)


def module(args=None, check_mode=False, diff=False):
    args = dict(args or {})
    if check_mode:
        args['_ansible_check_mode'] = True
    if diff:
        args['_ansible_diff'] = True
    with patch_module_args(args):
        return Sample()


def outcome(instance, action, exit_type=Exit):
    Sample.action = action
    with pytest.raises(exit_type) as got:
        instance()
    return got.value.result


def test_wait_argument_spec():
    assert wait_argument_spec(7) == dict(wait=dict(type='bool', default=True),
                                         timeout=dict(type='int', default=7))


def test_the_options_are_the_connection_ones_then_the_modules():
    spec = Sample.full_argument_spec()
    for name in connection.connection_argument_spec():
        assert name in spec
    assert spec['name'] == dict(type='str') and spec['timeout']['default'] == 30
    assert 'name' not in connection.connection_argument_spec()


def test_modes_and_params():
    m = module({'name': 'x'}, check_mode=True, diff=True)
    assert m.params['name'] == 'x' and m.check_mode is True and m.diff_mode is True
    m = module()
    assert m.check_mode is False and m.diff_mode is False and m.warnings == []


@pytest.mark.parametrize('timeout,fails', [(0, True), (-5, True), (1, False)])
def test_timeout_must_be_positive(timeout, fails):
    if fails:
        with pytest.raises(Fail) as got:
            module({'timeout': timeout})
        assert got.value.result['msg'] == 'timeout must be a positive number of seconds, got %s.' % timeout
    else:
        assert module({'timeout': timeout}).params['timeout'] == 1


def test_the_client_connects_once(monkeypatch):
    calls = []
    client, _session = make_client([])
    monkeypatch.setattr(Sample, '_connect', lambda self: calls.append(1) or client)
    m = module()
    assert m.client is client and m.client is client and calls == [1]


def test_connect_uses_the_params_and_check_mode(monkeypatch):
    seen = {}
    monkeypatch.setattr(connection, 'setup_sdk_logging', lambda params: seen.setdefault('log', params))
    monkeypatch.setattr(connection, 'connect',
                        lambda params, check_mode: seen.setdefault('connect', (params, check_mode)) and 'c')
    m = module({'name': 'x'}, check_mode=True)
    assert m._connect() == 'c'
    assert seen['log'] is m.params and seen['connect'] == (m.params, True)


def test_connect_without_openstacksdk_fails(monkeypatch):
    monkeypatch.setattr(connection, 'SDK_IMPORT_ERROR', 'no module named openstack')
    with pytest.raises(Fail) as got:
        module()._connect()
    assert 'required Python library (openstacksdk)' in got.value.result['msg']
    assert got.value.result['exception'] == 'no module named openstack'


def test_run_must_be_implemented():
    with pytest.raises(NotImplementedError):
        ManilaModule.run(None)


def test_finish_diff_only_in_diff_mode_and_with_something_to_show():
    result = outcome(module(diff=True), lambda self: self.finish(True, before=None, after={'a': 1}, x=2))
    assert result == {'changed': True, 'diff': {'before': {}, 'after': {'a': 1}}, 'x': 2}
    result = outcome(module(diff=True), lambda self: self.finish(before={'a': 1}))
    assert result == {'changed': False, 'diff': {'before': {'a': 1}, 'after': {}}}
    result = outcome(module(diff=True), lambda self: self.finish(False))
    assert result == {'changed': False}
    result = outcome(module(), lambda self: self.finish(True, before={'a': 1}, after={'a': 2}))
    assert result == {'changed': True}


def test_finish_adds_warnings_once_and_the_version(monkeypatch):
    client, _session = make_client([])
    client.warn('from the client')
    client.warn('twice')
    monkeypatch.setattr(Sample, '_connect', lambda self: client)

    def action(self):
        assert self.client is client
        self.warn('from the module')
        self.warn('twice')
        self.finish(False, api_version='kept')
    result = outcome(module(), action)
    assert result['warnings'] == ['from the module', 'twice', 'from the client']
    assert result['api_version'] == 'kept'
    result = outcome(module(), lambda self: self.client and self.finish())
    assert result['api_version'] == '2.99'
    client.version = None
    client.warnings = []
    assert outcome(module(), lambda self: self.client and self.finish()) == {'changed': False}


def test_warnings_go_through_ansible_module_warn(monkeypatch):
    """ansible-core 2.19 deprecates a ``warnings`` key handed to exit_json or
    fail_json: the module gives them to AnsibleModule.warn instead."""
    handed = {}

    def exit_json(self, **result):
        handed.update(result)
        raise Exit(result)
    monkeypatch.setattr(basic.AnsibleModule, 'exit_json', exit_json)
    monkeypatch.setattr(basic.AnsibleModule, 'fail_json', exit_json)
    common_warnings._global_warnings.clear()     # pylint: disable=protected-access

    def action(self):
        self.warn('from the module')
        self.finish(False)
    outcome(module(), action)
    assert 'warnings' not in handed
    assert list(common_warnings.get_warning_messages()) == ['from the module']
    handed.clear()
    common_warnings._global_warnings.clear()     # pylint: disable=protected-access

    def failing(self):
        self.warn('before the failure')
        self.fail('m')
    outcome(module(), failing)
    assert handed == {'msg': 'm'}
    assert list(common_warnings.get_warning_messages()) == ['before the failure']
    common_warnings._global_warnings.clear()     # pylint: disable=protected-access


def test_errors_become_failures():
    def raising(exc):
        def action(self):
            self.warn('w')
            raise exc
        return action
    got = outcome(module(), raising(CheckModeWrite('POST x attempted in check mode')), Fail)
    assert got == {'msg': 'Internal error: POST x attempted in check mode. Nothing was sent.',
                   'warnings': ['w']}
    got = outcome(module(), raising(InvalidInput('size: bad', result={'share': {'id': 1}})), Fail)
    assert got == {'msg': 'size: bad', 'share': {'id': 1}, 'warnings': ['w']}
    got = outcome(module(), raising(Forbidden('policy', status=403, request_id='r')), Fail)
    assert got['msg'] == ('Manila refused the request: policy (HTTP 403) [request id r]. The policy '
                          'of this cloud does not allow it for this user; it may need an admin.')
    assert (got['status'], got['request_id']) == (403, 'r')
    # Manila also answers 403 for a resize over quota: that is no policy matter
    got = outcome(module(), raising(Forbidden(
        'Requested share exceeds allowed project/user or share type gigabytes quota.', status=403)), Fail)
    assert 'policy' not in got['msg'] and "The project's quota leaves no room for it" in got['msg']
    got = outcome(module(), raising(CannotConverge('stuck', status=None, result={'a': 1})), Fail)
    assert got == {'msg': 'stuck', 'status': None, 'request_id': None, 'a': 1, 'warnings': ['w']}
    got = outcome(module(), raising(ManilaError('boom', status=500, request_id='q')), Fail)
    assert (got['msg'], got['status'], got['request_id']) == ('boom (HTTP 500) [request id q]', 500, 'q')


def test_fail_without_warnings_has_none():
    got = outcome(module(), lambda self: self.fail('m', x=1), Fail)
    assert got == {'msg': 'm', 'x': 1}


def test_other_exceptions_are_bugs_and_propagate():
    def bug(self):
        raise KeyError('bug')
    Sample.action = bug
    with pytest.raises(KeyError):
        module()()


def test_a_refusal_keeps_what_the_task_returns():
    def refused(self):
        raise Forbidden('policy', status=403, result={'share': {'id': 's'}})
    got = outcome(module(), refused, Fail)
    assert got['share'] == {'id': 's'} and got['status'] == 403


class Exclusive(Sample):
    argument_spec = dict(a=dict(type='str'), b=dict(type='str'))
    module_kwargs = dict(mutually_exclusive=[('a', 'b')])


def test_the_module_kwargs_reach_ansible():
    with patch_module_args({'a': 'x', 'b': 'y'}):
        with pytest.raises(Fail) as got:
            Exclusive()
    assert 'mutually exclusive: a|b' in got.value.result['msg']


# -- a failure after Manila accepted writes (issue 21) ------------------------------

SHARE_ID = '11111111-2222-3333-4444-555555555555'


def scripted(monkeypatch, exchanges):
    client, session = make_client(exchanges)
    monkeypatch.setattr(Sample, '_connect', lambda self: client)
    return client, session


def test_a_failure_after_accepted_writes_is_changed_and_names_them(monkeypatch):
    _client, session = scripted(monkeypatch, [
        ('PUT', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': {'id': SHARE_ID}})),
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(403, {'forbidden': {
            'code': 403, 'message': 'Requested share exceeds allowed gigabytes quota.'}})),
    ])

    def action(self):
        self.client.put('shares/' + SHARE_ID, {'share': {'display_description': 'd'}})
        self.client.action('shares/' + SHARE_ID, 'extend', {'new_size': 9999})
    got = outcome(module(), action, Fail)
    assert got['changed'] is True
    assert got['accepted_writes'] == ['PUT shares/' + SHARE_ID]
    assert got['msg'].endswith('Manila had already accepted 1 write of this task, so the cloud '
                               'was changed: PUT shares/%s.' % SHARE_ID)
    assert 'quota' in got['msg'] and got['status'] == 403
    assert [c.method for c in session.writes()] == ['PUT', 'POST']


def test_a_failure_before_any_accepted_write_is_not_changed(monkeypatch):
    scripted(monkeypatch, [
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(400, {'badRequest': {
            'code': 400, 'message': 'no'}})),
    ])

    def action(self):
        self.client.action('shares/' + SHARE_ID, 'extend', {'new_size': 2})
    got = outcome(module(), action, Fail)
    assert 'changed' not in got and 'accepted_writes' not in got


def test_reads_and_read_only_actions_are_no_accepted_writes(monkeypatch):
    scripted(monkeypatch, [
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(200, {'share': {'id': SHARE_ID}})),
        ('POST', '/v2/shares/%s/action' % SHARE_ID, ScriptedResponse(200, {'access_list': []})),
    ])

    def action(self):
        self.client.get('shares/' + SHARE_ID)
        self.client.action('shares/' + SHARE_ID, 'access_list', None, read_only=True)
        self.fail('later')
    got = outcome(module(), action, Fail)
    assert got == {'msg': 'later'}


def test_a_write_seen_after_a_5xx_counts_and_many_are_shortened(monkeypatch):
    exchanges = [('POST', '/v2/shares/%s/metadata' % SHARE_ID, ScriptedResponse(
        200, {'metadata': {}}))] * 6 + [
        ('DELETE', '/v2/shares/%s/metadata/k' % SHARE_ID, ScriptedResponse(503, {'computeFault': {
            'code': 503, 'message': 'unwell'}})),
        ('GET', '/v2/shares/' + SHARE_ID, ScriptedResponse(
            200, {'share': {'id': SHARE_ID, 'metadata': {}}})),
    ]
    scripted(monkeypatch, exchanges)

    def action(self):
        for _time in range(6):
            self.client.post('shares/%s/metadata' % SHARE_ID, {'metadata': {'a': 'b'}})
        self.client.write_once(lambda: self.client.delete('shares/%s/metadata/k' % SHARE_ID),
                               lambda: self.client.get('shares/' + SHARE_ID)['share'],
                               'the removal of key k')
        raise ManilaError('then this', status=409)
    got = outcome(module(), action, Fail)
    assert got['changed'] is True
    assert got['accepted_writes'] == ['POST shares/%s/metadata' % SHARE_ID] * 6 + [
        'the removal of key k']
    assert 'accepted 7 writes of this task' in got['msg']
    assert got['msg'].endswith('; and 2 more (see accepted_writes).')


# -- the converge template (issue 20) --------------------------------------------

class Thing(ManilaModule):
    """A write module on the converge template; its hooks record their calls.
    ``found``: what find_current returns; ``wanted_size``: the size the task wants."""
    argument_spec = dict(state=dict(type='str', default='present', choices=['present', 'absent']))
    found = None
    wanted_size = 2
    adopted = None      # apply_create adopts it when set

    def run(self):
        self.calls = []
        self.converge()

    def find_current(self):
        self.calls.append('find')
        return self.found

    def plan(self, current):
        self.calls.append('plan')
        if self.params['state'] == 'absent':
            return Plan(DELETE, before={'size': current['size']}, after={})
        if current is None:
            return Plan(CREATE, before={}, after={'size': self.wanted_size})
        action = NOTHING if current['size'] == self.wanted_size else UPDATE
        return Plan(action, before={'size': current['size']}, after={'size': self.wanted_size})

    def apply_create(self, plan, current):
        self.calls.append('create')
        if self.adopted is not None:
            return self.adopt(plan, self.adopted)
        return {'id': 'new', 'size': self.wanted_size}

    def apply_update(self, plan, current):
        self.calls.append('update')
        plan.after = {'size': self.wanted_size, 'read': 'back'}
        return dict(current, size=self.wanted_size)

    def apply_delete(self, plan, current):
        self.calls.append('delete')

    def result(self, plan, resource):
        return dict(thing=resource or {}, calls=self.calls)


def converged(found, state='present', check_mode=False, diff=True, cls=Thing, **attrs):
    args = {'state': state}
    if check_mode:
        args['_ansible_check_mode'] = True
    if diff:
        args['_ansible_diff'] = True
    with patch_module_args(args):
        thing = cls()
    thing.found = found
    for name, value in attrs.items():
        setattr(thing, name, value)
    with pytest.raises(Exit) as got:
        thing()
    return got.value.result


def test_absent_and_not_found_is_already_gone():
    got = converged(None, 'absent')
    assert got == {'changed': False, 'thing': {}, 'calls': ['find']}


def test_absent_and_not_found_shows_the_gone_diff_of_the_module():
    class EmptyDiff(Thing):
        gone_diff = {}
    got = converged(None, 'absent', cls=EmptyDiff)
    assert got['changed'] is False and got['diff'] == {'before': {}, 'after': {}}


def test_present_and_not_found_is_created():
    got = converged(None)
    assert got['changed'] is True and got['calls'] == ['find', 'plan', 'create']
    assert got['diff'] == {'before': {}, 'after': {'size': 2}}
    assert got['thing'] == {'id': 'new', 'size': 2}


@pytest.mark.parametrize('found,state,shown', [
    (None, 'present', {}),                              # a create: nothing to show yet
    ({'id': 'a', 'size': 1}, 'present', {'id': 'a', 'size': 1}),   # an update: as it is
    ({'id': 'a', 'size': 1}, 'absent', {}),             # a delete: gone
])
def test_check_mode_plans_and_sends_nothing(found, state, shown):
    got = converged(found, state, check_mode=True)
    assert got['changed'] is True and got['calls'] == ['find', 'plan']
    assert got['thing'] == shown
    assert got['diff']['before'] == ({'size': 1} if found else {})
    assert got['diff']['after'] == ({} if state == 'absent' else {'size': 2})


def test_check_mode_shows_what_predict_says():
    class Predicting(Thing):
        @staticmethod
        def predict(plan, current):
            return {'predicted': plan.after}
    got = converged({'id': 'a', 'size': 1}, check_mode=True, cls=Predicting)
    assert got['thing'] == {'predicted': {'size': 2}} and got['calls'] == ['find', 'plan']


def test_nothing_to_change_is_unchanged_without_any_write():
    got = converged({'id': 'a', 'size': 2})
    assert got['changed'] is False and got['calls'] == ['find', 'plan']
    assert got['thing'] == {'id': 'a', 'size': 2}
    assert got['diff'] == {'before': {'size': 2}, 'after': {'size': 2}}


def test_an_update_is_applied_and_the_diff_shows_what_apply_read_back():
    got = converged({'id': 'a', 'size': 1})
    assert got['changed'] is True and got['calls'] == ['find', 'plan', 'update']
    assert got['thing'] == {'id': 'a', 'size': 2}
    assert got['diff'] == {'before': {'size': 1}, 'after': {'size': 2, 'read': 'back'}}
    assert 'diff' not in converged({'id': 'a', 'size': 1}, diff=False)


def test_a_delete_is_applied_and_shows_nothing_left():
    got = converged({'id': 'a', 'size': 1}, 'absent')
    assert got['changed'] is True and got['calls'] == ['find', 'plan', 'delete']
    assert got['thing'] == {} and got['diff'] == {'before': {'size': 1}, 'after': {}}


def test_an_adopted_namesake_is_brought_to_the_task_and_the_diff_is_a_creation():
    got = converged(None, adopted={'id': 'theirs', 'size': 1})
    assert got['calls'] == ['find', 'plan', 'create', 'plan', 'update']
    assert got['changed'] is True and got['thing'] == {'id': 'theirs', 'size': 2}
    assert got['diff'] == {'before': {}, 'after': {'size': 2, 'read': 'back'}}
    got = converged(None, adopted={'id': 'theirs', 'size': 2})
    assert got['calls'] == ['find', 'plan', 'create', 'plan']
    assert got['thing'] == {'id': 'theirs', 'size': 2}
    assert got['diff'] == {'before': {}, 'after': {'size': 2}}


def test_the_hooks_must_be_implemented():
    with pytest.raises(NotImplementedError):
        ManilaModule.find_current(None)
    with pytest.raises(NotImplementedError):
        ManilaModule.plan(None, None)
    assert ManilaModule.result(None, None, None) == {}
    assert ManilaModule.predict(Plan(DELETE), {'id': 'a'}) is None
    assert ManilaModule.predict(Plan(UPDATE), {'id': 'a'}) == {'id': 'a'}


class Busy(Thing):
    """A resource as asked but still busy: as_is waits for it (outside check mode)."""

    def as_is(self, plan, current):
        self.calls.append('as_is')
        if self.check_mode:
            return current
        plan.after = dict(plan.after, status='ready')
        return dict(current, status='ready')


@pytest.mark.parametrize('check_mode', [False, True])
def test_a_plan_that_changes_nothing_finishes_with_as_is(check_mode):
    got = converged({'id': 'a', 'size': 2, 'status': 'busy'}, check_mode=check_mode, cls=Busy)
    assert got['changed'] is False and got['calls'] == ['find', 'plan', 'as_is']
    expected = 'busy' if check_mode else 'ready'
    assert got['thing']['status'] == expected
    assert got['diff']['after'] == ({'size': 2} if check_mode else {'size': 2, 'status': 'ready'})
    # a plan that changes something, in check mode, does not go through as_is
    got = converged({'id': 'a', 'size': 1}, check_mode=True, cls=Busy)
    assert got['changed'] is True and got['calls'] == ['find', 'plan']


def test_applied_changes_says_whether_apply_changed_the_cloud():
    class StoppedEarly(Thing):
        def applied_changes(self, plan):
            self.calls.append('applied_changes')
            return False
    got = converged({'id': 'a', 'size': 1}, cls=StoppedEarly)
    assert got['changed'] is False
    assert got['calls'] == ['find', 'plan', 'update', 'applied_changes']
    assert converged({'id': 'a', 'size': 1}, cls=StoppedEarly, check_mode=True)['changed'] is True


class Locked(Thing):
    """A result that converges something of its own (a share's deletion lock) and
    adds it to the diff."""
    lock_changed = False

    def result(self, plan, resource):
        self.calls.append('result')
        if plan is not None:
            plan.after = dict(plan.after, lock=True)
        return dict(thing=resource or {}, calls=self.calls)

    def result_changed(self):
        return self.lock_changed


@pytest.mark.parametrize('lock_changed', [False, True])
def test_result_runs_before_the_diff_and_its_writes_count_as_changes(lock_changed):
    got = converged({'id': 'a', 'size': 2}, cls=Locked, lock_changed=lock_changed)
    assert got['changed'] is lock_changed and got['calls'] == ['find', 'plan', 'result']
    assert got['diff']['after'] == {'size': 2, 'lock': True}
    assert ManilaModule.result_changed(None) is False
    assert ManilaModule.applied_changes(None, Plan(UPDATE)) is True


def test_the_quota_hint_of_a_refusal_in_full():
    def refused(self):
        raise Forbidden('Quota exceeded for gigabytes.', status=403)
    got = outcome(module(), refused, Fail)
    assert got['msg'] == ("Manila refused the request: Quota exceeded for gigabytes. (HTTP 403). The "
                          "project's quota leaves no room for it: an admin can raise it "
                          "(openkeel.manila.share_quota), or ask for less.")


@pytest.mark.parametrize('count,shown', [
    (2, 'POST w0; POST w1'),
    (5, 'POST w0; POST w1; POST w2; POST w3; POST w4'),
    (6, 'POST w0; POST w1; POST w2; POST w3; POST w4; and 1 more (see accepted_writes)'),
])
def test_a_failure_names_at_most_five_accepted_writes(monkeypatch, count, shown):
    scripted(monkeypatch, [('POST', '/v2/w%d' % n, ScriptedResponse(202, {})) for n in range(count)])

    def action(self):
        for n in range(count):
            self.client.post('w%d' % n, {})
        self.fail('It broke.')
    got = outcome(module(), action, Fail)
    assert got['msg'] == ('It broke. Manila had already accepted %d writes of this task, so the '
                          'cloud was changed: %s.' % (count, shown))
    assert got['accepted_writes'] == ['POST w%d' % n for n in range(count)]


class Namesakes(object):
    """The create, wait and settle_namesakes of a resource API (ShareAPI, SnapshotAPI)."""

    def __init__(self, settled, adopted):
        self.settled = settled
        self.adopted = adopted
        self.calls = []

    def create(self, body):
        self.calls.append(('create', body))
        return {'id': 'mine', 'status': 'creating'}

    def wait(self, resource):
        self.calls.append(('wait', resource['id']))
        return dict(resource, status='available')

    def settle_namesakes(self, mine, wait=True):
        self.calls.append(('settle', mine['status'], wait))
        return self.settled, self.adopted


@pytest.mark.parametrize('wait,status,adopted,adopt', [
    (True, 'creating', True, True),       # waited: the namesake is kept, busy or not
    (False, 'creating', True, False),     # not waited: a busy namesake is not adopted
    (False, 'available', True, True),
    (True, 'available', False, False),    # no namesake: this task's own
    (False, 'available', False, False),
])
def test_create_and_settle_adopts_a_namesake_only_when_it_waited_or_the_namesake_rests(
        wait, status, adopted, adopt):
    api = Namesakes({'id': 'theirs', 'status': status}, adopted)
    task = module({'wait': wait})
    got = create_and_settle(task, api, {'share': {'name': 'n'}}, 'share', ('creating', 'deleting'))
    assert got == ({'id': 'theirs', 'status': status}, adopt)
    assert api.calls == [('create', {'share': {'name': 'n'}})] + (
        [('wait', 'mine'), ('settle', 'available', True)] if wait else
        [('settle', 'creating', False)])


def test_applied_changes_is_asked_about_the_plan_that_was_applied():
    class Judging(Thing):
        def applied_changes(self, plan):
            self.calls.append(('applied_changes', plan.action, plan.after))
            return plan.action != UPDATE
    got = converged({'id': 'a', 'size': 1}, cls=Judging)
    assert got['changed'] is False
    assert got['calls'] == ['find', 'plan', 'update',
                            ('applied_changes', UPDATE, {'size': 2, 'read': 'back'})]


class Rereading(Thing):
    """A plan that read the resource again (it waited for it) carries it."""
    def plan(self, current):
        plan = super(Rereading, self).plan(current)
        plan.current = dict(current, read='again')
        return plan

    def result(self, plan, resource):
        return dict(thing=resource, calls=self.calls)


@pytest.mark.parametrize('found, check_mode, thing', [
    ({'id': 'a', 'size': 2}, False, {'id': 'a', 'size': 2, 'read': 'again'}),   # as_is
    ({'id': 'a', 'size': 1}, True, {'id': 'a', 'size': 1, 'read': 'again'}),    # predict
])
def test_the_hooks_after_the_plan_get_the_resource_the_plan_read_again(found, check_mode, thing):
    got = converged(found, check_mode=check_mode, cls=Rereading)
    assert got['thing'] == thing


def test_apply_gets_the_resource_the_plan_read_again():
    class Applying(Rereading):
        def apply_update(self, plan, current):
            self.calls.append(('update', current))
            return current
    got = converged({'id': 'a', 'size': 1}, cls=Applying)
    assert got['calls'] == ['find', 'plan', ('update', {'id': 'a', 'size': 1, 'read': 'again'})]


# -- one way to write a flow: the hooks on the template ---------------------------------------

MODULE_UTILS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..',
                            'plugins', 'module_utils')
# Hook classes of the template that are not in tasks/ yet, and why (none today).
HOOKS_OUTSIDE_TASKS = {}


def _imports_base(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.endswith('module_utils.base') or node.module == 'base' or (
                    node.module.endswith('module_utils')
                    and any(alias.name == 'base' for alias in node.names)):
                return True
        elif isinstance(node, ast.Import):
            if any(alias.name.endswith('module_utils.base') for alias in node.names):
                return True
    return False


def _finishes(tree):
    """The functions of the file that end a task (a call of ``finish`` or
    ``finish_*`` on anything: task.finish, self.finish_snapshot)."""
    found = set()

    def visit(node, outer):
        for child in ast.iter_child_nodes(node):
            name = outer
            if isinstance(child, ast.FunctionDef) and outer is None:
                name = child.name
            if isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute) and (
                    child.func.attr == 'finish' or child.func.attr.startswith('finish_')):
                found.add(outer or '<module>')
            visit(child, name)
    visit(tree, None)
    return found


def flows_outside_the_template(module_utils=MODULE_UTILS):
    """'FILE imports base.py' and 'FILE FUNCTION finishes the task' for every
    file of module_utils but base.py and the tasks package (and
    HOOKS_OUTSIDE_TASKS, for its import)."""
    found = []
    for filename in sorted(os.listdir(module_utils)):
        if not filename.endswith('.py') or filename == 'base.py':
            continue
        with open(os.path.join(module_utils, filename)) as handle:
            tree = ast.parse(handle.read())
        if _imports_base(tree) and filename not in HOOKS_OUTSIDE_TASKS:
            found.append('%s imports base.py' % filename)
        found.extend('%s %s finishes the task' % (filename, name)
                     for name in sorted(_finishes(tree)))
    return found


def test_no_flow_outside_the_hooks_imports_the_base_or_finishes_the_task():
    # A resource file holds plans, checks and calls; a flow is a set of hooks
    # of the converge template in tasks/ (docs/architecture.md).
    assert flows_outside_the_template() == []


def test_the_hook_classes_outside_tasks_still_import_the_base():
    # (so that the list above names only files that need it)
    for filename in HOOKS_OUTSIDE_TASKS:
        with open(os.path.join(MODULE_UTILS, filename)) as handle:
            assert _imports_base(ast.parse(handle.read())), filename


def test_the_check_finds_a_flow_outside_the_template(tmp_path):
    prefix = 'from ansible_collections.openkeel.manila.plugins.module_utils'
    (tmp_path / 'base.py').write_text('def finish(task):\n    task.finish(True)\n')
    (tmp_path / 'flows.py').write_text(
        prefix + '.base import last_read\n'
        'def unmanage_flow(task, share):\n'
        '    if share is None:\n'
        '        return task.finish(False, share={})\n'
        'class Hooks(object):\n'
        '    def revert(self, plan):\n'
        '        self.finish_snapshot(plan, None)\n')
    (tmp_path / 'whole.py').write_text(prefix + ' import base, lookups\n')
    (tmp_path / 'plans.py').write_text(
        prefix + ' import lookups\n'
        'def finished(waits):\n'
        '    return waits.finished(1)\n')
    assert flows_outside_the_template(str(tmp_path)) == [
        'flows.py imports base.py', 'flows.py revert finishes the task',
        'flows.py unmanage_flow finishes the task', 'whole.py imports base.py']


# -- a boolean given for a whole number (issue 37) ------------------------------------------

def test_a_boolean_for_an_int_option_fails_naming_it():
    with pytest.raises(Fail) as got:
        module({'timeout': True})
    assert got.value.result['msg'] == 'timeout must be a whole number, not true (a boolean).'


def test_bool_where_int_looks_into_suboptions_and_lists():
    spec = dict(
        size=dict(type='int'), name=dict(type='str'), flag=dict(type='bool'),
        sizes=dict(type='list', elements='int'),
        shares=dict(type='list', elements='dict', options=dict(size=dict(type='int'))),
        manage=dict(type='dict', options=dict(size=dict(type='int'))),
    )
    assert bool_where_int(spec, dict(size=1, name='x', flag=True, sizes=[1, 2],
                                     shares=[{'size': 3}], manage={'size': None})) is None
    assert bool_where_int(spec, dict(size=False)) == ('size', 'false')
    assert bool_where_int(spec, dict(sizes=[1, True])) == ('sizes[1]', 'true')
    assert bool_where_int(spec, dict(shares=[{'size': 1}, {'size': True}])) == ('shares[1].size', 'true')
    assert bool_where_int(spec, dict(manage={'size': True})) == ('manage.size', 'true')
    assert bool_where_int(spec, None) is None


# -- a string where a list of dicts is expected (issue 37) ----------------------------------

class WithRules(Sample):
    argument_spec = dict(rules=dict(type='list', elements='dict', options=dict(
        access_to=dict(type='str'))), shares=dict(type='list', elements='dict', options=dict(
            access_rules=dict(type='list', elements='dict', options=dict(
                access_to=dict(type='str'))))))


@pytest.mark.parametrize('args,option', [
    ({'rules': 'foo'}, "option 'rules'"),
    ({'rules': ['foo']}, "option 'rules'"),
    ({'shares': [{'access_rules': 'foo'}]}, "option 'access_rules' found in 'shares'"),
])
def test_a_string_for_a_list_of_dicts_fails_naming_the_option(args, option):
    with patch_module_args(args):
        with pytest.raises(Fail) as got:
            WithRules()
    msg = got.value.result['msg']
    assert msg.startswith('Elements value for ' + option), msg
    assert msg.endswith('Give a list of dicts (in YAML, a list of mappings), not a string.')


def test_option_error_rewrites_only_the_message_without_its_option():
    named = "Elements value for option 'b' is of type str and we were unable to convert to dict: x"
    assert option_error(['x', named], "option 'a' is required") == "option 'a' is required"
    assert option_error(['x', "value of option 'state' must be one of"], 'x') == 'x'
    unnamed = 'dictionary requested, could not parse JSON or key=value'
    assert option_error([unnamed], unnamed) == unnamed
    assert option_error([unnamed, named], unnamed).startswith(named + '. Give a list of dicts')
    assert option_error([], None) is None
