/// What a driver knows about a device: identity, model data and what it exposes.
public struct DeviceDescriptor: Sendable, Hashable {
    public var id: DeviceID
    /// A coarse type, e.g. `light`, `group`, `brick`, `sensor`.
    public var kind: String
    public var manufacturer: String
    public var model: String
    public var modelID: String?
    public var serialNumber: String?
    public var softwareVersion: String?
    public var hardwareVersion: String?
    /// Network identities for Home Assistant, e.g. `[["mac", "aa:bb:…"]]`.
    public var connections: [[String]]
    /// The device's own name (a LIFX label, a BLE local name), shown beside the alias.
    public var label: String?
    public var exposes: [Expose]
    /// Whether `/set` accepts plain `ON`/`OFF`/`TOGGLE`.
    public var switchable: Bool
    /// Anything else worth showing in `bridge/devices` (a BLE address type, an EV3's battery type, ...).
    public var details: [String: JSONValue]

    /// Creates a descriptor.
    public init(
        id: DeviceID, kind: String, manufacturer: String, model: String, modelID: String? = nil,
        serialNumber: String? = nil, softwareVersion: String? = nil, hardwareVersion: String? = nil,
        connections: [[String]] = [], label: String? = nil, exposes: [Expose], switchable: Bool = false,
        details: [String: JSONValue] = [:]
    ) {
        self.id = id
        self.kind = kind
        self.manufacturer = manufacturer
        self.model = model
        self.modelID = modelID
        self.serialNumber = serialNumber
        self.softwareVersion = softwareVersion
        self.hardwareVersion = hardwareVersion
        self.connections = connections
        self.label = label
        self.exposes = exposes
        self.switchable = switchable
        self.details = details
    }

    /// The main light, if the device is one.
    public var lightFeatures: LightFeatures? {
        exposes.first(where: { $0.kind == .light })?.light
    }

    /// The expose for a state property.
    public func expose(for property: String) -> Expose? {
        exposes.first { $0.property == property }
    }
}
