"""What a run will do, decided before anything runs.

Everything here is pure (reads files, returns values, raises PlanError): the ansible-core
matrix of tests/matrix/releases.txt, the shards of tests/integration/shards.txt, the cloud
lanes each release gets, and the list of stages that the command line expands to.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

ALL_STAGES = ('sanity', 'units', 'changelog', 'docs', 'release', 'lint', 'runner', 'cloud',
              'package', 'compat', 'integration', 'faults')
# named on the command line only: neither a bare run nor `all` includes them
OPT_IN_STAGES = ('mutation',)
# the stages that run once per ansible-core release of the matrix
MATRIX_STAGES = ('sanity', 'units', 'integration')


class PlanError(Exception):
    """A file or an argument that the runner refuses (tools/test exits 2 on it)."""


@dataclass
class Release:
    """One row of tests/matrix/releases.txt (rel: the X.Y of its ansible-core)."""
    rel: str
    exact: str
    python: str
    stages: str
    manila: str = 'current'
    sanity: str = 'all'
    default: bool = False

    def runs(self, stage: str) -> bool:
        """Does the row name STAGE (or "all")?"""
        return self.stages == 'all' or stage in self.stages.split(',')


@dataclass
class Shards:
    """tests/integration/shards.txt: targets per shard (1..count) and the newest-only ones."""
    targets: dict = field(default_factory=dict)   # shard number -> [target, ...]
    newest_only: set = field(default_factory=set)

    @property
    def count(self) -> int:
        return max(self.targets, default=0)


def _rows(text: str):
    """The non-empty lines of a whitespace table, comments cut off, as lists of cells."""
    for line in text.splitlines():
        cells = line.split('#', 1)[0].split()
        if cells:
            yield cells


def parse_matrix(text: str, default_core: str, where: str = 'tests/matrix/releases.txt') -> list:
    """The releases of the matrix, in the order of the file; exactly one is the default:
    the row whose ansible-core is DEFAULT_CORE (tests/constraints.txt's pin)."""
    header = None
    releases = []
    default = None
    for cells in _rows(text):
        if header is None:
            header = cells
            continue
        if len(cells) != len(header):
            raise PlanError("%s: '%s' does not have the columns %s" % (where, ' '.join(cells), ' '.join(header)))
        row = dict(zip(header, cells))
        for col in ('ansible-core', 'python', 'stages'):
            if not row.get(col):
                raise PlanError("%s has no column '%s'" % (where, col))
        exact = row['ansible-core']
        match = re.fullmatch(r'([0-9]+\.[0-9]+)\.[0-9]+', exact)
        if not match:
            raise PlanError("%s: '%s' is no exact ansible-core version" % (where, exact))
        if not re.fullmatch(r'3\.[0-9]+', row['python']):
            raise PlanError("%s: ansible-core %s: tools/test runs one Python per release, not '%s'"
                            % (where, exact, row['python']))
        release = Release(rel=match.group(1), exact=exact, python=row['python'], stages=row['stages'],
                          manila=row.get('manila') or 'current', sanity=row.get('sanity') or 'all')
        if release.sanity not in ('all', 'no-pylint'):
            raise PlanError("%s: ansible-core %s: the sanity column is 'all' or 'no-pylint', not '%s'"
                            % (where, exact, release.sanity))
        if exact == default_core:
            if default is not None:
                raise PlanError('%s lists ansible-core %s twice' % (where, default_core))
            release.default = True
            default = release
        releases.append(release)
    if default is None:
        raise PlanError('%s does not list ansible-core %s, the version of tests/constraints.txt' % (where, default_core))
    return releases


def default_core_of(constraints_text: str) -> str:
    """The ansible-core version that tests/constraints.txt pins ('' if none)."""
    found = ''
    for line in constraints_text.splitlines():
        if line.startswith('ansible-core=='):
            found = line[len('ansible-core=='):]
    return found


def check_matrix_stages(releases: list, where: str = 'tests/matrix/releases.txt') -> None:
    """A row names only per-release stages or stages of the default release; the stages
    that are not per release (but compat, which uses the `ansible` package's ansible-core)
    are named by the default row and by no other."""
    for r in releases:
        for st in r.stages.split(','):
            if st == 'all':
                continue
            if st not in ALL_STAGES or st == 'compat':
                raise PlanError("%s: ansible-core %s names '%s', which is no per-release stage of tools/test"
                                % (where, r.exact, st))
    default = default_release(releases)
    for st in ALL_STAGES:
        if st == 'compat' or st in MATRIX_STAGES:
            continue
        if not default.runs(st):
            raise PlanError("%s: the default release %s does not name '%s' (it runs there)" % (where, default.exact, st))
        for r in releases:
            if r is not default and r.runs(st):
                raise PlanError("%s: ansible-core %s names '%s', which runs on the default release only"
                                % (where, r.exact, st))


def check_matrix_manila(releases: list, known_manila, where: str = 'tests/matrix/releases.txt') -> None:
    """The manila column: a release or 'current' where the row runs integration, '-' (or
    'current') where it does not; KNOWN_MANILA tells whether tests/cloud knows a release."""
    for r in releases:
        m = r.manila
        if r.runs('integration'):
            if m == '-':
                raise PlanError("%s: ansible-core %s runs integration: its manila column must name a Manila "
                                "release or 'current', not '-'" % (where, r.exact))
        elif m not in ('-', 'current'):
            raise PlanError("%s: ansible-core %s runs no integration: its manila column must be '-', not '%s'"
                            % (where, r.exact, m))
        if m not in ('-', 'current') and not known_manila(m):
            raise PlanError("%s: ansible-core %s: '%s' is no Manila release of tests/cloud/manila_cloud.py (RELEASES)"
                            % (where, r.exact, m))


def default_release(releases: list) -> Release:
    return next(r for r in releases if r.default)


def manila_of(release: Release, override) -> str:
    """The Manila release that integration-R runs against ('' for the base cloud).
    OVERRIDE is OPENKEEL_MANILA_RELEASE as tools/test found it (None when unset)."""
    m = release.manila if override is None else override
    return '' if m in ('-', 'current', 'latest', '') else m


def parse_shards(text: str, targets_present, where: str = 'tests/integration/shards.txt') -> Shards:
    """The shards file ("TARGET SHARD [newest]" per line). TARGETS_PRESENT: the directory
    names of tests/integration/targets; each of them but setup_* must be listed once."""
    shards = Shards()
    seen = []
    present = set(targets_present)
    for cells in _rows(text):
        if (not 2 <= len(cells) <= 3 or not re.fullmatch(r'[1-9][0-9]*', cells[1])
                or (len(cells) == 3 and cells[2] != 'newest')):
            raise PlanError("%s: '%s' is not 'TARGET SHARD [newest]' (a shard is a number from 1)"
                            % (where, ' '.join(cells)))
        target, shard = cells[0], int(cells[1])
        if len(cells) == 3:
            shards.newest_only.add(target)
        if target not in present:
            raise PlanError("%s names '%s', which is no directory of tests/integration/targets" % (where, target))
        if target in seen:
            raise PlanError('%s lists %s twice' % (where, target))
        seen.append(target)
        shards.targets.setdefault(shard, []).append(target)
    for target in sorted(present):
        if not target.startswith('setup_') and target not in seen:
            raise PlanError('%s does not list the integration target %s: give it a shard' % (where, target))
    for s in range(1, shards.count + 1):
        if not shards.targets.get(s):
            raise PlanError('%s: shard %d has no target (number the shards 1..N)' % (where, s))
    return shards


def lanes_of(releases: list, shard_count: int):
    """The first cloud lane of each release's integration and the lanes the cloud needs.

    The rows that name integration take SHARD_COUNT lanes each, from lane 2 on, in the
    order of the matrix; any other release (integration-R asked for by name) shares lane 1
    with cloud, package, compat and faults. Returns ({rel: first lane}, lane count)."""
    first = {}
    nxt = 2
    for r in releases:
        if r.runs('integration'):
            first[r.rel] = nxt
            nxt += shard_count
        else:
            first[r.rel] = 1
    return first, nxt - 1


def lane_span(first: int, shard_count: int) -> str:
    """How the summary names a release's lanes: '2-5', or '1'."""
    if first == 1 or shard_count <= 1:
        return str(first)
    return '%d-%d' % (first, first + shard_count - 1)


def newest_integration(releases: list) -> str:
    """The last release of the matrix that names integration ('' if none)."""
    found = ''
    for r in releases:
        if r.runs('integration'):
            found = r.rel
    return found


def shard_targets(shards: Shards, shard: int, rel: str, newest: str) -> list:
    """The targets of SHARD that run on REL: a `newest` target only on the newest release."""
    return [t for t in shards.targets.get(shard, []) if t not in shards.newest_only or rel == newest]


def all_shard_targets(shards: Shards, rel: str, newest: str) -> list:
    out = []
    for s in range(1, shards.count + 1):
        out.extend(shard_targets(shards, s, rel, newest))
    return out


def selected_releases(releases: list, env_value: str) -> list:
    """OPENKEEL_TEST_RELEASES (space or comma separated) or, when empty, every release."""
    known = [r.rel for r in releases]
    chosen = []
    for rel in env_value.replace(',', ' ').split():
        if rel not in known:
            raise PlanError('OPENKEEL_TEST_RELEASES: %s is not in tests/matrix/releases.txt (%s)' % (rel, ' '.join(known)))
        chosen.append(rel)
    return chosen or known


@dataclass
class Args:
    stages: list
    extra: list
    help: bool = False


def parse_args(argv: list, releases: list, selected: list) -> Args:
    """The command line: stage names (matrix stages expand to one per selected release
    whose row names them), `matrix`, `all`, STAGE-R, `-h`, and `--` before extra args."""
    by_rel = {r.rel: r for r in releases}
    stages = []

    def add(name):
        if name in MATRIX_STAGES:
            added = ['%s-%s' % (name, rel) for rel in selected if by_rel[rel].runs(name)]
            if not added:
                raise PlanError("no release in %s runs '%s' (tests/matrix/releases.txt; OPENKEEL_TEST_RELEASES)"
                                % (' '.join(selected), name))
            stages.extend(added)
            return
        if name == 'matrix':
            add('sanity')
            add('units')
            return
        if re.match(r'(sanity|units|integration)-', name):
            if name.split('-', 1)[1] not in by_rel:
                raise PlanError("unknown release in '%s' (releases: %s)" % (name, ' '.join(by_rel)))
            stages.append(name)
            return
        if name in ALL_STAGES or name in OPT_IN_STAGES:
            stages.append(name)
            return
        raise PlanError("unknown stage '%s' (stages: %s matrix; opt-in: %s; per release: sanity-R units-R "
                        "integration-R with R in %s)" % (name, ' '.join(ALL_STAGES), ' '.join(OPT_IN_STAGES),
                                                         ' '.join(by_rel)))

    extra = []
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg in ('-h', '--help'):
            return Args(stages=stages, extra=extra, help=True)
        if arg == '--':
            extra = args
            break
        if arg == 'all':
            for s in ALL_STAGES:
                add(s)
        else:
            add(arg)
    if not stages:
        for s in ALL_STAGES:
            add(s)
    return Args(stages=stages, extra=extra)


def group_kind(stage: str) -> str:
    """matrix (sanity-R, units-R: CPU-bound), cloud (compat, integration-R, faults: they
    wait on the cloud) or none (run one by one)."""
    if stage.startswith(('sanity-', 'units-')):
        return 'matrix'
    if stage in ('compat', 'faults') or stage.startswith('integration-'):
        return 'cloud'
    return 'none'


def batches(stages: list, early: list) -> list:
    """The order of a run: [(kind, [stage, ...])]: a stage of kind none alone, consecutive
    stages of one other kind together (without the EARLY ones, which started before)."""
    out = []
    i = 0
    while i < len(stages):
        kind = group_kind(stages[i])
        if kind == 'none':
            out.append((kind, [stages[i]]))
            i += 1
            continue
        batch = []
        while i < len(stages) and group_kind(stages[i]) == kind:
            if stages[i] not in early:
                batch.append(stages[i])
            i += 1
        out.append((kind, batch))
    return out


def group_lanes(items: list, releases: set):
    """The lanes of a side-by-side group: sanity-R and units-R share lane R, integration-R
    is a lane of its own, any other stage too. Returns ([key, ...], {key: [stage, ...]})."""
    keys = []
    stages = {}
    for it in items:
        if it.startswith(('sanity-', 'units-')):
            st, key = it.split('-', 1)
        elif it.startswith('integration-'):
            st, key = 'integration', it
        else:
            st, key = it, it
        if key not in stages:
            keys.append(key)
            stages[key] = []
        stages[key].append(st)
    return keys, stages


def lane_release(key: str, releases) -> str:
    """The release of a lane ('' for a lane of another stage)."""
    if key.startswith('integration-'):
        return key[len('integration-'):]
    return key if key in releases else ''


def item_name(key: str, stage: str, releases) -> str:
    """The summary's name of STAGE in lane KEY: sanity-2.16, setup-2.16, integration-2.16,
    setup-integration-2.16, faults."""
    if key.startswith('integration-'):
        return 'setup-' + key if stage == 'setup' else key
    rel = lane_release(key, releases)
    return '%s-%s' % (stage, rel) if rel else stage


def usage(entry_point: str) -> str:
    """The comment at the top of tools/test (from its third line to `set -`), unprefixed."""
    with open(entry_point, encoding='utf-8') as f:
        lines = f.read().splitlines()[2:]
    out = []
    for line in lines:
        if not line.startswith('#'):
            break
        out.append(re.sub(r'^# ?', '', line))
    return '\n'.join(out) + '\n'


def target_dirs(repo: str) -> list:
    base = os.path.join(repo, 'tests', 'integration', 'targets')
    return sorted(d for d in os.listdir(base) if os.path.isdir(os.path.join(base, d)))
