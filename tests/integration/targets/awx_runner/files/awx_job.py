#!/usr/bin/env python
# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Run a collection playbook the way AWX runs a job: with ansible-runner.

AWX hands a job to ansible-runner as a private data directory: the project's
playbook in project/, the inventory in inventory/, the extra variables (survey
answers included) as JSON in env/extravars, the credential's environment in
env/envvars and the job type's options (--check for a Check job) in env/cmdline.
ansible-runner writes the job's artifacts under artifacts/IDENT/, and AWX reads
what the playbook published with set_stats from the playbook_on_stats event
(its artifact_data). This script does the same and prints one JSON document:

  rc, status         ansible-runner's result
  artifacts          the names in artifacts/IDENT/
  stats              the play recap (ok, changed, failures, ... per host)
  artifact_data      what set_stats published, as AWX reads it
  censored_tasks     the tasks whose result AWX got hidden (no_log)
  stdout             the job's output

Usage: awx_job.py JOB.json, JOB.json holding private_data_dir, playbook (the
collection playbook's name), extravars, envvars, check (bool) and ident.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import glob
import json
import os
import sys

import ansible_runner


def write(path, text, mode=0o600):
    directory = os.path.dirname(path)
    if not os.path.isdir(directory):
        os.makedirs(directory)
    with open(path, 'w') as handle:
        handle.write(text)
    os.chmod(path, mode)


def main():
    with open(sys.argv[1]) as handle:
        job = json.load(handle)
    pdd = job['private_data_dir']
    ident = str(job['ident'])
    # the project's playbook, as docs/awx.md shows it
    write(os.path.join(pdd, 'project', 'job.yml'),
          '---\n- name: The job template\'s playbook\n'
          '  ansible.builtin.import_playbook: openkeel.manila.%s\n' % job['playbook'])
    write(os.path.join(pdd, 'inventory', 'hosts'), 'localhost ansible_connection=local\n')
    write(os.path.join(pdd, 'env', 'extravars'), json.dumps(job['extravars']))
    write(os.path.join(pdd, 'env', 'envvars'), json.dumps(job['envvars']))
    write(os.path.join(pdd, 'env', 'cmdline'), '--check --diff' if job.get('check') else '--diff')

    result = ansible_runner.run(private_data_dir=pdd, playbook='job.yml', ident=ident,
                                quiet=True)

    artifacts = os.path.join(pdd, 'artifacts', ident)
    stats = {}
    censored = []
    for path in sorted(glob.glob(os.path.join(artifacts, 'job_events', '*.json'))):
        with open(path) as handle:
            event = json.load(handle)
        data = event.get('event_data', {})
        if event.get('event') == 'playbook_on_stats':
            stats = data
        elif event.get('event', '').startswith('runner_on_') and 'censored' in data.get('res', {}):
            censored.append(data.get('task'))
    with open(os.path.join(artifacts, 'stdout')) as handle:
        stdout = handle.read()
    print(json.dumps({
        'rc': result.rc,
        'status': result.status,
        'artifacts': sorted(os.listdir(artifacts)),
        'stats': dict((key, stats.get(key, {})) for key in (
            'ok', 'changed', 'failures', 'dark', 'skipped', 'rescued', 'ignored')),
        'artifact_data': stats.get('artifact_data', {}),
        'censored_tasks': censored,
        'stdout': stdout,
    }))


if __name__ == '__main__':
    main()
