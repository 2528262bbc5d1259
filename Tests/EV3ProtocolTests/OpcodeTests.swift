import EV3Protocol
import TestSupport
import Testing

/// One catalogued opcode: how to add it to a batch, and its bytes when it is alone in one.
struct OpcodeCase: Sendable, CustomTestStringConvertible {
    var bytes: String
    var add: @Sendable (inout EV3Batch) throws -> Void

    var testDescription: String { bytes }

    /// An instruction without outputs.
    static func instruction(_ bytes: String, _ make: @escaping @Sendable () throws -> EV3Instruction) -> Self {
        OpcodeCase(bytes: bytes) { $0.append(try make()) }
    }

    /// A query, its outputs from global offset 0.
    static func query<V>(_ bytes: String, _ make: @escaping @Sendable () throws -> EV3Query<V>) -> Self {
        OpcodeCase(bytes: bytes) { $0.append(try make()) }
    }
}

@Suite("EV3 opcodes the driver uses")
struct OpcodeTests {
    static let instructions: [OpcodeCase] = [
        .instruction("A2 00 0F") { try .outputReset(.all) },
        .instruction("A3 00 08 01") { try .outputStop(.d, brake: true) },
        .instruction("A4 00 01 81 9C") { try .outputPower(.a, power: -100) },
        .instruction("A5 00 09 81 64") { try .outputSpeed([.a, .d], speed: 100) },
        .instruction("A5 00 02 20") { try .outputSpeed(.b, speed: -32) },
        .instruction("A6 00 0F") { try .outputStart(.all) },
        .instruction("A7 00 01 3F") { try .outputPolarity(.a, .backward) },
        .instruction("B2 00 04") { try .outputClearCount(.c) },
        .instruction("AC 00 01 1E 00 82 68 01 00 00") {
            try .outputStepPower(.a, power: 30, degrees: EV3Ramp(constant: 360), brake: false)
        },
        .instruction("AD 00 02 81 D8 81 64 82 E8 03 81 64 01") {
            try .outputTimePower(.b, power: -40, milliseconds: EV3Ramp(up: 100, constant: 1000, down: 100), brake: true)
        },
        .instruction("AF 00 04 14 00 83 70 11 01 00 00 00") {
            try .outputTimeSpeed(.c, speed: 20, milliseconds: EV3Ramp(constant: 70000), brake: false)
        },
        .instruction("B0 00 06 81 32 82 38 FF 82 D0 02 01") {
            try .outputStepSync([.b, .c], speed: 50, turn: -200, degrees: 720, brake: true)
        },
        .instruction("B1 00 06 36 00 82 D0 07 00") {
            try .outputTimeSync([.b, .c], speed: -10, turn: 0, milliseconds: 2000, brake: false)
        },
        .instruction("82 1B 07") { .led(.greenPulse) },
        .instruction("82 1B 00") { .led(.off) },
        .instruction("94 01 81 32 82 B8 01 82 F4 01") { try .tone(volume: 50, frequency: 440, milliseconds: 500) },
        .instruction("94 02 81 64 84 75 69 2F 53 74 61 72 74 75 70 00") {
            try .playSound(volume: 100, file: "ui/Startup")
        },
        .instruction("94 03 00 84 78 00") { try .repeatSound(volume: 0, file: "x") },
        .instruction("94 00") { .stopSound },
        .instruction("D4 08 84 72 6F 62 6F 74 31 00") { try .setBrickName("robot1") },
        .instruction("99 1A 00 01") { .inputClearChanges(.sensor(2)!) },
        .instruction("99 0A 00") { .inputClearAll },
        .instruction("01") { .nop },
        .instruction("00") { .error },
    ]

    static let queries: [OpcodeCase] = [
        .query("81 01 60") { .batteryVoltage },
        .query("81 02 60") { .batteryCurrent },
        .query("81 12 60") { .batteryPercent },
        .query("81 0A 10 60") { try .firmwareVersion(length: 16) },
        .query("81 09 08 60") { try .hardwareVersion(length: 8) },
        .query("81 0B 0C 60") { try .firmwareBuild(length: 12) },
        .query("81 03 81 64 60") { try .osVersion(length: 100) },
        .query("81 0C 0C 60") { try .osBuild(length: 12) },
        .query("D3 0D 0D 60") { try .brickName(length: 13) },
        .query("D3 0C 02 0D 60") { try .bluetoothAddress(length: 13) },
        .query("83 09 06 60") { .buttonPressed(.back) },
        .query("A9 00 0F 60") { try .outputTest(.all) },
        .query("A8 00 03 64 60") { .outputRead(.d) },
        .query("B3 00 02 60") { .outputGetCount(.c) },
        .query("99 05 00 12 60 61") { .typeMode(EV3OutputPort.c.asInput) },
        .query("99 1D 00 03 00 3F 02 60 64") { try .readySI(.sensor(4)!, values: 2) },
        .query("99 1D 00 00 81 20 01 01 60") { try .readySI(.sensor(1)!, type: .gyro, mode: 1) },
        .query("99 1B 00 00 81 21 00 01 60") { try .readyPct(.sensor(1)!, type: .infrared, mode: 0, values: 1) },
        .query("99 1C 00 13 00 3F 01 60") { try .readyRaw(EV3OutputPort.d.asInput, values: 1) },
        .query("9D 00 01 00 3F 60") { try .inputReadSI(.sensor(2)!) },
        .query("9A 00 00 1E 00 60") { try .inputRead(.sensor(1)!, type: .ultrasonic, mode: 0) },
        .query("99 15 00 00 14 60") { try .deviceName(.sensor(1)!, length: 20) },
        .query("99 16 00 00 02 14 60") { try .modeName(.sensor(1)!, mode: 2, length: 20) },
        .query("98 08 60 68") { try .deviceList(length: 8) },
        .query("35 82 00 80 60") { .move16(.min) },
    ]

    @Test("instructions and queries encode byte for byte", arguments: instructions + queries)
    func encodes(_ opcode: OpcodeCase) throws {
        var batch = EV3Batch()
        try opcode.add(&batch)
        #expect(hex(try batch.command(counter: 0).bytecode) == opcode.bytes)
    }
}

extension OpcodeTests {
    @Test("an instruction alone encodes as in a batch of its own, a query's outputs from offset 0")
    func alone() throws {
        #expect(hex(try EV3Instruction.outputStop(.a, brake: true).bytes()) == "A3 00 01 01")
        #expect(hex(EV3Query.outputRead(.b).instruction.bytes()) == "A8 00 01 64 60")
        #expect(hex(EV3Query.outputRead(.b).instruction.bytes(style: .legoev3)) == "A8 81 00 81 01 E1 04 E1 00")
        #expect(EV3Query.outputRead(.b).instruction.name == "OUTPUT_READ")
    }
}
