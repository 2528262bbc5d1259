import Synchronization

/// How many pages may hold the websocket at once: each may hold a full buffer of the tap's messages, so
/// their number is bounded too.
final class SocketGate: Sendable {
    private let open = Mutex(0)
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Takes a place; false when all are taken.
    func enter() -> Bool {
        open.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Gives a place back.
    func leave() { open.withLock { $0 -= 1 } }
}
