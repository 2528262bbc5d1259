@testable import EV3Link
import EV3Protocol
import EV3Simulator
import Glibc
import Testing

/// Runs `body` and always stops the harness afterwards.
func using(_ harness: LinkHarness, _ body: (LinkHarness) async throws -> Void) async throws {
    do {
        try await body(harness)
    } catch {
        await harness.stop()
        throw error
    }
    await harness.stop()
}

/// A poll a driver might send, and how to read it.
struct Poll {
    var batch = EV3Batch()
    let battery: EV3Handle<Int8>
    let colour: EV3Handle<EV3TypeMode>
    let motor: EV3Handle<EV3MotorReading>
    let distance: EV3Handle<Float?>

    init() throws {
        battery = batch.append(.batteryPercent)
        colour = batch.append(.typeMode(.sensor(2)!))
        motor = batch.append(.outputRead(.a))
        distance = batch.append(try .readySI(.sensor(3)!))
    }
}

@Suite("EV3 link against the simulated brick")
struct LinkTests {
    @Test("over WiFi: unlock, the brick's identity, and a poll that arrives byte for byte with counters from 1")
    func wifi() async throws {
        try await using(try LinkHarness.wifi()) { harness in
            let info = try await harness.connected()
            #expect(info == EV3BrickInfo(
                serialNumber: "0016533f0c1e", name: "EV3", firmwareVersion: "V1.10E", firmwareBuild: "1803",
                hardwareVersion: "V0.60", transport: .wifi))
            let poll = try Poll()
            let reply = try await harness.link.send(poll.batch)
            #expect(try poll.batch.read(poll.battery, from: reply) == 87)
            #expect(try poll.batch.read(poll.colour, from: reply) == EV3TypeMode(type: .color, mode: 0))
            #expect(try poll.batch.read(poll.motor, from: reply) == EV3MotorReading(speed: 0, tacho: 0))
            #expect(try poll.batch.read(poll.distance, from: reply) == 25.5)
            let received = harness.simulator.receivedFrames()
            #expect(received.last == (try poll.batch.command(counter: reply.counter).bytes))
            #expect(received.map { UInt16($0[2]) | UInt16($0[3]) << 8 } == Array(1...UInt16(received.count)))
            let listing = try await harness.link.send(try EV3SystemCommand.listFiles(counter: 0, path: "../sys/ui", maxBytes: 500))
            #expect(!listing.isError && listing.code == .listFiles)
        }
    }

    @Test("over a pty in raw mode: bytes a cooked tty would eat (CR, LF, DEL, ^D, ^S, ^C) pass untouched")
    func pty() async throws {
        let simulator = EV3BrickSimulator()
        let path = try simulator.startPTY()
        try await using(LinkHarness(simulator: simulator, endpoint: .serial(path: path))) { harness in
            #expect(try await harness.connected().serialNumber == "0016533f0c1e")
            var batch = EV3Batch()
            let word = batch.append(.move32(Int32(bitPattern: 0x0D0A_7F04)))
            let short = batch.append(.move16(0x1303))
            let reply = try await harness.link.send(batch)
            #expect(try batch.read(word, from: reply) == Int32(bitPattern: 0x0D0A_7F04))
            #expect(try batch.read(short, from: reply) == 0x1303)
        }
    }

    @Test("over USB reports (a SOCK_SEQPACKET pair): 1025 bytes out, 1024 in, frames cut by their length")
    func usb() async throws {
        let (brickSide, linkSide) = try socketPair(SOCK_SEQPACKET)
        let simulator = EV3BrickSimulator()
        simulator.attachUSB(descriptor: brickSide)
        try await using(LinkHarness(simulator: simulator, endpoint: .usbReports(descriptor: linkSide))) { harness in
            #expect(try await harness.connected().transport == .usb)
            let poll = try Poll()
            let reply = try await harness.link.send(poll.batch)
            #expect(try poll.batch.read(poll.distance, from: reply) == 25.5)
            #expect(harness.simulator.receivedFrames().last == (try poll.batch.command(counter: reply.counter).bytes))
        }
    }

    @Test("a stalled brick: each request times out, two in a row drop the link, and it comes back by itself")
    func stall() async throws {
        try await using(try LinkHarness.wifi(options: LinkHarness.quick(missed: 2))) { harness in
            try await harness.connected()
            harness.simulator.setFault(.stall)
            let poll = try Poll()
            for _ in 0..<2 {
                await #expect {
                    _ = try await harness.link.send(poll.batch)
                } throws: { error in
                    if case .timedOut = error as? EV3LinkError { return true }
                    return false
                }
            }
            #expect(try await harness.disconnected() == .stoppedAnswering(missed: 2))
            harness.simulator.setFault(.none)
            try await harness.connected(count: 2)
            #expect(try await harness.link.send(poll.batch).status == .ok)
        }
    }

    @Test("a late reply and one with an unknown counter are dropped; the next request gets its own reply")
    func lateAndUnknownReplies() async throws {
        try await using(try LinkHarness.wifi(options: LinkHarness.quick(missed: 3))) { harness in
            try await harness.connected()
            let poll = try Poll()
            harness.simulator.setFault(.delay(.seconds(3)))
            await #expect(throws: EV3LinkError.self) { try await harness.link.send(poll.batch) }
            try await eventually("the late reply") { await harness.link.droppedReplies == 1 }
            harness.simulator.setFault(.wrongCounter)
            await #expect(throws: EV3LinkError.self) { try await harness.link.send(poll.batch) }
            #expect(await harness.link.droppedReplies == 2)
            harness.simulator.setFault(.none)
            let reply = try await harness.link.send(poll.batch)
            #expect(reply.status == .ok)
            #expect(harness.simulator.receivedFrames().last.map { UInt16($0[2]) | UInt16($0[3]) << 8 } == reply.counter)
            #expect(!harness.events.contains { if case .disconnected = $0 { true } else { false } })
        }
    }

    @Test("a brick that answers garbage loses the link (out of step) and reconnects when it behaves")
    func garbage() async throws {
        try await using(try LinkHarness.wifi(options: LinkHarness.quick())) { harness in
            try await harness.connected()
            harness.simulator.setFault(.garbage)
            await #expect(throws: EV3LinkError.self) { try await harness.link.send(try Poll().batch) }
            guard case .outOfStep = try await harness.disconnected() else {
                Issue.record("expected outOfStep, got \(harness.events)")
                return
            }
            harness.simulator.setFault(.none)
            try await harness.connected(count: 2)
        }
    }

    @Test("motion queued when the brick stops answering is dropped, not replayed after the reconnect")
    func noStaleMotionAfterTimeout() async throws {
        try await using(try LinkHarness.wifi(options: LinkHarness.quick(missed: 1, timeout: .seconds(2)))) { harness in
            try await harness.connected()
            harness.simulator.setFault(.stall)
            let poll = try Poll()
            let request = Task { try await harness.link.send(poll.batch) }
            try await eventually("the poll in flight") { await harness.link.queuedCount == 0 && harness.simulator.receivedFrames().count >= 3 }
            try await harness.link.enqueueMotor(.a, .run(.speed(40)))
            try await harness.link.enqueueMotor(.b, .timed(.power(-30), milliseconds: 2000, brake: true))
            _ = await request.result
            #expect(try await harness.disconnected() == .stoppedAnswering(missed: 1))
            await #expect(throws: EV3LinkError.notConnected) { try await harness.link.enqueueMotor(.a, .run(.speed(40))) }
            harness.simulator.setFault(.none)
            try await harness.connected(count: 2)
            _ = try await harness.link.send(poll.batch)
            #expect(frames(harness.simulator, opcode: 0xA5).isEmpty && frames(harness.simulator, opcode: 0xAD).isEmpty)
            #expect(harness.simulator.motor(.a).speed == 0 && harness.simulator.motor(.b).speed == 0)
        }
    }

    @Test("a link dropped by the brick fails the request in flight, drops queued motion, and reconnects")
    func droppedLink() async throws {
        try await using(try LinkHarness.wifi(options: LinkHarness.quick(missed: 5, timeout: .seconds(5)))) { harness in
            try await harness.connected()
            harness.simulator.setFault(.stall)
            let request = Task { try await harness.link.send(try Poll().batch) }
            try await eventually("the poll in flight") { await harness.link.queuedCount == 0 && harness.simulator.receivedFrames().count >= 3 }
            try await harness.link.enqueueMotor(.c, .run(.power(60)))
            harness.simulator.dropConnections()
            #expect(await request.result.error as? EV3LinkError == .closedByPeer)
            #expect(try await harness.disconnected() == .closedByPeer)
            harness.simulator.setFault(.none)
            try await harness.connected(count: 2)
            _ = try await harness.link.send(try Poll().batch)
            #expect(frames(harness.simulator, opcode: 0xA4).isEmpty && harness.simulator.motor(.c).speed == 0)
        }
    }
}

extension Result {
    /// The failure, if any.
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
