# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the collection says it supports is what tools/test tests, nothing more.

tests/matrix/releases lists the ansible-core releases that tools/test runs the sanity and
unit tests on, with the Python of each, and the exact versions are in the constraints
file of each release. meta/runtime.yml's requires_ansible, the roles' min_ansible_version,
the execution environment's ansible-core and the README's table of tested versions must
state that range; a release added to or dropped from the matrix fails here until they do.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import re

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', '..'))


def read(*path):
    with open(os.path.join(ROOT, *path)) as f:
        return f.read()


def matrix():
    """[(release, python, exact ansible-core version)] from tests/matrix/releases."""
    rows = []
    for line in read('tests', 'matrix', 'releases').splitlines():
        fields = line.split()
        if not fields or fields[0].startswith('#'):
            continue
        release, python, kind = fields[:3]
        if kind == 'default':
            constraints = read('tests', 'constraints.txt')
        else:
            constraints = read('tests', 'matrix', 'constraints-%s.txt' % release)
        exact = re.search(r'^ansible-core==(\S+)$', constraints, re.M).group(1)
        rows.append((release, python, exact))
    return rows


def minor(release):
    return tuple(int(part) for part in release.split('.')[:2])


def test_the_matrix_is_a_range_of_releases_each_pinned_to_one_of_its_own():
    releases = [release for release, python, exact in matrix()]
    assert len(releases) >= 2
    numbers = [minor(release) for release in releases]
    assert numbers == sorted(numbers)
    expected = [(numbers[0][0], n) for n in range(numbers[0][1], numbers[-1][1] + 1)]
    assert numbers == expected, 'tests/matrix/releases skips a release: %s' % releases
    for release, python, exact in matrix():
        assert exact.startswith(release + '.'), (release, exact)


def test_requires_ansible_is_the_tested_range():
    releases = [minor(release) for release, python, exact in matrix()]
    oldest, newest = releases[0], releases[-1]
    runtime = yaml.safe_load(read('meta', 'runtime.yml'))
    assert runtime['requires_ansible'] == '>=%d.%d.0,<%d.%d.0' % (oldest + (newest[0], newest[1] + 1))


def test_roles_min_ansible_version_is_the_oldest_tested_release():
    oldest = matrix()[0][0]
    roles = sorted(os.listdir(os.path.join(ROOT, 'roles')))
    assert roles
    for role in roles:
        meta = yaml.safe_load(read('roles', role, 'meta', 'main.yml'))
        assert str(meta['galaxy_info']['min_ansible_version']) == oldest, role


def test_the_execution_environment_pins_a_tested_release_on_its_python():
    ee = yaml.safe_load(read('meta', 'execution-environment.yml'))
    deps = ee['dependencies']
    pin = re.match(r'^ansible-core==(\S+)$', deps['ansible_core']['package_pip'])
    assert pin, deps['ansible_core']
    python = re.search(r'python(3\.\d+)$', deps['python_interpreter']['python_path']).group(1)
    tested = [(exact, py) for release, py, exact in matrix()]
    assert (pin.group(1), python) in tested, (
        'the EE runs ansible-core %s on Python %s; tested: %s' % (pin.group(1), python, tested))


def test_the_readme_table_lists_every_tested_release_with_its_python():
    readme = read('README.md')
    rows = re.findall(r'^\| (2\.\d+\.\d+) \| (3\.\d+) \|', readme, re.M)
    assert rows == [(exact, python) for release, python, exact in matrix()], (
        "README.md's table of tested releases (| ansible-core | Python | ...) differs from tests/matrix")
