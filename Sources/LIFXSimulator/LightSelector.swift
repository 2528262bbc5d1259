/// One term of a LIFX selector, e.g. `group:Kitchen` or `id:d073d5000001`.
public struct LightSelector: Sendable, Equatable {
    /// The selector prefixes the API knows.
    public enum Kind: String, Sendable, CaseIterable {
        case all, id, label, group, location
        case groupID = "group_id"
        case locationID = "location_id"
        case sceneID = "scene_id"

        /// Only these accept a `:random` suffix (lifx.md §9).
        var allowsRandom: Bool {
            switch self {
            case .id, .label: false
            default: true
            }
        }
    }

    /// The prefix.
    public var kind: Kind
    /// The value after the prefix; empty for `all`.
    public var value: String
    /// Whether only one random matching light is meant.
    public var random: Bool

    /// Creates a selector term.
    public init(kind: Kind, value: String = "", random: Bool = false) {
        self.kind = kind
        self.value = value
        self.random = random
    }

    /// Most selectors a request may combine with commas.
    public static let maximumTerms = 25

    /// Parses a comma-separated selector list; zone suffixes (`|1-5`) are accepted and ignored.
    public static func parseList(_ text: String) throws(SelectorError) -> [LightSelector] {
        let terms = text.split(separator: ",", omittingEmptySubsequences: false)
        guard terms.count <= maximumTerms else {
            throw SelectorError(message: "too many selectors (\(terms.count), at most \(maximumTerms))")
        }
        var parsed: [LightSelector] = []
        for term in terms {
            parsed.append(try parse(term))
        }
        return parsed
    }

    private static func parse(_ raw: Substring) throws(SelectorError) -> LightSelector {
        let term = raw.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)[0]
        if term == "all" { return LightSelector(kind: .all) }
        if term == "all:random" { return LightSelector(kind: .all, random: true) }
        guard let colon = term.firstIndex(of: ":"),
              let kind = Kind(rawValue: String(term[..<colon])), kind != .all else {
            throw SelectorError(message: "'\(raw)' is not a valid selector")
        }
        var value = String(term[term.index(after: colon)...])
        var random = false
        if kind.allowsRandom, value.hasSuffix(":random") {
            value.removeLast(":random".count)
            random = true
        }
        guard !value.isEmpty else { throw SelectorError(message: "'\(raw)' has an empty value") }
        return LightSelector(kind: kind, value: value, random: random)
    }

    /// Whether this term (ignoring `random`) names the light; `scenes` resolves `scene_id:`.
    public func matches(_ light: SimulatedLight, scenes: [SimulatedScene] = []) -> Bool {
        switch kind {
        case .all: true
        case .id: light.id.utf8.elementsEqual(value.utf8, by: LightSelector.sameASCIIIgnoringCase)
        case .label: light.label == value
        case .group: light.groupName == value
        case .groupID: light.groupID == value
        case .location: light.locationName == value
        case .locationID: light.locationID == value
        case .sceneID: sceneMatches(light, scenes: scenes)
        }
    }

    /// Serials are hex, so ASCII case folding suffices and avoids allocating per light.
    private static func sameASCIIIgnoringCase(_ lhs: UInt8, _ rhs: UInt8) -> Bool {
        func fold(_ byte: UInt8) -> UInt8 { (65...90).contains(byte) ? byte | 0x20 : byte }
        return fold(lhs) == fold(rhs)
    }

    /// Scene states are resolved one level deep so a scene naming another scene cannot recurse.
    private func sceneMatches(_ light: SimulatedLight, scenes: [SimulatedScene]) -> Bool {
        guard let scene = scenes.first(where: { $0.uuid == value }) else { return false }
        return scene.states.contains { state in
            guard let terms = try? LightSelector.parseList(state.selector) else { return false }
            return terms.contains { $0.kind != .sceneID && $0.matches(light) }
        }
    }

    /// Indices of matching lights in account order, each once; `random` terms pick one of theirs.
    public static func resolve(
        _ terms: [LightSelector], in lights: [SimulatedLight], scenes: [SimulatedScene] = []
    ) -> [Int] {
        var chosen = Set<Int>()
        for term in terms {
            let hits = lights.indices.filter { term.matches(lights[$0], scenes: scenes) }
            if term.random {
                if let pick = hits.randomElement() { chosen.insert(pick) }
            } else {
                chosen.formUnion(hits)
            }
        }
        return chosen.sorted()
    }
}

/// Why a selector could not be parsed.
public struct SelectorError: Error, Sendable, Equatable {
    /// Human-readable reason.
    public var message: String
}
