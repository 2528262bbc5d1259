import BridgeCore

/// A device's commanded state travels with a passed claim: the owner tells the cluster what it published, and the
/// next owner goes on from it.
extension BridgeService {
    /// Tells the cluster the settable part of a light's state this bridge just published, for a claim it may pass
    /// on; only lights, as only a light's carried state is applied (see `goOn`), so nothing else pays for it on the
    /// publish path.
    func noteCarried(_ record: DeviceRecord) {
        // While its link is down, what is published is no news of the light, and a command may be on its way in it.
        guard let cluster, record.descriptor.lightFeatures != nil, cluster.owned.contains(record.id),
            !cluster.linkDropped(record.id, now: .now)
        else { return }
        self.cluster?.published(record.id, settable: record.descriptor.settableState(record.state))
    }

    /// A `/set` for a light whose link here dropped and is not up again: the cluster passes the light on if this
    /// bridge cannot reconnect it, so the command's values go into the state the claim carries, and the next
    /// owner sets them, once. The command still runs here, and wins if the link comes back first.
    func carryIfDropped(_ record: DeviceRecord, payload: [UInt8], attribute: String?) {
        guard carriedAway(record.id) else { return }
        let text = String(decoding: payload, as: UTF8.self).trimmingWhitespace
        let json = (try? JSONValue.commandPayload(payload)) ?? nil
        let fields: [String: JSONValue]
        if let attribute {
            fields = [attribute: json ?? .string(text)]
        } else if let object = json?.objectValue {
            fields = object
        } else {
            fields = ["state": .string(text.uppercased())]
        }
        var settable = record.descriptor.settableState(record.state)
        settable.merge(record.descriptor.settableState(fields)) { $1 }
        cluster?.published(record.id, settable: settable)
        logger.info("Command also goes with the device to its next owner (its link here dropped)", metadata: ["device.id": "\(record.id)"])
    }

    /// Whether the device is a light this bridge owns whose link here dropped: its commands go with its claim.
    func carriedAway(_ id: DeviceID) -> Bool {
        guard let cluster, devices[id]?.descriptor.lightFeatures != nil else { return false }
        return cluster.linkDropped(id, now: .now)
    }

    /// This bridge gained a device through a claim carrying the state its previous owner published: a light is
    /// set to it as by one `/set`, before any command for it that came after the claim (one already queued in
    /// the inbox behind the claim applies it first), and once.
    /// Only lights: their state is kept by the central (a Nova goes dark unless its owner renews it), so a new
    /// owner that did nothing would turn them off. Other devices keep their own state, and writing their
    /// settable values again could repeat what they did (a motor's move, an action's setting).
    func goOn(_ id: DeviceID, from state: JSONValue) {
        guard let record = devices[id], record.descriptor.lightFeatures != nil, let object = state.objectValue else { return }
        // The claim came from another bridge: only what this device takes goes into the command.
        let settable = record.descriptor.settableState(object)
        guard !settable.isEmpty else { return }
        carrying[id] = settable
        inbox.send(.timer(.carried(id)))
    }

    /// Applies the state a gained claim carried, if it still waits, through the driver as a `/set` would.
    func applyCarried(_ id: DeviceID) async {
        guard let settable = carrying.removeValue(forKey: id), publishes(id), let record = devices[id],
            let driver = drivers[id.integration]
        else { return }
        logger.info("Device's state carried over from its previous owner", metadata: ["device.id": "\(id)"])
        do throws(CommandError) {
            let payload = JSONValue.object(settable).jsonBytes
            try await driver.perform(.set(try CommandParser.parseSet(payload: payload, attribute: nil, device: record.descriptor)), on: id)
        } catch {
            reject(alias: record.alias, id: id, error)
        }
    }
}
