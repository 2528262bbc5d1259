import Bridge
import BridgeConfig
import Logging
import ServiceLifecycle
import UnixSignals

#if canImport(Glibc)
import Glibc
#endif

/// Re-reads the config file on SIGHUP and hands it to the bridge.
struct ReloadService: Service {
    let configPath: String
    let inbox: BridgeInbox
    let logger: Logger

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        // A SIGHUP that came during start-up was only noted; now the sequence takes it.
        StartupSignals.replay([SIGHUP])
        for await _ in signals.cancelOnGracefulShutdown() {
            logger.info("SIGHUP: reloading config", metadata: ["file": "\(configPath)"])
            do throws(ConfigErrors) {
                inbox.send(.reload(try ConfigLoader.load(file: configPath, families: Families.sections)))
            } catch {
                inbox.send(.reloadFailed(error.description))
            }
        }
    }
}
