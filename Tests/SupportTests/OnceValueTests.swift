import Support
import Testing

@Suite("Values set once", .timeLimit(.minutes(1)))
struct OnceValueTests {
    @Test("the first set wins and reaches waiters from before and after it")
    func firstWins() async {
        let value = OnceValue<Int>()
        let early = Task { await value.wait() }
        try? await Task.sleep(for: .milliseconds(20))
        value.set(1)
        value.set(2)
        #expect(await early.value == 1)
        #expect(await value.wait() == 1 && value.value == 1)
    }

    @Test("a deadline that passes first gives nil; a value set in time is returned")
    func deadlines() async {
        let never = OnceValue<Void>()
        #expect(await never.wait(until: .now + .milliseconds(20)) == nil)
        let soon = OnceValue<String>()
        let waiting = Task { await soon.wait(until: .now + .seconds(30)) }
        try? await Task.sleep(for: .milliseconds(20))
        soon.set("done")
        #expect(await waiting.value == "done")
        #expect(await soon.wait(until: ContinuousClock.now - .seconds(1)) == "done")
    }

    @Test("a wait ignores cancellation: it still ends with the value or at the deadline")
    func ignoresCancellation() async {
        let value = OnceValue<Int>()
        let start = ContinuousClock.now
        let waiting = Task { await value.wait(until: start + .milliseconds(50)) }
        waiting.cancel()
        #expect(await waiting.value == nil)
        #expect(ContinuousClock.now - start >= .milliseconds(50))
        let set = Task { await value.wait(until: .now + .seconds(30)) }
        set.cancel()
        try? await Task.sleep(for: .milliseconds(20))
        value.set(3)
        #expect(await set.value == 3)
    }
}
