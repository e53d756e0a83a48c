# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the collection says it supports is what tools/test tests, nothing more.

tests/matrix/releases.txt lists the ansible-core releases that tools/test runs, each with
its exact version and its Python; the default release is the one tests/constraints.txt
pins, every other release has its own constraints file. meta/runtime.yml's
requires_ansible, the roles' min_ansible_version, the execution environment's ansible-core
and the README's table of tested versions must state that range; a release added to or
dropped from the matrix fails here until they do.
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


def pinned_core(text):
    return re.search(r'^ansible-core==(\S+)$', text, re.M).group(1)


def matrix():
    """[(release, python, exact ansible-core version)] from tests/matrix/releases.txt."""
    rows, header = [], None
    for line in read('tests', 'matrix', 'releases.txt').splitlines():
        cells = line.split('#', 1)[0].split()
        if not cells:
            continue
        if header is None:
            header = cells
            continue
        row = dict(zip(header, cells))
        exact = row['ansible-core']
        rows.append(('.'.join(exact.split('.')[:2]), row['python'], exact))
    return rows


def minor(release):
    return tuple(int(part) for part in release.split('.')[:2])


def test_the_matrix_is_a_range_of_releases():
    releases = [release for release, python, exact in matrix()]
    assert len(releases) >= 2
    numbers = [minor(release) for release in releases]
    assert numbers == sorted(numbers)
    expected = [(numbers[0][0], n) for n in range(numbers[0][1], numbers[-1][1] + 1)]
    assert numbers == expected, 'tests/matrix/releases.txt skips a release: %s' % releases


def test_each_release_is_pinned_to_its_version():
    default = pinned_core(read('tests', 'constraints.txt'))
    assert default in [exact for release, python, exact in matrix()], (
        'tests/constraints.txt pins ansible-core %s, which tests/matrix/releases.txt does not list' % default)
    for release, python, exact in matrix():
        if exact == default:
            continue
        constraints = read('tests', 'matrix', 'constraints-%s.txt' % release)
        assert pinned_core(constraints) == exact, 'tests/matrix/constraints-%s.txt' % release


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
