import Logging
import ServiceLifecycle

/// Keeps the status file: rewritten within a second of the broker connection changing, refreshed every
/// `refresh` once the bridge's queue has turned (so a hung bridge leaves a stale file), and `stopped` at
/// shutdown.
struct StatusFileService: Service, CustomStringConvertible {
    let file: StatusFile
    let isConnected: @Sendable () -> Bool
    let bridgeResponds: @Sendable () async -> Void
    let logger: Logger
    var refresh: Duration = .seconds(10)

    var description: String { "StatusFileService(\(file.path))" }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var written: StatusFile.State?
            var lastWrite = ContinuousClock.now
            var failing = false
            while !Task.isCancelled {
                let state: StatusFile.State = isConnected() ? .connected : .connecting
                if state != written || ContinuousClock.now - lastWrite >= refresh {
                    await bridgeResponds()
                    failing = !write(state, warn: !failing)
                    written = state
                    lastWrite = .now
                }
                // Polled rather than pushed: one mutex read a second costs nothing, and health checks run
                // every few seconds at best.
                guard (try? await Task.sleep(for: .seconds(1))) != nil else { break }
            }
        }
        write(.stopped, warn: true)
    }

    /// Writes the file; a failure is logged once, not at every refresh.
    @discardableResult
    private func write(_ state: StatusFile.State, warn: Bool) -> Bool {
        do {
            try file.write(state)
            return true
        } catch {
            if warn {
                logger.warning(
                    "Cannot write the status file", metadata: ["file": "\(file.path)", "error": "\(error)"])
            }
            return false
        }
    }
}
