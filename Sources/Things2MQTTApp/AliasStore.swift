import BridgeCore
import Foundation
import Logging

/// Keeps aliases set through `bridge/request/device/rename` across restarts, in a JSON file.
struct AliasStore: Sendable {
    let path: String
    let logger: Logger

    func load() -> [DeviceID: String] {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        guard let raw = try? JSONDecoder().decode([String: String].self, from: data) else {
            logger.warning("Ignoring unreadable alias file", metadata: ["file": "\(path)"])
            return [:]
        }
        return Dictionary(uniqueKeysWithValues: raw.compactMap { key, value in DeviceID(key).map { ($0, value) } })
    }

    func save(_ aliases: [DeviceID: String]) {
        let raw = Dictionary(uniqueKeysWithValues: aliases.map { ($0.key.rawValue, $0.value) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try encoder.encode(raw).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            logger.error("Cannot save aliases", metadata: ["file": "\(path)", "error": "\(error.localizedDescription)"])
        }
    }
}
