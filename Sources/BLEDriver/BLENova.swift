import BLEModels
import BridgeCore
import BlueZ
import DBus

/// Nova flashes as lights: each flash's `NovaSession` decides what to write and what to publish; this part
/// does the I/O (frames written with response to FFF3, acks read from FFF4) and runs the one timer of all
/// flashes, inside the driver's task group.
extension BLEDriver {
    static let requestCharacteristic = BLEUUID(uuid16: 0xFFF3)
    static let responseCharacteristic = BLEUUID(uuid16: 0xFFF4)

    /// Takes a `/set` for a flash; the state published changes only once the flash acknowledges it.
    func performNova(_ set: SetCommand, on device: DeviceID) throws(CommandError) {
        guard novas[device] != nil else { throw CommandError("\(device) is not a Nova flash") }
        novas[device]?.request(set)
        novaTimer.wake()
    }

    /// Writes what each flash's session asks for, when it asks; ends when the bus connection does.
    func runNovas() async {
        await withDiscardingTaskGroup { writes in
            while !Task.isCancelled {
                let now = ContinuousClock.now
                var next = now + .seconds(3600)
                for device in novas.keys {
                    apply(novas[device]?.expire(now: now) ?? [], to: device)
                    if let frame = novas[device]?.nextWrite(now: now) {
                        writes.addTask { await self.writeNova(frame, to: device) }
                    }
                    if let deadline = novas[device]?.deadline(now: now), deadline < next { next = deadline }
                }
                guard await novaTimer.wait(max(next - ContinuousClock.now, .zero)) else { break }
            }
            writes.cancelAll()
        }
    }

    /// Connects when needed, turns the acks on, writes the frame; the session learns how far it got.
    private func writeNova(_ frame: NovaFrame, to device: DeviceID) async {
        do throws(CommandError) {
            try await writeFrame(frame, to: device)
            novas[device]?.written(frame.id, now: .now)
        } catch {
            // A renewal refused because the claim has just moved to another bridge is that bridge's to make.
            if ownedElsewhere(device) { novas[device]?.handedOver() }
            apply(novas[device]?.writeFailed(frame.id, reason: error.message) ?? [], to: device)
        }
        novaTimer.wake()
    }

    private func writeFrame(_ frame: NovaFrame, to device: DeviceID) async throws(CommandError) {
        if tracked.values.first(where: { $0.id == device })?.status?.isConnected != true {
            // A user's command for a Nova in range but not connected connects it first, as a manual connect, so
            // that no policy takes the connection away again. A renewal does not: a flash the user disconnected
            // stays disconnected, and goes dark by its own timeout, which the failed renewal then reports.
            guard novas[device]?.isUserCommand(frame.id) == true else { throw CommandError("\(device) is not connected") }
            try await connectByHand(device)
        }
        guard let client, let path = tracked.first(where: { $0.value.id == device })?.key else {
            throw CommandError("\(device) is not reachable")
        }
        let tree = client.objects.gattTree(of: path).flatMap(\.characteristics)
        guard let request = tree.first(where: { $0.uuid == Self.requestCharacteristic }),
            let response = tree.first(where: { $0.uuid == Self.responseCharacteristic })
        else { throw CommandError("\(device) has no Nova characteristics (FFF3/FFF4)") }
        // Counted until BlueZ took the frame; from there the session holds it in flight until its ack (`awaitsAck`).
        try beginExchange(device)
        defer { endExchange(device) }
        do throws(DBusError) {
            // BlueZ drops notifications with the connection: the cache says whether they are on now.
            if !response.notifying {
                _ = try await client.call(response.path, BlueZInterface.characteristic, "StartNotify")
            }
            apply(novas[device]?.sending(frame.id, now: .now) ?? [], to: device)
            _ = try await client.call(
                request.path, BlueZInterface.characteristic, "WriteValue",
                [.bytes(frame.bytes), .vardict(["type": .string("request")])], timeout: NovaSession.ackWindow)
        } catch {
            throw CommandError("writing \(frame) to the Nova failed: \(error.name ?? "") \(error.message)")
        }
    }

    /// A notification on a Nova's FFF4: the session takes acks; anything else is logged and ignored.
    func novaNotified(_ characteristic: BlueZCharacteristic, device: DeviceID) {
        guard characteristic.uuid == Self.responseCharacteristic else { return }
        switch NovaReply(characteristic.value) {
        case .ack(let id):
            apply(novas[device]?.acked(id, now: .now) ?? [], to: device)
            novaTimer.wake()
        case .notAnAck(let reason): logger.debug("Nova sent something other than an ack", metadata: ["reason": "\(reason)"])
        }
    }

    /// Carries out what a session step asks for: status, state and failures reach the bridge, stray acks the log.
    private func apply(_ effects: [NovaSession.Effect], to device: DeviceID) {
        let path = tracked.first(where: { $0.value.id == device })?.key
        // A state the flash confirmed with the command's end goes out with `ready`: one message, not two.
        let endsCommand = effects.contains(.ready) && path.map { tracked[$0]?.status == .busy } == true
        var confirmed: [String: JSONValue] = [:]
        for effect in effects {
            switch effect {
            case .busy: if let path, tracked[path]?.status == .ready { setDeviceStatus(path, .busy) }
            case .ready: if let path, tracked[path]?.status == .busy { setDeviceStatus(path, .ready, with: confirmed) }
            case .state(let state) where endsCommand: confirmed = state.json
            case .state(let state): send(.state(device, state.json))
            case .failed(let reason): send(.occurred(device, .commandFailed(reason)))
            case .strayAck(let id, let pending):
                logger.warning(
                    "Nova acknowledged a request that is not pending; ignored",
                    metadata: ["device.id": "\(device)", "ack": "\(id)", "pending": "\(pending.map { String($0) } ?? "none")"])
            }
        }
    }
}
