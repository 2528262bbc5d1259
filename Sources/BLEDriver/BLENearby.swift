import BLEModels
import BridgeCore
import FoundationEssentials
import Support

/// What is in range but not a device: the addresses the admission turned away, with their name and signal, so
/// the BLE page can show what the permit window or a rule would let in.
extension BLEDriver {
    /// The most `ble/nearby` lists.
    static let nearbyLimit = 50

    /// `ble/nearby` `{"limit": n}`: up to `n` (default and at most 50) addresses heard lately and not admitted,
    /// the strongest first, with the count of every ignored address.
    func nearbyDevices(_ payload: [String: JSONValue]) throws(CommandError) -> JSONValue {
        var limit = Self.nearbyLimit
        if let given = payload["limit"] {
            guard let value = given.doubleValue, value.rounded() == value, (1...Double(Self.nearbyLimit)).contains(value) else {
                throw CommandError("ble/nearby takes {\"limit\": 1 to \(Self.nearbyLimit)}")
            }
            limit = Int(value)
        }
        let (now, wall) = (self.now, Date())
        let devices = nearby.strongest(limit, now: now).map { entry -> JSONValue in
            [
                "address": .string(entry.address.description), "id": .string(entry.address.deviceID.rawValue),
                "name": entry.name.map(JSONValue.string) ?? .null, "rssi": entry.rssi.map { .number(Double($0)) } ?? .null,
                "last_seen": .string(wall.addingTimeInterval(entry.lastSeen - now).ISO8601Format()),
            ]
        }
        return ["devices": .array(devices), "ignored_devices": .number(Double(ignoredCount()))]
    }
}
