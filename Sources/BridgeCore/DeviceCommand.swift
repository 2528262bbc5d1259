/// A command for one device, already validated against what the device exposes.
public enum DeviceCommand: Sendable, Equatable {
    /// Change state: the light part (if the device is a light) and any other writable attributes.
    case set(SetCommand)
    /// Re-read these properties from the device; empty means everything.
    case refresh([String])
}

/// The validated content of a `/set` message.
public struct SetCommand: Sendable, Equatable {
    /// The light change, for devices with a light.
    public var light: LightCommand?
    /// Writable attributes other than the light's, keyed by property.
    public var attributes: [String: JSONValue]

    /// Creates a set command.
    public init(light: LightCommand? = nil, attributes: [String: JSONValue] = [:]) {
        self.light = light
        self.attributes = attributes
    }
}

/// Where a message on a device topic is headed.
public struct CommandTopic: Sendable, Equatable {
    /// `set` or `get`.
    public enum Verb: String, Sendable { case set, get }

    /// The device alias (may contain `/`).
    public var alias: String
    public var verb: Verb
    /// The attribute named after the verb, as in `/set/brightness`.
    public var attribute: String?

    /// Splits `<base>/<alias>/(set|get)[/<attribute>]`; nil for any other topic, bridge topics included.
    public static func parse(_ topic: String, base: String) -> CommandTopic? {
        guard topic.hasPrefix(base + "/") else { return nil }
        let rest = topic.dropFirst(base.count + 1)
        let segments = rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard segments.first != "bridge" else { return nil }
        for index in segments.indices.dropFirst() {
            guard let verb = Verb(rawValue: segments[index]) else { continue }
            let tail = segments[(index + 1)...]
            guard tail.count <= 1, tail.first != "" else { return nil }
            let alias = segments[..<index].joined(separator: "/")
            guard !alias.isEmpty else { return nil }
            return CommandTopic(alias: alias, verb: verb, attribute: tail.first)
        }
        return nil
    }
}

extension String {
    /// The string without leading and trailing spaces and newlines.
    public var trimmingWhitespace: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars = scalars.dropFirst() }
        while let last = scalars.last, last.isWhitespace { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
