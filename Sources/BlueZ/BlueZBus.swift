public import DBus
import Logging

/// BlueZ on one bus connection, the part any task may hold: its method calls, and the feed that puts BlueZ's
/// signals and owner changes into the client's mailbox (run as a child task of whoever follows BlueZ).
public struct BlueZBus: Sendable {
    public static let busName = "org.bluez"
    let connection: DBusConnection
    let mailbox: SignalMailbox
    let logger: Logger

    /// Subscribes to BlueZ's signals (before anything is listed, so nothing in between is missed), then follows
    /// the owner of `org.bluez` until cancelled or the connection closes; the client's `next()` ends after.
    public func follow() async {
        defer { mailbox.finish() }
        let end: @Sendable () -> Void
        let owners: AsyncStream<String?>
        do {
            end = try await connection.subscribe(DBusMatchRule(sender: Self.busName), into: mailbox)
            owners = try await connection.watchNameOwner(Self.busName)
        } catch {
            logger.error("Cannot follow BlueZ on D-Bus", metadata: ["error": "\(error)"])
            mailbox.note(.failed(error.description))
            return
        }
        defer { end() }
        for await owner in owners { mailbox.note(.owner(owner)) }
    }

    /// Ends the client's `next()` although the connection is still open.
    public func end() { mailbox.finish() }

    /// Calls a BlueZ method; BlueZ's error names (`org.bluez.Error.InProgress`, …) come back in the error.
    public func call(
        _ path: String, _ interface: String, _ method: String, _ arguments: [DBusValue] = [],
        timeout: Duration = .seconds(10)
    ) async throws(DBusError) -> [DBusValue] {
        try await connection.call(
            destination: Self.busName, path: path, interface: interface, method: method, arguments: arguments,
            timeout: timeout)
    }

    /// The current owner of `org.bluez`, if any.
    func owner() async -> String? { try? await connection.nameOwner(Self.busName) }
}
