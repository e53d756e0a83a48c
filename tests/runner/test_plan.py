"""The pure parts of tools/testrunner: the matrix, the shards, the lanes, the arguments."""
import os

import pytest

from testrunner import plan

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MATRIX = """\
# a comment
ansible-core  python  stages                        manila   sanity
2.16.19       3.11    sanity,units,integration      2023.2   all
2.17.14       3.12    sanity,units                  -        no-pylint   # trailing comment
2.19.14       3.11    sanity,units,changelog,docs,release,lint,runner,cloud,package,faults   -   all
2.21.5        3.13    sanity,units,integration      current  all
"""


def releases():
    return plan.parse_matrix(MATRIX, '2.19.14')


def test_matrix_rows_in_order_with_default():
    rows = releases()
    assert [r.rel for r in rows] == ['2.16', '2.17', '2.19', '2.21']
    assert [r.rel for r in rows if r.default] == ['2.19']
    assert rows[1].python == '3.12' and rows[1].sanity == 'no-pylint' and rows[1].manila == '-'
    assert rows[0].runs('integration') and not rows[1].runs('integration')
    assert not rows[0].runs('unit')   # a whole name, not a part of one


def test_matrix_optional_columns_default():
    rows = plan.parse_matrix('ansible-core python stages\n2.19.14 3.11 all\n', '2.19.14')
    assert rows[0].manila == 'current' and rows[0].sanity == 'all' and rows[0].runs('faults')


@pytest.mark.parametrize('text, message', [
    ('ansible-core python stages\n2.19.14 3.11\n', 'does not have the columns'),
    ('ansible-core python\n2.19.14 3.11\n', "has no column 'stages'"),
    ('ansible-core python stages\n2.19 3.11 all\n', 'is no exact ansible-core version'),
    ('ansible-core python stages\n2.19.14 3.11.2 all\n', 'one Python per release'),
    ('ansible-core python stages sanity\n2.19.14 3.11 all some\n', "'all' or 'no-pylint'"),
    ('ansible-core python stages\n2.19.14 3.11 all\n2.19.14 3.11 all\n', 'twice'),
    ('ansible-core python stages\n2.18.1 3.11 all\n', 'does not list ansible-core 2.19.14'),
])
def test_matrix_refusals(text, message):
    with pytest.raises(plan.PlanError, match=message):
        plan.parse_matrix(text, '2.19.14')


def test_default_core_of_constraints():
    assert plan.default_core_of('pyyaml==6\nansible-core==2.19.14\n') == '2.19.14'


def test_check_matrix_stages():
    plan.check_matrix_stages(releases())
    bad = plan.parse_matrix(MATRIX.replace('2.17.14       3.12    sanity,units ', '2.17.14  3.12  sanity,docs  '),
                            '2.19.14')
    with pytest.raises(plan.PlanError, match="2.17.14 names 'docs', which runs on the default release only"):
        plan.check_matrix_stages(bad)
    compat = plan.parse_matrix(MATRIX.replace('sanity,units,integration      2023.2', 'compat,units   2023.2'), '2.19.14')
    with pytest.raises(plan.PlanError, match="names 'compat', which is no per-release stage"):
        plan.check_matrix_stages(compat)


def test_check_matrix_manila():
    plan.check_matrix_manila(releases(), lambda m: m == '2023.2')
    with pytest.raises(plan.PlanError, match="'2023.2' is no Manila release"):
        plan.check_matrix_manila(releases(), lambda m: False)
    no_manila = plan.parse_matrix(MATRIX.replace('2023.2', '-'), '2.19.14')
    with pytest.raises(plan.PlanError, match="runs integration: its manila column"):
        plan.check_matrix_manila(no_manila, lambda m: True)


def test_manila_of_and_override():
    rows = releases()
    r16, r17, r21 = rows[0], rows[1], rows[3]
    assert plan.manila_of(r16, None) == '2023.2'
    assert plan.manila_of(r21, None) == ''
    assert plan.manila_of(r17, None) == ''
    assert plan.manila_of(r21, '2024.1') == '2024.1'
    assert plan.manila_of(r16, '') == ''          # set but empty: the base cloud
    assert plan.manila_of(r16, 'current') == ''


SHARDS = """\
# target shard only
b_target 1
a_target 1
c_target 2
d_target 3 newest
"""
TARGETS = ['a_target', 'b_target', 'c_target', 'd_target', 'setup_thing']


def test_shards_split():
    shards = plan.parse_shards(SHARDS, TARGETS)
    assert shards.count == 3
    assert shards.targets == {1: ['b_target', 'a_target'], 2: ['c_target'], 3: ['d_target']}
    assert shards.newest_only == {'d_target'}
    assert plan.shard_targets(shards, 3, '2.16', '2.21') == []
    assert plan.shard_targets(shards, 3, '2.21', '2.21') == ['d_target']
    assert plan.all_shard_targets(shards, '2.16', '2.21') == ['b_target', 'a_target', 'c_target']
    assert plan.all_shard_targets(shards, '2.21', '2.21') == ['b_target', 'a_target', 'c_target', 'd_target']


@pytest.mark.parametrize('text, message', [
    (SHARDS + 'e_target\n', 'is not'),
    (SHARDS + 'e_target 0\n', 'is not'),
    (SHARDS + 'e_target 1 oldest\n', 'is not'),
    (SHARDS + 'e_target 1\n', "names 'e_target', which is no directory"),
    (SHARDS + 'a_target 2\n', 'lists a_target twice'),
    (SHARDS.replace('c_target 2\n', ''), 'does not list the integration target c_target'),
    (SHARDS.replace('c_target 2', 'c_target 1'), 'shard 2 has no target'),
])
def test_shard_refusals(text, message):
    with pytest.raises(plan.PlanError, match=message):
        plan.parse_shards(text, TARGETS)


def test_the_repository_files_agree():
    """The project's own matrix and shards load, and the shards split as documented."""
    with open(os.path.join(REPO, 'tests', 'constraints.txt'), encoding='utf-8') as f:
        core = plan.default_core_of(f.read())
    with open(os.path.join(REPO, 'tests', 'matrix', 'releases.txt'), encoding='utf-8') as f:
        rows = plan.parse_matrix(f.read(), core)
    plan.check_matrix_stages(rows)
    with open(os.path.join(REPO, 'tests', 'integration', 'shards.txt'), encoding='utf-8') as f:
        shards = plan.parse_shards(f.read(), plan.target_dirs(REPO))
    first, count = plan.lanes_of(rows, shards.count)
    assert [r.rel for r in rows if r.default] == ['2.19']
    assert shards.count == 4
    assert first == {'2.16': 2, '2.17': 1, '2.18': 1, '2.19': 1, '2.20': 1, '2.21': 6}
    assert count == 9
    assert plan.shard_targets(shards, 4, '2.16', plan.newest_integration(rows)) == []


def test_lanes():
    rows = releases()
    first, count = plan.lanes_of(rows, 4)
    assert first == {'2.16': 2, '2.17': 1, '2.19': 1, '2.21': 6}
    assert count == 9
    assert plan.lane_span(2, 4) == '2-5'
    assert plan.lane_span(6, 4) == '6-9'
    assert plan.lane_span(1, 4) == '1'
    assert plan.lane_span(2, 1) == '2'
    assert plan.lanes_of(rows, 1) == ({'2.16': 2, '2.17': 1, '2.19': 1, '2.21': 3}, 3)
    assert plan.newest_integration(rows) == '2.21'


def test_selected_releases():
    rows = releases()
    assert plan.selected_releases(rows, '') == ['2.16', '2.17', '2.19', '2.21']
    assert plan.selected_releases(rows, '2.21,2.16') == ['2.21', '2.16']
    assert plan.selected_releases(rows, ' 2.17  2.19 ') == ['2.17', '2.19']
    with pytest.raises(plan.PlanError, match='2.18 is not in tests/matrix/releases.txt'):
        plan.selected_releases(rows, '2.18')


def parse(argv, selected=None):
    rows = releases()
    return plan.parse_args(argv, rows, selected or [r.rel for r in rows])


def test_no_stage_is_every_stage():
    args = parse([])
    assert args.stages == [
        'sanity-2.16', 'sanity-2.17', 'sanity-2.19', 'sanity-2.21',
        'units-2.16', 'units-2.17', 'units-2.19', 'units-2.21',
        'changelog', 'docs', 'release', 'lint', 'runner', 'cloud', 'package', 'compat',
        'integration-2.16', 'integration-2.21', 'faults']
    assert args.extra == [] and not args.help
    assert parse(['all']).stages == args.stages
    assert 'mutation' not in args.stages


def test_stage_expansion_and_extra_args():
    args = parse(['matrix', 'faults', 'sanity-2.17', 'mutation', '--', '-k', 'lost', '--', 'x'])
    assert args.stages == ['sanity-2.16', 'sanity-2.17', 'sanity-2.19', 'sanity-2.21',
                           'units-2.16', 'units-2.17', 'units-2.19', 'units-2.21',
                           'faults', 'sanity-2.17', 'mutation']
    assert args.extra == ['-k', 'lost', '--', 'x']
    assert parse(['integration'], ['2.17', '2.21']).stages == ['integration-2.21']
    assert parse(['integration-2.17', '--']).stages == ['integration-2.17']
    assert parse(['--', 'share']).stages == parse([]).stages


def test_help_and_refusals():
    assert parse(['units', '-h']).help
    assert parse(['--help']).help
    with pytest.raises(plan.PlanError, match="unknown stage 'bogus'"):
        parse(['bogus', '-h'])
    with pytest.raises(plan.PlanError, match=r"unknown release in 'units-2\.18'"):
        parse(['units-2.18'])
    with pytest.raises(plan.PlanError, match="no release in 2.17 runs 'integration'"):
        parse(['integration'], ['2.17'])


def test_batches_and_groups():
    stages = ['sanity-2.16', 'units-2.16', 'changelog', 'compat', 'integration-2.16', 'integration-2.21',
              'faults', 'units-2.17']
    assert plan.batches(stages, ['integration-2.16', 'integration-2.21']) == [
        ('matrix', ['sanity-2.16', 'units-2.16']), ('none', ['changelog']),
        ('cloud', ['compat', 'faults']), ('matrix', ['units-2.17'])]
    assert plan.batches(['integration-2.16'], ['integration-2.16']) == [('cloud', [])]
    keys, stages_of = plan.group_lanes(['sanity-2.16', 'sanity-2.21', 'units-2.16', 'integration-2.16', 'faults'],
                                       {'2.16', '2.21'})
    assert keys == ['2.16', '2.21', 'integration-2.16', 'faults']
    assert stages_of == {'2.16': ['sanity', 'units'], '2.21': ['sanity'], 'integration-2.16': ['integration'],
                         'faults': ['faults']}


def test_item_names():
    rels = {'2.16', '2.21'}
    assert plan.item_name('2.16', 'setup', rels) == 'setup-2.16'
    assert plan.item_name('2.16', 'units', rels) == 'units-2.16'
    assert plan.item_name('integration-2.21', 'setup', rels) == 'setup-integration-2.21'
    assert plan.item_name('integration-2.21', 'integration', rels) == 'integration-2.21'
    assert plan.item_name('faults', 'faults', rels) == 'faults'
    assert plan.lane_release('faults', rels) == ''


def test_usage_is_the_entry_points_comment():
    text = plan.usage(os.path.join(REPO, 'tools', 'test'))
    assert text.startswith('tools/test: run the tests of openkeel.manila.\n\n  tools/test ')
    assert text.endswith('The summary has the wall time and the CPU time of every stage.\n')
    assert 'set -' not in text
