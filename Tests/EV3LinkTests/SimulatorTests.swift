import EV3Protocol
import EV3Simulator
import Glibc
import TestSupport
import Testing

/// A simulator with a raw client on a socket pair: exact bytes in, exact bytes out.
func rawBrick(_ setup: EV3SimulatorSetup = EV3SimulatorSetup()) throws -> (EV3BrickSimulator, RawClient) {
    let (brickSide, clientSide) = try socketPair(SOCK_STREAM)
    let simulator = EV3BrickSimulator(setup: setup)
    simulator.attachStream(descriptor: brickSide)
    return (simulator, RawClient(fd: clientSide))
}

/// A direct command frame around `bytecode`.
func direct(_ counter: UInt16, globals: Int, _ bytecode: String, reply: Bool = true) -> [UInt8] {
    try! EV3DirectCommand(counter: counter, replyRequested: reply, globalSize: globals, bytecode: hex(bytecode)).bytes
}

@Suite("EV3 brick simulator: the firmware's answers, byte for byte")
struct SimulatorTests {
    @Test(
        "reference vectors get the firmware's replies",
        arguments: [
            ("0C 00 2A 00 00 04 00 3A 83 01 00 00 00 60", "07 00 2A 00 02 01 00 00 00"),
            ("0B 00 2A 00 00 01 00 9A 00 00 00 00 60", "04 00 2A 00 02 00"),
            ("09 00 2A 00 00 05 00 98 04 60 64", "08 00 2A 00 02 10 1D 1E 20 00"),
            ("09 00 2A 00 00 10 00 81 0A 10 60", "13 00 2A 00 02 56 31 2E 31 30 45 00 00 00 00 00 00 00 00 00 00"),
            ("0B 00 2A 00 00 10 00 81 0A 81 10 E1 00", "13 00 2A 00 02 56 31 2E 31 30 45 00 00 00 00 00 00 00 00 00 00"),
            ("08 00 2A 00 00 01 00 81 12 60", "04 00 2A 00 02 57"),
            ("0A 00 2A 00 00 20 00 D3 0D 81 20 60", "23 00 2A 00 02 45 56 33" + String(repeating: " 00", count: 29)),
            ("09 00 2A 00 00 04 00 B3 00 01 60", "07 00 2A 00 02 00 00 00 00"),
            ("06 00 2B 00 00 00 00 00", "03 00 2B 00 04"),
            ("0D 00 2A 00 00 04 00 99 1D 00 10 07 00 01 60", "07 00 2A 00 02 00 00 00 00"),
        ])
    func vectors(command: String, reply: String) async throws {
        let (simulator, client) = try rawBrick()
        defer { simulator.stop() }
        #expect(await client.exchange(hex(command)).map { hex($0) } == reply)
    }

    @Test(
        "one refused instruction refuses the whole command: 04, and the LED before it never changes",
        arguments: [
            ("unknown opcode", "FF"), ("unknown sub-command", "82 1C 01"),
            ("32-bit output at an odd global", "3A 83 01 00 00 00 61"), ("float output at global 2", "81 01 62"),
            ("READY_PCT value at global 1 (checked as 32-bit)", "99 1B 00 00 00 3F 01 61"),
            ("a DATA8 constant of -128", "82 1B 81 80"), ("a truncated parameter", "3A 83 01 00"),
        ])
    func refusals(what: String, bad: String) async throws {
        let (simulator, client) = try rawBrick()
        defer { simulator.stop() }
        let reply = try #require(await client.exchange(direct(9, globals: 8, "82 1B 02 " + bad)))
        #expect(hex(reply) == "0B 00 09 00 04 00 00 00 00 00 00 00 00", "\(what)")
        #expect(simulator.events().isEmpty, "\(what)")
    }

    @Test("an instruction that fails ends the command there: what ran before it stays done")
    func failureMidway() async throws {
        let (simulator, client) = try rawBrick()
        defer { simulator.stop() }
        // LED 3, GET_ID for USB (refused by stock firmware), LED 4.
        let reply = try #require(await client.exchange(direct(5, globals: 4, "82 1B 03 D3 0C 01 04 60 82 1B 04")))
        #expect(reply[4] == 0x04 && reply.count == 9)
        #expect(simulator.events() == [.led(3)])
    }

    @Test("a header the brick cannot take gets the short error; an 80 command is never answered")
    func headers() async throws {
        let (simulator, client) = try rawBrick()
        defer { simulator.stop() }
        #expect(await client.exchange(hex("07 00 11 00 00 FE 03 01 01")).map { hex($0) } == "03 00 11 00 04")
        #expect(await client.exchange(hex("05 00 12 00 00 00 00")).map { hex($0) } == "03 00 12 00 04")
        client.send(direct(13, globals: 0, "82 1B 05", reply: false))
        client.send(direct(14, globals: 0, "00", reply: false))
        #expect(await client.exchange(direct(15, globals: 0, "01")).map { hex($0) } == "03 00 0F 00 02")
        #expect(simulator.events() == [.led(5)])
    }

    @Test("global memory is never cleared: bytes after a string's NUL are left from earlier commands")
    func staleMemory() async throws {
        let (simulator, client) = try rawBrick()
        defer { simulator.stop() }
        _ = await client.exchange(direct(1, globals: 8, "3A 83 41 41 41 41 60 3A 83 41 41 41 41 64"))
        var batch = EV3Batch()
        let name = batch.append(try .brickName(length: 8))
        let reply = try EV3DirectReply(frame: try #require(await client.exchange(try batch.command(counter: 2).bytes)))
        #expect(reply.globals == Array("EV3".utf8) + [0, 0x41, 0x41, 0x41, 0x41])
        #expect(try batch.read(name, from: reply) == "EV3")
    }

    @Test("empty and bad ports read the NaN sentinels, not errors")
    func sentinels() async throws {
        var setup = EV3SimulatorSetup()
        setup.sensors = [.touch, .color, .noDevice, .gyro]
        let (simulator, client) = try rawBrick(setup)
        defer { simulator.stop() }
        var batch = EV3Batch()
        let si = batch.append(try .readySI(.sensor(3)!))
        let raw = batch.append(try .readyRaw(.sensor(3)!, values: 2))
        let percent = batch.append(try .readyPct(.sensor(3)!, values: 1))
        let typeMode = batch.append(.typeMode(.sensor(3)!))
        let motorD = batch.append(try .readySI(EV3OutputPort.d.asInput))
        let gyro = batch.append(try .readySI(.sensor(4)!))
        let reply = try EV3DirectReply(frame: try #require(await client.exchange(try batch.command(counter: 3).bytes)))
        #expect(reply.status == .ok)
        #expect(try batch.read(si, from: reply) == nil && batch.read(raw, from: reply) == [nil, nil])
        #expect(try batch.read(percent, from: reply) == [nil] && batch.read(motorD, from: reply) == nil)
        #expect(try batch.read(typeMode, from: reply) == EV3TypeMode(type: .noDevice, mode: 0))
        #expect(try batch.read(gyro, from: reply) == 0)
        let badPort = try #require(await client.exchange(direct(4, globals: 4, "99 1D 00 07 00 3F 01 60")))
        #expect(hex(badPort) == "07 00 04 00 02 00 00 C0 7F")
    }

    @Test("a running motor's tacho count advances; a stopped one stays put")
    func motorsTurn() async throws {
        let (simulator, client) = try rawBrick()
        defer { simulator.stop() }
        client.send(hex("0C 00 2A 00 80 00 00 A4 00 01 14 A6 00 01"))
        try await eventually("motor A to turn") { simulator.motor(.a).tacho > 10 }
        #expect(simulator.motor(.a).speed == 20 && simulator.motor(.b).tacho == 0)
        client.send(hex("09 00 2A 00 80 00 00 A3 00 01 00"))
        try await eventually("motor A to stop") { simulator.motor(.a).speed == 0 }
        var batch = EV3Batch()
        let count = batch.append(.outputGetCount(.a))
        let reply = try EV3DirectReply(frame: try #require(await client.exchange(try batch.command(counter: 8).bytes)))
        let stopped = try #require(try batch.read(count, from: reply))
        #expect(stopped > 10 && simulator.motor(.a).tacho == stopped)
    }

    @Test("OUTPUT_READY holds its reply, and every command behind it, until the motion is over")
    func outputReadyBlocks() async throws {
        let (simulator, client) = try rawBrick()
        defer { simulator.stop() }
        // TIME_SPEED A 50 for 300 ms, then OUTPUT_READY A; then a NOP right behind it.
        client.send(direct(1, globals: 0, "AF 00 01 81 32 00 82 2C 01 00 01 AA 00 01"))
        client.send(direct(2, globals: 0, "01"))
        let first = try #require(await client.receive())
        #expect(first[2] == 1 && first[4] == 0x02)
        #expect(!simulator.motor(.a).busy && simulator.motor(.a).tacho > 0)
        #expect(try #require(await client.receive())[2] == 2)
    }

    @Test("WAIT_FOR_PRESS answers only after a button is pressed; a stalled brick answers nothing")
    func waitsAndStalls() async throws {
        let (simulator, client) = try rawBrick()
        defer { simulator.stop() }
        client.send(direct(3, globals: 0, "83 03"))
        #expect(await client.receive(within: 300) == nil)
        simulator.setButton(.enter, pressed: true)
        #expect(try #require(await client.receive())[2] == 3)
        simulator.setFault(.stall)
        client.send(direct(4, globals: 0, "01"))
        #expect(await client.receive(within: 300) == nil)
        #expect(simulator.receivedFrames().last == direct(4, globals: 0, "01"))
    }

    @Test("LIST_FILES lists the sound folder; other paths get ILLEGAL_PATH")
    func listFiles() async throws {
        let (simulator, client) = try rawBrick()
        defer { simulator.stop() }
        let listing = try EV3SystemReply(frame: try #require(await client.exchange(try EV3SystemCommand.listFiles(counter: 5, path: "../sys/ui", maxBytes: 1000).bytes)))
        let entries = EV3FileList.entries(try EV3FileList(reply: listing).data)
        #expect(entries.contains(.file(name: "Click.rsf", size: 1024, md5: String(repeating: "0", count: 32))))
        let refused = try EV3SystemReply(frame: try #require(await client.exchange(try EV3SystemCommand.listFiles(counter: 6, path: "/etc", maxBytes: 100).bytes)))
        #expect(refused.isError && refused.status == .illegalPath)
    }

    @Test("every query and instruction of the codec's catalogue passes the simulated validator, in both encodings")
    func catalogueAccepted() async throws {
        let (simulator, client) = try rawBrick()
        defer { simulator.stop() }
        var batch = EV3Batch()
        batch.append(.batteryPercent)
        batch.append(try .readyPct(.sensor(2)!, values: 3))
        batch.append(.buttonPressed(.up))
        batch.append(try .readyRaw(.sensor(2)!, values: 2))
        batch.append(.move16(-3))
        batch.append(.typeMode(EV3OutputPort.a.asInput))
        batch.append(.outputRead(.b))
        batch.append(try .readySI(.sensor(4)!, type: .gyro, mode: 1))
        batch.append(try .inputRead(.sensor(1)!))
        batch.append(try .inputReadSI(.sensor(3)!))
        batch.append(try .deviceName(.sensor(2)!, length: 12))
        batch.append(try .modeName(.sensor(2)!, mode: 2, length: 12))
        batch.append(try .deviceList(length: 4))
        batch.append(.batteryVoltage)
        batch.append(.batteryCurrent)
        batch.append(try .firmwareBuild(length: 10))
        batch.append(try .hardwareVersion(length: 6))
        batch.append(try .osVersion(length: 20))
        batch.append(try .osBuild(length: 12))
        batch.append(try .bluetoothAddress(length: 13))
        batch.append(try .outputTest(.all))
        batch.append(.led(.orangePulse))
        batch.append(try .tone(volume: 10, frequency: 440, milliseconds: 20))
        batch.append(.stopSound)
        batch.append(try .setBrickName("robot1"))
        batch.append(.inputClearAll)
        batch.append(.inputClearChanges(.sensor(1)!))
        batch.append(.nop)
        for style in [EV3EncodingStyle.compact, .legoev3] {
            let frame = try batch.command(counter: 7, style: style).bytes
            let reply = try EV3DirectReply(frame: try #require(await client.exchange(frame)))
            #expect(reply.status == .ok, "\(style)")
        }
        #expect(simulator.name == "robot1")
    }
}
