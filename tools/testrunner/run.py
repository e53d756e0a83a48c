"""Running one step: in a process of its own, timed, its CPU time counted, its result kept.

A stage runs in a forked child, as the bash version ran it in a subshell: it may change
directory or environment freely, its output goes where the child's fds 1 and 2 point (the
terminal, or a lane's log), and its CPU time is what the kernel accounts to that child and
the processes it waited for. Any failure inside ends the child with a non-zero status,
which is the stage's result ("set -e").
"""
from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import time
import traceback


class StepFailed(Exception):
    """Ends a stage: MESSAGE (if any) is printed to its output, RC is its exit status."""

    def __init__(self, message: str = '', rc: int = 1):
        super().__init__(message)
        self.message = message
        self.rc = rc


def say(text: str) -> None:
    """A line of the runner's own, bold when the output is a terminal."""
    if sys.stdout.isatty():
        out = '\n\033[1m[tools/test] %s\033[0m\n' % text
    else:
        out = '\n[tools/test] %s\n' % text
    sys.stdout.write(out)
    sys.stdout.flush()


def echo(text: str = '') -> None:
    print(text, flush=True)


def die(text: str) -> None:
    sys.stdout.flush()
    sys.stderr.write('[tools/test] ERROR: %s\n' % text)
    sys.exit(2)


def clock() -> int:
    """Whole seconds, like bash's $SECONDS: durations are differences of two readings."""
    return int(time.monotonic())


def children_cpu() -> float:
    """User + system seconds of the finished (waited-for) children of this process."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def sh(*cmd, check: bool = True, **kwargs) -> int:
    """Run CMD (a list of words); a non-zero exit ends the stage with that status unless
    CHECK is false (then the status is returned)."""
    sys.stdout.flush()
    sys.stderr.flush()
    rc = subprocess.call([str(c) for c in cmd], **kwargs)
    if rc != 0 and check:
        raise StepFailed('', rc if 0 < rc < 256 else 1)
    return rc


def output_of(*cmd, check: bool = True, **kwargs) -> str:
    """CMD's standard output, without its last newline."""
    sys.stdout.flush()
    proc = subprocess.run([str(c) for c in cmd], stdout=subprocess.PIPE, text=True, check=False, **kwargs)
    if proc.returncode != 0 and check:
        raise StepFailed('', proc.returncode if 0 < proc.returncode < 256 else 1)
    return proc.stdout.rstrip('\n')


def _child(fn, args, log) -> int:
    """In the forked child: point fds 1 and 2 at LOG, run FN, return an exit status."""
    if log is not None:
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.close(fd)
        # (sys.stdout may be another object than fd 1, e.g. under pytest's capture)
        sys.stdout = open(1, 'w', encoding='utf-8', errors='replace', buffering=1, closefd=False)  # pylint: disable=consider-using-with
        sys.stderr = open(2, 'w', encoding='utf-8', errors='replace', buffering=1, closefd=False)  # pylint: disable=consider-using-with
    try:
        fn(*args)
        return 0
    except StepFailed as e:
        if e.message:
            echo(e.message)
        return e.rc
    except SystemExit as e:
        if e.code is None:
            return 0
        return e.code if isinstance(e.code, int) else 1
    except KeyboardInterrupt:
        return 130
    except Exception:  # pylint: disable=broad-except  # a bug of the runner fails the stage, shown
        traceback.print_exc()
        return 1


def spawn(fn, *args, log: str | None = None, new_group: bool = False) -> int:
    """Start FN(*ARGS) in a forked child (with its output in LOG if given; in a process
    group of its own if NEW_GROUP); return its pid."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        rc = 1
        try:
            if new_group:
                os.setpgid(0, 0)
            rc = _child(fn, args, log)
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(rc)  # pylint: disable=protected-access  # a forked child must not run the parent's exit handlers
    if new_group:
        try:
            os.setpgid(pid, pid)
        except OSError:
            pass
    return pid


def wait(pid: int) -> int:
    """Wait for child PID; its exit status (128+N when killed by signal N)."""
    while True:
        try:
            status = os.waitpid(pid, 0)[1]
            break
        except InterruptedError:
            continue
        except ChildProcessError:
            return 127
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


def call(fn, *args, log: str | None = None) -> int:
    """FN(*ARGS) in a child process, waited for: its exit status."""
    return wait(spawn(fn, *args, log=log))


def summary_line(name: str, result: str, secs=None, note: str = '') -> str:
    """One line of the summary: name, result, wall seconds and the note (or only name and
    result for a stage that did not run)."""
    if secs is None:
        return '  %-23s %-8s' % (name, result)
    return '  %-23s %-8s %5ss  %s' % (name, result, secs, note)


def total_line(result: str, secs) -> str:
    return '  %-23s %-8s %5ss' % ('total', result, secs)


_ERROR = re.compile(r'fatal: \[|^ERROR: |^FATAL: |^E   |^FAILED |: error: ')


def digest_lines(lines) -> list:
    """What a failed log says about its failure: each error line (a failed task's `fatal:`
    with up to 12 lines of its result, an ansible-test ERROR, a pytest assertion) under the
    task or target it belongs to; at most 25 errors. Empty when none is found."""
    out = []
    task = shown = pending = ''
    body = False
    body_lines = 0
    count = 0

    def flush():
        nonlocal pending, shown, count
        if not pending:
            return False
        if task != shown:
            out.append('  ' + task[:200])
            shown = task
        out.append('    ' + pending[:1500])
        pending = ''
        count += 1
        return count >= 25

    for line in lines:
        line = line.rstrip('\n')
        if line.startswith('...ignoring'):
            pending = ''
            body = False
            continue
        if body and line.startswith('}'):
            body = False
            pending += ' }'
            continue
        if body:
            body_lines += 1
            if body_lines <= 12:
                pending += ' ' + line.lstrip(' ')
            continue
        if flush():
            return out
        if line.startswith('TASK [') or re.match(r'Running .* integration test role', line):
            task = line
            continue
        if line.startswith('FAILED - RETRYING'):
            continue
        if _ERROR.search(line):
            pending = line
            body = line.endswith('=> {')
            body_lines = 0
    flush()
    return out


def digest_of(log: str) -> list:
    """The digest of LOG, or its last 8 lines when no error line is found."""
    try:
        with open(log, encoding='utf-8', errors='replace') as f:
            lines = f.readlines()
    except OSError:
        return []
    found = digest_lines(lines)
    if found:
        return found
    return ['    ' + line.rstrip('\n') for line in lines[-8:]]


class Book:
    """The results of a run, in the order they came, for the summary."""

    def __init__(self):
        self.start = clock()
        self.order = []
        self.results = {}
        self.failed = False
        self.failed_logs = []   # logs of failed lanes: their digest ends the output

    def record(self, name: str, result: str, secs: int, note: str = '') -> None:
        self.order.append(name)
        self.results[name] = (result, secs, note)

    def lines(self, stages: list) -> list:
        out = [summary_line(name, *self.results[name]) for name in self.order]
        out += [summary_line(name, 'not run') for name in stages if name not in self.results]
        return out

    def summary(self, stages: list) -> None:
        total = clock() - self.start
        say('summary')
        for line in self.lines(stages):
            echo(line)
        if not self.failed:
            echo(total_line('ok', total))
            return
        if self.failed_logs:
            say('what failed (the whole logs are above)')
            for log in self.failed_logs:
                echo('== ' + log)
                for line in digest_of(log):
                    echo(line)
        echo(total_line('FAILED', total))
