import Testing
import TestSupport

@Suite("The frontend's stop is bounded whatever its clients do", .timeLimit(.minutes(1)))
struct FrontendServiceStopTests {
    @Test(
        "a connection that never completes a request is closed after the grace, so the frontend stops",
        arguments: RawWebSocketClient.unfinishedRequests)
    func silentConnection(sent: String) async throws {
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
}
