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
