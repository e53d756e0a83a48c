"""integration-R's shards side by side (stages.matrix_integration), with a stand-in for
the ansible-test run of a shard: the lanes each shard gets, the logs, the note, the result."""
import os
import types

import pytest

from testrunner import plan, run, stages


def context(tmp_path, extra=()):
    rows = plan.parse_matrix('ansible-core python stages manila\n'
                             '2.16.19 3.11 sanity,units,integration 2023.2\n'
                             '2.19.14 3.11 sanity,units,changelog,docs,release,lint,runner,cloud,package,faults -\n'
                             '2.21.5 3.13 sanity,units,integration current\n', '2.19.14')
    shards = plan.parse_shards('a 1\nb 1\nc 2\nd 3 newest\n', ['a', 'b', 'c', 'd'])
    first, lanes = plan.lanes_of(rows, shards.count)
    return types.SimpleNamespace(
        releases={r.rel: r for r in rows}, shards=shards, lane_first=first, cloud_lanes=lanes,
        newest=plan.newest_integration(rows), build_dir=str(tmp_path), extra=list(extra),
        cloud_is_up=True, manila_override='current')


@pytest.fixture(name='shard_runs')
def fake_shards(monkeypatch):
    def fake(ctx, rel, s, lane, targets):
        print('ran %s shard %d on lane %d: %s' % (rel, s, lane, ' '.join(targets)))
        if 'c' in targets:
            print('OPENKEEL-SHARD-RESULT FAILED')
            raise run.StepFailed('', 2)
        print('OPENKEEL-SHARD-RESULT ok\nOPENKEEL-TARGET-TIMES\n  a    1s')
    monkeypatch.setattr(stages, 'integration_shard', fake)
    monkeypatch.delenv('OPENKEEL_TEST_LANE', raising=False)


def test_shards_on_their_lanes(tmp_path, capfd, shard_runs):  # pylint: disable=unused-argument
    ctx = context(tmp_path)
    where = tmp_path / 'integration' / '2.16'
    where.mkdir(parents=True)
    (where / 'shard-9.log').write_text('old')
    assert run.call(stages.matrix_integration, ctx, '2.16') == 1
    out = capfd.readouterr().out
    assert 'integration-2.16: 3 shards side by side on cloud lanes 2-4' in out
    assert 'shard 1 (cloud lane 2): a b: ok ' in out
    assert 'shard 2 (cloud lane 3): c: FAILED ' in out
    assert 'shard 3 (cloud lane 4):: ok ' in out
    assert '== shard 1: seconds per target\n  a    1s\n' in out
    assert '== shard 2 FAILED; its output (%s/shard-2.log):\nran 2.16 shard 2 on lane 3: c\n' % where in out
    assert (where / 'shard-1.log').read_text().startswith('ran 2.16 shard 1 on lane 2: a b\n')
    assert (where / 'shard-3.log').read_text() == 'no target of shard 3 runs on 2.16\nOPENKEEL-SHARD-RESULT ok\nOPENKEEL-TARGET-TIMES\n'
    assert not os.path.exists(where / 'shard-9.log')
    note = (where / 'shards-note').read_text()
    assert note.startswith('shards 1: ok ') and ', 2: FAILED ' in note and ', 3: ok ' in note
    assert stages.shard_note(ctx, '2.16') == ' (%s)' % note.strip()


def test_newest_release_runs_every_shard(tmp_path, capfd, shard_runs):  # pylint: disable=unused-argument
    ctx = context(tmp_path)
    (tmp_path / 'integration' / '2.21').mkdir(parents=True)
    assert run.call(stages.matrix_integration, ctx, '2.21') == 1
    assert 'shard 3 (cloud lane 7): d: ok ' in capfd.readouterr().out


def test_targets_named_run_once_on_the_first_lane(tmp_path, capfd, shard_runs):  # pylint: disable=unused-argument
    ctx = context(tmp_path, extra=['b', '-v'])
    (tmp_path / 'integration' / '2.16').mkdir(parents=True)
    assert run.call(stages.matrix_integration, ctx, '2.16') == 0
    out = capfd.readouterr().out
    assert out.startswith('ran 2.16 shard 1 on lane 2: b -v\n')
    assert not (tmp_path / 'integration' / '2.16' / 'shards-note').exists()
    assert stages.shard_note(ctx, '2.16') == ''
