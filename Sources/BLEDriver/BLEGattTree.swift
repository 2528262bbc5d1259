import BLEModels
import BridgeCore
import BlueZ
import DBus

/// The GATT tree of connected devices in `bridge/devices`, and notified values in their state.
extension BLEDriver {
    /// Once a device is connected and its services are resolved: lists its GATT tree (a `device_interview`
    /// event when it is new or changed) and turns the user's notifications on again.
    func interview(_ path: String) async {
        guard let client, var entry = tracked[path] else { return }
        let tree = await client.objects.gattTree(of: path)
        let listing = Self.listing(tree)
        if !tree.isEmpty, entry.gatt != listing {
            entry.gatt = listing
            tracked[path] = entry
            if let descriptor = entry.descriptor {
                let updated = entry.withGatt(descriptor)
                tracked[path]?.descriptor = updated
                sink.send(.discovered(updated))
            }
            sink.send(.occurred(entry.id, DeviceOccurrence(.interviewed, ["status": "successful", "services": listing])))
        }
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

    /// A characteristic changed: a new value of one the user subscribed to goes into the device's state.
    func gattNotified(_ characteristic: BlueZCharacteristic, device: DeviceID) {
        guard gattSubscriptions[device]?.contains(characteristic.path) == true, !characteristic.value.isEmpty,
            let uuid = characteristic.uuid?.description
        else { return }
        let hex = JSONValue.string(Hex.string(characteristic.value))
        guard gattValues[device]?[uuid] != hex else { return }
        gattValues[device, default: [:]][uuid] = hex
        sink.send(.state(device, ["gatt": .object(gattValues[device] ?? [:])]))
    }

    /// Services and their characteristics as `bridge/devices` shows them.
    static func listing(_ tree: [(service: BlueZService, characteristics: [BlueZCharacteristic])]) -> JSONValue {
        .array(
            tree.map { service, characteristics in
                [
                    "uuid": .string(service.uuid?.description ?? ""),
                    "characteristics": .array(
                        characteristics.map { characteristic in
                            [
                                "uuid": .string(characteristic.uuid?.description ?? ""),
                                "flags": .array(characteristic.flags.map { .string($0) }),
                            ]
                        }),
                ]
            })
    }
}
