#!/usr/bin/env bash
# The demo's BlueZ: a private D-Bus bus with the project's BlueZ stand-in (python-dbusmock and
# Tests/bluez/bluez_things.py) holding one adapter, two Nova flashes, a heart-rate sensor and a phone
# that nobody asked for. It prints the bus address on its first line, then keeps the devices
# advertising with a little RSSI jitter until killed.
set -euo pipefail
cd "$(dirname "$0")/../.."

DIR=$(mktemp -d /tmp/things2mqtt-demo-bluez.XXXXXX)
cat >"$DIR/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$DIR/bus</listen>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
CONF
dbus-daemon --config-file="$DIR/bus.conf" --nofork --print-address=1 >"$DIR/address" 2>"$DIR/daemon.log" &
BUS_PID=$!
MOCK_PID=""
trap 'kill $MOCK_PID $BUS_PID 2>/dev/null || true; rm -rf "$DIR"' EXIT INT TERM
for _ in $(seq 50); do [ -s "$DIR/address" ] && break; sleep 0.1; done
ADDRESS=$(head -n1 "$DIR/address")
DBUS_SYSTEM_BUS_ADDRESS=$ADDRESS DBUS_SESSION_BUS_ADDRESS= /usr/bin/python3 -m dbusmock --template Tests/bluez/bluez_things.py \
  >"$DIR/mock.log" 2>&1 &
MOCK_PID=$!
B="busctl --address=$ADDRESS"
for _ in $(seq 100); do $B status org.bluez >/dev/null 2>&1 && break; sleep 0.1; done
$B call org.bluez / org.bluez.Mock AddAdapter ss hci0 demo-host >/dev/null
$B call org.bluez / org.bluez.Mock AddNova ss hci0 AA:BB:CC:DD:EE:01 >/dev/null
$B call org.bluez / org.bluez.Mock AddNova ss hci0 AA:BB:CC:DD:EE:02 >/dev/null
HR=$($B call org.bluez / org.bluez.Mock AddDevice sss hci0 C0:FF:EE:00:18:0D "Heart Rate" | cut -d'"' -f2)
$B call org.bluez / org.bluez.Mock SetServices sas "$HR" 1 0000180d-0000-1000-8000-00805f9b34fb >/dev/null
PHONE=$($B call org.bluez / org.bluez.Mock AddDevice sss hci0 5A:11:22:33:44:55 "Phone" | cut -d'"' -f2)
echo "$ADDRESS"

declare -A BASE=(["/org/bluez/hci0/dev_AA_BB_CC_DD_EE_01"]=-48 ["/org/bluez/hci0/dev_AA_BB_CC_DD_EE_02"]=-71
  ["$HR"]=-60 ["$PHONE"]=-55)
while kill -0 $MOCK_PID 2>/dev/null; do
  for path in "${!BASE[@]}"; do
    rssi=$(( ${BASE[$path]} + RANDOM % 5 - 2 ))
    $B call -- org.bluez / org.bluez.Mock Advertise 'sna{qv}a{sv}' "$path" "$rssi" 0 0 >/dev/null 2>&1 || true
  done
  sleep 2
done
