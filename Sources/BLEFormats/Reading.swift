public import BridgeCore
public import Support

/// One decoded value.
public enum MeasuredValue: Sendable, Hashable {
    /// A number in the quantity's unit.
    case number(Double)
    /// On or off.
    case bool(Bool)
    /// Text.
    case text(String)
    /// An event that just happened, by type (`press`).
    case event(String)
    /// A list of numbers in the quantity's unit.
    case numbers([Double])

    /// As it goes into the device's state: binary values as `ON`/`OFF`, as the bridge's binary exposes expect.
    public var json: JSONValue {
        switch self {
        case .number(let value): .number(value)
        case .bool(let value): .string(value ? "ON" : "OFF")
        case .text(let value), .event(let value): .string(value)
        case .numbers(let values): .array(values.map(JSONValue.number))
        }
    }

    /// The number, if this is one.
    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }
}

/// A value with what it measures: key, unit and Home Assistant metadata in `quantity`.
public struct Measurement: Sendable, Hashable {
    /// What is measured, under the state key this value uses.
    public let quantity: Quantity
    /// The value, in the quantity's unit.
    public let value: MeasuredValue

    /// Creates a measurement.
    public init(_ quantity: Quantity, _ value: MeasuredValue) {
        self.quantity = quantity
        self.value = value
    }

    /// Creates a numeric measurement.
    public init(_ quantity: Quantity, _ number: Double) { self.init(quantity, .number(number)) }

    /// The key in the device's state.
    public var key: String { quantity.key }
}

/// What one advert or characteristic value says.
public struct Reading: Sendable, Hashable {
    /// The values, in the order the payload carries them.
    public var measurements: [Measurement]
    /// The sender's packet or measurement counter (BTHome packet id, ATC and pvvx counter), for dropping repeats.
    public var packetID: UInt8?
    /// Why decoding stopped before the end of the payload, when it did (a BTHome object id newer than this
    /// decoder); everything before it is decoded.
    public var stoppedEarly: DecodeFailure?
    /// Buttons and dimmers the payload carries with no event (BTHome's code 0): the device has them, so their
    /// entities can exist before the first press.
    public var quiet: [Quantity]
    /// The encryption counter of an encrypted BTHome advert, which must grow: a replayed advert repeats one.
    public var counter: UInt32?
    /// The sensor's maker and model, when the payload says (a MiBeacon product id, a SwitchBot model byte).
    public var model: SensorModel?

    /// Creates a reading.
    public init(
        _ measurements: [Measurement], packetID: UInt8? = nil, stoppedEarly: DecodeFailure? = nil, quiet: [Quantity] = [],
        counter: UInt32? = nil, model: SensorModel? = nil
    ) {
        self.measurements = measurements
        self.packetID = packetID
        self.stoppedEarly = stoppedEarly
        self.quiet = quiet
        self.counter = counter
        self.model = model
    }

    /// The value under a state key.
    public subscript(key: String) -> MeasuredValue? { measurements.first { $0.key == key }?.value }

    /// The values as state keys; events included, as their type.
    public var state: [String: JSONValue] {
        var state: [String: JSONValue] = [:]
        for measurement in measurements { state[measurement.key] = measurement.value.json }
        return state
    }
}

/// The result of decoding one payload: values, an encrypted payload recognised as such, or why it cannot be
/// decoded. Decoders never trap and never guess: anything they cannot vouch for is `undecodable`.
public enum Decoded: Sendable, Hashable {
    /// Values.
    case reading(Reading)
    /// The payload is encrypted and there is no key for it; nothing in it is read.
    case encrypted
    /// The payload is encrypted and the key given for the device does not open it (its tag does not match, or
    /// for MiBeacon v2/v3, which has no tag, what comes out is no valid frame).
    case wrongKey
    /// The payload is malformed for its format.
    case undecodable(DecodeFailure)

    /// The reading, if there is one.
    public var reading: Reading? {
        if case .reading(let reading) = self { return reading }
        return nil
    }
}

/// Why a payload cannot be decoded, for a debug log line.
public enum DecodeFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// No bytes.
    case empty
    /// A fixed-size payload of the wrong size.
    case wrongLength(Int, expected: [Int])
    /// The payload ends inside a field that starts at `offset`.
    case truncated(at: Int)
    /// More bytes than the format can carry.
    case tooLong(Int)
    /// Bytes left over after a complete value.
    case trailingBytes(at: Int)
    /// A BTHome version other than 2.
    case unsupportedVersion(Int)
    /// A BTHome object id this decoder does not know, so its length is unknown.
    case unknownObject(id: UInt8, at: Int)
    /// An Eddystone frame type or URL scheme that does not exist.
    case unknownFrame(UInt8)
    /// A value outside what the format allows.
    case invalidValue(String)
    /// The sender says it has no value (e.g. temperature `0x8000`).
    case notAvailable
    /// The address inside the payload is not the sender's, so the bytes are not this format.
    case addressMismatch(BluetoothAddress)
    /// A plain advert from a device that has a key: its values are not trusted, since anyone can send them.
    case downgrade

    /// One line for a log.
    public var description: String {
        switch self {
        case .empty: "empty payload"
        case .wrongLength(let length, let expected):
            "\(length) bytes, expected \(expected.map(String.init).joined(separator: " or "))"
        case .truncated(let offset): "payload ends inside the field at byte \(offset)"
        case .tooLong(let length): "\(length) bytes is more than the format carries"
        case .trailingBytes(let offset): "unexpected bytes from byte \(offset) on"
        case .unsupportedVersion(let version): "BTHome version \(version), not 2"
        case .unknownObject(let id, let offset): "unknown BTHome object id 0x\(Hex.byte(id)) at byte \(offset)"
        case .unknownFrame(let type): "unknown frame type 0x\(Hex.byte(type))"
        case .invalidValue(let what): what
        case .notAvailable: "the device reports no value"
        case .addressMismatch(let address): "payload names \(address), not the sender"
        case .downgrade: "a plain advert from a device that has a bindkey"
        }
    }
}

/// Who made a decoded sensor and what it is, when its adverts say so.
public struct SensorModel: Sendable, Hashable {
    /// The maker, e.g. `Xiaomi`.
    public let manufacturer: String
    /// The model, e.g. `LYWSD03MMC`.
    public let model: String
    /// What kind of device it is (`Temperature/Humidity Sensor`), when known.
    public let kind: String?

    /// Creates a model.
    public init(manufacturer: String, model: String, kind: String? = nil) {
        self.manufacturer = manufacturer
        self.model = model
        self.kind = kind
    }
}
