import BridgeCore
import Testing

@Suite("Device event batch: events in order, a reserved place filled later or left out")
struct DeviceEventBatchTests {
    static let a = DeviceID(integration: "test", native: "a")
    static let b = DeviceID(integration: "test", native: "b")

    /// The events of a batch, in a form `#expect` can compare.
    static func labels(_ batch: DeviceEventBatch) -> [String] {
        batch.sealed.map { event in
            switch event {
            case .status(let id, let status, _, _): "status \(id.rawValue) \(status)"
            case .state(let id, let state): "state \(id.rawValue) \(state.keys.sorted())"
            default: "other"
            }
        }
    }

    @Test("appended events keep their order")
    func order() {
        var batch = DeviceEventBatch()
        batch.append(.status(Self.a, .available))
        batch.append(.status(Self.b, .available))
        #expect(Self.labels(batch) == ["status test_a available", "status test_b available"])
    }

    @Test("a state filled in later goes where its place was kept")
    func filled() {
        var batch = DeviceEventBatch()
        batch.append(.status(Self.a, .available))
        let place = batch.reserve()
        batch.append(.status(Self.b, .available))
        batch.fill(place, with: .state(Self.a, ["temperature": 21]))
        #expect(Self.labels(batch) == ["status test_a available", "state test_a [\"temperature\"]", "status test_b available"])
    }

    @Test("a place never filled is left out, and filling a place never kept changes nothing")
    func unfilled() {
        var batch = DeviceEventBatch()
        _ = batch.reserve()
        batch.append(.status(Self.a, .available))
        batch.fill(7, with: .state(Self.b, ["temperature": 1]))
        #expect(Self.labels(batch) == ["status test_a available"])
        #expect(DeviceEventBatch().sealed.isEmpty)
    }
}
