import Foundation
import Support
import Synchronization
import Testing

@Suite struct DetachedThreadTests {
    @Test func runsTheBodyOnANamedThreadOfItsOwn() async throws {
        let seen = Mutex<(ran: Bool, name: String?)>((false, nil))
        let release = Mutex(false)
        DetachedThread.start(name: "t2m test thread name") {
            let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
            seen.withLock { $0 = (true, name?.trimmingCharacters(in: .newlines)) }
            while !release.withLock({ $0 }) { usleep(1000) }
        }
        let deadline = ContinuousClock.now + .seconds(5)
        while !seen.withLock({ $0.ran }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(seen.withLock { $0.name } == "t2m test thread")
        // The name is what `top -H` and /proc show for the thread while it runs.
        let names = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").compactMap {
            try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8)
        }
        #expect(names.contains("t2m test thread\n"))
        release.withLock { $0 = true }
    }
}
