public import BLEModels
public import DBus

/// One change of an `org.bluez.Device1`'s properties, with the advert properties typed: read straight off the
/// bus on the D-Bus thread (no `DBusValue` tree for the hot signal), merged per device in the mailbox, and
/// applied to the cached `BlueZDevice`. Whatever else it carries stays as it came, in `other`.
public struct DeviceChange: Sendable, Equatable {
    /// The typed properties it names (a mistyped value is named but has no value, and is skipped).
    public var named: BlueZDevice.Properties = []
    public var rssi: Int16?
    public var manufacturerData: [UInt16: [UInt8]]?
    /// Service data by UUID; a key that is not a UUID is left out.
    public var serviceData: ServiceData?
    /// Every other property, without its variant layer.
    public var other: [String: DBusValue] = [:]
    /// Properties BlueZ no longer has a value for (RSSI once out of range).
    public var invalidated: Set<String> = []
    /// The service data of the adverts this change was folded over while they waited, oldest first: each is
    /// decoded as it came (a packet id, a button press) before this change's own, though the record is
    /// updated once.
    public var earlier: [EarlierAdvert] = []

    /// The properties read into their typed fields.
    static let typed: BlueZDevice.Properties = [.rssi, .manufacturerData, .serviceData]

    /// Creates an empty change.
    public init() {}

    /// The change a generic property dictionary describes (`GetManagedObjects`, `InterfacesAdded`, a
    /// `PropertiesChanged` read into values).
    public init(_ properties: [String: DBusValue], invalidated: some Sequence<String> = []) {
        for (key, value) in properties {
            switch BlueZDevice.Properties(name: key) {
            case .rssi: setRSSI(value.int16)
            case .manufacturerData: setManufacturerData(value.entries.map(Self.manufacturers))
            case .serviceData: setServiceData(value.entries.map(Self.services))
            default: other[key] = value.unwrapped
            }
        }
        self.invalidated = Set(invalidated)
    }

    /// Reads `a{sv}` then `as` (the changed and invalidated arguments of `PropertiesChanged`) off the bus.
    init?(reading body: inout DBusBodyReader) {
        var valid = true
        let isDictionary = body.forEachEntry { key, value in
            guard let name = key.readString() else {
                valid = false
                return
            }
            switch BlueZDevice.Properties(name: name) {
            case .rssi: setRSSI(value.readInt16())
            case .manufacturerData: setManufacturerData(Self.readEntries(&value) { $0.readUInt16() })
            case .serviceData: setServiceData(Self.readServiceData(&value))
            default: other[name] = value.readValue()
            }
        }
        guard isDictionary, valid else { return nil }
        _ = body.forEachElement { element in
            if let name = element.readString() { invalidated.insert(name) }
        }
    }

    /// A service data key: BlueZ's dashed form read without a `String`, any other form parsed as text.
    static func uuid(_ bytes: UnsafeBufferPointer<UInt8>) -> BLEUUID? {
        BLEUUID(dashed: bytes) ?? (try? BLEUUID(String(decoding: bytes, as: UTF8.self)))
    }

    /// Whether it carries an advert payload, which is decoded as it came and never merged with another.
    public var carriesAdvert: Bool {
        !named.isDisjoint(with: [.manufacturerData, .serviceData]) || other["AdvertisingData"] != nil
    }

    /// Whether this change's advert payload may replace `earlier`'s while both wait: both carry service data
    /// and nothing else of an advert's payload, under the same UUIDs, each of them one whose payloads hold
    /// nothing but state (`services`), so the newer says all the older did.
    public func supersedes(_ earlier: DeviceChange, under services: Set<BLEUUID>) -> Bool {
        guard let data = serviceData, let before = earlier.serviceData, data.count == before.count,
            !named.contains(.manufacturerData), !earlier.named.contains(.manufacturerData),
            other["AdvertisingData"] == nil, earlier.other["AdvertisingData"] == nil
        else { return false }
        return data.allSatisfy { services.contains($0.key) && before[$0.key] != nil }
    }

    /// Whether this change's advert may be folded over `earlier`'s, the older payload kept in `earlier`: both
    /// carry service data and no other advert payload. Manufacturer data is not folded: which company id
    /// changed last depends on the record as each advert left it.
    public func folds(onto earlier: DeviceChange) -> Bool {
        serviceData != nil && earlier.serviceData != nil && !named.contains(.manufacturerData)
            && !earlier.named.contains(.manufacturerData) && other["AdvertisingData"] == nil
            && earlier.other["AdvertisingData"] == nil
    }

    /// Puts a later advert on top (see `folds(onto:)`), keeping this one's service data and RSSI in `earlier`.
    public mutating func fold(_ later: DeviceChange) {
        if let serviceData { earlier.append(EarlierAdvert(serviceData: serviceData, rssi: rssi)) }
        merge(later)
    }

    /// Puts a later change on top: its values win, and what it invalidates loses the value held here.
    public mutating func merge(_ later: DeviceChange) {
        earlier += later.earlier
        if later.named.contains(.rssi) { setRSSI(later.rssi) }
        if later.named.contains(.manufacturerData) { setManufacturerData(later.manufacturerData) }
        if later.named.contains(.serviceData) { setServiceData(later.serviceData) }
        other.merge(later.other) { $1 }
        invalidated.subtract(later.other.keys)
        for name in later.invalidated {
            let property = BlueZDevice.Properties(name: name)
            switch property {
            case .rssi: rssi = nil
            case .manufacturerData: manufacturerData = nil
            case .serviceData: serviceData = nil
            default: other[name] = nil
            }
            named.subtract(property.intersection(Self.typed))
            invalidated.insert(name)
        }
    }

    mutating func setRSSI(_ value: Int16?) {
        named.insert(.rssi)
        rssi = value
        forget("RSSI")
    }

    mutating func setManufacturerData(_ value: [UInt16: [UInt8]]?) {
        named.insert(.manufacturerData)
        manufacturerData = value
        forget("ManufacturerData")
    }

    mutating func setServiceData(_ value: ServiceData?) {
        named.insert(.serviceData)
        serviceData = value
        forget("ServiceData")
    }

    /// Takes a property out of `invalidated`. Looked at first: nearly every change invalidates nothing, and
    /// removing from an empty set still hashes the name (for each advert property of a signal, on the D-Bus thread).
    private mutating func forget(_ name: String) {
        if !invalidated.isEmpty { invalidated.remove(name) }
    }

    private static func manufacturers(_ entries: [DBusDictEntry]) -> [UInt16: [UInt8]] {
        var data: [UInt16: [UInt8]] = [:]
        for entry in entries {
            if let key = entry.key.uint16, let bytes = entry.value.bytes { data[key] = bytes }
        }
        return data
    }

    private static func services(_ entries: [DBusDictEntry]) -> ServiceData {
        var data = ServiceData()
        for entry in entries {
            if let key = entry.key.string.flatMap({ try? BLEUUID($0) }), let bytes = entry.value.bytes { data[key] = bytes }
        }
        return data
    }

    /// `ServiceData` (`a{sv}` of byte blocks), entries of another shape skipped; nil if not a dictionary.
    private static func readServiceData(_ value: inout DBusBodyReader) -> ServiceData? {
        var data = ServiceData()
        let isDictionary = value.forEachEntry { key, value in
            if let uuid = key.readUTF8(Self.uuid), let bytes = value.readBytes() { data[uuid] = bytes }
        }
        return isDictionary ? data : nil
    }

    /// A dictionary of byte blocks (`a{qv}`), entries of another shape skipped; nil if not a dictionary.
    private static func readEntries<Key: Hashable>(
        _ value: inout DBusBodyReader, key readKey: (inout DBusBodyReader) -> Key?
    ) -> [Key: [UInt8]]? {
        var data: [Key: [UInt8]] = [:]
        let isDictionary = value.forEachEntry { key, value in
            if let key = readKey(&key), let bytes = value.readBytes() { data[key] = bytes }
        }
        return isDictionary ? data : nil
    }
}

/// The service data of an advert that a later one of the same device was folded over while both waited, and the
/// RSSI it came with.
public struct EarlierAdvert: Sendable, Hashable {
    public var serviceData: ServiceData
    public var rssi: Int16?

    /// Creates an earlier advert.
    public init(serviceData: ServiceData, rssi: Int16?) {
        self.serviceData = serviceData
        self.rssi = rssi
    }
}
