/// One value of a device's state that an entity stands for: a top-level expose, or one inside composites.
public struct ExposeLeaf: Sendable, Hashable {
    /// The keys from the top of the state down to the value: `["motor_a", "speed"]`.
    public var path: [String]
    /// The expose at the end of the path, with the category and default of its composites filled in where it
    /// sets none itself.
    public var expose: Expose
    /// The object id: the object ids (or properties) along the path joined by `_`, as `motor_a_speed`.
    public var objectID: String
    /// The entity name: the names along the path joined by a space ("Motor A Speed"); nil for a device's main
    /// feature.
    public var name: String?

    /// Whether the value sits inside a composite.
    public var isNested: Bool { path.count > 1 }

    /// The path as messages and errors write it: `motor_a.speed`.
    public var dottedPath: String { path.joined(separator: ".") }
}

extension Expose {
    /// The leaves under this expose, depth first in feature order: itself unless it is a composite.
    public var leaves: [ExposeLeaf] {
        leaves(under: [], objectIDs: [], names: [], category: nil, enabled: true)
    }

    private func leaves(
        under path: [String], objectIDs: [String], names: [String], category: Category?, enabled: Bool
    ) -> [ExposeLeaf] {
        let path = path + [property]
        let objectIDs = objectIDs + [entityObjectID]
        let names = names + (name.map { [$0] } ?? [])
        let category = self.category ?? category
        let enabled = enabled && enabledByDefault
        guard kind == .composite else {
            var leaf = self
            leaf.category = category
            leaf.enabledByDefault = enabled
            return [
                ExposeLeaf(
                    path: path, expose: leaf, objectID: objectIDs.joined(separator: "_"),
                    name: names.isEmpty ? nil : names.joined(separator: " "))
            ]
        }
        return features.flatMap {
            $0.leaves(under: path, objectIDs: objectIDs, names: names, category: category, enabled: enabled)
        }
    }
}

extension DeviceDescriptor {
    /// Every leaf of every expose, in order.
    public var leaves: [ExposeLeaf] { exposes.flatMap(\.leaves) }
}
