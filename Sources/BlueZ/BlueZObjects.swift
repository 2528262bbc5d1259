public import DBus

/// What changed in the object cache after one D-Bus message.
public enum BlueZChange: Sendable, Hashable {
    case adapter(String)
    case adapterRemoved(String)
    /// A device appeared or changed; `properties` names what the message carried.
    case device(String, properties: Set<String>)
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
        var changes: [BlueZChange] = []
        for (interface, value) in interfaces.dictionary ?? [:] {
            let properties = value.dictionary ?? [:]
            switch interface {
            case BlueZInterface.adapter:
                var adapter = adapters[path] ?? BlueZAdapter(path: path)
                adapter.update(properties)
                adapters[path] = adapter
                changes.append(.adapter(path))
            case BlueZInterface.device:
                var device = devices[path] ?? BlueZDevice(path: path)
                device.update(properties)
                devices[path] = device
                changes.append(.device(path, properties: Set(properties.keys)))
            case BlueZInterface.service:
                var service = services[path] ?? BlueZService(path: path)
                service.update(properties)
                services[path] = service
                changes.append(.gatt(path))
            case BlueZInterface.characteristic:
                var characteristic = characteristics[path] ?? BlueZCharacteristic(path: path)
                characteristic.update(properties)
                characteristics[path] = characteristic
                changes.append(.gatt(path))
            default:
                continue
            }
        }
        return changes
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
        let properties = changed.dictionary ?? [:]
        switch interface {
        case BlueZInterface.adapter:
            guard var adapter = adapters[path] else { return [] }
            adapter.update(properties)
            adapters[path] = adapter
            return [.adapter(path)]
        case BlueZInterface.device:
            guard var device = devices[path] else { return [] }
            device.update(properties)
            for name in invalidated { device.invalidate(name) }
            devices[path] = device
            return [.device(path, properties: Set(properties.keys).union(invalidated))]
        case BlueZInterface.service:
            guard var service = services[path] else { return [] }
            service.update(properties)
            services[path] = service
            return [.gatt(path)]
        case BlueZInterface.characteristic:
            guard var characteristic = characteristics[path] else { return [] }
            characteristic.update(properties)
            characteristics[path] = characteristic
            return [.gatt(path)]
        default:
            return []
        }
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
