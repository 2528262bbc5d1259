import EV3Protocol
import Testing

/// A value an opcode refuses, and the error naming it.
struct Refusal: Sendable, CustomTestStringConvertible {
    var error: EV3EncodingError
    var make: @Sendable () throws -> Void

    var testDescription: String { error.description }

    init(_ error: EV3EncodingError, _ make: @escaping @Sendable () throws -> Void) {
        self.error = error
        self.make = make
    }
}

@Suite("EV3 opcode arguments and ports")
struct OpcodeRangeTests {
    static let stepPhases = 0...Int(Int32.max)

    static let refusals: [Refusal] = [
        Refusal(.outOfRange("OUTPUT_POWER power", value: 101, allowed: -100...100)) {
            _ = try EV3Instruction.outputPower(.a, power: 101)
        },
        Refusal(.outOfRange("OUTPUT_SPEED speed", value: -101, allowed: -100...100)) {
            _ = try EV3Instruction.outputSpeed(.a, speed: -101)
        },
        Refusal(.outOfRange("OUTPUT_STOP ports", value: 0, allowed: 1...15)) {
            _ = try EV3Instruction.outputStop([], brake: true)
        },
        Refusal(.outOfRange("OUTPUT_START ports", value: 16, allowed: 1...15)) {
            _ = try EV3Instruction.outputStart(EV3OutputPorts(rawValue: 0x10))
        },
        Refusal(.outOfRange("OUTPUT_STEP_SPEED ramp up", value: -1, allowed: stepPhases)) {
            _ = try EV3Instruction.outputStepSpeed(.a, speed: 10, degrees: EV3Ramp(up: -1, constant: 10), brake: false)
        },
        Refusal(.outOfRange("OUTPUT_TIME_POWER constant phase", value: Int(Int32.max) + 1, allowed: stepPhases)) {
            let ramp = EV3Ramp(constant: Int(Int32.max) + 1)
            _ = try EV3Instruction.outputTimePower(.a, power: 10, milliseconds: ramp, brake: false)
        },
        Refusal(.outOfRange("OUTPUT_STEP_SYNC turn", value: 201, allowed: -200...200)) {
            _ = try EV3Instruction.outputStepSync([.b, .c], speed: 10, turn: 201, degrees: 10, brake: false)
        },
        Refusal(.outOfRange("OUTPUT_TIME_SYNC milliseconds", value: -1, allowed: stepPhases)) {
            _ = try EV3Instruction.outputTimeSync([.b, .c], speed: 10, turn: 0, milliseconds: -1, brake: false)
        },
        Refusal(.outOfRange("TONE volume", value: 101, allowed: 0...100)) {
            _ = try EV3Instruction.tone(volume: 101, frequency: 440, milliseconds: 100)
        },
        Refusal(.outOfRange("TONE frequency", value: 249, allowed: 250...10_000)) {
            _ = try EV3Instruction.tone(volume: 1, frequency: 249, milliseconds: 100)
        },
        Refusal(.outOfRange("TONE frequency", value: 10_001, allowed: 250...10_000)) {
            _ = try EV3Instruction.tone(volume: 1, frequency: 10_001, milliseconds: 100)
        },
        Refusal(.outOfRange("TONE duration", value: 32768, allowed: 0...32767)) {
            _ = try EV3Instruction.tone(volume: 1, frequency: 440, milliseconds: 32768)
        },
        Refusal(.invalidString("PLAY file", reason: "empty")) { _ = try EV3Instruction.playSound(volume: 1, file: "") },
        Refusal(.invalidString("REPEAT file", reason: "contains a NUL byte")) {
            _ = try EV3Instruction.repeatSound(volume: 1, file: "a\u{0}")
        },
        Refusal(.invalidString("PLAY file", reason: "120 bytes, more than 119")) {
            _ = try EV3Instruction.playSound(volume: 1, file: String(repeating: "s", count: 120))
        },
        Refusal(.invalidString("SET_BRICKNAME name", reason: "13 bytes, more than 12")) {
            _ = try EV3Instruction.setBrickName("thirteen-char")
        },
        Refusal(.invalidString("SET_BRICKNAME name", reason: "empty")) { _ = try EV3Instruction.setBrickName("") },
        Refusal(.outOfRange("READY_SI values", value: 0, allowed: 1...8)) {
            _ = try EV3Query.readySI(.sensor(1)!, values: 0)
        },
        Refusal(.outOfRange("READY_RAW values", value: 9, allowed: 1...8)) {
            _ = try EV3Query.readyRaw(.sensor(1)!, values: 9)
        },
        Refusal(.outOfRange("READY_PCT mode", value: 8, allowed: -1...7)) {
            _ = try EV3Query.readyPct(.sensor(1)!, mode: 8, values: 1)
        },
        Refusal(.outOfRange("READY_SI type", value: -1, allowed: 0...127)) {
            _ = try EV3Query<Float?>.readySI(.sensor(1)!, type: EV3DeviceType(rawValue: -1))
        },
        Refusal(.outOfRange("INPUT_READ mode", value: -2, allowed: -1...7)) {
            _ = try EV3Query.inputRead(.sensor(1)!, mode: -2)
        },
        Refusal(.outOfRange("GET_FW_VERS length", value: 0, allowed: 1...127)) {
            _ = try EV3Query.firmwareVersion(length: 0)
        },
        Refusal(.outOfRange("GET_BRICKNAME length", value: 128, allowed: 1...127)) {
            _ = try EV3Query.brickName(length: 128)
        },
        Refusal(.outOfRange("INPUT_DEVICE_LIST length", value: 0, allowed: 1...127)) {
            _ = try EV3Query.deviceList(length: 0)
        },
        Refusal(.outOfRange("GET_MODENAME mode", value: -1, allowed: 0...7)) {
            _ = try EV3Query.modeName(.sensor(1)!, mode: -1, length: 10)
        },
    ]

    @Test("out-of-range values never become bytes", arguments: refusals)
    func refused(_ refusal: Refusal) {
        #expect(throws: refusal.error) { try refusal.make() }
    }

    @Test("input ports: sensors 1–4 are 0–3, motors A–D are 16–19, nothing else", arguments: 0...255)
    func inputPorts(raw: Int) {
        let port = EV3InputPort(rawValue: UInt8(raw))
        switch raw {
        case 0...3: #expect(port == .sensor(raw + 1) && port?.description == "\(raw + 1)" && port?.isMotor == false)
        case 16...19:
            #expect(port == EV3OutputPort(rawValue: UInt8(raw - 16))?.asInput && port?.isMotor == true)
            #expect(port?.description == ["A", "B", "C", "D"][raw - 16])
        default: #expect(port == nil)
        }
    }

    @Test("output ports: an index for OUTPUT_READ and GET_COUNT, a bit for the rest")
    func outputPorts() {
        #expect(EV3OutputPort.allCases.map(\.set) == [.a, .b, .c, .d])
        #expect(EV3OutputPorts.all == [.a, .b, .c, .d])
        #expect(EV3InputPort.sensors.map(\.rawValue) == [0, 1, 2, 3])
        #expect(EV3InputPort.motors.map(\.rawValue) == [16, 17, 18, 19])
        #expect(EV3InputPort.sensor(0) == nil && EV3InputPort.sensor(5) == nil)
    }

    @Test(
        "device types: motors, devices and the port states",
        arguments: [
            (EV3DeviceType.largeMotor, true, true), (.mediumMotor, true, true), (.touch, false, true),
            (.infrared, false, true), (.keep, false, false), (.initializing, false, false), (.noDevice, false, false),
            (.error, false, false),
        ])
    func deviceTypes(type: EV3DeviceType, isMotor: Bool, isDevice: Bool) {
        #expect(type.isMotor == isMotor)
        #expect(type.isDevice == isDevice)
    }
}
