import CDBus
import Synchronization

/// The sockets and timers libdbus asks the loop to wait on. Its add/remove/toggle callbacks run on the loop
/// thread inside libdbus calls, with the connection lock held, so they only record what changed and never
/// call back into the connection; the loop reads the tables before each poll.
final class WatchTables: Sendable {
    private struct State {
        var watches: [LoopPointer] = []
        /// Each timer's next expiry; nil while libdbus has it disabled.
        var timers: [LoopPointer: ContinuousClock.Instant?] = [:]
    }

    private let state = Mutex(State())

    /// Installs the callbacks on a connection; the connection keeps the tables alive until it is finalised.
    static func install(on connection: OpaquePointer) -> WatchTables? {
        let tables = WatchTables()
        let watchData = Unmanaged.passRetained(tables).toOpaque()
        let watchesSet = dbus_connection_set_watch_functions(
            connection,
            { watch, data in
                guard let watch, let data else { return 0 }
                WatchTables.from(data).state.withLock { $0.watches.append(LoopPointer(raw: watch)) }
                return 1
            },
            { watch, data in
                guard let watch, let data else { return }
                WatchTables.from(data).state.withLock { $0.watches.removeAll { $0.raw == watch } }
            },
            nil,  // The loop reads each watch's enabled flag and events before every poll.
            watchData,
            { data in if let data { Unmanaged<WatchTables>.fromOpaque(data).release() } })
        guard watchesSet != 0 else {
            Unmanaged<WatchTables>.fromOpaque(watchData).release()
            return nil
        }
        let timerData = Unmanaged.passRetained(tables).toOpaque()
        let timersSet = dbus_connection_set_timeout_functions(
            connection,
            { timeout, data in
                guard let timeout, let data else { return 0 }
                WatchTables.from(data).arm(LoopPointer(raw: timeout))
                return 1
            },
            { timeout, data in
                guard let timeout, let data else { return }
                WatchTables.from(data).state.withLock { _ = $0.timers.removeValue(forKey: LoopPointer(raw: timeout)) }
            },
            { timeout, data in
                guard let timeout, let data else { return }
                WatchTables.from(data).arm(LoopPointer(raw: timeout))
            },
            timerData,
            { data in if let data { Unmanaged<WatchTables>.fromOpaque(data).release() } })
        guard timersSet != 0 else {
            Unmanaged<WatchTables>.fromOpaque(timerData).release()
            return nil
        }
        return tables
    }

    private static func from(_ data: UnsafeMutableRawPointer) -> WatchTables {
        Unmanaged<WatchTables>.fromOpaque(data).takeUnretainedValue()
    }

    /// Starts (or restarts) a timer's interval from now, or parks it while disabled.
    func arm(_ timer: LoopPointer) {
        let enabled = dbus_timeout_get_enabled(timer.raw) != 0
        let deadline = ContinuousClock.now + .milliseconds(Int64(dbus_timeout_get_interval(timer.raw)))
        state.withLock { $0.timers[timer] = enabled ? deadline : nil }
    }

    /// The current watches and the earliest timer expiry.
    func snapshot() -> (watches: [LoopPointer], nextDeadline: ContinuousClock.Instant?) {
        state.withLock { state in (state.watches, state.timers.values.compactMap { $0 }.min()) }
    }

    /// Whether libdbus still has this watch (handling one watch may remove others).
    func contains(watch: LoopPointer) -> Bool { state.withLock { $0.watches.contains(watch) } }

    /// Whether libdbus still has this timer.
    func contains(timer: LoopPointer) -> Bool { state.withLock { $0.timers[timer] != nil } }

    /// The timers whose expiry has passed.
    func expired(at now: ContinuousClock.Instant) -> [LoopPointer] {
        state.withLock { state in
            state.timers.compactMap { timer, deadline in
                guard let deadline, deadline <= now else { return nil }
                return timer
            }
        }
    }
}
