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

    @Test("a request whose body trickles in is closed once its time is up, however often a byte comes")
    func tricklingBody() async throws {
        let frontend = try await FrontendHarness.start(requestTimeout: .seconds(1))
        let client = try RawWebSocketClient(port: frontend.port)
        let started = ContinuousClock.now
        try client.write("POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000\r\n\r\n")
        // A byte every 100 ms: each read would start an idle timer again.
        var closed = false
        while !closed, ContinuousClock.now - started < .seconds(15) {
            try? client.write("x")
            closed = (try? await client.drainUntilClosed(timeout: .milliseconds(100))) != nil
        }
        let elapsed = ContinuousClock.now - started
        #expect(closed, "the connection is closed while its body still trickles in")
        #expect(elapsed >= .milliseconds(900), "closed only once its time is up")
        client.hangUp()
        await frontend.stop()
    }

    @Test("past the limit of open connections a new one is answered 503 and closed, and one gets in once a place is free")
    func connectionLimit() async throws {
        let frontend = try await FrontendHarness.start(maxConnections: 3)
        // Three clients that have had an answer hold every place: HTTP/1.1 keeps each connection for the next request
        // (ones that have asked nothing yet would be closed to make room).
        var held = try (0..<3).map { _ in try RawWebSocketClient(port: frontend.port) }
        for client in held { try client.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") }
        try await Task.sleep(for: .milliseconds(300))
        let refused = try RawWebSocketClient(port: frontend.port)
        let answer = String(decoding: try await refused.receiveUntilClosed(timeout: .seconds(5)), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 503 "), "the fourth connection is told why: \(answer)")
        #expect(answer.contains("too many connections"), "\(answer)")
        // A client that sent its request before it was refused reads the answer too: the request is read and
        // dropped, so the close does not reset the connection under it.
        let asking = try RawWebSocketClient(port: frontend.port)
        try asking.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let reply = String(decoding: try await asking.receiveUntilClosed(timeout: .seconds(5)), as: UTF8.self)
        #expect(reply.hasPrefix("HTTP/1.1 503 "), "\(reply)")
        held.removeFirst().hangUp()
        // The place is given back once the server sees the hang-up.
        // Fails unless a request is answered within the time.
        _ = try await waitForValue("a connection served after a place came free", timeout: .seconds(10)) { () -> Int? in
            let client = try RawWebSocketClient(port: frontend.port)
            try client.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let count = (try? await client.drainUntilClosed(timeout: .seconds(2))) ?? 0
            return count > 0 ? count : nil
        }
        for client in held { client.hangUp() }
        await frontend.stop()
    }

    @Test("a flood past the limit gets a bounded number of answers, and every refused connection is closed")
    func refusalFlood() async throws {
        let frontend = try await FrontendHarness.start(maxConnections: 1)
        let held = try RawWebSocketClient(port: frontend.port)
        try held.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try await Task.sleep(for: .milliseconds(300))
        // All connect before any reads: those answered stay open up to a second each for their answer, and only
        // so many may at once (16); the rest are closed without one.
        let flood = try (0..<40).map { _ in try RawWebSocketClient(port: frontend.port) }
        var answered = 0
        for client in flood where !(try await client.receiveUntilClosed(timeout: .seconds(5))).isEmpty {
            answered += 1
        }
        #expect(answered >= 1, "refused connections are told why")
        #expect(answered < flood.count, "not every one of a flood is answered: \(answered)")
        held.hangUp()
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
