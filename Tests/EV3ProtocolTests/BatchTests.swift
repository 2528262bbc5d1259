import EV3Protocol
import TestSupport
import Testing

@Suite("EV3 batches: aligned globals and typed reads")
struct BatchTests {
    @Test("mixed sizes: 32-bit values first in the order added, then bytes and strings")
    func mixedLayout() throws {
        var batch = EV3Batch()
        let typeMode = batch.append(.typeMode(.sensor(1)!))
        let name = batch.append(try .brickName(length: 13))
        let motor = batch.append(.outputRead(.a))
        let volts = batch.append(.batteryVoltage)
        let percent = batch.append(.batteryPercent)
        let raw = batch.append(try .readyRaw(.sensor(3)!, values: 3))
        #expect(batch.globalSize == 37)
        #expect(batch.offsets(of: typeMode) == [20, 21])
        #expect(batch.offsets(of: name) == [22])
        #expect(batch.offsets(of: motor) == [35, 0])
        #expect(batch.offsets(of: volts) == [4])
        #expect(batch.offsets(of: percent) == [36])
        #expect(batch.offsets(of: raw) == [8, 12, 16])
        #expect(batch.names == ["GET_TYPEMODE", "GET_BRICKNAME", "OUTPUT_READ", "GET_VBATT", "GET_LBATT", "READY_RAW"])
        let command = try batch.command(counter: 1)
        #expect(
            hex(command.bytes)
                == "26 00 01 00 00 25 00 99 05 00 00 74 75 D3 0D 0D 76 A8 00 00 E1 23 60 81 01 64 81 12 E1 24 "
                + "99 1C 00 02 00 3F 03 68 6C 70")

        let globals = hex(
            "30 FD FF FF 00 00 F0 40 12 00 00 00 00 00 00 80 FF 00 00 00 1D 02 45 56 33 00 73 74 61 6C 65 31 32 33 34 "
                + "CE 57")
        let reply = EV3DirectReply(counter: 1, status: .ok, globals: globals)
        try reply.check(answering: command)
        #expect(try batch.read(typeMode, from: reply) == EV3TypeMode(type: .color, mode: 2))
        #expect(try batch.read(name, from: reply) == "EV3")
        #expect(try batch.read(motor, from: reply) == EV3MotorReading(speed: -50, tacho: -720))
        #expect(try batch.read(volts, from: reply) == 7.5)
        #expect(try batch.read(percent, from: reply) == 87)
        #expect(try batch.read(raw, from: reply) == [18, nil, 255])
    }

    @Test("16-bit globals sit between the 32-bit ones and the bytes; offsets past 31 take GV1")
    func sixteenBit() throws {
        var batch = EV3Batch()
        let byte = batch.append(.batteryPercent)
        let short = batch.append(.move16(-2))
        let name = batch.append(try .brickName(length: 40))
        let word = batch.append(.move32(0x0102_0304))
        let late = batch.append(.buttonPressed(.enter))
        #expect(batch.offsets(of: byte) == [6])
        #expect(batch.offsets(of: late) == [47])
        #expect(batch.offsets(of: short) == [4])
        #expect(batch.offsets(of: name) == [7])
        #expect(batch.offsets(of: word) == [0])
        #expect(
            hex(try batch.command(counter: 0).bytes)
                == "1C 00 00 00 00 30 00 81 12 66 35 3E 64 D3 0D 81 28 67 3A 83 04 03 02 01 60 83 09 02 E1 2F")
        let globals = hex("04 03 02 01 FE FF 64") + Array("EV3".utf8) + [UInt8](repeating: 0, count: 37) + [1]
        let reply = EV3DirectReply(counter: 0, status: .ok, globals: globals)
        #expect(try batch.read(short, from: reply) == -2)
        #expect(try batch.read(word, from: reply) == 0x0102_0304)
        #expect(try batch.read(byte, from: reply) == 100)
        #expect(try batch.read(name, from: reply) == "EV3")
        #expect(try batch.read(late, from: reply) == true)
    }

    @Test("empty ports read as nil: 80, 00 00 00 80 and any NaN", arguments: [
        ("00 00 C0 7F", "nil"), ("00 00 C0 FF", "nil"), ("01 00 80 7F", "nil"), ("00 00 80 7F", "inf"),
        ("00 00 00 00", "0.0"), ("00 00 80 BF", "-1.0"),
    ])
    func floatSentinels(bytes: String, value: String) throws {
        var batch = EV3Batch()
        let reading = batch.append(try .readySI(.sensor(2)!))
        let reply = EV3DirectReply(counter: 0, status: .ok, globals: hex(bytes))
        #expect(describe(try batch.read(reading, from: reply)) == value)
    }

    @Test("integer sentinels, by width")
    func integerSentinels() throws {
        var batch = EV3Batch()
        let raw = batch.append(try .readyRaw(.sensor(1)!, values: 2))
        let percent = batch.append(try .readyPct(.sensor(1)!, values: 2))
        let read = batch.append(try .inputRead(.sensor(1)!))
        let reply = EV3DirectReply(
            counter: 0, status: .ok, globals: hex("00 00 00 80 FF FF FF 7F 80 AA AA AA 7F 55 55 55 81"))
        #expect(try batch.read(raw, from: reply) == [nil, .max])
        #expect(try batch.read(percent, from: reply) == [nil, 127])
        #expect(try batch.read(read, from: reply) == -127)
    }

    @Test("READY_PCT values sit on 4-byte boundaries even among bytes: the validator checks them as 32-bit")
    func percentAligned() throws {
        var batch = EV3Batch()
        let level = batch.append(.batteryPercent)
        let percent = batch.append(try .readyPct(.sensor(2)!, values: 3))
        let button = batch.append(.buttonPressed(.up))
        #expect(batch.offsets(of: percent) == [0, 4, 8])
        #expect(batch.offsets(of: level) == [12] && batch.offsets(of: button) == [13])
        #expect(batch.globalSize == 14)
        let reply = EV3DirectReply(counter: 0, status: .ok, globals: hex("05 EE EE EE 80 EE EE EE 64 00 00 00 2A 01"))
        #expect(try batch.read(percent, from: reply) == [5, nil, 100])
        #expect(try batch.read(level, from: reply) == 42 && batch.read(button, from: reply) == true)
    }

    @Test("a string with no NUL in its buffer is taken whole")
    func unterminated() throws {
        var batch = EV3Batch()
        let name = batch.append(try .deviceName(.sensor(1)!, length: 4))
        let reply = EV3DirectReply(counter: 0, status: .ok, globals: Array("TOUC".utf8))
        #expect(try batch.read(name, from: reply) == "TOUC")
    }

    @Test("error replies, replies of another size and handles of another batch are refused")
    func refusals() throws {
        var batch = EV3Batch()
        let percent = batch.append(.batteryPercent)
        var other = EV3Batch()
        let volts = other.append(.batteryVoltage)
        #expect(throws: EV3DecodingError.replyError(counter: 7)) {
            try batch.read(percent, from: EV3DirectReply(counter: 7, status: .error, globals: [0x64]))
        }
        #expect(throws: EV3DecodingError.globalsSize(expected: 1, got: 0)) {
            try batch.read(percent, from: EV3DirectReply(counter: 7, status: .ok, globals: []))
        }
        #expect(throws: EV3DecodingError.foreignHandle) {
            try batch.read(volts, from: EV3DirectReply(counter: 7, status: .ok, globals: [0x64]))
        }
        #expect(batch.offsets(of: volts) == nil)
    }

    @Test("an empty batch or one over the globals limit is refused, so the caller splits it")
    func limits() throws {
        #expect(throws: EV3EncodingError.empty) { try EV3Batch().command(counter: 1) }
        var batch = EV3Batch()
        for _ in 0..<9 { batch.append(try .brickName(length: 127)) }
        #expect(throws: EV3EncodingError.tooManyGlobals(1143, limit: 1021)) { try batch.command(counter: 1) }
    }
}
