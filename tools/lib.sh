# shellcheck shell=bash
# shellcheck disable=SC2034  # the variables are used by the scripts that source this file
# Shared by tools/test and tools/demo (sourced, not run).
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

ensure_venv() {
    local py want stamp=$VENV/.openkeel-stamp
    py=$(pick_python) || { echo "no Python >= 3.11 with venv and ensurepip found (set OPENKEEL_PYTHON)" >&2; return 1; }
    want=$(cat "$REPO/requirements.txt" "$REPO/tests/requirements.txt" "$REPO/tests/constraints.txt" \
        <("$py" -c 'import sys; print(sys.version)') | sha256sum | cut -d' ' -f1)
    mkdir -p "$(dirname "$VENV")"
    (
        flock 8
        if [ -x "$VENV/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
            echo "venv $VENV is up to date"
            exit 0
        fi
        # (this machine's pip configuration names local index folders that lack most
        # packages; pip warns about each: those warnings are filtered out below)
        echo "(re)building venv $VENV with $py"
        rm -rf "$VENV"
        "$py" -m venv "$VENV" &&
            "$VENV/bin/python" -m pip install --quiet --upgrade pip &&
            "$VENV/bin/python" -m pip install --quiet \
                -r "$REPO/tests/requirements.txt" -c "$REPO/tests/constraints.txt" &&
            echo "$want" > "$stamp"
    ) 8>"$VENV.lock" 2> >(grep -v "^WARNING: Location 'file:.*' is ignored" >&2)
}

# A value from the integration_config.yml that `manila-cloud up` writes.
cloud_var() {
    "$VENV/bin/python" - "$REPO/tests/integration/integration_config.yml" "$1" <<'PY'
import sys, yaml
with open(sys.argv[1]) as f:
    print(yaml.safe_load(f)[sys.argv[2]])
PY
}
