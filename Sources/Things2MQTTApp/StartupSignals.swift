import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Keeps the daemon's signals from being lost between process start and the moment the service group
/// installs its handlers.
///
/// swift-service-lifecycle traps SIGTERM and SIGINT only once `ServiceGroup.run()` begins, after the config is
/// loaded and the clients are built. Until then the default action applies: an ordinary process dies without
/// saying `offline`, and a container's PID 1 (for which the kernel drops signals that have no handler)
/// ignores the signal, so `docker stop` waits for its timeout and then kills the bridge, leaving the broker to
/// publish the will. Blocking the signals would not help: libdispatch parks the main thread in `sigsuspend`
/// with an empty mask. So a handler notes them instead, and they are sent again once the real handlers are in
/// place: SIGTERM and SIGINT by `StartupSignalsService`, SIGHUP by the reload service.
public enum StartupSignals {
    /// Installs the noting handler for SIGTERM, SIGINT and SIGHUP; call it first thing in `main`.
    public static func hold() {
        // Touched here so the handler never runs the global's lazy initialiser, which is not signal-safe.
        _ = heldSignals.load(ordering: .relaxed)
        for signal in [SIGTERM, SIGINT, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = noteSignal
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
        }
    }

    /// Gives SIGTERM, SIGINT and SIGHUP their default actions back (for a command other than the daemon) and
    /// sends any that arrived while held again, so they act as if they had never been held.
    public static func release() {
        for signal in [SIGTERM, SIGINT, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = SIG_DFL
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
        replay([SIGTERM, SIGINT, SIGHUP])
    }

    /// Sends each of `signals` that arrived while held to this process again, now that a real handler takes it.
    static func replay(_ signals: [Int32]) {
        for signal in signals {
            let bit = UInt64(1) << UInt64(signal)
            if heldSignals.bitwiseAnd(~bit, ordering: .acquiringAndReleasing).oldValue & bit != 0 {
                kill(getpid(), signal)
            }
        }
    }
}

/// Signals noted while held, one bit per signal number.
private let heldSignals = Atomic<UInt64>(0)

/// The held signals' handler: only an atomic store, which is async-signal-safe.
private func noteSignal(_ signal: Int32) {
    heldSignals.bitwiseOr(UInt64(1) << UInt64(signal), ordering: .acquiringAndReleasing)
}

/// The first service of the group: by the time it runs the group traps SIGTERM and SIGINT, so a stop that was
/// asked for during start-up is passed on to it.
struct StartupSignalsService: Service, CustomStringConvertible {
    var description: String { "StartupSignalsService" }

    func run() async throws {
        StartupSignals.replay([SIGTERM, SIGINT])
        try? await gracefulShutdown()
    }
}
