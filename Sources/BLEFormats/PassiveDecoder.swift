public import BLEModels
public import Support

/// The advert formats `ble.passive` can name: each one that is enabled makes a device that sends it appear.
public enum PassiveFormat: String, Sendable, Hashable, CaseIterable {
    /// BTHome v2 (`FCD2` service data).
    case bthome
    /// atc1441 custom firmware (13 bytes of `181A` service data).
    case atc
    /// pvvx custom firmware (15 bytes of `181A` service data).
    case pvvx
    /// iBeacon (Apple manufacturer data of type `02 15`).
    case ibeacon
    /// Eddystone UID, URL, TLM and EID (`FEAA` service data).
    case eddystone

    /// The formats enabled when `ble.passive` is not given.
    public static let defaults: [PassiveFormat] = [.bthome, .atc, .pvvx]
}

/// The payload of one advert as BlueZ reports it: service data by UUID and manufacturer data by company id,
/// each without its AD header.
public struct Advert: Sendable, Hashable {
    /// The sender's address, to check formats that repeat it inside the payload.
    public var sender: BluetoothAddress?
    /// The advert's RSSI, for distance estimates.
    public var rssi: Int?
    /// `ManufacturerData`, by company id.
    public var manufacturerData: [UInt16: [UInt8]]
    /// `ServiceData`, by UUID.
    public var serviceData: [BLEUUID: [UInt8]]

    /// Creates an advert.
    public init(
        sender: BluetoothAddress? = nil, rssi: Int? = nil, manufacturerData: [UInt16: [UInt8]] = [:],
        serviceData: [BLEUUID: [UInt8]] = [:]
    ) {
        self.sender = sender
        self.rssi = rssi
        self.manufacturerData = manufacturerData
        self.serviceData = serviceData
    }

    /// Creates an advert from BlueZ's `ServiceData`, keyed by UUID text; keys that are not UUIDs are dropped.
    public init(
        sender: BluetoothAddress? = nil, rssi: Int? = nil, manufacturerData: [UInt16: [UInt8]] = [:],
        serviceData: [String: [UInt8]]
    ) {
        var parsed: [BLEUUID: [UInt8]] = [:]
        for (key, bytes) in serviceData {
            if let uuid = try? BLEUUID(key) { parsed[uuid] = bytes }
        }
        self.init(sender: sender, rssi: rssi, manufacturerData: manufacturerData, serviceData: parsed)
    }
}

/// What one enabled format made of an advert.
public struct PassiveResult: Sendable, Hashable {
    /// The format.
    public let format: PassiveFormat
    /// Its values, `encrypted`, or why the payload is undecodable.
    public let decoded: Decoded

    /// Creates a result.
    public init(_ format: PassiveFormat, _ decoded: Decoded) {
        self.format = format
        self.decoded = decoded
    }

    /// Whether the advert is this format (decoded or encrypted): the device is a sensor of this kind.
    public var isRecognised: Bool {
        if case .undecodable = decoded { return false }
        return true
    }
}

/// Runs the enabled formats' decoders over an advert.
public enum PassiveDecoder {
    /// One result per enabled format whose payload the advert carries, in the order of `PassiveFormat`. An
    /// advert without any such payload (a phone, or Apple continuity data when only iBeacons are enabled)
    /// gives no result at all.
    public static func decode(_ advert: Advert, formats: Set<PassiveFormat>) -> [PassiveResult] {
        var results: [PassiveResult] = []
        if formats.contains(.bthome), let payload = advert.serviceData[BTHome.service] {
            results.append(PassiveResult(.bthome, BTHome.decode(payload)))
        }
        if let payload = advert.serviceData[XiaomiCustom.service] {
            let format = XiaomiCustom.format(ofLength: payload.count)
            if formats.contains(format) {
                let decoded =
                    format == .atc
                    ? XiaomiCustom.decodeATC(payload, sender: advert.sender)
                    : XiaomiCustom.decodePVVX(payload, sender: advert.sender)
                results.append(PassiveResult(format, decoded))
            }
        }
        if formats.contains(.ibeacon), let payload = advert.manufacturerData[IBeacon.company],
            let decoded = IBeacon.decode(payload, rssi: advert.rssi)
        {
            results.append(PassiveResult(.ibeacon, decoded))
        }
        if formats.contains(.eddystone), let payload = advert.serviceData[Eddystone.service] {
            results.append(PassiveResult(.eddystone, Eddystone.decode(payload)))
        }
        return results
    }
}
