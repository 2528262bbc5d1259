import BLEFormats
import BLEModels
import BridgeCore
import BlueZ
import DBus
import Support

/// The GATT tree of connected devices in `bridge/devices`, and notified values in their state.
extension BLEDriver {
    /// Once a device is connected and its services are resolved: lists its GATT tree (a `device_interview`
    /// event when it is new or changed) and turns the user's notifications on again.
    func interview(_ path: String) async {
        guard let client, var entry = tracked[path] else { return }
        let tree = client.objects.gattTree(of: path)
        let listing = Self.listing(tree)
        if !tree.isEmpty, entry.gatt != listing {
            entry.gatt = listing
            tracked[path] = entry
            describeDevice(path)
            send(.occurred(entry.id, DeviceOccurrence(.interviewed, ["status": "successful", "services": listing])))
        }
        await readProfiles(path, tree.flatMap(\.characteristics))
        let wanted = gattSubscriptions[entry.id] ?? []
        for characteristic in tree.flatMap(\.characteristics) where wanted.contains(characteristic.path) && !characteristic.notifying {
            do throws(DBusError) {
                _ = try await client.call(characteristic.path, BlueZInterface.characteristic, "StartNotify")
            } catch {
                logger.warning(
                    "Could not turn notifications on again", metadata: ["device.id": "\(entry.id)", "error": "\(error)"])
            }
        }
    }

    /// A characteristic changed: a standard one is decoded into the state; a new value of another one the user
    /// subscribed to goes into the state as hex.
    func gattNotified(_ characteristic: BlueZCharacteristic, device: DeviceID) {
        guard !characteristic.value.isEmpty, let uuid = characteristic.uuid?.description else { return }
        if profileNotified(characteristic, device: device) { return }
        guard gattSubscriptions[device]?.contains(characteristic.path) == true else { return }
        let hex = JSONValue.string(Hex.string(characteristic.value))
        guard gattValues[device]?[uuid] != hex else { return }
        gattValues[device, default: [:]][uuid] = hex
        send(.state(device, ["gatt": .object(gattValues[device] ?? [:])]))
    }

    /// A subscription the user turned on or off: a characteristic outside the standard profiles gains or loses
    /// its sensor under `gatt` (the standard ones are sensors of their own already).
    func subscriptionChanged(_ device: DeviceID, _ uuid: BLEUUID, enabled: Bool) {
        guard !StandardCharacteristic.isKnown(uuid), let path = tracked.first(where: { $0.value.id == device })?.key,
            var entry = tracked[path], entry.notified.contains(uuid) != enabled
        else { return }
        if enabled { entry.notified.append(uuid) } else { entry.notified.removeAll { $0 == uuid } }
        tracked[path] = entry
        describeDevice(path)
    }

    /// Services and their characteristics as `bridge/devices` shows them.
    static func listing(_ tree: [(service: BlueZService, characteristics: [BlueZCharacteristic])]) -> JSONValue {
        .array(
            tree.map { service, characteristics in
                var entry: [String: JSONValue] = [
                    "uuid": .string(service.uuid?.description ?? ""),
                    "characteristics": .array(
                        characteristics.map { characteristic in
                            var entry: [String: JSONValue] = [
                                "uuid": .string(characteristic.uuid?.description ?? ""),
                                "flags": .array(characteristic.flags.map { .string($0) }),
                            ]
                            if let name = characteristic.uuid.flatMap(GATTNames.characteristic) { entry["name"] = .string(name) }
                            return .object(entry)
                        }),
                ]
                if let name = service.uuid.flatMap(GATTNames.service) { entry["name"] = .string(name) }
                return .object(entry)
            })
    }
}
