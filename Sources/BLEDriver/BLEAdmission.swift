import BLEFormats
import BLEModels
import BridgeCore
import BlueZ
import Support

/// Which devices BlueZ reports become MQTT devices, and the bound on those that come in by their adverts alone.
extension BLEDriver {
    /// Whether a device BlueZ reports appears: a rule, the config, the remembered set, the permit window or, through
    /// `PassiveAdmission`'s bucket and ceiling, a passive format of `ble.passive` admits it; anything else is only
    /// counted.
    func admit(_ device: BlueZDevice, _ address: BluetoothAddress, passive: PassiveFormat?) -> Bool {
        let id = address.deviceID
        let view = KnownDevice(
            address: address, name: device.name, services: Set(device.services), status: .available,
            remembered: remembered.contains(id))
        let clock = ContinuousClock.now
        let reason = DeviceAdmission.reason(
            for: view, rules: settings.rules, configured: configured, permitting: admission.permitting(at: clock))
        var counted = false
        if reason == nil, passive != nil {
            switch admission.admit(at: clock) {
            case .admitted: counted = true
            case .refused(let notice): if let notice { reportRefusals(notice, address) }
            }
        }
        guard reason != nil || counted else {
            ignored.record(address, now: now)
            let rssi = device.rssi.flatMap { $0 == Signal.unavailableRSSI ? nil : $0 }
            nearby.record(address, name: device.name, rssi: rssi, now: now)
            return false
        }
        ignored.remove(address)
        nearby.remove(address)
        var entry = TrackedDevice(id: id, address: address, settings: figures)
        entry.passive = passive
        if let passive { entry.formats.insert(passive) }
        entry.countedPassive = counted
        tracked[device.path] = entry
        return true
    }

    /// Says, in the log and on `bridge/event`, that new passive sensors are being refused; `PassiveAdmission`
    /// decides how seldom.
    private func reportRefusals(_ notice: PassiveAdmission.Notice, _ address: BluetoothAddress) {
        let why =
            switch notice.refusal {
            case .rate: "more new passive sensors than ble.passive_burst and ble.passive_per_minute allow"
            case .limit: "ble.max_passive_devices (\(admission.maxDevices)) passive sensors admitted already"
            }
        let message = "new passive sensors are refused: \(why); a permit window (ble/permit) still admits them"
        logger.warning("BLE admission refused", metadata: ["refused": "\(notice.refused)", "address": "\(address)", "reason": "\(why)"])
        send(
            .occurred(
                address.deviceID,
                DeviceOccurrence(
                    .admissionRefused,
                    [
                        "integration": "ble", "reason": .string(notice.refusal.rawValue),
                        "refused": .number(Double(notice.refused)), "error": .string(message),
                    ])))
    }
}
