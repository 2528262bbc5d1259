#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (Swift toolchain already on PATH) and runs the whole test suite.
#
#   Tests/run.sh
#
# Installs the system packages the build and the tests need, prepares the Home Assistant 2024.1 and
# 2025.4 schema checkers (Tests/ha-schema; 2025.4 needs a Python 3.13, e.g. from pyenv), builds
# everything and runs `swift test`. The tests start their
# own mosquitto brokers on random ports of 127.0.0.1 and their own dbus-daemons on private sockets
# (with python-dbusmock services, run by Debian's /usr/bin/python3), so system mosquitto and D-Bus
# services are irrelevant; the install below keeps them from being started at all. Exits non-zero
# on any failure.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

finish() {
    local status=$?
    if [ "$status" -eq 0 ]; then
        echo "==> Tests/run.sh: build and all tests passed"
    else
        echo "==> Tests/run.sh: FAILED (exit status $status)" >&2
    fi
}
trap finish EXIT

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "error: not root and sudo is missing" >&2; exit 1; }
    SUDO=sudo
fi

# chromium and chromium-driver: the frontend's tests drive a headless browser over WebDriver; apparmor: its parser checks
# the Home Assistant add-on's profile.
PACKAGES=(mosquitto mosquitto-clients libmosquitto-dev libdbus-1-dev libssl-dev libyaml-dev dbus-daemon python3-dbusmock pkg-config python3-venv
    openssl chromium chromium-driver apparmor)

echo "==> System packages: ${PACKAGES[*]}"
missing=()
for package in "${PACKAGES[@]}"; do
    if ! dpkg -s "$package" 2>/dev/null | grep -q '^Status: install ok installed'; then
        missing+=("$package")
    fi
done
if [ "${#missing[@]}" -eq 0 ]; then
    echo "    all installed"
else
    echo "    installing: ${missing[*]}"
    # Keep package scripts from starting services (the system mosquitto on port 1883, the system bus)
    # during the install.
    policy=/usr/sbin/policy-rc.d
    added_policy=no
    if [ ! -e "$policy" ]; then
        printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null
        $SUDO chmod 755 "$policy"
        added_policy=yes
    fi
    status=0
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update || status=$?
    if [ "$status" -eq 0 ]; then
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" || status=$?
    fi
    if [ "$added_policy" = yes ]; then $SUDO rm -f "$policy"; fi
    [ "$status" -eq 0 ] || exit "$status"
fi

MOSQUITTO=$(command -v mosquitto || true)
[ -n "$MOSQUITTO" ] || MOSQUITTO=/usr/sbin/mosquitto
[ -x "$MOSQUITTO" ] || { echo "error: mosquitto is not installed at $MOSQUITTO" >&2; exit 1; }
echo "    broker for the tests: $MOSQUITTO (each test starts its own on a random port)"
command -v dbus-daemon >/dev/null 2>&1 || { echo "error: dbus-daemon is not installed" >&2; exit 1; }
/usr/bin/python3 -c 'import dbusmock' 2>/dev/null || { echo "error: /usr/bin/python3 cannot import dbusmock" >&2; exit 1; }
echo "    bus for the tests: $(command -v dbus-daemon) and python-dbusmock (each test starts its own)"

# Each checker's venv: made as the current user where it may write, else through sudo.
ha_checker() {
    local release=$1 variable=$2 venv=$3
    echo "==> Home Assistant $release schema checker"
    local parent
    parent=$(dirname "$venv")
    if [ -w "$parent" ] || { [ -e "$venv" ] && [ -w "$venv" ]; }; then
        env "$variable=$venv" Tests/ha-schema/setup.sh "$release"
    else
        $SUDO env "$variable=$venv" HOME="$HOME" ${PYTHON:+PYTHON="$PYTHON"} Tests/ha-schema/setup.sh "$release"
    fi
}
ha_checker 2024 HA2024_VENV "${HA2024_VENV:-/opt/ha2024}"
# PYTHON chooses the 2024 interpreter only; the 2025 checker finds its Python 3.13 itself.
PYTHON="" ha_checker 2025 HA2025_VENV "${HA2025_VENV:-/opt/ha2025}"

# --force-resolved-versions: exactly the versions Package.resolved pins, or an error.
echo "==> swift build --build-tests --force-resolved-versions"
swift build --build-tests --force-resolved-versions

# Every test starts at once by default: on two cores the suite's brokers, daemons and D-Bus stand-ins
# then keep 20 to 60 threads runnable for a minute, and the test process's own cooperative pool (as many
# threads as cores) queues for tens of seconds, so in-process timers (a reply timeout, a 10 ms poll)
# fire far too late. Eight tests per core keep the machine busy without that queue.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-$(( $(nproc) * 8 ))}"
echo "    at most $SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH tests at once (SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH)"
# Everything runs here: a test whose broker, bus, browser or checker is missing fails instead of skipping, as it
# does under a bare `swift test` (Tests/TestSupport/Requirements.swift).
export THINGS2MQTT_FULL_TESTS=1
# The tests were built above; `swift test` itself would run the web page's build plugin and compile Frontend again
# whenever the environment differs from the last build's (another width, THINGS2MQTT_BIN), 15 to 30 s each time.

# The browser tests time the page (devices listed within 2 s, a change shown within 1 s), which means something
# only when the other suites are not loading the machine in parallel: they run second, on their own, and one at
# a time, since each starts a Chromium of its own (two at once took the 200-device page past 2 s). So do the
# cluster's connection and hand-over tests, which run two and three daemons with their BlueZ stand-ins for up to 35 s and, run
# beside every other suite, load this 2-core machine enough to hold up the in-process web server's tests. The
# cluster's link test (ClusterLinkIntegrationTests) runs with the other suites: after its first seconds its two
# daemons sit out the default timings (65 s) with little to do, which takes the longest test out of the third phase.
CLUSTER="ClusterConnectionIntegrationTests|ClusterCarryIntegrationTests"
QUIET="BrowserTests|$CLUSTER"
echo "==> swift test --skip-build --skip '$QUIET'"
swift test --force-resolved-versions --skip-build --skip "$QUIET"
echo "==> swift test --skip-build --filter BrowserTests (the browser, timed, on a quiet machine, one test at a time)"
SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=1 swift test --force-resolved-versions --skip-build --filter BrowserTests
echo "==> swift test --skip-build --filter '$CLUSTER' (several daemons, on their own)"
swift test --force-resolved-versions --skip-build --filter "$CLUSTER"

# The binary people run is the static release build: the Swift runtime linked in, linked by lld with the release
# settings of Package.swift. So the suites that start the daemon run once more with it.
echo "==> swift build -c release --product things2mqtt --static-swift-stdlib (the binary as shipped)"
swift build -c release --product things2mqtt --static-swift-stdlib --force-resolved-versions --scratch-path .build-release
RELEASE_BIN="$(swift build -c release --scratch-path .build-release --show-bin-path)/things2mqtt"
# The suites that run the shipped binary end to end: start, config, MQTT, will, SIGHUP and SIGTERM (also during
# start-up and as PID 1), check-config, BLE through libdbus and the BlueZ stand-in, and the page with its healthz,
# metrics and websocket, loaded in Chromium. The other suites run the same sources in the test process or through
# the debug daemon above.
RELEASE="IntegrationTests\.(BridgeProcessTests|StartupSignalTests|CheckConfigCommandTests|BLETests)/|FrontendTests\.(DaemonFrontendTests|ClusterBrowserTests)/"
echo "==> THINGS2MQTT_BIN=$RELEASE_BIN swift test --skip-build --filter '$RELEASE'"
THINGS2MQTT_BIN="$RELEASE_BIN" swift test --force-resolved-versions --skip-build --filter "$RELEASE"
