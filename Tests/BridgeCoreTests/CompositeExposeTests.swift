import Bridge
import BridgeCore
import Foundation
import Testing
import TestSupport

/// What a leaf of the expose tree is expected to be.
struct LeafCase: Sendable, CustomTestStringConvertible {
    var path: [String]
    var objectID: String
    var name: String?
    var category: Expose.Category?
    var enabled = true
    var testDescription: String { path.joined(separator: ".") }
}

/// One state change applied to a state, and what the two compose to when queued together.
struct MergeCase: Sendable, CustomTestStringConvertible {
    var state: [String: JSONValue]
    var first: [String: JSONValue]
    var second: [String: JSONValue]
    var merged: [String: JSONValue]
    var testDescription: String { "\(first.jsonText) then \(second.jsonText)" }
}

extension Dictionary where Key == String, Value == JSONValue {
    var jsonText: String { JSONValue.object(self).jsonString }
}

@Suite("Composite exposes: leaves, bridge/devices and nested state")
struct CompositeExposeTests {
    static let leaves: [LeafCase] = [
        LeafCase(path: ["motor_a", "speed"], objectID: "motor_a_speed", name: "Motor A Speed"),
        LeafCase(path: ["motor_a", "position"], objectID: "motor_a_position", name: "Motor A Position"),
        LeafCase(path: ["motor_a", "brake"], objectID: "motor_a_brake", name: "Motor A Brake", category: .config),
        LeafCase(path: ["motor_a", "mode"], objectID: "motor_a_mode", name: "Motor A Mode"),
        LeafCase(path: ["motor_a", "label"], objectID: "motor_a_label", name: "Motor A Label"),
        LeafCase(path: ["motor_a", "running"], objectID: "motor_a_running", name: "Motor A Running"),
        LeafCase(path: ["motor_a", "type"], objectID: "motor_a_type", name: "Motor A Type"),
        LeafCase(path: ["motor_a", "stop"], objectID: "motor_a_stop", name: "Motor A Stop"),
        LeafCase(path: ["buttons", "up"], objectID: "buttons_up", name: "Button Up"),
        LeafCase(path: ["buttons", "enter"], objectID: "buttons_enter", name: "Button Enter"),
        LeafCase(path: ["sensors", "port_1", "value"], objectID: "sensors_port_1_value", name: "Sensor Port 1 Value"),
        LeafCase(path: ["sensors", "port_1", "mode"], objectID: "sensors_port_1_mode", name: "Sensor Port 1 Mode"),
        LeafCase(
            path: ["gatt", "00002a19-0000-1000-8000-00805f9b34fb"], objectID: "gatt_00002a19-0000-1000-8000-00805f9b34fb",
            name: "GATT 2A19", category: .diagnostic, enabled: false),
        LeafCase(path: ["battery"], objectID: "battery", name: "Battery", category: .diagnostic),
    ]

    @Test("every leaf has its path, object id and name; composites pass their category and default down")
    func brickLeaves() {
        let leaves = Fixtures.brick().leaves
        #expect(leaves.map(\.path) == Self.leaves.map(\.path))
        for (leaf, expected) in zip(leaves, Self.leaves) {
            #expect(leaf.objectID == expected.objectID)
            #expect(leaf.name == expected.name)
            #expect(leaf.expose.category == expected.category, "\(expected.testDescription)")
            #expect(leaf.expose.enabledByDefault == expected.enabled, "\(expected.testDescription)")
            #expect(leaf.isNested == (expected.path.count > 1))
        }
    }

    @Test("a composite is writable when one of its features is, and a plain expose is its own leaf")
    func access() throws {
        let exposes = Fixtures.brick().exposes
        #expect(exposes.map(\.isWritable) == [true, false, true, false, false])
        #expect(exposes[0].access == [.state, .set])
        let light = Expose.light(LightFeatures(colorModes: []))
        #expect(light.leaves.map(\.path) == [["light"]])
        #expect(light.leaves.first?.name == nil)
    }

    @Test("bridge/devices lists composites in zigbee2mqtt's shape, with their features")
    func inventory() throws {
        let encoded = JSONValue.array(Fixtures.brick().exposes.map(\.json))
        let motor = try #require(encoded[0])
        #expect(motor["type"] == "composite")
        #expect(motor["property"] == "motor_a")
        #expect(motor["name"] == "Motor A")
        #expect(motor["access"] == 3)
        let speed = try #require(motor["features"]?[0])
        #expect(speed == ["type": "numeric", "property": "speed", "name": "Speed", "access": 3, "unit": "%", "minimum": -100,
            "maximum": 100, "step": 1, "enabled_by_default": true])
        #expect(motor["features"]?[7]?["values"] == ["stop"])
        #expect(encoded[2]?["features"]?[0]?["type"] == "composite")
        #expect(encoded[2]?["features"]?[0]?["features"]?[1]?["property"] == "mode")
        #expect(encoded[4]?["type"] == "numeric")
        #expect(encoded[4]?["features"] == nil)
    }

    static let merges: [MergeCase] = [
        MergeCase(
            state: ["motor_a": ["speed": 0, "position": 10], "battery": 80], first: ["motor_a": ["speed": 20]],
            second: ["motor_a": ["position": 360]], merged: ["motor_a": ["speed": 20, "position": 360], "battery": 80]),
        MergeCase(
            state: ["gatt": ["a": "01", "b": "02"]], first: ["gatt": ["a": .null]], second: ["gatt": ["c": "03"]],
            merged: ["gatt": ["b": "02", "c": "03"]]),
        MergeCase(
            state: ["sensors": ["port_1": ["value": 1, "mode": "reflect"]]], first: ["sensors": ["port_1": ["value": 2]]],
            second: ["sensors": ["port_2": ["value": 5]]],
            merged: ["sensors": ["port_1": ["value": 2, "mode": "reflect"], "port_2": ["value": 5]]]),
        MergeCase(
            state: ["motor_a": ["speed": 5]], first: ["motor_a": .null], second: ["motor_a": ["position": 1]],
            merged: ["motor_a": ["position": 1]]),
        MergeCase(
            state: ["motor_a": ["speed": 5]], first: ["motor_a": "gone"], second: ["motor_a": ["position": 1]],
            merged: ["motor_a": ["position": 1]]),
        MergeCase(state: [:], first: ["motor_a": ["speed": 5, "brake": .null]], second: ["battery": 9],
            merged: ["motor_a": ["speed": 5], "battery": 9]),
        MergeCase(state: ["color": ["h": 1, "s": 2]], first: ["color": ["h": 3]], second: ["state": "ON"],
            merged: ["color": ["h": 3, "s": 2], "state": "ON"]),
    ]

    @Test("state changes merge level by level; two queued changes compose to the same state or stay apart",
        arguments: merges)
    func merge(_ testCase: MergeCase) {
        let inTurn = testCase.state.merging(state: testCase.first).merging(state: testCase.second)
        #expect(inTurn == testCase.merged)
        if let composed = testCase.first.composing(stateChange: testCase.second) {
            #expect(testCase.state.merging(state: composed) == testCase.merged)
        } else {
            // Only an object after a null or a scalar under the same key cannot compose.
            #expect(testCase.first.values.contains { $0 == .null || $0.stringValue != nil })
        }
    }
}

extension JSONValue {
    /// The element at `index` of an array, nil for other kinds or out of range.
    subscript(index: Int) -> JSONValue? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }
}
