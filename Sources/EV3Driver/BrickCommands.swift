import BridgeCore
import EV3Link
import EV3Protocol

/// A `/set` for a brick, turned into what goes to it. Built whole before anything is sent: a value the brick
/// would not take, or keys that do not go together, refuse the whole command and no frame leaves.
struct BrickCommands: Equatable, Sendable {
    /// A stop, which goes ahead of everything queued.
    struct Stop: Equatable, Sendable {
        var ports: EV3OutputPorts
        var brake: Bool
    }

    var stops: [Stop] = []
    /// Motor set-points, which coalesce per port while they wait.
    var motors: [EV3OutputPort: EV3MotorCommand] = [:]
    /// LED, tone, sound and name, sent together as one direct command.
    var instructions: [EV3Instruction] = []
    /// Sensor modes to select, by sensor port.
    var modes: [Int: EV3SensorMode] = [:]
    /// What the state shows at once: the LED pattern and name asked for, the speed a motor was set to run at.
    var led: EV3LEDPattern?
    var name: String?
    var speeds: [EV3OutputPort: Int] = [:]

    /// Volume of the beep, of tones that name none, and of sound files.
    static let defaultVolume = 50
    /// The `beep` button's tone, and the defaults of `tone`.
    static let beepFrequency = 1000
    static let beepMilliseconds = 200

    /// Turns validated `/set` attributes into commands; throws what the sender did wrong.
    init(_ attributes: [String: JSONValue]) throws(CommandError) {
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
            try add(key, value)
        }
    }

    private mutating func add(_ key: String, _ value: JSONValue) throws(CommandError) {
        switch key {
        case "stop": stops.append(Stop(ports: .all, brake: false))
        case "led":
            guard let pattern = value.stringValue.flatMap(EV3LEDPattern.init(name:)) else {
                throw CommandError("led must be one of \(EV3LEDPattern.allCases.map(\.name).joined(separator: ", "))")
            }
            led = pattern
            instructions.append(.led(pattern))
        case "name":
            let text = value.stringValue ?? ""
            instructions.append(try encoded("name") { () throws(EV3EncodingError) in try .setBrickName(text) })
            name = text
        case "beep":
            instructions.append(try tone(["frequency": .number(Double(Self.beepFrequency))]))
        case "tone":
            instructions.append(try tone(value.objectValue ?? [:]))
        case "sound":
            let file = value.stringValue ?? ""
            instructions.append(
                try encoded("sound") { () throws(EV3EncodingError) in try .playSound(volume: Self.defaultVolume, file: file) })
        default:
            if let port = EV3OutputPort.allCases.first(where: { BrickPort.motor($0).key == key }) {
                try motor(port, value.objectValue ?? [:])
            } else if let number = (1...4).first(where: { BrickPort.sensor($0).key == key }) {
                guard let text = value["mode"]?.stringValue, let mode = EV3SensorMode(rawValue: text) else {
                    throw CommandError("\(key) takes {\"mode\": …}")
                }
                modes[number] = mode
            } else {
                throw CommandError("an EV3 brick has no \(key)")
            }
        }
    }

    private mutating func motor(_ port: EV3OutputPort, _ fields: [String: JSONValue]) throws(CommandError) {
        let key = BrickPort.motor(port).key
        let brake = fields["brake"].map { $0.stringValue == "ON" }
        if fields["stop"] != nil {
            let others = fields.keys.filter { $0 != "stop" && $0 != "brake" }.sorted()
            guard others.isEmpty else { throw CommandError("\(key): stop cannot go with \(others.joined(separator: ", "))") }
            stops.append(Stop(ports: port.set, brake: brake ?? false))
            return
        }
        let speed = try Self.whole(fields, "speed", key)
        let power = try Self.whole(fields, "power", key)
        let drive: EV3Drive
        switch (speed, power) {
        case (let speed?, nil): drive = .speed(speed)
        case (nil, let power?): drive = .power(power)
        case (_?, _?): throw CommandError("\(key): give speed or power, not both")
        case (nil, nil): throw CommandError("\(key) needs speed or power (or stop)")
        }
        let milliseconds = try Self.whole(fields, "time_ms", key)
        let degrees = try Self.whole(fields, "degrees", key)
        let command: EV3MotorCommand
        switch (milliseconds, degrees) {
        case (let milliseconds?, nil): command = .timed(drive, milliseconds: milliseconds, brake: brake ?? true)
        case (nil, let degrees?): command = .step(drive, degrees: degrees, brake: brake ?? true)
        case (_?, _?): throw CommandError("\(key): give time_ms or degrees, not both")
        case (nil, nil):
            guard brake == nil else { throw CommandError("\(key): brake applies to a move with time_ms or degrees, or to stop") }
            command = .run(drive)
        }
        _ = try encoded(key) { () throws(EV3EncodingError) in try command.instructions(for: port) }
        motors[port] = command
        if case .run(.speed(let value)) = command { speeds[port] = value }
    }

    private func tone(_ fields: [String: JSONValue]) throws(CommandError) -> EV3Instruction {
        let frequency = try Self.whole(fields, "frequency", "tone") ?? Self.beepFrequency
        let milliseconds = try Self.whole(fields, "duration_ms", "tone") ?? Self.beepMilliseconds
        let volume = try Self.whole(fields, "volume", "tone") ?? Self.defaultVolume
        return try encoded("tone") { () throws(EV3EncodingError) in
            try .tone(volume: volume, frequency: frequency, milliseconds: milliseconds)
        }
    }

    /// A number of the command rounded to a whole one, nil when absent or not a number; one beyond any the
    /// codec takes is refused here, as converting it would trap (the codec checks the real ranges after).
    private static func whole(_ fields: [String: JSONValue], _ name: String, _ what: String) throws(CommandError) -> Int? {
        guard let value = fields[name], let number = value.doubleValue else { return nil }
        guard let whole = Int(checking: number, in: -1_000_000_000...1_000_000_000, rounding: true) else {
            throw CommandError("\(what): \(name) \(value.brief) is out of range")
        }
        return whole
    }

    /// Builds with the codec's own checks, their complaint becoming the sender's error.
    private func encoded<Value>(
        _ what: String, _ build: () throws(EV3EncodingError) -> Value
    ) throws(CommandError) -> Value {
        do {
            return try build()
        } catch {
            throw CommandError("\(what): \(error)")
        }
    }
}
