# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every write of the API classes goes through ``client.write_once``.

A source check, beside the scripted-HTTP tests of each write: a method that
sends POST, PUT or DELETE (``client.post/put/delete``, an action, or
``client.request`` with a write method) must hand it to ``write_once`` (or
``writes.create_once``).  A new API class that forgets it fails here."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import ast
import os
import sys

import pytest

MODULE_UTILS = os.path.join(os.path.dirname(__file__), '..', '..', '..', '..',
                            'plugins', 'module_utils')
WRITERS = ('post', 'put', 'delete', 'action')
ONCE = ('write_once', 'create_once')

# Writes that are not changes: (file, method) and why.
NOT_CHANGES = {
    # The 2.63 feasibility check is a question Manila answers; its loop asks
    # it again after a lost answer (share_networks.py says so).
    ('share_networks.py', 'check_service_change'),
}


def _is_client_write(call):
    func = call.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Attribute)
            and func.value.attr == 'client'):
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


def _calls_once(node):
    for call in ast.walk(node):
        if isinstance(call, ast.Call):
            func = call.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, 'id', None)
            if name in ONCE:
                return True
    return False


def writes_outside_write_once():
    found = []
    for filename in sorted(os.listdir(MODULE_UTILS)):
        if not filename.endswith('.py') or filename == 'client.py':
            continue
        with open(os.path.join(MODULE_UTILS, filename)) as handle:
            tree = ast.parse(handle.read())
        for cls in [n for n in tree.body if isinstance(n, ast.ClassDef)]:
            for method in [n for n in cls.body if isinstance(n, ast.FunctionDef)]:
                if (filename, method.name) in NOT_CHANGES:
                    continue
                writes = [c for c in ast.walk(method)
                          if isinstance(c, ast.Call) and _is_client_write(c)]
                if writes and not _calls_once(method):
                    found.append('%s %s.%s' % (filename, cls.name, method.name))
    return found


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
    assert writes_outside_write_once() == ['thing.py ThingAPI.delete']


# (security_services.py writes only through resource.py's ResourceAPI)
@pytest.mark.parametrize('filename', ['snapshots.py', 'share_networks.py',
                                      'resource.py', 'share_types.py'])
def test_the_new_api_classes_write(filename):
    # (so that the check above has something to look at in each of them)
    with open(os.path.join(MODULE_UTILS, filename)) as handle:
        tree = ast.parse(handle.read())
    assert any(isinstance(c, ast.Call) and _is_client_write(c) for c in ast.walk(tree))
