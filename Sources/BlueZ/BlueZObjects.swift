public import DBus

/// What changed in the object cache after one D-Bus message.
public enum BlueZChange: Sendable, Hashable {
    case adapter(String)
    case adapterRemoved(String)
    /// A device appeared or changed: the device as this message left it (a later message may already have
    /// changed the cache by the time the change is handled, and an advert must be read as it came), and the
    /// properties the message carried; with the service data of adverts it was folded over, oldest first, to be
    /// decoded before the device's own.
    case device(BlueZDevice, properties: BlueZDevice.Properties, earlier: [EarlierAdvert] = [])
    case deviceRemoved(String)
    case gatt(String)
    case gattRemoved(String)
}

/// BlueZ's objects as the bridge knows them: built from `GetManagedObjects`, kept current from
/// `InterfacesAdded`, `InterfacesRemoved` and `PropertiesChanged`. Pure: messages in, changes out.
public struct BlueZObjects: Sendable, Equatable {
    public private(set) var adapters: [String: BlueZAdapter] = [:]
    public private(set) var devices: [String: BlueZDevice] = [:]
    public private(set) var services: [String: BlueZService] = [:]
    public private(set) var characteristics: [String: BlueZCharacteristic] = [:]

    /// An empty cache.
    public init() {}

    /// Replaces everything with a `GetManagedObjects` reply (`a{oa{sa{sv}}}`).
    public mutating func load(_ reply: DBusValue) -> [BlueZChange] {
        self = BlueZObjects()
        var changes: [BlueZChange] = []
        for entry in reply.entries ?? [] {
            guard let path = entry.key.objectPath ?? entry.key.string else { continue }
            changes += interfacesAdded(path, entry.value)
        }
        return changes
    }

    /// `InterfacesAdded(o, a{sa{sv}})`.
    public mutating func interfacesAdded(_ path: String, _ interfaces: DBusValue) -> [BlueZChange] {
        (interfaces.dictionary ?? [:]).compactMap { interface, value in
            apply(path, interface, value.dictionary ?? [:], invalidated: [], create: true)
        }
    }

    /// `InterfacesRemoved(o, as)`; a removed adapter or device takes everything under it along.
    public mutating func interfacesRemoved(_ path: String, _ interfaces: [String]) -> [BlueZChange] {
        var changes: [BlueZChange] = []
        for interface in interfaces {
            switch interface {
            case BlueZInterface.adapter where adapters.removeValue(forKey: path) != nil:
                changes.append(.adapterRemoved(path))
                changes += removeBelow(path)
            case BlueZInterface.device where devices.removeValue(forKey: path) != nil:
                changes.append(.deviceRemoved(path))
                changes += removeBelow(path)
            case BlueZInterface.service where services.removeValue(forKey: path) != nil:
                changes.append(.gattRemoved(path))
            case BlueZInterface.characteristic where characteristics.removeValue(forKey: path) != nil:
                changes.append(.gattRemoved(path))
            default:
                continue
            }
        }
        return changes
    }

    /// `PropertiesChanged(s, a{sv}, as)` from the object at `path`; unknown objects are ignored.
    public mutating func propertiesChanged(
        _ path: String, interface: String, changed: DBusValue, invalidated: [String]
    ) -> [BlueZChange] {
        propertiesChanged(path, interface: interface, properties: changed.dictionary ?? [:], invalidated: invalidated)
    }

    /// The same, with the changed properties already read (variants unwrapped).
    public mutating func propertiesChanged(
        _ path: String, interface: String, properties: [String: DBusValue], invalidated: [String]
    ) -> [BlueZChange] {
        apply(path, interface, properties, invalidated: invalidated, create: false).map { [$0] } ?? []
    }

    /// A change of the device at `path` (with `create`, added first); nil for a device it does not know.
    mutating func deviceChanged(_ path: String, _ change: DeviceChange, create: Bool = false) -> BlueZChange? {
        Self.update(&devices, path, create, { BlueZDevice(path: $0) }) { $0.update(change) }
            .map { .device($0.record, properties: $0.result, earlier: change.earlier) }
    }

    /// Updates (or with `create`, adds) the record of one interface at `path`; nil if nothing changed.
    private mutating func apply(
        _ path: String, _ interface: String, _ properties: [String: DBusValue], invalidated: [String], create: Bool
    ) -> BlueZChange? {
        switch interface {
        case BlueZInterface.adapter:
            Self.update(&adapters, path, create, { BlueZAdapter(path: $0) }) { $0.update(properties) }.map { _ in .adapter(path) }
        case BlueZInterface.device:
            deviceChanged(path, DeviceChange(properties, invalidated: invalidated), create: create)
        case BlueZInterface.service:
            Self.update(&services, path, create, { BlueZService(path: $0) }) { $0.update(properties) }.map { _ in .gatt(path) }
        case BlueZInterface.characteristic:
            Self.update(&characteristics, path, create, { BlueZCharacteristic(path: $0) }) { $0.update(properties) }
                .map { _ in .gatt(path) }
        default:
            nil
        }
    }

    /// Changes the record at `path` where it is stored (the path is hashed once, the record not copied), or
    /// with `create` adds it first; the record as left and what `change` returned, nil for an unknown path.
    private static func update<Record, Result>(
        _ table: inout [String: Record], _ path: String, _ create: Bool, _ make: (String) -> Record,
        _ change: (inout Record) -> Result
    ) -> (record: Record, result: Result)? {
        var index = table.index(forKey: path)
        if index == nil, create {
            table[path] = make(path)
            index = table.index(forKey: path)
        }
        guard let index else { return nil }
        let result = change(&table.values[index])
        return (table.values[index], result)
    }

    /// The GATT services of a device, with their characteristics, in path order.
    public func gattTree(of device: String) -> [(service: BlueZService, characteristics: [BlueZCharacteristic])] {
        services.values.filter { $0.device == device }.sorted { $0.path < $1.path }.map { service in
            (service, characteristics.values.filter { $0.service == service.path }.sorted { $0.path < $1.path })
        }
    }

    private mutating func removeBelow(_ path: String) -> [BlueZChange] {
        let prefix = path + "/"
        var changes: [BlueZChange] = []
        for key in devices.keys where key.hasPrefix(prefix) {
            devices[key] = nil
            changes.append(.deviceRemoved(key))
        }
        for key in services.keys where key.hasPrefix(prefix) {
            services[key] = nil
            changes.append(.gattRemoved(key))
        }
        for key in characteristics.keys where key.hasPrefix(prefix) {
            characteristics[key] = nil
            changes.append(.gattRemoved(key))
        }
        return changes
    }
}
