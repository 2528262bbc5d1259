import Support
import Testing

@Suite("Hex text")
struct HexTests {
    @Test("bytes become two digits each, lowercase unless asked, with an optional separator")
    func format() {
        #expect(Hex.string([0xC0, 0xFF, 0xEE, 0x00, 0x0A]) == "c0ffee000a")
        #expect(Hex.string([0xC0, 0x0A], uppercase: true, separator: " ") == "C0 0A")
        #expect(Hex.string([]) == "")
        #expect(Hex.byte(0x05) == "05" && Hex.byte(0xAB, uppercase: true) == "AB")
    }

    @Test(
        "text parses with spaces, colons and a 0x prefix",
        arguments: [("c0ffee", [0xC0, 0xFF, 0xEE]), ("0xC0 FF:ee", [0xC0, 0xFF, 0xEE]), ("", []), ("0X0a", [0x0A])] as [(String, [UInt8])])
    func parse(text: String, bytes: [UInt8]) throws {
        #expect(try Hex.bytes(text) == bytes)
    }

    @Test("non-hex text and odd digit counts are errors that quote the text", arguments: ["abc", "zz", "c0 f fe", "１２", "+1"])
    func bad(text: String) {
        #expect(throws: HexError.self) { try Hex.bytes(text) }
        do {
            _ = try Hex.bytes(text)
        } catch {
            #expect(error.description.contains("\"\(text)\""))
        }
    }

    @Test("digits have their value in either case; other bytes have none")
    func digits() {
        #expect(Hex.digit(UInt8(ascii: "7")) == 7 && Hex.digit(UInt8(ascii: "f")) == 15 && Hex.digit(UInt8(ascii: "F")) == 15)
        #expect(Hex.digit(UInt8(ascii: "g")) == nil && Hex.digit(UInt8(ascii: " ")) == nil && Hex.digit(0xB0) == nil)
    }
}
