"""Check the members of the collection tarball that `ansible-galaxy collection build` made.

Usage: check_tarball.py TARBALL SOURCE_DIR

Fails (exit 1) when the tarball holds something that belongs to the developers'
machine or the test harness (test cloud, venvs, caches, test output, tools/, .ci),
or lacks what users need (every module of SOURCE_DIR/plugins/modules, the runtime
metadata with its action group, the execution environment files).
"""
import os
import re
import sys
import tarfile

FORBIDDEN = [
    (r'^(\.ci|\.git|\.github|\.venv|venv|\.cache|\.ansible|\.pytest_cache|tools)(/|$)',
     'development tooling, VCS data, venv or cache'),
    (r'^tests/output(/|$)', 'ansible-test output'),
    (r'^tests/cloud(/|$)', 'the local test cloud'),
    (r'^tests/runner(/|$)', "the test runner's unit tests"),
    (r'(^|/)integration_config\.yml$', 'the local cloud\'s integration config (passwords)'),
    (r'(^|/)clouds\.yaml$', 'a clouds.yaml (credentials)'),
    (r'(^|/)(__pycache__|\.pytest_cache)(/|$)', 'a Python cache'),
    (r'\.py[co]$', 'compiled Python'),
    (r'(^|/)(pyvenv\.cfg|site-packages)(/|$)', 'a venv'),
    (r'\.(tar\.gz|whl)$', 'a build artifact'),
]

REQUIRED = [
    'MANIFEST.json', 'FILES.json', 'README.md', 'COPYING', 'CHANGELOG.rst',
    'meta/runtime.yml', 'meta/execution-environment.yml', 'requirements.txt', 'bindep.txt',
    'docs/awx.md',
]


def main(tarball, source):
    with tarfile.open(tarball) as tar:
        members = sorted(m.name[2:] if m.name.startswith('./') else m.name for m in tar.getmembers())
    modules = sorted(
        'plugins/modules/' + name for name in os.listdir(os.path.join(source, 'plugins', 'modules'))
        if name.endswith('.py') and not name.startswith('_'))
    problems = []
    for name in members:
        for pattern, why in FORBIDDEN:
            if re.search(pattern, name):
                problems.append('%s: must not be in the tarball (%s)' % (name, why))
                break
    present = set(members)
    for name in REQUIRED + modules:
        if name not in present:
            problems.append('%s: missing from the tarball' % name)
    print('%s: %d members, %d modules' % (os.path.basename(tarball), len(members), len(modules)))
    if problems:
        print('\n'.join(problems))
        print('fix build_ignore in galaxy.yml (or add the missing file)')
        return 1
    top = sorted({name.split('/')[0] for name in members})
    print('top level: ' + ' '.join(top))
    return 0


if __name__ == '__main__':
    sys.exit(main(*sys.argv[1:]))
