import BLEModels
import BridgeCore

/// One Nova flash's light: what it shows (confirmed by an ack), what was asked for, and the one request
/// in flight the protocol allows.
struct NovaSession {
    var confirmed = NovaLightState()
    var current = NovaLightState()
    var ids = NovaRequestIDs()
    /// A write is being sent or waits for its ack; newer states wait in `current` (latest wins).
    var sending = false
    /// The id of the request waiting for its `(xx:A)`, if any.
    var pending: UInt8?
    /// The id of the last `(xx:A)` the flash sent for the pending request.
    var lastAck: UInt8?
    var renewal: Task<Void, Never>?
    /// The lit state must be written again although nothing changed.
    var renewDue = false

    /// Whether a device is a Nova flash: named `Nova` and advertising service FFF0.
    static func isNova(name: String?, services: Set<BLEUUID>) -> Bool {
        name == "Nova" && services.contains { $0.description.hasPrefix("0000fff0-") }
    }

    /// The descriptor of a Nova: a JSON light with the presets as effects and a `timeout` attribute.
    static func descriptor(_ base: DeviceDescriptor) -> DeviceDescriptor {
        var descriptor = base
        descriptor.kind = "light"
        descriptor.manufacturer = "Nova"
        descriptor.model = "Nova flash"
        descriptor.exposes = NovaLight.exposes + base.exposes
        descriptor.switchable = true
        return descriptor
    }
}
