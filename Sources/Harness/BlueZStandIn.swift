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

    /// One advert from the device at `path`, as one PropertiesChanged on `org.bluez.Device1`: its RSSI and,
    /// when given, `ManufacturerData` (`a{qv}`, company id to `ay`) and `ServiceData` (`a{sv}`, UUID to `ay`;
    /// 16-bit UUIDs such as `fcd2` are written in BlueZ's 128-bit form).
    public func advertise(
        _ path: String, rssi: Int16, manufacturerData: [UInt16: [UInt8]] = [:], serviceData: [String: [UInt8]] = [:]
    ) async throws {
        let manufacturer = manufacturerData.sorted { $0.key < $1.key }.map {
            DBusDictEntry(key: .uint16($0.key), value: .variant(.bytes($0.value)))
        }
        let service = serviceData.sorted { $0.key < $1.key }.map {
            DBusDictEntry(key: .string(Self.fullUUID($0.key)), value: .variant(.bytes($0.value)))
        }
        try await mock(
            "Advertise",
            [
                .string(path), .int16(rssi), .dictionary(key: "q", value: "v", manufacturer),
                .dictionary(key: "s", value: "v", service),
            ])
    }

    /// Each time the device at `address` was connected, as seconds of the host's monotonic clock (the same for
    /// every stand-in on the machine); a connection still up ends now.
    public func connectionSpans(_ address: String) async throws -> [ClosedRange<Double>] {
        let flat = try await mock("GetConnectionSpans", [.string(Self.devicePath(address))]).first?.array?.compactMap(\.double) ?? []
        return stride(from: 0, to: flat.count - 1, by: 2).map { flat[$0]...max(flat[$0], flat[$0 + 1]) }
    }

    /// The standard services `addStandardDevice` can give a device.
    public enum Profile: String, Sendable, CaseIterable {
        /// Battery (`180F`): Battery Level `2A19`, read and notify, 90 %.
        case battery
        /// Heart Rate (`180D`): Heart Rate Measurement `2A37` (notify only, empty until a notification), Body
        /// Sensor Location `2A38` (read, chest), Heart Rate Control Point `2A39` (write).
        case heartRate = "heart_rate"
        /// Environmental Sensing (`181A`): Temperature `2A6E` (21.50 °C) and Humidity `2A6F` (50.60 %), read
        /// and notify.
        case environmentalSensing = "environmental_sensing"
        /// Device Information (`180A`), read only: manufacturer `things2mqtt`, model (the alias), firmware
        /// `1.2.3`, hardware `rev-B`, software `4.5.6`, serial (the address without colons, NUL-terminated).
        case deviceInformation = "device_information"
    }

    /// Adds a device that advertises the services of `profiles` (Device Information excepted) and, once
    /// connected, has their GATT objects; returns its path.
    @discardableResult
    public func addStandardDevice(
        _ address: String, name: String, profiles: [Profile], adapter: String = "hci0"
    ) async throws -> String {
        let reply = try await mock(
            "AddStandardDevice", [.string(adapter), .string(address), .string(name), .strings(profiles.map(\.rawValue))])
        guard let path = reply.first?.string else { throw TestFailure("AddStandardDevice returned \(reply)") }
        return path
    }

    /// The path of a device's characteristic (`2a37` or a full UUID); the device must have been connected.
    public func characteristicPath(device: String, uuid: String) async throws -> String {
        let reply = try await mock("CharacteristicPath", [.string(device), .string(uuid)])
        guard let path = reply.first?.string else { throw TestFailure("CharacteristicPath returned \(reply)") }
        return path
    }

    /// A notification: the characteristic's `Value` changes and BlueZ announces it.
    public func notify(_ characteristic: String, value: [UInt8]) async throws {
        try await mock("Notify", [.string(characteristic), .bytes(value)])
    }

    /// `fcd2` → `0000fcd2-0000-1000-8000-00805f9b34fb`; longer UUIDs as they are, in lowercase.
    static func fullUUID(_ uuid: String) -> String {
        uuid.count == 4 ? "0000\(uuid.lowercased())-0000-1000-8000-00805f9b34fb" : uuid.lowercased()
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
