/// Something a driver reports; every device change reaches MQTT through these.
public enum DeviceEvent: Sendable {
    /// A device was found, or its description changed.
    case discovered(DeviceDescriptor)
    /// A device is gone for good (e.g. deleted from its cloud account).
    case removed(DeviceID)
    /// New values for part of a device's state; keys absent here keep their values.
    case state(DeviceID, [String: JSONValue])
    /// The device's status changed; its availability, its `status` and connect/disconnect events follow. `state`
    /// holds values that changed with it (a command's result and the end of the command), published with the
    /// status in one message.
    case status(DeviceID, DeviceStatus, detail: String? = nil, state: [String: JSONValue] = [:])
    /// Something happened to a device, published on `bridge/event` with its data.
    case occurred(DeviceID, DeviceOccurrence)
    /// One occurrence of one of the device's `event` exposes (a button press, a dimmer turn): published once, not
    /// retained, on `<alias>/event`; never merged into the state, never coalesced with another occurrence.
    case event(DeviceID, ExposeEvent)
    /// This bridge's radio heard the device at `rssi` dBm. Several bridges may hear one device: in a cluster,
    /// these decide which bridge owns it (report it before the device's first `discovered`). `connects`: the
    /// driver's rules would connect it, so owning it takes one of the driver's connection slots; `holds`: the driver
    /// holds (or is making) its connection, so a slot is spent on it already.
    case heard(DeviceID, rssi: Int, connects: Bool = false, holds: Bool = false)
    /// How many more connections the integration's radios can hold (nil: no limit); sent when it changes.
    case connectionSlots(Integration, free: Int?)
    /// The radios the integration listens with (BLE: its adapter, `hci0`), by name, for a cluster's presence;
    /// sent when they change.
    case adapters(Integration, [String])
    /// The integration's overall status changed.
    case integrationStatus(Integration, IntegrationStatus)
    /// The integration has reported every device it currently has, so stale entities may be cleaned up.
    case inventoryComplete(Integration)
}

/// A typed device event: what happened and the data that goes with it.
public struct DeviceOccurrence: Sendable, Equatable {
    /// The kinds of device event; `bridge/event` names them `command_failed`, `device_interview`, ...
    public enum Kind: String, Sendable, CaseIterable {
        /// A command that had been accepted failed later; the state was already reverted.
        case commandFailed = "command_failed"
        /// The device's capabilities were read (for BLE, its GATT tree).
        case interviewed = "device_interview"
        /// Connecting failed; `data` carries the reason.
        case connectFailed = "connect_failed"
        /// A device's encrypted adverts cannot be read: no key, a wrong key, or plain adverts from a device that
        /// has one; `data` says which (`error`) and for which format.
        case decryptionFailed = "decryption_failed"
        /// A device heard or announced over the air was not admitted (too many new ones lately, too many in all,
        /// or no permit window); `data` says why (`reason`) and how many were refused since the last such event.
        /// Drivers send it at most once per few minutes, never once per advert or beacon.
        case admissionRefused = "admission_refused"
    }

    public var kind: Kind
    /// Extra fields for the event (`error`, `reason`, ...); `id` and `alias` are added by the bridge.
    public var data: [String: JSONValue]

    /// Creates an occurrence.
    public init(_ kind: Kind, _ data: [String: JSONValue] = [:]) {
        self.kind = kind
        self.data = data
    }

    /// A failed command, with the reason for the person who sent it.
    public static func commandFailed(_ reason: String) -> DeviceOccurrence { DeviceOccurrence(.commandFailed, ["error": .string(reason)]) }
}

/// The one channel from drivers into the bridge.
public struct DeviceEventSink: Sendable {
    private let deliver: @Sendable (DeviceEvent) -> Void
    private let deliverAll: (@Sendable ([DeviceEvent]) -> Void)?

    /// Creates a sink around a delivery function, and optionally one that takes several events at once.
    public init(
        _ deliver: @escaping @Sendable (DeviceEvent) -> Void, all deliverAll: (@Sendable ([DeviceEvent]) -> Void)? = nil
    ) {
        self.deliver = deliver
        self.deliverAll = deliverAll
    }

    /// Reports an event; never blocks.
    public func send(_ event: DeviceEvent) { deliver(event) }

    /// Reports events in order, handed over together where the receiver can take them so (one hand-over,
    /// one wake-up for a batch); never blocks.
    public func send(contentsOf events: [DeviceEvent]) {
        guard !events.isEmpty else { return }
        if let deliverAll { return deliverAll(events) }
        for event in events { deliver(event) }
    }
}
