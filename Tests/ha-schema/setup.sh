#!/bin/sh
# Create the Home Assistant 2024.1.6 virtualenv that validate.py runs in.
# Idempotent: does nothing when the venv already holds that version.
#
#   Tests/ha-schema/setup.sh            # venv at /opt/ha2024
#   HA2024_VENV=/some/dir setup.sh      # venv elsewhere
#   PYTHON=/path/to/python3.11 setup.sh # interpreter to use (3.11 or 3.12)
set -eu

HA_VERSION=2024.1.6
VENV=${HA2024_VENV:-/opt/ha2024}
HERE=$(cd "$(dirname "$0")" && pwd)

if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "
import sys
from homeassistant.const import __version__
sys.exit(__version__ != '$HA_VERSION')
" 2>/dev/null; then
    echo "homeassistant $HA_VERSION already installed in $VENV"
    exit 0
fi

if [ -z "${PYTHON:-}" ]; then
    for candidate in python3.11 python3.12 python3; do
        if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c '
import sys
sys.exit(sys.version_info[:2] not in ((3, 11), (3, 12)))' 2>/dev/null; then
            PYTHON=$candidate
            break
        fi
    done
fi
if [ -z "${PYTHON:-}" ]; then
    echo "error: Home Assistant $HA_VERSION needs Python 3.11 or 3.12; set PYTHON=" >&2
    exit 1
fi

echo "creating $VENV with $("$PYTHON" --version) and homeassistant $HA_VERSION"
rm -rf "$VENV"
"$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip wheel
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    -c "$HERE/constraints.txt" "homeassistant==$HA_VERSION"
"$VENV/bin/python" -c "
import homeassistant.bootstrap
import homeassistant.components.mqtt.light
from homeassistant.const import __version__
print('homeassistant', __version__, 'ready in $VENV')
"
