import BridgeCore
import Foundation
import Glibc
import Synchronization
import Support
import Harness

/// The web frontend's fan-out: pages connected to the daemon's `api` websocket while 100 lights change state
/// 10 times a second, the `/set` → state round trip of another light measured from an external MQTT client
/// next to that client's broker echo, and a page that stalled, with the daemon's memory.
struct FanoutBench {
    let broker: Broker
    let base = "bench_web"

    struct Figures {
        var echo = LatencySample()
        var setToState = LatencySample()
        var frames: [Int] = []
        var rssBefore = Double.nan, rssPeak = Double.nan, rssAfter = Double.nan
        var stalledClosed = false
        /// The `/set` messages a second the load generator sent (its target: lights × rate).
        var loadRate = Double.nan
    }

    func run(pages: Int, loaded: Int, rate: Int, samples: Int) async throws -> Figures {
        // Ten lights beside the loaded ones take the measured commands in turn, so the per-light write pacing
        // (which holds a light's next command while its write is pending) stays out of the figure.
        let probes = (1...10).map { String(format: "lifx_d073d5%06x", loaded + $0) }
        // The cloud runs in a process of its own, so the pages this process hosts do not slow its answers.
        let simulator = try await SimulatorProcess.lifx(lights: loaded + probes.count, token: "bench-token")
        let port = try LocalPorts.free()
        let yaml = TestConfig.yaml(
            port: broker.port, base: base, logLevel: "warning",
            extra: "lifx:\n  enabled: true\n  token: bench-token\n  api_url: \(simulator.baseURL)\n  poll_interval: 30s\n"
                + "frontend:\n  enabled: true\n  port: \(port)\n")
        let client = try BenchClient(port: broker.port)
        try await client.connect()
        client.client.subscribe("\(base)/bridge/devices", qos: 1)
        let process = try BridgeProcess.start(config: yaml)
        _ = try await client.waitFor(after: 0, timeout: .seconds(120)) { delivery in
            guard delivery.topic == "\(base)/bridge/devices", case .array(let list)? = try? JSONValue.parse(delivery.payload, limits: LIFXBench.devicesLimits)
            else { return false }
            return list.count >= loaded + probes.count
        }
        client.client.subscribe("bench/echo", qos: 1)
        for probe in probes { client.client.subscribe("\(base)/\(probe)", qos: 1) }
        var figures = Figures()
        let stalled = try RawSocket(port: port)
        let readers = try PageReaders(pages: pages, port: port)
        defer { readers.stop() }
        figures.rssBefore = residentMiB(pid: process.child.pid) ?? .nan
        resetPeakResident(pid: process.child.pid)
        try await withThrowingTaskGroup(of: Void.self) { group in
            let sentChanges = Mutex(0)
            let loadStart = ContinuousClock.now
            group.addTask {
                // 100 lights × 10 changes a second, in ticks of 10 ms.
                let perTick = max(1, loaded * rate / 100)
                var step = 0
                while !Task.isCancelled {
                    for _ in 0..<perTick {
                        let light = String(format: "lifx_d073d5%06x", step % loaded + 1)
                        client.client.publish(
                            "\(base)/\(light)/set", payload: Array("{\"brightness\":\(1 + step / loaded % 254)}".utf8), qos: 0,
                            retain: false)
                        step += 1
                    }
                    sentChanges.withLock { $0 = step }
                    try await Task.sleep(for: .milliseconds(10))
                }
            }
            try await Task.sleep(for: .seconds(2))
            let external = ExternalBench(broker: broker)
            for index in 0..<samples {
                figures.echo.add(try await external.echo(client, qos: 1, tag: "fanout \(index)"))
                let brightness = 10 + index % 240
                let probe = probes[index % probes.count]
                let mark = client.count
                let sent = ContinuousClock.now
                client.client.publish(
                    "\(base)/\(probe)/set", payload: Array("{\"state\":\"ON\",\"brightness\":\(brightness)}".utf8), qos: 1, retain: false)
                // The cloud keeps brightness in hundredths, so the state may round the value sent by a step.
                let state = try await client.waitFor(after: mark, what: "the probe's state") {
                    guard $0.topic == "\(base)/\(probe)", let value = JSONValue.parse($0.payload)?["brightness"]?.doubleValue else { return false }
                    return abs(value - Double(brightness)) <= 2
                }
                figures.setToState.add(state.at - sent)
            }
            figures.rssPeak = peakResidentMiB(pid: process.child.pid) ?? .nan
            figures.loadRate = Double(sentChanges.withLock { $0 }) / (ContinuousClock.now - loadStart).inSeconds
            group.cancelAll()
        }
        figures.frames = readers.frames
        figures.stalledClosed = await stalled.isClosed(within: .seconds(10))
        try await Task.sleep(for: .seconds(2))
        figures.rssAfter = residentMiB(pid: process.child.pid) ?? .nan
        _ = try await process.terminate()
        simulator.stop()
        await client.close()
        return figures
    }
}

/// A page on a raw socket: the websocket upgrade and `{"auth":""}` sent, then read by its owner, or never (a
/// stalled page, with a small receive buffer).
final class RawSocket: Sendable {
    let descriptor: Int32

    init(port: Int, receiveBuffer: Int32? = 4096) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw TestFailure("connect() failed: \(errno)") }
        let request = "GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        // The upgrade, then `{"auth":""}` as one masked text frame (mask 0: the payload as it is).
        let bytes = Array(request.utf8) + [0x81, 0x80 | 11, 0, 0, 0, 0] + Array(#"{"auth":""}"#.utf8)
        guard send(descriptor, bytes, bytes.count, 0) == bytes.count else { throw TestFailure("send() failed") }
    }

    deinit { close(descriptor) }

    /// Reads what the daemon still sends, without blocking a thread; true once it has closed the connection.
    func isClosed(within timeout: Duration) async -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count == 0 || (count < 0 && errno == ECONNRESET) { return true }
            if count < 0 { try? await Task.sleep(for: .milliseconds(20)) }
        }
        return false
    }
}
