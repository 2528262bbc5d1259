import BLEModels
import BridgeCore
import BlueZ
import DBus

/// Nova flashes as lights: `/set` becomes frames written with response to FFF3, confirmed by the
/// `(xx:A)` ack on FFF4 within 2 s (else the state is reverted and the command fails), renewed at two
/// thirds of the flash's timeout while on.
extension BLEDriver {
    static let requestCharacteristic = "0000fff3-0000-1000-8000-00805f9b34fb"
    static let responseCharacteristic = "0000fff4-0000-1000-8000-00805f9b34fb"

    /// Applies a `/set` optimistically and starts sending it unless a send is already under way.
    func performNova(_ set: SetCommand, on device: DeviceID) throws(CommandError) {
        guard var session = novas[device] else { throw CommandError("\(device) is not a Nova flash") }
        session.current = session.current.applying(set)
        novas[device] = session
        sink.send(.state(device, session.current.json))
        if !session.sending { Task { await self.sendNova(device) } }
    }

    /// Sends until what was asked for is what the flash shows, one frame in flight at a time.
    func sendNova(_ device: DeviceID) async {
        guard var session = novas[device], !session.sending else { return }
        session.sending = true
        novas[device] = session
        defer { novas[device]?.sending = false }
        while let wanted = novas[device]?.current, wanted != novas[device]?.confirmed || novas[device]?.renewDue == true {
            novas[device]?.renewDue = false
            do throws(CommandError) {
                try await write(wanted, to: device)
                novas[device]?.confirmed = wanted
                scheduleRenewal(device, wanted)
            } catch {
                guard let confirmed = novas[device]?.confirmed else { return }
                novas[device]?.current = confirmed
                sink.send(.state(device, confirmed.json))
                sink.send(.occurred(device, .commandFailed(error.message)))
                return
            }
        }
    }

    private func write(_ state: NovaLightState, to device: DeviceID) async throws(CommandError) {
        if tracked.values.first(where: { $0.id == device })?.status?.isConnected != true {
            // A command for a Nova in range but not connected connects it first, as a manual connect, so
            // that no policy takes the connection away again.
            try await connectByHand(device)
        }
        guard let client, let path = tracked.first(where: { $0.value.id == device })?.key else {
            throw CommandError("\(device) is not reachable")
        }
        let tree = await client.objects.gattTree(of: path).flatMap(\.characteristics)
        guard let request = tree.first(where: { $0.uuid?.description == Self.requestCharacteristic }),
            let response = tree.first(where: { $0.uuid?.description == Self.responseCharacteristic })
        else { throw CommandError("\(device) has no Nova characteristics (FFF3/FFF4)") }
        let id: UInt8
        let frame: NovaFrame
        do throws(DBusError) {
            // BlueZ drops notifications with the connection: the cache says whether they are on now.
            if !response.notifying {
                _ = try await client.call(response.path, BlueZInterface.characteristic, "StartNotify")
            }
            guard let next = novas[device]?.ids.next() else { return }
            id = next
            frame = NovaFrame(id: id, command: state.command)
            novas[device]?.pending = id
            novas[device]?.lastAck = nil
            setDeviceStatus(path, .busy)
            _ = try await client.call(
                request.path, BlueZInterface.characteristic, "WriteValue",
                [.bytes(frame.bytes), .vardict(["type": .string("request")])], timeout: .seconds(2))
        } catch {
            novas[device]?.pending = nil
            setDeviceStatus(path, .ready)
            throw CommandError("writing to the Nova failed: \(error.name ?? "") \(error.message)")
        }
        defer {
            novas[device]?.pending = nil
            if tracked[path]?.status == .busy { setDeviceStatus(path, .ready) }
        }
        // The protocol allows one request in flight; its ack must come within 2 s.
        guard await ack(id, from: device, within: .seconds(2)) else {
            throw CommandError("the Nova did not acknowledge \(frame) within 2 s")
        }
    }

    /// Waits for the flash's ack of `id`: woken by the ack itself, so the next frame can follow at once.
    private func ack(_ id: UInt8, from device: DeviceID, within limit: Duration) async -> Bool {
        if novas[device]?.lastAck == id { return true }
        guard novas[device] != nil else { return false }
        nextAckToken &+= 1
        let token = nextAckToken
        return await withCheckedContinuation { continuation in
            ackWaiters[device] = (token, continuation)
            Task {
                try? await Task.sleep(for: limit)
                self.ackDeadline(device, token: token)
            }
        }
    }

    /// The deadline of an ack wait: the waiter with this token, if still waiting, learns that none came. Kept
    /// apart from the session, so a flash forgotten meanwhile still releases its writer.
    private func ackDeadline(_ device: DeviceID, token: UInt64) {
        guard let waiter = ackWaiters[device], waiter.token == token else { return }
        ackWaiters[device] = nil
        waiter.continuation.resume(returning: false)
    }

    /// A notification on a Nova's FFF4: the pending request's ack is noted; any other ack, or anything
    /// else, is logged and ignored (a late ack of a request that already timed out must not confirm a newer one).
    func novaNotified(_ characteristic: BlueZCharacteristic, device: DeviceID) {
        guard characteristic.uuid?.description == Self.responseCharacteristic else { return }
        switch NovaReply(characteristic.value) {
        case .ack(let id) where id == novas[device]?.pending:
            novas[device]?.lastAck = id
            if let waiter = ackWaiters.removeValue(forKey: device) { waiter.continuation.resume(returning: true) }
        case .ack(let id):
            let pending = novas[device]?.pending.map { String($0) } ?? "none"
            logger.warning(
                "Nova acknowledged a request that is not pending; ignored",
                metadata: ["device.id": "\(device)", "ack": "\(id)", "pending": "\(pending)"])
        case .notAnAck(let reason): logger.debug("Nova sent something other than an ack", metadata: ["reason": "\(reason)"])
        }
    }

    private func scheduleRenewal(_ device: DeviceID, _ state: NovaLightState) {
        novas[device]?.renewal?.cancel()
        guard state.isOn else { return }
        // Renew before the flash's own timeout so `ON` stays on until `OFF`.
        novas[device]?.renewal = Task {
            guard (try? await Task.sleep(for: NovaLight.renewalInterval(timeout: state.timeout))) != nil else { return }
            await self.renew(device)
        }
    }

    private func renew(_ device: DeviceID) async {
        // This task sends the renewal itself: forget its handle, or the next schedule would cancel it mid-write.
        novas[device]?.renewal = nil
        guard let session = novas[device], session.current.isOn, !session.sending else { return }
        novas[device]?.renewDue = true
        await sendNova(device)
    }
}
