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
    /// Xiaomi MiBeacon (`FE95` service data), plain or with a bindkey.
    case xiaomi
    /// SwitchBot meters, contact, motion and leak sensors (`FD3D` service data, `0969` manufacturer data).
    case switchbot
    /// Govee thermo-hygrometers (manufacturer data `EC88`, `0001`, `8801`).
    case govee
    /// Oral-B toothbrushes (manufacturer data `00DC`).
    case oralb
    /// ThermoPro hygrometers (local name `TP35…`, `TP39…`; data in the company id).
    case thermopro
    /// Inkbird IBS-TH and IBS-TH2 (local name `sps`, `tps`; data in the company id).
    case inkbird
    /// RuuviTag data formats 5 and 3 (manufacturer data `0499`).
    case ruuvi
    /// iBeacon (Apple manufacturer data of type `02 15`).
    case ibeacon
    /// Eddystone UID, URL, TLM and EID (`FEAA` service data).
    case eddystone
    /// A layout described in `ble.formats`: on whenever one is described, never named in `ble.passive`.
    case user

    /// Whether a reading of this format holds values derived from the advert's RSSI (iBeacon's estimated
    /// distance): its data are decoded again with each new RSSI, also when BlueZ reports the RSSI alone.
    public var derivesFromRSSI: Bool { self == .ibeacon }

    /// The formats enabled when `ble.passive` is not given: every sensor format; beacons only when asked for.
    public static let defaults: [PassiveFormat] = allCases.filter { ![.ibeacon, .eddystone, .user].contains($0) }

    /// Hashes the format's bit, not its name: tables keyed by format are looked up for every advert.
    public func hash(into hasher: inout Hasher) { hasher.combine(PassiveFormats.bit(self)) }
}

/// Enabled passive formats as bits: every advert is checked against up to a dozen of them, and a
/// `Set<PassiveFormat>` hashes the format's name for each check.
public struct PassiveFormats: Sendable, Hashable, ExpressibleByArrayLiteral {
    private var bits: UInt32

    /// The set of the given formats.
    public init(_ formats: some Sequence<PassiveFormat>) { bits = formats.reduce(0) { $0 | Self.bit($1) } }

    /// The set of the formats listed.
    public init(arrayLiteral formats: PassiveFormat...) { self.init(formats) }

    /// Whether the format is enabled.
    public func contains(_ format: PassiveFormat) -> Bool { bits & Self.bit(format) != 0 }

    /// Whether no format is in the set.
    public var isEmpty: Bool { bits == 0 }

    /// Adds a format to the set.
    public mutating func insert(_ format: PassiveFormat) { bits |= Self.bit(format) }

    /// The format's bit.
    static func bit(_ format: PassiveFormat) -> UInt32 {
        switch format {
        case .bthome: 1 << 0
        case .atc: 1 << 1
        case .pvvx: 1 << 2
        case .xiaomi: 1 << 3
        case .switchbot: 1 << 4
        case .govee: 1 << 5
        case .oralb: 1 << 6
        case .thermopro: 1 << 7
        case .inkbird: 1 << 8
        case .ruuvi: 1 << 9
        case .ibeacon: 1 << 10
        case .eddystone: 1 << 11
        case .user: 1 << 12
        }
    }
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
    public var serviceData: ServiceData
    /// The local name, which some formats are recognised by (ThermoPro, Inkbird, Govee).
    public var name: String?
    /// The company id whose data changed last, when known: BlueZ's `ManufacturerData` keeps every id it has
    /// seen, and formats that carry data in the id need the newest.
    public var latestManufacturer: UInt16?

    /// Creates an advert.
    public init(
        sender: BluetoothAddress? = nil, rssi: Int? = nil, manufacturerData: [UInt16: [UInt8]] = [:],
        serviceData: ServiceData = [:], name: String? = nil, latestManufacturer: UInt16? = nil
    ) {
        self.sender = sender
        self.rssi = rssi
        self.manufacturerData = manufacturerData
        self.serviceData = serviceData
        self.name = name
        self.latestManufacturer = latestManufacturer
    }

    /// Creates an advert from BlueZ's `ServiceData`, keyed by UUID text; keys that are not UUIDs are dropped.
    public init(
        sender: BluetoothAddress? = nil, rssi: Int? = nil, manufacturerData: [UInt16: [UInt8]] = [:],
        serviceData: [String: [UInt8]], name: String? = nil, latestManufacturer: UInt16? = nil
    ) {
        var parsed = ServiceData()
        for (key, bytes) in serviceData.sorted(by: { $0.key < $1.key }) {
            if let uuid = try? BLEUUID(key) { parsed[uuid] = bytes }
        }
        self.init(
            sender: sender, rssi: rssi, manufacturerData: manufacturerData, serviceData: parsed, name: name,
            latestManufacturer: latestManufacturer)
    }

    /// The current reading of a format whose company id carries data: the id that changed last, or the only one.
    public var currentCompanyData: (company: UInt16, data: [UInt8])? {
        if let latestManufacturer, let data = manufacturerData[latestManufacturer] { return (latestManufacturer, data) }
        guard manufacturerData.count == 1, let only = manufacturerData.first else { return nil }
        return (only.key, only.value)
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
    /// Service data UUIDs whose payloads, in every format that reads them (atc, pvvx, a `ble.formats` layout),
    /// hold only state, no event and no packet id: of two waiting, the newer says all the older did. Any other
    /// payload is decoded as it came.
    public static let stateOnlyServices: Set<BLEUUID> = [XiaomiCustom.service]

    /// One result per enabled format whose payload the advert carries, in the order of `PassiveFormat`. An
    /// advert without any such payload (a phone, or Apple continuity data when only iBeacons are enabled)
    /// gives no result at all. `key` is the sender's bindkey, for encrypted BTHome and MiBeacon adverts; `user`
    /// are the layouts of `ble.formats`, of which the first that matches is read.
    public static func decode(
        _ advert: Advert, formats: PassiveFormats, key: BindKey? = nil, user: [UserFormat] = []
    ) -> [PassiveResult] {
        var results: [PassiveResult] = []
        decode(advert, formats: formats, key: key, user: user, into: &results)
        return results
    }

    /// `decode(_:formats:key:user:)`, appending to `results`: the adverts of a device that waited together are
    /// decoded into one list, with no list of their own to copy over.
    public static func decode(
        _ advert: Advert, formats: PassiveFormats, key: BindKey?, user: [UserFormat], into results: inout [PassiveResult]
    ) {
        if formats.contains(.bthome), let payload = advert.serviceData[BTHome.service] {
            results.append(PassiveResult(.bthome, BTHome.decode(payload, sender: advert.sender, key: key)))
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
        vendors(advert, formats: formats, key: key, into: &results)
        if formats.contains(.ibeacon), let payload = advert.manufacturerData[IBeacon.company],
            let decoded = IBeacon.decode(payload, rssi: advert.rssi)
        {
            results.append(PassiveResult(.ibeacon, decoded))
        }
        if formats.contains(.eddystone), let payload = advert.serviceData[Eddystone.service] {
            results.append(PassiveResult(.eddystone, Eddystone.decode(payload)))
        }
        for format in user {
            guard let payload = format.payload(in: advert) else { continue }
            results.append(PassiveResult(.user, format.decode(payload)))
            break
        }
    }

    /// Appends the vendor formats' results, in the order of `PassiveFormat`.
    static func vendors(_ advert: Advert, formats: PassiveFormats, key: BindKey?, into results: inout [PassiveResult]) {
        if formats.contains(.xiaomi), let payload = advert.serviceData[MiBeacon.service] {
            results.append(PassiveResult(.xiaomi, MiBeacon.decode(payload, sender: advert.sender, key: key)))
        }
        if formats.contains(.switchbot),
            let decoded = SwitchBot.decode(
                serviceData: advert.serviceData[SwitchBot.service], manufacturerData: advert.manufacturerData[SwitchBot.company])
        {
            results.append(PassiveResult(.switchbot, decoded))
        }
        // The rest read manufacturer data only, which service-data sensors never send: no lookups for them.
        guard !advert.manufacturerData.isEmpty else { return }
        if formats.contains(.govee) {
            let govee = [Govee.companyEC88, Govee.company8801, Govee.company0001].lazy.compactMap { company in
                advert.manufacturerData[company].flatMap { Govee.decode(company: company, $0, name: advert.name) }
            }
            if let decoded = govee.first { results.append(PassiveResult(.govee, decoded)) }
        }
        if formats.contains(.oralb), let payload = advert.manufacturerData[OralB.company] {
            results.append(PassiveResult(.oralb, OralB.decode(payload)))
        }
        if formats.contains(.thermopro), let name = advert.name, ThermoPro.matches(name: name),
            let current = advert.currentCompanyData
        {
            results.append(PassiveResult(.thermopro, ThermoPro.decode(company: current.company, current.data, name: name)))
        }
        if formats.contains(.inkbird), let name = advert.name, Inkbird.matches(name: name),
            let current = advert.currentCompanyData
        {
            results.append(PassiveResult(.inkbird, Inkbird.decode(company: current.company, current.data, name: name)))
        }
        if formats.contains(.ruuvi), let payload = advert.manufacturerData[Ruuvi.company] {
            results.append(PassiveResult(.ruuvi, Ruuvi.decode(payload)))
        }
    }
}
