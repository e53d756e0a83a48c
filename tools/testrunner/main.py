"""The order of a run: arguments, the lock, setup, the stages (one by one or side by side),
the summary. `tools/test` runs this (python3 -m testrunner)."""
from __future__ import annotations

import fcntl
import os
import sys

from . import groups, plan, stages
from .run import Book, call, children_cpu, clock, die, say


class Context:
    """What every stage may read: where things are, the matrix, the arguments, and the
    state of the run so far (a stage's process gets a copy of it when it starts)."""

    def __init__(self, repo: str, argv: list):
        env = os.environ
        self.repo = repo
        self.entry_point = os.path.join(repo, 'tools', 'test')
        self.venv = env.get('OPENKEEL_TEST_VENV') or '/var/tmp/openkeel-manila-venv'
        self.cloud_dir = env.get('OPENKEEL_CLOUD_DIR') or '/var/tmp/openkeel-manila-cloud'
        self.cloud_script = os.path.join(repo, 'tests', 'cloud', 'manila-cloud')
        self.build_dir = env.get('OPENKEEL_BUILD_DIR') or '/var/tmp/openkeel-manila-build'
        self.copy = os.path.join(self.build_dir, 'ansible_collections', 'openkeel', 'manila')
        self.keep_going = env.get('OPENKEEL_TEST_KEEP_GOING') or '0'
        self.matrix_venvs = env.get('OPENKEEL_MATRIX_VENVS') or '/var/tmp/openkeel-manila-matrix'
        self.jobs = env.get('OPENKEEL_TEST_JOBS') or '2'
        self.cloud_jobs = env.get('OPENKEEL_CLOUD_JOBS') or '0'   # 0: all at once
        self.matrix_nice = env.get('OPENKEEL_TEST_MATRIX_NICE') or '10'
        self.targets_nice = env.get('OPENKEEL_TEST_TARGETS_NICE') or '5'
        self.compat_venv = env.get('OPENKEEL_COMPAT_VENV') or '/var/tmp/openkeel-manila-compat-venv'
        self.real_home = env.get('HOME', '')
        # OPENKEEL_MANILA_RELEASE for tools/test chooses the Manila of every integration-R
        # (None: unset, the rows' manila column decides); the stages never inherit it.
        self.manila_override = env.pop('OPENKEEL_MANILA_RELEASE', None)
        self.cloud_is_up = False
        self.cloud_other_lanes_done = False
        self.groups = {}
        self.book = Book()
        self._plan(argv)

    def _read(self, *parts):
        with open(os.path.join(self.repo, *parts), encoding='utf-8') as f:
            return f.read()

    def _plan(self, argv):
        matrix_file = os.path.join(self.repo, 'tests', 'matrix', 'releases.txt')
        shard_file = os.path.join(self.repo, 'tests', 'integration', 'shards.txt')
        cloud_py = self._read('tests', 'cloud', 'manila_cloud.py')
        releases = plan.parse_matrix(self._read('tests', 'matrix', 'releases.txt'),
                                     plan.default_core_of(self._read('tests', 'constraints.txt')), matrix_file)
        plan.check_matrix_stages(releases, matrix_file)
        plan.check_matrix_manila(releases, lambda m: ("\n    '%s': {" % m) in cloud_py, matrix_file)
        self.releases = {r.rel: r for r in releases}
        self.default = plan.default_release(releases)
        self.shards = plan.parse_shards(self._read('tests', 'integration', 'shards.txt'),
                                        plan.target_dirs(self.repo), shard_file)
        self.lane_first, self.cloud_lanes = plan.lanes_of(releases, self.shards.count)
        self.newest = plan.newest_integration(releases)
        self.selected = plan.selected_releases(releases, os.environ.get('OPENKEEL_TEST_RELEASES', ''))
        args = plan.parse_args(argv, releases, self.selected)
        self.help = args.help
        self.stages = args.stages
        self.extra = args.extra


def run_step(ctx, name, fn, *args):
    """Run a stage in a child process; record its wall and CPU time and its result; stop
    at a failure unless OPENKEEL_TEST_KEEP_GOING=1. The CPU time is that of the stage's
    process and what it waited for; lanes running in the background are not counted."""
    say("stage '%s': start" % name)
    t0, c0 = clock(), children_cpu()
    rc = call(fn, ctx, *args)
    secs = clock() - t0
    note = stages.stage_note(ctx, name)
    note = '%scpu %ds' % (note + ', ' if note else '', int(children_cpu() - c0))
    if rc == 0:
        if name == 'cloud':
            ctx.cloud_is_up = True
        ctx.book.record(name, 'ok', secs, note)
        say("stage '%s': ok (%ds)" % (name, secs))
    else:
        ctx.book.record(name, 'FAILED', secs, note)
        ctx.book.failed = True
        say("stage '%s': FAILED (exit %d, after %ds); its own output is above" % (name, rc, secs))
        groups.stop_unless_keep_going(ctx)


def cloud_up_once(ctx) -> bool:
    """The cloud up before the lanes that use it (each would otherwise ask for it at once)."""
    if ctx.cloud_is_up:
        return True
    say('manila-cloud up')
    if call(stages.cloud_up, ctx) == 0:
        ctx.cloud_is_up = True
        return True
    ctx.book.record('cloud-up', 'FAILED', 0, 'manila-cloud up failed; see above')
    ctx.book.failed = True
    groups.stop_unless_keep_going(ctx)
    return False


def lock(build_dir):
    """One run at a time per build dir: the venv, the copy and ansible-test's caches are shared."""
    os.makedirs(os.path.dirname(build_dir) or '/', exist_ok=True)
    f = open(build_dir + '.lock', 'w', encoding='utf-8')   # pylint: disable=consider-using-with  # held until exit
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        say('another tools/test holds %s.lock; waiting for it' % build_dir)
        fcntl.flock(f, fcntl.LOCK_EX)
    return f


def _forget_tools_path():
    """tools/test put tools/ on PYTHONPATH for this process only: the test processes must
    not import tools/'s directories (package/, ...) as Python packages."""
    tools = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    kept = [p for p in os.environ.get('PYTHONPATH', '').split(os.pathsep) if p and os.path.abspath(p) != tools]
    if kept:
        os.environ['PYTHONPATH'] = os.pathsep.join(kept)
    else:
        os.environ.pop('PYTHONPATH', None)


def main(argv=None) -> int:
    sys.stdout.reconfigure(line_buffering=True)
    _forget_tools_path()
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    try:
        ctx = Context(repo, sys.argv[1:] if argv is None else argv)
    except plan.PlanError as e:
        die(str(e))
    if ctx.help:
        sys.stdout.write(plan.usage(ctx.entry_point))
        return 0
    held = lock(ctx.build_dir)

    say('stages: %s' % ' '.join(ctx.stages))
    t0 = clock()
    rc = call(stages.setup, ctx)
    note = '%s, cpu %ds' % (stages.stage_note(ctx, 'setup'), int(children_cpu()))
    if rc != 0:
        ctx.book.record('setup', 'FAILED', clock() - t0, note)
        ctx.book.failed = True
        say('setup FAILED (venv, get-pip stand-in or collection copy); see above')
        ctx.book.summary(ctx.stages)
        return 1
    ctx.book.record('setup', 'ok', clock() - t0, note)

    os.environ['PATH'] = os.path.join(ctx.venv, 'bin') + ':' + os.environ.get('PATH', '')
    os.environ['VIRTUAL_ENV'] = ctx.venv

    # Consecutive stages of one kind run side by side: sanity-R and units-R as the matrix;
    # compat, integration-R and faults (they mostly wait on the cloud, each on its lane)
    # as the cloud lanes; the others one by one. The integration lanes, the longest, start
    # first in the background (OPENKEEL_TEST_INTEGRATION_FIRST=0: in their place): they
    # wait on the cloud while the matrix and the other stages use the CPU. Their results
    # are collected where they stand in the order of the stages.
    early = []
    if (os.environ.get('OPENKEEL_TEST_INTEGRATION_FIRST') or '1') == '1':
        early = [s for s in ctx.stages if s.startswith('integration-')]
    if early and cloud_up_once(ctx):
        if 'cloud' in ctx.stages:
            run_step(ctx, 'cloud-other-lanes', stages.stage_cloud_other_lanes)
            ctx.cloud_other_lanes_done = True
        groups.group_start(ctx, 'integration-lanes', 'cloud', early)

    for kind, batch in plan.batches(ctx.stages, early):
        if kind == 'none':
            run_step(ctx, batch[0], getattr(stages, 'stage_' + batch[0]))
            continue
        if kind == 'matrix':
            groups.group_start(ctx, 'matrix', 'matrix', batch)
            groups.group_finish(ctx, 'matrix')
            continue
        if batch and cloud_up_once(ctx):
            groups.group_start(ctx, 'cloud-lanes', 'cloud', batch)
            groups.group_finish(ctx, 'cloud-lanes')
        if 'integration-lanes' in ctx.groups:
            groups.group_finish(ctx, 'integration-lanes')
    if 'integration-lanes' in ctx.groups:
        groups.group_finish(ctx, 'integration-lanes')

    ctx.book.summary(ctx.stages)
    held.close()
    return 1 if ctx.book.failed else 0
