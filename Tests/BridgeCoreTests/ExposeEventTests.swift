import BridgeCore
import Foundation
import Testing
import TestSupport

/// An occurrence a driver may report, and whether the bridge publishes it for `Fixtures.remote()`.
struct OccurrenceCase: Sendable, CustomTestStringConvertible {
    var event: ExposeEvent
    /// nil when the occurrence is declared; otherwise a fragment of the reason it is refused.
    var problem: String?
    var testDescription: String { "\(event.property) \(event.type)" }
}

/// An occurrence and the payload it is published as.
struct EventPayloadCase: Sendable, CustomTestStringConvertible {
    var event: ExposeEvent
    var payload: JSONValue
    var testDescription: String { payload.jsonString }
}

@Suite("Event exposes: declaration, occurrences and their payloads")
struct ExposeEventTests {
    static let occurrences: [OccurrenceCase] = [
        OccurrenceCase(event: ExposeEvent("button", type: "press")),
        OccurrenceCase(event: ExposeEvent("button", type: "long_double_press")),
        OccurrenceCase(event: ExposeEvent("dimmer", type: "rotate_left", data: ["steps": 3])),
        OccurrenceCase(event: ExposeEvent(path: ["buttons", "up"], type: "long_press")),
        OccurrenceCase(event: ExposeEvent(path: ["buttons", "down"], type: "press")),
        OccurrenceCase(
            event: ExposeEvent("button", type: "hold"),
            problem: #"button has no event type "hold" (types: press, double_press, triple_press, long_press, long_double_press)"#),
        OccurrenceCase(event: ExposeEvent("dimmer", type: "press"), problem: #"dimmer has no event type "press""#),
        OccurrenceCase(
            event: ExposeEvent("up", type: "press"),
            problem: "up is not an event of this device (events: button, dimmer, buttons.up, buttons.down)"),
        OccurrenceCase(event: ExposeEvent(path: ["buttons", "left"], type: "press"), problem: "buttons.left is not an event"),
        OccurrenceCase(event: ExposeEvent("buttons", type: "press"), problem: "buttons is not an event"),
        OccurrenceCase(event: ExposeEvent(path: ["buttons", "presses"], type: "press"), problem: "buttons.presses is not an event"),
        OccurrenceCase(event: ExposeEvent("battery", type: "press"), problem: "battery is not an event"),
        OccurrenceCase(event: ExposeEvent(path: [], type: "press"), problem: "is not an event"),
    ]

    @Test("an occurrence is published only for a declared event expose and one of its types", arguments: occurrences)
    func declared(_ testCase: OccurrenceCase) {
        let problem = Fixtures.remote().problem(with: testCase.event)
        if let expected = testCase.problem {
            #expect(problem?.contains(expected) == true, "\(problem ?? "accepted")")
        } else {
            #expect(problem == nil)
        }
    }

    @Test("a device without event exposes refuses every occurrence and says it has none")
    func noEvents() {
        #expect(Fixtures.colorLight().problem(with: ExposeEvent("button", type: "press")) == "button is not an event of this device (events: none)")
    }

    static let payloads: [EventPayloadCase] = [
        EventPayloadCase(
            event: ExposeEvent("button", type: "press"),
            payload: ["event_type": "press", "property": "button", "action": "button_press"]),
        EventPayloadCase(
            event: ExposeEvent(path: ["buttons", "up"], type: "long_press"),
            payload: ["event_type": "long_press", "property": "buttons.up", "action": "buttons_up_long_press"]),
        EventPayloadCase(
            event: ExposeEvent("dimmer", type: "rotate_left", data: ["steps": 3, "speed": ["fast": true]]),
            payload: ["event_type": "rotate_left", "property": "dimmer", "action": "dimmer_rotate_left", "steps": 3, "speed": ["fast": true]]),
        // The bridge's own keys win over data of the same name, so the payload always says what fired.
        EventPayloadCase(
            event: ExposeEvent("button", type: "press", data: ["event_type": "x", "property": "y", "action": "z", "count": 2]),
            payload: ["event_type": "press", "property": "button", "action": "button_press", "count": 2]),
    ]

    @Test("the payload carries the type, the property, zigbee2mqtt's action word and the data", arguments: payloads)
    func payload(_ testCase: EventPayloadCase) {
        #expect(JSONValue.object(testCase.event.payload) == testCase.payload)
    }

    @Test("bridge/devices lists events in zigbee2mqtt's shape: no access, the types as values, inside composites too")
    func inventory() throws {
        let encoded = JSONValue.array(Fixtures.remote().exposes.map(\.json))
        #expect(
            encoded[0] == [
                "type": "event", "property": "button", "name": "Button", "access": 0,
                "values": .array(Fixtures.buttonTypes.map(JSONValue.string)), "device_class": "button", "enabled_by_default": true,
            ])
        #expect(encoded[1]?["values"] == ["rotate_left", "rotate_right"])
        #expect(encoded[1]?["device_class"] == nil)
        let buttons = try #require(encoded[2])
        #expect(buttons["type"] == "composite")
        #expect(buttons["access"] == 1)
        #expect(buttons["features"]?[0]?["type"] == "event")
        #expect(buttons["features"]?[0]?["values"] == ["press", "long_press"])
        #expect(buttons["features"]?[2]?["type"] == "numeric")
    }

    @Test("events inside a composite are leaves like any other, named along their path")
    func leaves() {
        let leaves = Fixtures.remote().leaves
        #expect(leaves.map(\.dottedPath) == ["button", "dimmer", "buttons.up", "buttons.down", "buttons.presses", "battery"])
        #expect(leaves.map(\.objectID) == ["button", "dimmer", "buttons_up", "buttons_down", "buttons_presses", "battery"])
        #expect(leaves[2].name == "Button Up")
        #expect(leaves.filter { $0.expose.kind == .event }.allSatisfy { $0.expose.access.isEmpty })
    }

    static let sets: [SetCase] = [
        SetCase(payload: #"{"button":"press"}"#, outcome: .error(#"unknown or read-only attribute "button" (writable: none)"#)),
        SetCase(payload: #"{"buttons":{"up":"press"}}"#, outcome: .error(#"unknown or read-only attribute "buttons" (writable: none)"#)),
        SetCase(payload: "press", attribute: "dimmer", outcome: .error(#"unknown or read-only attribute "dimmer""#)),
    ]

    @Test("/set cannot fire an event: events are not attributes", arguments: sets)
    func notSettable(_ testCase: SetCase) {
        CommandParserTests.check(testCase, device: Fixtures.remote())
    }

    @Test("occurrences have their own topic, so no alias may use it as a level", arguments: ["event", "hall/event", "event/remote"])
    func reservedLevel(alias: String) {
        #expect(Topics(base: "t2m").event("hall/remote") == "t2m/hall/remote/event")
        #expect(AliasRules.problem(with: alias) == #"must not contain the level "event""#)
    }
}
