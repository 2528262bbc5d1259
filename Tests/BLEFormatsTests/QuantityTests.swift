import BLEFormats
import Testing

@Suite("Quantities compare by their fields, however they were made")
struct QuantityTests {
    @Test("a quantity made again with the same fields equals the table's, and hashes alike")
    func sameFields() {
        let made = Quantity(
            "temperature", name: "Temperature", unit: "°C", deviceClass: "temperature", stateClass: "measurement",
            change: .threshold(0.1))
        #expect(made == .temperature)
        #expect(Set([made, .temperature]).count == 1)
        #expect(Quantity.button.keyed("button", name: Quantity.button.name) == .button)
    }

    @Test(
        "a quantity that differs in any one field is another",
        arguments: [
            Quantity("temperature", name: "Temperature", unit: "°C", deviceClass: "temperature", stateClass: "measurement", change: .threshold(0.2)),
            Quantity("temperature", name: "Temperature", unit: "°F", deviceClass: "temperature", stateClass: "measurement", change: .threshold(0.1)),
            Quantity("temperature", name: "Temperature", unit: "°C", deviceClass: nil, stateClass: "measurement", change: .threshold(0.1)),
            Quantity("temperature", name: "Temperature", unit: "°C", deviceClass: "temperature", stateClass: nil, change: .threshold(0.1)),
            Quantity("temperature", name: "Temperature", unit: "°C", deviceClass: "temperature", stateClass: "measurement", diagnostic: true, change: .threshold(0.1)),
            Quantity("temperature", name: "Temperature", kind: .binary, unit: "°C", deviceClass: "temperature", stateClass: "measurement", change: .threshold(0.1)),
            Quantity("temperature", name: "Temperature", unit: "°C", deviceClass: "temperature", stateClass: "measurement", change: .threshold(0.1), inverted: true),
            Quantity("temperature_2", name: "Temperature", unit: "°C", deviceClass: "temperature", stateClass: "measurement", change: .threshold(0.1)),
            Quantity("temperature", name: "Temperature 2", unit: "°C", deviceClass: "temperature", stateClass: "measurement", change: .threshold(0.1)),
        ])
    func oneFieldDiffers(other: Quantity) {
        #expect(other != .temperature)
        #expect(Set([other, .temperature]).count == 2)
    }
}
