/// What a link reports about its brick, in order: `connecting`, then `connected` or `disconnected`, and so on.
public enum EV3LinkEvent: Sendable, Hashable {
    /// Opening the connection (after a back-off, when reconnecting).
    case connecting
    /// The brick answered; its identity and versions as read on this connection.
    case connected(EV3BrickInfo)
    /// The connection failed or ended, and why. Everything queued was dropped or failed.
    case disconnected(EV3LinkError)
    /// A motor set-point or stop failed after it was queued: what it was, and why.
    case commandFailed(String, EV3LinkError)
}

/// A brick's identity, read when it connects.
public struct EV3BrickInfo: Sendable, Hashable {
    /// The serial number (Bluetooth address without colons, lowercase): from the endpoint (beacon, config,
    /// Bluetooth address) or read with GET_ID; nil if neither told it.
    public var serialNumber: String?
    /// The brick's name (up to 12 characters).
    public var name: String
    /// The firmware version, e.g. `V1.10E`.
    public var firmwareVersion: String
    /// The firmware build, e.g. `1803`.
    public var firmwareBuild: String
    /// The hardware version, e.g. `V0.60`.
    public var hardwareVersion: String
    /// How it is connected.
    public var transport: EV3Endpoint.Transport

    /// Creates an info.
    public init(
        serialNumber: String?, name: String, firmwareVersion: String, firmwareBuild: String, hardwareVersion: String,
        transport: EV3Endpoint.Transport
    ) {
        self.serialNumber = serialNumber
        self.name = name
        self.firmwareVersion = firmwareVersion
        self.firmwareBuild = firmwareBuild
        self.hardwareVersion = hardwareVersion
        self.transport = transport
    }
}
