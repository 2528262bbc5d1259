import Foundation
import TestSupport
import BLEDriver
import BLEFormats
import BLEModels
import BridgeConfig
import BridgeCore
import Testing
import Support

@Suite("The ble config section")
struct BLEConfigTests {
    static let example = """
        ble:
          enabled: true
          adapter: hci1
          away_after: 90s
          connect:
            - match: {service: fff0, name: Nova}
              policy: closest
              max_devices: 2
              min_signal: 0.2
            - match: {service: "180d"}
              policy: all
            - match: {class: Nova, address: "AA-BB-CC-DD-EE-01"}
          deny: ["11:22:33:44:55:66"]

        """

    @Test("a full section decodes with normalised UUIDs and addresses and the documented defaults")
    func decodes() throws {
        let config = try ConfigLoader.parse(yaml: Self.example, file: "ble.yaml")
        let ble = config.ble
        #expect(ble.enabled && ble.adapter == "hci1" && ble.awayAfter == .seconds(90))
        #expect(ble.deny == ["11:22:33:44:55:66"])
        #expect(ble.connect.count == 3)
        #expect(ble.connect.allSatisfy { $0.problems.isEmpty })
        #expect(ble.connect[0].match.service == "fff0" && ble.connect[0].match.name == "Nova")
        #expect(ble.connect[0].maxDevices == 2 && ble.connect[0].minSignal == 0.2 && ble.connect[0].policy == .closest)
        #expect(ble.connect[1].match.service == "180d" && ble.connect[1].policy == .all)
        #expect(ble.connect[2].match.address == "AA-BB-CC-DD-EE-01" && ble.connect[2].match.deviceClass == "Nova")
        #expect(ble.connect[2].policy == .closest && ble.connect[2].maxDevices == 1 && ble.connect[2].minSignal == 0.1)
        let nova = KnownDevice(address: try BluetoothAddress("AA:BB:CC:DD:EE:01"), name: "Nova", services: [try BLEUUID("fff0")])
        #expect(ble.rules.rule(for: nova)?.index == 0)
        #expect(BLESettings().awayAfter == .seconds(60))
    }

    @Test(
        "every bad value is reported with its line, column and key path",
        arguments: [
            ("    - match: {name: \"Nova[\"}\n", 3, 21, "ble.connect[0].match.name", "unclosed [ in pattern \"Nova[\""),
            ("    - match: {service: fffz}\n", 3, 24, "ble.connect[0].match.service", "UUID \"fffz\" is not a 16-bit"),
            ("    - match: {address: 11:22:33}\n", 3, 24, "ble.connect[0].match.address", "address \"11:22:33\" is not six octets"),
            ("    - match: {class: lamp}\n", 3, 22, "ble.connect[0].match.class", "\"lamp\" is not a device class (nova)"),
            ("    - match: {name: x}\n      policy: nearest\n", 4, 15, "ble.connect[0].policy", "\"nearest\" is not a policy"),
            ("    - match: {name: x}\n      max_devices: 0\n", 4, 20, "ble.connect[0].max_devices", "must be at least 1"),
            ("    - match: {name: x}\n      min_signal: 1.5\n", 4, 19, "ble.connect[0].min_signal", "must be between 0 and 1"),
            ("    - match: {}\n", 3, 14, "ble.connect[0].match", "needs at least one of"),
            ("    - match: {name: x}\n      when: always\n", 4, 7, "ble.connect[0].when", "unknown key"),
        ])
    func errors(rule: String, line: Int, column: Int, keyPath: String, message: String) {
        expectOneIssue("ble:\n  connect:\n" + rule, file: "ble.yaml", line: line, column: column, keyPath: keyPath, message: message)
    }

    @Test("a 16-bit UUID written as a bare number is still a UUID")
    func numericService() throws {
        let config = try ConfigLoader.parse(yaml: "ble:\n  connect:\n    - match: {service: 1800}\n", file: "ble.yaml")
        #expect(config.ble.connect.first?.match.service == "1800")
        #expect(config.ble.connect.first?.problems == [])
    }

    @Test("a bad deny address and a too short away_after are reported where they are")
    func sectionErrors() {
        do {
            _ = try ConfigLoader.parse(yaml: "ble:\n  away_after: 100ms\n  deny: [\"aa:bb\"]\n", file: "ble.yaml")
            Issue.record("accepted")
        } catch {
            #expect(error.description.contains("ble.yaml:2:15: ble.away_after: must be at least 1s"), "\(error)")
            #expect(error.description.contains("ble.yaml:3:10: ble.deny[0]: address \"aa:bb\" is not six octets"), "\(error)")
        }
    }

    @Test("passive formats and the state and RSSI intervals: defaults, and values in any case")
    func passive() throws {
        let defaults = try ConfigLoader.parse(yaml: "ble:\n  enabled: true\n", file: "ble.yaml").ble
        #expect(defaults.passive == [.bthome, .atc, .pvvx, .xiaomi, .switchbot, .govee, .oralb, .thermopro, .inkbird, .ruuvi])
        #expect(defaults.stateInterval == .seconds(60) && defaults.rssiInterval == .seconds(60))
        let yaml = "ble:\n  passive: [iBeacon, eddystone, BTHome]\n  state_interval: 5m\n  rssi_interval: 10s\n"
        let ble = try ConfigLoader.parse(yaml: yaml, file: "ble.yaml").ble
        #expect(ble.passive == [.ibeacon, .eddystone, .bthome])
        #expect(ble.stateInterval == .seconds(300) && ble.rssiInterval == .seconds(10))
        #expect(try ConfigLoader.parse(yaml: "ble:\n  passive: []\n", file: "ble.yaml").ble.passive.isEmpty)
        #expect(defaults.maxPassiveDevices == 256 && defaults.passiveBurst == 50 && defaults.passivePerMinute == 10)
        let limits = "ble:\n  max_passive_devices: 0\n  passive_burst: 5\n  passive_per_minute: 0\n"
        let limited = try ConfigLoader.parse(yaml: limits, file: "ble.yaml").ble
        #expect(limited.maxPassiveDevices == 0 && limited.passiveBurst == 5 && limited.passivePerMinute == 0)
        let block = "ble:\n  passive:\n    - pvvx\n    - atc\n"
        #expect(try ConfigLoader.parse(yaml: block, file: "ble.yaml").ble.passive == [.pvvx, .atc])
    }

    @Test(
        "a bad passive format or interval is reported at its line and column",
        arguments: [
            ("  passive: [bthome, mibeacon]\n", 2, 21, "ble.passive[1]", "\"mibeacon\" is not a passive advert format (bthome, atc"),
            ("  passive:\n    - atc\n    - tilt\n", 4, 7, "ble.passive[1]", "\"tilt\" is not a passive advert format"),
            ("  passive: [atc, pvvx, ATC]\n", 2, 24, "ble.passive[2]", "\"ATC\" is listed twice"),
            ("  passive: bthome\n", 2, 12, "ble.passive", "expected"),
            ("  state_interval: 500ms\n", 2, 19, "ble.state_interval", "must be at least 1s"),
            ("  rssi_interval: soon\n", 2, 18, "ble.rssi_interval", "is not a duration"),
            ("  max_passive_devices: 5000\n", 2, 24, "ble.max_passive_devices", "must be 0 to 4096"),
            ("  max_passive_devices: many\n", 2, 24, "ble.max_passive_devices", "expected"),
            ("  passive_burst: -1\n", 2, 18, "ble.passive_burst", "must be 0 to 1000"),
            ("  passive_per_minute: 601\n", 2, 23, "ble.passive_per_minute", "must be 0 to 600"),
        ])
    func passiveErrors(section: String, line: Int, column: Int, keyPath: String, message: String) {
        expectOneIssue("ble:\n" + section, file: "ble.yaml", line: line, column: column, keyPath: keyPath, message: message)
    }

    @Test("bindkeys: by address in any case, 32 or 24 hex digits, printed as ***")
    func bindkeys() throws {
        let yaml = """
            ble:
              bindkeys:
                "a4:c1:38:02:83:f4": "e9ea895fac7cca6d30532432a516f3a8"
                "F8:24:41:C5:98:8B": b853075158487ca39a5b5ea9

            """
        let ble = try ConfigLoader.parse(yaml: yaml, file: "ble.yaml").ble
        #expect(ble.bindkeys.count == 2)
        let key = try #require(ble.bindkeys[try BluetoothAddress("A4:C1:38:02:83:F4")])
        #expect(key == (try BindKey(hex: "e9ea895fac7cca6d30532432a516f3a8")))
        #expect("\(ble.bindkeys)".contains("***") && !"\(ble.bindkeys)".contains("e9ea"))
        #expect(BLESettings().bindkeys.isEmpty)
    }

    @Test(
        "a bad bindkey or address is reported at its line and column, never quoting the key",
        arguments: [
            ("    \"A4:C1:38:02:83:F4\": \"e9ea895f\"\n", 3, 26, "ble.bindkeys.A4:C1:38:02:83:F4", "a bindkey is 32 hex digits"),
            ("    \"A4:C1:38:02:83:F4\": \"e9ea895fac7cca6d30532432a516f3zz\"\n", 3, 26, "ble.bindkeys.A4:C1:38:02:83:F4", "not hex"),
            ("    \"A4:C1:38\": \"e9ea895fac7cca6d30532432a516f3a8\"\n", 3, 5, "ble.bindkeys.A4:C1:38", "is not six octets"),
        ])
    func bindkeyErrors(entry: String, line: Int, column: Int, keyPath: String, message: String) {
        expectOneIssue("ble:\n  bindkeys:\n" + entry, file: "ble.yaml", line: line, column: column, keyPath: keyPath, message: message)
    }

    @Test("formats: layouts described in YAML become user formats")
    func formats() throws {
        let yaml = """
            ble:
              formats:
                - name: acme_thermo
                  match: {manufacturer_id: 0xFFF1, prefix: "01"}
                  fields:
                    - {key: temperature, offset: 1, type: int16le, scale: 0.01, unit: "°C", device_class: temperature}
                    - {key: humidity, offset: 3, type: uint8, unit: "%", device_class: humidity}
                - name: tank
                  match: {service_data: "fe00", name: "ACME*"}
                  fields:
                    - {key: level, offset: 0, type: uint16be, add: -100, state_class: total}

            """
        let formats = try ConfigLoader.parse(yaml: yaml, file: "ble.yaml").ble.formats
        #expect(formats.count == 2)
        #expect(formats[0].name == "acme_thermo" && formats[0].source == .manufacturer(0xFFF1) && formats[0].prefix == [0x01])
        #expect(formats[0].fields.map(\.quantity.key) == ["temperature", "humidity"])
        #expect(formats[0].fields[0].scale == 0.01 && formats[0].fields[0].type == .int16le)
        #expect(formats[0].fields[0].quantity.unit == "°C" && formats[0].fields[0].quantity.deviceClass == "temperature")
        #expect(formats[0].fields[1].quantity.name == "Humidity" && formats[0].fields[1].quantity.stateClass == "measurement")
        #expect(formats[1].source == .service(BLEUUID(uuid16: 0xFE00)) && formats[1].localName?.matches("ACME-7") == true)
        #expect(formats[1].fields[0].add == -100 && formats[1].fields[0].quantity.stateClass == "total")
    }

    @Test(
        "a bad format is reported at its line and column",
        arguments: [
            ("  formats:\n    - name: x\n      match: {manufacturer_id: 0xFFF1}\n      fields:\n        - {key: t, offset: 1, type: int16}\n", 6, 37, "ble.formats[0].fields[0].type", "\"int16\" is not a field type"),
            ("  formats:\n    - name: x\n      match: {manufacturer_id: 0x1FFFF}\n      fields:\n        - {key: t, offset: 1, type: int16le}\n", 4, 32, "ble.formats[0].match.manufacturer_id", "a company id is 0 to 0xFFFF"),
            ("  formats:\n    - name: x\n      match: {manufacturer_id: 0xFFF1}\n      fields:\n        - {key: RSSI, offset: 1, type: int16le}\n", 6, 17, "ble.formats[0].fields[0].key", "a state key is lowercase"),
            ("  formats:\n    - name: x\n      match: {manufacturer_id: 0xFFF1}\n      fields:\n        - {key: rssi, offset: 1, type: int16le}\n", 6, 17, "ble.formats[0].fields[0].key", "a key the bridge sets itself"),
            ("  formats:\n    - name: x\n      match: {manufacturer_id: 0xFFF1, prefix: \"0g\"}\n      fields:\n        - {key: t, offset: 1, type: int16le}\n", 4, 48, "ble.formats[0].match.prefix", "is not hex"),
            ("  formats:\n    - name: x\n      match: {manufacturer_id: 0xFFF1}\n      fields:\n        - {key: t, offset: 300, type: int16le}\n", 6, 28, "ble.formats[0].fields[0].offset", "needs an offset from 0 to 254"),
        ])
    func formatErrors(section: String, line: Int, column: Int, keyPath: String, message: String) {
        expectOneIssue("ble:\n" + section, file: "ble.yaml", line: line, column: column, keyPath: keyPath, message: message)
    }

    @Test("bindkeys_file: a YAML map beside the config, redacted; a bad key in it is reported at bindkeys_file without the key")
    func bindkeysFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("\"A4:C1:38:02:83:F4\": e9ea895fac7cca6d30532432a516f3a8\n".utf8).write(to: folder.appendingPathComponent("keys.yaml"))
        let yaml = "ble:\n  bindkeys_file: keys.yaml\n  bindkeys:\n    \"54:48:E6:8F:80:A5\": \"231d39c1d7cc1ab1aee224cd096db932\"\n"
        let config = try ConfigLoader.parse(yaml: yaml, file: "ble.yaml", baseDirectory: folder.path)
        #expect(config.ble.bindkeys.count == 2)
        #expect(config.redactedJSON["ble"]?["bindkeys"]?["A4:C1:38:02:83:F4"] == "***")
        #expect(!config.redactedJSON.jsonString.contains("e9ea895f") && !config.redactedJSON.jsonString.contains("231d39c1"))
        try Data("\"A4:C1:38:02:83:F4\": e9ea895fzz\n".utf8).write(to: folder.appendingPathComponent("bad.yaml"))
        let error = #expect(throws: ConfigErrors.self) {
            try ConfigLoader.parse(yaml: "ble:\n  bindkeys_file: bad.yaml\n", file: "ble.yaml", baseDirectory: folder.path)
        }
        #expect(error?.issues.count == 1 && error?.issues.first?.keyPath == "ble.bindkeys_file")
        #expect(error?.issues.first?.message.contains("e9ea") == false)
    }

    @Test("a reload takes new bindkeys and formats live; any other ble change needs a restart")
    func reloadable() throws {
        var old = BLESettings()
        old.enabled = true
        var keys = old
        keys.bindkeys = [try BluetoothAddress("A4:C1:38:02:83:F4"): try BindKey(hex: "e9ea895fac7cca6d30532432a516f3a8")]
        keys.formats = [UserFormat(name: "x", source: .manufacturer(1), fields: [])]
        #expect(!keys.needsRestart(from: old))
        var adapter = keys
        adapter.adapter = "hci1"
        #expect(adapter.needsRestart(from: old))
    }
}

