/// Which room a device is in, from every bridge's observations: the strongest bridge's room, with hysteresis so
/// sparse or noisy adverts do not make it flap, and `not_home` once no bridge has heard it for `away_after`.
public struct RoomPresence: Sendable, Equatable {
    /// A challenger's room wins at once with this lead over the current room's best bridge.
    public static let switchLead = 3.0
    /// ... or with this smaller lead, when its worst recent reading beats the current room's best one.
    public static let steadyLead = 1.5
    /// Recent readings kept per bridge.
    public static let window = 5
    public static let away = "not_home"

    public private(set) var room: String?
    /// Each bridge's recent shared readings, newest last.
    var recent: [String: [Double]] = [:]

    /// Starts from a known room (a new owner takes it from the claim), or none.
    public init(room: String? = nil) { self.room = room }

    /// Takes the room a claim carried, unless one is known here already.
    public mutating func adopt(_ carried: String?) {
        if room == nil, let carried { room = carried }
    }

    /// Notes a bridge's reading.
    public mutating func note(_ bridge: String, rssi: Double) {
        var readings = recent[bridge, default: []]
        readings.append(rssi)
        if readings.count > Self.window { readings.removeFirst(readings.count - Self.window) }
        recent[bridge] = readings
    }

    /// The room after this look at the bridges that hear the device now (with each one's room), compared by the
    /// mean of their recent readings; `heardLately` false means no bridge heard it within `away_after`. A room in
    /// `liveRooms` (that some online bridge is in) whose bridges stopped hearing the device is left; a room whose
    /// bridges are all offline is kept, as nothing says the device left it.
    public mutating func update(
        hearing: [(bridge: String, room: String?)], heardLately: Bool, liveRooms: Set<String>? = nil
    ) -> String? {
        guard heardLately else {
            room = Self.away
            return room
        }
        let placed = hearing.compactMap { entry -> (bridge: String, rssi: Double, room: String?)? in
            guard entry.room != nil, let readings = recent[entry.bridge], !readings.isEmpty else { return nil }
            return (entry.bridge, readings.reduce(0, +) / Double(readings.count), entry.room)
        }
        guard let strongest = placed.max(by: { ($0.rssi, $0.bridge) < ($1.rssi, $1.bridge) }), let candidate = strongest.room else {
            return room
        }
        guard let current = room, current != Self.away else {
            room = candidate
            return room
        }
        guard candidate != current else { return room }
        let incumbents = placed.filter { $0.room == current }
        guard let incumbent = incumbents.max(by: { $0.rssi < $1.rssi }) else {
            if liveRooms?.contains(current) ?? true { room = candidate }
            return room
        }
        let lead = strongest.rssi - incumbent.rssi
        let steady = (recent[strongest.bridge]?.min() ?? -.infinity) > (recent[incumbent.bridge]?.max() ?? .infinity)
        if lead >= Self.switchLead || (lead >= Self.steadyLead && steady) { room = candidate }
        return room
    }
}
