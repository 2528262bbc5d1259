import BLEFormats
import BLEModels
import BridgeCore
import BlueZ

/// Passive sensors: values decoded from adverts (BTHome, atc1441, pvvx, iBeacon, Eddystone) without a connection.
extension BLEDriver {
    /// The formats `ble.passive` enables.
    var passiveFormats: Set<PassiveFormat> { Set(settings.passive) }

    /// The throttle intervals of the settings, in seconds.
    var figures: BLESettingsFigures {
        BLESettingsFigures(
            stateInterval: Double(settings.stateInterval.milliseconds) / 1000,
            rssiInterval: Double(settings.rssiInterval.milliseconds) / 1000)
    }

    /// The advert data BlueZ holds for a device.
    func advert(of device: BlueZDevice) -> Advert {
        Advert(
            sender: device.address, rssi: device.rssi, manufacturerData: device.manufacturerData,
            serviceData: device.serviceData)
    }

    /// The new values of an advert: repeats (by packet id) dropped, encrypted payloads only noted, undecodable
    /// ones logged at debug level. An encrypted advert never changes values already known. Buttons and dimmers
    /// that carried no event are learnt into the entry, so their entities exist before the first press.
    func ingest(_ results: [PassiveResult], into entry: inout TrackedDevice) -> [Measurement] {
        var measurements: [Measurement] = []
        for result in results {
            switch result.decoded {
            case .encrypted:
                entry.encrypted = true
                entry.passive = entry.passive ?? result.format
            case .undecodable(let failure):
                logger.debug(
                    "Undecodable advert", metadata: ["device.id": "\(entry.id)", "format": "\(result.format)", "reason": "\(failure)"])
            case .reading(let reading):
                entry.passive = entry.passive ?? result.format
                if let id = reading.packetID {
                    var filter = entry.packets[result.format] ?? PacketFilter()
                    let fresh = filter.accept(id, now: now)
                    entry.packets[result.format] = filter
                    guard fresh else { continue }
                }
                measurements += reading.measurements
                _ = entry.learn(quantities: reading.quiet)
            }
        }
        return measurements
    }
}
