import BridgeCore
import FoundationEssentials
import Logging
import Support
import Synchronization

/// Keeps what users told the bridge about devices across restarts, in one JSON file: aliases set through
/// `device/rename` (`{"<id>": "<alias>"}`, the file's original shape), the remembered devices
/// (`"remembered": ["<id>", …]`) and what drivers keep (`"drivers": {"ble": …}`); no device id can be
/// `remembered` or `drivers`.
final class DeviceMemoryStore: Sendable {
    typealias Contents = (aliases: [DeviceID: String], remembered: Set<DeviceID>, drivers: [String: JSONValue])

    let path: String
    let logger: Logger
    private let memory = Mutex<Contents>(([:], [], [:]))

    init(path: String, logger: Logger) {
        self.path = path
        self.logger = logger
        if PrivateFile.restrict(path) { logger.notice("The alias file was readable by others; it is now the daemon user's alone", metadata: ["file": "\(path)"]) }
        memory.withLock { $0 = Self.read(path, logger) }
    }

    var aliases: [DeviceID: String] { memory.withLock { $0.aliases } }
    var remembered: Set<DeviceID> { memory.withLock { $0.remembered } }
    var driverMemory: [String: JSONValue] { memory.withLock { $0.drivers } }

    func save(aliases: [DeviceID: String]) { write { $0.aliases = aliases } }
    func save(remembered: Set<DeviceID>) { write { $0.remembered = remembered } }
    func save(driver: String, _ value: JSONValue?) { write { $0.drivers[driver] = value } }

    private func write(_ change: (inout Contents) -> Void) {
        let snapshot = memory.withLock { memory in
            change(&memory)
            return memory
        }
        var raw: [String: JSONValue] = [:]
        for (id, alias) in snapshot.aliases { raw[id.rawValue] = .string(alias) }
        if !snapshot.remembered.isEmpty { raw["remembered"] = .array(snapshot.remembered.sorted().map { .string($0.rawValue) }) }
        if !snapshot.drivers.isEmpty { raw["drivers"] = .object(snapshot.drivers) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Bindkeys are kept here: the file is the daemon user's alone.
        do {
            try PrivateFile.write(Array(try encoder.encode(raw)), to: path)
        } catch {
            logger.error("Cannot save aliases and remembered devices", metadata: ["file": "\(path)", "error": "\(error)"])
        }
    }

    private static func read(_ path: String, _ logger: Logger) -> Contents {
        guard let data = FileManager.default.contents(atPath: path) else { return ([:], [], [:]) }
        guard let raw = try? JSONDecoder().decode([String: JSONValue].self, from: data) else {
            logger.warning("Ignoring unreadable alias file", metadata: ["file": "\(path)"])
            return ([:], [], [:])
        }
        var aliases: [DeviceID: String] = [:]
        for (key, value) in raw {
            if let id = DeviceID(key), let alias = value.stringValue { aliases[id] = alias }
        }
        var remembered: Set<DeviceID> = []
        if case .array(let ids)? = raw["remembered"] {
            remembered = Set(ids.compactMap { $0.stringValue.flatMap(DeviceID.init) })
        }
        var drivers: [String: JSONValue] = [:]
        if case .object(let entries)? = raw["drivers"] { drivers = entries }
        return (aliases, remembered, drivers)
    }
}
