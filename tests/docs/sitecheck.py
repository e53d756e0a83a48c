# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Read the built documentation site as a user would, and say what is wrong with it.

    python tests/docs/sitecheck.py HTML_DIR COLLECTION_DIR

HTML_DIR is Sphinx's output (tools/test docs: $OPENKEEL_BUILD_DIR/docs/build/html), COLLECTION_DIR
the collection the site was built from. Exit status 1 when a check finds a problem. The checks
read the rendered pages (not their sources) and the collection's own files; nothing here names
a module, a role or a playbook, so what other changes add is checked the same way.

- markup:   what did not render: a backtick or Ansible/RST/MyST markup in the text, a pipe in a
            table cell, a Markdown table or link left as text
- names:    a page names one of the collection's modules, roles or playbooks
            (openkeel.manila.NAME) without linking its page, or names one that does not exist;
            a guide names one by its short name next to its kind ("the report playbook")
- versions: a version stated on a page that disagrees with requirements.txt, meta/runtime.yml,
            tests/constraints.txt, tests/matrix/releases.txt, galaxy.yml or the local test cloud's
            pins (Manila, Keystone); a Manila API microversion put in the wrong OpenStack
            release; installing from Galaxy
- links:    internal links to a page or an anchor that does not exist, pages no other page
            links to, index pages that list nothing; links to a placeholder host (example.invalid)
            on any page or in galaxy.yml
- facts:    every fact a playbook publishes with set_stats, and every fact a role describes in
            roles/ROLE/meta/facts.yml, has a field table on its page listing every field
- pages:    the pages a newcomer needs: getting started (from the index, with the tested first
            playbook and a clouds.yaml that openstacksdk reads), support matrix, changelog, a
            page per collection playbook, examples on every role page
- examples: options in the YAML examples of every page exist on the module's or role's page;
            a guide's snippet matches a task of the tested playbook it links
- playbooks: playbooks/NAME.meta.yml describes exactly the variables the playbook reads and
            what it publishes with set_stats
"""

from __future__ import absolute_import, division, print_function

import collections
import importlib.util
import os
import posixpath
import re
import sys
from html.parser import HTMLParser

import yaml

__metaclass__ = type

COLLECTION = 'openkeel.manila'
NAME_RE = re.compile(r'(?<![\w./-])%s\.([a-z_][a-z0-9_]*)\b' % re.escape(COLLECTION))
CODE_TAGS = {'code', 'pre', 'kbd', 'samp', 'tt'}
BLOCK_TAGS = {'p', 'div', 'li', 'ul', 'ol', 'tr', 'table', 'thead', 'tbody', 'h1', 'h2', 'h3',
              'h4', 'h5', 'h6', 'pre', 'dt', 'dd', 'dl', 'blockquote', 'section', 'br', 'caption'}
VOID_TAGS = {'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source',
             'track', 'wbr'}
# Sphinx's own pages are not read; the release notes are history: only their markup and links
# are checked (they name versions and modules as they were)
SPECIAL_PAGES = {'search.html', 'genindex.html', 'py-modindex.html'}
HISTORY_PAGES = {'changelog.html'}

Problem = collections.namedtuple('Problem', 'page check message')


# ------------------------------------------------------------------ HTML

class Element(object):
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    def iter(self, tag=None):
        if tag is None or self.tag == tag:
            yield self
        for child in self.children:
            if isinstance(child, Element):
                yield from child.iter(tag)

    def text(self):
        return ''.join(c if isinstance(c, str) else c.text() for c in self.children)

    def classes(self):
        return (self.attrs.get('class') or '').split()

    def ancestors(self):
        node = self.parent
        while node is not None:
            yield node
            node = node.parent


class TreeBuilder(HTMLParser):
    def __init__(self):
        HTMLParser.__init__(self, convert_charrefs=True)
        self.root = Element('#root', {}, None)
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        element = Element(tag, attrs, self.current)
        self.current.children.append(element)
        if tag not in VOID_TAGS:
            self.current = element

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Element(tag, attrs, self.current))

    def handle_endtag(self, tag):
        node = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def parse_html(text):
    builder = TreeBuilder()
    builder.feed(text)
    builder.close()
    return builder.root


class Page(object):
    """One HTML page: its tree, its main content and where it is (path relative to the site)."""

    def __init__(self, path, html):
        self.path = path
        self.root = parse_html(html)
        self.main = self.find_main()
        titles = list(self.main.iter('h1'))
        self.title = titles[0].text().replace('\uf0c1', '').strip() if titles else ''

    def find_main(self):
        for element in self.root.iter():
            if element.attrs.get('itemprop') == 'articleBody' or element.attrs.get('role') == 'main':
                return element
        return self.root

    def segments(self, element=None):
        """(text, tags of the ancestors, the innermost element) of every text in the main part."""
        def walk(node, tags):
            for child in node.children:
                if isinstance(child, str):
                    yield child, tags, node
                elif child.tag not in ('script', 'style'):
                    yield from walk(child, tags | {child.tag})
        return walk(element or self.main, frozenset())

    def lines(self):
        """The main text, a line per block (table cells joined with ' | ')."""
        out = []

        def walk(node, in_cell):
            for child in node.children:
                if isinstance(child, str):
                    out.append(child.replace('\n', ' ') if in_cell else child)
                elif child.tag in ('script', 'style'):
                    continue
                elif child.tag == 'tr':
                    out.append('\n')
                    walk(child, True)
                    out.append('\n')
                elif child.tag in ('td', 'th'):
                    out.append(' | ')
                    walk(child, True)
                elif child.tag in BLOCK_TAGS and not in_cell:
                    out.append('\n')
                    walk(child, in_cell)
                    out.append('\n')
                else:
                    walk(child, in_cell)
        walk(self.main, False)
        return [re.sub(r'[ \t\u00a0]+', ' ', line).strip() for line in ''.join(out).split('\n') if line.strip()]

    def code_blocks(self, language=None):
        """Text of the code blocks (div.highlight-LANGUAGE > ... > pre) of the main part."""
        for div in self.main.iter('div'):
            classes = div.classes()
            if any(c.startswith('highlight-') for c in classes):
                if language and not any(c == 'highlight-%s' % language or c.startswith('highlight-%s+' % language)
                                        for c in classes):
                    continue
                for pre in div.iter('pre'):
                    yield pre.text()
                    break

    def links(self):
        for a in self.root.iter('a'):
            if 'href' in a.attrs:
                yield a

    def ids(self):
        return {e.attrs['id'] for e in self.root.iter() if 'id' in e.attrs} | \
            {e.attrs['name'] for e in self.root.iter('a') if 'name' in e.attrs}

    def own_name(self):
        """The name whose page this is (a module, role or playbook page), else None."""
        match = re.match(r'^collections/%s/([a-z_][a-z0-9_]*)_(module|role)\.html$'
                         % COLLECTION.replace('.', '/'), self.path) or \
            re.match(r'^playbooks/([a-z_][a-z0-9_]*)\.html$', self.path)
        return match.group(1) if match else None


# ------------------------------------------------------------------ the site

def load_sitegen(collection):
    path = os.path.join(collection, 'docs', 'site', 'sitegen.py')
    spec = importlib.util.spec_from_file_location('openkeel_sitegen', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Site(object):
    def __init__(self, html_dir, collection):
        self.html_dir, self.collection = html_dir, collection
        self.sitegen = load_sitegen(collection)
        self.facts = self.sitegen.Facts(collection)
        self.pages = {}
        for directory, dirs, files in os.walk(html_dir):
            dirs[:] = [d for d in dirs if not d.startswith(('_', '.'))]
            for filename in files:
                if filename.endswith('.html'):
                    path = os.path.relpath(os.path.join(directory, filename), html_dir).replace(os.sep, '/')
                    if path in SPECIAL_PAGES:
                        continue
                    with open(os.path.join(directory, filename), encoding='utf-8') as f:
                        self.pages[path] = Page(path, f.read())
        runtime = self.sitegen.read_yaml(os.path.join(collection, 'meta', 'runtime.yml'))
        self.groups = set((runtime or {}).get('action_groups') or {})
        self.modules = sorted(f[:-3] for f in os.listdir(os.path.join(collection, 'plugins', 'modules'))
                              if f.endswith('.py') and not f.startswith('_'))
        roles_dir = os.path.join(collection, 'roles')
        self.roles = sorted(os.listdir(roles_dir)) if os.path.isdir(roles_dir) else []
        self.playbooks = self.sitegen.playbook_names(collection)

    def content_pages(self):
        return [p for path, p in sorted(self.pages.items()) if path not in HISTORY_PAGES]

    def module_page(self, name):
        return self.pages.get('collections/%s/%s_module.html' % (COLLECTION.replace('.', '/'), name))

    def role_page(self, name):
        return self.pages.get('collections/%s/%s_role.html' % (COLLECTION.replace('.', '/'), name))


# ------------------------------------------------------------------ checks: markup

ANSIBLE_MARKUP_RE = re.compile(r'(?<![\w$])(?:RV|[MOVCIBULEP])\([^()\s][^()]*\)')
ROLE_RE = re.compile(r':(?:ref|doc|term|code|literal|ansplugin|ansopt|ansretval|ansval|ansenvvar|envvar|samp|file)(?::|`)')
MYST_ROLE_RE = re.compile(r'\{(?:ref|doc|term|code|literalinclude|eval-rst)\}')
DIRECTIVE_RE = re.compile(r'(?:^|\s)\.\. [a-z][a-z-]*::')
MD_LINK_RE = re.compile(r'\]\((?:[^)\s]+)\)')
MD_BOLD_RE = re.compile(r'(?:^|\s)\*\*\S')


def check_markup(site):
    problems = []
    for page in [p for _path, p in sorted(site.pages.items())]:
        for text, tags, element in page.segments():
            in_code = bool(tags & CODE_TAGS)
            if 'pre' in tags:
                continue
            snippet = text.strip()[:80]
            if not in_code:
                if '`' in text:
                    problems.append(Problem(page.path, 'markup', 'a stray backtick in the text: %r' % snippet))
                if ('td' in tags or 'th' in tags) and '|' in text:
                    problems.append(Problem(page.path, 'markup', 'a pipe in a table cell (a cell cut in two?): %r'
                                            % snippet))
                for pattern, what in ((ROLE_RE, 'an RST role'), (MYST_ROLE_RE, 'a MyST role'),
                                      (DIRECTIVE_RE, 'an RST directive'), (MD_LINK_RE, 'a Markdown link'),
                                      (MD_BOLD_RE, 'Markdown emphasis')):
                    if pattern.search(text):
                        problems.append(Problem(page.path, 'markup', '%s left as text: %r' % (what, snippet)))
            match = ANSIBLE_MARKUP_RE.search(text)
            if match:
                problems.append(Problem(page.path, 'markup', 'Ansible markup left as text: %r' % match.group(0)))
        for paragraph in page.main.iter('p'):
            if any(a.tag in ('table', 'pre') for a in paragraph.ancestors()):
                continue
            for line in paragraph.text().splitlines():
                line = line.strip()
                if re.match(r'^\|.*\|$', line) or re.search(r'\|\s*:?-{3,}:?\s*\|', line):
                    problems.append(Problem(page.path, 'markup', 'a Markdown table left as text: %r' % line[:80]))
    return problems


# ------------------------------------------------------------------ checks: names

def check_names(site):
    """Every name of a module, role or playbook of the collection is a link to its page."""
    problems = []
    known = set(site.modules) | set(site.roles) | set(site.playbooks)
    for page in site.content_pages():
        own = page.own_name()
        linked, in_examples = set(), set()
        unlinked = []
        for text, tags, element in page.segments():
            if 'pre' in tags:
                in_examples.update(NAME_RE.findall(text))
                continue
            in_link = 'a' in tags
            for match in NAME_RE.finditer(text):
                name = match.group(1)
                if name in site.groups or name == own:
                    continue
                if name not in known:
                    problems.append(Problem(page.path, 'names', '%s.%s is not a module, role or playbook of the '
                                            'collection' % (COLLECTION, name)))
                elif in_link:
                    linked.add(name)
                else:
                    exact = bool(tags & CODE_TAGS) and code_text(element).strip() == match.group(0)
                    unlinked.append((name, exact or not (tags & CODE_TAGS), text.strip()[:80]))
        for name, must_link, snippet in unlinked:
            # a name inside longer code (a command line) is fine when the page links it elsewhere
            if must_link or name not in linked:
                problems.append(Problem(page.path, 'names', 'names %s.%s without linking its page: %r'
                                        % (COLLECTION, name, snippet)))
        # what an example uses, the page links (so that a reader finds its options)
        for name in sorted(in_examples & known - linked - {own} - {n for n, _m, _s in unlinked}):
            problems.append(Problem(page.path, 'names', 'an example uses %s.%s, and the page links its page '
                                    'nowhere' % (COLLECTION, name)))
    return problems


def check_backlinks(site):
    """A module, role or playbook page links back to every page of the site that links it."""
    problems = []
    for page in site.content_pages():
        if page.own_name() or page.path.startswith('collections/') or page.path == 'index.html':
            continue   # reference pages and indexes link each other by themselves
        for a in page.links():
            href = a.attrs['href'].partition('#')[0]
            if not href or re.match(r'^[a-z][a-z0-9+.-]*:', href, re.I):
                continue
            target = site.pages.get(posixpath.normpath(posixpath.join(posixpath.dirname(page.path), href)))
            if target is None or not target.own_name() or links_to(target, page.path):
                continue
            problems.append(Problem(target.path, 'names', 'does not link back to %s, which links it' % page.path))
    return sorted(set(problems))


def code_text(element):
    """The whole text of the code element that ELEMENT is in."""
    node = element
    while node is not None and node.tag not in CODE_TAGS:
        node = node.parent
    return (node or element).text()


SHORT_NAME_KINDS = {'role': 'roles', 'playbook': 'playbooks', 'module': 'modules', 'task': 'modules'}


def check_short_names(site):
    """A guide that names a role, playbook or module by its short name ("the share_provision
    role", "the report playbook") links its page: the full name does (openkeel.manila.NAME)."""
    problems = []
    kinds = '|'.join(SHORT_NAME_KINDS)
    for page in site.content_pages():
        if page.path.startswith('collections/') or page.own_name():
            continue
        for code in page.main.iter('code'):
            if any(a.tag in ('a', 'pre') for a in code.ancestors()):
                continue
            name = code.text().strip()
            if not re.match(r'^[a-z_][a-z0-9_]*$', name):
                continue
            context = code.parent.text() if code.parent is not None else ''
            for match in re.finditer(r'\b(?:(%s)s?\s+%s\b|%s\s+(%s)s?\b)' % (kinds, re.escape(name), re.escape(name), kinds),
                                     context):
                kind = match.group(1) or match.group(2)
                if name in getattr(site, SHORT_NAME_KINDS[kind]):
                    what = 'module' if kind == 'task' else kind
                    problems.append(Problem(page.path, 'names', 'names the %s %s without linking its page: write '
                                            '%s.%s (%r)' % (what, name, COLLECTION, name, match.group(0))))
                    break
    return sorted(set(problems))


# ------------------------------------------------------------------ checks: facts

FACT_TABLE_CLASS = 'openkeel-fact-table'


def fact_tables(page):
    """{caption: [first-column texts]} of the fact tables (docs/site/sitegen.py) of a page."""
    found = {}
    for table in page.main.iter('table'):
        if FACT_TABLE_CLASS not in table.classes():
            continue
        captions = list(table.iter('caption'))
        caption = captions[0].text().replace('\uf0c1', '').strip() if captions else ''
        rows = []
        for body in table.iter('tbody'):
            for tr in body.iter('tr'):
                cells = [c for c in tr.children if not isinstance(c, str) and c.tag == 'td']
                if cells:
                    rows.append(cells[0].text().strip())
        found[caption] = rows
    return found


def role_sets(collection, role):
    """The facts the tasks of a role set with set_fact."""
    names = set()
    tasks_dir = os.path.join(collection, 'roles', role, 'tasks')
    for filename in sorted(os.listdir(tasks_dir)) if os.path.isdir(tasks_dir) else []:
        if filename.endswith(('.yml', '.yaml')):
            with open(os.path.join(tasks_dir, filename)) as f:
                for task in tasks_in(yaml.safe_load(f)):
                    for key in ('ansible.builtin.set_fact', 'set_fact'):
                        if isinstance(task.get(key), dict):
                            names.update(task[key])
    return names


def fact_problems(page, where, name, fact):
    """The fact table of NAME on PAGE lists the fields of FACT."""
    fields = [path for path, _field in fact_paths(fact)]
    if not fields:
        if fact.get('type') in ('dict', 'list'):
            return [Problem(where, 'facts', '%s (%s) has no fields described (contains), so no field table'
                            % (name, fact.get('type')))]
        return []
    if page is None:
        return []
    tables = fact_tables(page)
    if name not in tables:
        return [Problem(page.path, 'facts', 'has no field table for %s' % name)]
    missing = [f for f in fields if f not in tables[name]]
    return [Problem(page.path, 'facts', 'the field table of %s lacks %s' % (name, ', '.join(missing)))] if missing else []


def fact_paths(fact, prefix=''):
    for key, field in ((fact or {}).get('contains') or {}).items():
        yield prefix + key, field
        yield from fact_paths(field, prefix + key + '.')


def check_facts(site):
    """Every fact a playbook publishes with set_stats, and every fact a role documents, has a
    field table on its page; a role fact that a playbook publishes is documented by the role."""
    problems = []
    for role in site.roles:
        for name, fact in site.sitegen.role_facts(site.collection, role).items():
            problems.extend(fact_problems(site.role_page(role), 'roles/%s/meta/facts.yml' % role, name, fact))
    for name in site.playbooks:
        try:
            _path, _meta, spec, plays = site.sitegen.read_playbook(site.collection, name)
        except SystemExit:
            continue   # check_playbooks reports it
        _modules, roles, published = site.sitegen.playbook_uses(plays, COLLECTION)
        described = spec.get('set_stats') or {}
        where = 'playbooks/%s.meta.yml' % name
        for key in published:
            info = described.get(key) or {}
            setters = [r.rsplit('.', 1)[-1] for r in roles if key in role_sets(site.collection, r.rsplit('.', 1)[-1])]
            for role in setters:
                if key not in site.sitegen.role_facts(site.collection, role):
                    problems.append(Problem('roles/%s/meta/facts.yml' % role, 'facts', 'does not describe %s, which '
                                            'the role sets and playbooks/%s.yml publishes' % (key, name)))
            if info.get('from_role'):
                info = site.sitegen.role_facts(site.collection, info['from_role'].rsplit('.', 1)[-1]).get(key) or {}
                if not info:
                    problems.append(Problem(where, 'facts', '%s is from_role %s, which does not describe it'
                                            % (key, described[key]['from_role'])))
                    continue
            elif not info.get('contains'):
                if info.get('type') not in (None, 'raw', 'dict', 'list'):
                    continue   # a plain value (a number, a text) has no fields
                problems.append(Problem(where, 'facts', '%s is published with set_stats and has no field table: '
                                        'describe its fields (contains, or from_role with the role\'s '
                                        'meta/facts.yml)' % key))
                continue
            problems.extend(fact_problems(site.pages.get('playbooks/%s.html' % name), where, key, info))
    return problems


# ------------------------------------------------------------------ checks: placeholder hosts

PLACEHOLDER_HOST_RE = re.compile(r'\b(?:https?://)?(?:[\w-]+\.)*(?:[\w-]+\.(?:invalid|example)|example\.(?:com|org|net))'
                                 r'(?=[/:\s"\')]|$)', re.I)
GALAXY_LINKS = ('repository', 'documentation', 'homepage', 'issues')


def check_placeholder_hosts(site):
    """No link of galaxy.yml or of any page (the changelog too) to a placeholder host
    (example.invalid, *.example, example.com): Galaxy and the site show them as links."""
    problems = []
    galaxy = site.sitegen.read_yaml(os.path.join(site.collection, 'galaxy.yml')) or {}
    for field in GALAXY_LINKS:
        if galaxy.get(field) and PLACEHOLDER_HOST_RE.search(str(galaxy[field])):
            problems.append(Problem('galaxy.yml', 'links', '%s is a placeholder: %s (a working link or none)'
                                    % (field, galaxy[field])))
    for path, page in sorted(site.pages.items()):
        hosts = set()
        for a in page.links():
            match = PLACEHOLDER_HOST_RE.search(a.attrs['href'])
            if match and re.match(r'^[a-z][a-z0-9+.-]*:', a.attrs['href'], re.I):
                hosts.add(a.attrs['href'])
        for href in sorted(hosts):
            problems.append(Problem(path, 'links', 'links a placeholder host: %s' % href))
    return problems


# ------------------------------------------------------------------ checks: versions

def version_tuple(text):
    return tuple(int(p) for p in re.findall(r'\d+', text))


def same_version(a, b):
    """'4.22' == '4.22.0'; '2.19' == '2.19.0'."""
    ta, tb = version_tuple(a), version_tuple(b)
    n = max(len(ta), len(tb))
    return ta + (0,) * (n - len(ta)) == tb + (0,) * (n - len(tb))


def is_prefix(short, full):
    """'4.22' is a prefix of '4.22.0'; '2.19' of '2.19.14'."""
    ts, tf = version_tuple(short), version_tuple(full)
    return tf[:len(ts)] == ts


def spec_parts(spec):
    """'>=2.19.0,<2.20.0' -> {('>=', (2, 19, 0)), ('<', (2, 20, 0))} (versions padded to 3)."""
    parts = set()
    for part in re.split(r'\s*,\s*', spec.strip().strip('\'"')):
        match = re.match(r'^(>=|<=|==|!=|~=|>|<)\s*([\d.]+)$', part)
        if match:
            version = version_tuple(match.group(2))
            parts.add((match.group(1), version + (0,) * (3 - len(version))))
    return parts


def satisfies(version, spec):
    version = version_tuple(version)
    version = version + (0,) * (3 - len(version))
    ops = {'>=': lambda a, b: a >= b, '>': lambda a, b: a > b, '<=': lambda a, b: a <= b,
           '<': lambda a, b: a < b, '==': lambda a, b: a == b, '!=': lambda a, b: a != b}
    return all(ops.get(op, lambda a, b: True)(version, bound) for op, bound in spec_parts(spec))


SPEC = r'((?:>=|<=|==|!=|~=|>|<)\s*\d+(?:\.\d+)*(?:\s*,\s*(?:>=|<=|==|!=|~=|>|<)\s*\d+(?:\.\d+)*)*)'


def check_versions(site):
    facts = site.facts
    problems = []
    releases = site.sitegen.release_names()
    release_re = re.compile(r'\b(2\.\d{1,3})\b(?![\d.]).{0,60}?(?<![\w.])(%s)(?![\w.]*\d)'
                            % '|'.join(re.escape(r) for r in releases))
    for page in site.content_pages():
        found = []
        for line in page.lines():
            found.extend(version_problems(line, facts, site.sitegen, release_re))
        for message in sorted(set(found)):
            problems.append(Problem(page.path, 'versions', message))
    return problems


def version_problems(line, facts, sitegen, release_re):
    out = []
    for package in ('openstacksdk', 'keystoneauth1'):
        required = sitegen.lower_bound(facts.requirements.get(package, ''))
        tested = facts.constraints.get(package)
        for match in re.finditer(r'\b%s\s*(>=|≥|==)?\s*v?(\d+\.\d+(?:\.\d+)*)' % package, line, re.I):
            op, version = match.group(1), match.group(2)
            if op in ('>=', '≥'):
                if not required or not same_version(version, required):
                    out.append('says %s >= %s; requirements.txt says %s' % (package, version, required))
            elif not ((required and is_prefix(version, required)) or (tested and is_prefix(version, tested))):
                out.append('names %s %s; requirements.txt requires >= %s, the tests use %s'
                           % (package, version, required, tested))
    for match in re.finditer(r'(?:\bansible-core|\brequires_ansible\W{0,4})\s*' + SPEC, line):
        if spec_parts(match.group(1)) != spec_parts(facts.requires_ansible):
            out.append('says ansible-core %s; requires_ansible in meta/runtime.yml is %s'
                       % (match.group(1), facts.requires_ansible))
    for match in re.finditer(r'\bansible-core\s+v?(\d+\.\d+(?:\.\d+)?)\b(?![\d.])', line):
        version = match.group(1)
        tested = [v for v in facts.tested_ansible if is_prefix(version, v)]
        if not tested:
            out.append('names ansible-core %s; the tested releases are %s (tests/matrix/releases.txt)'
                       % (version, ', '.join(facts.tested_ansible)))
    for match in re.finditer(r'\bpython\s*(>=|≥)\s*(\d+\.\d+)', line, re.I):
        if not same_version(match.group(2), facts.min_python):
            out.append('says python >= %s; the oldest tested Python is %s (tests/matrix/releases.txt)'
                       % (match.group(2), facts.min_python))
    for match in re.finditer(r'\bpython\s?(3\.\d+)\b(?![\d.])', line, re.I):
        if match.group(1) not in facts.tested_pythons:
            out.append('names Python %s; the tested Pythons are %s (tests/matrix/releases.txt)'
                       % (match.group(1), ', '.join(facts.tested_pythons)))
    for match in re.finditer(r'%s-(\d+\.\d+\.\d+)\.tar\.gz' % re.escape(facts.tarball.split('-%s' % facts.version)[0]),
                             line):
        if match.group(1) != facts.version:
            out.append('names the tarball of version %s; galaxy.yml says %s' % (match.group(1), facts.version))
    for service in ('manila', 'keystone'):
        pinned = facts.cloud_pins.get(service)
        known = [pinned] + (sorted(facts.release_pins.values()) if service == 'manila' else [])
        for match in re.finditer(r'(?<![\w.])%s\s+v?(\d+\.\d+\.\d+)\b' % service, line, re.I):
            if match.group(1) not in known:
                out.append('names %s %s; the local test cloud installs %s (%s)'
                           % (service.capitalize(), match.group(1), ' or '.join(known), '/'.join(sitegen.CLOUD_PINS)))
    for match in release_re.finditer(line):
        version, release = match.group(1), match.group(2)
        expected = sitegen.release_of_microversion(version)
        if expected is None or release not in expected.split(' '):
            out.append('puts Manila API %s in %s; it arrived in %s' % (version, release, expected or 'a later release'))
    if re.search(r'ansible-galaxy collection install\s+(?:-\S+\s+)*%s(?![\w-]|\.\w)' % re.escape(COLLECTION), line):
        out.append('installs %s from Galaxy, where it is not published; install the tarball (%s)'
                   % (COLLECTION, facts.tarball))
    return out


# Claims that were once on these pages and are false; each with the reason.
FALSE_CLAIMS = [
    (re.compile(r'Settings\W+Jobs\W+Galaxy credentials', re.I),
     'AWX takes Galaxy credentials from the organization that owns the project '
     '(Access > Organizations > Galaxy Credentials), not from Settings'),
]


def check_claims(site):
    problems = []
    for page in site.content_pages():
        text = '\n'.join(page.lines())
        for pattern, why in FALSE_CLAIMS:
            match = pattern.search(text)
            if match:
                problems.append(Problem(page.path, 'versions', '%r: %s' % (match.group(0), why)))
    return problems


def check_galaxy_links(site):
    problems = []
    for page in site.content_pages():
        for a in page.links():
            if re.match(r'^https?://galaxy\.ansible\.com/.*%s' % COLLECTION.replace('.', '[./]'), a.attrs['href']):
                problems.append(Problem(page.path, 'versions', 'links %s on Galaxy, where it is not published: %s'
                                        % (COLLECTION, a.attrs['href'])))
    return problems


# ------------------------------------------------------------------ checks: links

def check_links(site):
    problems = []
    linked_from = collections.defaultdict(set)
    ids = {}
    for path, page in site.pages.items():
        for a in page.links():
            href = a.attrs['href']
            if re.match(r'^[a-z][a-z0-9+.-]*:', href, re.I) or href.startswith('/'):
                continue   # another site, mailto:, or the theme's absolute root link
            target, _sep, fragment = href.partition('#')
            target_path = posixpath.normpath(posixpath.join(posixpath.dirname(path), target)) if target else path
            if target_path != path:
                linked_from[target_path].add(path)
            full = os.path.join(site.html_dir, target_path)
            if not os.path.exists(full):
                problems.append(Problem(path, 'links', 'a link to %s, which does not exist' % href))
                continue
            if fragment and target_path.endswith('.html'):
                if target_path not in ids:
                    other = site.pages.get(target_path)
                    if other is None:
                        with open(full, encoding='utf-8') as f:
                            other = Page(target_path, f.read())
                    ids[target_path] = other.ids()
                if fragment not in ids[target_path]:
                    problems.append(Problem(path, 'links', 'a link to %s: %s has no anchor %r'
                                            % (href, target_path, fragment)))
    for path, page in sorted(site.pages.items()):
        if path != 'index.html' and not linked_from.get(path):
            problems.append(Problem(path, 'links', 'no other page links to this page'))
        text = page.main.text()
        for empty_text in site.sitegen.EMPTY_INDEXES.values():
            if empty_text in text:
                problems.append(Problem(path, 'links', 'an index that lists nothing: %r' % empty_text))
    return problems


# ------------------------------------------------------------------ checks: pages a newcomer needs

GETTING_STARTED = 'guides/getting-started.html'
FIRST_PLAYBOOK = os.path.join('docs', 'playbooks', 'first-share.yml')


def links_to(page, target):
    for a in page.links():
        href = a.attrs['href'].partition('#')[0]
        if href and posixpath.normpath(posixpath.join(posixpath.dirname(page.path), href)) == target:
            return True
    return False


def check_pages(site):
    problems = []
    index = site.pages.get('index.html')
    wanted = [(GETTING_STARTED, 'a getting-started page'), ('support-matrix.html', 'the support matrix'),
              ('changelog.html', 'the changelog')]
    for name in site.playbooks:
        wanted.append(('playbooks/%s.html' % name, 'a page for the playbook playbooks/%s.yml' % name))
    for path, what in wanted:
        if path not in site.pages:
            problems.append(Problem(path, 'pages', 'missing: %s' % what))
        elif index is not None and not links_to(index, path):
            problems.append(Problem('index.html', 'pages', 'does not link %s (%s)' % (path, what)))
    changelog = site.pages.get('changelog.html')
    if changelog is not None and 'v%s' % site.facts.version not in changelog.main.text():
        problems.append(Problem('changelog.html', 'pages', 'has no section v%s' % site.facts.version))
    for role in site.roles:
        page = site.role_page(role)
        if page is None:
            problems.append(Problem('collections/', 'pages', 'the role %s has no page' % role))
        elif not any(h.text().strip().rstrip('\uf0c1').strip() == 'Examples' for tag in ('h2', 'h3', 'h4')
                     for h in page.main.iter(tag)) or not list(page.code_blocks('yaml')):
            problems.append(Problem(page.path, 'pages', 'the role page has no examples (examples: in '
                                    'roles/%s/meta/argument_specs.yml)' % role))
    page = site.pages.get(GETTING_STARTED)
    if page is not None:
        problems.extend(getting_started_problems(site, page))
    return problems


def normalize_code(text):
    return '\n'.join(line.rstrip() for line in text.strip().splitlines())


def getting_started_problems(site, page):
    problems = []
    path = os.path.join(site.collection, FIRST_PLAYBOOK)
    if not os.path.exists(path):
        return [Problem(page.path, 'pages', '%s is missing' % FIRST_PLAYBOOK)]
    with open(path) as f:
        playbook = normalize_code(f.read())
    blocks = [normalize_code(b) for b in page.code_blocks()]
    if playbook not in blocks:
        problems.append(Problem(page.path, 'pages', 'does not show %s as the tests run it' % FIRST_PLAYBOOK))
    text = '\n'.join(page.lines())
    for needed, what in (('ansible-galaxy collection install --offline %s' % site.facts.tarball, 'the tarball install'),
                         ('requirements.txt', 'installing requirements.txt')):
        if needed not in text:
            problems.append(Problem(page.path, 'pages', 'does not show %s (%r)' % (what, needed)))
    clouds = [b for b in page.code_blocks('yaml') if re.match(r'^\s*clouds:', b)]
    if not clouds:
        problems.append(Problem(page.path, 'pages', 'shows no clouds.yaml'))
    for block in clouds:
        error = clouds_yaml_error(block)
        if error:
            problems.append(Problem(page.path, 'pages', 'its clouds.yaml does not load: %s' % error))
    return problems


def clouds_yaml_error(text):
    """None when openstacksdk's config loader accepts every cloud of a clouds.yaml, else why not."""
    import tempfile
    import warnings
    warnings.filterwarnings('ignore', module='openstack')   # its deprecation notes are not ours
    try:
        from openstack import config as os_config
    except ImportError:   # the test venv has openstacksdk: this is only for other interpreters
        return 'openstacksdk is not installed here'
    try:
        data = yaml.safe_load(text)
        names = list((data or {}).get('clouds') or {})
        if not names:
            return 'no cloud in it'
        with tempfile.NamedTemporaryFile('w', suffix='.yaml') as f:
            f.write(text)
            f.flush()
            loader = os_config.OpenStackConfig(config_files=[f.name], vendor_files=[], load_envvars=False)
            for name in names:
                region = loader.get_one(cloud=name)
                region.get_auth()   # the auth plugin is built from the options: unknown ones fail here
    except Exception as error:  # noqa: BLE001 - any failure is the answer
        return '%s: %s' % (type(error).__name__, error)
    return None


# ------------------------------------------------------------------ checks: examples

ROLE_ACTIONS = ('ansible.builtin.include_role', 'ansible.builtin.import_role', 'include_role', 'import_role')


def anchors(page, prefix):
    """Option paths of a module or role page: {'rules', 'rules/access_to', ...}."""
    found = set()
    for element in page.root.iter():
        value = element.attrs.get('id', '')
        if 'ansibleOptionAnchor' in element.classes() and value.startswith(prefix):
            found.add(value[len(prefix):])
    return found


def option_problems(args, options, path=''):
    out = []
    if not isinstance(args, dict):
        return out
    for key, value in args.items():
        full = path + key
        if full not in options:
            out.append(full)
            continue
        nested = {o for o in options if o.startswith(full + '/')}
        if not nested:
            continue
        for item in (value if isinstance(value, list) else [value]):
            out.extend(option_problems(item, options, full + '/'))
    return out


def tasks_in(data):
    """Every dict of a YAML document that is a task or a play (recursively)."""
    if isinstance(data, dict):
        yield data
        for value in data.values():
            yield from tasks_in(value)
    elif isinstance(data, list):
        for item in data:
            yield from tasks_in(item)


def example_uses(data):
    """(kind, name, options) for every use of the collection's modules and roles in YAML."""
    prefix = COLLECTION + '.'
    for task in tasks_in(data):
        for key, value in task.items():
            if isinstance(key, str) and key.startswith(prefix) and (isinstance(value, dict) or value is None):
                yield 'module', key[len(prefix):], value or {}
            elif key in ROLE_ACTIONS and isinstance(value, dict) and str(value.get('name', '')).startswith(prefix):
                yield 'role', value['name'][len(prefix):], task.get('vars') or {}
            elif key == 'role' and isinstance(value, str) and value.startswith(prefix):
                yield 'role', value[len(prefix):], task.get('vars') or {}


def check_examples(site):
    problems = []
    for page in site.content_pages():
        for block in page.code_blocks('yaml'):
            if COLLECTION + '.' not in block:
                continue
            try:
                data = yaml.safe_load(block)
            except yaml.YAMLError as error:
                problems.append(Problem(page.path, 'examples', 'a YAML example that does not parse: %s'
                                        % str(error).split('\n', maxsplit=1)[0]))
                continue
            for kind, name, args in example_uses(data):
                problems.extend(use_problems(site, page, kind, name, args))
        if page.path.startswith('guides/'):
            problems.extend(snippet_problems(site, page))
    return problems


def use_problems(site, page, kind, name, args):
    if kind == 'module':
        reference = site.module_page(name)
        prefix = 'parameter-'
    else:
        reference = site.role_page(name)
        prefix = 'parameter-main--'
    if reference is None:
        return [Problem(page.path, 'examples', 'an example uses the %s %s.%s, which has no page'
                        % (kind, COLLECTION, name))]
    unknown = option_problems(args, anchors(reference, prefix))
    return [Problem(page.path, 'examples', 'an example gives the %s %s.%s options it does not have: %s'
                    % (kind, COLLECTION, name, ', '.join(unknown)))] if unknown else []


# options a snippet may leave out although its tested playbook sets them (or the reverse)
SNIPPET_OPTIONAL = {'cloud', 'timeout', 'wait'}


def snippet_problems(site, page):
    """A guide's YAML snippets show tasks of the playbook it links (which the tests run)."""
    playbooks = set()
    for a in page.links():
        match = re.search(r'([\w.-]+\.yml)$', a.attrs['href'])
        if match and '_downloads/' in a.attrs['href']:
            playbooks.add(match.group(1))
    tested, wholes = [], set()
    for name in sorted(playbooks):
        path = os.path.join(site.collection, 'docs', 'playbooks', name)
        if os.path.exists(path):
            with open(path) as f:
                text = f.read()
            wholes.add(normalize_code(text))
            tested.extend((n, set(a)) for k, n, a in example_uses(yaml.safe_load(text)) if k == 'module')
    if not tested:
        return []
    problems = []
    for block in page.code_blocks('yaml'):
        if normalize_code(block) in wholes or COLLECTION + '.' not in block:
            continue
        try:
            data = yaml.safe_load(block)
        except yaml.YAMLError:
            continue
        for kind, name, args in example_uses(data):
            keys = set(args)
            if kind != 'module' or not keys - SNIPPET_OPTIONAL:
                continue
            if not any(n == name and keys - SNIPPET_OPTIONAL <= t and t - keys <= SNIPPET_OPTIONAL
                       for n, t in tested):
                closest = [sorted(t) for n, t in tested if n == name]
                problems.append(Problem(page.path, 'examples', 'a snippet of %s.%s with the options %s is not a '
                                        'task of the tested playbook (%s: %s)'
                                        % (COLLECTION, name, ', '.join(sorted(keys)), ', '.join(sorted(playbooks)),
                                           closest or 'no task of that module')))
    return problems


# ------------------------------------------------------------------ checks: collection playbooks

CONDITIONAL_KEYS = ('when', 'that', 'failed_when', 'changed_when', 'until')
MAGIC_VARIABLES = {'item', 'omit', 'hostvars', 'groups', 'group_names', 'inventory_hostname',
                   'inventory_hostname_short', 'playbook_dir', 'role_name', 'role_path', 'lookup',
                   'query', 'q', 'now', 'undef', 'range', 'dict', 'lipsum', 'cycler', 'joiner',
                   'namespace', 'true', 'false', 'none', 'True', 'False', 'None'}


class _AnyName(dict):
    """Filters and tests of Ansible that plain Jinja does not know: all are accepted."""

    def __contains__(self, name):
        return True

    def __getitem__(self, name):
        return dict.get(self, name) or _anything

    def get(self, name, default=None):
        return dict.get(self, name) or _anything


def _anything(*args, **kwargs):
    return None


def jinja_names(text):
    import jinja2
    from jinja2 import meta
    environment = jinja2.Environment(extensions=['jinja2.ext.do', 'jinja2.ext.loopcontrols'])
    environment.filters = _AnyName(environment.filters)
    environment.tests = _AnyName(environment.tests)
    return meta.find_undeclared_variables(environment.parse(text))


def playbook_inputs(plays):
    """The variables a playbook reads that it does not set itself (its inputs)."""
    declared, read, roles = set(MAGIC_VARIABLES), set(), set()

    def strings(value, key=None):
        if isinstance(value, dict):
            for k, v in value.items():
                yield from strings(v, k)
        elif isinstance(value, list):
            for v in value:
                yield from strings(v, key)
        elif isinstance(value, str):
            if key in CONDITIONAL_KEYS:
                yield '{{ %s }}' % value
            elif '{{' in value or '{%' in value:
                yield value

    for play in plays or []:
        declared.update((play.get('vars') or {}).keys())
        for task in tasks_in(play):
            if isinstance(task.get('register'), str):
                declared.add(task['register'])
            declared.update((task.get('vars') or {}).keys() if isinstance(task.get('vars'), dict) else ())
            for key in ('ansible.builtin.set_fact', 'set_fact'):
                if isinstance(task.get(key), dict):
                    declared.update(task[key].keys())
            loop_control = task.get('loop_control')
            if isinstance(loop_control, dict) and loop_control.get('loop_var'):
                declared.add(loop_control['loop_var'])
            for key in ROLE_ACTIONS:
                if isinstance(task.get(key), dict):
                    roles.add(str(task[key].get('name', '')).rsplit('.', maxsplit=1)[-1])
        for text in strings(play):
            read.update(jinja_names(text))
    inputs = {n for n in read - declared if not n.startswith('ansible_')}
    return {n for n in inputs if not any(n.startswith(role + '_') for role in roles if role)}


def check_playbooks(site):
    problems = []
    for name in site.playbooks:
        where = 'playbooks/%s.yml' % name
        try:
            path, meta, spec, plays = site.sitegen.read_playbook(site.collection, name)
        except SystemExit as error:
            problems.append(Problem(where, 'playbooks', str(error)))
            continue
        documented = set((spec.get('options') or {}).keys())
        inputs = playbook_inputs(plays)
        for variable in sorted(inputs - documented):
            problems.append(Problem(where, 'playbooks', 'reads %s, which playbooks/%s.meta.yml does not describe'
                                    % (variable, name)))
        for variable in sorted(documented - inputs):
            problems.append(Problem(where, 'playbooks', 'playbooks/%s.meta.yml describes %s, which the playbook '
                                    'does not read' % (name, variable)))
        _modules, _roles, published = site.sitegen.playbook_uses(plays, COLLECTION)
        described = set((spec.get('set_stats') or {}).keys())
        for key in sorted(set(published) ^ described):
            problems.append(Problem(where, 'playbooks', '%s: published with set_stats %s, described in set_stats '
                                    'of the .meta.yml %s' % (key, key in published, key in described)))
    return problems


# ------------------------------------------------------------------ all

CHECKS = [check_markup, check_names, check_short_names, check_backlinks, check_versions, check_claims, check_galaxy_links,
          check_placeholder_hosts, check_links, check_pages, check_examples, check_playbooks, check_facts]


def check_site(html_dir, collection, checks=None):
    site = Site(html_dir, collection)
    problems = []
    for check in checks or CHECKS:
        problems.extend(check(site))
    return problems


def report(problems):
    lines = []
    for page in sorted({p.page for p in problems}):
        lines.append(page)
        for problem in [p for p in problems if p.page == page]:
            lines.append('  [%s] %s' % (problem.check, problem.message))
    return '\n'.join(lines)


def main(argv):
    if len(argv) != 2:
        raise SystemExit(__doc__)
    problems = check_site(argv[0], argv[1])
    if problems:
        print(report(problems))
        print('%d problem(s)' % len(problems))
        return 1
    print('no problems')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
