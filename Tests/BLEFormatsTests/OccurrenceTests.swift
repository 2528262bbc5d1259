import BLEFormats
import BridgeCore
import TestSupport
import Testing

/// A BTHome payload and how its decoded values split into state and occurrences.
struct SplitCase: Sendable, CustomTestStringConvertible {
    var payload: String
    var values: [String]
    var occurrences: [ExposeEvent]
    var testDescription: String { payload }
}

@Suite("Decoded events become occurrences, never state")
struct OccurrenceTests {
    static let cases: [SplitCase] = [
        SplitCase(payload: "40 3A 01", values: [], occurrences: [ExposeEvent("button", type: "press")]),
        SplitCase(payload: "44 00 2A 01 64 3A 04", values: ["battery"], occurrences: [ExposeEvent("button", type: "long_press")]),
        SplitCase(payload: "40 3A 00", values: [], occurrences: []),
        SplitCase(
            payload: "44 00 07 01 50 3A 00 3A 00 3A 02 3A 00", values: ["battery"],
            occurrences: [ExposeEvent("button_3", type: "double_press")]),
        SplitCase(
            payload: "40 3A 01 3A 80", values: [],
            occurrences: [ExposeEvent("button_1", type: "press"), ExposeEvent("button_2", type: "hold_press")]),
        SplitCase(
            payload: "40 02 C4 09 3C 01 03", values: ["temperature", "dimmer_steps"],
            occurrences: [ExposeEvent("dimmer", type: "rotate_left", data: ["steps": 3])]),
        SplitCase(
            payload: "40 3C 00 05 3C 02 07", values: ["dimmer_steps_2"],
            occurrences: [ExposeEvent("dimmer_2", type: "rotate_right", data: ["steps": 7])]),
        SplitCase(
            payload: "40 3A 01 3C 02 01", values: ["dimmer_steps"],
            occurrences: [ExposeEvent("button", type: "press"), ExposeEvent("dimmer", type: "rotate_right", data: ["steps": 1])]),
    ]

    @Test("presses and turns split off from the values, dimmer steps going with their turn", arguments: cases)
    func split(_ testCase: SplitCase) throws {
        let reading = try #require(BTHome.decode(hex(testCase.payload)).reading)
        let split = SplitMeasurements(reading.measurements)
        #expect(split.values.map(\.key) == testCase.values)
        #expect(split.occurrences == testCase.occurrences)
    }

    @Test("a dimmer's steps only go with the turn decoded right before them")
    func unpairedSteps() {
        let measurements = [Measurement(.dimmer, .event("rotate_left")), Measurement(.battery, 90), Measurement(.dimmerSteps, 4)]
        #expect(SplitMeasurements(measurements).occurrences == [ExposeEvent("dimmer", type: "rotate_left")])
    }
}
