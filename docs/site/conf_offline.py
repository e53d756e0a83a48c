# Appended by `tools/test docs` to the conf.py that `antsibull-docs sphinx-init` generates,
# so that the site builds on a machine without internet access, with nitpicky kept on and
# every warning an error (sphinx-build -W).
#
# - intersphinx: the generated mapping (docs.python.org, jinja, docs.ansible.com) would make
#   Sphinx download inventories, which fails offline with one warning per inventory. It is
#   emptied: the pages refer to nothing in Python's or Jinja's docs.
# - The generated pages refer to labels of the Ansible documentation (common_return_values,
#   ansible_configuration_settings; action_plugins on the page of a module with an action
#   plugin, share_transfer) that only the docs.ansible.com
#   inventory would resolve. They are linked here directly to their pages, so the site keeps
#   working links. Any other unresolved reference still fails the build (nitpicky = True).
# - The guides (docs/*.md) are Markdown: myst-parser reads them.
# - openkeel_sphinx (docs/site/openkeel_sphinx.py, copied next to conf.py) links the names of
#   modules, roles and playbooks on every page to their pages, and lists on those pages the
#   guides that use them.

import os
import sys

from docutils import nodes

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

intersphinx_mapping = {}

nitpicky = True

ANSIBLE_DOCS_URL = 'https://docs.ansible.com/projects/ansible/devel/'

# label: (page below ANSIBLE_DOCS_URL, title used when the reference gives none)
ANSIBLE_DOCS_LABELS = {
    'common_return_values': (
        'reference_appendices/common_return_values.html', 'Return Values'),
    'ansible_configuration_settings': (
        'reference_appendices/config.html', 'Ansible Configuration Settings'),
    'action_plugins': ('plugins/action.html', 'Action plugins'),
}


def link_ansible_docs_label(app, env, node, contnode):
    """Resolve a :ref: to one of ANSIBLE_DOCS_LABELS as a link to docs.ansible.com."""
    del app, env  # the signature of Sphinx's missing-reference event
    if node.get('refdomain') != 'std' or node.get('reftype') != 'ref':
        return None
    target = ANSIBLE_DOCS_LABELS.get(node.get('reftarget'))
    if target is None:
        return None
    page, title = target
    # Without an explicit title (:ref:`label`), Sphinx puts the label itself in contnode.
    text = contnode.astext() if node.get('refexplicit') else title
    return nodes.reference(text, text, internal=False, refuri=ANSIBLE_DOCS_URL + page)


def setup(app):
    app.setup_extension('myst_parser')
    app.setup_extension('openkeel_sphinx')
    app.connect('missing-reference', link_ansible_docs_label)
