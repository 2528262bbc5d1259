public import BridgeCore

/// The state a passed claim carries: the owner says what it published, and the claim it passes takes it along.
extension ClusterState {
    /// This bridge published the device's state; `settable` is its part a `/set` could write back. Kept only while
    /// this bridge owns a device the cluster manages; whether a claim may carry it (`Claim.carried`) is checked
    /// when a claim is passed, not at every publish.
    public mutating func published(_ device: DeviceID, settable: [String: JSONValue]) {
        guard owned.contains(device), devices[device] != nil else { return }
        devices[device]?.settable = settable.isEmpty ? nil : .object(settable)
    }
}
