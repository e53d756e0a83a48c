"""Side by side: groups of lanes that run in the background, each with logs of its own.

A group is started by a launcher process in a process group of its own (so that a stop
after a failure elsewhere ends all of it at once), which keeps up to JOBS lanes running.
KIND "matrix" (sanity-R, units-R: they use the CPU; $OPENKEEL_TEST_JOBS at a time) or
"cloud" (compat, integration-R, faults: they mostly wait on the cloud; $OPENKEEL_CLOUD_JOBS
at a time, by default all). The lanes:
  R (sanity-R and units-R of one release): prepare_release in R's copy (recorded as
    setup-R), then each stage in turn, every one even after a failure so that every
    result shows; logs in $BUILD_DIR/matrix/R/;
  integration-R: prepare_release in a copy of its own (it may run while sanity-R uses R's
    copy), then the targets; logs in $BUILD_DIR/integration/R/;
  any other stage: a lane of its own, its log in $BUILD_DIR/side/STAGE/.
A lane writes result-STAGE ("RESULT SECONDS CPU") beside each log; group_finish reads them.
"""
from __future__ import annotations

import os
import signal
import sys

from . import plan, stages
from .run import call, children_cpu, clock, echo, say, spawn, wait


def _item(ctx, key, st):
    return plan.item_name(key, st, ctx.releases)


def lane_result(ctx, key, st, rc, secs, cpu_before):
    """Write a lane stage's result file and say it (CPU: the lane's finished children)."""
    where = stages.lane_dir(ctx, key)
    cpu = int(children_cpu() - cpu_before)
    res = 'ok' if rc == 0 else 'FAILED'
    with open(os.path.join(where, 'result-' + st), 'w', encoding='utf-8') as f:
        f.write('%s %d %d\n' % (res, secs, cpu))
    log = os.path.join(where, st + '.log')
    echo('[tools/test] %s: %s (%ds, cpu %ds) %s' % (_item(ctx, key, st), res, secs, cpu, log))


def lane(ctx, key, lane_stages):
    """One lane (a process of the launcher): its setup when it belongs to a release, then
    its stages, each in a child process with its output in STAGE.log."""
    where = stages.lane_dir(ctx, key)
    rel = plan.lane_release(key, ctx.releases)
    if rel:
        t0, c0 = clock(), children_cpu()
        rc = call(stages.prepare_release, ctx, rel, stages.lane_copy(ctx, key), log=os.path.join(where, 'setup.log'))
        lane_result(ctx, key, 'setup', rc, clock() - t0, c0)
        if rc != 0:
            sys.exit(1)
    for st in lane_stages:
        t0, c0 = clock(), children_cpu()
        log = os.path.join(where, st + '.log')
        if rel:
            rc = call(getattr(stages, 'matrix_' + st), ctx, rel, log=log)
        else:
            rc = call(getattr(stages, 'stage_' + st.replace('-', '_')), ctx, log=log)
        lane_result(ctx, key, st, rc, clock() - t0, c0)


def _jobs(value, lanes):
    try:
        jobs = int(value)
    except (TypeError, ValueError):
        jobs = 0
    return jobs if jobs > 0 else lanes


def _launcher(ctx, keys, lane_stages, jobs):
    running = 0
    for key in keys:
        while running >= jobs:
            os.wait()
            running -= 1
        spawn(lane, ctx, key, lane_stages[key])
        running += 1
    while True:
        try:
            os.wait()
        except ChildProcessError:
            break


class Group:
    def __init__(self, gid, items, jobs, pid):
        self.gid = gid
        self.items = items
        self.jobs = jobs
        self.pid = pid
        self.t0 = clock()


def group_start(ctx, gid, kind, items):
    """Start the lanes of ITEMS in the background; ctx.groups[GID] remembers them."""
    keys, lane_stages = plan.group_lanes(items, ctx.releases)
    jobs = _jobs(ctx.jobs if kind == 'matrix' else ctx.cloud_jobs, len(keys))
    say('side by side (%s): %d lane(s), up to %d at a time:%s'
        % (gid, len(keys), jobs, ''.join(' %s (%s)' % (k, ' '.join(lane_stages[k])) for k in keys)))
    for key in keys:
        where = stages.lane_dir(ctx, key)
        os.makedirs(where, exist_ok=True)
        for st in ['setup'] + lane_stages[key]:
            for name in ('result-' + st, st + '.log'):
                try:
                    os.remove(os.path.join(where, name))
                except FileNotFoundError:
                    pass
    t0 = clock()
    pid = spawn(_launcher, ctx, keys, lane_stages, jobs, new_group=True)
    ctx.groups[gid] = Group(gid, list(items), jobs, pid)
    ctx.groups[gid].t0 = t0


def group_record(ctx, group) -> bool:
    """Record each lane x stage of GROUP that has a result; print the logs of failures.
    False when one failed."""
    keys, lane_stages = plan.group_lanes(group.items, ctx.releases)
    ok = True
    for key in keys:
        where = stages.lane_dir(ctx, key)
        for st in ['setup'] + lane_stages[key]:
            try:
                with open(os.path.join(where, 'result-' + st), encoding='utf-8') as f:
                    res, secs, cpu = f.read().split()[:3]
            except (OSError, ValueError):
                continue
            name = _item(ctx, key, st)
            note = stages.stage_note(ctx, name)
            note = '%scpu %ss' % (note + ', ' if note else '', cpu)
            log = os.path.join(where, st + '.log')
            if st == 'setup':
                built = 'cached'
                try:
                    with open(log, encoding='utf-8', errors='replace') as f:
                        if any(line.startswith('(re)building venv') for line in f):
                            built = 'built'
                except OSError:
                    pass
                note += ', venv ' + built
            ctx.book.record(name, res, int(secs), note)
            if res != 'ok':
                ok = False
                ctx.book.failed_logs.append(log)
                say('%s FAILED; its output (%s):' % (name, log))
                try:
                    with open(log, encoding='utf-8', errors='replace') as f:
                        sys.stdout.write(f.read())
                    sys.stdout.flush()
                except OSError:
                    pass
    return ok


def group_finish(ctx, gid):
    """Wait for group GID, record its lanes; stop unless KEEP_GOING when one failed."""
    group = ctx.groups.pop(gid)
    wait(group.pid)
    ok = group_record(ctx, group)
    if not ok:
        ctx.book.failed = True
    keys = plan.group_lanes(group.items, ctx.releases)[0]
    res = 'ok' if ok else 'FAILED'
    ctx.book.record(gid, res, clock() - group.t0,
                    'wall time of the %d lane(s) above, %d at a time' % (len(keys), group.jobs))
    say('%s: %s (%ds)' % (gid, res, clock() - group.t0))
    if not ok:
        stop_unless_keep_going(ctx)


def stop_groups(ctx):
    """End the groups still running (their process groups) when the run stops early."""
    for gid in list(ctx.groups):
        group = ctx.groups.pop(gid)
        say('stopping %s (started in the background; not finished)' % gid)
        try:
            os.killpg(group.pid, signal.SIGTERM)
        except OSError:
            pass
        wait(group.pid)
        if not group_record(ctx, group):   # what finished before
            ctx.book.failed = True
        ctx.book.record(gid, 'stopped', clock() - group.t0,
                        'stopped after a failure elsewhere: %s' % ' '.join(group.items))


def stop_unless_keep_going(ctx):
    if ctx.keep_going != '1':
        stop_groups(ctx)
        ctx.book.summary(ctx.stages)
        sys.exit(1)
