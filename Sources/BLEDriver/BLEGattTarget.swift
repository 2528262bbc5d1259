import BLEModels
import BridgeCore
import BlueZ
import DBus
import Support

/// The characteristic a GATT request names, on a connected device, with the request's deadline.
struct GattTarget: Sendable {
    let device: DeviceID
    let uuid: BLEUUID
    let characteristic: BlueZCharacteristic
    let bus: BlueZBus
    let deadline: ContinuousClock.Instant

    /// How errors name it.
    var name: String { "characteristic \(uuid) of \(device)" }
}

extension BLEDriver {
    /// Default time a user-initiated GATT operation may take, connecting included.
    static let gattTimeout = Duration.seconds(10)
    /// The longest a request may give itself with `timeout`.
    static let longestGattTimeout = Duration.seconds(60)

    /// Resolves `device`, `characteristic` and `service` of a request, connecting the device when needed.
    func gattTarget(_ payload: [String: JSONValue]) async throws(CommandError) -> GattTarget {
        guard let text = payload["device"]?.stringValue, let device = DeviceID(text) else {
            throw CommandError("needs \"device\": the id or alias of a BLE device")
        }
        let uuid = try Self.uuid(payload["characteristic"], "characteristic")
        let service = try payload["service"].map { value throws(CommandError) in try Self.uuid(value, "service") }
        var timeout = Self.gattTimeout
        if let seconds = payload["timeout"]?.doubleValue {
            guard seconds.isFinite, (0.1...Self.longestGattTimeout.inSeconds).contains(seconds) else {
                throw CommandError("\"timeout\" is 0.1 to \(Int(Self.longestGattTimeout.inSeconds)) seconds")
            }
            timeout = .milliseconds(Int64(seconds * 1000))
        }
        let deadline = ContinuousClock.now + timeout
        guard let entry = tracked.first(where: { $0.value.id == device }) else {
            throw CommandError("\(device) has not been seen by BlueZ")
        }
        if entry.value.status?.isConnected != true {
            guard entry.value.status != .unavailable else { throw CommandError("\(device) is out of range (unavailable)") }
            try await connectByHand(device)
        }
        guard let client else { throw CommandError("BlueZ is not available (\(status.state.rawValue))") }
        let tree = client.objects.gattTree(of: entry.key)
        let matches = tree.filter { service == nil || $0.service.uuid == service }
            .flatMap(\.characteristics).filter { $0.uuid == uuid }
        guard let characteristic = matches.first else {
            let known = tree.flatMap(\.characteristics).compactMap(\.uuid?.description)
            throw CommandError(
                "\(device) has no characteristic \(uuid)\(service.map { " in service \($0)" } ?? "")"
                    + (known.isEmpty ? " (no GATT services resolved)" : " (it has: \(known.joined(separator: ", ")))"))
        }
        guard matches.count == 1 else {
            let services = tree.filter { $0.characteristics.contains { $0.uuid == uuid } }.compactMap(\.service.uuid?.description)
            throw CommandError("\(uuid) is in several services of \(device): add \"service\" (one of \(services.joined(separator: ", ")))")
        }
        return GattTarget(device: device, uuid: uuid, characteristic: characteristic, bus: client.bus, deadline: deadline)
    }

    private static func uuid(_ value: JSONValue?, _ key: String) throws(CommandError) -> BLEUUID {
        guard let text = value?.stringValue else { throw CommandError("needs \"\(key)\": a UUID such as \"2a19\"") }
        do throws(BLEFormatError) { return try BLEUUID(text) } catch { throw CommandError("\"\(key)\": \(error)") }
    }

    /// Runs `body` when no other operation on the target's characteristic is under way (BlueZ answers a second
    /// one with `InProgress`); waiting counts against the request's deadline. The operation counts as the
    /// device's exchange in flight, so a hand-over lets it finish.
    func exclusive<T: Sendable>(
        _ target: GattTarget, _ body: @Sendable () async throws(CommandError) -> T
    ) async throws(CommandError) -> T {
        let path = target.characteristic.path
        while gattBusy.contains(path) {
            guard ContinuousClock.now < target.deadline else {
                throw CommandError("another operation on \(path) did not finish in time")
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        try beginExchange(target.device)
        gattBusy.insert(path)
        defer {
            gattBusy.remove(path)
            endExchange(target.device)
        }
        return try await body()
    }
}
