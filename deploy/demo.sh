#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (with the Swift toolchain on PATH) and runs the bridge on the
# built-in demo: a local mosquitto broker, the LIFX cloud simulator with five lights, two groups and
# one scene, and the BlueZ stand-in with two Nova flashes, a heart-rate strap, passive thermometers and a button.
# Ctrl-C stops everything it started.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
PACKAGES="mosquitto mosquitto-clients libmosquitto-dev libdbus-1-dev libssl-dev libyaml-dev pkg-config dbus-daemon python3-dbusmock systemd"
if ! dpkg -s $PACKAGES >/dev/null 2>&1; then
  echo "==> Installing $PACKAGES"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $PACKAGES
fi

echo "==> Building things2mqtt"
swift build --product things2mqtt --force-resolved-versions
swift build --product things2mqtt-sim --force-resolved-versions
# THINGS2MQTT_BIN runs another daemon binary (a release build, or a wrapper that profiles one).
BIN="${THINGS2MQTT_BIN:-$(swift build --show-bin-path)/things2mqtt}"
SIM="$(swift build --show-bin-path)/things2mqtt-sim"

MQTT_PORT="${MQTT_PORT:-1883}"
PIDS=()
BROKER_CONF=""
BLUEZ_OUT=""
cleanup() {
  # Newest first, each waited for, so the bridge says goodbye to the broker before the broker stops.
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
    kill "${PIDS[$i]}" 2>/dev/null || true
    wait "${PIDS[$i]}" 2>/dev/null || true
  done
  PIDS=()
  if [ -n "$BROKER_CONF" ]; then rm -f "$BROKER_CONF"; fi
  if [ -n "$BLUEZ_OUT" ]; then rm -f "$BLUEZ_OUT"; fi
}
trap cleanup EXIT INT TERM

if (exec 3<>"/dev/tcp/127.0.0.1/$MQTT_PORT") 2>/dev/null; then
  echo "==> Using the MQTT broker already listening on port $MQTT_PORT"
else
  echo "==> Starting a local mosquitto on port $MQTT_PORT"
  # set_tcp_nodelay: otherwise mosquitto holds a reply sent right after an acknowledgement for ~40 ms.
  BROKER_CONF=$(mktemp /tmp/things2mqtt-demo-mosquitto.XXXXXX.conf)
  printf 'listener %s 127.0.0.1\nallow_anonymous true\nset_tcp_nodelay true\n' "$MQTT_PORT" >"$BROKER_CONF"
  mosquitto -c "$BROKER_CONF" >/tmp/things2mqtt-demo-mosquitto.log 2>&1 &
  PIDS+=($!)
  for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$MQTT_PORT") 2>/dev/null && break; sleep 0.1; done
fi

echo "==> Starting the BlueZ stand-in (two Nova flashes, a heart-rate strap, two passive thermometers, a button, a phone)"
BLUEZ_OUT=$(mktemp /tmp/things2mqtt-demo-bluez-out.XXXXXX)
deploy/demo/bluez.sh >"$BLUEZ_OUT" &
PIDS+=($!)
for _ in $(seq 100); do [ -s "$BLUEZ_OUT" ] && break; sleep 0.1; done
DBUS_SYSTEM_BUS_ADDRESS=$(head -n1 "$BLUEZ_OUT")
export DBUS_SYSTEM_BUS_ADDRESS

LIFX_PORT="${LIFX_PORT:-18080}"
echo "==> Starting the LIFX cloud simulator on port $LIFX_PORT"
"$SIM" lifx --port "$LIFX_PORT" --token demo-token &
PIDS+=($!)

EV3_PORT="${EV3_PORT:-15555}"
EV3_BEACON_PORT="${EV3_BEACON_PORT:-3015}"
echo "==> Starting a simulated LEGO EV3 brick \"Robot\" on WiFi (TCP $EV3_PORT, beacon to UDP $EV3_BEACON_PORT)"
"$SIM" ev3 --wifi-port "$EV3_PORT" --beacon-to "127.0.0.1:$EV3_BEACON_PORT" --name Robot &
PIDS+=($!)
sleep 1

FRONTEND_PORT="${FRONTEND_PORT:-8080}"

cat <<MSG

==> things2mqtt is starting. Open http://127.0.0.1:$FRONTEND_PORT/ to see every device live, drive the
    lights, the Novas and the brick's motors, open the BLE permit window and rename devices.
    In another terminal, watch it with:
      mosquitto_sub -p $MQTT_PORT -v -t 'things2mqtt/#'
    and drive a light with:
      mosquitto_pub -p $MQTT_PORT -t things2mqtt/living_room/floor_lamp/set -m '{"state":"ON","brightness":200,"color":{"h":120,"s":80}}'
      mosquitto_pub -p $MQTT_PORT -t things2mqtt/bridge/request/lifx/scene -m '{"scene":"Evening"}'
    Home Assistant pointed at this broker discovers every light, both groups and the scene.
    BLE: the closer Nova connects by itself; light it with
      mosquitto_pub -p $MQTT_PORT -t things2mqtt/ble_aabbccddee01/set -m '{"state":"ON","color_temp":3000}'
    and let the phone in with
      mosquitto_pub -p $MQTT_PORT -t things2mqtt/bridge/request/ble/permit -m '{"time":60}'
    EV3: the brick "Robot" is found by its beacon (it is listed in the config); drive and stop a motor, flash its LED, beep:
      mosquitto_pub -p $MQTT_PORT -t things2mqtt/robot/set -m '{"motor_a":{"speed":40}}'
      mosquitto_pub -p $MQTT_PORT -t things2mqtt/robot/set -m '{"stop":true}'
      mosquitto_pub -p $MQTT_PORT -t things2mqtt/robot/set -m '{"led":"orange_pulse","beep":true}'

MSG
export MQTT_PORT LIFX_TOKEN=demo-token LIFX_API_URL="http://127.0.0.1:$LIFX_PORT/v1" EV3_BEACON_PORT FRONTEND_PORT
# In the background and waited for, so a SIGTERM to this script reaches the trap (and the bridge stops cleanly).
"$BIN" run --config deploy/demo/config.yaml --alias-file /tmp/things2mqtt-demo-aliases.json &
PIDS+=($!)
wait "$!"
