import BridgeCore
import Support

/// One entry of `ble.connect`: which devices it claims and how it connects them. The first rule that
/// matches a device decides for it.
public struct ConnectRule: Sendable, Hashable {
    /// How a rule connects the devices it claims.
    public enum Policy: String, Sendable, Hashable, CaseIterable {
        /// The strongest eligible devices, up to `max_devices`, moving only to a clearly stronger one.
        case closest
        /// Every eligible device.
        case all
        /// Every eligible device in the remembered set.
        case remembered
        /// None: the devices are only shown.
        case never
    }

    /// Device families a rule can name with `class`.
    public enum DeviceClass: String, Sendable, Hashable, CaseIterable {
        /// A Nova flash: advertises service `FFF0` and is named exactly `Nova`.
        case nova

        /// Whether a device belongs to the class.
        func contains(_ device: KnownDevice) -> Bool {
            switch self {
            case .nova: device.name == "Nova" && device.services.contains(novaService)
            }
        }
    }

    /// Which devices the rule claims.
    public var match: Match
    /// How it connects them.
    public var policy: Policy
    /// How many devices `closest` keeps connected; the other policies have no limit.
    public var maxDevices: Int
    /// The averaged signal below which a device is not connected, and is disconnected.
    public var minSignal: Double

    /// Creates a rule with the defaults of the config file.
    public init(match: Match, policy: Policy, maxDevices: Int = 1, minSignal: Double = 0.1) {
        self.match = match
        self.policy = policy
        self.maxDevices = maxDevices
        self.minSignal = minSignal
    }

    /// Everything wrong with the rule, one message per problem naming the key; empty when it can be used.
    public var problems: [String] {
        var problems = match.problems
        if maxDevices < 1 { problems.append("max_devices must be at least 1, not \(maxDevices)") }
        if !(0...1).contains(minSignal) { problems.append("min_signal must be between 0 and 1, not \(minSignal)") }
        return problems
    }

    /// Whether the rule claims a device: every key given must hold.
    public func matches(_ device: KnownDevice) -> Bool { match.matches(device) }
}

/// The service every Nova flash advertises.
let novaService = BLEUUID(uuid16: 0xFFF0)

extension ConnectRule {
    /// What a rule claims: any combination of service, name glob, address and class; every key given must
    /// hold. The strings are kept as written for messages and parsed once here.
    public struct Match: Sendable, Hashable {
        /// A 16-, 32- or 128-bit service UUID the device advertises.
        public let service: String?
        /// A glob (`*`, `?`, `[…]`) for the whole local name; a pattern without them is an exact name.
        public let name: String?
        /// One device's address.
        public let address: String?
        /// A device family, e.g. `nova`.
        public let deviceClass: String?
        /// Problems found while parsing, each naming its key; a match with problems never matches.
        public let problems: [String]

        private let parsedService: BLEUUID?
        private let parsedName: Glob?
        private let parsedAddress: BluetoothAddress?
        private let parsedClass: DeviceClass?

        /// Parses the keys of a `match:` mapping; problems are collected, not thrown, so all can be reported.
        public init(service: String? = nil, name: String? = nil, address: String? = nil, deviceClass: String? = nil) {
            self.service = service
            self.name = name
            self.address = address
            self.deviceClass = deviceClass
            var problems: [String] = []
            do throws(BLEFormatError) {
                parsedService = try service.map { (text) throws(BLEFormatError) in try BLEUUID(text) }
            } catch {
                parsedService = nil
                problems.append("service: \(error)")
            }
            do throws(GlobError) { parsedName = try name.map { (text) throws(GlobError) in try Glob(text) } } catch {
                parsedName = nil
                problems.append("name: \(error)")
            }
            do throws(BluetoothAddressError) {
                parsedAddress = try address.map { (text) throws(BluetoothAddressError) in try BluetoothAddress(text) }
            } catch {
                parsedAddress = nil
                problems.append("address: \(error)")
            }
            parsedClass = deviceClass.flatMap { DeviceClass(rawValue: $0.lowercased()) }
            if let deviceClass, parsedClass == nil {
                let known = DeviceClass.allCases.map(\.rawValue).joined(separator: ", ")
                problems.append("class: unknown class \"\(deviceClass)\" (known: \(known))")
            }
            if service == nil, name == nil, address == nil, deviceClass == nil {
                problems.append("match needs at least one of service, name, address, class")
            }
            self.problems = problems
        }

        /// Whether every given key holds for the device.
        public func matches(_ device: KnownDevice) -> Bool {
            guard problems.isEmpty else { return false }
            if let parsedService, !device.services.contains(parsedService) { return false }
            if let parsedName, !(device.name.map(parsedName.matches) ?? false) { return false }
            if let parsedAddress, device.address != parsedAddress { return false }
            if let parsedClass, !parsedClass.contains(device) { return false }
            return true
        }
    }
}
