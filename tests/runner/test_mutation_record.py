"""tests/mutation/run.py: the score over every module of the record, and the floor it must keep."""
import importlib.util
import json
import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_run():
    spec = importlib.util.spec_from_file_location('mutation_run',
                                                  os.path.join(REPO, 'tests', 'mutation', 'run.py'))
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    return run


def entry(killed, survived, no_tests):
    return {'killed': killed, 'survived': survived, 'no_tests': no_tests, 'message_only': 7}


def test_the_recorded_total_counts_every_mutant_once_whatever_the_module(tmp_path):
    # a small module's 100% weighs its size, not one module's share
    path = tmp_path / 'scores.json'
    path.write_text(json.dumps({'modules': {'big': entry(90, 8, 2), 'small': entry(10, 0, 0)}}))
    assert load_run().recorded_total(path) == 100.0 * 100 / 110


def test_the_record_in_the_repository_keeps_the_floor():
    run = load_run()
    path = run.Path(REPO) / 'tests' / 'mutation' / 'scores.json'
    assert run.RECORDED_FLOOR == 95.0
    assert json.loads(path.read_text())['floor'] == run.RECORDED_FLOOR
    assert run.recorded_total(path) >= run.RECORDED_FLOOR
