public import DBus
import Foundation
import Synchronization

/// The BlueZ stand-in on a private bus: python-dbusmock with the project's template
/// (`Tests/bluez/bluez_things.py`), driven through its `org.bluez.Mock` methods. `restart()` plays
/// bluetoothd going away and coming back.
public final class BlueZStandIn: Sendable {
    /// The private bus; the bridge reaches it as its system bus.
    public let daemon: DBusDaemon
    /// A connection the test drives the mock with.
    public let control: DBusConnection
    private let process = Mutex<ChildProcess?>(nil)
    private let directory: TemporaryDirectory

    /// Starts a bus and the stand-in with one adapter `hci0`.
    public static func start(adapter: String? = "hci0") async throws -> BlueZStandIn {
        let daemon = try await DBusDaemon.start()
        let control = try await DBusConnection.connect(to: DBusAddress(daemon.address))
        let standIn = try BlueZStandIn(daemon: daemon, control: control)
        try await standIn.launch()
        if let adapter { _ = try await standIn.mock("AddAdapter", [.string(adapter), .string("things2mqtt-test")]) }
        return standIn
    }

    private init(daemon: DBusDaemon, control: DBusConnection) throws {
        self.daemon = daemon
        self.control = control
        directory = try TemporaryDirectory(prefix: "bluez")
    }

    deinit {
        process.withLock { $0?.signal(SIGKILL) }
        directory.remove()
    }

    /// The template's path in the package.
    public static var template: String { BridgeProcess.packageRoot + "/Tests/bluez/bluez_things.py" }

    /// The environment a process needs to reach the stand-in as its system bus.
    public var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": daemon.address] }

    /// Calls an `org.bluez.Mock` method on `/`.
    @discardableResult
    public func mock(_ method: String, _ arguments: [DBusValue] = [], signature: DBusSignature? = nil) async throws -> [DBusValue] {
        try await control.call(
            destination: "org.bluez", path: "/", interface: "org.bluez.Mock", method: method, arguments: arguments,
            signature: signature, timeout: .seconds(10))
    }

    /// One advert from the device at `path`: its RSSI, no manufacturer or service data.
    public func advertise(_ path: String, rssi: Int16) async throws {
        try await mock("Advertise", [.string(path), .int16(rssi), .dictionary(key: "q", value: "v", []), .dictionary(key: "s", value: "v", [])])
    }

    /// The object path BlueZ gives the device with `address` on `adapter`.
    public static func devicePath(_ address: String, adapter: String = "hci0") -> String {
        "/org/bluez/\(adapter)/dev_" + address.replacingOccurrences(of: ":", with: "_").uppercased()
    }

    /// Kills the stand-in (bluetoothd gone) and starts it again with nothing in it.
    public func restart(adapter: String? = "hci0") async throws {
        try await stop()
        try await launch()
        if let adapter { try await mock("AddAdapter", [.string(adapter), .string("things2mqtt-test")]) }
    }

    /// Kills the stand-in; `org.bluez` leaves the bus.
    public func stop() async throws {
        guard let child = process.withLock({ $0 }) else { return }
        child.signal(SIGKILL)
        try await child.waitForExit()
        try await waitUntil("org.bluez to leave the bus") { try await control.nameOwner("org.bluez") == nil }
    }

    private func launch() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = daemon.address
        for key in ["DBUS_SESSION_BUS_ADDRESS", "PYTHONPATH", "PYTHONHOME"] { environment[key] = nil }
        let child = try ChildProcess(
            executable: "/usr/bin/python3", arguments: ["-m", "dbusmock", "--template", Self.template],
            stdoutPath: directory.file("mock.log"), stderrPath: directory.file("mock.log"), environment: environment)
        process.withLock { $0 = child }
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            guard child.isRunning else { throw TestFailure("the BlueZ stand-in exited:\n\(child.stdout)") }
            if (try? await control.nameOwner("org.bluez")) ?? nil != nil { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestFailure("the BlueZ stand-in did not claim org.bluez within 15 s:\n\(child.stdout)")
    }

    /// What the stand-in logged (calls, Python errors).
    public var log: String { process.withLock { $0?.stdout ?? "" } }
}
