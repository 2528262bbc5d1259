import BLEModels
import BridgeCore
import BLEFormats
import BlueZ
import Support

/// What the driver keeps for a device it publishes.
struct TrackedDevice {
    let id: DeviceID
    let address: BluetoothAddress
    var window = SignalWindow()
    /// When the device's RSSI was last reported as heard to the cluster.
    var heardAt: Double?
    /// The status last reported; nil until the first, so availability is known from the start.
    var status: DeviceStatus?
    /// The signal (two decimals) last seen: policies are reviewed when it moves, not on every advert.
    var signal: Double?
    var descriptor: DeviceDescriptor?
    var name: String?
    var services: Set<BLEUUID> = []
    var adapter: String?
    /// The GATT tree as `bridge/devices` lists it, once known.
    var gatt: JSONValue?
    /// Decides when new values and the signal are worth publishing.
    var throttle: StateThrottle
    /// Readings not yet weighed by the throttle: the batch's, or those waiting for the pacer's next period.
    var pending: PendingReadings?
    /// Drops repeated adverts by packet id, per format.
    var packets = FormatTable<PacketFilter>()
    /// The passive format that made the device a sensor, if any.
    var passive: PassiveFormat?
    /// The formats its adverts are read in: the one it was admitted with, and others only if first heard while a
    /// permit window was open. Adverts of any other format from its address are counted and ignored, as anyone
    /// can send them.
    var formats = PassiveFormats()
    /// Admitted as a new passive sensor through `PassiveAdmission`: its place there is freed when it is removed.
    var countedPassive = false
    /// An encrypted passive sensor without a working key: shown, never decoded.
    var encrypted = false
    /// The maker and model its adverts name (MiBeacon product id, SwitchBot model byte).
    var model: SensorModel?
    /// The last encryption counter accepted, per format: an advert that does not go beyond it is a replay.
    var counters = FormatTable<UInt32>()
    /// The key problems already reported (`missing`, `wrong`, `downgrade`): each once per device.
    var keyProblems: Set<String> = []
    /// Every quantity the device has reported, in the order first seen: its sensors, at most `maxQuantities`.
    var quantities: [Quantity] = []
    /// Characteristics outside the standard profiles the user subscribed to: each is a sensor under `gatt`.
    var notified: [BLEUUID] = []
    /// Device Information strings read on connect (manufacturer, model, firmware, …).
    var information: [String: String] = [:]

    init(id: DeviceID, address: BluetoothAddress, settings: BLESettingsFigures) {
        self.id = id
        self.address = address
        throttle = StateThrottle(stateInterval: settings.stateInterval, signalInterval: settings.rssiInterval)
    }

    /// The most sensors a device gets from what it sends: each is a Home Assistant entity and a key of its
    /// state, and a sender may name any quantity its format knows. No sensor sold has more than a dozen.
    static let maxQuantities = 32

    /// Adds the quantities of values not seen before, up to `maxQuantities`; true when there were any (the
    /// descriptor then changes).
    mutating func learn(_ measurements: [Measurement]) -> Bool {
        learn(quantities: measurements.lazy.map(\.quantity))
    }

    /// Adds quantities not seen before, up to `maxQuantities`; true when there were any.
    mutating func learn(quantities new: some Sequence<Quantity>) -> Bool {
        var added = false
        for quantity in new where quantities.count < Self.maxQuantities && !quantities.contains(where: { $0.key == quantity.key }) {
            quantities.append(quantity)
            added = true
        }
        return added
    }

    /// The measurements of known sensors only: once the device has `maxQuantities`, values of other keys stay
    /// out of its state, which is therefore bounded whatever it sends.
    func known(_ measurements: [Measurement]) -> [Measurement] {
        guard quantities.count >= Self.maxQuantities else { return measurements }
        return measurements.filter { measurement in quantities.contains { $0.key == measurement.key } }
    }

    /// The device's MQTT descriptor: identity, the signal entities every BLE device has, its sensors, what
    /// Device Information said and its GATT tree.
    func makeDescriptor() -> DeviceDescriptor {
        var descriptor = BLEDescriptors.device(
            id: id, address: address, name: name, services: services.sorted { $0.description < $1.description },
            adapter: adapter)
        descriptor.exposes += quantities.compactMap(BLEDescriptors.expose)
        if !notified.isEmpty { descriptor.exposes.append(BLEDescriptors.gatt(notified)) }
        if let passive { descriptor.model = BLEDescriptors.model(of: passive) }
        if let model {
            descriptor.manufacturer = model.manufacturer
            descriptor.model = model.model
            if let kind = model.kind { descriptor.details["device_type"] = .string(kind) }
        }
        if encrypted { descriptor.details["encrypted"] = true }
        if let manufacturer = information["manufacturer"] { descriptor.manufacturer = manufacturer }
        if let model = information["model"] { descriptor.model = model }
        if let firmware = information["firmware"] ?? information["software"] { descriptor.softwareVersion = firmware }
        if let hardware = information["hardware"] { descriptor.hardwareVersion = hardware }
        if let serial = information["serial"] { descriptor.details["serial_number"] = .string(serial) }
        if let gatt { descriptor.details["gatt"] = gatt }
        return descriptor
    }
}

/// The intervals of the `ble` settings, in seconds, as the throttles take them.
struct BLESettingsFigures: Sendable {
    var stateInterval: Double
    var rssiInterval: Double
}
