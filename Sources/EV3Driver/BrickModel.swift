import BridgeCore
import EV3Protocol

/// What the bridge knows of one brick, built from polls and commands: the devices on its ports and its state
/// as published. Pure, so that plugs, unplugs and mode changes are tested without a brick.
struct BrickModel: Sendable {
    /// The devices on the ports, as the last poll identified them; empty ports are absent.
    private(set) var ports: [BrickPort: AttachedDevice] = [:]
    /// The whole state: brick values, one object per port with a device, the LED and the name.
    private(set) var state: [String: JSONValue] = [:]

    /// Applies one poll's results; returns whether the ports' devices or modes changed (so the exposes did).
    mutating func apply(_ results: [PollResult]) -> Bool {
        var changed = false
        for result in results {
            switch result {
            case .brick(let reading): apply(reading)
            case .port(let reading): changed = apply(reading) || changed
            }
        }
        return changed
    }

    /// The LED pattern asked for last (the brick cannot be asked which one it shows).
    mutating func setLED(_ pattern: EV3LEDPattern) { state["led"] = .string(pattern.name) }

    /// The LED pattern is not known (a command that set it failed, and none was set before).
    mutating func clearLED() { state["led"] = nil }

    /// The brick's name, from a command or a poll.
    mutating func setName(_ name: String) { state["name"] = .string(name) }

    /// A motor's speed as just commanded, until the next poll reads it.
    mutating func setSpeed(_ speed: Int, on port: EV3OutputPort) {
        let key = BrickPort.motor(port).key
        guard case .object(var motor)? = state[key] else { return }
        motor["speed"] = .number(Double(speed))
        state[key] = .object(motor)
    }

    /// A sensor's mode as just asked for, until the next poll reads it; the values of the old mode go.
    mutating func setMode(_ mode: EV3SensorMode, on number: Int) {
        let key = BrickPort.sensor(number).key
        guard case .object(let sensor)? = state[key] else { return }
        state[key] = .object(["type": sensor["type"] ?? .null, "mode": .string(mode.rawValue)])
    }

    /// The exposes for the devices now on the ports.
    var exposes: [Expose] { BrickExposes.exposes(ports: ports) }

    private mutating func apply(_ reading: BrickReading) {
        state["battery"] = .number(Double(reading.battery))
        state["voltage"] = reading.voltage.map { .number((Double($0) * 100).rounded() / 100) } ?? .null
        state["current"] = reading.current.map { .number((Double($0) * 1000).rounded() / 1000) } ?? .null
        state["buttons"] = .object(
            Dictionary(uniqueKeysWithValues: EV3Button.allCases.map { ($0.key, .string((reading.pressed[$0] ?? nil) == true ? "ON" : "OFF")) }))
        if !reading.name.isEmpty { state["name"] = .string(reading.name) }
    }

    /// One port: follows a plug, an unplug or a mode change; takes the values only when they were read for the
    /// device that is there now (a read meant for another device or mode would be misread).
    private mutating func apply(_ reading: PortReading) -> Bool {
        let type = reading.typeMode.type
        // Still identifying a device just plugged in: nothing is known yet.
        guard type != .initializing else { return false }
        let port = reading.port
        let device: AttachedDevice? =
            switch port {
            case _ where type == .noDevice || type == .keep: nil
            // A motor's mode is how it reads as a sensor, which is not shown: only its type matters.
            case .motor: AttachedDevice(type: type, mode: 0)
            case .sensor: AttachedDevice(type: type, mode: reading.typeMode.mode)
            }
        let changed = ports[port] != device
        ports[port] = device
        guard let device else {
            state[port.key] = nil
            return changed
        }
        var values: [String: JSONValue] = ["type": .string(device.type.displayName)]
        if case .sensor = port { values["mode"] = device.namedMode.map { .string($0.rawValue) } ?? .null }
        switch port {
        case .motor where reading.assumed?.type == device.type && device.type.isMotor:
            values["speed"] = reading.motor?.speed.map { .number(Double($0)) } ?? .null
            values["position"] = reading.motor?.tacho.map { .number(Double($0)) } ?? .null
        case .sensor where reading.assumed == device && device.type.isDevice && reading.values != nil:
            values.merge(SensorValues.state(device, reading.values ?? [])) { _, new in new }
        default:
            // Not read this time (the poll did not know the device yet): the values shown stay, unless the
            // device changed, when they would belong to the one before.
            if !changed, case .object(let previous)? = state[port.key] { values = previous }
        }
        state[port.key] = .object(values)
        return changed
    }
}
