@testable import DBus
import Testing

/// The codec in-process: values written into a real libdbus message and read back, no bus involved.
@Suite struct CodecTests {
    private func roundTrip(_ values: [DBusValue], signature: DBusSignature? = nil) throws(DBusError) -> [DBusValue] {
        let message = try MessageRef.signal(path: "/t", interface: "com.example.T", member: "M", operation: "test")
        try message.append(values, signature: signature, operation: "test")
        return try message.read(operation: "test")
    }

    @Test("a value survives writing and reading with its own signature", arguments: Samples.all.map(\.0))
    func ownSignature(value: DBusValue) throws {
        #expect(try roundTrip([value]) == [value])
    }

    @Test("a value's signature is the one written by hand", arguments: Samples.all)
    func signatures(value: DBusValue, signature: String) {
        #expect(value.signature == DBusSignature(signature))
    }

    @Test("a value survives writing and reading with an explicit signature", arguments: Samples.all)
    func explicitSignature(value: DBusValue, signature: String) throws {
        #expect(try roundTrip([value], signature: DBusSignature(signature)) == [value])
    }

    @Test("several arguments keep their order")
    func severalArguments() throws {
        let values = Samples.basics.map(\.0)
        let signature = DBusSignature(Samples.basics.map(\.1).joined())
        #expect(try roundTrip(values, signature: signature) == values)
    }

    @Test(
        "an explicit signature types empty containers and wraps plain values in variants",
        arguments: [
            (DBusValue.array("s", []), "ao", DBusValue.array("o", [])),
            (.int32(5), "v", .variant(.int32(5))),
            (.vardict([:]), "a{sv}", .dictionary(key: "s", value: "v", [])),
            (.dictionary(key: "s", value: "i", [DBusDictEntry(key: .string("n"), value: .int32(1))]), "a{sv}",
             .dictionary(key: "s", value: "v", [DBusDictEntry(key: .string("n"), value: .variant(.int32(1)))])),
            (.array("y", [.byte(7)]), "ay", .bytes([7])),
        ])
    func conversions(value: DBusValue, signature: String, expected: DBusValue) throws {
        #expect(try roundTrip([value], signature: DBusSignature(signature)) == [expected])
    }

    @Test(
        "invalid values are refused with a typed error before libdbus sees them",
        arguments: [
            (DBusValue.string("nul\u{0}inside"), "s"),
            (.objectPath("relative/path"), "o"),
            (.objectPath("/trailing/"), "o"),
            (.signature("a{vs}"), "g"),
            (.structure([]), "()"),
            (.int32(1), "s"),
            (.string("x"), "i"),
            (.structure([.int32(1)]), "(ii)"),
            (.array("s", [.int32(1)]), "as"),
            (.dictionary(key: "s", value: "v", [DBusDictEntry(key: .int32(1), value: .variant(.int32(1)))]), "a{sv}"),
            (.bytes([1]), "as"),
            (.int32(1), "a{vs}"),
            (.int32(1), "(i"),
            (.int32(1), "ii"),
            (.int32(1), "z"),
        ])
    func refused(value: DBusValue, signature: String) {
        #expect(throws: DBusError.self) { try roundTrip([value], signature: DBusSignature(signature)) }
        do {
            _ = try roundTrip([value], signature: DBusSignature(signature))
        } catch {
            #expect(error.code == .invalidArgument)
        }
    }

    @Test("a value whose own signature is malformed is refused")
    func malformedOwnSignature() {
        #expect(throws: DBusError.self) { try roundTrip([.array("{sv", [])]) }
        #expect(throws: DBusError.self) { try roundTrip([.structure([])]) }
    }
}
