public import BridgeCore

/// What the cluster asks of the bridge.
public enum ClusterAction: Sendable, Equatable {
    /// Publish (nil payload: clear a retained message).
    case publish(topic: String, payload: JSONValue?, retain: Bool)
    /// This bridge now owns the device: publish its discovery, availability and state.
    case gained(DeviceID)
    /// Another bridge owns the device now, or nobody: stop publishing it.
    case lost(DeviceID)
    /// Another live bridge has this bridge's id: stop, naming it.
    case duplicate(String)
    /// The owner placed the device in a room (or `not_home`): put `room` in its state.
    case room(DeviceID, String)
    /// A bridge went offline (its will or its stop): its own `bridge/<id>/state` should say so; only the live
    /// bridge with the lowest id is asked, so it is said once. When it is back, the same bridge says `online`,
    /// so its own re-sent messages never contradict the peer.
    case peerState(String, online: Bool)
    /// This bridge may connect the device now (`true`: it owns it and the previous owner let it go), or must
    /// hold it down (`false`, the start for every device the cluster manages).
    case mayConnect(DeviceID, Bool)
    /// Another bridge owns the device now and waits for this one to let it go: drop any connection to it, then
    /// call `released`.
    case release(DeviceID)
    /// This bridge gained the device through a passed claim that carries the settable state its previous owner
    /// last published (an object): the bridge may go on from it (it follows `gained`).
    case carried(DeviceID, JSONValue)
}
