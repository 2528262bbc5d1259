import BLEModels
@testable import BlueZ
import DBus
import Testing

@Suite("A device's property changes merged field by field")
struct DeviceChangeTests {
    static let uuid = "0000fe95-0000-1000-8000-00805f9b34fb"
    /// The same UUID as the service data key.
    static let key = BLEUUID(uuid16: 0xFE95)

    static func change(_ properties: [String: DBusValue], invalidated: [String] = []) -> DeviceChange {
        DeviceChange(properties, invalidated: invalidated)
    }

    static func serviceData(_ bytes: [UInt8]) -> DBusValue {
        .dictionary(key: "s", value: "v", [DBusDictEntry(key: .string(uuid), value: .variant(.bytes(bytes)))])
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let steps: [DeviceChange]
        let expected: DeviceChange
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "the later value wins, the rest stays",
            steps: [change(["RSSI": .int16(-70), "Name": .string("A")]), change(["RSSI": .int16(-60)])],
            expected: change(["RSSI": .int16(-60), "Name": .string("A")])),
        Case(
            name: "an invalidation takes the value and is kept",
            steps: [change(["RSSI": .int16(-70), "ServiceData": serviceData([1])]), change([:], invalidated: ["RSSI", "Name"])],
            expected: change(["ServiceData": serviceData([1])], invalidated: ["RSSI", "Name"])),
        Case(
            name: "a value after an invalidation brings it back",
            steps: [change([:], invalidated: ["RSSI", "Alias"]), change(["RSSI": .int16(-50), "Alias": .string("B")])],
            expected: change(["RSSI": .int16(-50), "Alias": .string("B")])),
        Case(
            name: "a mistyped value is named, empty, and replaces a good one",
            steps: [change(["RSSI": .int16(-50)]), change(["RSSI": .string("loud")])],
            expected: change(["RSSI": .string("loud")])),
    ]

    @Test("merging", arguments: cases)
    func merging(_ testCase: Case) {
        var merged = testCase.steps[0]
        for step in testCase.steps.dropFirst() { merged.merge(step) }
        #expect(merged == testCase.expected)
    }

    @Test("what a change names and holds once read from values")
    func fromValues() {
        let change = Self.change(
            ["RSSI": .string("loud"), "ServiceData": Self.serviceData([9]), "ManufacturerData": .int16(1), "Connected": .bool(true)],
            invalidated: ["TxPower"])
        #expect(change.named == [.rssi, .serviceData, .manufacturerData])
        #expect(change.rssi == nil && change.serviceData == [Self.key: [9]] && change.manufacturerData == nil)
        #expect(change.other == ["Connected": .bool(true)] && change.invalidated == ["TxPower"])
        #expect(change.carriesAdvert)
        #expect(!Self.change(["RSSI": .int16(-40)]).carriesAdvert)
    }
}
