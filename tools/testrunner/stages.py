"""The stages, one function each, and what they share (venvs, copies, the cloud).

Each stage function runs in a child process of its own (run.call), so it may chdir and
set os.environ as it likes; it fails by raising run.StepFailed (sh() does so for a
command that fails). Functions named stage_X run stage X on the default release;
matrix_X(ctx, R) runs the per-release stage X on release R.
"""
from __future__ import annotations

import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

from . import plan
from .run import StepFailed, clock, echo, output_of, sh, spawn, wait

HERE = os.path.dirname(os.path.abspath(__file__))


def lib(ctx, func, *args, capture=False, check=True):
    """A function of tools/lib.sh (shared with tools/demo, tools/release, ...), run by bash."""
    cmd = ['bash', '-c', '. "$0"; "$@"', os.path.join(ctx.repo, 'tools', 'lib.sh'), func, *args]
    env = dict(os.environ, REPO=ctx.repo)
    if capture:
        return output_of(*cmd, env=env, check=check)
    return sh(*cmd, env=env, check=check)


def _env(**changes):
    return dict(os.environ, **{k: str(v) for k, v in changes.items()})


def _die(text):
    """A refusal that ends the stage with status 2, said on stderr."""
    sys.stdout.flush()
    sys.stderr.write('[tools/test] ERROR: %s\n' % text)
    raise StepFailed('', 2)


def _grep(pattern, path):
    """Does a line of PATH match the regular expression PATTERN?"""
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            return any(re.search(pattern, line.rstrip('\n')) for line in f)
    except OSError:
        return False


# ---------------------------------------------------------------- where things live
# A release's venv: the test venv for the default release, $OPENKEEL_MATRIX_VENVS/ansible-core-R
# for the others. Its copy of the collection (sanity, units): $BUILD_DIR/matrix/R/...; an
# integration shard's: $BUILD_DIR/integration/R[/shard-S]/.... Each copy's ansible-test runs
# with a HOME beside the copy's ansible_collections/, so that its sanity venvs, its pip
# bootstrap and ~/.ansible/tmp belong to that copy alone, apart from other runs on the
# machine and from the releases that run at the same time.
def release_venv(ctx, rel):
    if ctx.releases[rel].default:
        return ctx.venv
    return os.path.join(ctx.matrix_venvs, 'ansible-core-' + rel)


def release_copy(ctx, rel):
    return os.path.join(ctx.build_dir, 'matrix', rel, 'ansible_collections', 'openkeel', 'manila')


def integration_copy(ctx, rel, shard=1):
    base = os.path.join(ctx.build_dir, 'integration', rel)
    if shard != 1:
        base = os.path.join(base, 'shard-%d' % shard)
    return os.path.join(base, 'ansible_collections', 'openkeel', 'manila')


def copy_home(copy):
    suffix = '/ansible_collections/openkeel/manila'
    return (copy[:-len(suffix)] if copy.endswith(suffix) else copy) + '/home'


def release_constraints(ctx, rel):
    if ctx.releases[rel].default:
        return os.path.join(ctx.repo, 'tests', 'constraints.txt')
    return os.path.join(ctx.repo, 'tests', 'matrix', 'constraints-%s.txt' % rel)


def lane_dir(ctx, key):
    """Where a lane's logs and results go."""
    if key.startswith('integration-'):
        return os.path.join(ctx.build_dir, 'integration', key[len('integration-'):])
    if key in ctx.releases:
        return os.path.join(ctx.build_dir, 'matrix', key)
    return os.path.join(ctx.build_dir, 'side', key)


def lane_copy(ctx, key):
    if key.startswith('integration-'):
        return integration_copy(ctx, key[len('integration-'):])
    return release_copy(ctx, key)


# ---------------------------------------------------------------- setup
def write_get_pip_standin(home, venv):
    """ansible-test bootstraps pip in the venvs it makes with a get-pip script downloaded
    from a host this machine cannot reach, unless ~/.ansible/test/cache/get_pip_X_Y.py
    exists (X.Y: the pip that the release's ansible-test pins: 23.1.2 for 2.16/2.17, 24.2
    for 2.18/2.19, 25.2 for 2.20/2.21). The stand-in (get_pip_standin.py) installs that pip
    with the one ensurepip bundles; it is written under every name the venv's ansible-test
    may look for."""
    cache = os.path.join(home, '.ansible', 'test', 'cache')
    versions = set()
    for path in glob.glob(os.path.join(venv, 'lib', 'python3*', 'site-packages', 'ansible_test',
                                       '_internal', 'python_requirements.py')):
        try:
            with open(path, encoding='utf-8', errors='replace') as f:
                versions.update(re.findall(r"pip='([0-9][0-9.]*)'", f.read()))
        except OSError:
            pass
    if not versions:
        echo('WARNING: could not read which pip ansible-test pins in %s; writing the known names' % venv)
        versions = {'23.1.2', '24.2', '25.2'}
    os.makedirs(cache, exist_ok=True)
    with open(os.path.join(HERE, 'get_pip_standin.py'), encoding='utf-8') as f:
        text = f.read()
    for v in sorted(versions):
        # written beside and renamed: two runs that share a HOME never see half a file
        tmp = os.path.join(cache, 'get_pip.standin.tmp.%d.%s' % (os.getpid(), v))
        with open(tmp, 'w', encoding='utf-8') as f:
            f.write(text)
        os.replace(tmp, os.path.join(cache, 'get_pip_%s.py' % v.replace('.', '_')))


def sync_copy(ctx, dest=None):
    """ansible-test wants the collection at a real .../ansible_collections/openkeel/manila and
    takes its file list from git (tracked, and untracked but not ignored): the copy gets a
    git repository of its own with every file indexed, the real checkout is not touched."""
    dest = dest or ctx.copy
    if not dest.endswith('/ansible_collections/openkeel/manila'):
        _die('sync_copy: %s is no .../ansible_collections/openkeel/manila' % dest)
    if not shutil.which('rsync'):
        if os.getuid() != 0:
            _die('rsync is missing')
        sh('apt-get', 'update', '-qq')
        sh('apt-get', 'install', '-y', '-qq', 'rsync', stdout=subprocess.DEVNULL,
           env=_env(DEBIAN_FRONTEND='noninteractive'))
    os.makedirs(dest, exist_ok=True)
    sh('rsync', '-a', '--delete',
       '--exclude=/.git', '--exclude=/tests/output', '--exclude=/.venv', '--exclude=/.cache',
       '--exclude=__pycache__', '--exclude=*.pyc', '--exclude=.pytest_cache', '--exclude=/*.tar.gz',
       ctx.repo + '/', dest + '/')
    if not os.path.isdir(os.path.join(dest, '.git')):
        sh('git', 'init', '-q', '.', cwd=dest)
    sh('git', 'add', '-A', '.', cwd=dest)
    echo('collection copied to %s' % dest)


VERSIONS_SCRIPT = '''
import sys
from importlib.metadata import version
print('python        %s (%s)' % (sys.version.split()[0], sys.executable))
for name in ('ansible-core', 'openstacksdk', 'keystoneauth1'):
    print('%-13s %s' % (name, version(name)))
'''


def print_versions(ctx, venv=None):
    sh(os.path.join(venv or ctx.venv, 'bin', 'python'), '-c', VERSIONS_SCRIPT)


def ensure_shellcheck():
    """ansible-test skips its shellcheck sanity test when shellcheck is missing."""
    if shutil.which('shellcheck'):
        return
    if os.getuid() == 0 and shutil.which('apt-get'):
        echo('installing shellcheck (apt)')
        env = _env(DEBIAN_FRONTEND='noninteractive')
        quiet = {'stdout': subprocess.DEVNULL, 'env': env}
        if (sh('apt-get', 'update', '-qq', check=False, **quiet) != 0
                or sh('apt-get', 'install', '-y', '-qq', 'shellcheck', check=False, **quiet) != 0):
            echo('WARNING: could not install shellcheck; ansible-test will skip its shellcheck test')
    else:
        echo('WARNING: shellcheck is missing; ansible-test will skip its shellcheck test')


def check_default_release(ctx):
    """The test venv must hold the default release of tests/matrix/releases.txt."""
    rel = ctx.default
    got = output_of(os.path.join(ctx.venv, 'bin', 'python'), '-c',
                    'import sys; from importlib.metadata import version\n'
                    'print("%d.%d %s" % (sys.version_info[0], sys.version_info[1], version("ansible-core")))')
    if not got.startswith('%s %s.' % (rel.python, rel.rel)):
        raise StepFailed('tests/matrix/releases.txt: the default release is ansible-core %s on Python %s, but %s '
                         'has Python/ansible-core %s (tests/constraints.txt, OPENKEEL_PYTHON)'
                         % (rel.rel, rel.python, ctx.venv, got))


def setup(ctx):
    ensure_shellcheck()
    lib(ctx, 'ensure_venv')
    sync_copy(ctx, ctx.copy)
    print_versions(ctx)
    check_default_release(ctx)


def prepare_release(ctx, rel, copy):
    """REL's venv (built when missing or stale), COPY synced with its HOME ready."""
    release = ctx.releases[rel]
    venv = release_venv(ctx, rel)
    cons = release_constraints(ctx, rel)
    if not os.path.isfile(cons):
        raise StepFailed('%s is missing (tools/matrix-freeze %s writes it)' % (cons, rel))
    with open(cons, encoding='utf-8') as f:
        if 'ansible-core==' + release.exact not in f.read().splitlines():
            raise StepFailed('%s does not pin ansible-core %s (tests/matrix/releases.txt)' % (cons, release.exact))
    if release.default:
        lib(ctx, 'ensure_venv')
    else:
        py = lib(ctx, 'find_python', release.python, capture=True, check=False)
        if not py:
            raise StepFailed('ansible-core %s runs on Python %s (tests/matrix/releases.txt), which this machine lacks'
                             % (rel, release.python))
        lib(ctx, 'build_venv', venv, py, os.path.join(ctx.repo, 'tests', 'matrix', 'requirements.txt'), cons)
    prepare_copy(ctx, rel, copy)
    print_versions(ctx, venv)


def prepare_copy(ctx, rel, copy):
    """COPY synced; its HOME with the machine's pip cache and the get-pip stand-in."""
    sync_copy(ctx, copy)
    home = copy_home(copy)
    pip_cache = os.environ.get('PIP_CACHE_DIR') or os.path.join(ctx.real_home, '.cache', 'pip')
    os.makedirs(os.path.join(home, '.cache'), exist_ok=True)
    os.makedirs(pip_cache, exist_ok=True)
    link = os.path.join(home, '.cache', 'pip')
    if os.path.islink(link) or os.path.isfile(link):
        os.remove(link)
    if os.path.isdir(link):   # a real directory: `ln -sfn` would put the link inside it
        link = os.path.join(link, os.path.basename(pip_cache))
        if os.path.islink(link):
            os.remove(link)
    os.symlink(pip_cache, link)
    write_get_pip_standin(home, release_venv(ctx, rel))


def in_release(ctx, rel, copy, *cmd, check=True):
    """CMD in COPY with REL's venv first on PATH and COPY's HOME."""
    venv = release_venv(ctx, rel)
    env = _env(HOME=copy_home(copy), PATH=os.path.join(venv, 'bin') + ':' + os.environ.get('PATH', ''),
               VIRTUAL_ENV=venv)
    return sh(*cmd, cwd=copy, env=env, check=check)


def in_copy(ctx):
    os.chdir(ctx.copy)


# ---------------------------------------------------------------- notes for the summary
def manila_note(ctx, rel):
    m = plan.manila_of(ctx.releases[rel], ctx.manila_override)
    return '%s (OPENKEEL_MANILA_RELEASE)' % m if m else 'current (the base cloud)'


def span(ctx, rel):
    return plan.lane_span(ctx.lane_first[rel], ctx.shards.count)


def cloud_lanes_note(ctx):
    out = '1 (package, compat, faults)'
    for rel in ctx.releases:
        if ctx.lane_first[rel] != 1:
            out += ', %s (integration-%s)' % (span(ctx, rel), rel)
    return out


def shard_note(ctx, rel):
    try:
        with open(os.path.join(lane_dir(ctx, 'integration-' + rel), 'shards-note'), encoding='utf-8') as f:
            text = f.read().rstrip('\n')
    except OSError:
        return ''
    return ' (%s)' % text if text else ''


def stage_note(ctx, name):
    """What the summary says after a stage's result: the release it ran on, its lanes."""
    extra = ''
    if name.startswith('integration-'):
        rel = name[len('integration-'):]
        extra = ', Manila %s, cloud lane(s) %s%s' % (manila_note(ctx, rel), span(ctx, rel), shard_note(ctx, rel))
    elif name.startswith('setup-integration-'):
        rel = name[len('setup-integration-'):]
    elif name.startswith(('sanity-', 'units-', 'setup-')):
        rel = name.split('-', 1)[1]
    elif name in ('changelog', 'docs', 'release', 'lint', 'runner', 'package', 'faults', 'mutation', 'setup'):
        rel = ctx.default.rel
    elif name == 'cloud':
        return 'cloud lanes: ' + cloud_lanes_note(ctx)
    elif name == 'cloud-other-lanes':
        return 'the tests/cloud tests that act on lanes 2 on, before the integration shards use them'
    elif name == 'compat':
        return "the ansible package's ansible-core (its own venv), cloud lane 1"
    else:
        return ''
    if name in ('package', 'faults'):
        extra = ', cloud lane 1'
    if name.startswith('sanity-') and ctx.releases[rel].sanity != 'all':
        extra = ', without pylint'
    release = ctx.releases[rel]
    return 'ansible-core %s on Python %s%s' % (release.exact, release.python, extra)


# ---------------------------------------------------------------- the matrix stages
def matrix_sanity(ctx, rel):
    """ansible-test sanity in REL's copy; no ignore file may have entries; the sanity column
    `no-pylint` leaves pylint out on that release."""
    bad = False
    for path in sorted(glob.glob(os.path.join(ctx.repo, 'tests', 'sanity', 'ignore-*.txt'))):
        with open(path, encoding='utf-8', errors='replace') as f:
            entries = [(n, line.rstrip('\n')) for n, line in enumerate(f, 1)
                       if not re.match(r'^\s*(#|$)', line.rstrip('\n'))]
        if entries:
            echo('%s has entries; sanity must pass without ignores:' % path)
            for n, line in entries:
                echo('%d:%s' % (n, line))
            bad = True
    if bad:
        raise StepFailed()
    release = ctx.releases[rel]
    skip = [] if release.sanity == 'all' else ['--skip-test', 'pylint']
    in_release(ctx, rel, release_copy(ctx, rel), 'nice', '-n', ctx.matrix_nice, 'ansible-test', 'sanity',
               '--python', release.python, '--requirements', *skip, *ctx.extra)


def matrix_units(ctx, rel):
    in_release(ctx, rel, release_copy(ctx, rel), 'nice', '-n', ctx.matrix_nice, 'ansible-test', 'units',
               '--python', ctx.releases[rel].python, '--requirements', *ctx.extra)


# ---------------------------------------------------------------- the default release's stages
def stage_changelog(ctx):
    """antsibull-changelog lint, then the release notes of galaxy.yml's version made in a
    scratch copy (the checkout's fragments stay; a stale CHANGELOG.rst is only noted)."""
    in_copy(ctx)
    sh('antsibull-changelog', 'lint', '-v', *ctx.extra)
    echo('antsibull-changelog lint: no problems')
    sh(os.path.join(ctx.repo, 'tools', 'release-notes'), '--check', env=_env(OPENKEEL_BUILD_DIR=ctx.build_dir))


def stage_docs(ctx):
    """The documentation site. antsibull-docs lints the plugins' and roles' docs, then writes
    the reference pages from them (the copy, found through ANSIBLE_COLLECTIONS_PATH); the
    guides (docs/*.md, docs/playbooks for their download links) go beside them;
    docs/site/sitegen.py writes the pages made from the collection's files (support matrix,
    the collection playbooks, the changelog); Sphinx builds it, a warning being an error.
    conf_offline.py is appended to the generated conf.py: no intersphinx downloads, nitpicky
    kept, and openkeel_sphinx.py links module, role and playbook names. Last, tests/docs
    reads the built site as a reader would."""
    site = os.path.join(ctx.build_dir, 'docs')
    os.environ.update(ANSIBLE_COLLECTIONS_PATH=ctx.build_dir, ANSIBLE_COLLECTIONS_SCAN_SYS_PATH='false')
    in_copy(ctx)
    sh('antsibull-docs', 'lint-collection-docs', '--plugin-docs', '--validate-collection-refs', 'dependent', '.')
    echo('antsibull-docs lint-collection-docs: no problems')

    shutil.rmtree(site, ignore_errors=True)
    os.makedirs(site, exist_ok=True)
    sh('antsibull-docs', 'sphinx-init', '--use-current', '--fail-on-error', '--dest-dir', site,
       '--index-rst-source', 'docs/site/index.rst',
       '--project', 'openkeel.manila', '--copyright', 'openkeel.manila developers',
       '--title', 'openkeel.manila documentation', 'openkeel.manila', stdout=subprocess.DEVNULL)
    conf = os.path.join(site, 'conf.py')
    # conf_offline.py overrides these: they must still be there as it expects
    for expected in ('^intersphinx_mapping = {', '^nitpicky = True'):
        if not _grep(expected, conf):
            raise StepFailed("antsibull-docs's conf.py has no '%s'; check docs/site/conf_offline.py" % expected)
    if _grep('^def setup', conf):
        raise StepFailed("antsibull-docs's conf.py has a setup(); docs/site/conf_offline.py would replace it")
    with open('docs/site/conf_offline.py', encoding='utf-8') as f:
        offline = f.read()
    with open(conf, 'a', encoding='utf-8') as f:
        f.write('\n' + offline)
    shutil.copy('docs/site/openkeel_sphinx.py', site)
    sh('python', 'docs/site/sitegen.py', 'config', '.', site)

    rst = os.path.join(site, 'rst')
    os.makedirs(rst, exist_ok=True)
    os.chmod(rst, os.stat(rst).st_mode & ~0o022)   # antsibull-docs wants it writable by its owner only
    sh('antsibull-docs', '--config-file', os.path.join(site, 'antsibull-docs.cfg'), 'collection', '--use-current',
       '--fail-on-error', '--cleanup', 'everything', '--dest-dir', rst, 'openkeel.manila', stdout=subprocess.DEVNULL)
    guides = os.path.join(rst, 'guides')
    os.makedirs(guides, exist_ok=True)
    for md in sorted(glob.glob('docs/*.md')):
        shutil.copy(md, guides)
    shutil.copytree('docs/playbooks', os.path.join(guides, 'playbooks'), symlinks=True, dirs_exist_ok=True)
    # the release notes of galaxy.yml's version (a scratch copy of their own)
    notes = os.path.join(site, 'release-notes.rst')
    sh('tools/release-notes', '--output', notes, stdout=subprocess.DEVNULL,
       env=_env(OPENKEEL_BUILD_DIR=os.path.join(site, 'scratch')))
    sh('python', 'docs/site/sitegen.py', 'pages', '.', site, notes, stdout=subprocess.DEVNULL)

    html = os.path.join(site, 'build', 'html')
    sh('sphinx-build', '-b', 'html', '-q', '-W', '--keep-going', '-c', site, rst, html, *ctx.extra)
    echo('docs site: %s/index.html' % html)
    sh('python', '-m', 'pytest', '-p', 'no:cacheprovider', '-q', 'tests/docs',
       env=_env(OPENKEEL_DOCS_HTML=html, OPENKEEL_DOCS_COLLECTION=ctx.copy))


def stage_release(ctx):
    """tools/release rehearsed in a scratch copy: every step but the one that publishes."""
    in_copy(ctx)
    sh('tools/release', '--rehearse', os.path.join(ctx.build_dir, 'release'), *ctx.extra,
       env=_env(OPENKEEL_BUILD_DIR=ctx.build_dir))


def stage_lint(ctx):
    """ansible-lint (production profile) on the roles, playbooks, integration targets and
    tools/package, in the copy, whose parent is the collections path: the collection's own
    modules and action group resolve."""
    in_copy(ctx)
    sh('ansible-lint', '--offline', '--profile', 'production', *ctx.extra,
       'roles', 'playbooks', 'tests/integration/targets', 'tools/package',
       env=_env(ANSIBLE_COLLECTIONS_PATH=ctx.build_dir))


def stage_runner(ctx):
    """The unit tests of this runner (tests/runner: the matrix and shards it reads, the
    command line, lanes, the summary), with the test venv's pytest, in the copy."""
    in_copy(ctx)
    sh('python', '-m', 'pytest', '-p', 'no:cacheprovider', '-q', 'tests/runner', *ctx.extra)


def _tarball(dist):
    found = sorted(glob.glob(os.path.join(dist, 'openkeel-manila-*.tar.gz')))
    return ' '.join(found) or os.path.join(dist, 'openkeel-manila-*.tar.gz')


def stage_package(ctx):
    """The collection as users get it: the tarball built and its members checked, installed
    into an empty collections path and only that used: ansible-doc of every module, then
    tools/package/module_defaults.yml against the cloud (each module's auth from
    group/openkeel.manila.manila); then the execution environment: ansible-builder
    introspect on the install, ansible-builder create with meta/execution-environment.yml."""
    work = os.path.join(ctx.build_dir, 'package')
    shutil.rmtree(work, ignore_errors=True)
    for sub in ('dist', 'collections', 'playbook', 'ee'):
        os.makedirs(os.path.join(work, sub), exist_ok=True)
    in_copy(ctx)
    modules = [m for m in (os.path.basename(p)[:-3] for p in sorted(glob.glob('plugins/modules/*.py')))
               if not m.startswith('_')]
    for m in modules:
        if not _grep(r'openkeel\.manila\.%s:$' % re.escape(m), 'tools/package/every_module.yml'):
            raise StepFailed('tools/package/every_module.yml does not call module %s' % m)

    sh('ansible-galaxy', 'collection', 'build', '--output-path', os.path.join(work, 'dist'), '.')
    tarball = _tarball(os.path.join(work, 'dist'))
    sh('python', 'tools/package/check_tarball.py', tarball, '.')
    for yml in sorted(glob.glob('tools/package/*.yml')):
        shutil.copy(yml, os.path.join(work, 'playbook'))

    collections = os.path.join(work, 'collections')
    os.environ.update(ANSIBLE_COLLECTIONS_PATH=collections, ANSIBLE_COLLECTIONS_SCAN_SYS_PATH='false')
    os.chdir(work)
    sh('ansible-galaxy', 'collection', 'install', '--offline', '-p', collections, tarball)
    installed = os.path.join(collections, 'ansible_collections', 'openkeel', 'manila')
    listed = subprocess.run(['ansible-galaxy', 'collection', 'list', 'openkeel.manila'], check=False,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
    found = '\n'.join(line[2:] for line in listed.splitlines() if line.startswith('# '))
    if found != os.path.join(collections, 'ansible_collections'):
        raise StepFailed('openkeel.manila is found in: %s; expected only %s' % (found or 'nowhere', collections))
    for m in modules:
        with open(os.path.join(work, 'ansible-doc-%s.txt' % m), 'w', encoding='utf-8') as out:
            if sh('ansible-doc', 'openkeel.manila.' + m, stdout=out, check=False) != 0:
                raise StepFailed('ansible-doc openkeel.manila.%s failed with the installed collection' % m)
    echo('ansible-doc works for: %s' % ' '.join(modules))

    cloud_up(ctx)
    sh('ansible-playbook', '-i', 'localhost,', 'module_defaults.yml',
       '-e', 'pkg_clouds_yaml=%s' % os.path.join(ctx.cloud_dir, 'clouds.yaml'), *ctx.extra,
       cwd=os.path.join(work, 'playbook'))

    ee = os.path.join(work, 'ee')
    introspect = os.path.join(ee, 'introspect.txt')
    with open(introspect, 'w', encoding='utf-8') as out:
        sh('ansible-builder', 'introspect', '--sanitize', collections, stdout=out)
    for m in ('openstacksdk', 'keystoneauth1'):
        if not _grep('%s.*# from collection openkeel.manila' % m, introspect):
            with open(introspect, encoding='utf-8') as f:
                sys.stdout.write(f.read())
            raise StepFailed('ansible-builder introspect misses %s' % m)
    for name in ('meta/execution-environment.yml', 'requirements.txt', 'bindep.txt'):
        shutil.copy(os.path.join(installed, name), ee)
    sh('ansible-builder', 'create', '-f', os.path.join(ee, 'execution-environment.yml'),
       '-c', os.path.join(ee, 'context'))
    for m in ('openstacksdk', 'keystoneauth1'):
        if not _grep('^' + m, os.path.join(ee, 'context', '_build', 'requirements.txt')):
            raise StepFailed("the EE build context's requirements.txt lacks %s" % m)
    if not _grep('ansible-core==', os.path.join(ee, 'context', 'Dockerfile')):
        raise StepFailed('the EE build context does not pin ansible-core')
    echo('EE build context: %s' % os.path.join(ee, 'context'))


# ---------------------------------------------------------------- compat
# openkeel.manila beside openstack.cloud, as users of both have them: the `ansible` package
# (which bundles openstack.cloud) in a venv of its own ($OPENKEEL_COMPAT_VENV) with the exact
# versions of tools/package/openstack-cloud-requirements.txt on Python 3.12 or 3.13 (ansible
# 14 needs it; the openstack.cloud of ansible 12 breaks with this collection's openstacksdk),
# rebuilt when that file changes. The collection is installed from its tarball, and
# tools/package/openstack_cloud.yml runs modules of both with ONE module_defaults block for
# both action groups against the cloud, then (openstack_cloud_share_type.yml, imported)
# openstack.cloud's own share type test with this collection's modules, then checks the SDK
# log for secrets.
COMPAT_REQUIREMENTS = 'tools/package/openstack-cloud-requirements.txt'
PIP_NOISE = re.compile(r"^WARNING: Location 'file:.*' is ignored")


def pick_compat_python():
    """A Python 3.12 or 3.13 with venv and ensurepip: $OPENKEEL_COMPAT_PYTHON, on PATH, or pyenv's."""
    candidates = os.environ.get('OPENKEEL_COMPAT_PYTHON', '').split() + ['python3.12', 'python3.13']
    root = output_of('pyenv', 'root', check=False) if shutil.which('pyenv') else ''
    root = root or os.path.join(os.environ.get('HOME', ''), '.pyenv')
    candidates += sorted(glob.glob(os.path.join(root, 'versions', '3.1[23]*', 'bin', 'python3.1[23]')))
    check = 'import sys, venv, ensurepip; sys.exit(not (3, 12) <= sys.version_info < (3, 14))'
    for c in candidates:
        path = shutil.which(c)
        if path and subprocess.call([path, '-c', check], stderr=subprocess.DEVNULL) == 0:
            return path
    return ''


def _pip_quiet(*cmd):
    """A pip install whose stderr loses the warnings about this machine's local index folders."""
    sys.stdout.flush()
    proc = subprocess.run(list(cmd), stderr=subprocess.PIPE, text=True, check=False)
    for line in proc.stderr.splitlines(True):
        if not PIP_NOISE.match(line):
            sys.stderr.write(line)
    sys.stderr.flush()
    if proc.returncode != 0:
        raise StepFailed('', proc.returncode if 0 < proc.returncode < 256 else 1)


def ensure_compat_venv(ctx):
    t0 = clock()
    venv = ctx.compat_venv
    stamp = os.path.join(venv, '.openkeel-stamp')
    py = pick_compat_python()
    if not py:
        raise StepFailed('no Python 3.12 or 3.13 with venv and ensurepip found (set OPENKEEL_COMPAT_PYTHON)')
    with open(os.path.join(ctx.repo, COMPAT_REQUIREMENTS), 'rb') as f:
        data = f.read()
    data += subprocess.run([py, '-c', 'import sys; print(sys.version)'], stdout=subprocess.PIPE, check=True).stdout
    want = hashlib.sha256(data).hexdigest()
    try:
        with open(stamp, encoding='utf-8') as f:
            have = f.read().strip()
    except OSError:
        have = ''
    if os.access(os.path.join(venv, 'bin', 'ansible-playbook'), os.X_OK) and have == want:
        echo('venv %s is up to date' % venv)
        return
    echo('(re)building venv %s with %s' % (venv, py))
    shutil.rmtree(venv, ignore_errors=True)
    sh(py, '-m', 'venv', venv)
    python = os.path.join(venv, 'bin', 'python')
    _pip_quiet(python, '-m', 'pip', 'install', '--quiet', '--upgrade', 'pip')
    # --no-compile: byte-compiling the hundred collections of `ansible` takes minutes, and
    # Python compiles what the play imports anyway
    _pip_quiet(python, '-m', 'pip', 'install', '--quiet', '--no-compile', '-r',
               os.path.join(ctx.repo, COMPAT_REQUIREMENTS))
    with open(stamp, 'w', encoding='utf-8') as f:
        f.write(want + '\n')
    echo('venv %s built in %ds' % (venv, clock() - t0))


COMPAT_VERSIONS_SCRIPT = '''
import importlib.util, json, os, sys
from importlib.metadata import version
where = importlib.util.find_spec('ansible_collections.openstack.cloud').submodule_search_locations[0]
with open(os.path.join(where, 'MANIFEST.json')) as f:
    cloud = json.load(f)['collection_info']['version']
print('compat venv: python %s, ansible %s, ansible-core %s, openstack.cloud %s, openstacksdk %s'
      % (sys.version.split()[0], version('ansible'), version('ansible-core'), cloud, version('openstacksdk')))
'''


def stage_compat(ctx):
    work = os.path.join(ctx.build_dir, 'compat')
    ensure_compat_venv(ctx)
    sh(os.path.join(ctx.compat_venv, 'bin', 'python'), '-c', COMPAT_VERSIONS_SCRIPT)
    shutil.rmtree(work, ignore_errors=True)
    for sub in ('dist', 'collections', 'playbook'):
        os.makedirs(os.path.join(work, sub), exist_ok=True)
    in_copy(ctx)
    sh('ansible-galaxy', 'collection', 'build', '--output-path', os.path.join(work, 'dist'), '.',
       stdout=subprocess.DEVNULL)
    tarball = _tarball(os.path.join(work, 'dist'))
    # installed by the test venv's ansible-galaxy, as in the package stage
    sh('ansible-galaxy', 'collection', 'install', '--offline', '-p', os.path.join(work, 'collections'), tarball,
       stdout=subprocess.DEVNULL)
    for name in ('openstack_cloud.yml', 'openstack_cloud_share_type.yml', 'every_module.yml'):
        shutil.copy(os.path.join('tools', 'package', name), os.path.join(work, 'playbook'))
    cloud_up(ctx)
    sh(os.path.join(ctx.compat_venv, 'bin', 'ansible-playbook'), '-i', 'localhost,', 'openstack_cloud.yml',
       '-e', 'pkg_clouds_yaml=%s' % os.path.join(ctx.cloud_dir, 'clouds.yaml'),
       '-e', 'pkg_sdk_log=%s' % os.path.join(work, 'sdk.log'), *ctx.extra,
       cwd=os.path.join(work, 'playbook'), env=_env(ANSIBLE_COLLECTIONS_PATH=os.path.join(work, 'collections')))


# ---------------------------------------------------------------- the cloud
def cloud_up(ctx):
    """The local cloud with lane 1 and the integration shards' lanes (OPENKEEL_CLOUD_LANES
    may ask for more); nothing once the cloud stage passed in this run."""
    if ctx.cloud_is_up:
        return
    if not os.access(ctx.cloud_script, os.X_OK):
        raise StepFailed('%s is missing or not executable' % ctx.cloud_script)
    sh(ctx.cloud_script, 'up', env=_env(OPENKEEL_CLOUD_LANES=os.environ.get('OPENKEEL_CLOUD_LANES') or ctx.cloud_lanes))


def release_cloud_up(ctx, rel):
    """The cloud of the Manila release that REL's row names, beside the base cloud (its own
    venv, API and database; the base cloud's Keystone and lanes), when it is not the
    current one. It runs in integration-R's lane, while other stages run."""
    t0 = clock()
    m = plan.manila_of(ctx.releases[rel], ctx.manila_override)
    if not m:
        return
    echo('integration-%s runs against Manila %s: OPENKEEL_MANILA_RELEASE=%s manila-cloud up' % (rel, m, m))
    sh(ctx.cloud_script, 'up', env=_env(OPENKEEL_MANILA_RELEASE=m,
                                        OPENKEEL_CLOUD_LANES=os.environ.get('OPENKEEL_CLOUD_LANES') or ctx.cloud_lanes))
    echo('the Manila %s cloud was up after %ds' % (m, clock() - t0))


def cloud_pytest(ctx, *args):
    """tests/cloud with the test venv's pytest (it has the openstacksdk and keystoneauth1
    that the modules are tested with; the cloud's own venv has no pytest)."""
    cloud_up(ctx)
    os.chdir(ctx.repo)
    sh('python', '-m', 'pytest', '-p', 'no:cacheprovider', '-v', '--tb=short', 'tests/cloud', *args,
       env=_env(OPENKEEL_CLOUD_DIR=ctx.cloud_dir))


def stage_cloud(ctx):
    """The cloud's own tests. Those marked other_lanes act as users of lanes 2 and up: run
    during the integration shards, their requests would fall into a shard's request-log
    window. When the integration lanes start early, those tests ran before them
    (cloud-other-lanes) and are left out here."""
    if ctx.cloud_other_lanes_done:
        cloud_pytest(ctx, '-m', 'not other_lanes', *ctx.extra)
    else:
        cloud_pytest(ctx, *ctx.extra)


def stage_cloud_other_lanes(ctx):
    cloud_pytest(ctx, '-m', 'other_lanes')


# ---------------------------------------------------------------- integration
def _on_manila(ctx, rel):
    """The environment with REL's Manila release in OPENKEEL_MANILA_RELEASE (if not current)."""
    m = plan.manila_of(ctx.releases[rel], ctx.manila_override)
    return _env(OPENKEEL_MANILA_RELEASE=m) if m else None


def matrix_integration(ctx, rel):
    """The integration targets on REL: its shards side by side, each in a copy of its own
    (shard 1's is synced by the lane's setup) against a cloud lane of its own, whose
    integration_config.yml `manila-cloud lane-config K` writes (its users, projects and
    request log: shards and releases running at once do not see each other's writes).
    Targets after "--", or a release on lane 1: one ansible-test run on the first lane.
    Each shard's output goes to shard-S.log; this stage's log gets each shard's result
    and seconds per target, and the whole log of a shard that failed."""
    first = int(os.environ.get('OPENKEEL_TEST_LANE') or ctx.lane_first[rel])
    count = ctx.shards.count
    where = lane_dir(ctx, 'integration-' + rel)
    cloud_up(ctx)
    release_cloud_up(ctx, rel)
    for old in glob.glob(os.path.join(where, 'shard-*.log')) + [os.path.join(where, 'shards-note')]:
        if os.path.isfile(old):
            os.remove(old)
    if ctx.extra or first == 1 or count <= 1:
        targets = ctx.extra or plan.all_shard_targets(ctx.shards, rel, ctx.newest)
        integration_shard(ctx, rel, 1, first, targets)
        return
    echo('integration-%s: %d shards side by side on cloud lanes %s' % (rel, count, span(ctx, rel)))
    t0 = clock()
    pids = {}
    targets = {}
    for s in range(1, count + 1):
        targets[s] = plan.shard_targets(ctx.shards, s, rel, ctx.newest)
        log = os.path.join(where, 'shard-%d.log' % s)
        if not targets[s]:
            # (ansible-test given no target would run every one)
            with open(log, 'w', encoding='utf-8') as f:
                f.write('no target of shard %d runs on %s\nOPENKEEL-SHARD-RESULT ok\nOPENKEEL-TARGET-TIMES\n' % (s, rel))
            pids[s] = None
        else:
            pids[s] = spawn(integration_shard, ctx, rel, s, first + s - 1, targets[s], log=log)
    failed = False
    times = []
    for s in range(1, count + 1):
        ok = pids[s] is None or wait(pids[s]) == 0
        failed = failed or not ok
        times.append('%d: %s %ds' % (s, 'ok' if ok else 'FAILED', clock() - t0))
        echo('shard %d (cloud lane %d):%s: %s after the start'
             % (s, first + s - 1, ''.join(' ' + t for t in targets[s]), times[-1].split(': ', 1)[1]))
    with open(os.path.join(where, 'shards-note'), 'w', encoding='utf-8') as f:
        f.write('shards %s\n' % ', '.join(times))
    for s in range(1, count + 1):
        log = os.path.join(where, 'shard-%d.log' % s)
        with open(log, encoding='utf-8', errors='replace') as f:
            lines = f.read().splitlines()
        echo()
        if any(line.startswith('OPENKEEL-SHARD-RESULT ok') for line in lines):
            echo('== shard %d: seconds per target' % s)
            start = next(i for i, line in enumerate(lines) if line.startswith('OPENKEEL-TARGET-TIMES'))
            for line in lines[start + 1:]:
                echo(line)
        else:
            echo('== shard %d FAILED; its output (%s):' % (s, log))
            for line in lines:
                echo(line)
    if failed:
        raise StepFailed()


def target_times(paths):
    """The seconds per target of ansible-test's integration-*.json files, longest first."""
    out = []
    for path in paths:
        try:
            with open(path, encoding='utf-8') as f:
                found = json.load(f).get('targets', {})
        except (OSError, ValueError):
            continue
        for name, info in sorted(found.items(), key=lambda kv: -kv[1].get('run_time_seconds', 0)):
            out.append('  %-24s %5ds' % (name, info.get('run_time_seconds', 0)))
        out.append('  %-24s %5ds' % ('(all)', sum(t.get('run_time_seconds', 0) for t in found.values())))
    return out


def integration_shard(ctx, rel, s, lane, targets):
    """ansible-test integration of TARGETS in shard S's copy of REL against cloud lane LANE,
    then the seconds per target (ansible-test's own count)."""
    copy = integration_copy(ctx, rel, s)
    if s != 1:
        prepare_copy(ctx, rel, copy)
    for old in glob.glob(os.path.join(copy, 'tests', 'output', 'data', 'integration-*.json')):
        os.remove(old)
    if sh(ctx.cloud_script, 'lane-config', lane, os.path.join(copy, 'tests', 'integration', 'integration_config.yml'),
          env=_on_manila(ctx, rel), check=False) != 0:
        raise StepFailed()
    rc = in_release(ctx, rel, copy, 'nice', '-n', ctx.targets_nice, 'ansible-test', 'integration',
                    '--python', ctx.releases[rel].python, *targets, check=False)
    echo('OPENKEEL-SHARD-RESULT ok' if rc == 0 else 'OPENKEEL-SHARD-RESULT FAILED')
    echo('OPENKEEL-TARGET-TIMES')
    for line in target_times(sorted(glob.glob(os.path.join(copy, 'tests', 'output', 'data', 'integration-*.json')))):
        echo(line)
    if rc != 0:
        raise StepFailed('', rc if 0 < rc < 256 else 1)


# ---------------------------------------------------------------- faults, mutation
def stage_faults(ctx):
    """tests/faults against the local cloud: the fault matrix (through
    tests/faults/fault_proxy.py), the bad-input table and the secrets check; modules run one
    process per task, as Ansible runs them. OPENKEEL_FAULTS_WORKERS workers (default 4: the
    cases wait on Manila more than they compute)."""
    cloud_up(ctx)
    in_copy(ctx)
    sh('python', '-m', 'pytest', '-p', 'no:cacheprovider', '-q', '--durations=5',
       '-n', os.environ.get('OPENKEEL_FAULTS_WORKERS') or '4', 'tests/faults', *ctx.extra,
       env=_env(OPENKEEL_CLOUD_DIR=ctx.cloud_dir))


def stage_mutation(ctx):
    """mutmut over plugins/module_utils (tests/mutation/run.py), in a venv of its own
    ($OPENKEEL_MUTATION_VENV). Without module names after "--": only the modules changed
    since their recorded score, within $OPENKEEL_MUTATION_BUDGET seconds (default 1800);
    "-- all": every module. Scores go into the checkout's tests/mutation/scores.json."""
    venv = os.environ.get('OPENKEEL_MUTATION_VENV') or '/var/tmp/openkeel-manila-mutation-venv'
    py = lib(ctx, 'pick_python', capture=True, check=False)
    if not py:
        raise StepFailed('no Python >= 3.11 with venv and ensurepip found')
    lib(ctx, 'build_venv', venv, py, os.path.join(ctx.repo, 'tests', 'mutation', 'requirements.txt'),
        os.path.join(ctx.repo, 'tests', 'mutation', 'constraints.txt'))
    in_copy(ctx)
    if not ctx.extra:
        args = ['--changed', '--budget', os.environ.get('OPENKEEL_MUTATION_BUDGET') or '1800']
    elif ctx.extra == ['all']:
        args = []
    else:
        args = list(ctx.extra)
    sh(os.path.join(venv, 'bin', 'python'), 'tests/mutation/run.py', '--work', os.path.join(ctx.build_dir, 'mutation'),
       '--record', os.path.join(ctx.repo, 'tests', 'mutation', 'scores.json'), *args)
