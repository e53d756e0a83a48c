# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every write of the API classes goes through ``client.write_once``.

A source check, beside the scripted-HTTP tests of each write: a method that
sends POST, PUT or DELETE (``client.post/put/delete``, an action, or
``client.request`` with a write method) must hand it to ``write_once`` (or
``writes.create_once``).  A new API class that forgets it fails here.

An architecture test across every file of plugins/module_utils, not the test
file of one of them: it parses their source and runs none of it (so the
mutation runs leave it out).  The behaviour of writes.py itself, the observers
write_once asks and settle_namesakes, is tested in test_writes.py.


A second source check, at the end: the generic helpers are imported from
their homes (metadata.py, lookups.py, writes.py, resource.py), never through
shares.py, and only the files that use what is a share's own import
shares.py at all."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import ast
import os
import sys

import pytest

MODULE_UTILS = os.path.join(os.path.dirname(__file__), '..', '..', '..', '..',
                            'plugins', 'module_utils')
WRITERS = ('post', 'put', 'delete', 'action')
# create_unnamed (resource.py) hands its ``send`` to write_once.
ONCE = ('write_once', 'create_once', 'create_unnamed')

# Writes that are not changes: (file, method) and why.
NOT_CHANGES = {
    # The 2.63 feasibility check is a question Manila answers; its loop asks
    # it again after a lost answer (share_networks.py says so).
    ('share_networks.py', 'check_service_change'),
}


def _receiver_is_a_client(node, aliases):
    """``client``, ``self.client``, ``task.client``, ``self._client`` or a local
    name bound to one of them (``c = self.client``)."""
    if isinstance(node, ast.Name):
        return node.id.endswith('client') or node.id in aliases
    return isinstance(node, ast.Attribute) and node.attr.endswith('client')


def _hands_a_writer(call, aliases=()):
    """A call given a client's writer to make (``if_found(self.client.delete, path)``)."""
    return any(isinstance(arg, ast.Attribute) and arg.attr in WRITERS
               and _receiver_is_a_client(arg.value, aliases) for arg in call.args)


def _is_client_write(call, aliases=()):
    if _hands_a_writer(call, aliases):
        return True
    func = call.func
    if not (isinstance(func, ast.Attribute) and _receiver_is_a_client(func.value, aliases)):
        return False
    keywords = dict((k.arg, k.value) for k in call.keywords)
    read_only = keywords.get('read_only')
    if isinstance(read_only, ast.Constant) and read_only.value is True:
        return False
    if func.attr in WRITERS:
        return True
    if func.attr == 'request' and call.args and isinstance(call.args[0], ast.Constant):
        return call.args[0].value.upper() in ('POST', 'PUT', 'DELETE', 'PATCH')
    return False


def _once_name(call):
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, 'id', None)
    return name in ONCE


def _client_aliases(tree):
    """Names bound anywhere in the file to a client (``c = self.client``)."""
    aliases = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and _receiver_is_a_client(node.value, ()):
            aliases.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return aliases


def _handed_to_once(scope):
    """The lambdas and function names that a write_once/create_once call in
    ``scope`` is given (a lambda anywhere in its arguments; a name)."""
    lambdas, names = set(), set()
    for call in ast.walk(scope):
        if isinstance(call, ast.Call) and _once_name(call):
            for arg in list(call.args) + [k.value for k in call.keywords]:
                for node in ast.walk(arg):
                    if isinstance(node, ast.Lambda):
                        lambdas.add(node)
                    elif isinstance(node, ast.Name):
                        names.add(node.id)
    return lambdas, names


def _writes_in(tree):
    """(outermost function's name, innermost lambda or function, the scope
    around that one) for every client write of the file, at any depth:
    methods, module functions, nested functions and lambdas."""
    aliases = _client_aliases(tree)
    found = []

    def visit(node, outer, inner, around):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, outer or child.name, child, inner or tree)
            elif isinstance(child, ast.Lambda):
                visit(child, outer, child, inner or tree)
            elif isinstance(child, ast.ClassDef):
                visit(child, None, None, None)
            else:
                if isinstance(child, ast.Call) and _is_client_write(child, aliases):
                    found.append((outer, inner, around))
                visit(child, outer, inner, around)
    visit(tree, None, None, None)
    return found


def _sent_once(inner, around):
    """True when ``inner`` (the lambda or function that holds a write) is
    handed to write_once/create_once in the scope around it."""
    if inner is None or around is None:
        return False
    lambdas, names = _handed_to_once(around)
    return inner in lambdas or getattr(inner, 'name', None) in names


def _python_files():
    """The files of module_utils, then those of its tasks package ('tasks/X.py')."""
    tasks = os.path.join(MODULE_UTILS, 'tasks')
    inside = sorted('tasks/' + f for f in os.listdir(tasks)) if os.path.isdir(tasks) else []
    return sorted(os.listdir(MODULE_UTILS)) + inside


def writes_outside_write_once():
    """Every client write that is not sent by a lambda or function handed to
    write_once/create_once (nor listed in NOT_CHANGES), as 'file function'; the
    hook classes of tasks/ included."""
    found = set()
    for filename in _python_files():
        if not filename.endswith('.py') or filename == 'client.py':
            continue
        with open(os.path.join(MODULE_UTILS, filename)) as handle:
            tree = ast.parse(handle.read())
        for outer, inner, around in _writes_in(tree):
            if (filename, outer) not in NOT_CHANGES and not _sent_once(inner, around):
                found.add('%s %s' % (filename, outer or '<module>'))
    return sorted(found)


def test_every_write_of_an_api_class_goes_through_write_once():
    assert writes_outside_write_once() == []


def test_the_check_finds_a_write_that_does_not(tmp_path, monkeypatch):
    (tmp_path / 'thing.py').write_text(
        'class ThingAPI(object):\n'
        '    def delete(self, thing_id):\n'
        '        self.client.delete("things/%s" % thing_id)\n'
        '    def listing(self, thing_id):\n'
        '        return self.client.action("things", "list", read_only=True)\n')
    monkeypatch.setattr(sys.modules[__name__], 'MODULE_UTILS', str(tmp_path))
    assert writes_outside_write_once() == ['thing.py delete']


# (security_services.py writes only through resource.py's ResourceAPI)
@pytest.mark.parametrize('filename', ['snapshots.py', 'share_networks.py',
                                      'resource.py', 'share_types.py'])
def test_the_new_api_classes_write(filename):
    # (so that the check above has something to look at in each of them)
    with open(os.path.join(MODULE_UTILS, filename)) as handle:
        tree = ast.parse(handle.read())
    assert any(isinstance(c, ast.Call) and _is_client_write(c) for c in ast.walk(tree))


@pytest.mark.parametrize('source, expected', [
    # a module-level function that writes through a local client
    ('def unmanage(task, share):\n'
     '    client = task.client\n'
     '    client.action("shares/%s" % share, "unmanage", None)\n', ['thing.py unmanage']),
    # the client under another name
    ('class ThingAPI(object):\n'
     '    def grow(self, thing):\n'
     '        api = self.client\n'
     '        api.post("things/%s/grow" % thing, {})\n', ['thing.py grow']),
    # a lambda that is built but never handed to write_once
    ('class ThingAPI(object):\n'
     '    def grow(self, thing):\n'
     '        send = lambda: self.client.post("things", {})\n'
     '        return self.client.write_once(self.observe, None, "x")\n', ['thing.py grow']),
    # a function named like one handed to write_once elsewhere, but not here
    ('class ThingAPI(object):\n'
     '    def a(self):\n'
     '        def send():\n'
     '            return self.client.post("things", {})\n'
     '        return self.client.write_once(send, None, "a")\n'
     '    def b(self):\n'
     '        def send():\n'
     '            return self.client.delete("things/1")\n'
     '        return send()\n', ['thing.py b']),
    # handed over: a lambda in the arguments, a function by its name
    ('def unmanage(task, share):\n'
     '    client = task.client\n'
     '    client.write_once(lambda: client.action("s", "unmanage", None), None, "u")\n'
     'class ThingAPI(object):\n'
     '    def a(self):\n'
     '        def send():\n'
     '            return self.client.post("things", {})\n'
     '        return writes.create_once(self.client, "thing", send, "n")\n', []),
    # a writer handed to a helper that makes the call (resource.if_found)
    ('class ThingAPI(object):\n'
     '    def drop(self, thing):\n'
     '        if_found(self.client.delete, "things/%s" % thing)\n', ['thing.py drop']),
    # ... and the same inside write_once; a send handed to create_unnamed
    ('class ThingAPI(object):\n'
     '    def drop(self, thing):\n'
     '        self.client.write_once(lambda: if_found(self.client.delete, "t"), None, "d")\n'
     '    def make(self, body):\n'
     '        def send():\n'
     '            return self.client.post("things", body)\n'
     '        return self.create_unnamed(body, "s", (), "m", send=send)\n', []),
])
def test_the_check_sees_every_client_write_however_the_client_is_reached(
        tmp_path, monkeypatch, source, expected):
    (tmp_path / 'thing.py').write_text(source)
    monkeypatch.setattr(sys.modules[__name__], 'MODULE_UTILS', str(tmp_path))
    assert writes_outside_write_once() == expected


def test_a_bare_unmanage_in_manage_py_would_be_found(tmp_path, monkeypatch):
    # the write that the old check could not see: manage.py's unmanage through
    # its local ``client``, with write_once taken away
    with open(os.path.join(MODULE_UTILS, 'manage.py')) as handle:
        source = handle.read()
    once = source.index('    client.write_once(\n        lambda: client.action(\'shares/%s\'')
    end = source.index("'the unmanage of share %s' % share_id)", once)
    end = source.index('\n', end)
    bare = source[:once] + "    client.action('shares/%s' % share_id, 'unmanage', None)" + source[end:]
    (tmp_path / 'manage.py').write_text(bare)
    monkeypatch.setattr(sys.modules[__name__], 'MODULE_UTILS', str(tmp_path))
    assert writes_outside_write_once() == ['manage.py send_share_unmanage']


def test_a_write_in_a_hook_class_of_tasks_is_found(tmp_path, monkeypatch):
    (tmp_path / 'tasks').mkdir()
    (tmp_path / 'tasks' / 'thing.py').write_text(
        'class ThingTask(object):\n'
        '    def apply_grow(self, plan, thing):\n'
        '        self.client.post("things/%s/grow" % thing["id"], {})\n')
    monkeypatch.setattr(sys.modules[__name__], 'MODULE_UTILS', str(tmp_path))
    assert writes_outside_write_once() == ['tasks/thing.py apply_grow']


# -- generic helpers come from their homes, not through shares.py -----------------------------

PLUGINS = os.path.join(MODULE_UTILS, '..')
# The module_utils files that import shares.py for what is a share's own: its
# plan and steps (share_steps.py, tasks/share.py, fleet.py), ShareAPI (fleet.py,
# snapshots.py, tasks/replica.py), its input checks (manage.py) and its export locations
# (replicas.py); paths under module_utils, tasks/ included.
SHARE_SPECIFIC = ('fleet.py', 'manage.py', 'replicas.py', 'share_steps.py', 'snapshots.py',
                  'tasks/replica.py', 'tasks/share.py')


def _parse(path):
    with open(path) as handle:
        return ast.parse(handle.read())


def _own_names(tree):
    """The names a file defines at its top level (not those it imports)."""
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return names


def _names_taken_from_shares(tree):
    """The names a file takes from shares.py: imported by name, or read as
    attributes of the module imported whole (``shares.metadata_items``)."""
    taken, aliases = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.endswith('module_utils.shares'):
                taken.update(alias.name for alias in node.names)
            elif node.module.endswith('module_utils'):
                aliases.update(alias.asname or alias.name for alias in node.names
                               if alias.name == 'shares')
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in aliases:
            taken.add(node.attr)
    return taken, bool(taken or aliases)


def taken_through_shares(plugins=PLUGINS):
    """'DIR/FILE NAME' for every name a plugin file takes from shares.py that
    shares.py does not define (it only imports it from its home), and
    'module_utils/FILE' for every module_utils file outside SHARE_SPECIFIC that
    imports shares.py at all."""
    own = _own_names(_parse(os.path.join(plugins, 'module_utils', 'shares.py')))
    found = []
    for root, _dirs, files in sorted(os.walk(plugins)):
        for filename in sorted(files):
            where = os.path.relpath(os.path.join(root, filename), plugins).replace(os.sep, '/')
            if not filename.endswith('.py') or where == 'module_utils/shares.py':
                continue
            taken, imports = _names_taken_from_shares(_parse(os.path.join(root, filename)))
            in_utils = where.startswith('module_utils/')
            if imports and in_utils and where[len('module_utils/'):] not in SHARE_SPECIFIC:
                found.append(where)
            found.extend('%s %s' % (where, name) for name in sorted(taken - own))
    return found


def test_generic_helpers_are_not_taken_through_shares_py():
    assert taken_through_shares() == []


def test_the_share_specific_files_still_import_shares_py():
    # (so that the list above names files that still need it)
    for filename in SHARE_SPECIFIC:
        assert _names_taken_from_shares(_parse(os.path.join(MODULE_UTILS, filename)))[1], filename


def test_the_check_finds_a_helper_taken_through_shares_py(tmp_path):
    utils, modules = tmp_path / 'module_utils', tmp_path / 'modules'
    utils.mkdir()
    modules.mkdir()
    prefix = 'from ansible_collections.openkeel.manila.plugins.module_utils'
    (utils / 'shares.py').write_text(
        prefix + '.metadata import metadata_items\n'
        'CREATE = "create"\n'
        'def plan_create(desired):\n'
        '    return metadata_items(desired)\n')
    (utils / 'fleet.py').write_text(prefix + '.shares import CREATE, plan_create\n')
    (utils / 'access.py').write_text(prefix + '.shares import metadata_items\n')
    (utils / 'tasks').mkdir()
    (utils / 'tasks' / 'hooks.py').write_text(prefix + '.shares import plan_create\n')
    (modules / 'thing.py').write_text(
        prefix + ' import shares\n'
        'shares.plan_create({})\n'
        'shares.metadata_items({})\n')
    assert taken_through_shares(str(tmp_path)) == [
        'module_utils/access.py', 'module_utils/access.py metadata_items',
        'module_utils/tasks/hooks.py', 'modules/thing.py metadata_items']
