# -*- coding: utf-8 -*-
# Copyright: openkeel.manila contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Share access rules: validation, matching and planning as pure functions,
plus the calls that read, allow, change and deny rules and wait for them.

Matching follows Manila: a rule is identified by its access type and target;
IP targets compare as networks (``10.0.0.1`` is ``10.0.0.1/32``); the access
level is not part of a rule's identity, it is a property that can change.

Every write goes through ``client.write_once``: after a lost answer or a
5xx, the share's rules are read and the rule found by type and target
before anything is sent again.  An allow that Manila refuses because the
rule exists (another task allowed it at the same moment) converges on that
rule.  Rules never carry their ``access_key`` (a cephx secret) out of here.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import ipaddress
import string
import unicodedata

from ansible_collections.openkeel.manila.plugins.module_utils.errors import (
    CannotConverge,
    Forbidden,
    InvalidInput,
    ManilaError,
    WaitTimeout,
    reword,
    same_details,
)
from ansible_collections.openkeel.manila.plugins.module_utils.metadata import metadata_items
from ansible_collections.openkeel.manila.plugins.module_utils.microversions import (
    feature_min_version,
)
from ansible_collections.openkeel.manila.plugins.module_utils.resource import (
    NOTHING,
    Plan,
    ResourceAPI,
    if_found,
)
from ansible_collections.openkeel.manila.plugins.module_utils.states import (
    ACCESS_ACTIVE_STATES,
    ACCESS_DENY_STATES,
    ACCESS_ERROR_STATES,
    ACCESS_REDACTED_VALUE,
    ACCESS_RULES_STATUS_ACTIVE,
    ACCESS_RULES_STATUS_ERROR,
    SHARE_BUSY_STATES,
    SHARE_MIGRATING_STATES,
    SHARE_RULES_NEED_2_74_STATES,
)
from ansible_collections.openkeel.manila.plugins.module_utils.waiter import (
    explain_safely,
    user_message_explainer,
    wait_until,
)
from ansible_collections.openkeel.manila.plugins.module_utils.writes import oldest

ACCESS_TYPES = ('ip', 'user', 'cert', 'cephx')
ACCESS_LEVELS = ('rw', 'ro')
DEFAULT_LEVEL = 'rw'

# Characters Manila refuses in user and group names (after the first one).
USER_FORBIDDEN_CHARS = frozenset('"/\\[]:;|=,+*?<>')
USER_MIN_LENGTH, USER_MAX_LENGTH = 4, 255
CERT_MAX_LENGTH = 64

# The action of a plan that changes a share's rules (resource.NOTHING: none).
UPDATE = 'update'

# The fields of a rule shown in diffs.
DIFF_FIELDS = ('access_type', 'access_to', 'access_level', 'metadata')

# How long the task that keeps a rule waits for the twins other tasks made
# at the same moment to be denied by them (settle_twins).
TWIN_WAIT = 60

# Fields of a rule that are secrets: never returned, never logged.
SECRET_FIELDS = ('access_key',)

# How long an 'error' access_rules_status is waited out when no rule of the
# share is in error any more (wait_share_status).
STALE_ERROR_GRACE = 30


def rule_argument_spec():
    """The options of one access rule, as share_access and shares take them."""
    return dict(
        access_type=dict(type='str', required=True, choices=list(ACCESS_TYPES)),
        access_to=dict(type='str', required=True),
        access_level=dict(type='str', default=DEFAULT_LEVEL, choices=list(ACCESS_LEVELS)),
        metadata=dict(type='dict'),
        lock_deletion=dict(type='bool', default=False),
        lock_visibility=dict(type='bool', default=False),
        lock_reason=dict(type='str'),
    )


# -- validation ---------------------------------------------------------------


def _control_characters(value):
    """The control characters (and line or paragraph separators) in ``value``."""
    return sorted(set(c for c in value
                      if unicodedata.category(c) in ('Cc', 'Zl', 'Zp')))


def _check_characters(access_type, value):
    # Manila takes a newline inside a user name or a Ceph ID; a driver that
    # writes targets into an exports or smb.conf file would write two lines.
    bad = _control_characters(value)
    if bad:
        raise InvalidInput(
            '%s rule %r: access_to cannot contain a newline, a tab or any other '
            'control character (it has %s).'
            % (access_type, value, ', '.join(repr(c) for c in bad)))
    if access_type == 'cephx' and any(c.isspace() for c in value):
        raise InvalidInput('%s rule %r: a Ceph ID cannot contain a space.'
                           % (access_type, value))


def _ip_network(value, version):
    """The network of an ip rule target, validated as Manila does (strict)."""
    text = str(value).strip()
    if '%' in text:
        raise InvalidInput(
            'ip rule %r: an access rule cannot name an IPv6 zone (the part after '
            '"%%"): give the address or network without it.' % (value,))
    try:
        network = ipaddress.ip_network(text, strict=True)
    except ValueError as exc:
        hint = ''
        try:
            meant = ipaddress.ip_network(text, strict=False)
            address = text.split('/', 1)[0]
            hint = (' Manila accepts only exact networks: did you mean %s (the '
                    'network) or %s (the single address)?' % (meant, address))
        except ValueError:
            pass
        raise InvalidInput('ip rule %r is not a valid address or network: %s.%s'
                           % (value, exc, hint))
    if network.version == 6 and version is not None and \
            version < feature_min_version('ipv6_access_rules'):
        raise InvalidInput(
            'ip rule %r is IPv6: IPv6 access rules need Manila API %s; this '
            'task uses %s.' % (value, feature_min_version('ipv6_access_rules'),
                               version))
    return network


def _check_user(value):
    # Manila: 4-255 characters; the first one may be anything but a newline,
    # the others none of "/\[]:;|=,+*?<>; and not only periods and spaces.
    # Control characters are refused before (_check_characters), and so is a
    # space at either end here.
    if value and all(c.isspace() or c in '.|' for c in value):
        raise InvalidInput('user rule %r: a user or group name cannot consist '
                           'only of periods or spaces.' % value)
    if not USER_MIN_LENGTH <= len(value) <= USER_MAX_LENGTH:
        raise InvalidInput('user rule %r: a user or group name must be %d-%d '
                           'characters long (it has %d).' % (
                               value, USER_MIN_LENGTH, USER_MAX_LENGTH, len(value)))
    bad = sorted(set(c for c in value[1:] if c in USER_FORBIDDEN_CHARS))
    if bad:
        raise InvalidInput('user rule %r: a user or group name cannot contain %s '
                           '(Manila refuses any of "/\\[]:;|=,+*?<>).'
                           % (value, ' '.join(bad)))
    _check_edges('user', value)


def _check_edges(access_type, value):
    if value != value.strip():  # no control characters by now: only spaces
        raise InvalidInput(
            '%s rule %r: access_to cannot begin or end with a space (Manila would '
            'keep it as part of the name).' % (access_type, value))


def _check_cert(value):
    common_name = value.strip()
    if not 1 <= len(common_name) <= CERT_MAX_LENGTH:
        raise InvalidInput('cert rule %r: the certificate common name must be '
                           '1-%d characters long (it has %d).' % (
                               value, CERT_MAX_LENGTH, len(common_name)))


def _check_cephx(value, version):
    needed = feature_min_version('cephx_access_rules')
    if version is not None and version < needed:
        raise InvalidInput('cephx rule %r: cephx access rules need Manila API %s; '
                           'this task uses %s.' % (value, needed, version))
    if not value:
        raise InvalidInput('cephx rule: the Ceph ID cannot be empty.')
    if not set(value) <= set(string.printable):
        raise InvalidInput('cephx rule %r: a Ceph ID must consist of printable '
                           'ASCII characters.' % value)
    if '.' in value:
        raise InvalidInput('cephx rule %r: a Ceph ID cannot contain periods (give '
                           'the ID without the "client." prefix).' % value)


def validate_target(access_type, access_to, version=None):
    """Raise InvalidInput when Manila would refuse this target at ``version``."""
    if access_type not in ACCESS_TYPES:
        raise InvalidInput('access_type %r is not one of %s.'
                           % (access_type, ', '.join(ACCESS_TYPES)))
    if access_to is None:
        raise InvalidInput('a %s rule needs access_to.' % access_type)
    access_to = str(access_to)
    _check_characters(access_type, access_to)
    if access_type == 'ip':
        _ip_network(access_to, version)
    elif access_type == 'user':
        _check_user(access_to)
    elif access_type == 'cert':
        _check_cert(access_to)
    else:
        _check_cephx(access_to, version)


def normalize_rule(rule, version=None):
    """A rule from the task, validated, with defaults and string metadata."""
    access_type = (rule.get('access_type') or '').strip().lower()
    access_to = rule.get('access_to')
    validate_target(access_type, access_to, version)
    access_to = str(access_to)
    if access_type == 'ip':
        access_to = access_to.strip()
    level = rule.get('access_level') or DEFAULT_LEVEL
    if level not in ACCESS_LEVELS:
        raise InvalidInput('%s rule %r: access_level must be rw or ro, not %r.'
                           % (access_type, access_to, level))
    where = '%s rule %r' % (access_type, access_to)
    metadata = rule.get('metadata')
    if metadata is not None:
        metadata = metadata_items(metadata, '%s: metadata' % where)
    lock_deletion = bool(rule.get('lock_deletion'))
    lock_visibility = bool(rule.get('lock_visibility'))
    lock_reason = rule.get('lock_reason')
    if lock_reason and not (lock_deletion or lock_visibility):
        raise InvalidInput('%s: lock_reason only applies with lock_deletion or '
                           'lock_visibility.' % where)
    return dict(access_type=access_type, access_to=access_to, access_level=level,
                metadata=metadata, lock_deletion=lock_deletion,
                lock_visibility=lock_visibility, lock_reason=lock_reason)


def rule_key(access_type, access_to):
    """What identifies a rule for Manila: its type and target (IP as a network).

    None for a rule whose target is hidden by a visibility lock.
    """
    if access_to is None or access_to == ACCESS_REDACTED_VALUE:
        return None
    if access_type == 'ip':
        try:
            return ('ip', ipaddress.ip_network(str(access_to).strip(), strict=False))
        except ValueError:
            return ('ip', str(access_to))
    return (access_type, str(access_to))


def same_rule(a, b):
    """True when two rules (dicts with access_type and access_to) match."""
    key = rule_key(a.get('access_type'), a.get('access_to'))
    return key is not None and key == rule_key(b.get('access_type'), b.get('access_to'))


def _label(rule):
    return '%s:%s' % (rule.get('access_type'), rule.get('access_to'))


def prepare_rules(rules, version=None):
    """Validate every rule of the task and fold duplicates; raise InvalidInput.

    The same target twice with the same settings is one rule; with two access
    levels (or two different metadata or lock settings) it is an error.  Every
    problem in the list is reported at once.
    """
    problems = []
    prepared = []
    for index, raw in enumerate(rules or []):
        try:
            rule = normalize_rule(raw, version)
        except InvalidInput as exc:
            problems.append('rules[%d]: %s' % (index, exc))
            continue
        twin = None
        for other in prepared:
            if same_rule(other, rule):
                twin = other
                break
        if twin is None:
            rule['index'] = index
            prepared.append(rule)
            continue
        conflicts = [field for field in ('access_level', 'metadata', 'lock_deletion',
                                         'lock_visibility', 'lock_reason')
                     if twin[field] != rule[field]]
        if conflicts:
            detail = ', '.join('%s %r vs %r' % (f, twin[f], rule[f]) for f in conflicts)
            problems.append(
                'rules[%d] and rules[%d] name the same rule (%s and %s) with '
                'different settings (%s); give it once.' % (
                    twin['index'], index, _label(twin), _label(rule), detail))
    if problems:
        raise InvalidInput('Invalid access rules, nothing was changed: %s'
                           % ' '.join(problems))
    for rule in prepared:
        rule.pop('index', None)
    return prepared


def required_features(rules, state):
    """[(feature, what)] the task's rules need (checked before any write)."""
    needed = []
    if state != 'present':
        return needed
    if any(r.get('metadata') for r in rules):
        needed.append(('access_rule_metadata', 'Access rule metadata'))
    if any(r.get('lock_deletion') or r.get('lock_visibility') for r in rules):
        needed.append(('access_rule_locks', 'Access rule locks'))
    return needed


# -- planning -----------------------------------------------------------------

class AccessPlan(Plan):
    """What to do to one share's rules.

    ``add``: task rules to allow; ``update``: (existing rule, level) to change;
    ``replace``: (existing rule, task rule) to deny then allow again (a rule in
    error, or a level change below 2.88); ``metadata``: (existing rule, items
    to set); ``remove``: existing rules to deny; ``hidden``: existing rules
    whose target is hidden and were left alone; ``unchanged``: existing rules
    that already match.

    ``action`` follows those steps: UPDATE (the rule set changes) when any of
    add, update, replace, metadata or remove has one, else NOTHING.
    ``before``/``after`` (from ``plan_rules``): ``{'rules': [...]}``, the
    diff views of the live rules and of the rules the plan leaves
    (``predicted_rules``).
    """

    def __init__(self, before=None, after=None):
        super(AccessPlan, self).__init__(NOTHING, before, after)
        self.add = []
        self.update = []
        self.replace = []
        self.metadata = []
        self.remove = []
        self.hidden = []
        self.unchanged = []

    @property
    def action(self):
        if self.add or self.update or self.replace or self.metadata or self.remove:
            return UPDATE
        return NOTHING


def plan_rules(existing, desired, state='present', purge=False,
               update_in_place=True):
    """Compare the share's rules with the task's; return an AccessPlan.

    ``existing`` are the rules as Manila lists them (rules already on their
    way out are ignored); ``desired`` the prepared task rules.
    ``update_in_place``: the API can change a rule's level (2.88+).
    """
    existing = list(existing)  # read twice: the plan, then its after view
    plan = AccessPlan()
    live = [r for r in existing if r.get('state') not in ACCESS_DENY_STATES]
    plan.hidden = [r for r in live if rule_key(r.get('access_type'), r.get('access_to')) is None]
    visible = [r for r in live if r not in plan.hidden]
    matched_ids = set()
    for rule in desired:
        current = None
        for candidate in visible:
            if same_rule(candidate, rule):
                current = candidate
                break
        if state == 'absent':
            if current is not None:
                plan.remove.append(current)
                matched_ids.add(current['id'])
            continue
        if current is None:
            plan.add.append(rule)
            continue
        matched_ids.add(current['id'])
        if current.get('state') in ACCESS_ERROR_STATES:
            plan.replace.append((current, rule))
            continue
        if current.get('access_level') != rule['access_level']:
            if update_in_place:
                plan.update.append((current, rule['access_level']))
            else:
                plan.replace.append((current, rule))
                continue
        items = metadata_to_set(current.get('metadata'), rule.get('metadata'))
        if items:
            plan.metadata.append((current, items))
        if not (current.get('access_level') != rule['access_level'] or items):
            plan.unchanged.append(current)
    if state == 'present' and purge:
        plan.remove.extend(r for r in visible if r['id'] not in matched_ids)
    plan.before = dict(rules=diff_view(live))
    plan.after = dict(rules=diff_view(predicted_rules(existing, plan)))
    return plan


def metadata_to_set(current, desired):
    """The metadata items of ``desired`` that ``current`` lacks or differs in."""
    if not desired:
        return {}
    current = current or {}
    return dict((k, v) for k, v in desired.items() if current.get(k) != v)


def diff_view(rules):
    """Rules as shown in a diff: sorted, only the fields a task sets."""
    view = []
    for rule in rules:
        item = dict((field, rule.get(field)) for field in DIFF_FIELDS)
        item['metadata'] = item['metadata'] or {}
        view.append(item)
    return sorted(view, key=lambda r: (r['access_type'] or '', r['access_to'] or ''))


def predicted_rules(existing, plan):
    """The rules the share will have after the plan (for check mode and diffs)."""
    removed = set(r['id'] for r in plan.remove)
    removed.update(current['id'] for current, _rule in plan.replace)
    levels = dict((current['id'], level) for current, level in plan.update)
    metadata = dict((current['id'], items) for current, items in plan.metadata)
    after = []
    for rule in existing:
        if rule['id'] in removed or rule.get('state') in ACCESS_DENY_STATES:
            continue
        rule = dict(rule)
        if rule['id'] in levels:
            rule['access_level'] = levels[rule['id']]
        if rule['id'] in metadata:
            rule['metadata'] = dict(rule.get('metadata') or {}, **metadata[rule['id']])
        after.append(rule)
    for rule in list(plan.add) + [r for _c, r in plan.replace]:
        after.append(dict(access_type=rule['access_type'], access_to=rule['access_to'],
                          access_level=rule['access_level'],
                          metadata=rule.get('metadata') or {}, state='active'))
    return after


# -- calls --------------------------------------------------------------------

class AccessAPI(ResourceAPI):
    """The access-rule calls for one client, at its negotiated microversion:
    the shared ones (resource.ResourceAPI: a rule's parent is its share, its
    status is its ``state``), and the allow, deny, level and metadata writes,
    the twins of a race and the waits of a share's rules."""

    kind = 'access_rule'

    # reading
    def list(self, share_id, filters=None):
        """Every rule of a share, without secrets (see ``_list``)."""
        return [without_secrets(rule) for rule in self._list(share_id, filters)]

    def find(self, share_id, rule):
        """The live rule of the share with ``rule``'s type and target, or None."""
        for current in self.list(share_id):
            if current.get('state') not in ACCESS_DENY_STATES and same_rule(current, rule):
                return current
        return None

    def _list(self, share_id, filters=None):
        """Every rule of a share (2.45+: GET /share-access-rules; else the
        ``access_list`` action, which is a read sent as POST)."""
        if self.client.supports('share_access_rules_api'):
            query = {self.spec.parent_filter: share_id}
            for key, value in (filters or {}).items():
                if key == 'metadata' and value:
                    # Manila parses this with ast.literal_eval.
                    query['metadata'] = repr(dict(value))
                elif value is not None:
                    query[key] = value
            return self.list_for(share_id, query)
        body = self.client.action('shares/%s' % share_id, 'access_list',
                                  None, read_only=True)
        return body.get(self.spec.list_key, [])

    # writing
    def allow(self, share_id, rule):
        args = {'access_type': rule['access_type'], 'access_to': rule['access_to'],
                'access_level': rule['access_level']}
        if rule.get('metadata'):
            self.client.require('access_rule_metadata', 'Access rule metadata')
            args['metadata'] = rule['metadata']
        if rule.get('lock_deletion') or rule.get('lock_visibility'):
            self.client.require('access_rule_locks', 'Access rule locks')
            args['lock_deletion'] = rule.get('lock_deletion', False)
            args['lock_visibility'] = rule.get('lock_visibility', False)
            if rule.get('lock_reason'):
                args['lock_reason'] = rule['lock_reason']

        def send():
            try:
                answer = self.client.action('shares/%s' % share_id, 'allow_access', args)
            except ManilaError as exc:
                if exc.status == 400 and 'exists' in (exc.message or ''):
                    # Another task allowed the same rule at the same moment.
                    existing = self.find(share_id, rule)
                    if existing is not None:
                        return existing
                raise
            return without_secrets(answer.get('access', {}))

        return self.client.write_once(
            send, lambda: self.find(share_id, rule),
            'the allow of access rule %s on share %s' % (_label(rule), share_id))

    def deny(self, share_id, rule, unrestrict=False):
        args = {'access_id': rule['id']}
        if unrestrict:
            self.client.require('access_rule_locks', 'unrestrict')
            args['unrestrict'] = True
        hint = ('Set unrestrict=true to drop its deletion lock (only who placed the '
                'lock, or an admin, can).' if not unrestrict else
                'Only who placed the lock, or an admin, can remove it.')
        locked = reword(Forbidden, lambda exc: same_details(
            exc, ManilaError, 'Rule %s (%s) cannot be denied: it is locked against '
            'deletion. %s Manila said: %s' % (rule['id'], _label(rule), hint, exc.message)))

        def denied():
            for current in self.list(share_id):
                if current['id'] == rule['id'] and current.get('state') not in ACCESS_DENY_STATES:
                    return None
            return True

        self.client.write_once(
            lambda: locked(self.client.action)('shares/%s' % share_id, 'deny_access', args),
            denied, 'the deny of access rule %s (%s) on share %s' % (
                _label(rule), rule['id'], share_id))

    def get(self, resource_id):
        """The rule with this ID without its secrets, or None (a 404 is fine)."""
        body = if_found(self.client.get, self.path(resource_id), feature=self.feature)
        return None if body is None else without_secrets(body.get(self.spec.item_key, {}))

    def update_level(self, rule_id, level):
        def changed():
            current = self.get(rule_id)
            return current if current and current.get('access_level') == level else None
        return self.client.write_once(
            lambda: without_secrets(self.client.put(
                self.path(rule_id), {'update_access': {'access_level': level}},
                feature='update_access_level').get('access', {})),
            changed, 'the change of access rule %s to %s' % (rule_id, level))

    def set_metadata(self, resource_id, items):
        rule_id = resource_id

        def changed():
            current = self.get(rule_id) or {}
            metadata = current.get('metadata') or {}
            return True if all(metadata.get(k) == v for k, v in items.items()) else None
        self.client.write_once(
            lambda: self.client.put('%s/metadata' % self.path(rule_id),
                                    {'metadata': items}, feature='access_rule_metadata'),
            changed, 'the metadata update of access rule %s' % rule_id)

    def settle_twins(self, share_id, mine, rules, wait=True):
        """After allowing the rules ``mine`` (IDs): one rule per target.

        Two tasks allowing one target at the same moment can both get it
        past Manila's "exists" check.  Each then looks at the share's rules:
        the oldest twin stays (created_at, then ID); a task whose rule is
        newer denies it and converges on the oldest, with a warning; the
        task that keeps the oldest waits (with ``wait``, at most
        TWIN_WAIT seconds) until the newer twins are gone, so that the rules
        it returns are the rules the share keeps.  Returns ``(rules, mine)``:
        the listing afterwards, and ``mine`` with each denied rule replaced
        by its older twin.
        """
        by_id = dict((r['id'], r) for r in rules)
        kept, doomed, others = [], [], []
        for rule_id in mine:
            rule = by_id.get(rule_id)
            twins = [r for r in rules if rule is not None and same_rule(r, rule)
                     and r.get('state') not in ACCESS_DENY_STATES]
            if len(twins) < 2:
                kept.append(rule_id)
                continue
            keeper = oldest(twins)
            if keeper['id'] == rule_id:
                kept.append(rule_id)
                others.extend(r['id'] for r in twins if r['id'] != rule_id)
                continue
            self.client.warn(
                'Another task allowed access rule %s on share %s at the same time (%s); '
                'the twin this task made (%s) was denied and the task converged on %s.'
                % (_label(rule), share_id, keeper['id'], rule_id, keeper['id']))
            self.deny(share_id, rule)
            doomed.append(rule_id)
            kept.append(keeper['id'])
        if not wait:
            return (self.list(share_id) if doomed else rules), kept
        if doomed:
            rules = self.wait_rules(share_id, touched=kept, denied=doomed)
        if others:
            try:
                rules = AccessAPI(self.client, min(self.timeout, TWIN_WAIT)).wait_rules(
                    share_id, denied=others,
                    what='The twins of this task\'s rules on share %s' % share_id)
            except WaitTimeout:
                self.client.warn(
                    'Access rules %s on share %s duplicate rules this task made; the tasks '
                    'that made them did not remove them within %d seconds.' % (
                        ', '.join(sorted(others)), share_id, TWIN_WAIT))
                rules = self.list(share_id)
        return rules, kept

    def pacer(self, share, get_share):
        """A callable to call before each rule write on ``share``.

        Manila can lose a rule change that reaches it while the share
        manager applies another one: the manager skips a request that
        arrives during a sync, and a rule queued at the wrong moment stays
        queued_to_apply (and the share syncing) until the next change.  So
        the writes to one share go one at a time: the first call returns at
        once when the share's access_rules_status (as read) is settled;
        every later call waits until Manila is done with the write before it
        (wait_share_status: active or error).
        """
        settled = ACCESS_RULES_STATUS_ACTIVE | ACCESS_RULES_STATUS_ERROR
        idle = [share.get('access_rules_status') in settled]

        def pace():
            if not idle[0]:
                self.wait_share_status(share['id'], get_share)
            idle[0] = False
        return pace

    def plan_writes(self, share_id, plan, unrestrict=False):
        """Every write of a plan, in the order they go: new rules, level
        changes, metadata changes, the denials (rules to replace, rules to
        remove), then the replacements (once their old rule is gone).  Each
        is (kind, syncs, send): ``kind`` is allow, update, metadata, deny or
        replace; ``syncs``, whether Manila syncs the share's rules for it (all
        but metadata); ``send()`` sends it and returns the rule's ID."""
        def allow(rule):
            return lambda: self.allow(share_id, rule)['id']

        def then_id(send, current):
            def sent():
                send()
                return current['id']
            return sent

        def update(current, level):
            return then_id(lambda: self.update_level(current['id'], level), current)

        def metadata(current, items):
            return then_id(lambda: self.set_metadata(current['id'], items), current)

        def deny(current):
            return then_id(lambda: self.deny(share_id, current, unrestrict), current)

        return ([('allow', True, allow(rule)) for rule in plan.add]
                + [('update', True, update(c, level)) for c, level in plan.update]
                + [('metadata', False, metadata(c, items)) for c, items in plan.metadata]
                + [('deny', True, deny(c)) for c in [c for c, _rule in plan.replace] + list(plan.remove)]
                + [('replace', True, allow(rule)) for _current, rule in plan.replace])

    def send_plan(self, share_id, plan, unrestrict=False, pace=None):
        """Send what a plan can send at once (plan_writes but the
        replacements).  ``pace`` (see ``pacer``) is called before each write
        that makes Manila sync the share's rules.

        Returns (IDs of the rules to wait for until active, IDs of the denied
        rules).  Replaced rules are allowed again by send_replacements, once
        their denial is done.
        """
        return self._send(share_id, plan, unrestrict, pace, replacements=False)

    def send_replacements(self, share_id, plan, pace=None):
        """Allow again the rules a plan replaces (their old rule must be gone);
        ``pace`` as for send_plan."""
        return self._send(share_id, plan, False, pace, replacements=True)[0]

    def _send(self, share_id, plan, unrestrict, pace, replacements):
        pace = pace or _no_pace
        touched, denied = [], []
        for kind, syncs, send in self.plan_writes(share_id, plan, unrestrict):
            if (kind == 'replace') != replacements:
                continue
            if syncs:
                pace()
            rule_id = send()
            if kind == 'deny':
                denied.append(rule_id)
            elif kind != 'metadata':
                touched.append(rule_id)
        return touched, denied

    # waiting
    def wait_rules(self, share_id, touched=(), denied=(), what=None):
        """Poll the share's rules until every ``touched`` rule (IDs) is active
        and every ``denied`` one is gone.  Returns the final listing.

        A touched or denied rule in error ends the wait with Manila's user
        messages: Manila marks a rule to deny queued_to_deny before it answers,
        so a denied rule seen in error is a denial that failed, and it stays so.
        """
        touched = set(touched)
        denied = set(denied)
        watched = touched | denied
        messages = user_message_explainer(self.client, share_id)

        def failure(rules):
            failed = failed_rules(rules, watched)
            return in_error_words(failed) if failed else None

        def explain(rules):
            said = explain_safely(messages, rules)
            if failed_rules(rules, watched):
                said = ('%s %s' % (said, LEFT_IN_ERROR)).strip()
            return said

        return wait_until(
            self.client, lambda: self.list(share_id),
            ready=lambda rules: not pending_rules(rules, touched, denied),
            what=what or 'Share %s' % share_id, goal='its access rules to settle',
            timeout=self.timeout, failure=failure,
            describe=lambda rules: 'settling its access rules (%s)' % '; '.join(
                pending_rules(rules, touched, denied)),
            explain=explain)

    def wait_share_status(self, share_id, get_share, rules=None):
        """Poll the share until its access_rules_status is no longer syncing.

        Returns the share.  'error' is returned, not raised: it may come from
        a rule this task did not touch; the caller decides.

        ``rules`` is the share's rule listing once the task's rules settled.
        When none of them is in error, an 'error' status is stale: Manila
        sets it back to active only after the share manager has finished the
        denial of the rule in error, a moment after that rule left the
        listing.  Such a status is waited out for STALE_ERROR_GRACE seconds
        before it is believed.
        """
        settled = ACCESS_RULES_STATUS_ACTIVE | ACCESS_RULES_STATUS_ERROR
        errors_listed = rules is None or any(
            r.get('state') in ACCESS_ERROR_STATES for r in rules)
        started = self.client.clock()

        def ready(share):
            status = share and share.get('access_rules_status')
            if status in ACCESS_RULES_STATUS_ERROR and not errors_listed:
                return self.client.clock() - started >= STALE_ERROR_GRACE
            return status in settled

        return wait_until(
            self.client, lambda: get_share(share_id), ready=ready,
            what='Share %s' % share_id, goal='access_rules_status active or error',
            timeout=self.timeout,
            describe=lambda share: 'access_rules_status %s' % share.get('access_rules_status'))


def _no_pace():
    """No pause between rule writes (send_plan without a pacer)."""


def without_secrets(rule):
    """A rule without its secrets (the cephx ``access_key``)."""
    return dict((k, v) for k, v in (rule or {}).items() if k not in SECRET_FIELDS)


# What to do about a rule Manila could not apply (after in_error_words).
LEFT_IN_ERROR = ('The rule is left in error: remove it with state=absent, or run the task '
                 'again to retry it.')


def in_error_words(failed):
    """'has this access rule in error (...)' for the rules in error."""
    return 'has %s in error (%s)' % (
        'this access rule' if len(failed) == 1 else 'these access rules',
        ', '.join('%s, %s, %s' % (_label(r), r.get('access_level'), r['id']) for r in failed))


def failed_rules(rules, ids):
    """The rules among ``ids`` that are in error."""
    return [r for r in rules if r['id'] in ids and r.get('state') in ACCESS_ERROR_STATES]


def pending_rules(rules, touched, denied):
    """What a wait for ``touched`` (to be active) and ``denied`` (to be gone)
    still waits for, one phrase per rule; empty when it is over."""
    by_id = dict((r['id'], r) for r in rules)
    pending = []
    for rule_id in sorted(touched):
        rule = by_id.get(rule_id)
        if rule is None:
            pending.append('rule %s is missing from the listing' % rule_id)
        elif rule.get('state') not in ACCESS_ACTIVE_STATES:
            pending.append('%s is %s' % (_label(rule), rule.get('state')))
    for rule_id in sorted(denied):
        if rule_id in by_id:
            pending.append('%s is still %s' % (_label(by_id[rule_id]), by_id[rule_id].get('state')))
    return pending


def share_needs_wait_for_rules(client, share, wait):
    """Whether the share must be waited for before its rules can change.

    Raises CannotConverge when Manila would refuse rule changes and no wait
    can mend that (recycle bin, migration, busy with ``wait`` false), and
    UnsupportedFeature for a share in status ``error`` below 2.74 (Manila
    refuses no other error status there).
    """
    label = 'Share %s (%s)' % (share.get('name'), share['id'])
    status = share.get('status')
    if share.get('is_soft_deleted'):
        raise CannotConverge('%s is in the recycle bin; restore it before changing '
                             'its access rules.' % label)
    if status in SHARE_MIGRATING_STATES:
        raise CannotConverge('%s is %s (task state %s): Manila refuses access rule '
                             'changes until the migration is completed or cancelled.'
                             % (label, status, share.get('task_state')))
    if status in SHARE_RULES_NEED_2_74_STATES:
        client.require('access_rules_on_error_share',
                       '%s is in status %s: changing its access rules' % (label, status))
    if status not in SHARE_BUSY_STATES:
        return False
    if not wait:
        raise CannotConverge('%s is busy (%s) and Manila refuses access rule changes '
                             'until it is done; run again later or set wait=true.'
                             % (label, status))
    return True


def filter_rules(rules, access_type=None, access_to=None, access_level=None,
                 metadata=None):
    """The rules matching every filter given (ip targets as networks)."""
    wanted_key = rule_key(access_type, access_to) if access_to is not None else None
    found = []
    for rule in rules:
        if access_type and rule.get('access_type') != access_type:
            continue
        if access_to is not None and rule_key(rule.get('access_type'),
                                              rule.get('access_to')) != wanted_key:
            continue
        if access_level and rule.get('access_level') != access_level:
            continue
        if metadata:
            have = rule.get('metadata') or {}
            if any(have.get(k) != v for k, v in metadata.items()):
                continue
        found.append(rule)
    return found


# -- the share_access module's flow ------------------------------------------

def explain_plan(plan, version, warn):
    """Warn about what the plan leaves alone or cannot do in place."""
    if plan.hidden:
        warn('%d rule(s) of this share have targets hidden from this user '
             'by a visibility lock (shown as ******); they cannot be '
             'matched and were left alone (IDs: %s).' % (
                 len(plan.hidden), ', '.join(sorted(r['id'] for r in plan.hidden))))
    level_changes = [(c, r) for c, r in plan.replace
                     if c.get('state') not in ACCESS_ERROR_STATES]
    if level_changes:
        warn('Manila API %s cannot change an access level in place (that '
             'needs 2.88): %s denied and allowed again, so the client '
             'has no access for a short while.' % (
                 version,
                 ', '.join('%s:%s' % (c['access_type'], c['access_to'])
                           for c, _r in level_changes) + (
                     ' is' if len(level_changes) == 1 else ' are')))


def apply_rules_plan(access, shares, share, plan, unrestrict, wait, warn):
    """Send the plan (``access``: an AccessAPI, ``shares``: a ShareAPI): denials
    and new rules, then replacements once their old rules are gone; with
    ``wait``, until the rules and the share's access_rules_status settle.
    Returns the share's rules."""
    share_id = share['id']
    pace = access.pacer(share, shares.get)   # one write at a time
    touched, denied = access.send_plan(share_id, plan, unrestrict, pace)
    allowed = touched[:len(plan.add)]   # send_plan lists the new rules first
    if plan.replace:
        # The same target cannot be allowed while the old rule exists.
        access.wait_rules(share_id, denied=[c['id'] for c, _rule in plan.replace])
        replaced = access.send_replacements(share_id, plan, pace)
        touched += replaced
        allowed += replaced
    if not wait:
        rules, _kept = access.settle_twins(share_id, allowed, access.list(share_id),
                                           wait=False)
        return rules
    rules = access.wait_rules(share_id, touched=touched, denied=denied)
    # Another task may have allowed the same target at the same moment.
    rules, _kept = access.settle_twins(share_id, allowed, rules)
    settled = access.wait_share_status(share_id, shares.get, rules)
    status = settled.get('access_rules_status')
    share['access_rules_status'] = status
    if status in ACCESS_RULES_STATUS_ERROR:
        others = [r for r in rules if r.get('state') in ACCESS_ERROR_STATES]
        warn('The rules of this task are active, but the share\'s '
             'access_rules_status is %s because of other rules in error: %s.'
             % (status, ', '.join('%s:%s (%s)' % (
                 r['access_type'], r['access_to'], r['id']) for r in others)
                or 'none listed'))
    return rules


def with_access_keys(access, share_id, rules):
    """The rules with their cephx keys, asked for with return_access_keys.

    Every other listing of the module drops the keys (AccessAPI.list), so
    they are read once more here, as Manila lists them, and joined by rule
    ID; the diff never carries them.
    """
    keys = dict((rule.get('id'), rule.get('access_key'))
                for rule in access._list(share_id))  # pylint: disable=protected-access
    return [dict(rule, access_key=keys.get(rule.get('id')) if rule.get('id') else None)
            for rule in rules]
