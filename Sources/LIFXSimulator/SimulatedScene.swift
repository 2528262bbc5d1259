public import Foundation

/// One light's target inside a scene; nil fields leave that property alone.
public struct SimulatedSceneState: Sendable, Equatable {
    /// Selector naming the lights this state applies to, usually `id:<serial>`.
    public var selector: String
    /// Power to set, if any.
    public var power: Bool?
    /// Brightness to set (0...1), if any.
    public var brightness: Double?
    /// Hue to set (degrees), if any.
    public var hue: Double?
    /// Saturation to set (0...1), if any.
    public var saturation: Double?
    /// Kelvin to set, if any.
    public var kelvin: Int?

    /// Creates a scene state.
    public init(
        selector: String,
        power: Bool? = nil,
        brightness: Double? = nil,
        hue: Double? = nil,
        saturation: Double? = nil,
        kelvin: Int? = nil
    ) {
        self.selector = selector
        self.power = power
        self.brightness = brightness
        self.hue = hue
        self.saturation = saturation
        self.kelvin = kelvin
    }
}

/// A saved scene on the simulated account.
public struct SimulatedScene: Sendable, Equatable {
    /// Scene UUID, used by `scene_id:` selectors.
    public var uuid: String
    /// Scene name.
    public var name: String
    /// Per-light states applied on activation.
    public var states: [SimulatedSceneState]
    /// Creation time, reported as epoch seconds.
    public var createdAt: Date
    /// Last modification time, reported as epoch seconds.
    public var updatedAt: Date

    /// Creates a scene.
    public init(
        uuid: String,
        name: String,
        states: [SimulatedSceneState],
        createdAt: Date = Date(timeIntervalSince1970: 1_700_000_000),
        updatedAt: Date = Date(timeIntervalSince1970: 1_700_000_000)
    ) {
        self.uuid = uuid
        self.name = name
        self.states = states
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
