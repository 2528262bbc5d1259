import Testing
import TestSupport

@Suite("A client that sends no whole request holds a connection only so long, at shutdown too", .timeLimit(.minutes(1)))
struct FrontendServiceStopTests {
    @Test(
        "a connection that never completes a request is closed after the grace, so the frontend stops",
        arguments: RawWebSocketClient.unfinishedRequests)
    func silentConnectionAtStop(sent: String) async throws {
        let frontend = try await FrontendHarness.start()
        let client = try RawWebSocketClient(port: frontend.port)
        try client.write(sent)
        try await Task.sleep(for: .milliseconds(200))
        let started = ContinuousClock.now
        let stopped = Flag()
        stopped.value = false
        // Without the grace the stop never returns; waiting on it here would only end at the suite's time limit.
        let stopping = Task {
            await frontend.stop()
            stopped.value = true
        }
        try await waitUntil("the frontend stopped", timeout: .seconds(15)) { stopped.value }
        #expect(ContinuousClock.now - started >= .seconds(1), "the connection gets its grace before it is closed")
        #expect(try await client.drainUntilClosed(timeout: .seconds(5)) == 0)
        await stopping.value
    }

    @Test(
        "a connection that sends no whole request in time is closed while the frontend serves on",
        arguments: RawWebSocketClient.unfinishedRequests)
    func silentConnectionWhileServing(sent: String) async throws {
        let frontend = try await FrontendHarness.start(requestTimeout: .seconds(1))
        let client = try RawWebSocketClient(port: frontend.port)
        let started = ContinuousClock.now
        try client.write(sent)
        // Without the timeout the connection stays open for as long as the client likes.
        #expect(try await client.drainUntilClosed(timeout: .seconds(10)) == 0)
        #expect(ContinuousClock.now - started >= .milliseconds(900), "closed only once its time is up")
        // The frontend goes on serving: a page connects and stays past the timeout.
        let page = try RawWebSocketClient(port: frontend.port)
        try await page.handshake(first: #"{"auth":""}"#)
        try await Task.sleep(for: .seconds(2))
        await #expect(throws: TestFailure.self, "a page whose request came is not closed by the request timeout") {
            _ = try await page.drainUntilClosed(timeout: .milliseconds(300))
        }
        page.hangUp()
        client.hangUp()
        await frontend.stop()
    }

    @Test("a connection kept open after a plain request is not closed by the request timeout")
    func keptAlive() async throws {
        // 3 s: on a loaded machine the request may be read a while after it was sent, and the timer runs from the accept.
        let frontend = try await FrontendHarness.start(requestTimeout: .seconds(3))
        let client = try RawWebSocketClient(port: frontend.port)
        let connected = ContinuousClock.now
        try client.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try await Task.sleep(until: connected + .seconds(4))
        // The answer is read, and the connection is still open (HTTP/1.1 keeps it for the next request).
        await #expect(throws: TestFailure.self, "the connection stays open between requests") {
            _ = try await client.drainUntilClosed(timeout: .milliseconds(300))
        }
        client.hangUp()
        await frontend.stop()
    }
}
