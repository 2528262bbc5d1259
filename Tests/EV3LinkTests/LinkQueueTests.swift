@testable import EV3Link
import EV3Protocol
import EV3Simulator
import TestSupport
import Testing
import Support

@Suite("EV3 link: the queue, stops, pacing, discovery and failures")
struct LinkQueueTests {
    /// Puts one slow request in flight (every reply `delay` late) and returns the frames received so far.
    static func busy(_ harness: LinkHarness, delay: Duration = .seconds(2)) async throws -> Int {
        try await harness.connected()
        harness.simulator.setFault(.delay(delay))
        let before = harness.simulator.receivedFrames().count
        Task { _ = try? await harness.link.send(try Poll().batch) }
        try await eventually("a request in flight") { harness.simulator.receivedFrames().count > before }
        return before + 1
    }

    @Test("a motor slider coalesces: set-points queued behind a busy brick reach it as the last one only")
    func coalescing() async throws {
        try await using(try LinkHarness.wifi(options: LinkHarness.quick(missed: 3, timeout: .seconds(5)))) { harness in
            _ = try await Self.busy(harness)
            for speed in stride(from: 5, through: 60, by: 5) { try await harness.link.enqueueMotor(.a, .run(.speed(speed))) }
            #expect(await harness.link.queuedCount == 1)
            try await eventually("the set-point at the brick") { !frames(harness.simulator, opcode: 0xA5).isEmpty }
            harness.simulator.setFault(.none)
            try await eventually("motor A running") { harness.simulator.motor(.a).speed == 60 }
            #expect(frames(harness.simulator, opcode: 0xA5).map { hex(Array($0[7...])) } == ["A5 00 01 81 3C A6 00 01"])
        }
    }

    @Test("stop jumps a full queue: it is the next frame after the one in flight, and the set-points it stops never go out")
    func stopJumpsQueue() async throws {
        try await using(try LinkHarness.wifi(options: LinkHarness.quick(missed: 3, timeout: .seconds(5)))) { harness in
            let inFlight = try await Self.busy(harness)
            let polls = (0..<6).map { _ in Task { _ = try? await harness.link.send(try Poll().batch) } }
            try await eventually("six polls queued") { await harness.link.queuedCount == 6 }
            try await harness.link.enqueueMotor(.b, .run(.power(70)))
            try await harness.link.enqueueMotor(.d, .step(.speed(20), degrees: 90, brake: true))
            try await harness.link.stopAll()
            #expect(await harness.link.queuedCount == 7)
            harness.simulator.setFault(.none)
            for poll in polls { await poll.value }
            let received = harness.simulator.receivedFrames()
            #expect(received.count == inFlight + 7)
            #expect(hex(Array(received[inFlight][7...])) == "A3 00 0F 00")
            #expect(frames(harness.simulator, opcode: 0xA4).isEmpty && frames(harness.simulator, opcode: 0xAE).isEmpty)
        }
    }

    @Test("the queue is bounded: past the limit a request is refused at once")
    func queueFull() async throws {
        try await using(try LinkHarness.wifi(options: LinkHarness.quick(missed: 3, timeout: .seconds(5)))) { harness in
            _ = try await Self.busy(harness, delay: .seconds(3))
            let queued = (0..<8).map { _ in Task { _ = try? await harness.link.send(try Poll().batch) } }
            try await eventually("eight queued") { await harness.link.queuedCount == 8 }
            await #expect(throws: EV3LinkError.queueFull(limit: 8)) { try await harness.link.send(try Poll().batch) }
            for task in queued { task.cancel() }
        }
    }

    @Test("Bluetooth (here its tty) never sends two requests less than 50 ms apart")
    func pacing() async throws {
        let simulator = EV3BrickSimulator()
        let path = try simulator.startPTY()
        try await using(LinkHarness(simulator: simulator, endpoint: .serial(path: path))) { harness in
            try await harness.connected()
            for _ in 0..<5 { _ = try await harness.link.send(try Poll().batch) }
            let sends = await harness.link.recentSends
            #expect(sends.count >= 7)
            #expect(zip(sends, sends.dropFirst()).allSatisfy { $1 - $0 >= .milliseconds(50) })
        }
    }

    @Test("a motor set-point that times out is reported as a failed command")
    func motionFailure() async throws {
        try await using(try LinkHarness.wifi(options: LinkHarness.quick(missed: 3))) { harness in
            try await harness.connected()
            harness.simulator.setFault(.stall)
            try await harness.link.enqueueMotor(.a, .run(.speed(25)))
            let event = try await harness.waitFor("a failed command") {
                if case .commandFailed = $0 { return true }
                return false
            }
            guard case .commandFailed(let what, .timedOut) = event else {
                Issue.record("unexpected \(event)")
                return
            }
            #expect(what == "motor A: run at speed 25")
        }
    }

    @Test("values the brick does not take are refused before anything is queued, and nothing goes out while disconnected")
    func refusals() async throws {
        try await using(try LinkHarness.wifi()) { harness in
            try await harness.connected()
            await #expect(throws: EV3LinkError.encoding(.outOfRange("OUTPUT_POWER power", value: 150, allowed: -100...100))) {
                try await harness.link.enqueueMotor(.a, .run(.power(150)))
            }
            await #expect(throws: EV3LinkError.encoding(.outOfRange("OUTPUT_STOP ports", value: 0, allowed: 1...15))) {
                try await harness.link.stop([], brake: true)
            }
            #expect(await harness.link.queuedCount == 0)
        }
        let nowhere = LinkHarness(simulator: EV3BrickSimulator(), endpoint: .wifi(host: "127.0.0.1", port: 1))
        try await using(nowhere) { harness in
            guard case .system(let call, _, _) = try await harness.disconnected(count: 2) else {
                Issue.record("expected a refused connect, got \(harness.events)")
                return
            }
            #expect(call == "connect")
            await #expect(throws: EV3LinkError.notConnected) { try await harness.link.stopAll() }
            await #expect(throws: EV3LinkError.notConnected) { try await harness.link.send(try Poll().batch) }
        }
    }

    @Test("a WiFi brick found by its beacon: the beacon is answered, and its serial names it without GET_ID")
    func beacon() async throws {
        let listener = try EV3BeaconListener.start(port: 0, host: "127.0.0.1")
        defer { listener.stop() }
        let simulator = EV3BrickSimulator()
        let port = try simulator.startWiFi(port: 0)
        try simulator.startBeacon(to: "127.0.0.1", port: listener.port, tcpPort: port, every: .milliseconds(200))
        var sightings = listener.sightings.makeAsyncIterator()
        let sighting = try #require(await sightings.next())
        #expect(sighting.beacon == EV3Beacon(serialNumber: "0016533f0c1e", port: port, name: "EV3"))
        #expect(sighting.host == "127.0.0.1")
        try await eventually("the beacon answered") { simulator.beaconAnswers >= 1 }
        try await using(LinkHarness(simulator: simulator, endpoint: sighting.endpoint)) { harness in
            let info = try await harness.connected()
            #expect(info.serialNumber == "0016533f0c1e")
            #expect(!simulator.receivedFrames().contains { $0.count > 8 && $0[7] == 0xD3 && $0[8] == 0x0C })
        }
    }

    @Test("Bluetooth without a kernel that has it (or without the brick) fails with a typed error, and keeps trying")
    func bluetooth() async throws {
        let endpoint = EV3Endpoint.bluetooth(try BluetoothAddress("00:16:53:3F:0C:1E"))
        var options = EV3LinkOptions.defaults(for: .bluetooth)
        options.connectTimeout = .milliseconds(500)
        try await using(LinkHarness(simulator: EV3BrickSimulator(), endpoint: endpoint, options: options)) { harness in
            let reason = try await harness.disconnected(count: 2)
            switch reason {
            case .system, .connectTimedOut: break
            default: Issue.record("unexpected \(reason)")
            }
        }
    }
}
