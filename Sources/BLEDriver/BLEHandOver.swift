import BLEModels
import BridgeCore

/// A device handed to another bridge of the cluster: what is under way on it ends before its connection is
/// dropped, and nothing new starts on it (a connect waits for the device to be owned here again, an exchange is
/// refused).
extension BLEDriver {
    /// How long a hand-over waits for what is under way: the longest it can take. A GATT request ends within its
    /// `timeout` (connecting included), a Nova frame within its write window (connecting and writing) and then
    /// its ack window; a connect alone (30 s for BlueZ, 10 s for the services) ends sooner than either.
    static let handOverWait = max(longestGattTimeout, NovaSession.writeWindow + NovaSession.ackWindow)

    /// Counts a GATT exchange with `device` as under way until `endExchange`; refused once another bridge owns
    /// the device, as this one is about to let it go.
    func beginExchange(_ device: DeviceID) throws(CommandError) {
        guard !ownedElsewhere(device) else { throw CommandError("\(device) is held by another bridge of the cluster") }
        gattInFlight[device, default: 0] += 1
    }

    /// Ends an exchange `beginExchange` counted.
    func endExchange(_ device: DeviceID) {
        let left = (gattInFlight[device] ?? 1) - 1
        gattInFlight[device] = left > 0 ? left : nil
    }

    /// Whether something is under way on the device that a hand-over lets finish: a connect, a GATT exchange, or a
    /// Nova frame waiting for its ack.
    func underWay(_ device: DeviceID) -> Bool {
        gattInFlight[device] != nil || novas[device]?.awaitsAck == true
            || tracked.values.contains { $0.id == device && $0.status == .connecting }
    }

    /// Returns once nothing is under way on the device, it is owned here again, or `handOverWait` has passed.
    /// Without BlueZ nothing under way can end (nor is there a connection to drop): it returns at once.
    func finishUnderWay(_ device: DeviceID) async {
        let deadline = ContinuousClock.now + Self.handOverWait
        while client != nil, ownedElsewhere(device), underWay(device), ContinuousClock.now < deadline {
            guard (try? await Task.sleep(for: .milliseconds(20))) != nil else { return }
        }
    }
}
