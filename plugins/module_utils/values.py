# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Task values compared with what Manila shows, the same way for every kind."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type


def none_if_blank(value):
    """None for an empty text as for None (Manila shows an unset field as
    either); any other value as it is."""
    return None if value in (None, '') else value


def whole_number(value):
    """``value`` as an int, or None when it is no whole number. Text that spells one
    counts (extra specs are text; templates give text before ansible-core 2.19);
    a bool or a float does not."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            return None
    return None


# The length of Manila's name and description columns (and of most other text
# columns: manila/db/sqlalchemy/models.py, String(255)).
TEXT_MAX = 255


def too_long(fields, limits=None):
    """The message for the first of ``fields`` ((option, value) pairs, in order)
    longer than its column (``limits``: option -> length, else TEXT_MAX), or None.

    Manila's API does not check most of these lengths: the database refuses the
    row with a 500, which write_once would take for a passing fault."""
    for option, value in fields:
        limit = (limits or {}).get(option, TEXT_MAX)
        if isinstance(value, str) and len(value) > limit:
            return '%s is %d characters long; Manila takes at most %d.' % (
                option, len(value), limit)
    return None
