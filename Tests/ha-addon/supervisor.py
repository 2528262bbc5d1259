#!/usr/bin/env python3
"""A stand-in for Home Assistant's Supervisor, as far as the things2mqtt add-on uses it: GET /services/mqtt
with the add-on's bearer token answers the broker and its credentials; a wrong or missing token gets 401,
as the Supervisor answers. Prints "listening <port>" once it serves, then one line per request:
"<method> <path> <status>".

    supervisor.py --token T --mqtt-host 127.0.0.1 --mqtt-port 1883 --username addons --password secret [--port 0]
    supervisor.py --token T --no-mqtt          # the Mosquitto add-on is not installed: 400, as the Supervisor says
"""
import argparse
import http.server
import json
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--token", required=True)
    parser.add_argument("--mqtt-host", default="127.0.0.1")
    parser.add_argument("--mqtt-port", type=int, default=1883)
    parser.add_argument("--username", default="addons")
    parser.add_argument("--password", default="")
    parser.add_argument("--ssl", action="store_true")
    parser.add_argument("--no-mqtt", action="store_true")
    args = parser.parse_args()

    class Handler(http.server.BaseHTTPRequestHandler):
        def answer(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            print(f"{self.command} {self.path} {status}", flush=True)

        def do_GET(self):
            if self.headers.get("Authorization") != "Bearer " + args.token:
                return self.answer(401, {"result": "error", "message": "Unauthorized"})
            if self.path != "/services/mqtt":
                return self.answer(404, {"result": "error", "message": "Not found"})
            if args.no_mqtt:
                return self.answer(400, {"result": "error", "message": "No service mqtt available"})
            return self.answer(200, {"result": "ok", "data": {
                "addon": "core_mosquitto", "host": args.mqtt_host, "port": args.mqtt_port, "ssl": args.ssl,
                "protocol": "3.1.1", "username": args.username, "password": args.password}})

        def log_message(self, *_):
            pass

    server = http.server.ThreadingHTTPServer((args.bind, args.port), Handler)
    print(f"listening {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
