import BridgeCore

extension BLEConnectRule: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case match, policy, maxDevices = "max_devices", minSignal = "min_signal"
    }

    /// Decodes one `ble.connect` item; problems are recorded with their place and the rule still decodes.
    public init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        match = reader.value(.match, default: Match())
        if !reader.container.contains(.match) { reader.collector.add(reader.path, "needs a match: {service, name, address or class}") }
        policy = .closest
        if let text: String = reader.optional(.policy) {
            if let parsed = Policy(rawValue: text) {
                policy = parsed
            } else {
                reader.problem(.policy, "\"\(text)\" is not a policy (closest, all, remembered, never)")
            }
        }
        maxDevices = reader.value(.maxDevices, default: 1)
        if maxDevices < 1 { reader.problem(.maxDevices, "must be at least 1") }
        minSignal = reader.value(.minSignal, default: 0.1)
        if !(0...1).contains(minSignal) { reader.problem(.minSignal, "must be between 0 and 1 (signal strength)") }
    }
}

extension BLEConnectRule.Match: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case service, name, address, deviceClass = "class"
    }

    /// Decodes a rule's `match`, normalising UUIDs and addresses and compiling the name pattern.
    public init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        self.init()
        if reader.container.allKeys.isEmpty {
            reader.collector.add(reader.path, "needs at least one of service, name, address, class")
        }
        if let text: String = reader.optional(.service) {
            service = BLEIdentifiers.serviceUUID(text)
            if service == nil { reader.problem(.service, "\"\(text)\" is not a service UUID (fff0, or 0000fff0-0000-1000-8000-00805f9b34fb)") }
        }
        if let text: String = reader.optional(.name) {
            do throws(GlobError) {
                name = try Glob(text)
            } catch {
                reader.problem(.name, error.description)
            }
        }
        if let text: String = reader.optional(.address) {
            address = BLEIdentifiers.address(text)
            if address == nil { reader.problem(.address, "\"\(text)\" is not a Bluetooth address (aa:bb:cc:dd:ee:ff)") }
        }
        if let text: String = reader.optional(.deviceClass) {
            if BLEConnectRule.classes.contains(text.lowercased()) {
                deviceClass = text.lowercased()
            } else {
                reader.problem(.deviceClass, "\"\(text)\" is not a device class (\(BLEConnectRule.classes.joined(separator: ", ")))")
            }
        }
    }
}
