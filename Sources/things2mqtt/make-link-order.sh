#!/usr/bin/env bash
# Rewrites link-order.txt (see make-link-order.py): builds the release binary with a link map, runs it on the
# demo under callgrind while the demo's devices are driven over MQTT and the web page is loaded, then names
# the functions that ran. Needs valgrind and, for the page, chromium. Takes a few minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
WORK=$(mktemp -d /tmp/things2mqtt-link-order.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
MQTT_PORT=${MQTT_PORT:-18850}
FRONTEND_PORT=${FRONTEND_PORT:-18851}

# Linked again in any case (SwiftPM does not link again for new linker flags alone), with a map that keeps C++
# names as the symbol table has them.
rm -f "$(swift build -c release --scratch-path .build-release --show-bin-path)/things2mqtt"
swift build -c release --product things2mqtt --static-swift-stdlib --force-resolved-versions --scratch-path .build-release \
  -Xswiftc -Xfrontend -Xswiftc -function-sections -Xlinker "-Map=$WORK/link.map" -Xlinker --no-demangle
install -s .build-release/release/things2mqtt "$WORK/things2mqtt"
printf '#!/bin/sh\nexec valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=%s/callgrind.out %s/things2mqtt "$@"\n' "$WORK" "$WORK" \
  >"$WORK/run"
chmod +x "$WORK/run"

THINGS2MQTT_BIN="$WORK/run" MQTT_PORT=$MQTT_PORT FRONTEND_PORT=$FRONTEND_PORT LIFX_PORT=18852 EV3_PORT=18853 \
  EV3_BEACON_PORT=18854 setsid deploy/demo.sh >"$WORK/demo.log" 2>&1 &
DEMO=$!
# The demo builds and starts its broker first; the bridge under valgrind takes a while to come online.
for _ in $(seq 300); do
  kill -0 "$DEMO" 2>/dev/null || { cat "$WORK/demo.log"; exit 1; }
  mosquitto_sub -p "$MQTT_PORT" -t things2mqtt/bridge/state -C 1 -W 2 2>/dev/null | grep -q online && break
  sleep 1
done
sleep 5
pub() { mosquitto_pub -p "$MQTT_PORT" -t "things2mqtt/$1" -m "$2"; }
for _ in 1 2 3; do
  pub living_room/set '{"state":"ON","brightness":120}'
  pub living_room/get '{"state":""}'
  pub ble_aabbccddee01/set '{"state":"ON","color_temp":3000}'
  pub robot/set '{"motor_a":{"speed":40}}'
  pub robot/set '{"stop":true}'
  pub robot/set '{"led":"orange_pulse","beep":true}'
  pub bridge/request/ble/permit '{"time":60}'
  pub bridge/request/health_check '{}'
  curl -s "http://127.0.0.1:$FRONTEND_PORT/metrics" >/dev/null
  if command -v chromium >/dev/null; then
    timeout 60 chromium --headless --no-sandbox --disable-gpu --virtual-time-budget=8000 --dump-dom \
      "http://127.0.0.1:$FRONTEND_PORT/" >/dev/null 2>&1 || true
  fi
  sleep 5
done
pub bridge/request/device/rename '{"from":"hall/remote","to":"hall/remote2","homeassistant_rename":true}'
sleep 3
pub bridge/request/device/rename '{"from":"hall/remote2","to":"hall/remote"}'
sleep 3
kill -TERM -- -"$DEMO" 2>/dev/null || kill -TERM "$DEMO"
wait "$DEMO" || true
# The demo does not drive the advert path hard: its hot functions (link-order-adverts.txt, from a perf profile of
# the benchmark's advert bursts) follow the demo's, each name once.
{
  python3 Sources/things2mqtt/make-link-order.py "$WORK/link.map" "$WORK"/callgrind.out*
  cat Sources/things2mqtt/link-order-adverts.txt
} | awk '!seen[$0]++' >Sources/things2mqtt/link-order.txt
# SwiftPM does not track the order file: the next release build links again only without the old binary.
rm -f "$(swift build -c release --scratch-path .build-release --show-bin-path)/things2mqtt"
