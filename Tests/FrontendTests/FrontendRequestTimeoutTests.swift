import Testing
import TestSupport

@Suite("A connection must send its first request in time; one that did stays", .timeLimit(.minutes(1)))
struct FrontendRequestTimeoutTests {
    @Test(
        "a connection that sends no whole request in time is closed while the frontend serves on",
        arguments: RawWebSocketClient.unfinishedRequests)
    func silentConnection(sent: String) async throws {
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
