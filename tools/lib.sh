# shellcheck shell=bash
# shellcheck disable=SC2034  # the variables are used by the scripts that source this file
# Shared by tools/test, tools/demo and tools/matrix-freeze (sourced, not run).
# The test venv: $OPENKEEL_TEST_VENV (default /var/tmp/openkeel-manila-venv), made from
# tests/requirements.txt + tests/constraints.txt and rebuilt when either of those,
# requirements.txt or the Python version changes (a hash stamp in the venv).

REPO=${REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)}
VENV=${OPENKEEL_TEST_VENV:-/var/tmp/openkeel-manila-venv}
CLOUD_DIR=${OPENKEEL_CLOUD_DIR:-/var/tmp/openkeel-manila-cloud}
CLOUD_SCRIPT=$REPO/tests/cloud/manila-cloud

# The first Python >= 3.11 with venv and ensurepip: $OPENKEEL_PYTHON, python3.11, python3.
pick_python() {
    local c
    for c in ${OPENKEEL_PYTHON:-} python3.11 python3; do
        if command -v "$c" >/dev/null 2>&1 &&
            "$c" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            command -v "$c"
            return 0
        fi
    done
    return 1
}

# find_python X.Y: a Python X.Y with venv and ensurepip: pythonX.Y on PATH (a pyenv
# shim only counts when it runs), else the newest X.Y.* under $(pyenv root)/versions,
# else /usr/local/bin or /usr/bin.
find_python() {
    local want=$1 c root
    local check="import sys, venv, ensurepip; sys.exit('%d.%d' % sys.version_info[:2] != '$want')"
    root=$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")
    # shellcheck disable=SC2012  # version directories: plain names, sorted by version
    for c in "python$want" \
        $(ls -d "$root/versions/$want".* 2>/dev/null | sort -V -r | sed "s|\$|/bin/python$want|") \
        "/usr/local/bin/python$want" "/usr/bin/python$want"; do
        if command -v "$c" >/dev/null 2>&1 && "$c" -c "$check" 2>/dev/null; then
            command -v "$c"
            return 0
        fi
    done
    return 1
}

# build_venv DIR PYTHON REQUIREMENTS CONSTRAINTS: a venv at DIR with PYTHON, from
# REQUIREMENTS with the exact versions of CONSTRAINTS; rebuilt only when one of those
# files, requirements.txt or the Python version changed (a hash stamp in the venv).
build_venv() {
    local dir=$1 py=$2 reqs=$3 cons=$4 want stamp=$1/.openkeel-stamp
    want=$(cat "$REPO/requirements.txt" "$reqs" "$cons" \
        <("$py" -c 'import sys; print(sys.version)') | sha256sum | cut -d' ' -f1)
    mkdir -p "$(dirname "$dir")"
    (
        flock 8
        if [ -x "$dir/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
            echo "venv $dir is up to date"
            exit 0
        fi
        # (this machine's pip configuration names local index folders that lack most
        # packages; pip warns about each: those warnings are filtered out below)
        echo "(re)building venv $dir with $py"
        rm -rf "$dir"
        "$py" -m venv "$dir" &&
            "$dir/bin/python" -m pip install --quiet --upgrade pip &&
            "$dir/bin/python" -m pip install --quiet -r "$reqs" -c "$cons" &&
            echo "$want" > "$stamp"
    ) 8>"$dir.lock" 2> >(grep -v "^WARNING: Location 'file:.*' is ignored" >&2)
}

# The test venv of tools/test and tools/demo.
ensure_venv() {
    local py
    py=$(pick_python) || { echo "no Python >= 3.11 with venv and ensurepip found (set OPENKEEL_PYTHON)" >&2; return 1; }
    build_venv "$VENV" "$py" "$REPO/tests/requirements.txt" "$REPO/tests/constraints.txt"
}

# A value from the integration_config.yml that `manila-cloud up` writes.
cloud_var() {
    "$VENV/bin/python" - "$REPO/tests/integration/integration_config.yml" "$1" <<'PY'
import sys, yaml
with open(sys.argv[1]) as f:
    print(yaml.safe_load(f)[sys.argv[2]])
PY
}
