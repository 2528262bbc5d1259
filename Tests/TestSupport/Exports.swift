// The tests use the harness the benchmark uses (broker, bus, daemon, MQTT client) through this module.
@_exported import Harness
