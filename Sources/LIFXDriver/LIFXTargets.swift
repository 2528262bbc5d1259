import BridgeCore
import LIFXModels

/// A LIFX group as the bridge shows it: a device of its own whose commands use one `group_id:` selector.
struct LIFXGroup: Equatable {
    var id: String
    var name: String
    var members: [String]
}

/// What a device id stands for.
enum LIFXNativeID: Equatable {
    case light(String)
    case group(String)
}

/// Where a command goes and which lights it changes.
struct LIFXTarget {
    var selector: String
    var lightIDs: [String]
}

extension LIFXDriver {
    func target(for device: DeviceID) -> LIFXTarget? {
        switch nativeIDs[device] {
        case .light(let id)?: LIFXTarget(selector: "id:\(id)", lightIDs: [id])
        case .group(let id)?: groups[id].map { LIFXTarget(selector: "group_id:\(id)", lightIDs: $0.members) }
        case nil: nil
        }
    }

    /// Lights named by a selector the driver itself wrote.
    func lightIDs(for selector: String) -> [String] {
        if selector.hasPrefix("id:") { return [String(selector.dropFirst(3))] }
        if selector.hasPrefix("group_id:") { return groups[String(selector.dropFirst(9))]?.members ?? [] }
        if selector.hasPrefix("scene_id:") {
            let uuid = String(selector.dropFirst(9))
            return scenes.first { $0.uuid == uuid }?.states.compactMap { LIFXScene.lightID(in: $0.selector) } ?? []
        }
        return []
    }

    var accountDeviceID: DeviceID? {
        guard !scenes.isEmpty else { return nil }
        let account = scenes.first?.account?.uuid ?? "default"
        return DeviceID("lifx_account_" + account.lowercased().filter { $0.isLetter || $0.isNumber })
    }
}
