import BridgeCore

/// A device's commanded state travels with a passed claim: the owner tells the cluster what it published, and the
/// next owner goes on from it.
extension BridgeService {
    /// Tells the cluster the settable part of a light's state this bridge just published, for a claim it may pass
    /// on; only lights, as only a light's carried state is applied (see `goOn`), so nothing else pays for it on the
    /// publish path.
    func noteCarried(_ record: DeviceRecord) {
        guard let cluster, record.descriptor.lightFeatures != nil, cluster.owned.contains(record.id) else { return }
        self.cluster?.published(record.id, settable: record.descriptor.settableState(record.state))
    }

    /// This bridge gained a device through a claim carrying the state its previous owner published: a light is
    /// set to it by one `/set`, queued as that message so it takes the one path of commands, after this claim.
    /// Only lights: their state is kept by the central (a Nova goes dark unless its owner renews it), so a new
    /// owner that did nothing would turn them off. Other devices keep their own state, and writing their
    /// settable values again could repeat what they did (a motor's move, an action's setting).
    func goOn(_ id: DeviceID, from state: JSONValue) {
        guard let record = devices[id], record.descriptor.lightFeatures != nil, let object = state.objectValue else { return }
        // The claim came from another bridge: only what this device takes goes into the command.
        let settable = record.descriptor.settableState(object)
        guard !settable.isEmpty else { return }
        logger.info("Device's state carried over from its previous owner", metadata: ["device.id": "\(id)"])
        let command = InboundMessage(topic: topics.set(record.alias), payload: JSONValue.object(settable).jsonBytes, retained: false)
        inbox.send(.transport(.message(command)))
    }
}
