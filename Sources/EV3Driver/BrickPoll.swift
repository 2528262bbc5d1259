import EV3Protocol

/// A part of a poll that succeeds or fails on its own: the brick itself (battery, buttons, name) or one port.
enum PollGroup: Hashable, Sendable, CustomStringConvertible {
    case brick
    case port(BrickPort)

    /// The brick, then the ports in order.
    static let all: [PollGroup] = [.brick] + BrickPort.all.map(PollGroup.port)

    var description: String {
        switch self {
        case .brick: "brick"
        case .port(let port): port.key
        }
    }
}

/// The brick's own values, as one poll read them.
struct BrickReading: Sendable, Equatable {
    var battery: Int8
    var voltage: Float?
    var current: Float?
    var name: String
    /// Each button's PRESSED answer; nil for a byte the firmware never writes.
    var pressed: [EV3Button: Bool?]
}

/// One port as one poll read it: what GET_TYPEMODE says is plugged in, and, when the poll expected a device,
/// its values read in the mode the poll assumed (`assumed`).
struct PortReading: Sendable, Equatable {
    var port: BrickPort
    var typeMode: EV3TypeMode
    var assumed: AttachedDevice?
    var motor: EV3MotorReading?
    var values: [Float?]?
}

/// What one poll request read.
enum PollResult: Sendable, Equatable {
    case brick(BrickReading)
    case port(PortReading)
}

/// One direct command of a poll: the groups it carries and how to read each from the reply.
struct PollRequest: Sendable {
    typealias Reader = @Sendable (EV3Batch, EV3DirectReply) throws(EV3DecodingError) -> PollResult

    let groups: [PollGroup]
    let batch: EV3Batch
    let readers: [Reader]

    /// Builds the command for `groups`: GET_TYPEMODE for every port, and the values of the device each port
    /// had at the last poll (`ports`), read with TYPE 0 and MODE −1 so that a poll never switches a device.
    init(groups: [PollGroup], ports: [BrickPort: AttachedDevice]) throws(EV3EncodingError) {
        var batch = EV3Batch()
        var readers: [Reader] = []
        for group in groups {
            switch group {
            case .brick: readers.append(try Self.brick(&batch))
            case .port(let port): readers.append(try Self.port(port, ports[port], &batch))
            }
        }
        self.groups = groups
        self.batch = batch
        self.readers = readers
    }

    /// Every group's result from the reply to this request.
    func read(_ reply: EV3DirectReply) throws(EV3DecodingError) -> [PollResult] {
        var results: [PollResult] = []
        for reader in readers { results.append(try reader(batch, reply)) }
        return results
    }

    private static func brick(_ batch: inout EV3Batch) throws(EV3EncodingError) -> Reader {
        let percent = batch.append(.batteryPercent)
        let voltage = batch.append(.batteryVoltage)
        let current = batch.append(.batteryCurrent)
        // 13 bytes: the 12 characters a name may have and its NUL.
        let name = batch.append(try .brickName(length: 13))
        let buttons = EV3Button.allCases.map { ($0, batch.append(.buttonPressed($0))) }
        return { (batch, reply) throws(EV3DecodingError) in
            var pressed: [EV3Button: Bool?] = [:]
            for (button, handle) in buttons { pressed[button] = try batch.read(handle, from: reply) }
            return .brick(
                BrickReading(
                    battery: try batch.read(percent, from: reply), voltage: try batch.read(voltage, from: reply),
                    current: try batch.read(current, from: reply), name: try batch.read(name, from: reply), pressed: pressed))
        }
    }

    private static func port(
        _ port: BrickPort, _ device: AttachedDevice?, _ batch: inout EV3Batch
    ) throws(EV3EncodingError) -> Reader {
        let typeMode = batch.append(.typeMode(port.input))
        switch (port, device) {
        case (.motor(let output), let device?) where device.type.isMotor:
            let motor = batch.append(.outputRead(output))
            return { (batch, reply) throws(EV3DecodingError) in
                .port(
                    PortReading(
                        port: port, typeMode: try batch.read(typeMode, from: reply), assumed: device,
                        motor: try batch.read(motor, from: reply)))
            }
        case (.sensor, let device?) where device.type.isDevice:
            let values = batch.append(try .readySI(port.input, values: SensorValues.valueCount(device)))
            return { (batch, reply) throws(EV3DecodingError) in
                .port(
                    PortReading(
                        port: port, typeMode: try batch.read(typeMode, from: reply), assumed: device,
                        values: try batch.read(values, from: reply)))
            }
        default:
            return { (batch, reply) throws(EV3DecodingError) in
                .port(PortReading(port: port, typeMode: try batch.read(typeMode, from: reply)))
            }
        }
    }
}
