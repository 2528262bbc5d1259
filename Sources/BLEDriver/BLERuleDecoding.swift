import BLEModels
import BridgeConfig
import BridgeCore
import Support

/// One `ble.connect` item as decoded: every key is checked where it is written (so each problem has its
/// line and column), then the rule is built from the text as written.
struct ConfigRule: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case match, policy, maxDevices = "max_devices", minSignal = "min_signal"
    }

    /// The rule, or nil when it was malformed (already reported, so the config does not load).
    let rule: ConnectRule?

    init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        if !reader.container.contains(.match) { reader.collector.add(reader.path, "needs a match: {service, name, address or class}") }
        let match = reader.value(.match, default: ConfigMatch()).match
        var policy = ConnectRule.Policy.closest
        if let text: String = reader.optional(.policy) {
            if let parsed = ConnectRule.Policy(rawValue: text) {
                policy = parsed
            } else {
                reader.problem(.policy, "\"\(text)\" is not a policy (closest, all, remembered, never)")
            }
        }
        let maxDevices = reader.value(.maxDevices, default: 1)
        if maxDevices < 1 { reader.problem(.maxDevices, "must be at least 1") }
        let minSignal = reader.value(.minSignal, default: 0.1)
        if !(0...1).contains(minSignal) { reader.problem(.minSignal, "must be between 0 and 1 (signal strength)") }
        rule = match.map { ConnectRule(match: $0, policy: policy, maxDevices: maxDevices, minSignal: minSignal) }
    }
}

/// A rule's `match` mapping, each key checked in place.
struct ConfigMatch: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case service, name, address, deviceClass = "class"
    }

    /// The parsed match; nil when a key is malformed (already reported) or no key was given.
    let match: ConnectRule.Match?

    init() { match = nil }

    init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        guard !reader.container.allKeys.isEmpty else {
            reader.collector.add(reader.path, "needs at least one of service, name, address, class")
            match = nil
            return
        }
        var valid = true
        let service: String? = reader.optional(.service)
        if let service {
            do throws(BLEFormatError) { _ = try BLEUUID(service) } catch {
                reader.problem(.service, error.description)
                valid = false
            }
        }
        let name: String? = reader.optional(.name)
        if let name {
            do throws(GlobError) { _ = try Glob(name) } catch {
                reader.problem(.name, error.description)
                valid = false
            }
        }
        let address: String? = reader.optional(.address)
        if let address {
            do throws(BluetoothAddressError) { _ = try BluetoothAddress(address) } catch {
                reader.problem(.address, error.description)
                valid = false
            }
        }
        let deviceClass: String? = reader.optional(.deviceClass)
        if let deviceClass, ConnectRule.DeviceClass(rawValue: deviceClass.lowercased()) == nil {
            let known = ConnectRule.DeviceClass.allCases.map(\.rawValue).joined(separator: ", ")
            reader.problem(.deviceClass, "\"\(deviceClass)\" is not a device class (\(known))")
            valid = false
        }
        match = valid ? ConnectRule.Match(service: service, name: name, address: address, deviceClass: deviceClass) : nil
    }
}
