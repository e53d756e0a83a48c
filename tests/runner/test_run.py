"""The summary lines, the failure digest and the target times of tools/testrunner."""
import json
import sys

from testrunner import run, stages


def test_summary_lines():
    assert run.summary_line('integration-2.16', 'ok', 1606, 'note') == '  integration-2.16        ok        1606s  note'
    assert run.summary_line('setup', 'ok', 0, '') == '  setup                   ok           0s  '
    assert run.summary_line('faults', 'not run') == '  faults                  not run '
    assert run.total_line('FAILED', 42) == '  total                   FAILED      42s'


def test_book_order_and_not_run():
    book = run.Book()
    book.record('setup', 'ok', 1, 'n1')
    book.record('units-2.16', 'FAILED', 12, 'n2')
    assert book.lines(['units-2.16', 'faults']) == [
        '  setup                   ok           1s  n1',
        '  units-2.16              FAILED      12s  n2',
        '  faults                  not run ']


LOG = """\
PLAY [x]
TASK [create the share] ****
ok: [localhost]
TASK [delete it] ****
fatal: [localhost]: FAILED! => {
    "changed": false,
    "msg": "no such share"
}
...ignoring
TASK [check] ****
fatal: [localhost]: FAILED! => {"msg": "boom"}
FAILED - RETRYING: [localhost]: wait (3 retries left).
ERROR: Command "ansible-playbook" returned exit status 2.
"""


def test_digest():
    assert run.digest_lines(LOG.splitlines(True)) == [
        '  TASK [check] ****',
        '    fatal: [localhost]: FAILED! => {"msg": "boom"}',
        '    ERROR: Command "ansible-playbook" returned exit status 2.']


def test_digest_of_a_body_and_the_limit():
    body = 'TASK [t]\nfatal: [h]: FAILED! => {\n  "a": 1,\n   "b": 2\n}\n'
    assert run.digest_lines(body.splitlines()) == ['  TASK [t]', '    fatal: [h]: FAILED! => { "a": 1, "b": 2 }']
    many = ['E   assert %d' % i for i in range(40)]
    found = run.digest_lines(many)
    assert len(found) == 25 and found[-1] == '    E   assert 24'


def test_digest_falls_back_to_the_tail(tmp_path):
    log = tmp_path / 'x.log'
    log.write_text(''.join('line %d\n' % i for i in range(20)))
    assert run.digest_of(str(log)) == ['    line %d' % i for i in range(12, 20)]
    assert run.digest_of(str(tmp_path / 'missing.log')) == []


def test_target_times(tmp_path):
    data = tmp_path / 'integration-1.json'
    data.write_text(json.dumps({'targets': {'a': {'run_time_seconds': 3}, 'b': {'run_time_seconds': 40}}}))
    bad = tmp_path / 'integration-2.json'
    bad.write_text('not json')
    assert stages.target_times([str(data), str(bad)]) == [
        '  b                           40s', '  a                            3s', '  (all)                       43s']


def test_copy_home():
    assert stages.copy_home('/b/matrix/2.16/ansible_collections/openkeel/manila') == '/b/matrix/2.16/home'


def test_step_in_a_child_process():
    def fails():
        raise run.StepFailed('', 3)
    assert run.call(fails) == 3
    assert run.call(lambda: None) == 0
    assert run.call(sys.exit) == 0
    assert run.call(sys.exit, 4) == 4
