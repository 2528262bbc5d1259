#!/bin/sh
# Create a Home Assistant virtualenv that validate.py runs in.
# Idempotent: does nothing when the venv already holds that version.
#
#   Tests/ha-schema/setup.sh             # 2024.1.6 (legacy payloads) at /opt/ha2024
#   Tests/ha-schema/setup.sh 2025        # 2025.4.4 (default payloads) at /opt/ha2025
#   HA2024_VENV=/dir setup.sh            # venvs elsewhere (HA2025_VENV for 2025)
#   PYTHON=/path/to/python3 setup.sh ... # interpreter to use
#
# 2024.1.6 needs Python 3.11 or 3.12 (Debian 12 has 3.11). 2025.4.4 needs Python 3.13: it is the
# newest release whose dependencies install on 3.13.0 (later ones need 3.13.2, then 3.14).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
case "${1:-2024}" in
2024)
    HA_VERSION=2024.1.6
    VENV=${HA2024_VENV:-/opt/ha2024}
    MINORS="11 12"
    CANDIDATES="python3.11 python3.12 python3"
    ;;
2025)
    HA_VERSION=2025.4.4
    VENV=${HA2025_VENV:-/opt/ha2025}
    MINORS="13"
    # pyenv interpreters are not always on PATH (e.g. under sudo or in CI).
    CANDIDATES="python3.13 python3 $(ls -d /root/.pyenv/versions/3.13*/bin/python3 "${HOME:-/root}"/.pyenv/versions/3.13*/bin/python3 2>/dev/null | sort -u | tr '\n' ' ')"
    ;;
*)
    echo "usage: $0 [2024|2025]" >&2
    exit 2
    ;;
esac
CONSTRAINTS="$HERE/constraints-${1:-2024}.txt"

if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "
import sys
from homeassistant.const import __version__
sys.exit(__version__ != '$HA_VERSION')
" 2>/dev/null; then
    echo "homeassistant $HA_VERSION already installed in $VENV"
    exit 0
fi

fits() {
    "$1" -c "
import sys
sys.exit(sys.version_info[0] != 3 or str(sys.version_info[1]) not in '$MINORS'.split())" 2>/dev/null
}

if [ -n "${PYTHON:-}" ]; then
    if ! fits "$PYTHON"; then
        echo "error: Home Assistant $HA_VERSION needs Python 3.$(echo "$MINORS" | sed 's/ / or 3./g'); $PYTHON is not" >&2
        exit 1
    fi
else
    for candidate in $CANDIDATES; do
        if command -v "$candidate" >/dev/null 2>&1 && fits "$candidate"; then
            PYTHON=$candidate
            break
        fi
    done
fi
if [ -z "${PYTHON:-}" ]; then
    echo "error: Home Assistant $HA_VERSION needs Python 3.$(echo "$MINORS" | sed 's/ / or 3./g')," \
        "and none was found (tried: $CANDIDATES); install one (e.g. with pyenv) or set PYTHON=" >&2
    exit 1
fi

echo "creating $VENV with $("$PYTHON" --version) and homeassistant $HA_VERSION"
rm -rf "$VENV"
"$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip wheel
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    -c "$CONSTRAINTS" "homeassistant==$HA_VERSION"
"$VENV/bin/python" -c "
import homeassistant.bootstrap
import homeassistant.components.mqtt.light
from homeassistant.const import __version__
print('homeassistant', __version__, 'ready in $VENV')
"
