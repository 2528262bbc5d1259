import BridgeConfig
import EV3Protocol
import Support

/// One `ev3.bricks` item as decoded: exactly one of the four connection keys, each checked in place.
struct EV3BrickEntry: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case wifi, bluetooth, serial, usb, serialNumber = "serial_number", ports
    }

    /// The brick, or nil when the entry was malformed (already reported, so the config does not load).
    let brick: EV3BrickSettings?
    /// The key that named the connection, for messages about it.
    let connectionKey: String

    init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        let given = [CodingKeys.wifi, .bluetooth, .serial, .usb].filter { reader.container.contains($0) }
        connectionKey = given.first?.stringValue ?? "wifi"
        var valid = given.count == 1
        if given.isEmpty {
            reader.collector.add(reader.path, "needs one of wifi: host[:port], bluetooth: address, serial: /dev/rfcommN, usb: /dev/hidrawN")
        } else if given.count > 1 {
            reader.problem(given[1], "give one of wifi, bluetooth, serial and usb, not \(given.map(\.stringValue).joined(separator: " and "))")
        }
        let connection = given.first.flatMap { Self.connection($0, reader) }
        valid = valid && connection != nil
        var serialNumber: String?
        if let text: String = reader.optional(.serialNumber) {
            serialNumber = Self.serialNumber(text)
            if serialNumber == nil {
                reader.problem(.serialNumber, "\"\(text)\" is not a brick serial number (12 hex digits, e.g. 0016533f0c1e)")
                valid = false
            }
        }
        let ports = reader.value(.ports, default: EV3PortModes()).modes
        brick = valid ? connection.map { EV3BrickSettings(connection: $0, serialNumber: serialNumber, ports: ports) } : nil
    }

    private static func connection(_ key: CodingKeys, _ reader: SectionReader<CodingKeys>) -> EV3Connection? {
        guard let text: String = reader.optional(key) else { return nil }
        switch key {
        case .wifi:
            guard let (host, port) = hostAndPort(text) else {
                reader.problem(key, "\"\(text)\" is not host or host:port (port 1 to 65535; IPv6 in brackets)")
                return nil
            }
            return .wifi(host: host, port: port)
        case .bluetooth:
            do throws(BluetoothAddressError) {
                return .bluetooth(address: try BluetoothAddress(text).description)
            } catch {
                reader.problem(key, error.description)
                return nil
            }
        default:
            guard text.hasPrefix("/"), text.count > 1 else {
                reader.problem(key, "\"\(text)\" is not an absolute device path (e.g. /dev/\(key == .usb ? "hidraw0" : "rfcomm0"))")
                return nil
            }
            return key == .usb ? .usb(path: text) : .serial(path: text)
        }
    }

    /// `host`, `host:port`, `[v6]` or `[v6]:port`.
    static func hostAndPort(_ text: String) -> (String, Int)? {
        var host = text
        var port = EV3Connection.wifiPort
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let value = Int(rest.dropFirst()) else { return nil }
                port = value
            }
        } else if let colon = text.firstIndex(of: ":") {
            guard text.lastIndex(of: ":") == colon, let value = Int(text[text.index(after: colon)...]) else { return nil }
            host = String(text[..<colon])
            port = value
        }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }), (1...65535).contains(port) else {
            return nil
        }
        return (host, port)
    }

    /// Twelve hex digits, lowercased; colons or dashes between octets are accepted and dropped.
    static func serialNumber(_ text: String) -> String? {
        let digits = text.filter { $0 != ":" && $0 != "-" }
        guard digits.count == 12, digits.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        return digits.lowercased()
    }
}

/// A brick's `ports` mapping: sensor port number to mode name, each key and value checked in place.
struct EV3PortModes: Decodable {
    let modes: [Int: EV3SensorMode]

    init() { modes = [:] }

    init(from decoder: any Decoder) throws {
        let collector = IssueCollector.of(decoder)
        let path = decoder.codingPath.map(\.stringValue)
        // Read as one dictionary of text, so every key, quoted ("3") or plain (3), is checked here and reported at itself.
        let raw: [String: String]
        do {
            raw = try decoder.singleValueContainer().decode([String: String].self)
        } catch {
            collector.add(error, at: path)
            modes = [:]
            return
        }
        var modes: [Int: EV3SensorMode] = [:]
        for (key, text) in raw.sorted(by: { $0.key < $1.key }) {
            guard let port = Int(key), (1...4).contains(port) else {
                collector.add(path + [key], "\"\(key)\" is not a sensor port (1 to 4)", atKey: true)
                continue
            }
            guard let mode = EV3SensorMode(rawValue: text) else {
                let known = EV3SensorMode.allCases.map(\.rawValue).joined(separator: ", ")
                collector.add(path + [key], "\"\(text)\" is not a sensor mode (\(known))")
                continue
            }
            modes[port] = mode
        }
        self.modes = modes
    }
}
