public import Foundation
public import Logging
import Synchronization

/// An in-process fake of the LIFX cloud HTTP API (https://api.lifx.com/v1) for demos, tests and benchmarks.
public final class LIFXCloudSimulator: Sendable {
    let state: Mutex<SimulatorState>
    let server = Mutex<ServerStatus>(.idle)
    let connections = ConnectionRegistry()
    let logger: Logger

    /// Creates a simulator holding `lights` and `scenes`, accepting `token`, limited to `rateLimit` requests per `rateWindow`.
    public init(
        token: String,
        lights: [SimulatedLight],
        scenes: [SimulatedScene] = [],
        rateLimit: Int = 120,
        rateWindow: Duration = .seconds(60),
        logger: Logger = Logger(label: "lifx-simulator")
    ) {
        let (seconds, attoseconds) = rateWindow.components
        let window = Double(seconds) + Double(attoseconds) / 1e18
        self.state = Mutex(SimulatorState(
            token: token,
            lights: lights,
            scenes: scenes,
            limiter: RateLimiter(limit: rateLimit, window: window)
        ))
        self.logger = logger
    }

    /// Handles one request against the shared state; the HTTP layer calls this.
    func process(_ request: IncomingRequest) -> APIResponse {
        let response = state.withLock { $0.handle(request, now: Date()) }
        logger.debug("\(request.method) \(request.uri) -> \(response.status)")
        return response
    }

    /// The delay the HTTP layer waits before answering.
    func currentLatency() -> Duration {
        state.withLock { $0.latency }
    }

    // MARK: Inspection

    /// Every answered request, oldest first (bounded by the history limit).
    public func requests() -> [RecordedRequest] {
        state.withLock { $0.requests }
    }

    /// Forgets the recorded requests.
    public func clearRequests() {
        state.withLock { $0.requests.removeAll() }
    }

    /// Caps how many requests are kept, dropping the oldest; long benchmarks would otherwise grow without bound.
    public func setRequestHistoryLimit(_ limit: Int) {
        state.withLock { $0.requestHistoryLimit = max(1, limit) }
    }

    /// A snapshot of all lights in account order.
    public func lights() -> [SimulatedLight] {
        state.withLock { $0.lights }
    }

    /// A snapshot of one light, or nil if the account has no such id.
    public func light(id: String) -> SimulatedLight? {
        state.withLock { $0.lights.first { $0.id == id } }
    }

    /// A snapshot of the account's scenes.
    public func scenes() -> [SimulatedScene] {
        state.withLock { $0.scenes }
    }

    /// Polls every 10 ms until at least `count` recorded requests satisfy `predicate`; returns all of them, oldest first.
    public func waitForRequests(
        count: Int,
        where predicate: @Sendable (RecordedRequest) -> Bool = { _ in true },
        timeout: Duration = .seconds(5)
    ) async throws -> [RecordedRequest] {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let matched = requests().filter(predicate)
            if matched.count >= count { return matched }
            guard clock.now < deadline else {
                throw SimulatorError.timedOut(expected: count, matched: matched.count)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    // MARK: Mutation and fault injection

    /// Changes a light as a wall switch or the phone app would; `connected = false` takes it offline.
    ///
    /// `change` runs under the state lock, so it must not call back into the simulator.
    public func updateLight(id: String, _ change: @Sendable (inout SimulatedLight) -> Void) {
        state.withLock { state in
            guard let index = state.lights.firstIndex(where: { $0.id == id }) else { return }
            let before = state.lights[index]
            change(&state.lights[index])
            state.lights[index].normalise()
            // Going offline freezes "last seen" at that moment unless the caller chose a time.
            if before.connected, !state.lights[index].connected, before.lastSeen == state.lights[index].lastSeen {
                state.lights[index].lastSeen = Date()
            }
        }
    }

    /// Adds a light to the account, as if it were just paired.
    public func addLight(_ light: SimulatedLight) {
        state.withLock { $0.lights.append(light) }
    }

    /// Removes a light from the account.
    public func removeLight(id: String) {
        state.withLock { $0.lights.removeAll { $0.id == id } }
    }

    /// Answers the next `count` authenticated requests with `status` and an error body instead of handling them.
    public func failNext(_ count: Int, status: Int) {
        state.withLock {
            $0.pendingFailures = max(0, count)
            $0.failureStatus = status
        }
    }

    /// Answers every request with 429 until `resetAt` (by this host's clock), advertising that time in
    /// X-RateLimit-Reset on the simulated cloud's clock.
    public func rateLimit(until resetAt: Date) {
        state.withLock { $0.limiter.forcedUntil = resetAt }
    }

    /// Sets the simulated cloud's clock `offset` (whole seconds) ahead of this host's (negative: behind),
    /// as its `Date` and `X-RateLimit-Reset` headers show, to try clients against a skewed clock.
    public func setClockOffset(_ offset: Duration) {
        state.withLock { $0.clockOffset = Int(offset.components.seconds) }
    }

    /// Delays every answer by `latency` without blocking any thread.
    public func setLatency(_ latency: Duration) {
        state.withLock { $0.latency = max(.zero, latency) }
    }

    /// Rotates the accepted token; clients still using the old one get 401.
    public func setToken(_ token: String) {
        state.withLock { $0.token = token }
    }
}

/// Failures reported by the simulator's own API (not HTTP answers).
public enum SimulatorError: Error, Sendable, Equatable {
    /// `start` was called while already started.
    case alreadyRunning
    /// `waitForRequests` saw only `matched` of the `expected` requests in time.
    case timedOut(expected: Int, matched: Int)
}
