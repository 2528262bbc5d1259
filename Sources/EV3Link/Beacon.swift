/// The UDP beacon a WiFi brick broadcasts to port 3015 every few seconds (`c_wifi.c`):
/// `Serial-Number: 0016533f0c1e\r\nPort: 5555\r\nName: EV3\r\nProtocol: EV3\r\n`.
public struct EV3Beacon: Sendable, Hashable {
    /// The brick's serial number (its Bluetooth address without colons), lowercase.
    public var serialNumber: String
    /// The TCP port to connect to.
    public var port: Int
    /// The brick's name.
    public var name: String

    /// Creates a beacon.
    public init(serialNumber: String, port: Int, name: String) {
        self.serialNumber = serialNumber
        self.port = port
        self.name = name
    }

    /// Parses a datagram; nil for anything that is not an EV3 beacon with a serial number and a usable port.
    /// Lines may end in CRLF or LF; unknown fields are ignored; the name may be empty.
    public init?(datagram: [UInt8]) {
        guard datagram.count <= 512 else { return nil }
        var fields: [String: String] = [:]
        for line in String(decoding: datagram, as: UTF8.self).split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = trimmed(line[..<colon]).lowercased()
            fields[key] = fields[key] ?? trimmed(line[line.index(after: colon)...])
        }
        guard fields["protocol"] == "EV3", let serial = fields["serial-number"], let portText = fields["port"],
            let port = Int(portText), (1...65535).contains(port), serial.count == 12,
            serial.allSatisfy({ $0.isASCII && $0.isHexDigit })
        else { return nil }
        self.init(serialNumber: serial.lowercased(), port: port, name: fields["name"] ?? "")
    }

    /// The datagram as the firmware sends it.
    public var datagram: [UInt8] {
        Array("Serial-Number: \(serialNumber)\r\nPort: \(port)\r\nName: \(name)\r\nProtocol: EV3\r\n".utf8)
    }
}

/// A beacon and the address it came from.
public struct EV3BeaconSighting: Sendable, Hashable {
    /// What the brick announced.
    public var beacon: EV3Beacon
    /// The brick's IP address, as text.
    public var host: String

    /// The endpoint to connect to.
    public var endpoint: EV3Endpoint { .wifi(host: host, port: beacon.port, serial: beacon.serialNumber) }
}

/// The text without surrounding blanks.
private func trimmed(_ text: Substring) -> String {
    var slice = text
    while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
    while let last = slice.last, last == " " || last == "\t" || last == "\r" { slice = slice.dropLast() }
    return String(slice)
}
