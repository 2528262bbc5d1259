import Support
import Testing

@Suite("The pause between polls", .timeLimit(.minutes(1)))
struct PollPauseTests {
    @Test("a wake ends an hour's pause, whether it comes before or during it; a cancelled pause says so")
    func wakes() async {
        let pause = PollPause()
        pause.wake()
        #expect(await pause.wait(.seconds(3600)))

        let waiting = Task { await pause.wait(.seconds(3600)) }
        // Most likely in the pause by now; if not, the wake is kept for it.
        try? await Task.sleep(for: .milliseconds(20))
        pause.wake()
        #expect(await waiting.value)

        let cancelled = Task { await pause.wait(.seconds(3600)) }
        cancelled.cancel()
        #expect(await cancelled.value == false)
    }
}
