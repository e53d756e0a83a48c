"""A real, local OpenStack Manila (with Keystone) for the collection's tests.

Subcommands: up, down, status, purge, env, lane-config, bench-projects.  See tests/cloud/README.md.

Standard library only: the wrapper tests/cloud/manila-cloud runs it with
the machine's python3; it builds a virtualenv of its own for the services.
"""

import collections
import fcntl
import hashlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.realpath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CONSTRAINTS = os.path.join(HERE, 'constraints.txt')
REQUEST_PROJECT_SRC = os.path.join(HERE, 'request_project.py')
REQUEST_PROJECT_MODULE = 'openkeel_request_project'
REQUEST_PROJECT_REL = 'manila/python/%s.py' % REQUEST_PROJECT_MODULE
INTEGRATION_CONFIG = os.path.join(REPO, 'tests', 'integration',
                                  'integration_config.yml')

# Older Manila releases that `up` runs beside the current one when
# OPENKEEL_MANILA_RELEASE names them (see "Older Manila releases" in
# README.md): the pin of the release's last version on PyPI, the file of
# pins of everything else (constraints-manila-RELEASE.txt beside this file),
# the default port of its API (the paged API takes the next one) and how
# uwsgi loads its API (manila.wsgi.api came in 2024.2; before it the
# pbr-made script bin/manila-wsgi).
RELEASES = {
    '2023.2': {'manila': 'manila==17.4.0', 'port': 8796,
               'wsgi_file': 'manila-wsgi'},
}
RELEASE = (os.environ.get('OPENKEEL_MANILA_RELEASE') or '').strip()
if RELEASE in ('current', 'latest'):
    RELEASE = ''
if RELEASE and RELEASE not in RELEASES:
    raise SystemExit('ERROR: OPENKEEL_MANILA_RELEASE must be one of %s '
                     '(or empty for the current Manila), not %r'
                     % (', '.join(sorted(RELEASES)), RELEASE))
# The cloud of the current Manila: MariaDB, RabbitMQ, Keystone, its users
# and lanes.  A release's cloud is a Manila of its own (venv, database,
# RabbitMQ vhost, ports, state directory BASE_STATE-RELEASE) that uses the
# base cloud's MariaDB, RabbitMQ, Keystone and lane users.
BASE_STATE = os.path.abspath(os.environ.get('OPENKEEL_CLOUD_DIR')
                             or '/var/tmp/openkeel-manila-cloud')
STATE = BASE_STATE + '-' + RELEASE if RELEASE else BASE_STATE
BASE_SETTINGS = os.path.join(BASE_STATE, 'settings.json')
BASE_SECRETS = os.path.join(BASE_STATE, 'secrets.json')
VENV = os.path.join(STATE, 'venv')
ETC = os.path.join(STATE, 'etc')
DATA = os.path.join(STATE, 'data')
LOGS = os.path.join(STATE, 'logs')
RUN = os.path.join(STATE, 'run')
CLOUDS_YAML = os.path.join(STATE, 'clouds.yaml')
# The paged clouds alone, in a file of their own: an `up` of an older
# checkout (sharing the cloud) rewrites clouds.yaml without them.
PAGED_CLOUDS_YAML = os.path.join(STATE, 'clouds-paged.yaml')
SECRETS = os.path.join(STATE, 'secrets.json')
# The ports and the number of lanes a cloud was brought up with: commands
# run later without the environment variables use them again.
SETTINGS = os.path.join(STATE, 'settings.json')
# The lanes' users live in the base cloud's Keystone.
LANES_FILE = os.path.join(BASE_STATE, 'data', 'lanes.json')
# The benchmark's member projects (`bench-projects N`): {name: project ID},
# and their clouds (a file of their own: `up` rewrites clouds.yaml).
BENCH_FILE = os.path.join(BASE_STATE, 'data', 'bench-projects.json')
BENCH_CLOUDS_YAML = os.path.join(BASE_STATE, 'clouds-bench.yaml')
BENCH_MAX = 50
# Seconds for one Manila request of bench-projects: a benchmark may be
# keeping every worker of the API busy.
MANILA_TIMEOUT = 180
if RELEASE:
    # The checkout's file is the current Manila's.
    INTEGRATION_CONFIG = os.path.join(STATE, 'integration_config.yml')


def _setting(variable, key, default, low, high, path=SETTINGS):
    """An integer from the environment, else settings.json, else default."""
    raw = os.environ.get(variable)
    if not raw:
        try:
            with open(path) as f:
                return int(json.load(f)[key])
        except (OSError, ValueError, KeyError, TypeError):
            return default
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise SystemExit('ERROR: %s must be a whole number from %d to %d, '
                         'not %r' % (variable, low, high, raw))
    return value


KEYSTONE_PORT = _setting('OPENKEEL_CLOUD_KEYSTONE_PORT', 'keystone_port',
                         5000, 1024, 65535, BASE_SETTINGS)
if RELEASE:
    MANILA_PORT = _setting('OPENKEEL_MANILA_RELEASE_PORT', 'manila_port',
                           RELEASES[RELEASE]['port'], 1024, 65535)
else:
    MANILA_PORT = _setting('OPENKEEL_CLOUD_MANILA_PORT', 'manila_port',
                           8786, 1024, 65535)
# Lane 1 is the users admin and member; lanes 2..LANES have users of their
# own (see lane_users()).
LANES = _setting('OPENKEEL_CLOUD_LANES', 'lanes', 3, 1, 50, BASE_SETTINGS)
KEYSTONE_URL = 'http://127.0.0.1:%d/v3' % KEYSTONE_PORT
MANILA_URL = 'http://127.0.0.1:%d/v2' % MANILA_PORT
# A second Manila API (same database, same services) whose osapi_max_limit
# is PAGED_LIMIT: listings that take a limit answer in pages that short.
# The clouds "<cloud>-paged" of clouds.yaml reach it (an endpoint override).
PAGED_LIMIT = 5
PAGED_PORT = MANILA_PORT + 1
PAGED_URL = 'http://127.0.0.1:%d/v2' % PAGED_PORT

APT_PACKAGES = ['mariadb-server', 'rabbitmq-server', 'gcc', 'python3-dev',
                'python3-venv']
PIP_PACKAGES = ['manila==23.0.1', 'keystone==30.0.0', 'uwsgi', 'PyMySQL',
                'python-openstackclient', 'python-manilaclient',
                'pytest']     # runs tests/cloud/test_cloud.py
if RELEASE:
    # Manila alone: Keystone, the clients and pytest are the base cloud's.
    CONSTRAINTS = os.path.join(HERE, 'constraints-manila-%s.txt' % RELEASE)
    PIP_PACKAGES = [RELEASES[RELEASE]['manila'], 'uwsgi', 'PyMySQL']

HOST = 'openkeel'
MICROVERSION = '2.65'
DEFAULT_ZONE = 'nova'           # Manila's storage_availability_zone default
OTHER_ZONE = 'zone-b'


class Backend(collections.namedtuple('Backend',
                                     'name label dhss delay zone reserved')):
    """One Dummy-driver backend: a section of manila-share.conf."""

    @property
    def pool(self):
        return '%s@%s#fake_pool_for_%s' % (HOST, self.name, self.label)


# What each is for: tests/cloud/README.md.  delay: the Dummy driver's
# per-call delays under OPENKEEL_CLOUD_DELAY=mixed (the default):
# 'realistic' (upstream's, create ~4 s) or 'zero'.  reserved: the
# backend's reserved_share_percentage.  Every Dummy pool reports the same
# capacity; reserving a quarter of alpha's and beta's makes the scheduler's
# CapacityWeigher put shares of the default type (which names no backend,
# so that they can migrate anywhere) on gamma.  (A goodness_function would
# not do: the scheduler reads it from the pools, and the Dummy driver's
# pools do not carry it.)
BACKENDS = (
    Backend('alpha', 'ALPHA', False, 'realistic', DEFAULT_ZONE, 25),
    Backend('beta', 'BETA', False, 'realistic', DEFAULT_ZONE, 25),
    Backend('gamma', 'GAMMA', False, 'zero', DEFAULT_ZONE, 0),
    Backend('delta', 'DELTA', True, 'zero', DEFAULT_ZONE, 0),
    Backend('epsilon', 'EPSILON', True, 'zero', OTHER_ZONE, 0),
)
POOLS = {b.name: b.pool for b in BACKENDS}
# Share replication: backends of one replication_domain replicate to each
# other.  The Dummy driver then reports replication_type 'readable' (the
# only type it knows) on its pool.  beta and gamma: a share of type
# 'replicated-readable' lands on gamma (the capacity weigher, see reserved
# above) and its replica on beta (a replica never goes to a host that has
# one already).  Types without replication_type are not affected.
REPLICATION_DOMAIN = 'openkeel-replication'
REPLICATION_BACKENDS = ('beta', 'gamma')
# The standalone network plugin of the DHSS backends (no Neutron): it hands
# out addresses of this range to share servers, whatever neutron_net_id
# and neutron_subnet_id a share network names (it reads neither).
DHSS_NETWORK = {
    'gateway': '10.254.0.1',
    'mask': '16',
    'ranges': '10.254.0.10-10.254.255.250',
}
CAPABILITIES = {
    'snapshot_support': 'True',
    'create_share_from_snapshot_support': 'True',
    'revert_to_snapshot_support': 'True',
    'mount_snapshot_support': 'True',
}
# Share types: name -> (driver_handles_share_servers, extra specs).
# 'default' is Manila's default_share_type: any DHSS=false backend, gamma
# first (see reserved in BACKENDS).
SHARE_TYPES = {
    'default': (False, {}),
    'alpha': (False, {'share_backend_name': 'ALPHA'}),
    'beta': (False, {'share_backend_name': 'BETA'}),
    'gamma': (False, {'share_backend_name': 'GAMMA'}),
    'dhss': (True, {}),        # delta and epsilon: the zone decides
    'nowhere': (False, {'share_backend_name': 'NOWHERE'}),
    # beta and gamma (REPLICATION_BACKENDS); no share_backend_name, so that
    # the replica can go to the other one.
    'replicated-readable': (False, {'replication_type': 'readable'}),
}
# Big enough for a fleet of 100+ shares per project and lane.
QUOTAS = {'shares': 1000, 'gigabytes': 100000, 'snapshots': 1000,
          'snapshot_gigabytes': 100000, 'share_networks': 500,
          'share_groups': 100, 'share_group_snapshots': 100,
          'share_replicas': 100, 'replica_gigabytes': 10000}
# Order matters: started in this order, stopped in reverse.
SERVICES = ['mariadb', 'rabbitmq', 'keystone', 'manila-api',
            'manila-api-paged', 'manila-scheduler', 'manila-share']
if RELEASE:
    SERVICES = SERVICES[3:]
# Those made from the venv (restarted when their configuration changes).
OPENSTACK_SERVICES = [s for s in SERVICES if s not in ('mariadb', 'rabbitmq')]
LOG_OF = {
    'mariadb': 'mariadb.log',
    'rabbitmq': 'rabbitmq.log',
    'keystone': 'keystone.log',
    'manila-api': 'manila-api.log',
    'manila-api-paged': 'manila-api-paged.log',
    'manila-scheduler': 'manila-scheduler.log',
    'manila-share': 'manila-share.log',
}
DELAYS = ('mixed', 'realistic', 'zero')
T0 = time.monotonic()


class CloudError(Exception):
    pass


def say(msg):
    print('[%6.1fs] %s' % (time.monotonic() - T0, msg), flush=True)


def write_file(path, text, mode=0o644):
    """Write text if it differs; return True when the file changed."""
    try:
        with open(path) as f:
            if f.read() == text:
                return False
    except OSError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        f.write(text)
    os.chmod(tmp, mode)
    os.replace(tmp, path)
    return True


def read_json(path, default=None):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


def tail(path, lines=25):
    try:
        with open(path, errors='replace') as f:
            return ''.join(f.readlines()[-lines:])
    except OSError as exc:
        return '(cannot read %s: %s)' % (path, exc)


# --------------------------------------------------------------- processes

def proc_stat(pid):
    """(state, starttime) of a pid, or None when there is no such process."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            data = f.read()
    except (OSError, ValueError):
        return None
    fields = data.rsplit(')', 1)[1].split()
    return fields[0], fields[19]


def alive(pid, start=None):
    """True if pid runs (not a zombie) and, if given, started at start."""
    if not pid:
        return False
    st = proc_stat(int(pid))
    if st is None or st[0] in ('Z', 'X'):
        return False
    return start is None or st[1] == str(start)


def marker():
    # This state directory and its random token: a process of another
    # cloud (another OPENKEEL_CLOUD_DIR) never carries it.
    return 'OPENKEEL_CLOUD_OWNER=%s:%s' % (
        STATE, (read_json(SECRETS) or {}).get('token', ''))


def has_marker(pid, mark):
    try:
        with open('/proc/%d/environ' % pid, 'rb') as f:
            env = f.read().split(b'\0')
    except OSError:
        return False
    return mark.encode() in env


def our_processes():
    """Live processes carrying this cloud's marker in their environment."""
    if not os.path.exists(SECRETS):
        return []
    mark = marker()
    found = []
    for name in os.listdir('/proc'):
        if name.isdigit() and int(name) != os.getpid():
            pid = int(name)
            if alive(pid) and has_marker(pid, mark):
                found.append(pid)
    return found


def record_path(svc):
    return os.path.join(RUN, svc + '.json')


def load_record(svc):
    return read_json(record_path(svc), {}) or {}


def save_record(svc, rec):
    write_file(record_path(svc), json.dumps(rec, indent=1))
    write_file(os.path.join(RUN, svc + '.pid'), '%d\n' % rec['pid'])


def record_pids(rec):
    """All (pid, start) pairs a service record names: main first."""
    out = []
    if rec.get('pid'):
        out.append((rec['pid'], rec.get('start')))
    for extra in rec.get('extra', []):
        out.append((extra['pid'], extra.get('start')))
    return out


def service_alive(svc):
    rec = load_record(svc)
    return bool(rec) and all(alive(p, s) for p, s in record_pids(rec))


def cmdline(pid):
    try:
        with open('/proc/%d/cmdline' % pid, 'rb') as f:
            return f.read().replace(b'\0', b' ').decode(errors='replace')
    except OSError:
        return ''


def listening_inodes(port):
    inodes = set()
    for table in ('/proc/net/tcp', '/proc/net/tcp6'):
        try:
            with open(table) as f:
                next(f)
                for line in f:
                    parts = line.split()
                    if parts[3] == '0A' and \
                            int(parts[1].rsplit(':', 1)[1], 16) == port:
                        inodes.add(parts[9])
        except OSError:
            pass
    return inodes


def port_owner(port):
    """(pid, cmdline) of a process listening on port, or None if free."""
    inodes = listening_inodes(port)
    if not inodes:
        return None
    wanted = {'socket:[%s]' % i for i in inodes}
    for name in os.listdir('/proc'):
        if not name.isdigit():
            continue
        try:
            for fd in os.listdir('/proc/%s/fd' % name):
                try:
                    if os.readlink('/proc/%s/fd/%s' % (name, fd)) in wanted:
                        return int(name), cmdline(int(name))
                except OSError:
                    pass
        except OSError:
            pass
    return 0, '(unknown process)'


def port_free(port):
    if listening_inodes(port):
        return False
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        s.bind(('127.0.0.1', port))
        return True
    except OSError:
        return False
    finally:
        s.close()


def pick_port(what, preferred, taken=()):
    if port_free(preferred) and preferred not in taken:
        return preferred
    owner = port_owner(preferred)
    port = preferred + 1
    while not port_free(port) or port in taken:
        port += 1
    say('port %d (%s) is taken by %s: using %d instead'
        % (preferred, what, owner and 'pid %s %s' % owner or 'another '
           'process', port))
    return port


def port_answers(port, timeout=0.5):
    try:
        with socket.create_connection(('127.0.0.1', port), timeout=timeout):
            return True
    except OSError:
        return False


def stop_pid(pid, start, sig_wait=15.0):
    """SIGTERM then SIGKILL one of our processes; zombies count as gone."""
    if not alive(pid, start):
        return
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + sig_wait
    while time.monotonic() < deadline:
        reap()
        if not alive(pid, start):
            return
        time.sleep(0.1)
    if alive(pid, start):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def descendants(roots):
    """(pid, start) of every live descendant of the given pids."""
    children = {}
    for name in os.listdir('/proc'):
        if not name.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % name) as f:
                fields = f.read().rsplit(')', 1)[1].split()
        except OSError:
            continue
        if fields[0] not in ('Z', 'X'):
            children.setdefault(int(fields[1]), []).append(
                (int(name), fields[19]))
    out, todo = [], list(roots)
    while todo:
        for kid in children.get(todo.pop(), []):
            out.append(kid)
            todo.append(kid[0])
    return out


def reap():
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass


def spawn(svc, argv, env=None, extra_env=None, fingerprint='', port=None):
    """Start a daemon in its own session; record its pid and start time."""
    os.makedirs(LOGS, exist_ok=True)
    out = open(os.path.join(LOGS, svc + '.stdout.log'), 'ab')
    out.write(('\n==== %s starting: %s\n' % (time.ctime(), ' '.join(argv)))
              .encode())
    out.flush()
    penv = dict(env if env is not None else os.environ)
    penv.update(extra_env or {})
    k, v = marker().split('=', 1)
    penv[k] = v
    proc = subprocess.Popen(argv, env=penv, stdin=subprocess.DEVNULL,
                            stdout=out, stderr=subprocess.STDOUT,
                            start_new_session=True, cwd=STATE)
    out.close()
    st = proc_stat(proc.pid)
    rec = {'pid': proc.pid, 'start': st[1] if st else None,
           'argv': argv, 'fingerprint': fingerprint, 'port': port,
           'extra': []}
    save_record(svc, rec)
    return rec


def stop_service(svc):
    rec = load_record(svc)
    if not rec:
        return False
    pids = record_pids(rec)
    was = any(alive(p, s) for p, s in pids)
    # Workers (uwsgi's, manila's per-backend ones) die with their master;
    # note them now, so that none outlives it.
    kids = descendants([p for p, s in pids if alive(p, s)])
    threads = [threading.Thread(target=stop_pid, args=(p, s))
               for p, s in pids]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for pid, start in kids:
        stop_pid(pid, start, 5)
    os.unlink(record_path(svc))
    try:
        os.unlink(os.path.join(RUN, svc + '.pid'))
    except OSError:
        pass
    return was


# ------------------------------------------------------------- install

def dpkg_installed(pkg):
    r = subprocess.run(['dpkg-query', '-W', '-f=${Status}', pkg],
                       capture_output=True, text=True, check=False)
    return r.returncode == 0 and r.stdout.strip() == 'install ok installed'


def ensure_apt():
    missing = [p for p in APT_PACKAGES if not dpkg_installed(p)]
    if not missing:
        return
    say('installing Debian packages: %s' % ' '.join(missing))
    env = dict(os.environ, DEBIAN_FRONTEND='noninteractive')
    lists = '/var/lib/apt/lists'
    have_lists = any(n.endswith('_Packages') or '_Packages.' in n
                     for n in os.listdir(lists)) if os.path.isdir(lists) \
        else False
    if not have_lists:
        subprocess.run(['apt-get', 'update'], env=env, check=True)
    cmd = ['apt-get', 'install', '-y', '--no-install-recommends'] + missing
    if subprocess.run(cmd, env=env, check=False).returncode != 0:
        subprocess.run(['apt-get', 'update'], env=env, check=True)
        subprocess.run(cmd, env=env, check=True)


def constraints_hash():
    with open(CONSTRAINTS, 'rb') as f:
        data = f.read()
    recipe = ' '.join(PIP_PACKAGES) + ' uwsgi-built-here python=%s' % (
        venv_python())
    return hashlib.sha256(data + recipe.encode()).hexdigest()


def uwsgi_wheel_dir():
    with open(CONSTRAINTS) as f:
        pin = [line.strip() for line in f
               if line.lower().startswith('uwsgi==')]
    python = os.path.realpath(venv_python())
    probe = subprocess.run([python, '-c', 'import sys; print(sys.version)'],
                           capture_output=True, text=True, check=True)
    key = sha(' '.join(pin) + python + probe.stdout)[:16]
    cache = os.environ.get('XDG_CACHE_HOME') or os.path.expanduser('~/.cache')
    return os.path.join(cache, 'openkeel-manila-cloud', 'uwsgi-' + key)


def venv_python():
    # Debian's interpreter (its python3-dev is what uwsgi builds against),
    # whatever python3 runs this script.
    if os.path.exists('/usr/bin/python3'):
        return '/usr/bin/python3'
    return sys.executable


def ensure_venv():
    stamp = os.path.join(VENV, '.openkeel-constraints-sha256')
    want = constraints_hash()
    try:
        with open(stamp) as f:
            if f.read().strip() == want:
                return False
    except OSError:
        pass
    say('building the service virtualenv in %s (pip, a few minutes at most)'
        % VENV)
    if os.path.exists(VENV):
        shutil.rmtree(VENV)
    subprocess.run([venv_python(), '-m', 'venv', VENV], check=True)
    pip = [os.path.join(VENV, 'bin', 'pip'), 'install',
           '--disable-pip-version-check', '-c', CONSTRAINTS]
    # uwsgi embeds the interpreter it was compiled with, and pip's wheel
    # cache does not tell interpreters of one version apart (a uwsgi wheel
    # built under another Python 3.11 fails with "No module named _socket"):
    # compile it here, uncached, while the rest installs.
    # The wheel is kept, keyed by the interpreter, outside the state dir
    # (so that purge + up does not compile it again).
    ulog = os.path.join(LOGS, 'pip-install-uwsgi.log')
    wheels = uwsgi_wheel_dir()
    found = [n for n in os.listdir(wheels) if n.endswith('.whl')] \
        if os.path.isdir(wheels) else []
    if found:
        cmd = pip + ['--no-deps', os.path.join(wheels, found[0])]
    else:
        cmd = ['sh', '-c', '"$0" wheel --disable-pip-version-check --no-deps '
               '--no-cache-dir --use-pep517 --no-binary uwsgi -c "$1" -w "$2" '
               'uwsgi && '
               '"$0" install --disable-pip-version-check --no-deps "$2"/*.whl',
               os.path.join(VENV, 'bin', 'pip'), CONSTRAINTS, wheels]
    with open(ulog, 'w') as out:
        uwsgi = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    log = os.path.join(LOGS, 'pip-install.log')
    with open(log, 'w') as out:
        # --no-compile: byte-compiling every module of ~140 packages costs
        # ~20 s here; Python compiles what the services import, once.
        r = subprocess.run(pip + ['--no-compile'] +
                           [p for p in PIP_PACKAGES if p != 'uwsgi'],
                           stdout=out, stderr=subprocess.STDOUT, check=False)
    if uwsgi.wait() != 0:
        raise CloudError('pip install uwsgi into %s failed; log %s:\n%s'
                         % (VENV, ulog, tail(ulog)))
    if r.returncode != 0:
        raise CloudError('pip install into %s failed; log %s:\n%s'
                         % (VENV, log, tail(log)))
    write_file(stamp, want + '\n')
    say('virtualenv ready')
    return True


def vbin(name):
    return os.path.join(VENV, 'bin', name)


# ----------------------------------------------------------------- secrets

def load_secrets():
    """Passwords (by user name) and the process token, made once each.

    A cloud made by an older version gets the passwords of the new users
    added; the existing ones are kept.
    """
    data = read_json(SECRETS) or {}
    if RELEASE:
        # The base cloud's passwords; a process token of its own (down
        # stops only the processes that carry it).
        if 'token' not in data:
            data = {'token': secrets.token_urlsafe(18)}
            os.makedirs(STATE, exist_ok=True)
            write_file(SECRETS, json.dumps(data, indent=1), mode=0o600)
        return dict(read_json(BASE_SECRETS) or {}, token=data['token'])
    wanted = ['admin', 'member', 'manila', 'db', 'token'] + [
        u.user for u in lane_users()]
    missing = [k for k in wanted if k not in data]
    if missing:
        data.update((k, secrets.token_urlsafe(18)) for k in missing)
        os.makedirs(STATE, exist_ok=True)
        write_file(SECRETS, json.dumps(data, indent=1), mode=0o600)
    return data


LaneUser = collections.namedtuple(
    'LaneUser', 'lane kind user project cloud roles')


def lane_users():
    """The users of lanes 1..LANES: an admin and a member user each.

    Lane 1 is the cloud's first users, admin (project admin) and member
    (project demo); lane K >= 2 has users, projects and clouds named
    laneK-admin and laneK-member.  Parallel test runs take a lane each.
    """
    out = []
    for lane in range(1, LANES + 1):
        for kind, roles in (('admin', ('admin',)),
                            ('member', ('member', 'reader'))):
            if lane == 1:
                name = kind
                project = 'admin' if kind == 'admin' else 'demo'
            else:
                name = project = 'lane%d-%s' % (lane, kind)
            out.append(LaneUser(lane, kind, name, project, name, roles))
    return out


# ----------------------------------------------------------------- configs

def choose_ports():
    """Ports for MariaDB and RabbitMQ, kept while our process runs."""
    if RELEASE:
        return release_ports()
    ports = {}
    rec = load_record('mariadb')
    if service_alive('mariadb') and rec.get('port'):
        ports['mysql'] = rec['port']
    else:
        ports['mysql'] = pick_port('MariaDB', 3306)
    rec = load_record('rabbitmq')
    if service_alive('rabbitmq') and rec.get('ports'):
        ports.update(rec['ports'])
    else:
        taken = {ports['mysql']}
        ports['amqp'] = pick_port('RabbitMQ', 5672, taken)
        taken.add(ports['amqp'])
        ports['dist'] = pick_port('RabbitMQ distribution', 25672, taken)
        taken.add(ports['dist'])
        ports['epmd'] = pick_port('Erlang epmd', 4369, taken)
    check_api_ports()
    return ports


def check_api_ports():
    for svc, what, port in (('keystone', 'Keystone', KEYSTONE_PORT),
                            ('manila-api', 'Manila API', MANILA_PORT),
                            ('manila-api-paged', 'the paged Manila API',
                             PAGED_PORT)):
        if svc not in SERVICES:
            continue
        if not service_alive(svc) and not port_free(port):
            owner = port_owner(port)
            raise CloudError('%s needs port %d, which is taken by %s'
                             % (what, port, owner and 'pid %s %s' % owner))


def base_record(svc):
    return read_json(os.path.join(BASE_STATE, 'run', svc + '.json'), {}) or {}


# An older release's services keep more database connections: 2023.2's
# manila-share (eventlet, up to 64 RPC handlers at once) ran out of its pool
# of 5 + 50 ("QueuePool limit of size 5 overflow 50 reached") while 50 shares
# were made and deleted at once on a loaded machine; its share service then
# missed its reports, the scheduler found no pool for a share, and a delete
# stayed unanswered. The current release did not under the same load.
RELEASE_DB_POOL = [('max_pool_size', 10), ('max_overflow', 100),
                   ('pool_timeout', 120)] if RELEASE else []


def release_ports():
    """The base cloud's MariaDB and RabbitMQ ports (a release's Manila uses
    them), after checking that its own API ports are free or its own."""
    mysql = base_record('mariadb').get('port')
    rabbit = base_record('rabbitmq').get('ports')
    if not mysql or not rabbit:
        raise CloudError('the base cloud in %s has no MariaDB or RabbitMQ '
                         'record: run tests/cloud/manila-cloud up (without '
                         'OPENKEEL_MANILA_RELEASE) first' % BASE_STATE)
    check_api_ports()
    return dict(rabbit, mysql=mysql)


def release_db():
    """The database of a release's Manila (in the base cloud's MariaDB)."""
    return 'manila_' + RELEASE.replace('.', '_').replace('-', '_')


def release_vhost():
    """The RabbitMQ vhost of a release's Manila (in the base cloud's)."""
    return 'manila-' + RELEASE


def ini(sections):
    out = []
    for name, opts in sections:
        out.append('[%s]' % name)
        out.extend('%s = %s' % kv for kv in opts)
        out.append('')
    return '\n'.join(out)


def write_configs(ports, sec, delay, openstack=True):
    """Write the configuration files; openstack=False: only MariaDB's and
    RabbitMQ's (they need nothing from the venv)."""
    os.makedirs(ETC, exist_ok=True)
    sock = os.path.join(RUN, 'mysqld.sock')
    files = {}
    files['my.cnf'] = ini([
        ('client', [('socket', sock), ('user', 'root')]),
        ('mysqld', [
            ('datadir', os.path.join(DATA, 'mysql')),
            ('socket', sock),
            ('port', ports['mysql']),
            ('bind-address', '127.0.0.1'),
            ('pid-file', os.path.join(RUN, 'mariadbd.pid')),
            ('log-error', os.path.join(LOGS, 'mariadb.log')),
            ('user', 'root'),
            ('skip-name-resolve', 'ON'),
            ('skip-log-bin', 'ON'),
            ('max_connections', 1000),
            ('innodb_buffer_pool_size', '128M'),
            ('innodb_log_file_size', '48M'),
            ('innodb_flush_log_at_trx_commit', 2),
            ('innodb_doublewrite', 0),
            ('performance_schema', 'OFF'),
            ('character-set-server', 'utf8mb4'),
            ('collation-server', 'utf8mb4_general_ci'),
        ]),
    ])
    files['rabbitmq/rabbitmq.conf'] = (
        'listeners.tcp.default = 127.0.0.1:%d\n'
        'loopback_users.guest = true\n'
        'log.file.level = info\n' % ports['amqp'])
    files['rabbitmq/enabled_plugins'] = '[].\n'
    files['rabbitmq/rabbitmq-env.conf'] = '# intentionally empty\n'
    if RELEASE:
        files = {}
    if openstack:
        files.update(openstack_configs(ports, sec, delay))
    for rel, text in files.items():
        write_file(os.path.join(ETC, rel), text)
    return files


def openstack_configs(ports, sec, delay):
    files = {}
    db = 'mysql+pymysql://openkeel:%s@127.0.0.1:%d/%%s?charset=utf8mb4' % (
        sec['db'], ports['mysql'])
    files['keystone/keystone.conf'] = ini([
        ('DEFAULT', [('log_file', os.path.join(LOGS, 'keystone.log')),
                     ('use_stderr', 'false')]),
        ('database', [('connection', db % 'keystone')]),
        ('token', [('provider', 'fernet')]),
        # bcrypt's minimum cost: every test run authenticates many times.
        ('identity', [('password_hash_rounds', 4)]),
        # Every module run gets a token and Manila validates it: with the
        # cache (in keystone's one process) a token costs less CPU.
        ('cache', [('enabled', 'true'),
                   ('backend', 'dogpile.cache.memory')]),
        ('fernet_tokens', [('key_repository',
                            os.path.join(ETC, 'keystone', 'fernet-keys'))]),
        ('credential', [('key_repository',
                         os.path.join(ETC, 'keystone', 'credential-keys'))]),
        ('oslo_policy', [('enforce_new_defaults', 'true'),
                         ('enforce_scope', 'true')]),
    ])
    transport = 'rabbit://guest:guest@127.0.0.1:%d/' % ports['amqp']
    if RELEASE:
        del files['keystone/keystone.conf']
        transport += release_vhost()
    files['manila/manila.conf'] = ini([
        ('DEFAULT', [
            ('host', HOST),
            ('transport_url', transport),
            ('auth_strategy', 'keystone'),
            ('api_paste_config', os.path.join(ETC, 'manila',
                                              'api-paste.ini')),
            ('state_path', os.path.join(DATA, 'manila')),
            ('default_share_type', 'default'),
            ('enabled_share_protocols', 'NFS,CIFS'),
            ('periodic_interval', 5),
            ('periodic_fuzzy_delay', 0),
            ('report_interval', 5),
            ('migration_driver_continue_update_interval', 5),
            ('osapi_share_listen', '127.0.0.1'),
            ('use_stderr', 'false'),
        ]),
        ('database', [('connection',
                       db % (release_db() if RELEASE else 'manila'))]
         + RELEASE_DB_POOL),
        ('oslo_concurrency', [('lock_path',
                               os.path.join(DATA, 'manila', 'lock'))]),
        ('keystone_authtoken', [
            ('www_authenticate_uri', KEYSTONE_URL),
            ('auth_url', KEYSTONE_URL),
            ('auth_type', 'password'),
            ('username', 'manila'),
            ('password', sec['manila']),
            ('project_name', 'service'),
            ('user_domain_name', 'Default'),
            ('project_domain_name', 'Default'),
            ('region_name', 'RegionOne'),
        ]),
    ])
    files['manila/manila-share.conf'] = share_conf(delay)
    # Read after manila.conf by the paged API alone.
    files['manila/manila-api-paged.conf'] = ini([
        ('DEFAULT', [('osapi_max_limit', PAGED_LIMIT)])])
    files['manila/api-paste.ini'] = api_paste()
    with open(REQUEST_PROJECT_SRC) as f:
        files[REQUEST_PROJECT_REL] = f.read()
    return files


def backend_delay(backend, delay):
    """'realistic' or 'zero' for a backend under OPENKEEL_CLOUD_DELAY."""
    return backend.delay if delay == 'mixed' else delay


def share_conf(delay):
    """manila-share.conf: the backends and the DHSS backends' network."""
    sections = [('DEFAULT', [('enabled_share_backends',
                              ','.join(b.name for b in BACKENDS))])]
    for b in BACKENDS:
        opts = [('share_driver',
                 'manila.tests.share.drivers.dummy.DummyDriver'),
                ('driver_handles_share_servers', str(b.dhss)),
                ('share_backend_name', b.label)]
        if b.zone != DEFAULT_ZONE:
            opts.append(('backend_availability_zone', b.zone))
        if b.reserved:
            opts.append(('reserved_share_percentage', b.reserved))
        if b.name in REPLICATION_BACKENDS:
            opts.append(('replication_domain', REPLICATION_DOMAIN))
        if b.dhss:
            # One group for both: the Dummy driver wants one admin
            # address per share server as well as two user addresses.
            opts += [('network_config_group', 'dhss_network'),
                     ('admin_network_config_group', 'dhss_network')]
        # The Dummy driver reads its delays from the backend's own
        # section (manila.share.configuration.Configuration).
        if backend_delay(b, delay) == 'zero':
            opts += [('dummy_driver_default_driver_method_delay', 0),
                     ('dummy_driver_driver_methods_delays', '')]
        sections.append((b.name, opts))
    sections.append(('dhss_network', [
        ('network_api_class', 'manila.network.standalone_network_plugin.'
         'StandaloneNetworkPlugin'),
        ('network_plugin_ipv4_enabled', 'True'),
        ('standalone_network_plugin_gateway', DHSS_NETWORK['gateway']),
        ('standalone_network_plugin_mask', DHSS_NETWORK['mask']),
        ('standalone_network_plugin_allowed_ip_ranges',
         DHSS_NETWORK['ranges']),
    ]))
    return ini(sections)


def api_paste():
    """Manila's api-paste.ini with the request_project filter after
    authtoken (see request_project.py)."""
    with open(os.path.join(VENV, 'etc', 'manila', 'api-paste.ini')) as f:
        text = f.read()
    old = ' authtoken keystonecontext '
    # Two pipelines (v2 with and without limits); before 2024.1 four (v1
    # too).
    if text.count(old) not in (2, 4):
        raise CloudError('%s/etc/manila/api-paste.ini has not the two '
                         'pipelines with "%s" that request_project.py is '
                         'put into: check the Manila version' % (VENV, old))
    text = text.replace(old, ' authtoken request_project keystonecontext ')
    return text + ('\n[filter:request_project]\n'
                   'paste.filter_factory = %s:filter_factory\n'
                   % REQUEST_PROJECT_MODULE)


def fingerprint(files, names, *extra):
    h = hashlib.sha256()
    for n in names:
        h.update(n.encode() + b'\0' + files[n].encode() + b'\0')
    for e in extra:
        h.update(json.dumps(e, sort_keys=True).encode())
    return h.hexdigest()


# ---------------------------------------------------------------- services

def mysql_cmd(sql, etc=ETC):
    r = subprocess.run(['mariadb', '--defaults-file=' +
                        os.path.join(etc, 'my.cnf'), '-e', sql],
                       capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise CloudError('MariaDB command failed: %s\n%s' % (sql, r.stderr))


def rabbit_env(ports):
    rdir = os.path.join(DATA, 'rabbitmq')
    return {
        'HOME': rdir,
        'RABBITMQ_NODENAME': 'rabbit@localhost',
        'RABBITMQ_NODE_IP_ADDRESS': '127.0.0.1',
        'RABBITMQ_NODE_PORT': str(ports['amqp']),
        'RABBITMQ_DIST_PORT': str(ports['dist']),
        'ERL_EPMD_ADDRESS': '127.0.0.1',
        'ERL_EPMD_PORT': str(ports['epmd']),
        'RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS':
            '-kernel inet_dist_use_interface {127,0,0,1}',
        'RABBITMQ_CONF_ENV_FILE': os.path.join(ETC, 'rabbitmq',
                                               'rabbitmq-env.conf'),
        'RABBITMQ_CONFIG_FILE': os.path.join(ETC, 'rabbitmq', 'rabbitmq'),
        'RABBITMQ_ADVANCED_CONFIG_FILE': os.path.join(ETC, 'rabbitmq',
                                                      'advanced.config'),
        'RABBITMQ_ENABLED_PLUGINS_FILE': os.path.join(ETC, 'rabbitmq',
                                                      'enabled_plugins'),
        'RABBITMQ_MNESIA_BASE': os.path.join(rdir, 'mnesia'),
        'RABBITMQ_LOG_BASE': LOGS,
        'RABBITMQ_LOGS': os.path.join(LOGS, 'rabbitmq.log'),
        'RABBITMQ_PID_FILE': os.path.join(RUN, 'rabbitmq-beam.pid'),
    }


def start_mariadb(files, ports):
    fp = fingerprint(files, ['my.cnf'])
    if service_alive('mariadb') and load_record('mariadb').get(
            'fingerprint') == fp:
        return False
    stop_service('mariadb')
    datadir = os.path.join(DATA, 'mysql')
    cnf = os.path.join(ETC, 'my.cnf')
    if not os.path.isdir(os.path.join(datadir, 'mysql')):
        say('initialising the MariaDB data directory')
        shutil.rmtree(datadir, ignore_errors=True)
        os.makedirs(datadir)
        log = os.path.join(LOGS, 'mariadb-install-db.log')
        with open(log, 'w') as out:
            r = subprocess.run(
                ['mariadb-install-db', '--defaults-file=' + cnf,
                 '--auth-root-authentication-method=normal',
                 '--skip-test-db'],
                stdout=out, stderr=subprocess.STDOUT, check=False)
        if r.returncode != 0:
            shutil.rmtree(datadir, ignore_errors=True)
            raise CloudError('mariadb-install-db failed; log %s:\n%s'
                             % (log, tail(log)))
    say('starting MariaDB on 127.0.0.1:%d' % ports['mysql'])
    spawn('mariadb', ['mariadbd', '--defaults-file=' + cnf],
          fingerprint=fp, port=ports['mysql'])
    return True


def start_rabbitmq(files, ports):
    env = rabbit_env(ports)
    fp = fingerprint(files, ['rabbitmq/rabbitmq.conf',
                             'rabbitmq/enabled_plugins'], env)
    if service_alive('rabbitmq') and load_record('rabbitmq').get(
            'fingerprint') == fp:
        return False
    stop_service('rabbitmq')
    os.makedirs(env['HOME'], exist_ok=True)
    try:
        os.unlink(env['RABBITMQ_PID_FILE'])
    except OSError:
        pass
    say('starting RabbitMQ on 127.0.0.1:%d' % ports['amqp'])
    rec = spawn('rabbitmq', ['/usr/lib/rabbitmq/bin/rabbitmq-server'],
                extra_env=env, fingerprint=fp, port=ports['amqp'])
    rec['ports'] = ports and {k: ports[k] for k in ('amqp', 'dist', 'epmd')}
    save_record('rabbitmq', rec)
    return True


def record_rabbit_helpers():
    """Add the Erlang VM and epmd (which detaches) to rabbit's record."""
    rec = load_record('rabbitmq')
    if not rec:
        return
    known = {e['what'] for e in rec.get('extra', [])}
    mark = marker()
    changed = False
    if 'beam' not in known:
        try:
            with open(os.path.join(RUN, 'rabbitmq-beam.pid')) as f:
                pid = int(f.read().strip())
            if alive(pid):
                rec['extra'].append({'what': 'beam', 'pid': pid,
                                     'start': proc_stat(pid)[1]})
                changed = True
        except (OSError, ValueError):
            pass
    if 'epmd' not in known:
        for pid in our_processes():
            if os.path.basename(cmdline(pid).split(' ')[0]) == 'epmd' and \
                    has_marker(pid, mark):
                rec['extra'].append({'what': 'epmd', 'pid': pid,
                                     'start': proc_stat(pid)[1]})
                changed = True
                break
    if changed:
        save_record('rabbitmq', rec)


# ... [local time] @START: START is when the request began, in milliseconds since the
# epoch. uwsgi writes a line once the answer is sent, and under load a line can land
# in the file a moment after the client went on (seen: after the next task's log mark);
# setup_manila's count_requests.yml leaves out the lines of requests that began before
# the mark.
REQUEST_LOG_FORMAT = '%(method) %(uri) %(status) %(msecs)ms [%(ltime)] @%(tmsecs)'


def uwsgi_argv(name, port, module, pyargv=None, log_format=None,
               pythonpath=None, threads=8, request_log=None):
    # module: a module:callable, or a script of the venv's bin (that sets
    # "application") for the Manila releases without manila.wsgi.api.
    load = ['--wsgi-file', vbin(module)] if ':' not in module else [
        '--module', module]
    argv = [vbin('uwsgi'),
            '--master', '--die-on-term', '--need-app', '--lazy-apps',
            '--enable-threads', '--strict',
            '--virtualenv', VENV,
            '--http11-socket', '127.0.0.1:%d' % port]
    argv += load
    argv += [
        # One process with threads: half the start-up CPU of two
        # processes, which matters on a two-core machine.  Eight
        # threads: up to seven lanes of tests at a time (lane 1's
        # faults run four workers) each wait on an answer.
        '--processes', '1', '--threads', str(threads),
        '--buffer-size', '65535',
        '--pidfile', os.path.join(RUN, name + '.uwsgi.pid'),
        '--req-logger', 'file:' + os.path.join(
            LOGS, request_log or name + '-requests.log'),
        '--log-format', log_format or REQUEST_LOG_FORMAT,
    ]
    if pythonpath:
        argv += ['--pythonpath', pythonpath]
    if pyargv:
        argv += ['--pyargv', pyargv]
    return argv


def openstack_specs(files):
    mconf = os.path.join(ETC, 'manila', 'manila.conf')
    api = RELEASES[RELEASE]['wsgi_file'] if RELEASE else \
        'manila.wsgi.api:application'
    sconf = os.path.join(ETC, 'manila', 'manila-share.conf')
    specs = {
        'keystone': (
            uwsgi_argv('keystone', KEYSTONE_PORT,
                       'keystone.wsgi.api:application'),
            {'OS_KEYSTONE_CONFIG_FILES':
             os.path.join(ETC, 'keystone', 'keystone.conf')},
            ['keystone/keystone.conf']),
        'manila-api': (
            uwsgi_argv('manila', MANILA_PORT, api,
                       pyargv='--config-file %s --log-file %s' % (
                           mconf, os.path.join(LOGS, 'manila-api.log')),
                       # request_project.py sets %(project)
                       log_format=REQUEST_LOG_FORMAT + ' %(project)',
                       pythonpath=os.path.dirname(
                           os.path.join(ETC, REQUEST_PROJECT_REL))),
            {}, ['manila/manila.conf', 'manila/api-paste.ini',
                 REQUEST_PROJECT_REL]),
        # Two threads: only the tests of paging use it.  Its requests go
        # to the same request log as the main API's (one line each, the
        # same format), so that setup_manila's checks see them.
        'manila-api-paged': (
            uwsgi_argv('manila-paged', PAGED_PORT, api,
                       pyargv='--config-file %s --config-file %s '
                              '--log-file %s' % (
                                  mconf, os.path.join(
                                      ETC, 'manila',
                                      'manila-api-paged.conf'),
                                  os.path.join(LOGS,
                                               'manila-api-paged.log')),
                       log_format=REQUEST_LOG_FORMAT + ' %(project)',
                       pythonpath=os.path.dirname(
                           os.path.join(ETC, REQUEST_PROJECT_REL)),
                       threads=2, request_log='manila-requests.log'),
            {}, ['manila/manila.conf', 'manila/manila-api-paged.conf',
                 'manila/api-paste.ini', REQUEST_PROJECT_REL]),
        'manila-scheduler': (
            [vbin('manila-scheduler'), '--config-file', mconf,
             '--log-file', os.path.join(LOGS, 'manila-scheduler.log')],
            {}, ['manila/manila.conf']),
        'manila-share': (
            [vbin('manila-share'), '--config-file', mconf,
             '--config-file', sconf,
             '--log-file', os.path.join(LOGS, 'manila-share.log')],
            {}, ['manila/manila.conf', 'manila/manila-share.conf']),
    }
    # The scheduler learns of new backends by itself, but lists their
    # pools only after a restart (see wait_for_backends).
    extra_fp = {'manila-scheduler': [b.name for b in BACKENDS]}
    return {svc: (argv, env, fingerprint(files, names, argv, env,
                                         *extra_fp.get(svc, [])))
            for svc, (argv, env, names) in specs.items()
            if svc in SERVICES}


def start_openstack(specs, only=None):
    started = []
    env = dict(os.environ)
    env.pop('OS_CLOUD', None)
    for svc in OPENSTACK_SERVICES:
        if only is not None and svc not in only:
            continue
        argv, extra, fp = specs[svc]
        rec = load_record(svc)
        if service_alive(svc) and rec.get('fingerprint') == fp:
            continue
        if stop_service(svc):
            say('restarting %s (configuration changed)' % svc)
        else:
            say('starting %s' % svc)
        spawn(svc, argv, env=env, extra_env=extra, fingerprint=fp)
        started.append(svc)
    return started


# ---------------------------------------------------------------- waiting

def fail_service(svc, why):
    log = os.path.join(LOGS, LOG_OF[svc])
    out = os.path.join(LOGS, svc + '.stdout.log')
    msg = ['%s failed to come up: %s' % (svc, why),
           '--- tail of %s ---' % log, tail(log)]
    if os.path.exists(out):
        msg += ['--- tail of %s ---' % out, tail(out, 15)]
    raise CloudError('\n'.join(msg))


def wait_for(svc, check, timeout, what):
    deadline = time.monotonic() + timeout
    last = None
    while True:
        reap()
        if not service_alive(svc):
            fail_service(svc, 'its process exited')
        try:
            if check():
                return
        except Exception as exc:    # noqa: BLE001 - keep polling
            last = exc
        if time.monotonic() > deadline:
            fail_service(svc, 'timed out after %ds waiting for %s (%s)'
                         % (timeout, what, last))
        time.sleep(0.25)


Reply = collections.namedtuple('Reply', 'status body headers')


class Http:
    def __init__(self):
        self.token = None

    def call(self, method, url, body=None, headers=None, ok=(200,),
             timeout=30):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(url, data=data, method=method)
        req.add_header('Content-Type', 'application/json')
        req.add_header('Accept', 'application/json')
        if self.token:
            req.add_header('X-Auth-Token', self.token)
        for k, v in (headers or {}).items():
            req.add_header(k, v)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                status, raw, hdrs = resp.status, resp.read(), resp.headers
        except urllib.error.HTTPError as err:
            status, raw, hdrs = err.code, err.read(), err.headers
        if status not in ok:
            raise CloudError('%s %s -> %s %s' % (method, url, status,
                                                 raw[:500]))
        try:
            payload = json.loads(raw) if raw else None
        except ValueError:
            payload = None
        return Reply(status, payload, hdrs)

    def body(self, *args, **kwargs):
        return self.call(*args, **kwargs).body


def keystone_login(user, password, project):
    http = Http()
    identity = {'methods': ['password'], 'password': {'user': {
        'name': user, 'domain': {'id': 'default'}, 'password': password}}}
    scope = {'project': {'name': project, 'domain': {'id': 'default'}}}
    hdrs = http.call('POST', KEYSTONE_URL + '/auth/tokens',
                     {'auth': {'identity': identity, 'scope': scope}},
                     ok=(201,)).headers
    http.token = hdrs['X-Subject-Token']
    return http


# -------------------------------------------------------------- bootstrap

def marker_file(name):
    return os.path.join(DATA, 'done', name)


def done(name, spec):
    try:
        with open(marker_file(name)) as f:
            return f.read().strip() == sha(json.dumps(spec, sort_keys=True))
    except OSError:
        return False


def mark_done(name, spec):
    write_file(marker_file(name), sha(json.dumps(spec, sort_keys=True)))


def run_logged(argv, log, env=None, what=None):
    with open(log, 'a') as out:
        out.write('\n==== %s: %s\n' % (time.ctime(), ' '.join(argv)))
        out.flush()
        r = subprocess.run(argv, stdout=out, stderr=subprocess.STDOUT,
                           env=env, cwd=STATE, check=False)
    if r.returncode != 0:
        raise CloudError('%s failed (exit %d); log %s:\n%s'
                         % (what or argv[0], r.returncode, log, tail(log)))


def bootstrap_databases(sec):
    spec = {'dbs': ['keystone', 'manila'], 'pw': sec['db']}
    if done('databases', spec):
        return
    sql = ''.join(
        "CREATE DATABASE IF NOT EXISTS %s CHARACTER SET utf8mb4;" % d
        for d in spec['dbs'])
    sql += ("CREATE USER IF NOT EXISTS 'openkeel'@'127.0.0.1' "
            "IDENTIFIED BY '%s';" % sec['db'])
    sql += "ALTER USER 'openkeel'@'127.0.0.1' IDENTIFIED BY '%s';" % sec['db']
    sql += "GRANT ALL PRIVILEGES ON *.* TO 'openkeel'@'127.0.0.1';"
    mysql_cmd(sql)
    mark_done('databases', spec)


def base_token():
    """Changes when the base cloud is purged and made anew."""
    return (read_json(BASE_SECRETS) or {}).get('token')


def bootstrap_release(ports):
    """A release's database and RabbitMQ vhost, in the base cloud's MariaDB
    and RabbitMQ (the user openkeel may use every database; guest gets
    the vhost)."""
    spec = {'db': release_db(), 'vhost': release_vhost(),
            'base': base_token(), 'v': 1}
    if done('release-db', spec):
        return
    say('database %s and RabbitMQ vhost %s in the base cloud'
        % (release_db(), release_vhost()))
    mysql_cmd('CREATE DATABASE IF NOT EXISTS %s CHARACTER SET utf8mb4;'
              % release_db(), os.path.join(BASE_STATE, 'etc'))
    env = dict(os.environ,
               HOME=os.path.join(BASE_STATE, 'data', 'rabbitmq'),
               RABBITMQ_NODENAME='rabbit@localhost',
               ERL_EPMD_ADDRESS='127.0.0.1',
               ERL_EPMD_PORT=str(ports['epmd']))
    ctl = '/usr/lib/rabbitmq/bin/rabbitmqctl'
    have = subprocess.run([ctl, '-q', 'list_vhosts'], env=env,
                          capture_output=True, text=True, check=False)
    log = os.path.join(LOGS, 'rabbitmqctl.log')
    if release_vhost() not in have.stdout.split():
        run_logged([ctl, 'add_vhost', release_vhost()], log, env)
    run_logged([ctl, 'set_permissions', '-p', release_vhost(), 'guest',
                '.*', '.*', '.*'], log, env)
    mark_done('release-db', spec)


def keystone_manage(*args):
    # keystone-manage ignores OS_KEYSTONE_CONFIG_FILES: name the file.
    return [vbin('keystone-manage'), '--config-file',
            os.path.join(ETC, 'keystone', 'keystone.conf')] + list(args)


def keystone_keys():
    """fernet_setup and credential_setup, when their key folders are empty."""
    log = os.path.join(LOGS, 'keystone-manage.log')
    for cmd, folder in (('fernet_setup', 'fernet-keys'),
                        ('credential_setup', 'credential-keys')):
        path = os.path.join(ETC, 'keystone', folder)
        if os.path.isdir(path) and os.listdir(path):
            continue
        os.makedirs(path, exist_ok=True)
        run_logged(keystone_manage(cmd, '--keystone-user', 'root',
                                   '--keystone-group', 'root'),
                   log, None, 'keystone-manage ' + cmd)


def keystone_db(sec):
    spec = {'admin': sec['admin'], 'url': KEYSTONE_URL, 'v': 1}
    if done('keystone-db', spec):
        return
    log = os.path.join(LOGS, 'keystone-manage.log')
    say('keystone-manage db_sync + bootstrap')
    run_logged(keystone_manage('db_sync'), log, None,
               'keystone-manage db_sync')
    run_logged(keystone_manage(
        'bootstrap',
        '--bootstrap-password', sec['admin'],
        '--bootstrap-username', 'admin',
        '--bootstrap-project-name', 'admin',
        '--bootstrap-role-name', 'admin',
        '--bootstrap-service-name', 'keystone',
        '--bootstrap-region-id', 'RegionOne',
        '--bootstrap-admin-url', KEYSTONE_URL,
        '--bootstrap-internal-url', KEYSTONE_URL,
        '--bootstrap-public-url', KEYSTONE_URL),
        log, None, 'keystone-manage bootstrap')
    mark_done('keystone-db', spec)


def manila_db():
    spec = {'v': 1}
    if RELEASE:
        spec['base'] = base_token()
    if done('manila-db', spec):
        return
    say('manila-manage db sync')
    run_logged([vbin('manila-manage'), '--config-file',
                os.path.join(ETC, 'manila', 'manila.conf'), 'db', 'sync'],
               os.path.join(LOGS, 'manila-manage.log'), None,
               'manila-manage db sync')
    mark_done('manila-db', spec)


def ks_find(http, kind, name, extra=''):
    body = http.body('GET', '%s/%s?name=%s%s' % (KEYSTONE_URL, kind, name,
                                                 extra))
    items = body[kind]
    return items[0] if items else None


def ks_ensure(http, kind, name, create):
    found = ks_find(http, kind, name)
    if found:
        return found
    body = http.body('POST', '%s/%s' % (KEYSTONE_URL, kind),
                     {kind[:-1]: dict(create, name=name)}, ok=(201,))
    return body[kind[:-1]]


def password_works(name, password):
    """Whether Keystone takes the user's password (an unscoped token)."""
    identity = {'methods': ['password'], 'password': {'user': {
        'name': name, 'domain': {'id': 'default'}, 'password': password}}}
    reply = Http().call('POST', KEYSTONE_URL + '/auth/tokens',
                        {'auth': {'identity': identity}}, ok=(201, 401))
    return reply.status == 201


def ks_user(http, name, password, project_id):
    user = ks_find(http, 'users', name)
    if user:
        # Setting a password revokes the user's tokens: a test run that uses
        # this user at the same time (another lane count, another checkout)
        # would get 401s. Set it only when Keystone does not take it.
        if not user.get('enabled', True) or not password_works(name, password):
            http.call('PATCH', '%s/users/%s' % (KEYSTONE_URL, user['id']),
                      {'user': {'password': password, 'enabled': True}})
        return user
    body = http.body('POST', KEYSTONE_URL + '/users', {'user': {
        'name': name, 'password': password, 'domain_id': 'default',
        'default_project_id': project_id, 'enabled': True}}, ok=(201,))
    return body['user']


def read_lanes():
    """{lane: {'admin'|'member': {user, project, project_id, cloud}}}."""
    data = read_json(LANES_FILE) or {}
    return {int(k): v for k, v in data.items()}


def read_bench():
    """{name: project ID} of the benchmark projects (bench-projects N)."""
    return read_json(BENCH_FILE) or {}


def bench_name(number):
    """Project, user and cloud of benchmark project NUMBER (1, 2, ...)."""
    return 'bench-%d' % number


def lanes_known(users):
    lanes = read_lanes()
    return all(lanes.get(u.lane, {}).get(u.kind, {}).get('project')
               == u.project for u in users)


def bootstrap_keystone(sec):
    users = lane_users()
    spec = {'manila': sec['manila'], 'url': MANILA_URL, 'v': 2,
            'users': [[u.user, sec[u.user], u.project, list(u.roles)]
                      for u in users]}
    if done('keystone-api', spec) and lanes_known(users):
        return
    say('creating the manila service user, catalog entry and the users '
        'of %d lane(s)' % LANES)
    http = keystone_login('admin', sec['admin'], 'admin')
    roles = {r: ks_ensure(http, 'roles', r, {})['id']
             for r in ('admin', 'member', 'reader', 'service')}
    proj = {}
    for p in ['service'] + [u.project for u in users]:
        if p not in proj:
            proj[p] = ks_ensure(http, 'projects', p, {
                'domain_id': 'default', 'enabled': True})['id']
    # keystone-manage bootstrap made admin, with its role in project admin.
    grants = [('manila', sec['manila'], 'service', ('admin', 'service'))] + [
        (u.user, sec[u.user], u.project, u.roles)
        for u in users if u.user != 'admin']
    for user, pw, project, rlist in grants:
        uid = ks_user(http, user, pw, proj[project])['id']
        for r in rlist:
            http.call('PUT', '%s/projects/%s/users/%s/roles/%s' % (
                KEYSTONE_URL, proj[project], uid, roles[r]), ok=(204,))
    lanes = read_lanes()
    for u in users:
        lanes.setdefault(u.lane, {})[u.kind] = {
            'user': u.user, 'project': u.project,
            'project_id': proj[u.project], 'cloud': u.cloud}
    write_file(LANES_FILE, json.dumps(lanes, indent=1, sort_keys=True))
    body = http.body('GET', KEYSTONE_URL + '/services?type=sharev2')
    if body['services']:
        sid = body['services'][0]['id']
    else:
        body = http.body('POST', KEYSTONE_URL + '/services', {
            'service': {'type': 'sharev2', 'name': 'manilav2',
                        'description': 'Manila v2', 'enabled': True}},
            ok=(201,))
        sid = body['service']['id']
    body = http.body('GET', KEYSTONE_URL + '/endpoints?service_id=' + sid)
    have = {e['interface']: e for e in body['endpoints']}
    for iface in ('public', 'internal', 'admin'):
        ep = have.get(iface)
        if ep is None:
            http.call('POST', KEYSTONE_URL + '/endpoints', {'endpoint': {
                'service_id': sid, 'interface': iface, 'url': MANILA_URL,
                'region_id': 'RegionOne', 'enabled': True}}, ok=(201,))
        elif ep['url'] != MANILA_URL:
            http.call('PATCH', '%s/endpoints/%s' % (KEYSTONE_URL, ep['id']),
                      {'endpoint': {'url': MANILA_URL}})
    mark_done('keystone-api', spec)


def manila_headers():
    return {'X-OpenStack-Manila-API-Version': MICROVERSION}


def bootstrap_manila(sec):
    lanes = read_lanes()
    project_ids = sorted({v['project_id'] for lane in lanes.values()
                          for v in lane.values()})
    spec = {'types': SHARE_TYPES, 'caps': CAPABILITIES, 'quotas': QUOTAS,
            'projects': project_ids, 'v': 3}
    if done('manila-api', spec):
        return
    say('creating share types, raising quotas of %d project(s)'
        % len(project_ids))
    http = keystone_login('admin', sec['admin'], 'admin')
    hdr = manila_headers()
    body = http.body('GET', MANILA_URL + '/types?is_public=all', headers=hdr)
    types = {t['name']: t for t in body['share_types']}
    for name, (dhss, specs) in SHARE_TYPES.items():
        extra = dict(CAPABILITIES, **specs)
        if name not in types:
            extra['driver_handles_share_servers'] = str(dhss)
            http.call('POST', MANILA_URL + '/types', {'share_type': {
                'name': name, 'share_type_access:is_public': True,
                'extra_specs': extra}}, headers=hdr)
            continue
        have = types[name].get('required_extra_specs', {}).get(
            'driver_handles_share_servers', '')
        if have.lower() != str(dhss).lower():
            raise CloudError(
                'share type %s exists with driver_handles_share_servers=%s, '
                'this cloud wants %s: delete the type (openstack share type '
                'delete %s, as admin) and run up again'
                % (name, have, dhss, name))
        have_specs = types[name].get('extra_specs', {})
        if any(have_specs.get(k) != v for k, v in extra.items()):
            http.call('POST', '%s/types/%s/extra_specs' % (
                MANILA_URL, types[name]['id']), {'extra_specs': extra},
                headers=hdr)
        if 'share_backend_name' in have_specs and \
                'share_backend_name' not in extra:
            http.call('DELETE', '%s/types/%s/extra_specs/share_backend_name'
                      % (MANILA_URL, types[name]['id']), headers=hdr,
                      ok=(202,))
    # The defaults of every project (the tests may make projects of their
    # own), and explicitly for the lanes' projects.
    http.call('PUT', MANILA_URL + '/quota-class-sets/default',
              {'quota_class_set': QUOTAS}, headers=hdr)
    for pid in project_ids:
        http.call('PUT', '%s/quota-sets/%s' % (MANILA_URL, pid),
                  {'quota_set': QUOTAS}, headers=hdr)
    mark_done('manila-api', spec)


def backends_state(http):
    """'services' while a backend's service is not up, 'pools' while the
    scheduler does not list all pools, else 'ready'."""
    hdr = manila_headers()
    body = http.body('GET', MANILA_URL + '/services?binary=manila-share',
                     headers=hdr)
    up = {s['host'] for s in body['services']
          if s['state'] == 'up' and s['status'] == 'enabled'}
    if not all('%s@%s' % (HOST, n) in up for n in POOLS):
        return 'services'
    # The API asks the scheduler over RPC: a scheduler that is still
    # starting (or busy on a loaded machine) leaves the call hanging, which
    # means the same as a missing pool: not ready yet.
    try:
        body = http.body('GET', MANILA_URL + '/scheduler-stats/pools',
                         headers=hdr, timeout=10)
    except (OSError, CloudError) as err:
        say('the scheduler did not list its pools yet (%s)' % (err,))
        # The API's worker threads stay busy with such a call until its RPC
        # timeout: do not pile up more of them.
        time.sleep(5)
        return 'pools'
    names = {p['name'] for p in body['pools']}
    return 'ready' if all(p in names for p in POOLS.values()) else 'pools'


def wait_for_backends(http, specs):
    """Wait until every backend is up and listed as a pool.

    The scheduler answers GET /scheduler-stats/pools from a cache that it
    fills only when it is empty or when it places a share, from the
    capabilities the backends sent it: a backend that reports after the
    first listing stays missing.  The backends report when they start, when
    a scheduler starts and every 60 s; once a backend did not answer a new
    scheduler.  When all backends are up and a pool is still missing after
    20 s, restart manila-share and the scheduler together (twice at most).
    """
    say('waiting for the %d share backends to report up' % len(BACKENDS))
    deadline = time.monotonic() + 120
    missing_since = None
    restarts = 0
    last = None
    while True:
        state = backends_state(http)
        if state != last and state != 'services':
            say({'pools': 'all backends up; waiting for the scheduler to '
                          'list their pools',
                 'ready': 'all pools listed'}[state])
        last = state
        if state == 'ready':
            return
        reap()
        for svc in ('manila-scheduler', 'manila-share'):
            if not service_alive(svc):
                fail_service(svc, 'its process exited')
        now = time.monotonic()
        if state != 'pools':
            missing_since = None
        elif missing_since is None:
            missing_since = now
        elif now - missing_since > 20 and restarts < 2:
            restarts += 1
            say('the scheduler lists not every pool after 20 s: restarting '
                'manila-share and manila-scheduler')
            for svc in ('manila-scheduler', 'manila-share'):
                stop_service(svc)
            start_openstack(specs, only=['manila-scheduler', 'manila-share'])
            missing_since = None
            deadline = max(deadline, time.monotonic() + 60)
        if now > deadline:
            fail_service('manila-share', 'backends %s not up/listed after '
                         '%d s' % (', '.join(POOLS.values()), now - T0))
        time.sleep(0.5)


# ------------------------------------------------------------- outputs

def to_yaml(data, indent=0):
    """Block-style YAML for nested dicts of scalars (scalars as JSON)."""
    lines = []
    for key, value in data.items():
        if isinstance(value, dict):
            lines.append('%s%s:' % (' ' * indent, key))
            lines.append(to_yaml(value, indent + 2))
        else:
            lines.append('%s%s: %s' % (' ' * indent, key, json.dumps(value)))
    return '\n'.join(lines)


def auth_dict(user, password, project):
    return {'auth_url': KEYSTONE_URL, 'username': user, 'password': password,
            'project_name': project, 'user_domain_name': 'Default',
            'project_domain_name': 'Default'}


def paged(cloud):
    """The name of the cloud that is ``cloud`` through the paged API."""
    return cloud + '-paged'


def write_clouds_yaml(sec):
    clouds = {}
    for u in lane_users():
        clouds[u.cloud] = {'auth_type': 'password', 'region_name': 'RegionOne',
                           'identity_api_version': 3,
                           'auth': auth_dict(u.user, sec[u.user], u.project)}
    # openstacksdk's loader (and so the modules) take the endpoint from
    # <service type>_endpoint_override instead of the catalog.
    paged_clouds = {paged(name): dict(
        cloud, shared_file_system_endpoint_override=PAGED_URL)
        for name, cloud in clouds.items()}
    if RELEASE:
        # Not in Keystone's catalog (see README.md, "Older Manila
        # releases"): every cloud names its API.
        for cloud in clouds.values():
            cloud['shared_file_system_endpoint_override'] = MANILA_URL
    write_file(PAGED_CLOUDS_YAML, '# written by tests/cloud/manila-cloud\n'
               + to_yaml({'clouds': paged_clouds}) + '\n', mode=0o600)
    clouds.update(paged_clouds)
    write_file(CLOUDS_YAML, '# written by tests/cloud/manila-cloud\n'
               + to_yaml({'clouds': clouds}) + '\n', mode=0o600)


def write_bench_clouds_yaml(bench, sec):
    """clouds-bench.yaml: the clouds of the benchmark projects, and those of
    lane 1 (admin, member), so that one file serves a benchmark."""
    clouds = {}
    for u in lane_users():
        if u.lane == 1:
            clouds[u.cloud] = {'auth_type': 'password', 'region_name': 'RegionOne',
                               'identity_api_version': 3,
                               'auth': auth_dict(u.user, sec[u.user], u.project)}
    for name in sorted(bench, key=lambda n: int(n.split('-')[1])):
        clouds[name] = {'auth_type': 'password', 'region_name': 'RegionOne',
                        'identity_api_version': 3,
                        'auth': auth_dict(name, sec[name], name)}
    write_file(BENCH_CLOUDS_YAML, '# written by tests/cloud/manila-cloud '
               'bench-projects\n' + to_yaml({'clouds': clouds}) + '\n',
               mode=0o600)


def integration_vars(sec, lane=None):
    """The variables of integration_config.yml.

    lane=None: lane 1's users without manila_lane_projects, so that the
    request log checks of setup_manila count every request (as when one
    ansible-test runs at a time).  lane=K: lane K's clouds, users and
    projects, and manila_lane_projects (its two project IDs), which
    scope those checks to the lane's own requests.
    """
    lanes = read_lanes()
    mine = lanes[lane or 1]
    config = {
        'manila_clouds_yaml': CLOUDS_YAML,
        'manila_cloud_admin': mine['admin']['cloud'],
        'manila_cloud_member': mine['member']['cloud'],
        # The same users through the API whose pages hold PAGED_LIMIT items
        # (clouds.yaml has them too, unless an older checkout's `up`
        # rewrote it).
        'manila_clouds_yaml_paged': PAGED_CLOUDS_YAML,
        'manila_cloud_admin_paged': paged(mine['admin']['cloud']),
        'manila_cloud_member_paged': paged(mine['member']['cloud']),
        'manila_paged_limit': PAGED_LIMIT,
        'manila_request_log': os.path.join(LOGS, 'manila-requests.log'),
        # Keystone's: the base cloud's, also for a release's cloud
        'manila_keystone_request_log': os.path.join(BASE_STATE, 'logs',
                                                    'keystone-requests.log'),
        'manila_pool_alpha': POOLS['alpha'],
        'manila_pool_beta': POOLS['beta'],
        'manila_pool_fast': POOLS['gamma'],
        'manila_pool_dhss': POOLS['delta'],
        'manila_pool_dhss_other_zone': POOLS['epsilon'],
        'manila_type_alpha': 'alpha',
        'manila_type_beta': 'beta',
        'manila_type_default': 'default',
        'manila_type_fast': 'gamma',
        'manila_type_dhss': 'dhss',
        'manila_type_unplaceable': 'nowhere',
        'manila_type_replicated': 'replicated-readable',
        'manila_zone': DEFAULT_ZONE,
        'manila_zone_other': OTHER_ZONE,
        'manila_zone_unknown': 'no-such-zone',
        # Its bin/openstack and bin/manila (a release's venv has neither).
        'manila_cloud_venv': os.path.join(BASE_STATE, 'venv'),
        'manila_project_admin': mine['admin']['project'],
        'manila_project_admin_id': mine['admin']['project_id'],
        'manila_project_member': mine['member']['project'],
        'manila_project_member_id': mine['member']['project_id'],
    }
    for kind in ('admin', 'member'):
        u = mine[kind]
        config['manila_auth_' + kind] = auth_dict(
            u['user'], sec[u['user']], u['project'])
    # The newest microversion the cloud's Manila speaks (the modules ask
    # for it, unless capped): 2.99 for 23.0.1, 2.82 for 17.4.0.
    config['manila_api_max'] = versions_document()[0]
    if RELEASE:
        config['manila_release'] = RELEASE
    # The environment of the tasks that pass an auth dict instead of a
    # cloud: a release's Manila is not in Keystone's catalog (README.md,
    # "Older Manila releases"), so openstacksdk takes its API from the
    # OS_* override of the cloud it builds from the environment. The base
    # cloud has none (the catalog's Manila; the tasks default to
    # an empty environment).
    if RELEASE:
        config['manila_auth_environment'] = {
            'OS_SHARED_FILE_SYSTEM_ENDPOINT_OVERRIDE': MANILA_URL}
    # For names of things all lanes see (share types, public shares).
    config['manila_lane'] = lane or 1
    if lane is not None:
        config['manila_lane_projects'] = [mine['admin']['project_id'],
                                          mine['member']['project_id']]
    return config


def write_integration_config(path, config, what):
    write_file(path, '# written by tests/cloud/manila-cloud %s\n' % what
               + to_yaml(config) + '\n', mode=0o600)


# ------------------------------------------------------------- commands

def cmd_up():
    delay = os.environ.get('OPENKEEL_CLOUD_DELAY') or 'mixed'
    if delay not in DELAYS:
        raise CloudError('OPENKEEL_CLOUD_DELAY must be one of %s, not %r'
                         % (', '.join(DELAYS), delay))
    if os.geteuid() != 0:
        raise CloudError('run as root (it installs Debian packages and '
                         'runs MariaDB as root)')
    for d in (STATE, ETC, DATA, LOGS, RUN):
        os.makedirs(d, exist_ok=True)
    kept = read_json(SETTINGS) or {}
    for service, port in (('keystone', KEYSTONE_PORT),
                          ('manila', MANILA_PORT)):
        key = service + '_port'
        if kept.get(key, port) != port:
            raise CloudError(
                'this cloud serves %s on port %s (%s): its catalog, '
                'clouds.yaml and tokens name it. Keep that port, or purge '
                'the cloud to move it' % (service, kept[key], SETTINGS))
    say('state directory %s (delay: %s, keystone port %d, manila port %d, '
        '%d lane(s))' % (STATE, delay, KEYSTONE_PORT, MANILA_PORT, LANES))
    write_file(SETTINGS, json.dumps({
        'keystone_port': KEYSTONE_PORT, 'manila_port': MANILA_PORT,
        'lanes': LANES}, indent=1) + '\n')
    if RELEASE:
        return up_release(delay)
    ensure_apt()
    sec = load_secrets()
    ports = choose_ports()
    # MariaDB and RabbitMQ need nothing from the venv: start them first,
    # so they boot while pip works.
    files = write_configs(ports, sec, delay, openstack=False)
    start_mariadb(files, ports)
    start_rabbitmq(files, ports)
    ensure_venv()
    files = write_configs(ports, sec, delay)
    errors = []

    def guarded(fn, *a):
        try:
            fn(*a)
        except Exception as exc:     # noqa: BLE001 - reported below
            errors.append(exc)
    key_thread = threading.Thread(target=guarded, args=(keystone_keys,))
    key_thread.start()
    wait_for('mariadb', lambda: os.path.exists(os.path.join(
        RUN, 'mysqld.sock')) and port_answers(ports['mysql']),
        60, 'its socket')
    bootstrap_databases(sec)
    threads = [threading.Thread(target=guarded, args=(keystone_db, sec)),
               threading.Thread(target=guarded, args=(manila_db,))]
    for t in threads:
        t.start()
    for t in [key_thread] + threads:
        t.join()
    if errors:
        raise errors[0]
    specs = openstack_specs(files)
    start_openstack(specs)
    wait_for('rabbitmq', lambda: port_answers(ports['amqp']), 90,
             'its AMQP port')
    record_rabbit_helpers()
    wait_for('keystone', lambda: keystone_login('admin', sec['admin'],
                                                'admin'), 90,
             'a token for admin')
    bootstrap_keystone(sec)
    wait_for('manila-api', lambda: Http().call(
        'GET', 'http://127.0.0.1:%d/' % MANILA_PORT, ok=(300,)), 90,
        'GET /')
    wait_for('manila-api-paged', lambda: Http().call(
        'GET', 'http://127.0.0.1:%d/' % PAGED_PORT, ok=(300,)), 90,
        'GET /')
    bootstrap_manila(sec)
    write_clouds_yaml(sec)
    write_integration_config(INTEGRATION_CONFIG, integration_vars(sec),
                             'up (git-ignored)')
    admin = keystone_login('admin', sec['admin'], 'admin')
    wait_for_backends(admin, specs)
    say('cloud is up: keystone %s, manila %s (paged, osapi_max_limit %d: '
        '%s), pools %s' % (KEYSTONE_URL, MANILA_URL, PAGED_LIMIT, PAGED_URL,
                           ', '.join(POOLS.values())))
    print('clouds.yaml: %s (clouds %s, each also as NAME-paged)' % (
        CLOUDS_YAML, ', '.join(u.cloud for u in lane_users())))
    print('integration config: %s' % INTEGRATION_CONFIG)
    print('elapsed: %.1f s' % (time.monotonic() - T0))


def ensure_base():
    """Bring the base cloud (the current Manila, Keystone, MariaDB,
    RabbitMQ) up, unless it is up with enough lanes already."""
    env = dict(os.environ)
    for var in ('OPENKEEL_MANILA_RELEASE', 'OPENKEEL_MANILA_RELEASE_PORT'):
        env.pop(var, None)
    script = [sys.executable, os.path.realpath(__file__)]
    status = subprocess.run(script + ['status'], env=env, check=False,
                            capture_output=True, text=True)
    lanes = (read_json(BASE_SETTINGS) or {}).get('lanes', 0)
    if status.returncode == 0 and lanes >= LANES and \
            os.path.exists(LANES_FILE):
        say('base cloud %s is up (%d lanes)' % (BASE_STATE, lanes))
        return
    say('bringing the base cloud %s up first' % BASE_STATE)
    env['OPENKEEL_CLOUD_LANES'] = str(LANES)
    if subprocess.run(script + ['up'], env=env, check=False).returncode:
        raise CloudError('the base cloud %s did not come up' % BASE_STATE)


def versions_document():
    """(version of the CURRENT v2 API, its min_version) of Manila's GET /."""
    body = Http().body('GET', MANILA_URL.rsplit('/', 1)[0] + '/',
                       ok=(300,))
    v2 = [v for v in body['versions'] if v['id'] == 'v2.0']
    return v2[0]['version'], v2[0]['min_version']


def up_release(delay):
    """up for OPENKEEL_MANILA_RELEASE: this release's Manila beside the
    base cloud, with the base cloud's MariaDB, RabbitMQ, Keystone and
    users (its own database, vhost, venv, ports and state directory)."""
    ensure_base()
    sec = load_secrets()
    ports = choose_ports()
    ensure_venv()
    files = write_configs(ports, sec, delay)
    bootstrap_release(ports)
    manila_db()
    specs = openstack_specs(files)
    start_openstack(specs)
    for svc, port in (('manila-api', MANILA_PORT),
                      ('manila-api-paged', PAGED_PORT)):
        wait_for(svc, lambda p=port: Http().call(
            'GET', 'http://127.0.0.1:%d/' % p, ok=(300,)), 90, 'GET /')
    bootstrap_manila(sec)
    write_clouds_yaml(sec)
    write_integration_config(INTEGRATION_CONFIG, integration_vars(sec),
                             'up (OPENKEEL_MANILA_RELEASE=%s)' % RELEASE)
    admin = keystone_login('admin', sec['admin'], 'admin')
    wait_for_backends(admin, specs)
    version, low = versions_document()
    say('cloud is up: Manila %s (release %s, API %s to %s) at %s (paged, '
        'osapi_max_limit %d: %s), keystone %s, pools %s' % (
            RELEASES[RELEASE]['manila'].split('==')[1], RELEASE, low,
            version, MANILA_URL, PAGED_LIMIT, PAGED_URL, KEYSTONE_URL,
            ', '.join(POOLS.values())))
    print('clouds.yaml: %s (clouds %s, each also as NAME-paged)' % (
        CLOUDS_YAML, ', '.join(u.cloud for u in lane_users())))
    print('integration config: %s' % INTEGRATION_CONFIG)
    print('elapsed: %.1f s' % (time.monotonic() - T0))


def cmd_down():
    if not os.path.isdir(STATE):
        print('nothing to stop: %s does not exist' % STATE)
        return 0
    stopped = []
    # OpenStack services together, then the broker and the database.
    groups = [OPENSTACK_SERVICES, ['rabbitmq'], ['mariadb']]
    for group in groups:
        threads = []
        for svc in group:
            if load_record(svc):
                stopped.append(svc)
                threads.append(threading.Thread(target=stop_service,
                                                args=(svc,)))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    # Anything left that carries this cloud's marker (uwsgi workers,
    # manila-share's per-backend workers) was started by us: stop it too.
    left = our_processes()
    for pid in left:
        stop_pid(pid, proc_stat(pid)[1] if proc_stat(pid) else None, 5)
    left = our_processes()
    print('stopped: %s' % (', '.join(stopped) or 'nothing was running'))
    if left:
        print('still running: %s' % left, file=sys.stderr)
        return 1
    return 0


def cmd_status():
    if not os.path.isdir(STATE):
        print('no cloud: %s does not exist' % STATE)
        return 3
    bad = 0
    for svc in SERVICES:
        rec = load_record(svc)
        up = service_alive(svc)
        detail = 'not running'
        if rec:
            detail = 'pid %s' % rec.get('pid')
            extra = ', '.join('%s %s' % (e['what'], e['pid'])
                              for e in rec.get('extra', []))
            if extra:
                detail += ' (%s)' % extra
        port = {'keystone': KEYSTONE_PORT,
                'manila-api': MANILA_PORT,
                'manila-api-paged': PAGED_PORT}.get(svc, rec.get('port'))
        if up and port and not port_answers(port):
            up = False
            detail += ', port %s not answering' % port
        elif up and port:
            detail += ', 127.0.0.1:%s' % port
        elif rec and not up:
            detail += ' (exited)'
        if not up:
            bad += 1
        print('%-17s %-5s %s  log: %s' % (
            svc, 'up' if up else 'DOWN', detail,
            os.path.join(LOGS, LOG_OF[svc])))
    return 1 if bad else 0


def cmd_purge():
    rc = cmd_down()
    if rc != 0:
        print('not removing %s: processes remain' % STATE, file=sys.stderr)
        return rc
    if os.path.isdir(STATE):
        shutil.rmtree(STATE)
        print('removed %s' % STATE)
    return 0


def cmd_env():
    print('export OS_CLIENT_CONFIG_FILE=%s' % CLOUDS_YAML)
    print('export OS_CLOUD=admin')
    print('export PATH=%s:"$PATH"' % os.path.join(BASE_STATE, 'venv', 'bin'))
    return 0


def cmd_lane_config(lane, path):
    """Write integration_config.yml for lane K (an ansible-test run)."""
    try:
        lane = int(lane)
    except ValueError:
        lane = 0
    lanes = read_lanes()
    sec = read_json(BASE_SECRETS) or {}
    if not lanes or not os.path.exists(CLOUDS_YAML):
        raise CloudError('no cloud in %s: run tests/cloud/manila-cloud up '
                         'first' % STATE)
    if not 1 <= lane <= LANES or lane not in lanes or any(
            lanes[lane][k]['user'] not in sec for k in ('admin', 'member')):
        raise CloudError('lane must be a number from 1 to %d (the cloud has '
                         '%d lanes; OPENKEEL_CLOUD_LANES=N manila-cloud up '
                         'makes N)' % (LANES, LANES))
    config = integration_vars(sec, lane)
    write_integration_config(os.path.abspath(path), config,
                             'lane-config %d' % lane)
    print('lane %d: clouds %s and %s, projects %s; written to %s' % (
        lane, config['manila_cloud_admin'], config['manila_cloud_member'],
        ', '.join(config['manila_lane_projects']), path))
    return 0


def cmd_bench_projects(count):
    """Exactly COUNT benchmark member projects, bench-1 .. bench-COUNT.

    Each is a Keystone project with a user of the same name (roles member
    and reader, as a lane's member), the Manila quotas of a lane's project,
    and a cloud of the same name in clouds.yaml.  Projects that exist are
    kept as they are (running it again changes nothing); those above COUNT
    are removed, unless they still hold shares.  No service is restarted.
    """
    try:
        count = int(count)
    except ValueError:
        count = -1
    if RELEASE:
        raise CloudError('bench-projects works on the base cloud (without '
                         'OPENKEEL_MANILA_RELEASE)')
    if not 0 <= count <= BENCH_MAX:
        raise CloudError('N must be a number from 0 to %d' % BENCH_MAX)
    if not read_lanes() or not os.path.exists(CLOUDS_YAML):
        raise CloudError('no cloud in %s: run tests/cloud/manila-cloud up '
                         'first' % STATE)
    sec = read_json(SECRETS) or {}
    wanted = [bench_name(n) for n in range(1, count + 1)]
    missing = [name for name in wanted if name not in sec]
    if missing:
        sec.update((name, secrets.token_urlsafe(18)) for name in missing)
        write_file(SECRETS, json.dumps(sec, indent=1), mode=0o600)
    http = keystone_login('admin', sec['admin'], 'admin')
    hdr = manila_headers()
    roles = {r: ks_find(http, 'roles', r)['id'] for r in ('member', 'reader')}
    bench = read_bench()
    for name in wanted:
        project_id = ks_ensure(http, 'projects', name, {
            'domain_id': 'default', 'enabled': True,
            'description': 'benchmark project (manila-cloud bench-projects)'
        })['id']
        user_id = ks_user(http, name, sec[name], project_id)['id']
        for role in ('member', 'reader'):
            http.call('PUT', '%s/projects/%s/users/%s/roles/%s' % (
                KEYSTONE_URL, project_id, user_id, roles[role]), ok=(204,))
        if bench.get(name) != project_id:
            # once, for a new project (the file names it once this is done)
            http.call('PUT', '%s/quota-sets/%s' % (MANILA_URL, project_id),
                      {'quota_set': QUOTAS}, headers=hdr,
                      timeout=MANILA_TIMEOUT)
        bench[name] = project_id
        write_file(BENCH_FILE, json.dumps(bench, indent=1, sort_keys=True))
    for name in sorted(set(bench) - set(wanted)):
        project_id = bench[name]
        left = http.body('GET', '%s/shares?all_tenants=1&project_id=%s' % (
            MANILA_URL, project_id), headers=hdr,
            timeout=MANILA_TIMEOUT)['shares']
        if left:
            raise CloudError('%s still has %d share(s): delete them first'
                             % (name, len(left)))
        http.call('DELETE', '%s/quota-sets/%s' % (MANILA_URL, project_id),
                  headers=hdr, ok=(200, 202, 204), timeout=MANILA_TIMEOUT)
        user = ks_find(http, 'users', name)
        if user:
            http.call('DELETE', '%s/users/%s' % (KEYSTONE_URL, user['id']),
                      ok=(204,))
        http.call('DELETE', '%s/projects/%s' % (KEYSTONE_URL, project_id),
                  ok=(204, 404))
        del bench[name]
        sec.pop(name, None)
        write_file(BENCH_FILE, json.dumps(bench, indent=1, sort_keys=True))
        write_file(SECRETS, json.dumps(sec, indent=1), mode=0o600)
    write_bench_clouds_yaml(bench, sec)
    print('benchmark projects: %s (clouds of the same names in %s)' % (
        ', '.join(sorted(bench, key=lambda n: int(n.split('-')[1])))
        or 'none', BENCH_CLOUDS_YAML))
    return 0


def take_lock(command):
    """Serialise up/down/purge: several developers share one cloud."""
    # Beside the state directory, not in it: purge must not remove it.
    path = STATE + '.lock'
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 200, 0).decode(errors='replace').strip()
        say('waiting for another manila-cloud run (%s)' % holder)
        fcntl.flock(fd, fcntl.LOCK_EX)
    os.ftruncate(fd, 0)
    os.pwrite(fd, ('pid %d: %s\n' % (os.getpid(), command)).encode(), 0)
    if command != 'up' and not os.path.isdir(STATE):
        return fd
    os.makedirs(LOGS, exist_ok=True)
    with open(os.path.join(LOGS, 'manila-cloud.log'), 'a') as log:
        log.write('%s pid %d (parent %d %s) cwd %s: %s%s\n' % (
            time.strftime('%Y-%m-%dT%H:%M:%S'), os.getpid(), os.getppid(),
            cmdline(os.getppid())[:80], os.getcwd(), command,
            ' OPENKEEL_CLOUD_DELAY=%s' % os.environ['OPENKEEL_CLOUD_DELAY']
            if 'OPENKEEL_CLOUD_DELAY' in os.environ else ''))
    return fd


def main(argv):
    cmds = {'up': cmd_up, 'down': cmd_down, 'status': cmd_status,
            'purge': cmd_purge, 'env': cmd_env}
    if len(argv) == 3 and argv[1] == 'bench-projects':
        lock = take_lock('bench-projects')  # not while up/down/purge run
        del lock
        try:
            return cmd_bench_projects(argv[2])
        except CloudError as exc:
            print('ERROR: %s' % exc, file=sys.stderr)
            return 1
    if len(argv) == 4 and argv[1] == 'lane-config':
        try:
            return cmd_lane_config(argv[2], argv[3])
        except CloudError as exc:
            print('ERROR: %s' % exc, file=sys.stderr)
            return 1
    if len(argv) != 2 or argv[1] not in cmds:
        print('usage: %s {%s} | lane-config K PATH | bench-projects N' % (
            os.path.basename(argv[0]), '|'.join(cmds)), file=sys.stderr)
        return 2
    try:
        if argv[1] in ('up', 'down', 'purge'):
            lock = take_lock(argv[1])   # held until this process exits
            del lock
            global T0   # pylint: disable=global-statement
            T0 = time.monotonic()   # time our own work, not the wait
        return cmds[argv[1]]() or 0
    except CloudError as exc:
        print('ERROR: %s' % exc, file=sys.stderr)
        return 1
    except subprocess.CalledProcessError as exc:
        print('ERROR: %s' % exc, file=sys.stderr)
        return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
