import BridgeCore
import EV3Link
import EV3Protocol
import EV3Simulator
import Logging
import Support

/// The most polls one brick link sustains over TCP: the poll the driver sends for a brick with three motors and
/// four sensors (battery, name, buttons, GET_TYPEMODE on eight ports, the motors' speed and tacho, each sensor's
/// value), sent back to back through `EV3Link` to the simulator on 127.0.0.1.
enum EV3LinkBench {
    /// Polls per second over `seconds`, and the size of one poll's command and reply in bytes.
    static func pollsPerSecond(seconds: Double) async throws -> (rate: Double, command: Int, reply: Int) {
        let simulator = EV3BrickSimulator()
        let port = try simulator.startWiFi(port: 0)
        let link = EV3Link(endpoint: .wifi(host: "127.0.0.1", port: port), logger: Logger(label: "bench"))
        defer { simulator.stop() }
        return try await withThrowingTaskGroup(of: Void.self, returning: (rate: Double, command: Int, reply: Int).self) { group in
            group.addTask { await link.run(backoff: Backoff(initial: .milliseconds(50), maximum: .seconds(1))) }
            defer { group.cancelAll() }
            let deadline = ContinuousClock.now + .seconds(10)
            while !(await link.isConnected) {
                guard ContinuousClock.now < deadline else { throw BenchError("the simulated brick did not connect") }
                try await Task.sleep(for: .milliseconds(10))
            }
            let batch = try poll()
            let command = try batch.command(counter: 1).bytes.count
            var polls = 0
            let started = ContinuousClock.now
            while (ContinuousClock.now - started).inSeconds < seconds {
                let reply = try await link.send(batch)
                guard reply.status == .ok else { throw BenchError("the brick refused the poll") }
                polls += 1
            }
            let elapsed = (ContinuousClock.now - started).inSeconds
            return (Double(polls) / elapsed, command, 5 + batch.globalSize)
        }
    }

    /// The same groups the driver puts into one poll.
    private static func poll() throws -> EV3Batch {
        var batch = EV3Batch()
        batch.append(.batteryPercent)
        batch.append(.batteryVoltage)
        batch.append(.batteryCurrent)
        batch.append(try .brickName(length: 13))
        for button in EV3Button.allCases { batch.append(.buttonPressed(button)) }
        for port in EV3OutputPort.allCases {
            batch.append(.typeMode(port.asInput))
            if port != .d { batch.append(.outputRead(port)) }
        }
        for port in EV3InputPort.sensors {
            batch.append(.typeMode(port))
            batch.append(try .readySI(port, values: 1))
        }
        return batch
    }
}
