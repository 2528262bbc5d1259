import BLEFormats
import BLEModels
import BridgeCore
import BlueZ
import DBus

/// Standard profiles on connect: battery, heart rate, temperature and humidity are read and subscribed to and
/// decoded into the state; Device Information fills the descriptor (so Home Assistant's device page shows it).
extension BLEDriver {
    /// Reads every standard characteristic the device has and turns notifications on where it offers them.
    func readProfiles(_ path: String, _ characteristics: [BlueZCharacteristic]) async {
        guard let client else { return }
        for characteristic in characteristics {
            guard let uuid = characteristic.uuid, StandardCharacteristic.isKnown(uuid) else { continue }
            let flags = CharacteristicFlags(bluez: characteristic.flags)
            do throws(DBusError) {
                if flags.canRead {
                    let reply = try await client.call(
                        characteristic.path, BlueZInterface.characteristic, "ReadValue", [.vardict([:])], timeout: .seconds(10))
                    if let bytes = reply.first?.bytes { profileValue(uuid, bytes, path: path) }
                }
                if flags.canNotify, !characteristic.notifying {
                    _ = try await client.call(characteristic.path, BlueZInterface.characteristic, "StartNotify")
                }
            } catch {
                logger.info(
                    "Standard characteristic not read", metadata: ["device.path": "\(path)", "characteristic": "\(uuid)", "error": "\(error)"])
            }
        }
    }

    /// A notification of a standard characteristic; true when it was one (and went into the state).
    func profileNotified(_ characteristic: BlueZCharacteristic, device: DeviceID) -> Bool {
        guard let uuid = characteristic.uuid, StandardCharacteristic.isKnown(uuid),
            let path = tracked.first(where: { $0.value.id == device })?.key
        else { return false }
        profileValue(uuid, characteristic.value, path: path)
        return true
    }

    /// Decodes a standard value: Device Information into the descriptor, everything else into the state.
    private func profileValue(_ uuid: BLEUUID, _ bytes: [UInt8], path: String) {
        guard var entry = tracked[path], let decoded = StandardCharacteristic.decode(uuid, bytes) else { return }
        guard let reading = decoded.reading else {
            logger.debug("Undecodable characteristic value", metadata: ["device.id": "\(entry.id)", "characteristic": "\(uuid)"])
            return
        }
        if let info = StandardCharacteristic.deviceInformation.first(where: { $0.uuid == uuid }) {
            for case .text(let text) in reading.measurements.map(\.value) { entry.information[info.quantity.key] = text }
            tracked[path] = entry
            describeDevice(path)
            return
        }
        let learned = entry.learn(reading.measurements)
        let measurements = entry.known(reading.measurements)
        let due = entry.throttle.offer(measurements, now: now) != nil
        tracked[path] = entry
        if learned { describeDevice(path) }
        guard due else { return }
        var state: [String: JSONValue] = [:]
        for measurement in measurements { state[measurement.key] = measurement.value.json }
        send(.state(entry.id, state))
    }
}
