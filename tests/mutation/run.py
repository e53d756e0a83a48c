# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Mutation testing of plugins/module_utils with mutmut (`tools/test mutation`).

    run.py [--work DIR] [--floor PCT] [--survivors FILE] [--record FILE] [MODULE ...]
                                                (floor: 90)
    run.py --report-only [--work DIR] ...      count a run made before, run nothing
    run.py --keep [--work DIR] MODULE ...       go on in DIR (its copy, its results)
    run.py --base DIR [--work DIR2] ...         run again only the mutants that survived
                                                (or had no test) in the run in DIR, and
                                                count the others as DIR counted them

It copies the collection to WORK/ansible_collections/openkeel/manila (so that the
mutated modules keep their import names), puts tests/mutation/setup.cfg in WORK, and
runs `mutmut run --max-children 1` once per module of plugins/module_utils, the biggest
first (one worker: the machine is shared), each run limited to that module's mutants.
With --base, a mutant killed in the base run counts as killed without running it again:
tests are only ever added between the two runs and the module's code must be the same
(a module whose source differs from the base run's is run in full). Then it prints the
score per file and writes every surviving mutant that is not
message-only, with its diff, to FILE (default WORK/survivors.txt).

Message-only mutants are left out of the score (neither killed nor survived): a mutant
is message-only when the only change mutmut made is to the text of a string that is a
message (its words changed, or the message replaced by None), i.e. a string literal (or an f-string part) that sits in
  - the argument list of a `raise`d expression or of a call to an exception class
    (a name ending in Error, or one of errors.py's classes), or of fail_json/warn/
    deprecate, or of the `reword`/`same_details` helpers,
  - a message argument of module_utils' own helpers (MESSAGE_ARGS, from a position
    on: the `what` of write_once and wait_until, the reason of migration's Plan, ...),
    an `.append()` to a list of messages (MESSAGE_LISTS: problems, warnings, reasons,
    ...), or the `return` of a function whose result is words only (MESSAGE_FUNCTIONS:
    the labels, in_use_error, explain, ...),
  - a keyword argument named msg, message, hint, reason, what or detail,
  - an assignment to a name ending in msg/message/hint/text/what,
  - a `%` or `+` or `.format()`/`.join()` expression, or the key of an `x.get(...)`,
    whose value goes to one of these.
Status names, field names, URLs, headers and every other string count as behaviour.
The score is killed / (killed + survived + no tests), timeouts counting as killed.
Exit status 1 when the total is below --floor.

--record FILE (tools/test passes tests/mutation/scores.json of the checkout) writes
each module whose every mutant ran into FILE: its counts, its score and the sha256 of
the source that was mutated. Then it prints the score over every module of the record
(killed / counted, all modules together) and exits with status 1 when that is below
95% (RECORDED_FLOOR, also written into FILE as "floor").

--changed (with --record) measures only the modules whose source differs from the one
their recorded score was measured on (or that have no score), smallest first, and
--budget SECONDS stops starting new modules once that much time has passed: the
modules it did not measure are listed at the end, as not measured, instead of
failing. The unit run does not look at the record: a stale score is a report of
this stage, never a failing unit test.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import argparse
import ast
import datetime
import difflib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PKG = 'ansible_collections.openkeel.manila.plugins.module_utils'
REL = Path('ansible_collections/openkeel/manila')
COPIED = ['plugins', 'meta', 'tests/unit']

EXCEPTION_NAMES = {'ManilaError', 'NotFound', 'Forbidden', 'Conflict', 'ConfigurationError',
                   'UnsupportedFeature', 'InvalidInput', 'CannotConverge', 'AmbiguousName',
                   'AnswerLost', 'NotApplied', 'WaitFailed', 'WaitTimeout', 'CheckModeWrite'}
MESSAGE_CALLS = {'fail_json', 'warn', 'deprecate', 'reword', 'same_details'}
MESSAGE_KEYWORDS = {'msg', 'message', 'hint', 'reason', 'what', 'detail', 'goal'}
MESSAGE_TARGET_SUFFIXES = ('msg', 'message', 'hint', 'text', 'what', 'where', 'label',
                           'detail', 'why', 'goal')
# module_utils' own helpers whose positional arguments from this index on are messages
# (their parameters `what`, `goal`: the words of a failure or of a log line)
MESSAGE_ARGS = {'require': 1, 'write_once': 2, '_after_lost_answer': 2, '_observe': 1,
                'wait_until': 3, 'wait_for_status': 4,
                # migration: Plan(action, steps, reason), wait_task_state(share, targets,
                # errors, what)
                'Plan': 2, 'wait_task_state': 3}
# functions of module_utils whose result is words for a message and nothing else
MESSAGE_FUNCTIONS = {'_label', 'label', 'share_label', 'network_label', 'zone_label',
                     'service_label', 'snapshot_label', 'names_and_ids', 'immutable_error',
                     'in_use_error', 'describe_targets',
                     'explain'}     # MigrationAPI.explain: the words after a failed wait
# lists that collect messages: problems.append('...')
MESSAGE_LISTS = ('problems', 'errors', 'messages', 'warnings', 'notes', 'parts', 'reasons')

# The score (over the modules run) below which the run fails.
FLOOR = 90.0
# the least score over all of module_utils that the record may hold (issue 20)
RECORDED_FLOOR = 95.0

KILLED = {1, 3, 36, -24, 24, 152, 255}
SURVIVED = {0}
NO_TESTS = {33, 5}


def sh(cmd, **kw):
    return subprocess.run(cmd, check=False, **kw)


def prepare(work):
    coll = work / REL
    if coll.exists():
        shutil.rmtree(coll)
    for part in COPIED:
        shutil.copytree(REPO / part, coll / part,
                        ignore=shutil.ignore_patterns('__pycache__', '*.pyc', 'output'))
    for init in (work / 'ansible_collections', work / 'ansible_collections/openkeel'):
        init.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / 'tests/mutation/setup.cfg', work / 'setup.cfg')
    if (work / 'mutants').exists():
        shutil.rmtree(work / 'mutants')


def modules_by_size():
    files = sorted((REPO / 'plugins/module_utils').glob('*.py'),
                   key=lambda p: (-p.stat().st_size, p.name))
    return [p.stem for p in files if p.stem != '__init__']


def meta_path(work, module):
    return work / 'mutants' / REL / 'plugins/module_utils' / (module + '.py.meta')


def load_meta(work, module, base=None):
    path = meta_path(work, module)
    if not path.exists():
        return None
    with open(path) as f:
        codes = json.load(f)['exit_code_by_key']
    if base is not None and same_source(work, base, module):
        for key, code in (load_meta(base, module) or {}).items():
            if codes.get(key) is None and key in codes:
                codes[key] = code
    return codes


def same_source(work, base, module):
    """Did both runs mutate the same code of this module?"""
    a, b = (d / REL / 'plugins/module_utils' / (module + '.py') for d in (work, base))
    return a.exists() and b.exists() and a.read_bytes() == b.read_bytes()


def rerun_names(work, base, module):
    """The mutants of ``module`` to run again: those not killed so far, in WORK's
    results completed by the base run's (message-only ones left out); None to run them
    all (the code changed)."""
    if not same_source(work, base, module):
        return None
    if meta_path(work, module).exists():
        c = classify(work, module, base)[0]
    else:
        c = classify(base, module)[0]
    return c['survived'] + c['no tests'] + c['not run']


# ------------------------------------------------------------------ message-only mutants
def _name_of(func):
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ''


def _is_message_call(node):
    name = _name_of(node.func)
    return (name in EXCEPTION_NAMES or name in MESSAGE_CALLS or name.endswith('Error')
            or name.endswith('Exception'))


def _function_name(node):
    """The name in the module of a mutmut function copy (x_name__mutmut_3 -> name)."""
    name = getattr(node, 'name', '').rsplit('__mutmut_', 1)[0]
    return name[2:] if name.startswith('x_') else name.rsplit('\u01c1', 1)[-1]


def _message_context(path):
    """path: a string node and its ancestors, outermost first. Is the string a message?"""
    for i in range(len(path) - 2, -1, -1):
        node = path[i]
        child = path[i + 1]
        if isinstance(node, (ast.BinOp, ast.JoinedStr, ast.FormattedValue, ast.Tuple,
                             ast.List, ast.IfExp, ast.BoolOp)):
            continue
        if isinstance(node, ast.Call):
            if _name_of(node.func) in ('format', 'join') and child is node.func:
                continue
            if _name_of(node.func) in ('format', 'join', 'str', 'sorted'):
                continue
            # x.get('field') whose value only goes into a message (x['field'] could raise)
            if _name_of(node.func) == 'get' and isinstance(node.func, ast.Attribute) \
                    and child in node.args:
                continue
            name = _name_of(node.func)
            if name in MESSAGE_ARGS and child in node.args:
                return node.args.index(child) >= MESSAGE_ARGS[name]
            if (name == 'append' and isinstance(node.func, ast.Attribute)
                    and _name_of(node.func.value).endswith(MESSAGE_LISTS)):
                return True
            return _is_message_call(node)
        if isinstance(node, ast.Attribute):    # 'a, b'.join(...): the string is node.value
            continue
        if isinstance(node, ast.keyword):
            return node.arg in MESSAGE_KEYWORDS or (
                i > 0 and isinstance(path[i - 1], ast.Call) and _is_message_call(path[i - 1]))
        if isinstance(node, ast.Raise):
            return True
        if isinstance(node, ast.Return):
            return _function_name(path[0]) in MESSAGE_FUNCTIONS
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            return all(isinstance(t, ast.Name) and t.id.lower().endswith(MESSAGE_TARGET_SUFFIXES)
                       for t in targets)
        return False
    return False


def _is_text(node):
    """Is this expression a piece of text ('...', f'...', '...' % x, '...'.format(x))?"""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.Add)):
        return _is_text(node.left)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in ('format', 'join'):
        return _is_text(node.func.value)
    return isinstance(node, ast.Call) and _name_of(node.func) in MESSAGE_FUNCTIONS


def _differences(a, b, path, out):
    """Collect the paths to the text nodes where two trees differ; False if they differ
    anywhere else (a text replaced by None counts as a text change)."""
    if type(a) is not type(b):
        if isinstance(b, ast.Constant) and b.value is None and _is_text(a):
            out.append(path + [a])
            return True
        return False
    if isinstance(a, ast.Constant):
        if a.value == b.value and type(a.value) is type(b.value):
            return True
        if isinstance(a.value, str) and isinstance(b.value, (str, type(None))):
            out.append(path + [a])
            return True
        return False
    if isinstance(a, ast.AST):
        for field in a._fields:
            if not _differences(getattr(a, field), getattr(b, field), path + [a], out):
                return False
        return True
    if isinstance(a, list):
        if len(a) != len(b):
            return False
        return all(_differences(x, y, path, out) for x, y in zip(a, b))
    return a == b


def is_message_only(orig, mutant):
    diffs = []
    same_shape = all(_differences(getattr(orig, f), getattr(mutant, f), [orig], diffs)
                     for f in ('args', 'body', 'decorator_list', 'returns'))
    if not same_shape or not diffs:
        return False
    return all(_message_context(p) for p in diffs)


class MutatedFile:
    """The functions of a mutmut-generated file: the original and every mutant."""

    def __init__(self, path):
        self.source = path.read_text()
        self.lines = self.source.splitlines()
        self.functions = {}
        for node in ast.walk(ast.parse(self.source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and '__mutmut_' in node.name:
                self.functions[node.name] = node

    def pair(self, mutant_key):
        name = mutant_key.rsplit('.', 1)[1]
        orig = self.functions.get(name.rsplit('__mutmut_', 1)[0] + '__mutmut_orig')
        return orig, self.functions.get(name)

    def diff(self, mutant_key):
        orig, mutant = self.pair(mutant_key)
        if orig is None or mutant is None:
            return '(no source)'
        a = self.lines[orig.lineno - 1:orig.end_lineno]
        b = self.lines[mutant.lineno - 1:mutant.end_lineno]
        b[0] = b[0].replace(mutant.name, orig.name)
        return '\n'.join(difflib.unified_diff(a, b, 'orig', 'mutant', n=1, lineterm=''))


def classify(work, module, base=None):
    """{status: [mutant keys]} for one module; status killed/survived/no tests/message/other."""
    codes = load_meta(work, module, base) or {}
    mutated = MutatedFile(work / 'mutants' / REL / 'plugins/module_utils' / (module + '.py'))
    out = {'killed': [], 'survived': [], 'no tests': [], 'message': [], 'not run': []}
    for key, code in sorted(codes.items()):
        orig, mutant = mutated.pair(key)
        if orig is not None and mutant is not None and is_message_only(orig, mutant):
            out['message'].append(key)
        elif code in KILLED:
            out['killed'].append(key)
        elif code in SURVIVED:
            out['survived'].append(key)
        elif code in NO_TESTS:
            out['no tests'].append(key)
        else:
            out['not run'].append(key)
    return out, mutated


def score(c):
    counted = len(c['killed']) + len(c['survived']) + len(c['no tests'])
    return 100.0 * len(c['killed']) / counted if counted else 100.0


def recorded_total(path):
    """The score over every module of the record ``path``: killed / counted."""
    entries = json.loads(path.read_text()).get('modules', {}).values()
    killed = sum(e['killed'] for e in entries)
    counted = killed + sum(e['survived'] + e['no_tests'] for e in entries)
    return 100.0 * killed / counted if counted else 100.0


def record(path, work, rows):
    """Write the score of each fully run module, with the sha256 of the source that
    was mutated, into the JSON file ``path`` (other modules' entries are kept)."""
    data = json.loads(path.read_text()) if path.exists() else {}
    data['floor'] = RECORDED_FLOOR
    data['tool'] = 'mutmut ' + version('mutmut')
    entries = data.setdefault('modules', {})
    today = datetime.date.today().isoformat()
    for module, c in rows:
        if c['not run']:
            print('%s.py: %d mutants did not run; its score is not recorded'
                  % (module, len(c['not run'])))
            continue
        source = (work / REL / 'plugins/module_utils' / (module + '.py')).read_bytes()
        entries[module] = {
            'sha256': hashlib.sha256(source).hexdigest(),
            'mutants': sum(len(v) for v in c.values()),
            'message_only': len(c['message']),
            'killed': len(c['killed']),
            'survived': len(c['survived']),
            'no_tests': len(c['no tests']),
            'score': round(score(c), 1),
            'measured': today,
        }
    data['modules'] = dict(sorted(entries.items()))
    path.write_text(json.dumps(data, indent=1) + '\n')
    print('scores recorded in %s' % path)


def stale_modules(record_path):
    """The modules of plugins/module_utils whose source is not the one their recorded
    score was measured on, or that have no recorded score."""
    entries = json.loads(record_path.read_text()).get('modules', {}) if record_path.exists() else {}
    stale = []
    for module in modules_by_size():
        source = (REPO / 'plugins/module_utils' / (module + '.py')).read_bytes()
        if entries.get(module, {}).get('sha256') != hashlib.sha256(source).hexdigest():
            stale.append(module)
    return stale


def report(work, modules, survivors_file, base=None):
    rows, total = [], {'killed': 0, 'survived': 0, 'no tests': 0, 'message': 0, 'not run': 0}
    lines = []
    for module in modules:
        if load_meta(work, module) is None:
            continue
        c, mutated = classify(work, module, base)
        for k in total:
            total[k] += len(c[k])
        rows.append((module, c))
        for key in c['survived'] + c['no tests']:
            status = 'survived' if key in c['survived'] else 'no tests'
            lines.append('## %s (%s)\n%s\n' % (key.replace(PKG + '.', ''), status, mutated.diff(key)))
    print('\n%-22s %7s %7s %8s %8s %8s %8s %7s' % (
        'file', 'mutants', 'message', 'killed', 'survived', 'no tests', 'not run', 'score'))
    for module, c in rows:
        n = sum(len(v) for v in c.values())
        print('%-22s %7d %7d %8d %8d %8d %8d %6.1f%%' % (
            module + '.py', n, len(c['message']), len(c['killed']), len(c['survived']),
            len(c['no tests']), len(c['not run']), score(c)))
    n = sum(total.values())
    print('%-22s %7d %7d %8d %8d %8d %8d %6.1f%%' % (
        'total', n, total['message'], total['killed'], total['survived'], total['no tests'],
        total['not run'], score({k: [None] * v for k, v in total.items()})))
    survivors_file.write_text('\n'.join(lines))
    print('\nthe %d surviving mutants (not message-only), with their diffs: %s'
          % (total['survived'] + total['no tests'], survivors_file))
    return score({k: [None] * v for k, v in total.items()}), rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n', maxsplit=1)[0])
    ap.add_argument('--work', type=Path,
                    default=Path(os.environ.get('OPENKEEL_MUTATION_WORK', '/var/tmp/openkeel-manila-mutation')))
    ap.add_argument('--floor', type=float, default=FLOOR,
                    help='fail when the total score is below (default %(default)s; 0: never)')
    ap.add_argument('--survivors', type=Path, default=None)
    ap.add_argument('--record', type=Path, default=None,
                    help='JSON file to write the scores of the modules that fully ran into')
    ap.add_argument('--report-only', action='store_true')
    ap.add_argument('--keep', action='store_true',
                    help='go on with the copy and the results in WORK (runs only MODULEs)')
    ap.add_argument('--refresh-tests', action='store_true',
                    help='with --keep: copy the current tests/unit into WORK first')
    ap.add_argument('--base', type=Path, default=None,
                    help='a finished run whose killed mutants need not run again')
    ap.add_argument('--changed', action='store_true',
                    help='only the modules whose source differs from the recorded one (needs --record)')
    ap.add_argument('--budget', type=float, default=None,
                    help='start no new module after this many seconds; list the rest as not measured')
    ap.add_argument('modules', nargs='*', help='module names (default: every module, biggest first)')
    args = ap.parse_args()
    work = args.work.resolve()
    base = args.base.resolve() if args.base else None
    modules = args.modules or modules_by_size()
    unknown = set(modules) - set(modules_by_size())
    if unknown:
        ap.error('not in plugins/module_utils: %s' % ', '.join(sorted(unknown)))
    if args.changed:
        if not args.record:
            ap.error('--changed compares with the record: give --record FILE')
        modules = list(reversed([m for m in modules if m in stale_modules(args.record)]))
        print('changed since their recorded score: %s' % (', '.join(modules) or 'none'))
        if not modules:
            return 0
    started = time.time()
    skipped = []
    mutmut = str(Path(sys.executable).parent / 'mutmut')
    if not args.report_only:
        work.mkdir(parents=True, exist_ok=True)
        if not (args.keep and (work / 'mutants').is_dir()):
            prepare(work)
        elif args.refresh_tests:   # mutmut copies them on into mutants/ and finds new tests
            shutil.copytree(REPO / 'tests/unit', work / REL / 'tests/unit', dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns('__pycache__', '*.pyc'))
        for module in modules:
            if args.budget is not None and time.time() - started > args.budget:
                skipped.append(module)
                continue
            codes = load_meta(work, module)
            if codes is not None and not codes:
                print('%-22s no mutants' % (module + '.py'))
                continue
            t0 = time.time()
            names = ['%s.%s.*' % (PKG, module)]
            if base is not None:
                again = rerun_names(work, base, module)
                if again == []:
                    print('%-22s nothing survived in %s' % (module + '.py', base))
                    continue
                names = again or names
            log = work / ('mutmut-%s.log' % module)
            with open(log, 'w') as f:
                rc = sh([mutmut, 'run', '--max-children', '1'] + names,
                        cwd=work, stdout=f, stderr=subprocess.STDOUT).returncode
            if rc != 0:
                codes = load_meta(work, module)
                if codes is not None and not codes:
                    print('%-22s no mutants' % (module + '.py'))
                    continue
                print('mutmut failed on %s (exit %d); its output: %s' % (module, rc, log))
                sh(['tail', '-30', str(log)])
                return 2
            c = classify(work, module, base)[0]
            print('%-22s %5.1f%%  (%d killed, %d survived, %d no tests, %d message-only; %ds)'
                  % (module + '.py', score(c), len(c['killed']), len(c['survived']),
                     len(c['no tests']), len(c['message']), time.time() - t0), flush=True)
    measured = [m for m in modules if m not in skipped]
    total, rows = report(work, measured, args.survivors or work / 'survivors.txt', base)
    failed = False
    if args.record:
        record(args.record, work, rows)
        recorded = recorded_total(args.record)
        print('recorded score over all of module_utils: %.1f%% (at least %.1f%% wanted)'
              % (recorded, RECORDED_FLOOR))
        failed = recorded < RECORDED_FLOOR
    if skipped:
        print('not measured within the budget of %ds (their recorded scores are stale): %s'
              % (args.budget, ', '.join(skipped)))
    if total < args.floor:
        print('the total mutation score %.1f%% is below the floor %.1f%%' % (total, args.floor))
        return 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
