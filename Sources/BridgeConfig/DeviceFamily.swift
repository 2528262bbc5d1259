public import BridgeCore
public import Logging

/// A device family behind one contract: its config section (decoded, validated, secrets marked and reload
/// rules, all in its `Settings`) and how its driver is built. The app lists the families in one registry.
public protocol DeviceFamily {
    /// The family's `FamilySettings`, which also name it.
    associatedtype Settings: FamilySettings
    /// How the family's device ids are written in messages, e.g. `lifx_<id>`.
    static var idForm: String { get }
    /// The driver for enabled settings; nil when it cannot run (the config check has said why).
    static func makeDriver(_ settings: Settings, context: DriverContext) -> (any DeviceDriver)?
}

/// What a family's driver is built with besides its settings.
public struct DriverContext: Sendable {
    /// Where the driver reports.
    public let sink: DeviceEventSink
    /// The family's devices listed under `devices` in the config.
    public let configured: Set<DeviceID>
    /// The driver's logger, labelled with the family's name.
    public let logger: Logger
    /// What the driver keeps across restarts beside the aliases.
    public var memory = DriverMemory.none
    /// The bridge is one of a cluster: a driver holding connections connects no device until the bridge says
    /// this bridge owns it (`ConnectionControl.setOwnedElsewhere`), so two bridges never connect one at once.
    public var shared = false
}

/// A driver that takes some changes of its section without a restart: those its settings' `needsRestart(from:)`
/// lets through.
public protocol ReloadableDriver: DeviceDriver {
    /// Takes the section of a reloaded config; called after a reload that needs no restart of this family.
    func apply(_ config: Configuration) async
}

/// What a driver keeps across restarts in the bridge's alias file, under its family's name: what users told it
/// at run time (BLE: bindkeys set with `ble/bindkey`).
public struct DriverMemory: Sendable {
    private let read: @Sendable () -> JSONValue?
    private let write: @Sendable (JSONValue?) -> Void

    /// Creates a memory from how to read and write the family's entry.
    public init(load: @escaping @Sendable () -> JSONValue?, save: @escaping @Sendable (JSONValue?) -> Void) {
        read = load
        write = save
    }

    /// Keeps nothing: a bridge without an alias file, and tests.
    public static let none = DriverMemory(load: { nil }, save: { _ in })

    /// The entry saved last, if any.
    public func load() -> JSONValue? { read() }

    /// Replaces the entry; nil removes it.
    public func save(_ value: JSONValue?) { write(value) }
}

extension DeviceFamily {
    /// The family's name.
    public static var integration: Integration { Settings.integration }

    /// What the config loader needs of the family.
    public static var section: FamilySection { FamilySection(settings: Settings.self, idForm: idForm) }

    /// The family's driver when the config enables it.
    public static func driver(for config: Configuration, sink: DeviceEventSink, memory: DriverMemory = .none)
        -> (any DeviceDriver)?
    {
        let settings = config[Settings.self]
        guard settings.enabled else { return nil }
        let context = DriverContext(
            sink: sink, configured: Set(config.devices.keys.filter { $0.integration == integration }),
            logger: Logger(label: integration.rawValue), memory: memory, shared: config.cluster != nil)
        return makeDriver(settings, context: context)
    }
}

extension FamilySections {
    /// The families whose change from `old` needs a restart, in registration order.
    public func needingRestart(from old: FamilySections) -> [Integration] {
        integrations.filter { integration in
            guard let new = self[integration], let previous = old[integration] else { return true }
            return new.needsRestart(fromAny: previous)
        }
    }
}
