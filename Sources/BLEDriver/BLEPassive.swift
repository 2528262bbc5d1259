import BLEFormats
import BLEModels
import BridgeCore
import BlueZ

/// Passive sensors: values decoded from adverts (BTHome, atc1441, pvvx, MiBeacon, SwitchBot, Govee, Oral-B,
/// ThermoPro, Inkbird, RuuviTag, iBeacon, Eddystone) without a connection.
extension BLEDriver {
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
            serviceData: device.serviceData, name: device.name, latestManufacturer: device.latestManufacturer)
    }

    /// The device's adverts decoded in the order they came: those folded over while they waited (each with its
    /// own service data and RSSI, the rest as the record has it), then the record's own.
    func decode(_ device: BlueZDevice, earlier: [EarlierAdvert], key: BindKey?) -> [PassiveResult] {
        let latest = advert(of: device)
        var results: [PassiveResult] = []
        results.reserveCapacity(earlier.count + 1)
        for payload in earlier {
            var advert = latest
            advert.serviceData = payload.serviceData
            advert.rssi = payload.rssi.map(Int.init) ?? latest.rssi
            PassiveDecoder.decode(advert, formats: passiveFormats, key: key, user: settings.formats, into: &results)
        }
        PassiveDecoder.decode(latest, formats: passiveFormats, key: key, user: settings.formats, into: &results)
        return results
    }

    /// The new values of an advert: repeats (by packet id) and replays (by encryption counter) dropped,
    /// encrypted payloads without a working key only noted (and reported once), undecodable ones logged at debug
    /// level. An encrypted advert never changes values already known. Buttons and dimmers that carried no event
    /// are learnt into the entry, so their entities exist before the first press.
    func ingest(_ results: [PassiveResult], into entry: inout TrackedDevice, at now: Double) -> [Measurement] {
        var measurements: [Measurement] = []
        for result in results {
            guard accepts(result, &entry) else { continue }
            switch result.decoded {
            case .encrypted:
                entry.encrypted = true
                entry.passive = entry.passive ?? result.format
                reportKeyProblem("missing", "encrypted adverts and no bindkey for this device (ble.bindkeys)", result.format, &entry)
            case .wrongKey:
                entry.encrypted = true
                entry.passive = entry.passive ?? result.format
                reportKeyProblem("wrong", "the bindkey given for this device does not decrypt its adverts", result.format, &entry)
            case .undecodable(.downgrade):
                reportKeyProblem(
                    "downgrade", "plain adverts from a device that has a bindkey: ignored, as anyone could send them",
                    result.format, &entry)
            case .undecodable(let failure):
                logger.debug(
                    "Undecodable advert", metadata: ["device.id": "\(entry.id)", "format": "\(result.format)", "reason": "\(failure)"])
            case .reading(let reading):
                entry.passive = entry.passive ?? result.format
                if let id = reading.packetID {
                    guard entry.packets.update(result.format, initial: PacketFilter(), { $0.accept(id, now: now) }) else {
                        continue
                    }
                }
                if let counter = reading.counter {
                    // A counter that does not grow is a replay, unless the device restarted its count (as
                    // bthome-ble, below 100 any counter is taken).
                    if let last = entry.counters[result.format], counter <= last, counter >= BTHome.replayFloor { continue }
                    entry.counters[result.format] = counter
                    entry.encrypted = false
                }
                if reading.model != nil { entry.model = reading.model }
                measurements += reading.measurements
                _ = entry.learn(quantities: reading.quiet)
            }
        }
        return measurements
    }

    /// Whether a result is in one of the device's formats. The first format recognised is its own; another one
    /// is taken only while the permit window is open (a sensor that sends two), since anyone can send adverts
    /// from a known address: else they would give the device the sensors and values of every format.
    private func accepts(_ result: PassiveResult, _ entry: inout TrackedDevice) -> Bool {
        guard !entry.formats.contains(result.format) else { return true }
        // An undecodable payload of another format says nothing about the device.
        guard result.isRecognised else { return entry.formats.isEmpty }
        if entry.formats.isEmpty || admission.permitting(at: .now) {
            entry.formats.insert(result.format)
            return true
        }
        BLEMetrics.advertsOtherFormat.increment()
        logger.debug("Advert of another format ignored", metadata: ["device.id": "\(entry.id)", "format": "\(result.format)"])
        return false
    }

    /// Logs a key problem and reports it on `bridge/event`, once per device and kind; never the key itself.
    private func reportKeyProblem(_ kind: String, _ message: String, _ format: PassiveFormat, _ entry: inout TrackedDevice) {
        guard entry.keyProblems.insert(kind).inserted else { return }
        logger.warning(
            "Cannot read encrypted adverts",
            metadata: ["device.id": "\(entry.id)", "address": "\(entry.address)", "format": "\(format)", "problem": "\(message)"])
        send(
            .occurred(
                entry.id,
                DeviceOccurrence(
                    .decryptionFailed,
                    ["format": .string(format.rawValue), "problem": .string(kind), "error": .string(message)])))
    }
}
