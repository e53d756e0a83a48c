"""Offline stand-in for get-pip.py, put in ansible-test's cache by openkeel.manila's tools/test.

ansible-test runs it with the arguments of a pip install, e.g.
``--disable-pip-version-check pip==24.2 --no-setuptools --no-wheel``.
"""
import glob
import os
import subprocess
import sys

import ensurepip

args = [a for a in sys.argv[1:] if a not in ('--no-setuptools', '--no-wheel')]
# As get-pip.py does: the pip wheel that ensurepip bundles, run without installing it,
# installs the pip that was asked for (one install, not two).
wheels = glob.glob(os.path.join(os.path.dirname(ensurepip.__file__), '_bundled', 'pip-*.whl'))
if len(wheels) == 1:
    sys.exit(subprocess.call([sys.executable, os.path.join(wheels[0], 'pip'), 'install'] + args))

saved = os.environ.get('PIP_CONFIG_FILE')
ensurepip.bootstrap(upgrade=True)
# ensurepip leaves PIP_CONFIG_FILE=/dev/null in this process: the pip started below would
# not see the machine's pip configuration (its index, its CA certificate) without this.
if saved is None:
    os.environ.pop('PIP_CONFIG_FILE', None)
else:
    os.environ['PIP_CONFIG_FILE'] = saved
sys.exit(subprocess.call([sys.executable, '-m', 'pip', 'install'] + args))
