import Bridge
import BridgeCore
import Logging
import Testing
import TestSupport

/// The log ring and `bridge/logging`: bounded in lines, line length and queue; published live, rate-bounded.
@Suite("Log ring and bridge/logging", .timeLimit(.minutes(1)))
struct LogStreamTests {
    static func line(_ message: String, level: Logger.Level = .info) -> LogRecord {
        LogRecord(time: 1_700_000_000, level: level, namespace: "test", message: message)
    }

    @Test("the ring keeps the newest lines in order, cuts long ones, and counts what its queue cannot take")
    func ringBounds() {
        let ring = LogRing(capacity: 5, lineLimit: 20, pendingLimit: 3)
        for index in 1...8 { ring.append(Self.line("line \(index)")) }
        #expect(ring.records.map(\.message) == ["line 4", "line 5", "line 6", "line 7", "line 8"])
        let (first, dropped) = ring.takePending(limit: 2)
        #expect(first.map(\.message) == ["line 1", "line 2"])
        #expect(dropped == 5 && ring.droppedCount == 5)
        #expect(ring.takePending(limit: 10).records.map(\.message) == ["line 3"])
        #expect(ring.takePending(limit: 10) == ([], 0))
        ring.append(Self.line(String(repeating: "x", count: 100)))
        #expect(ring.records.last?.message.count == 20 && ring.records.last?.message.hasSuffix("…") == true)
    }

    @Test("a line is published on bridge/logging, not retained, with level, message and namespace")
    func published() async throws {
        let ring = LogRing()
        var options = BridgeOptions.fastForTests()
        options.logRing = ring
        let bridge = try await MemoryBridge.start(options: options)
        ring.append(LogRecord(time: 0, level: .warning, namespace: "ble", message: "Adapter lost reason=gone"))
        let message = try await bridge.waitForPublish("t2m/bridge/logging", timeout: .seconds(5)) {
            $0.json?["message"] == "Adapter lost reason=gone"
        }
        #expect(!message.retain)
        #expect(message.json == ["level": "warning", "message": "Adapter lost reason=gone", "namespace": "ble"])
        await bridge.stop()
    }

    @Test("a log storm is published at a bounded rate, the rest counted and reported, and the bridge keeps answering")
    func storm() async throws {
        let ring = LogRing(pendingLimit: 100)
        var options = BridgeOptions.fastForTests()
        options.logRing = ring
        let bridge = try await MemoryBridge.start(options: options)
        let mark = bridge.transport.mark
        let started = ContinuousClock.now
        for index in 0..<20_000 { ring.append(Self.line("storm \(index)")) }
        let answer = try await bridge.request("health_check")
        #expect(answer["status"] == "ok")
        #expect(ContinuousClock.now - started < .seconds(5))
        let report = try await bridge.waitForPublish("t2m/bridge/logging", after: mark, timeout: .seconds(5)) {
            $0.json?["message"]?.stringValue?.contains("were not published") == true
        }
        #expect(report.json?["level"] == "warning")
        try await Task.sleep(for: .seconds(1))
        let lines = bridge.transport.published.dropFirst(mark).filter { $0.topic == "t2m/bridge/logging" }
        let elapsed = Double((ContinuousClock.now - started).components.seconds) + 1
        // The queue's 100 lines plus 100 a second, and one report for each batch at most.
        #expect(lines.count <= 100 + Int(elapsed * 110), "\(lines.count) lines in \(elapsed) s")
        #expect(ring.droppedCount >= 19_000)
        #expect(ring.records.count == 1000 && ring.records.last?.message == "storm 19999")
        await bridge.stop()
    }
}
