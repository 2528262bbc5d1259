#!/usr/bin/env bash
# The demo's BlueZ: a private D-Bus bus with the project's BlueZ stand-in (python-dbusmock and
# Tests/bluez/bluez_things.py) holding one adapter, two Nova flashes, a heart-rate strap (heart rate,
# battery, device information), a pvvx thermometer and a BTHome sensor advertising their readings, a
# BTHome button pressed every six seconds, and a phone that nobody asked for. It prints the bus address on
# its first line, then keeps the devices advertising with a little RSSI jitter until killed.
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
HR=$($B call org.bluez / org.bluez.Mock AddStandardDevice sssas hci0 C0:FF:EE:00:18:0D "Heart Rate" 3 \
  heart_rate battery device_information | cut -d'"' -f2)
THERMOMETER=$($B call org.bluez / org.bluez.Mock AddDevice sss hci0 A4:C1:38:12:34:56 "ATC_123456" | cut -d'"' -f2)
BTHOME=$($B call org.bluez / org.bluez.Mock AddDevice sss hci0 B0:00:00:00:00:01 "SBHT-003C" | cut -d'"' -f2)
BUTTON=$($B call org.bluez / org.bluez.Mock AddDevice sss hci0 B0:00:00:00:00:02 "SBBT-002C" | cut -d'"' -f2)
PHONE=$($B call org.bluez / org.bluez.Mock AddDevice sss hci0 5A:11:22:33:44:55 "Phone" | cut -d'"' -f2)
echo "$ADDRESS"

# Little-endian bytes of a 16-bit value, in decimal as busctl takes them.
le16() { echo "$(( $1 & 255 )) $(( ($1 >> 8) & 255 ))"; }

declare -A BASE=(["/org/bluez/hci0/dev_AA_BB_CC_DD_EE_01"]=-48 ["/org/bluez/hci0/dev_AA_BB_CC_DD_EE_02"]=-71
  ["$HR"]=-60 ["$PHONE"]=-55)
PACKET=0
while kill -0 $MOCK_PID 2>/dev/null; do
  for path in "${!BASE[@]}"; do
    rssi=$(( ${BASE[$path]} + RANDOM % 5 - 2 ))
    $B call -- org.bluez / org.bluez.Mock Advertise 'sna{qv}a{sv}' "$path" "$rssi" 0 0 >/dev/null 2>&1 || true
  done
  # Passive sensors: a thermometer with pvvx firmware (MAC, 0.01 °C, 0.01 %, mV, %, counter, flags) and a
  # BTHome v2 sensor (packet id, temperature, humidity), their values drifting.
  PACKET=$(( (PACKET + 1) % 256 ))
  celsius=$(( 2150 + RANDOM % 40 )); humidity=$(( 4500 + RANDOM % 200 ))
  $B call -- org.bluez / org.bluez.Mock Advertise 'sna{qv}a{sv}' "$THERMOMETER" -66 0 1 \
    0000181a-0000-1000-8000-00805f9b34fb ay 15 86 52 18 56 193 164 $(le16 $celsius) $(le16 $humidity) \
    $(le16 2950) 85 "$PACKET" 5 >/dev/null 2>&1 || true
  $B call -- org.bluez / org.bluez.Mock Advertise 'sna{qv}a{sv}' "$BTHOME" -70 0 1 \
    0000fcd2-0000-1000-8000-00805f9b34fb ay 9 64 0 "$PACKET" 2 $(le16 $(( celsius - 300 ))) 3 $(le16 $humidity) \
    >/dev/null 2>&1 || true
  # The button advertises only when pressed, as a real one does (trigger-based BTHome v2: packet id,
  # battery 100 %, button press), so its events reach things2mqtt/hall/remote/event.
  if (( PACKET % 3 == 0 )); then
    $B call -- org.bluez / org.bluez.Mock Advertise 'sna{qv}a{sv}' "$BUTTON" -62 0 1 \
      0000fcd2-0000-1000-8000-00805f9b34fb ay 7 68 0 "$PACKET" 1 100 58 1 >/dev/null 2>&1 || true
  fi
  # The strap, once connected, notifies its heart rate (flags 0: one byte of bpm).
  if RATE=$($B call org.bluez / org.bluez.Mock CharacteristicPath ss "$HR" 2a37 2>/dev/null | cut -d'"' -f2); then
    $B call org.bluez / org.bluez.Mock Notify say "$RATE" 2 0 $(( 62 + RANDOM % 15 )) >/dev/null 2>&1 || true
  fi
  sleep 2
done
