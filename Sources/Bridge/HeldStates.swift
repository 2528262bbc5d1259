public import BridgeCore

/// Devices whose state waits while the broker is behind, in the order they began to wait. Only the ids are
/// held: the state is the device record's, so a device's later changes merge into the one message it gets
/// (the newest state wins), and the list never holds a device twice.
public struct HeldStates: Sendable {
    private var order: [DeviceID] = []
    private var members: Set<DeviceID> = []

    /// Nothing held.
    public init() {}

    /// Whether no state waits.
    public var isEmpty: Bool { members.isEmpty }

    /// How many devices wait.
    public var count: Int { members.count }

    /// Holds a device's state; returns true when it is the first held one (a flush is then due).
    public mutating func hold(_ id: DeviceID) -> Bool {
        guard members.insert(id).inserted else { return false }
        order.append(id)
        return members.count == 1
    }

    /// The device's state went out by another way: it no longer waits.
    public mutating func release(_ id: DeviceID) {
        guard members.remove(id) != nil else { return }
        order.removeAll { $0 == id }
    }

    /// Takes every waiting device, oldest first.
    public mutating func takeAll() -> [DeviceID] {
        members.removeAll(keepingCapacity: true)
        defer { order.removeAll(keepingCapacity: true) }
        return order
    }
}
