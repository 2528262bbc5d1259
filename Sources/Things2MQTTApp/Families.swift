import BLEDriver
public import BridgeConfig
public import BridgeCore
import EV3Driver
import LIFXDriver

/// The registry: every device family the daemon has, in the order their sections and statuses are listed.
/// Adding a family is one line here.
public enum Families {
    /// The registered families.
    public static var all: [any DeviceFamily.Type] { [LIFXFamily.self, BLEFamily.self, EV3Family.self] }

    /// What the config loader needs of each family.
    public static var sections: [FamilySection] { all.map { $0.section } }

    /// The drivers the config enables; `memory` gives each its family's entry of the alias file.
    public static func drivers(
        for config: Configuration, sink: DeviceEventSink, memory: (Integration) -> DriverMemory = { _ in .none }
    ) -> [any DeviceDriver] {
        all.compactMap { $0.driver(for: config, sink: sink, memory: memory($0.integration)) }
    }
}
