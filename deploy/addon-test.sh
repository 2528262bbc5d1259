#!/usr/bin/env bash
# Builds the Home Assistant add-on's image (deploy/home-assistant/things2mqtt) on top of the project's image
# and runs it as the Supervisor would: /data/options.json, SUPERVISOR_TOKEN, and a stand-in for the
# Supervisor's /services/mqtt (Tests/ha-addon/supervisor.py) in front of a mosquitto that wants a password.
# Checks: with every option empty the bridge connects with the Supervisor's credentials and says so; with
# the user's own broker options it uses those, says so, and asks the Supervisor nothing; the frontend answers
# ingress (from 172.30.32.2, which this script puts on the loopback device while it runs) under an ingress
# path, with its files and websocket, logs the Home Assistant user of a change, and refuses everyone else;
# the container turns healthy; the AppArmor profile parses; every schema option has a translation; the images'
# sizes. Ends with "N passed, N failed".
#
#   deploy/addon-test.sh
#
# Runs where deploy/container-test.sh runs (a Debian 12 machine with the Swift toolchain, root or sudo), which
# it uses to build the project's image first (BUILD_ONLY=1), so its ENGINE and RUNTIME_IMAGE apply here too.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "error: not root and sudo is missing" >&2; exit 1; }
    SUDO=sudo
fi

NAME=things2mqtt-addon-test
ADDON_IMAGE=things2mqtt-addon:latest
INGRESS_ADDRESS=172.30.32.2
TOKEN="supervisor-$RANDOM$RANDOM"
WORK=$(mktemp -d /tmp/things2mqtt-addon-test.XXXXXX)
PASSED=0
FAILED=0
FIGURES=()
PIDS=()
ADDED_ADDRESS=no

pass() { PASSED=$((PASSED + 1)); echo "  PASS  $*"; }
fail() { FAILED=$((FAILED + 1)); echo "  FAIL  $*"; }
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }
figure() { FIGURES+=("$1"); echo "  ----  $1"; }
wait_for() { local deadline=$((SECONDS + $1)); shift; until "$@"; do [ "$SECONDS" -lt "$deadline" ] || return 1; sleep 0.2; done; }

cleanup() {
    set +e
    if [ -n "${ENGINE:-}" ]; then $ENGINE rm -f "$NAME" >/dev/null 2>&1; fi
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
    if [ "$ADDED_ADDRESS" = yes ]; then $SUDO ip address del "$INGRESS_ADDRESS/32" dev lo; fi
    $SUDO rm -rf "$WORK"
}
trap cleanup EXIT

# ---------------------------------------------------------------------------------------------- images
echo "==> The project's image (deploy/container-test.sh with BUILD_ONLY=1)"
BUILD_ONLY=1 deploy/container-test.sh
source "$ROOT/deploy/engine.sh"
apt_install apparmor python3-yaml iproute2 curl
base=things2mqtt:latest
[[ "$ENGINE" == *podman ]] && base=localhost/things2mqtt:latest
echo "==> Building $ADDON_IMAGE from deploy/home-assistant/things2mqtt on $base"
engine build "${BUILD_FLAGS[@]}" --network host --build-arg THINGS2MQTT_IMAGE="$base" -t "$ADDON_IMAGE" \
    deploy/home-assistant/things2mqtt
for image in "$base" "$ADDON_IMAGE"; do
    size=$($ENGINE image inspect "$image" --format '{{.Size}}')
    figure "$image: $((size / 1000000)) MB ($size bytes)"
done

# ---------------------------------------------------------------------------------------------- the add-on's files
echo "==> The add-on's files"
check "the AppArmor profile parses (apparmor_parser -QT)" \
    $SUDO apparmor_parser -Q -T -K deploy/home-assistant/things2mqtt/apparmor.txt
translations_complete() {
    python3 - "$ROOT/deploy/home-assistant/things2mqtt" <<'PY'
import sys, yaml
folder = sys.argv[1]
schema = yaml.safe_load(open(folder + "/config.yaml"))["schema"]
translated = yaml.safe_load(open(folder + "/translations/en.yaml"))["configuration"]
missing = [key for key in schema if not (translated.get(key) or {}).get("name")]
extra = [key for key in translated if key not in schema]
print("missing:", missing, "extra:", extra) if missing or extra else None
sys.exit(1 if missing or extra else 0)
PY
}
check "every schema option has a translation, and every translation an option" translations_complete

# ---------------------------------------------------------------------------------------------- broker, Supervisor
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
OPEN_PORT=$(free_port)
LOCKED_PORT=$(free_port)
INGRESS_PORT=$(free_port)
PASSWORD="pw-$RANDOM$RANDOM"
mosquitto_passwd -b -c "$WORK/passwd" addons "$PASSWORD"
chmod 644 "$WORK/passwd"
cat >"$WORK/mosquitto.conf" <<CONF
per_listener_settings true
listener $OPEN_PORT 127.0.0.1
allow_anonymous true
listener $LOCKED_PORT 127.0.0.1
allow_anonymous false
password_file $WORK/passwd
persistence false
log_dest file $WORK/mosquitto.log
log_type all
$([ "$(id -u)" -eq 0 ] && echo 'user root')
CONF
mosquitto -c "$WORK/mosquitto.conf" >"$WORK/mosquitto.out" 2>&1 &
PIDS+=($!)
python3 Tests/ha-addon/supervisor.py --token "$TOKEN" --mqtt-port "$LOCKED_PORT" --username addons \
    --password "$PASSWORD" >"$WORK/supervisor.log" 2>&1 &
PIDS+=($!)
wait_for 10 grep -q listening "$WORK/supervisor.log"
SUPERVISOR_PORT=$(awk '/listening/ { print $2; exit }' "$WORK/supervisor.log")
retained() { mosquitto_sub -p "$OPEN_PORT" -t "$1" -C 1 -W 2 2>/dev/null || true; }
online() { retained "$1/bridge/state" | grep -q '"online"'; }
supervisor_requests() { grep -c '^GET /services/mqtt' "$WORK/supervisor.log" || true; }

# The host's BlueZ: the demo's stand-in on a private bus, whose socket the container gets where host_dbus puts
# the system bus's.
deploy/demo/bluez.sh >"$WORK/bluez.out" 2>"$WORK/bluez.err" &
PIDS+=($!)
wait_for 30 test -s "$WORK/bluez.out"
BUS_SOCKET=$(head -n1 "$WORK/bluez.out" | sed -e 's/^unix:path=//' -e 's/,.*//')
mkdir -p "$WORK/data"
run_addon() { # run_addon options-json
    echo "$1" >"$WORK/data/options.json"
    engine rm -f "$NAME" >/dev/null 2>&1 || true
    engine run -d --name "$NAME" --network host -v "$WORK/data:/data" -v "$BUS_SOCKET:/run/dbus/system_bus_socket" \
        -e SUPERVISOR_TOKEN="$TOKEN" "$ADDON_IMAGE" \
        --supervisor "http://127.0.0.1:$SUPERVISOR_PORT" --ingress-port "$INGRESS_PORT" >/dev/null
}
logs() { $ENGINE logs "$NAME" 2>&1; }
health_is() {
    if [[ "$ENGINE" == *podman ]]; then $ENGINE healthcheck run "$NAME" >/dev/null 2>&1 || true; fi
    [ "$($ENGINE inspect "$NAME" --format '{{.State.Health.Status}}' 2>/dev/null)" = "$1" ]
}

# ---------------------------------------------------------------------------------------------- every option empty
echo "==> Every option empty: the Supervisor's broker and credentials"
start=$EPOCHREALTIME
run_addon '{}'
if wait_for 30 online things2mqtt; then
    figure "time to online: $(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }') s"
    pass "bridge/state online on the password-protected listener, with the Supervisor's credentials"
else
    fail "bridge/state online with the Supervisor's credentials"
    logs | tail -20
fi
check "the log names the broker and that it came from the Supervisor" \
    bash -c "$ENGINE logs $NAME 2>&1 | grep -q 'MQTT broker mqtt://127.0.0.1:$LOCKED_PORT from the Supervisor.s MQTT service (core_mosquitto), as addons'"
check "the Supervisor was asked once, with the add-on's token" test "$(grep -c '^GET /services/mqtt 200' "$WORK/supervisor.log")" = 1
check "the password is not in the log" bash -c "! $ENGINE logs $NAME 2>&1 | grep -q '$PASSWORD'"
check "the password is not in the written config" bash -c "! grep -q '$PASSWORD' '$WORK/data/things2mqtt.yaml'"
check "the container turns healthy" wait_for 60 health_is healthy
ble_running() {
    retained things2mqtt/bridge/info |
        python3 -c 'import json, sys; sys.exit(json.load(sys.stdin)["integrations"]["ble"]["status"] != "running")' 2>/dev/null
}
check "BLE runs over the host's bus (bridge/info)" wait_for 30 ble_running
thermometer() { retained things2mqtt/ble_a4c138123456 | grep -q '"temperature"'; }
check "a BLE sensor the host's adapter hears is published" wait_for 30 thermometer

# ---------------------------------------------------------------------------------------------- ingress
echo "==> The frontend through ingress (from $INGRESS_ADDRESS)"
if ! ip -4 address show dev lo | grep -q "$INGRESS_ADDRESS/"; then
    $SUDO ip address add "$INGRESS_ADDRESS/32" dev lo
    ADDED_ADDRESS=yes
fi
PREFIX=/api/hassio_ingress/Zm9vYmFy
ingress() { # ingress path [curl options…]: a request as the ingress proxy sends it
    local path=$1; shift
    curl -s --max-time 5 --interface "$INGRESS_ADDRESS" -H "X-Ingress-Path: $PREFIX" -H "X-Remote-User-Name: alice" \
        "$@" "http://127.0.0.1:$INGRESS_PORT$path"
}
status_of() { curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$@"; }
check "the page answers ingress and names the ingress path as its base" \
    bash -c "$(declare -f ingress); INGRESS_ADDRESS=$INGRESS_ADDRESS PREFIX=$PREFIX INGRESS_PORT=$INGRESS_PORT; ingress / | grep -q '<base href=\"$PREFIX/\">'"
for asset in app.js style.css; do
    check "$asset loads through ingress" test "$(status_of --interface "$INGRESS_ADDRESS" "http://127.0.0.1:$INGRESS_PORT/$asset")" = 200
done
check "anyone but the ingress proxy is refused (403)" test "$(status_of "http://127.0.0.1:$INGRESS_PORT/")" = 403
websocket_change() { # upgrades as ingress does and sends one /set frame, then reads the first frame back
    python3 - "$INGRESS_ADDRESS" "$INGRESS_PORT" "$PREFIX" <<'PY'
import base64, json, os, socket, sys
source, port, prefix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
key = base64.b64encode(os.urandom(16)).decode()
s.sendall((f"GET /api HTTP/1.1\r\nHost: homeassistant.local:8123\r\nOrigin: http://homeassistant.local:8123\r\n"
           f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
           f"X-Ingress-Path: {prefix}\r\nX-Remote-User-Name: alice\r\n\r\n").encode())
head = b""
while b"\r\n\r\n" not in head:
    head += s.recv(1)
if not head.startswith(b"HTTP/1.1 101"):
    sys.exit(f"upgrade refused: {head!r}")
payload = json.dumps({"topic": "bridge/request/health_check", "payload": {"transaction": "t1"}}).encode()
mask = os.urandom(4)
s.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
first = s.recv(2)
if first[0] != 0x81:
    sys.exit(f"no text frame back: {first!r}")
PY
}
check "the websocket opens through ingress and takes a change" websocket_change
check "the change is logged with the Home Assistant user who made it" \
    wait_for 10 bash -c "$ENGINE logs $NAME 2>&1 | grep 'Change from the page' | grep -q 'user=alice'"

# ---------------------------------------------------------------------------------------------- the user's broker
echo "==> The user's own broker options"
before=$(supervisor_requests)
run_addon "{\"mqtt_server\": \"mqtt://127.0.0.1:$OPEN_PORT\", \"base_topic\": \"mine\", \"ble\": false}"
check "bridge/state online on the user's broker" wait_for 30 online mine
check "the log says the broker came from the add-on's options" \
    bash -c "$ENGINE logs $NAME 2>&1 | grep -q 'MQTT broker mqtt://127.0.0.1:$OPEN_PORT from the add-on.s options'"
check "the Supervisor was not asked" test "$(supervisor_requests)" = "$before"
engine stop -t 10 "$NAME" >/dev/null
check "it stops cleanly (exit 0)" test "$($ENGINE inspect "$NAME" --format '{{.State.ExitCode}}')" = 0

echo
echo "==> Figures"
for line in "${FIGURES[@]}"; do echo "    $line"; done
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
