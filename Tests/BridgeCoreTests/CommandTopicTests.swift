import BridgeCore
import Testing
import TestSupport

/// The fields of a parsed command topic.
struct Parsed: Equatable, Sendable {
    var alias: String
    var verb: CommandTopic.Verb
    var attribute: String?

    init(_ alias: String, _ verb: CommandTopic.Verb, _ attribute: String?) {
        self.alias = alias
        self.verb = verb
        self.attribute = attribute
    }

    init(_ topic: CommandTopic) { self.init(topic.alias, topic.verb, topic.attribute) }
}

@Suite("CommandTopic.parse")
struct CommandTopicTests {
    static let matching: [(String, Parsed)] = [
        ("t2m/kitchen/set", Parsed("kitchen", .set, nil)),
        ("t2m/kitchen/set/brightness", Parsed("kitchen", .set, "brightness")),
        ("t2m/kitchen/get", Parsed("kitchen", .get, nil)),
        ("t2m/kitchen/get/state", Parsed("kitchen", .get, "state")),
        ("t2m/living/floor_lamp/set", Parsed("living/floor_lamp", .set, nil)),
        ("t2m/house/up/desk/set/color", Parsed("house/up/desk", .set, "color")),
        ("t2m/lifx_d073d5000001/set", Parsed("lifx_d073d5000001", .set, nil)),
        ("t2m/Küche Licht/set", Parsed("Küche Licht", .set, nil)),
    ]

    @Test("device command topics", arguments: matching)
    func parses(topic: String, expected: Parsed) {
        #expect(CommandTopic.parse(topic, base: "t2m").map(Parsed.init) == expected)
    }

    @Test(
        "everything else is not a command",
        arguments: [
            "t2m/bridge/request/health_check", "t2m/bridge/set", "t2m/bridge/x/set", "t2m/kitchen",
            "t2m/kitchen/availability", "t2m/set", "t2m/kitchen/set/", "t2m/kitchen/set/a/b", "other/kitchen/set",
            "t2m2/kitchen/set", "t2m", "kitchen/set",
        ])
    func rejects(topic: String) {
        #expect(CommandTopic.parse(topic, base: "t2m") == nil)
    }

    @Test("every command topic is matched by the filters for its alias's levels, and by no fewer", arguments: matching)
    func filters(topic: String, expected: Parsed) {
        let topics = Topics(base: "t2m")
        let levels = expected.alias.split(separator: "/").count
        #expect(topics.commandFilters(levels: levels).contains { TopicFilter.matches($0, topic) })
        #expect(!(1..<levels).flatMap(topics.commandFilters).contains { TopicFilter.matches($0, topic) })
        #expect(!topics.commandFilters(levels: levels).contains { TopicFilter.matches($0, topics.state(expected.alias)) })
        #expect(TopicFilter.matches(topics.requestFilter, "t2m/bridge/request/device/rename"))
    }

    @Test("a base topic with levels")
    func nestedBase() {
        #expect(CommandTopic.parse("home/t2m/desk/set", base: "home/t2m").map(Parsed.init) == Parsed("desk", .set, nil))
        #expect(CommandTopic.parse("home/t2m/bridge/request/x", base: "home/t2m") == nil)
        #expect(CommandTopic.parse("home/desk/set", base: "home/t2m") == nil)
    }

    @Test("topic layout")
    func topics() {
        let topics = Topics(base: "t2m")
        #expect(topics.bridgeState == "t2m/bridge/state")
        #expect(topics.response("device/rename") == "t2m/bridge/response/device/rename")
        #expect(topics.state("a/b") == "t2m/a/b")
        #expect(topics.availability("a/b") == "t2m/a/b/availability")
        #expect(topics.set("a/b", attribute: "brightness") == "t2m/a/b/set/brightness")
        #expect(topics.get("a") == "t2m/a/get")
        #expect(topics.requestName("t2m/bridge/request/device/remove") == "device/remove")
        #expect(topics.requestName("t2m/bridge/request/") == nil)
        #expect(topics.requestName("t2m/bridge/response/health_check") == nil)
    }
}
