import BLEModels
import Testing

@Suite("Service data by UUID")
struct ServiceDataTests {
    static let a = BLEUUID(uuid16: 0x181A), b = BLEUUID(uuid16: 0xFCD2), c = BLEUUID(uuid16: 0xFE95)

    @Test("entries are found, replaced and removed wherever they are kept")
    func lookups() {
        var data = ServiceData()
        #expect(data.isEmpty && data.count == 0 && data[Self.a] == nil)
        data[Self.a] = [1]
        data[Self.b] = [2]
        data[Self.c] = [3]
        #expect(data.count == 3 && data[Self.a] == [1] && data[Self.b] == [2] && data[Self.c] == [3])
        #expect(data.keys == [Self.a, Self.b, Self.c], "in the order first set")
        data[Self.b] = [20]
        data[Self.a] = [10]
        #expect(data.keys == [Self.a, Self.b, Self.c] && data[Self.a] == [10] && data[Self.b] == [20])
        data[Self.a] = nil
        #expect(data.keys == [Self.b, Self.c] && data[Self.a] == nil, "the first removed, the next takes its place")
        data[Self.c] = nil
        #expect(data.keys == [Self.b] && data.count == 1)
        data[Self.c] = nil
        #expect(data.keys == [Self.b], "removing what is not there changes nothing")
        data[Self.b] = nil
        #expect(data.isEmpty && Array(data).isEmpty)
    }

    /// Two service data and whether they are equal.
    static let pairs: [(ServiceData, ServiceData, Bool)] = [
        ([a: [1], b: [2]], [b: [2], a: [1]], true),
        ([a: [1]], [a: [1]], true),
        ([:], [:], true),
        ([a: [1]], [a: [2]], false),
        ([a: [1]], [b: [1]], false),
        ([a: [1]], [a: [1], b: [2]], false),
        ([a: [1], b: [2]], [a: [1], c: [2]], false),
    ]

    @Test("equal and hashed alike whatever the order; payloads and UUIDs both count", arguments: pairs)
    func equality(lhs: ServiceData, rhs: ServiceData, equal: Bool) {
        #expect((lhs == rhs) == equal && (rhs == lhs) == equal)
        if equal { #expect(lhs.hashValue == rhs.hashValue) }
    }

    @Test("a literal or dictionary with a UUID twice keeps one entry")
    func repeated() {
        let literal: ServiceData = [Self.a: [1], Self.a: [2]]
        #expect(literal.count == 1 && literal[Self.a] == [2])
        let dictionary = ServiceData([Self.a: [1], Self.c: [3]])
        #expect(dictionary == [Self.c: [3], Self.a: [1]])
    }
}
