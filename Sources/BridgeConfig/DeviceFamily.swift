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
}

extension DeviceFamily {
    /// The family's name.
    public static var integration: Integration { Settings.integration }

    /// What the config loader needs of the family.
    public static var section: FamilySection { FamilySection(settings: Settings.self, idForm: idForm) }

    /// The family's driver when the config enables it.
    public static func driver(for config: Configuration, sink: DeviceEventSink) -> (any DeviceDriver)? {
        let settings = config[Settings.self]
        guard settings.enabled else { return nil }
        let context = DriverContext(
            sink: sink, configured: Set(config.devices.keys.filter { $0.integration == integration }),
            logger: Logger(label: integration.rawValue))
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
