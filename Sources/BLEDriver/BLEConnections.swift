import BLEModels
public import BridgeCore
import BlueZ
import DBus

/// `device/connect`, `device/disconnect` and the remembered set, for BLE devices.
extension BLEDriver {
    /// Connects through BlueZ and returns once the device is connected; a failure is reported as a
    /// `connect_failed` event with BlueZ's error as well as thrown.
    public func connect(_ device: DeviceID) async throws(CommandError) {
        try await connectByHand(device)
    }

    /// A connect the user asked for (directly, or by a command or GATT request for the device): once up, the
    /// device is held up whatever the policies say; a connect that fails leaves the decision to them again.
    func connectByHand(_ device: DeviceID) async throws(CommandError) {
        // In a cluster, a command for a device this bridge just took over waits until the previous owner let it go.
        let deadline = ContinuousClock.now + Self.releaseWait
        while ownedElsewhere(device) {
            guard ContinuousClock.now < deadline, (try? await Task.sleep(for: .milliseconds(50))) != nil else {
                throw CommandError("\(device) is held by another bridge of the cluster")
            }
        }
        manual[device] = .connected
        do throws(CommandError) {
            try await connectNow(device)
        } catch {
            if manual[device] == .connected { manual[device] = nil }
            throw error
        }
    }

    /// Connects through BlueZ; shared by manual connects and the policies.
    func connectNow(_ device: DeviceID) async throws(CommandError) {
        let (path, client) = try target(device)
        if let free = freeSlots, free == 0, !KnownDevice.holds(tracked[path]?.status) {
            throw CommandError("no free connection slot for \(device) (ble.max_connections: \(settings.maxConnections ?? 0))")
        }
        setDeviceStatus(path, .connecting)
        do throws(DBusError) {
            _ = try await client.call(path, BlueZInterface.device, "Connect", timeout: .seconds(30))
        } catch {
            let reason = error.name.map { "\($0): \(error.message)" } ?? error.message
            setDeviceStatus(path, .available)
            BLEMetrics.connectFailures.increment()
            send(.occurred(device, DeviceOccurrence(.connectFailed, ["error": .string(reason)])))
            throw CommandError("connecting \(device) failed: \(reason)")
        }
        // BlueZ answers Connect before it has read the GATT tree; the device is usable once ServicesResolved.
        let deadline = ContinuousClock.now + .seconds(10)
        var seenConnected = false
        while ContinuousClock.now < deadline {
            // Gone, or connected and then dropped, is a failure; the cache may lag the Connect reply a little.
            guard let current = client.objects.devices[path] else { break }
            if current.connected && current.servicesResolved {
                setDeviceStatus(path, .ready)
                BLEMetrics.connects.increment()
                return
            }
            if current.connected { seenConnected = true } else if seenConnected { break }
            try? await Task.sleep(for: .milliseconds(20))
        }
        setDeviceStatus(path, .available)
        BLEMetrics.connectFailures.increment()
        let reason = "the connection dropped before its services were resolved"
        send(.occurred(device, DeviceOccurrence(.connectFailed, ["error": .string(reason)])))
        throw CommandError("connecting \(device) failed: \(reason)")
    }

    /// Disconnects and holds the device down until a manual connect or a restart.
    public func disconnect(_ device: DeviceID) async throws(CommandError) {
        manual[device] = .disconnected
        try await disconnectNow(device)
    }

    /// Disconnects through BlueZ; shared by manual disconnects and the policies.
    func disconnectNow(_ device: DeviceID) async throws(CommandError) {
        let (path, client) = try target(device)
        do throws(DBusError) {
            _ = try await client.call(path, BlueZInterface.device, "Disconnect")
        } catch where error.name == "org.bluez.Error.NotConnected" {
            // Already down: what was asked for.
        } catch {
            throw CommandError("disconnecting \(device) failed: \(error.name ?? "") \(error.message)")
        }
        setDeviceStatus(path, .available)
    }

    /// Another bridge of the cluster owns the device, or this one again. Owned elsewhere, what is under way on
    /// the device finishes and a connection this bridge holds is dropped before this returns (a peripheral takes
    /// one central: the new owner's connect would fail while it stands); the policies are then reviewed.
    public func setOwnedElsewhere(_ device: DeviceID, _ elsewhere: Bool) async {
        if elsewhere { ownedHere.remove(device) } else { ownedHere.insert(device) }
        guard elsewhere else { return applyPolicies() }
        // A connect under way ends first, so the connection it makes is dropped too; so does a GATT exchange, or a
        // Nova frame waiting for its ack, which would fail with the connection. Nothing new starts meanwhile.
        await finishUnderWay(device)
        if ownedElsewhere(device), tracked.values.contains(where: { $0.id == device && $0.status?.isConnected == true }) {
            try? await disconnectNow(device)
        }
        if ownedElsewhere(device) { novas[device]?.handedOver() }
        applyPolicies()
    }

    /// How long a command waits for the previous owner of a device to let it go.
    static let releaseWait = Duration.seconds(15)

    /// Keeps the remembered set the bridge persists.
    public func setRemembered(_ device: DeviceID, _ isRemembered: Bool) async {
        if isRemembered { remembered.insert(device) } else { remembered.remove(device) }
    }

    private func target(_ device: DeviceID) throws(CommandError) -> (String, BlueZClient) {
        guard let client else { throw CommandError("BlueZ is not available (\(status.state.rawValue))") }
        guard let path = tracked.first(where: { $0.value.id == device })?.key else {
            throw CommandError("\(device) has not been seen by BlueZ")
        }
        return (path, client)
    }
}
