#!/usr/bin/env bash
# Builds the things2mqtt image as things2mqtt:latest (left in the local image store) and checks it on the host
# network against a real mosquitto and the LIFX cloud simulator: bridge/state online with the lights, a
# non-root uid, healthy; unhealthy while the broker is stopped and healthy again once it is back; every `stop`
# of the running bridge (as PID 1, and behind `--init` as compose runs it) publishes offline through its own
# DISCONNECT, never the will, and exits 0; so does one right after `run`, and a SIGTERM while the bridge (PID 1)
# is held in its start-up is kept. Ends with "N passed, N failed" and the figures measured.
#
#   deploy/container-test.sh
#
# Runs on a fresh Debian 12 machine with the Swift toolchain on PATH, as root or with sudo. It uses docker
# if a docker engine answers, otherwise podman, which it installs from Debian's packages with runc (crun
# fails on hosts with cgroup v1 hierarchies like this sandbox's) and runs with a private containers.conf
# whose default_ulimits stay within the limits this process has (podman raises them otherwise, which an
# unprivileged sandbox refuses), and catatonit for `--init`. Images are built with --format docker, without
# which podman drops the HEALTHCHECK with only a warning.
#
# By default the release binary is built on the host (in .build-release, reused by later runs) and the image
# with the Dockerfile's BINARY=prebuilt (the binary from the host, its libraries from a Debian 12 base
# made locally with mmdebstrap), so no container
# registry is needed. Environment:
#   ENGINE=docker|podman       force an engine
#   RUNTIME_IMAGE=debian:bookworm-slim   use this base instead of making one
#   FULL_BUILD=1               build the full multi-stage image instead (pulls swift:6.3-bookworm)
#   BUILD_ONLY=1               build and check the image, then stop (deploy/addon-test.sh builds on it)
#   STOP_ROUNDS=N              how many start/stop rounds check the clean stop (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "error: not root and sudo is missing" >&2; exit 1; }
    SUDO=sudo
fi

IMAGE=things2mqtt:latest
BASE_IMAGE=localhost/things2mqtt-base:bookworm
NAME=things2mqtt-container-test
BASE_TOPIC=container_test
CLIENT_ID=things2mqtt-container-test
STOP_ROUNDS=${STOP_ROUNDS:-5}
WORK=$(mktemp -d /tmp/things2mqtt-container-test.XXXXXX)
PASSED=0
FAILED=0
FIGURES=()
BROKER_PID=""
SIMULATOR_PID=""
STATE_SUB_PID=""

now() { echo "$EPOCHREALTIME"; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
pass() { PASSED=$((PASSED + 1)); echo "  PASS  $*"; }
fail() { FAILED=$((FAILED + 1)); echo "  FAIL  $*"; }
check() { # check "what" command…
    local what=$1; shift
    if "$@"; then pass "$what"; else fail "$what"; fi
}
figure() { FIGURES+=("$1"); echo "  ----  $1"; }

cleanup() {
    set +e
    if [ -n "${ENGINE:-}" ]; then $ENGINE rm -f "$NAME" >/dev/null 2>&1; fi
    for pid in "$STATE_SUB_PID" "$SIMULATOR_PID" "$BROKER_PID"; do
        if [ -n "$pid" ]; then kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; fi
    done
    $SUDO rm -rf "$WORK" # the container's user owns what it wrote in config/
}
trap cleanup EXIT

# ---------------------------------------------------------------------------------------------- engine
# apt_install, ENGINE (docker, or podman with its own containers.conf in $WORK), BUILD_FLAGS and engine().
# shellcheck source=deploy/engine.sh
source "$ROOT/deploy/engine.sh"

# ---------------------------------------------------------------------------------------------- image
if [ "${FULL_BUILD:-0}" = 1 ]; then
    echo "==> Building $IMAGE (multi-stage: Swift 6.3 build stage, then the runtime stage)"
    start=$(now)
    $ENGINE build "${BUILD_FLAGS[@]}" --network host -f deploy/Dockerfile \
        ${RUNTIME_IMAGE:+--build-arg RUNTIME_IMAGE="$RUNTIME_IMAGE"} -t "$IMAGE" .
    figure "image build (multi-stage, from scratch or cache): $(elapsed "$start" "$(now)") s"
else
    if [ -z "${RUNTIME_IMAGE:-}" ]; then
        RUNTIME_IMAGE=$BASE_IMAGE
        if ! $ENGINE image inspect "$RUNTIME_IMAGE" >/dev/null 2>&1; then
            echo "==> Making the Debian 12 base $RUNTIME_IMAGE with mmdebstrap (as debian:bookworm-slim: no docs, man pages or locales)"
            start=$(now)
            $SUDO mmdebstrap --variant=minbase --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
                --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
                --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
                --dpkgopt='path-include=/usr/share/doc/*/copyright' --format=tar bookworm - |
                $ENGINE import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
                    --change 'CMD ["bash"]' - "$RUNTIME_IMAGE" >/dev/null
            figure "base image made with mmdebstrap: $(elapsed "$start" "$(now)") s"
        fi
    fi
    echo "==> Building the release binary on the host (.build-release)"
    start=$(now)
    swift build -c release --product things2mqtt --static-swift-stdlib --force-resolved-versions --scratch-path .build-release
    # Stripped, as the Dockerfile's build stage installs it.
    install -D -s -m 755 "$(swift build -c release --scratch-path .build-release --show-bin-path)/things2mqtt" .build-image/things2mqtt
    figure "release build on the host (incremental if .build-release was there): $(elapsed "$start" "$(now)") s"
    echo "==> Building $IMAGE from the host's binary, with the libraries of $RUNTIME_IMAGE"
    start=$(now)
    $ENGINE build "${BUILD_FLAGS[@]}" --network host -f deploy/Dockerfile --build-arg BINARY=prebuilt \
        --build-arg RUNTIME_IMAGE="$RUNTIME_IMAGE" -t "$IMAGE" .
    figure "image build (BINARY=prebuilt): $(elapsed "$start" "$(now)") s"
fi
size=$($ENGINE image inspect "$IMAGE" --format '{{.Size}}')
figure "image size: $((size / 1000000)) MB ($size bytes)"
# The binary is 34 MB (no full Foundation, so no ICU); the libraries ldd names for it are 15 MB with libdbus and
# the libsystemd it loads.
check "the image is at most 60 MB" test "$size" -le 60000000
check "the image keeps its HEALTHCHECK" bash -c "$ENGINE image inspect $IMAGE | grep -q '\"health\"'"
if [ "${BUILD_ONLY:-0}" = 1 ]; then
    echo "$PASSED passed, $FAILED failed (BUILD_ONLY: the image only)"
    [ "$FAILED" -eq 0 ]
    exit
fi
# The LIFX simulator is its own executable, not in the image: built here and run on the host.
swift build --product things2mqtt-sim --force-resolved-versions >/dev/null
SIM="$(swift build --show-bin-path)/things2mqtt-sim"

# ---------------------------------------------------------------------------------------------- broker, simulator
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
MQTT_PORT=$(free_port)
TLS_PORT=$(free_port)
LIFX_PORT=$(free_port)
# A throwaway CA and server certificate for the broker's TLS listener, which the held start-up below needs.
TLS="$WORK/tls"
mkdir -p "$TLS"
printf '[req]\ndistinguished_name = subject\nprompt = no\nx509_extensions = authority\n[subject]\nCN = things2mqtt container test CA\n[authority]\nbasicConstraints = critical, CA:TRUE\nkeyUsage = critical, keyCertSign, cRLSign\nsubjectKeyIdentifier = hash\n' >"$TLS/ca.cnf"
printf 'basicConstraints = CA:FALSE\nkeyUsage = critical, digitalSignature, keyEncipherment\nextendedKeyUsage = serverAuth\nsubjectAltName = DNS:localhost, IP:127.0.0.1\nauthorityKeyIdentifier = keyid\n' >"$TLS/server.ext"
curve=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
{
    openssl req -x509 -config "$TLS/ca.cnf" -days 2 "${curve[@]}" -keyout "$TLS/ca.key" -out "$TLS/ca.crt"
    openssl req -new -config "$TLS/ca.cnf" -subj /CN=localhost "${curve[@]}" -keyout "$TLS/server.key" -out "$TLS/server.csr"
    openssl x509 -req -in "$TLS/server.csr" -CA "$TLS/ca.crt" -CAkey "$TLS/ca.key" -set_serial "$RANDOM" -days 2 \
        -extfile "$TLS/server.ext" -out "$TLS/server.crt"
} >"$TLS/openssl.log" 2>&1
printf 'listener %s 127.0.0.1\nlistener %s 127.0.0.1\ncafile %s\ncertfile %s\nkeyfile %s\nallow_anonymous true\npersistence false\nset_tcp_nodelay true\nlog_dest file %s\nlog_type error\nlog_type warning\nlog_type notice\nlog_type information\n%s' \
    "$MQTT_PORT" "$TLS_PORT" "$TLS/ca.crt" "$TLS/server.crt" "$TLS/server.key" "$WORK/mosquitto.log" \
    "$([ "$(id -u)" -eq 0 ] && echo 'user root')" >"$WORK/mosquitto.conf"
start_broker() {
    mosquitto -c "$WORK/mosquitto.conf" >>"$WORK/mosquitto.out" 2>&1 &
    BROKER_PID=$!
    for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$MQTT_PORT") 2>/dev/null && return 0; sleep 0.05; done
    echo "mosquitto did not start" >&2; return 1
}
stop_broker() { kill "$BROKER_PID"; wait "$BROKER_PID" 2>/dev/null || true; BROKER_PID=""; }
start_broker
"$SIM" lifx --port "$LIFX_PORT" --token container-test >"$WORK/simulator.log" 2>&1 &
SIMULATOR_PID=$!
for _ in $(seq 100); do grep -q listening "$WORK/simulator.log" && break; sleep 0.05; done

mkdir -p "$WORK/config"
cat >"$WORK/config/config.yaml" <<YAML
mqtt:
  server: mqtt://127.0.0.1:$MQTT_PORT
  base_topic: $BASE_TOPIC
  client_id: $CLIENT_ID
lifx:
  enabled: true
  token: \${LIFX_TOKEN}
  api_url: http://127.0.0.1:$LIFX_PORT/v1
YAML
$SUDO chown -R 10001:10001 "$WORK/config"

retained() { mosquitto_sub -p "$MQTT_PORT" -t "$1" -C 1 -W 2 2>/dev/null || true; }
wait_for() { # wait_for seconds command…: polls every 0.1 s
    local deadline=$((SECONDS + $1)); shift
    until "$@"; do [ "$SECONDS" -lt "$deadline" ] || return 1; sleep 0.1; done
}
state_is() { retained "$BASE_TOPIC/bridge/state" | grep -q "\"state\":\"$1\""; }
run_bridge() { # run_bridge [engine options…]: as PID 1 unless given --init
    engine run -d --name "$NAME" --network host "$@" -v "$WORK/config:/config" \
        -e LIFX_TOKEN=container-test "$IMAGE" >/dev/null
}
health() { # prints the container's health status, after running the check once (for podman without systemd)
    if [[ "$ENGINE" == *podman ]]; then $ENGINE healthcheck run "$NAME" >/dev/null 2>&1 || true; fi
    $ENGINE inspect "$NAME" --format '{{.State.Health.Status}}' 2>/dev/null
}
health_is() { [ "$(health)" = "$1" ]; }
disconnects() { grep -c "Client $CLIENT_ID disconnected\." "$WORK/mosquitto.log" || true; }
wills() { # wills [client id]: connections the broker saw drop, for which it publishes the will
    local id=${1:-$CLIENT_ID}
    grep -c -E "Client $id (closed its connection|has exceeded timeout)|Socket error on client $id" "$WORK/mosquitto.log" || true
}

# ---------------------------------------------------------------------------------------------- checks
echo "==> Running the bridge in a container on the host network (broker :$MQTT_PORT, LIFX simulator :$LIFX_PORT)"
mosquitto_sub -p "$MQTT_PORT" -t "$BASE_TOPIC/bridge/state" -F '%U %p' >"$WORK/states.log" 2>/dev/null &
STATE_SUB_PID=$!
sleep 0.2
start=$EPOCHREALTIME
run_bridge
if wait_for 30 state_is online; then
    online_at=$(awk '/online/ { print $1; exit }' "$WORK/states.log")
    figure "time to online (from '${ENGINE##* } run' to bridge/state online): $(elapsed "$start" "${online_at:-$EPOCHREALTIME}") s"
    pass "bridge/state is online"
else
    fail "bridge/state is online"
    $ENGINE logs "$NAME" 2>&1 | tail -20
fi
lights_published() {
    local count
    count=$(mosquitto_sub -p "$MQTT_PORT" -t "$BASE_TOPIC/+" -W 1 -v 2>/dev/null | grep -c "^$BASE_TOPIC/lifx_d073d5" || true)
    [ "$count" -ge 5 ]
}
check "the five simulated LIFX lights are published" wait_for 30 lights_published
pid=$($ENGINE inspect "$NAME" --format '{{.State.Pid}}')
uid=$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo unknown)
figure "the bridge process runs as uid $uid"
check "the bridge runs as a non-root uid (10001)" test "$uid" = 10001
check "the container turns healthy" wait_for 60 health_is healthy
stop_broker
check "it turns unhealthy when the broker stops" wait_for 60 health_is unhealthy
start_broker
check "it turns healthy again when the broker returns" wait_for 60 health_is healthy
check "bridge/state is online again after the broker came back" wait_for 30 state_is online

echo "==> Stopping it $STOP_ROUNDS times (online as PID 1 and behind --init, and once right after run)"
stop_times=()
for round in $(seq "$STOP_ROUNDS"); do
    how="PID 1"
    if [ "$round" -gt 1 ]; then
        engine rm -f "$NAME" >/dev/null
        # Rounds 2 and 3 run as compose does, behind a small init that passes SIGTERM on.
        if [ "$round" -le 3 ]; then how="--init"; run_bridge --init; else run_bridge; fi
        # Round 2 stops the bridge right after `run`, while it may still be starting. A signal that comes before
        # the process has run any code of its own meets the default action: as PID 1 the kernel drops it (and
        # `stop` ends in SIGKILL after connecting), which is why it runs behind --init here, where that signal
        # ends the bridge before it has connected (status 143, nothing on the broker). The bridge holds the
        # signals from its first instruction on; the held start-up below checks that as PID 1.
        if [ "$round" -eq 2 ]; then how="--init, right after run"; else wait_for 30 state_is online || true; fi
    fi
    before_disconnects=$(disconnects)
    before_wills=$(wills)
    start=$EPOCHREALTIME
    engine stop -t 10 "$NAME" >/dev/null
    stop_seconds=$(elapsed "$start" "$EPOCHREALTIME")
    stop_times+=("$stop_seconds")
    code=$($ENGINE inspect "$NAME" --format '{{.State.ExitCode}}')
    sleep 0.3 # mosquitto writes its log line by line as it gets to it
    round_ok=yes
    early=""
    if [ "$round" -eq 2 ] && [ "$code" = 143 ] && [ -z "$($ENGINE logs "$NAME" 2>&1)" ]; then
        early="exit 143 (SIGTERM came before the bridge ran any code)"
    elif [ "$code" != 0 ]; then
        round_ok="no: exit code $code"
    fi
    state_is offline || [ "$round" -eq 2 ] || round_ok="no: bridge/state is not offline"
    [ "$(wills)" = "$before_wills" ] || round_ok="no: the broker saw the connection drop (the will was published)"
    if [ "$round" -ne 2 ] && [ "$(disconnects)" = "$before_disconnects" ]; then round_ok="no: no DISCONNECT in the broker log"; fi
    if [ "$round_ok" = yes ]; then
        if [ "$round" -eq 2 ]; then checked="${early:-exit 0}, no will"; else checked="exit 0, offline, DISCONNECT, no will"; fi
        pass "stop round $round ($how): $checked (${stop_seconds} s)"
    else
        fail "stop round $round ($how): $round_ok (${stop_seconds} s)"
        $ENGINE logs "$NAME" 2>&1 | tail -15
    fi
done
figure "stop times (${ENGINE##* } stop, s): ${stop_times[*]}"
check "a retained offline state is left on the broker" state_is offline

# The bridge as PID 1 is held in its start-up, after its config is loaded and before anything traps SIGTERM: its
# TLS ca_file is a named pipe, which libmosquitto opens while the bridge builds its MQTT client. SIGTERM comes
# there (`kill`, which returns once the signal is sent, where `stop` would wait), then the pipe is replaced by
# the real CA file and let go. The signal must not be lost: the bridge stops by itself with status 0, having
# never said online and leaving no will.
echo "==> Stopping it (PID 1) while it is held in its start-up"
HELD="$WORK/held"
mkdir -p "$HELD"
chmod 755 "$HELD"
cat >"$HELD/config.yaml" <<YAML
mqtt:
  server: mqtts://127.0.0.1:$TLS_PORT
  base_topic: ${BASE_TOPIC}_held
  client_id: $CLIENT_ID-held
  tls:
    ca_file: /config/ca.crt
YAML
chmod 644 "$HELD/config.yaml"
mkfifo -m 644 "$HELD/ca.crt"
blocked_in_open() { grep -qx wait_for_partner "/proc/$1"/task/*/wchan 2>/dev/null; }
release_held() { # the blocked open sees an empty file, every later open of the path the real CA
    ln "$HELD/ca.crt" "$HELD/held-fifo"
    install -m 644 "$TLS/ca.crt" "$HELD/real.crt"
    mv "$HELD/real.crt" "$HELD/ca.crt"
    timeout 5 bash -c ': >"$1"' _ "$HELD/held-fifo" || true
    rm -f "$HELD/held-fifo"
}
engine rm -f "$NAME" >/dev/null
engine run -d --name "$NAME" --network host -v "$HELD:/config" "$IMAGE" >/dev/null
pid=$($ENGINE inspect "$NAME" --format '{{.State.Pid}}')
if wait_for 30 blocked_in_open "$pid"; then
    engine kill --signal TERM "$NAME" >/dev/null
    release_held
    code=$(timeout 20 $ENGINE wait "$NAME" 2>/dev/null || echo "none: still running 20 s after SIGTERM")
    sleep 0.3
    held_ok=yes
    [ "$code" = 0 ] || held_ok="no: exit code $code"
    $ENGINE logs "$NAME" 2>&1 | grep -q 'INFO \[things2mqtt\] Stopped' || held_ok="no: the log does not end in Stopped"
    held_state=$(retained "${BASE_TOPIC}_held/bridge/state")
    [ -z "$held_state" ] || [[ "$held_state" == *'"offline"'* ]] || held_ok="no: bridge/state is $held_state"
    [ "$(wills "$CLIENT_ID-held")" = 0 ] || held_ok="no: the broker saw the connection drop (the will was published)"
    if [ "$held_ok" = yes ]; then
        pass "SIGTERM during start-up (PID 1): kept, exit 0, never online, no will"
    else
        fail "SIGTERM during start-up (PID 1): $held_ok"
        $ENGINE logs "$NAME" 2>&1 | tail -15
    fi
else
    fail "SIGTERM during start-up (PID 1): the bridge did not block opening its ca_file pipe"
    $ENGINE logs "$NAME" 2>&1 | tail -15
fi

echo
echo "==> Figures"
for line in "${FIGURES[@]}"; do echo "    $line"; done
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
