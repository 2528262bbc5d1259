public import BridgeCore

/// A device family's config section: decoded from its own key with `SectionReader` (so problems carry line
/// and column), compared on reload, and shown in `bridge/info` through its `Encodable` form, where every
/// `Secret` field reads `***`.
public protocol FamilySettings: Sendable, Equatable, Codable {
    /// The family the section belongs to; its name is the section's key.
    static var integration: Integration { get }
    /// The defaults, used when the section is absent.
    init()
    /// Whether the family's driver runs.
    var enabled: Bool { get }
    /// Whether changing from `old` to these settings needs a restart; by default every change does.
    func needsRestart(from old: Self) -> Bool
}

extension FamilySettings {
    /// Every change needs a restart unless the family says otherwise.
    public func needsRestart(from old: Self) -> Bool { self != old }

    /// The section as JSON, secrets as `***` (their encoding), for `bridge/info`.
    public var infoJSON: JSONValue { Configuration.encoded(self) }

    /// Equality across settings of unknown type.
    public func sameSettings(as other: any FamilySettings) -> Bool { (other as? Self) == self }
    /// `needsRestart(from:)` for settings of unknown type: a different type always needs a restart.
    public func needsRestart(fromAny old: any FamilySettings) -> Bool { (old as? Self).map(needsRestart(from:)) ?? true }
}

/// What the config loader needs of a family: its settings type, and how its device ids look in messages.
public struct FamilySection: Sendable {
    /// The settings type, which names the section.
    public let settings: any FamilySettings.Type
    /// How the family's device ids are written, for messages (`lifx_<id>`).
    public let idForm: String

    /// Describes a family's section.
    public init(settings: any FamilySettings.Type, idForm: String) {
        self.settings = settings
        self.idForm = idForm
    }

    /// The family.
    public var integration: Integration { settings.integration }
}

/// The families' sections of one configuration, in registration order; an absent section has its defaults.
public struct FamilySections: Sendable, Equatable {
    /// The registered families, in order.
    public private(set) var integrations: [Integration] = []
    private var values: [Integration: any FamilySettings] = [:]

    /// No families.
    public init() {}

    /// One family's settings, or its defaults when it is not registered.
    public subscript<S: FamilySettings>(_ type: S.Type) -> S {
        get { values[S.integration] as? S ?? S() }
        set { set(newValue) }
    }

    /// One family's settings, whatever their type.
    public subscript(_ integration: Integration) -> (any FamilySettings)? { values[integration] }

    /// Sets (and registers) a family's section.
    public mutating func set(_ settings: any FamilySettings) {
        let integration = type(of: settings).integration
        if values[integration] == nil { integrations.append(integration) }
        values[integration] = settings
    }

    /// Equal settings for every family either side has; a family only one side has is compared with its
    /// defaults, as an absent section means the defaults.
    public static func == (lhs: FamilySections, rhs: FamilySections) -> Bool {
        Set(lhs.integrations + rhs.integrations).allSatisfy { key in
            switch (lhs.values[key], rhs.values[key]) {
            case (let left?, let right?): left.sameSettings(as: right)
            case (let only?, nil), (nil, let only?): only.sameSettings(as: type(of: only).init())
            case (nil, nil): true
            }
        }
    }
}
