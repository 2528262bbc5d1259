public import BridgeCore

/// One auto-connect rule of the `ble.connect` list.
public struct BLEConnectRule: Sendable, Equatable {
    /// What a device must have for the rule to apply; every given field must match.
    public struct Match: Sendable, Equatable {
        /// A service UUID in canonical 128-bit lowercase form.
        public var service: String?
        /// A name pattern.
        public var name: Glob?
        /// An address, normalised `aa:bb:cc:dd:ee:ff`.
        public var address: String?
        /// A device class the bridge knows (`nova`).
        public var deviceClass: String?

        /// Creates a match.
        public init(service: String? = nil, name: Glob? = nil, address: String? = nil, deviceClass: String? = nil) {
            self.service = service
            self.name = name
            self.address = address
            self.deviceClass = deviceClass
        }
    }

    /// What to do with the devices a rule matches.
    public enum Policy: String, Sendable, Equatable, CaseIterable {
        /// The strongest eligible devices, up to `max_devices`, moving to a clearly stronger one.
        case closest
        /// Every eligible device.
        case all
        /// Only remembered devices.
        case remembered
        /// None: the devices are only shown.
        case never
    }

    public var match: Match
    public var policy: Policy
    public var maxDevices: Int
    public var minSignal: Double

    /// Creates a rule with the documented defaults.
    public init(match: Match, policy: Policy = .closest, maxDevices: Int = 1, minSignal: Double = 0.1) {
        self.match = match
        self.policy = policy
        self.maxDevices = maxDevices
        self.minSignal = minSignal
    }

    /// Device classes `class:` accepts.
    public static let classes = ["nova"]
}

/// Parsing of the identifiers BLE config uses.
public enum BLEIdentifiers {
    /// `aa:bb:cc:dd:ee:ff` for a MAC written with `:` or `-` in any case; nil if it is not one.
    public static func address(_ text: String) -> String? {
        let parts = text.lowercased().split(separator: text.contains("-") ? "-" : ":", omittingEmptySubsequences: false)
        guard parts.count == 6, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isHexDigit) }) else { return nil }
        return parts.joined(separator: ":")
    }

    /// A service UUID in canonical 128-bit lowercase form, from 16-bit (`fff0`), 32-bit or 128-bit text.
    public static func serviceUUID(_ text: String) -> String? {
        let lower = text.lowercased().hasPrefix("0x") ? String(text.lowercased().dropFirst(2)) : text.lowercased()
        if [4, 8].contains(lower.count), lower.allSatisfy(\.isHexDigit) {
            return String(repeating: "0", count: 8 - lower.count) + lower + "-0000-1000-8000-00805f9b34fb"
        }
        let groups = lower.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12], groups.allSatisfy({ $0.allSatisfy(\.isHexDigit) }) else { return nil }
        return lower
    }
}
