# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Sphinx extension of the openkeel.manila docs site (docs/site/conf_offline.py loads it).

Links between the hand-written pages and the reference pages, both ways, for whatever the
collection holds (no list of names here):

- Every inline literal that is exactly the name of one of the collection's modules, roles or
  playbooks (``openkeel.manila.share`` in a guide) becomes a link to its page: the label that
  antsibull-docs gives a module or role page (``ansible_collections.openkeel.manila.NAME_module``,
  ``..._role``) or that docs/site/sitegen.py gives a playbook page (``..._playbook``).
- Every module, role and playbook page gets a "See also" box at the end of its synopsis that
  lists the site's own pages (guides, getting started, playbook pages) that name it.
"""

from __future__ import absolute_import, division, print_function

import os
import re

from docutils import nodes
from sphinx import addnodes

__metaclass__ = type

COLLECTION = 'openkeel.manila'
NAME_RE = re.compile(r'^%s\.([a-z_][a-z0-9_]*)$' % re.escape(COLLECTION))
LABEL_RE = re.compile(r'^ansible_collections\.%s\.([a-z_][a-z0-9_]*)_(module|role|playbook)$'
                      % re.escape(COLLECTION))
IN_CODE_RE = re.compile(r'(?<![\w./-])%s\.([a-z_][a-z0-9_]*)\b' % re.escape(COLLECTION))
KINDS = ('module', 'role', 'playbook')

# Code that is a link (a name linked by link_literals) looks like a link, not like other code.
CSS = """a.reference > code.literal, a.reference > code.literal span.pre { color: #2980b9; }
a.reference:hover > code.literal { text-decoration: underline; }
"""


def is_source_page(docname):
    """Pages whose mentions are listed on the reference pages: the site's own pages."""
    return not docname.startswith('collections/') and docname not in ('changelog', 'index')


def target_of(env, name):
    """(docname, label) of the page of NAME, trying module, role and playbook; or (None, None)."""
    labels = env.get_domain('std').anonlabels   # every label, with or without a section title
    for kind in KINDS:
        label = 'ansible_collections.%s.%s_%s' % (COLLECTION, name, kind)
        if label in labels:
            return labels[label][0], label
    return None, None


def in_reference(node):
    parent = node.parent
    while parent is not None:
        if isinstance(parent, (nodes.reference, addnodes.pending_xref)):
            return True
        parent = parent.parent
    return False


def mentioned_names(doctree):
    """Names of the collection's content that a document names: literals, references and
    code blocks (a task of a module in an example)."""
    names = set()
    for node in doctree.findall(nodes.literal):
        match = NAME_RE.match(node.astext())
        if match:
            names.add(match.group(1))
    for node in doctree.findall(nodes.literal_block):
        names.update(IN_CODE_RE.findall(node.astext()))
    for node in doctree.findall(addnodes.pending_xref):
        match = LABEL_RE.match(node.get('reftarget', ''))
        if match:
            names.add(match.group(1))
    return names


def record_mentions(app, doctree):
    env = app.env
    if not hasattr(env, 'openkeel_mentions'):
        env.openkeel_mentions = {}
    env.openkeel_mentions[env.docname] = mentioned_names(doctree)


def purge_mentions(app, env, docname):
    getattr(env, 'openkeel_mentions', {}).pop(docname, None)


def merge_mentions(app, env, docnames, other):
    if not hasattr(env, 'openkeel_mentions'):
        env.openkeel_mentions = {}
    for docname in docnames:
        if docname in getattr(other, 'openkeel_mentions', {}):
            env.openkeel_mentions[docname] = other.openkeel_mentions[docname]


def link_literals(app, doctree, docname):
    for node in list(doctree.findall(nodes.literal)):
        match = NAME_RE.match(node.astext())
        if not match or in_reference(node):
            continue
        target, _label = target_of(app.env, match.group(1))
        if target is None or target == docname:
            continue   # no such page (tests/docs reports it) or the page itself
        reference = nodes.reference('', '', internal=True,
                                    refuri=app.builder.get_relative_uri(docname, target))
        node.replace_self(reference)
        reference += node


def page_names(env, docname):
    """The names whose page DOCNAME is."""
    return sorted(match.group(1) for label, (doc, _id) in env.get_domain('std').anonlabels.items()
                  for match in [LABEL_RE.match(label)] if match and doc == docname)


def source_order(docname):
    return (0 if docname == 'guides/getting-started' else 1 if docname.startswith('guides/') else 2, docname)


def add_backlinks(app, doctree, docname):
    env = app.env
    names = page_names(env, docname)
    if not names:
        return
    mentions = getattr(env, 'openkeel_mentions', {})
    sources = sorted((doc for doc, named in mentions.items()
                      if is_source_page(doc) and doc != docname and named.intersection(names)),
                     key=source_order)
    if not sources:
        return
    items = nodes.bullet_list()
    for source in sources:
        title = env.titles[source].astext() if source in env.titles else source
        reference = nodes.reference('', title, internal=True,
                                    refuri=app.builder.get_relative_uri(docname, source))
        items += nodes.list_item('', nodes.paragraph('', '', reference))
    box = addnodes.seealso()
    box += nodes.paragraph('', 'Pages of this site that use %s:' % ', '.join(
        '%s.%s' % (COLLECTION, name) for name in names))
    box += items
    for section in doctree.findall(nodes.section):
        if section.children and section[0].astext() == 'Synopsis':
            section += box
            return
    # no synopsis (a template that changed): at the end of the page's first section
    first = next(iter(doctree.findall(nodes.section)), None)
    if first is not None:
        first += box


def resolved(app, doctree, docname):
    link_literals(app, doctree, docname)
    add_backlinks(app, doctree, docname)


def write_css(app, exception):
    if exception is None and app.builder.format == 'html':
        with open(os.path.join(app.builder.outdir, '_static', 'openkeel.css'), 'w') as f:
            f.write(CSS)


def setup(app):
    app.add_css_file('openkeel.css')
    app.connect('build-finished', write_css)
    app.connect('doctree-read', record_mentions)
    app.connect('env-purge-doc', purge_mentions)
    app.connect('env-merge-info', merge_mentions)
    app.connect('doctree-resolved', resolved)
    return {'version': '1', 'parallel_read_safe': True, 'parallel_write_safe': True}
