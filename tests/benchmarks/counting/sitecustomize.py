# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Request and memory counter for the benchmarks (tests/benchmarks/fleet.py).

On PYTHONPATH with OKBENCH_LOG set, every Python process started (the module
process under ansible-playbook included: the local connection passes the
environment on) appends one JSON line per request that goes through
keystoneauth's Session.request (Keystone and Manila alike):
``[pid, method, url, status]``, and at exit ``[pid, "RSS", kilobytes]``
(its peak resident memory) when it sent any.  keystoneauth is patched when
something imports it, so processes that never talk to a cloud (the Ansible
controller) neither pay for the import nor write anything.
"""

import atexit
import importlib.abc
import json
import os
import resource
import sys

LOG = os.environ.get('OKBENCH_LOG')


def _write(line):
    with open(LOG, 'a') as handle:
        handle.write(json.dumps(line) + '\n')


def _patch(module):
    original = module.Session.request
    sent = []

    def counted(self, url, method, *args, **kwargs):
        response = original(self, url, method, *args, **kwargs)
        if not sent:
            sent.append(True)
            atexit.register(lambda: _write(
                [os.getpid(), 'RSS', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss]))
        _write([os.getpid(), method, url, getattr(response, 'status_code', None)])
        return response
    module.Session.request = counted


class _Finder(importlib.abc.MetaPathFinder):
    """Patches keystoneauth1.session right after its first import."""

    def find_spec(self, fullname, path, target=None):
        if fullname != 'keystoneauth1.session':
            return None
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(fullname)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        exec_module = loader.exec_module

        def patched(module):
            exec_module(module)
            _patch(module)
        loader.exec_module = patched
        return spec


if LOG:
    import importlib.util  # noqa: F401  (find_spec above)
    sys.meta_path.insert(0, _Finder())
