# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tests of the documentation site (tools/test docs runs them after the build).

test_built_site reads the site that was just built (OPENKEEL_DOCS_HTML, from the collection in
OPENKEEL_DOCS_COLLECTION) and fails on every problem sitecheck.py finds. The other tests feed each
check a small site with one problem, and the same site without it, so that every check is shown
to fail on what it is for; and they test the generator of the pages (docs/site/sitegen.py).
"""

from __future__ import absolute_import, division, print_function

import os
import shutil
import sys
import textwrap

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import sitecheck  # noqa: E402  (imported from this directory)

__metaclass__ = type

REPO = os.path.dirname(os.path.dirname(HERE))
SITEGEN = os.path.join(REPO, 'docs', 'site', 'sitegen.py')
sitegen = sitecheck.load_sitegen(REPO)


# ------------------------------------------------------------------ the site that was built

def test_built_site():
    html = os.environ.get('OPENKEEL_DOCS_HTML')
    collection = os.environ.get('OPENKEEL_DOCS_COLLECTION', REPO)
    assert html, 'OPENKEEL_DOCS_HTML is not set: tools/test docs builds the site and sets it'
    assert os.path.exists(os.path.join(html, 'index.html')), '%s has no index.html: build the site first' % html
    problems = sitecheck.check_site(html, collection)
    assert not problems, '\n' + sitecheck.report(problems)


# ------------------------------------------------------------------ a small site

def write(path, text):
    directory = os.path.dirname(path)
    if not os.path.isdir(directory):
        os.makedirs(directory)
    with open(path, 'w') as f:
        f.write(textwrap.dedent(text).lstrip('\n'))


class Mini(object):
    """A collection and a built site of a few pages, each test adds what it needs."""

    def __init__(self, root):
        self.collection = os.path.join(root, 'ansible_collections', 'openkeel', 'manila')
        self.html = os.path.join(root, 'html')
        c = self.collection
        write(os.path.join(c, 'galaxy.yml'), 'namespace: openkeel\nname: manila\nversion: 1.2.3\n')
        write(os.path.join(c, 'meta', 'runtime.yml'), """
            requires_ansible: '>=2.19.0,<2.20.0'
            action_groups:
              manila:
                - share
            """)
        write(os.path.join(c, 'requirements.txt'), 'openstacksdk>=4.22.0\nkeystoneauth1>=5.18.1\n')
        write(os.path.join(c, 'tests', 'constraints.txt'),
              'ansible-core==2.19.14\nopenstacksdk==4.22.0\nkeystoneauth1==5.18.1\n')
        write(os.path.join(c, 'tests', 'matrix', 'releases.txt'),
              'ansible-core python stages\n2.19.14 3.11,3.12 all\n')
        write(os.path.join(c, 'plugins', 'module_utils', 'microversions.py'), """
            MAX_KNOWN_VERSION = APIVersion('2.99')
            MIN_SUPPORTED_VERSION = APIVersion('2.29')
            FEATURES = {
                'user_messages': ('2.37', None),
                'migration': ('2.29', '2.96'),
            }
            """)
        write(os.path.join(c, 'tests', 'cloud', 'manila_cloud.py'),
              "PIP_PACKAGES = ['manila==23.0.1', 'keystone==30.0.0', 'uwsgi']\n"
              "RELEASES = {'2023.2': {'manila': 'manila==17.4.0', 'port': 8796}}\n")
        write(os.path.join(c, 'plugins', 'modules', 'share.py'), '# a module\n')
        os.makedirs(os.path.join(c, 'docs', 'site'))
        shutil.copy(SITEGEN, os.path.join(c, 'docs', 'site', 'sitegen.py'))
        self.page('index.html', '<p>The index</p>')
        self.page('collections/openkeel/manila/share_module.html', """
            <h1>openkeel.manila.share module</h1>
            <div class="ansibleOptionAnchor" id="parameter-name"></div>
            <div class="ansibleOptionAnchor" id="parameter-size"></div>
            <div class="ansibleOptionAnchor" id="parameter-rules"></div>
            <div class="ansibleOptionAnchor" id="parameter-rules/access_to"></div>
            <div class="ansibleOptionAnchor" id="parameter-cloud"></div>
            """)

    def page(self, path, body):
        write(os.path.join(self.html, path), '<html><body><div class="nav"><a href="%s">nav</a></div>'
              '<div itemprop="articleBody">%s</div></body></html>'
              % (os.path.relpath('index.html', os.path.dirname(path) or '.'), textwrap.dedent(body)))

    def problems(self, check):
        return check(sitecheck.Site(self.html, self.collection))

    def messages(self, check, page=None):
        return [p.message for p in self.problems(check) if page is None or p.page == page]


@pytest.fixture
def mini(tmp_path):
    return Mini(str(tmp_path))


def yaml_block(text):
    return '<div class="highlight-yaml notranslate"><div class="highlight"><pre>%s</pre></div></div>' % (
        textwrap.dedent(text).replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;'))


# ------------------------------------------------------------------ markup

def test_markup_pipe_in_inline_code_of_a_table(mini):
    # access-rules.md before the fix: the pipe inside the code cut the cell, a backtick stayed
    mini.page('guides/a.html', '<table><tr><td><p>user</p></td><td><p>4-255 characters, none of `"/\\[]:;</p>'
                               '</td></tr></table>')
    assert any('stray backtick' in m for m in mini.messages(sitecheck.check_markup))
    mini.page('guides/a.html', '<table><tr><td><p>user</p></td><td><p>none of <code>"/\\[]:;|=,+*?&lt;&gt;</code>'
                               ' after the first</p></td></tr></table>')
    assert mini.messages(sitecheck.check_markup) == []


def test_markup_pipe_in_a_table_cell(mini):
    mini.page('guides/a.html', '<table><tr><td><p>ip | user</p></td></tr></table>')
    assert any('pipe in a table cell' in m for m in mini.messages(sitecheck.check_markup))


@pytest.mark.parametrize('text, what', [
    ('the option O(share) of the module', 'Ansible markup'),
    ('a value V(present) here', 'Ansible markup'),
    ('see M(openkeel.manila.share)', 'Ansible markup'),
    ('see :ref:`the guide &lt;guide&gt;`', 'an RST role'),
    ('see :ref: here', 'an RST role'),
    ('see {ref}`x`', 'a MyST role'),
    ('.. note:: this', 'an RST directive'),
    ('read [the guide](guide.md)', 'a Markdown link'),
    ('this is **bold** text', 'Markdown emphasis'),
])
def test_markup_left_as_text(mini, text, what):
    mini.page('guides/a.html', '<p>%s</p>' % text)
    assert any(what in m for m in mini.messages(sitecheck.check_markup)), mini.messages(sitecheck.check_markup)


def test_markup_markdown_table_as_a_paragraph(mini):
    mini.page('guides/a.html', '<p>| type | accepted |\n|---|---|\n| ip | an address |</p>')
    assert any('Markdown table' in m for m in mini.messages(sitecheck.check_markup))


def test_markup_in_code_is_fine_but_ansible_markup_is_not(mini):
    mini.page('guides/a.html', '<p>Run <code>ansible-playbook x.yml | tee log</code> and see the '
                               '<code>O(x)</code>-free text.</p>' + yaml_block('- a: `b` | c\n'))
    assert mini.messages(sitecheck.check_markup) == ['Ansible markup left as text: \'O(x)\'']


# ------------------------------------------------------------------ names

def test_names_unlinked_module_name(mini):
    mini.page('guides/a.html', '<p><code class="literal">openkeel.manila.share</code> makes a share.</p>')
    assert mini.messages(sitecheck.check_names) == [
        "names openkeel.manila.share without linking its page: 'openkeel.manila.share'"]
    mini.page('guides/a.html', '<p><a href="../collections/openkeel/manila/share_module.html">'
                               '<code class="literal">openkeel.manila.share</code></a> makes a share.</p>')
    assert mini.messages(sitecheck.check_names) == []


def test_names_plain_text_and_unknown_names(mini):
    mini.page('guides/a.html', '<p>see openkeel.manila.share and openkeel.manila.no_such_module</p>')
    messages = mini.messages(sitecheck.check_names)
    assert any('names openkeel.manila.share without linking' in m for m in messages)
    assert any('no_such_module is not a module, role or playbook' in m for m in messages)


def test_names_group_own_page_and_commands(mini):
    # the action group is no page; a module page names itself; a command line is fine when
    # the page links the name elsewhere, and not otherwise
    mini.page('guides/a.html', '<p>the group <code>openkeel.manila.manila</code>; run '
                               '<code>ansible-doc openkeel.manila.share</code></p>')
    assert mini.messages(sitecheck.check_names) == [
        "names openkeel.manila.share without linking its page: 'ansible-doc openkeel.manila.share'"]
    mini.page('guides/a.html', '<p>run <code>ansible-doc openkeel.manila.share</code> for '
                               '<a href="../collections/openkeel/manila/share_module.html">the module</a>'
                               ' <a href="x.html"><code>openkeel.manila.share</code></a></p>')
    assert mini.messages(sitecheck.check_names) == []
    assert mini.messages(sitecheck.check_names, 'collections/openkeel/manila/share_module.html') == []


def test_names_example_uses_an_unlinked_module(mini):
    mini.page('guides/a.html', yaml_block('- openkeel.manila.share:\n    name: data\n'))
    assert mini.messages(sitecheck.check_names) == [
        'an example uses openkeel.manila.share, and the page links its page nowhere']


def test_backlinks(mini):
    mini.page('guides/a.html', '<p><a href="../collections/openkeel/manila/share_module.html">share</a></p>')
    assert mini.messages(sitecheck.check_backlinks) == ['does not link back to guides/a.html, which links it']
    mini.page('collections/openkeel/manila/share_module.html', '<h1>share</h1><a href="../../../guides/a.html">a</a>')
    assert mini.messages(sitecheck.check_backlinks) == []


# ------------------------------------------------------------------ versions

@pytest.mark.parametrize('text, expected', [
    ('<li>openstacksdk &gt;= 4.0.0</li>', 'says openstacksdk >= 4.0.0; requirements.txt says 4.22.0'),
    ('<li>keystoneauth1 &gt;= 5.0.0</li>', 'says keystoneauth1 >= 5.0.0; requirements.txt says 5.18.1'),
    ('<li>python &gt;= 3.9</li>', 'says python >= 3.9; the oldest tested Python is 3.11'),
    ('<p>tested with openstacksdk 4.20</p>', 'names openstacksdk 4.20'),
    ('<p>pip install "ansible-core&gt;=2.16,&lt;2.22"</p>', 'says ansible-core >=2.16,<2.22'),
    ('<p><code>requires_ansible: \'&gt;=2.18.0\'</code></p>', 'says ansible-core >=2.18.0'),
    ('<p>works with ansible-core 2.17</p>', 'names ansible-core 2.17'),
    ('<p>built with Python 3.9</p>', 'names Python 3.9'),
    ('<p>The oldest version is 2.29 (Manila Pike).</p>', 'puts Manila API 2.29 in Pike; it arrived in Ocata'),
    ('<table><tr><td><p>"needs 2.29 or newer"</p></td><td><p>Manila older than Pike</p></td></tr></table>',
     'puts Manila API 2.29 in Pike'),
    ('<p>install openkeel-manila-0.1.0.tar.gz</p>', 'names the tarball of version 0.1.0; galaxy.yml says 1.2.3'),
    ('<p>tested against Manila 22.0.0</p>', 'names Manila 22.0.0; the local test cloud installs 23.0.1'),
    ('<td><p>Keystone 29.1.0</p></td>', 'names Keystone 29.1.0; the local test cloud installs 30.0.0'),
    ('<p><code>ansible-galaxy collection install openkeel.manila</code>.</p>', 'installs openkeel.manila from Galaxy'),
])
def test_versions_that_disagree(mini, text, expected):
    mini.page('guides/a.html', text)
    messages = mini.messages(sitecheck.check_versions)
    assert any(expected in m for m in messages), messages


def test_versions_that_agree(mini):
    mini.page('guides/a.html', """
        <p>tested against Manila 23.0.1 and Keystone 30.0.0</p>
        <ul><li>python &gt;= 3.11</li><li>openstacksdk &gt;= 4.22.0</li><li>keystoneauth1 &gt;= 5.18.1</li></ul>
        <p>pip install 'ansible-core&gt;=2.19,&lt;2.20' openstacksdk 4.22 with Python 3.12 on ansible-core 2.19.14</p>
        <p>2.29 (Ocata) to 2.99 (2026.2); Newton ends at 2.22.</p>
        <p>ansible-galaxy collection install --offline openkeel-manila-1.2.3.tar.gz</p>
        """)
    assert mini.messages(sitecheck.check_versions) == []


def test_galaxy_links_and_false_claims(mini):
    mini.page('guides/a.html', '<p>part of the <a href="https://galaxy.ansible.com/ui/repo/published/openkeel/'
                               'manila/">collection</a>; allowed by Settings → Jobs → Galaxy credentials</p>')
    assert any('on Galaxy' in m for m in mini.messages(sitecheck.check_galaxy_links))
    assert any('organization' in m for m in mini.messages(sitecheck.check_claims))


def test_placeholder_hosts(mini):
    # galaxy.yml and antsibull-docs' "Issue Tracker" link on every page before the fix
    with open(os.path.join(mini.collection, 'galaxy.yml'), 'a') as f:
        f.write('repository: https://example.invalid/openkeel/manila\nissues: https://github.com/openkeel/manila/issues\n')
    mini.page('collections/openkeel/manila/share_module.html',
              '<a href="https://example.invalid/openkeel/manila/issues">Issue Tracker</a>'
              '<a href="https://docs.ansible.com/">Ansible</a><a href="#x">x</a>')
    messages = mini.messages(sitecheck.check_placeholder_hosts)
    assert messages == ['repository is a placeholder: https://example.invalid/openkeel/manila (a working link or none)',
                        'links a placeholder host: https://example.invalid/openkeel/manila/issues'], messages
    write(os.path.join(mini.collection, 'galaxy.yml'), 'namespace: openkeel\nname: manila\nversion: 1.2.3\n')
    mini.page('collections/openkeel/manila/share_module.html', '<a href="https://docs.ansible.com/">Ansible</a>')
    assert mini.messages(sitecheck.check_placeholder_hosts) == []


def test_short_names_of_roles_playbooks_and_modules(mini):
    # many-shares.md before the fix: "The `share_provision` role ... The `report` playbook"
    write(os.path.join(mini.collection, 'roles', 'share_provision', 'tasks', 'main.yml'), '- ansible.builtin.meta: noop\n')
    write(os.path.join(mini.collection, 'playbooks', 'report.yml'), '- hosts: localhost\n')
    mini.page('guides/a.html', '<p>The <code class="literal">share_provision</code> role runs one task; the '
                               '<code class="literal">report</code> playbook lists them, like a '
                               '<code class="literal">share</code> task per share.</p>'
                               '<p>Each entry of <code class="literal">shares</code> takes '
                               '<code class="literal">size</code>; the result has <code>share</code>.</p>')
    messages = mini.messages(sitecheck.check_short_names)
    assert messages == [
        "names the module share without linking its page: write openkeel.manila.share ('share task')",
        "names the playbook report without linking its page: write openkeel.manila.report ('report playbook')",
        "names the role share_provision without linking its page: write openkeel.manila.share_provision "
        "('share_provision role')"], messages
    mini.page('guides/a.html', '<p>The role <a href="x.html"><code>openkeel.manila.share_provision</code></a> runs '
                               'one task; <a href="r.html">the <code>report</code> playbook</a> lists them.</p>')
    assert mini.messages(sitecheck.check_short_names) == []


FACTS_YML = """
    facts:
      share_provision_mounts:
        description: x
        type: dict
        keys: the share's name
        contains:
          id: {type: str, description: x}
          access_rules:
            type: list
            elements: dict
            description: x
            contains:
              access_to: {type: str, description: x}
      share_provision_changed: {type: bool, description: x}
    """


def fact_table(name, rows):
    return ('<table class="openkeel-fact-table docutils"><caption><span class="caption-text">%s</span></caption>'
            '<thead><tr><th>field</th><th>type</th><th>description</th></tr></thead><tbody>%s</tbody></table>'
            % (name, ''.join('<tr><td><p><code>%s</code></p></td><td><p>str</p></td><td><p>x</p></td></tr>' % r
                             for r in rows)))


def test_facts_published_and_documented_have_field_tables(mini):
    c = mini.collection
    write(os.path.join(c, 'roles', 'share_provision', 'tasks', 'main.yml'), """
        - ansible.builtin.set_fact:
            share_provision_mounts: {}
            share_provision_changed: false
        """)
    write(os.path.join(c, 'playbooks', 'provision.yml'), """
        - hosts: localhost
          tasks:
            - ansible.builtin.include_role:
                name: openkeel.manila.share_provision
            - ansible.builtin.set_stats:
                data:
                  share_provision_mounts: "{{ share_provision_mounts }}"
                  provision_count: 3
        """)
    write(os.path.join(c, 'playbooks', 'provision.meta.yml'), """
        short_description: x
        description: x
        argument_specs:
          main:
            short_description: x
            set_stats:
              share_provision_mounts: {type: dict, description: x}
              provision_count: {type: int, description: x}
        """)
    mini.page('playbooks/provision.html', '<p>no table</p>')
    mini.page('collections/openkeel/manila/share_provision_role.html', '<p>no table</p>')
    # before the fix: no field table anywhere, the fields only in the role's code
    messages = mini.messages(sitecheck.check_facts)
    assert messages == [
        "does not describe share_provision_mounts, which the role sets and playbooks/provision.yml publishes",
        "share_provision_mounts is published with set_stats and has no field table: describe its fields "
        "(contains, or from_role with the role's meta/facts.yml)"], messages
    write(os.path.join(c, 'roles', 'share_provision', 'meta', 'facts.yml'), FACTS_YML)
    write(os.path.join(c, 'playbooks', 'provision.meta.yml'), """
        short_description: x
        description: x
        argument_specs:
          main:
            short_description: x
            set_stats:
              share_provision_mounts: {type: dict, description: x, from_role: openkeel.manila.share_provision}
              provision_count: {type: int, description: x}
        """)
    messages = mini.messages(sitecheck.check_facts)
    assert messages == ['has no field table for share_provision_mounts'] * 2, messages
    mini.page('playbooks/provision.html', fact_table('share_provision_mounts', ['id', 'access_rules']))
    mini.page('collections/openkeel/manila/share_provision_role.html',
              fact_table('share_provision_mounts', ['id', 'access_rules', 'access_rules.access_to']))
    assert mini.messages(sitecheck.check_facts) == [
        'the field table of share_provision_mounts lacks access_rules.access_to']
    mini.page('playbooks/provision.html',
              fact_table('share_provision_mounts', ['id', 'access_rules', 'access_rules.access_to']))
    assert mini.messages(sitecheck.check_facts) == []


def test_fact_tables_generated(mini):
    write(os.path.join(mini.collection, 'roles', 'share_provision', 'meta', 'facts.yml'), FACTS_YML)
    text = sitegen.role_facts_section(mini.collection, 'openkeel.manila', 'share_provision')
    assert text.startswith('Facts it sets\n^^^^^^^^^^^^^\n')
    assert '.. list-table:: share_provision_mounts\n   :header-rows: 1\n   :class: openkeel-fact-table' in text
    assert '* - :code:`access_rules.access_to`' in text
    assert "Each value (one per the share's name) has these fields:" in text
    assert '**share_provision_changed** (bool): x' in text


def test_support_matrix_python_per_release_and_the_tested_manila(mini):
    write(os.path.join(mini.collection, 'tests', 'matrix', 'releases.txt'),
          'ansible-core python stages\n2.19.14 3.11 all\n2.20.10 3.12 sanity\n')
    text = sitegen.support_matrix(sitegen.Facts(mini.collection))
    assert 'ansible-core 2.20 and later need Python 3.12 or later.' in text
    assert '* - 2.20\n     - 3.12 to 3.14\n     - 3.12' in text
    assert 'real Keystone 30.0.0 and these Manila releases' in text
    assert '- Manila 23.0.1 (OpenStack 2026.2, API microversions up to 2.99), with ansible-core 2.19\n' in text
    write(os.path.join(mini.collection, 'tests', 'matrix', 'releases.txt'),
          'ansible-core python stages\n2.99.1 3.11 all\n')
    with pytest.raises(ValueError, match='ANSIBLE_CORE_PYTHON'):
        sitegen.support_matrix(sitegen.Facts(mini.collection))


def test_support_matrix_names_each_real_manila_and_its_ansible_core(mini):
    write(os.path.join(mini.collection, 'tests', 'matrix', 'releases.txt'),
          'ansible-core python stages manila\n2.16.19 3.11 sanity,integration 2023.2\n'
          '2.19.14 3.11 all -\n2.21.5 3.13 integration current\n')
    text = sitegen.support_matrix(sitegen.Facts(mini.collection))
    assert ('- Manila 23.0.1 (OpenStack 2026.2, API microversions up to 2.99), with ansible-core 2.21\n'
            '- Manila 17.4.0 (OpenStack 2023.2 Bobcat, API microversions up to 2.82), with ansible-core 2.16\n') in text
    assert '* - 2023.2 Bobcat\n     - 2.82\n     - yes, with every feature below\n     - real Manila 17.4.0' in text
    assert '* - 2026.2\n     - 2.99\n     - yes, with every feature below\n     - real Manila 23.0.1' in text
    assert '* - 2024.1 Caracal\n     - 2.85\n     - yes, with every feature below\n     - capped microversion' in text
    write(os.path.join(mini.collection, 'tests', 'matrix', 'releases.txt'),
          'ansible-core python stages manila\n2.19.14 3.11 all 2024.1\n')
    with pytest.raises(ValueError, match='runs against Manila 2024.1, which tests/cloud/manila_cloud.py does not know'):
        sitegen.Facts(mini.collection)


def test_every_tested_ansible_core_has_its_pythons():
    facts = sitegen.Facts(REPO)
    for row in facts.matrix:
        low, high = sitegen.controller_pythons(row['ansible-core'], facts.min_python)
        for python in row['python'].split(','):
            assert sitecheck.version_tuple(low) <= sitecheck.version_tuple(python) <= sitecheck.version_tuple(high), \
                'tests/matrix/releases.txt tests ansible-core %s on Python %s, outside %s to %s' % (
                    row['ansible-core'], python, low, high)
    assert sitegen.release_of_manila(facts.cloud_pins['manila']) == ('2026.2', '2.99')


# ------------------------------------------------------------------ links

def test_links(mini):
    mini.page('guides/a.html', '<p><a href="b.html">b</a> <a href="missing.html">m</a> '
                               '<a href="b.html#nowhere">n</a> <a href="b.html#here">h</a></p>')
    mini.page('guides/b.html', '<p id="here">No plugins have been deprecated.</p>')
    messages = mini.problems(sitecheck.check_links)
    assert ('guides/a.html', 'a link to missing.html, which does not exist') in [(p.page, p.message) for p in messages]
    assert any("has no anchor 'nowhere'" in p.message for p in messages)
    assert not any("'here'" in p.message for p in messages)
    assert ('guides/a.html', 'no other page links to this page') in [(p.page, p.message) for p in messages]
    assert any(p.page == 'guides/b.html' and 'lists nothing' in p.message for p in messages)


# ------------------------------------------------------------------ pages

def test_pages_a_newcomer_needs(mini):
    write(os.path.join(mini.collection, 'roles', 'share_provision', 'meta', 'argument_specs.yml'), 'x: 1\n')
    write(os.path.join(mini.collection, 'playbooks', 'report.yml'), '- hosts: localhost\n')
    mini.page('collections/openkeel/manila/share_provision_role.html', '<h3>Synopsis</h3>')
    messages = mini.messages(sitecheck.check_pages)
    for expected in ('missing: a getting-started page', 'missing: the support matrix', 'missing: the changelog',
                     'missing: a page for the playbook playbooks/report.yml', 'the role page has no examples'):
        assert any(expected in m for m in messages), (expected, messages)


def test_getting_started(mini):
    first = '- name: First\n  hosts: localhost\n  tasks: []\n'
    write(os.path.join(mini.collection, 'docs', 'playbooks', 'first-share.yml'), first)
    for path in ('support-matrix.html', 'changelog.html'):
        mini.page(path, '<p>v1.2.3</p>')
    good_clouds = 'clouds:\n  mycloud:\n    auth:\n      auth_url: https://k.example:5000/v3\n      username: a\n' \
                  '      password: b\n      project_name: c\n      user_domain_name: Default\n' \
                  '      project_domain_name: Default\n'
    mini.page('index.html', '<a href="guides/getting-started.html">g</a> <a href="support-matrix.html">s</a> '
                            '<a href="changelog.html">c</a>')
    mini.page('guides/getting-started.html', '<p>ansible-galaxy collection install --offline '
                                             'openkeel-manila-1.2.3.tar.gz; pip install -r requirements.txt</p>'
              + yaml_block(good_clouds) + yaml_block(first))
    assert mini.messages(sitecheck.check_pages) == []
    mini.page('guides/getting-started.html', '<p>ansible-galaxy collection install openkeel.manila</p>'
              + yaml_block(good_clouds.replace('auth_url', 'url')) + yaml_block(first + '# changed\n'))
    messages = mini.messages(sitecheck.check_pages)
    assert any('does not show docs/playbooks/first-share.yml' in m for m in messages)
    assert any('the tarball install' in m for m in messages)
    assert any('its clouds.yaml does not load: MissingRequiredOptions' in m for m in messages)


# ------------------------------------------------------------------ examples

def test_examples_options_exist(mini):
    mini.page('guides/a.html', yaml_block("""
        - openkeel.manila.share:
            name: data
            sise: 1
            rules:
              - access_to: 10.0.0.0/24
                acces_level: ro
        """))
    assert mini.messages(sitecheck.check_examples) == [
        'an example gives the module openkeel.manila.share options it does not have: sise, rules/acces_level']


def test_examples_guide_snippet_matches_its_tested_playbook(mini):
    # the migrate guide before the fix: its snippet left out new_share_type, which the tested
    # playbook passes
    write(os.path.join(mini.collection, 'docs', 'playbooks', 'g.yml'), """
        - hosts: localhost
          tasks:
            - openkeel.manila.share:
                name: "{{ prefix }}data"
                size: 1
                timeout: 600
        """)
    link = '<a class="download" href="../_downloads/0123/g.yml">playbooks/g.yml</a>'
    mini.page('guides/a.html', link + yaml_block('- openkeel.manila.share:\n    cloud: mycloud\n    name: data\n'))
    assert any('is not a task of the tested playbook' in m for m in mini.messages(sitecheck.check_examples))
    mini.page('guides/a.html', link + yaml_block('- openkeel.manila.share:\n    cloud: mycloud\n'
                                                 '    name: data\n    size: 1\n'))
    assert mini.messages(sitecheck.check_examples) == []


# ------------------------------------------------------------------ collection playbooks

def test_playbook_meta_matches_the_playbook(mini):
    write(os.path.join(mini.collection, 'playbooks', 'report.yml'), """
        - hosts: localhost
          vars:
            report_cloud: "{{ cloud | default(none) }}"
          tasks:
            - openkeel.manila.share:
                cloud: "{{ report_cloud }}"
                name: "{{ share_name | default('x') | upper }}"
              register: made
              when: enabled | bool and made is not defined
            - ansible.builtin.set_stats:
                data:
                  report_made: "{{ made }}"
        """)
    write(os.path.join(mini.collection, 'playbooks', 'report.meta.yml'), """
        short_description: x
        description: x
        argument_specs:
          main:
            short_description: x
            options:
              cloud: {type: str, description: x}
              share_name: {type: str, description: x}
              stale: {type: str, description: x}
            examples: ''
        """)
    messages = mini.messages(sitecheck.check_playbooks)
    assert 'reads enabled, which playbooks/report.meta.yml does not describe' in messages
    assert 'playbooks/report.meta.yml describes stale, which the playbook does not read' in messages
    assert any(m.startswith('report_made: published with set_stats True, described') for m in messages)
    assert len(messages) == 3


# ------------------------------------------------------------------ the generator

def test_releases_of_microversions():
    assert sitegen.release_of_microversion('2.22') == 'Newton'
    assert sitegen.release_of_microversion('2.23') == 'Ocata'
    assert sitegen.release_of_microversion('2.29') == 'Ocata'
    assert sitegen.release_of_microversion('2.32') == 'Ocata'
    assert sitegen.release_of_microversion('2.33') == 'Pike'
    assert sitegen.release_of_microversion('2.99') == '2026.2'
    assert sitegen.release_of_microversion('2.100') is None


def test_facts_of_this_collection():
    facts = sitegen.Facts(REPO)
    assert facts.requirements['openstacksdk'].startswith('>=')
    assert facts.min_api == '2.29' and sitegen.release_of_microversion(facts.min_api) == 'Ocata'
    assert facts.constraints['ansible-core'] in facts.tested_ansible, \
        'tests/constraints.txt pins an ansible-core that tests/matrix/releases.txt does not list'
    for version in facts.tested_ansible:
        assert sitecheck.satisfies(version, facts.requires_ansible), \
            'tests/matrix/releases.txt lists ansible-core %s outside requires_ansible %s' % (
                version, facts.requires_ansible)


def test_matrix_file_errors(tmp_path):
    path = str(tmp_path / 'releases.txt')
    write(path, 'ansible-core python\n2.19.14\n')
    with pytest.raises(ValueError, match='columns'):
        sitegen.read_matrix(path)
    write(path, 'ansible-core stages\n2.19.14 all\n')
    with pytest.raises(ValueError, match="no column 'python'"):
        sitegen.read_matrix(path)


def test_support_matrix_page(mini):
    text = sitegen.support_matrix(sitegen.Facts(mini.collection))
    assert ':code:`>=2.19.0,<2.20.0`' in text
    assert '2.29, which arrived in OpenStack Ocata' in text
    assert '* - Newton\n     - 2.22\n     - no (needs 2.29)' in text
    assert 'yes, with 1 of the 2 features below (not: user messages)' in text
    assert "with Manila's experimental header below 2.96" in text


def test_install_note_points_at_the_tarball(mini, tmp_path):
    cfg = tmp_path / 'antsibull-docs.cfg'
    cfg.write_text('breadcrumbs = true\ncollection_url = {\n  * = "https://galaxy.ansible.com/{namespace}/{name}/"\n'
                   '}\n\ncollection_install = {\n  * = "ansible-galaxy collection install {namespace}.{name}"\n}\n')
    sitegen.write_config(mini.collection, str(tmp_path))
    text = cfg.read_text()
    assert '* = "ansible-galaxy collection install --offline openkeel-manila-1.2.3.tar.gz"' in text
    assert '* = "../../../guides/getting-started.html"' in text and 'galaxy.ansible.com' not in text
