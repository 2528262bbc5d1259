/// What a decoded value measures, with everything needed to publish it: its state key, unit and the Home
/// Assistant metadata the driver turns into an expose, and the rule that decides when a change is worth a
/// publish. One table of these serves every format, so `temperature` means the same everywhere.
public struct Quantity: Sendable, Hashable {
    /// How a value is shown.
    public enum Kind: Sendable, Hashable {
        /// A number (`sensor`).
        case numeric
        /// On or off (`binary_sensor`); on follows Home Assistant's device class (for `door`, open).
        case binary
        /// Free text (`sensor` without unit).
        case text
        /// A momentary event (`event`) with the types it may carry.
        case event(types: [String])
        /// A list of numbers, e.g. RR intervals; state only.
        case list
    }

    /// When a change of this quantity alone is worth publishing the device's state.
    public enum ChangeRule: Sendable, Hashable {
        /// Any change.
        case any
        /// A move of at least `absolute`, or `relative` times the last published value if that is larger.
        case threshold(Double, relative: Double = 0)
        /// Follows the signal: alone, at most once per `rssi_interval`.
        case signal
        /// Never alone (counters that always move); it goes out with other changes and at `state_interval`.
        case quiet
        /// Every occurrence (events).
        case always
    }

    /// The fields, shared by every copy: a measurement is copied from the decoder through the driver's tables
    /// several times per advert, and one reference costs one retain where nine fields (five of them strings)
    /// cost nine.
    private final class Storage: Sendable {
        let key: String
        let name: String
        let kind: Kind
        let unit: String?
        let deviceClass: String?
        let stateClass: String?
        let diagnostic: Bool
        let change: ChangeRule
        let inverted: Bool

        init(
            key: String, name: String, kind: Kind, unit: String?, deviceClass: String?, stateClass: String?,
            diagnostic: Bool, change: ChangeRule, inverted: Bool
        ) {
            self.key = key
            self.name = name
            self.kind = kind
            self.unit = unit
            self.deviceClass = deviceClass
            self.stateClass = stateClass
            self.diagnostic = diagnostic
            self.change = change
            self.inverted = inverted
        }
    }

    private let storage: Storage

    /// The key in the device's state, e.g. `temperature`.
    public var key: String { storage.key }
    /// A human name, e.g. `Temperature`.
    public var name: String { storage.name }
    /// How the value is shown.
    public var kind: Kind { storage.kind }
    /// The unit, as Home Assistant spells it (`°C`, `%`, `hPa`); nil for none.
    public var unit: String? { storage.unit }
    /// Home Assistant's device class, only where Home Assistant 2024.1 knows it for this unit.
    public var deviceClass: String? { storage.deviceClass }
    /// Home Assistant's state class (`measurement`, `total`, `total_increasing`).
    public var stateClass: String? { storage.stateClass }
    /// Diagnostic values are filed apart, as zigbee2mqtt does for link quality.
    public var diagnostic: Bool { storage.diagnostic }
    /// When a change is worth a publish.
    public var change: ChangeRule { storage.change }
    /// A binary value whose `ON` is its device class's off: zigbee2mqtt's `contact` is on when closed, where
    /// Home Assistant's door sensor is on when open.
    public var inverted: Bool { storage.inverted }

    /// Creates a quantity.
    public init(
        _ key: String, name: String, kind: Kind = .numeric, unit: String? = nil, deviceClass: String? = nil,
        stateClass: String? = nil, diagnostic: Bool = false, change: ChangeRule = .any, inverted: Bool = false
    ) {
        storage = Storage(
            key: key, name: name, kind: kind, unit: unit, deviceClass: deviceClass, stateClass: stateClass,
            diagnostic: diagnostic, change: change, inverted: inverted)
    }

    /// Equal when every field is: two quantities made apart with the same fields are the same quantity.
    public static func == (lhs: Quantity, rhs: Quantity) -> Bool {
        let (a, b) = (lhs.storage, rhs.storage)
        return a === b
            || (a.key == b.key && a.name == b.name && a.kind == b.kind && a.unit == b.unit && a.deviceClass == b.deviceClass
                && a.stateClass == b.stateClass && a.diagnostic == b.diagnostic && a.change == b.change
                && a.inverted == b.inverted)
    }

    /// Hashes the key and name, which equal quantities share.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.key)
        hasher.combine(storage.name)
    }

    /// A numeric sensor read at a point in time.
    static func measurement(
        _ key: String, _ name: String, unit: String?, deviceClass: String? = nil, change: ChangeRule,
        diagnostic: Bool = false
    ) -> Quantity {
        Quantity(
            key, name: name, unit: unit, deviceClass: deviceClass, stateClass: "measurement", diagnostic: diagnostic,
            change: change)
    }

    /// A meter reading that only grows (or restarts from zero).
    static func meter(_ key: String, _ name: String, unit: String, deviceClass: String?, stateClass: String = "total_increasing")
        -> Quantity
    {
        Quantity(key, name: name, unit: unit, deviceClass: deviceClass, stateClass: stateClass)
    }

    /// An on/off sensor with Home Assistant's binary device class.
    static func binary(_ key: String, _ name: String, deviceClass: String?) -> Quantity {
        Quantity(key, name: name, kind: .binary, deviceClass: deviceClass)
    }

    /// Text that identifies or describes the device.
    static func text(_ key: String, _ name: String, diagnostic: Bool = false, change: ChangeRule = .any) -> Quantity {
        Quantity(key, name: name, kind: .text, diagnostic: diagnostic, change: change)
    }

    /// The same quantity under another state key and name, e.g. `button_2`, "Button 2" when a device has
    /// several buttons.
    public func keyed(_ key: String, name: String) -> Quantity {
        Quantity(
            key, name: name, kind: kind, unit: unit, deviceClass: deviceClass, stateClass: stateClass,
            diagnostic: diagnostic, change: change, inverted: inverted)
    }
}
