/// Something a driver reports; every device change reaches MQTT through these.
public enum DeviceEvent: Sendable {
    /// A device was found, or its description changed.
    case discovered(DeviceDescriptor)
    /// A device is gone for good (e.g. deleted from its cloud account).
    case removed(DeviceID)
    /// New values for part of a device's state; keys absent here keep their values.
    case state(DeviceID, [String: JSONValue])
    /// The device became reachable or unreachable.
    case availability(DeviceID, online: Bool)
    /// A command that had been accepted failed later; the state was already reverted.
    case commandFailed(DeviceID, reason: String)
    /// The integration's overall status changed, e.g. `running`, `unauthorized`, `error`.
    case integrationStatus(Integration, status: String, detail: String?)
    /// The integration has reported every device it currently has, so stale entities may be cleaned up.
    case inventoryComplete(Integration)
}

/// The one channel from drivers into the bridge.
public struct DeviceEventSink: Sendable {
    private let deliver: @Sendable (DeviceEvent) -> Void

    /// Creates a sink around a delivery function.
    public init(_ deliver: @escaping @Sendable (DeviceEvent) -> Void) { self.deliver = deliver }

    /// Reports an event; never blocks.
    public func send(_ event: DeviceEvent) { deliver(event) }
}
