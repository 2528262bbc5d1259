import EV3Protocol
import TestSupport
import Testing

@Suite("EV3 parameter encodings")
struct ParameterTests {
    @Test(
        "every form encodes byte for byte and decodes back to itself",
        arguments: [
            // LC0: six-bit two's complement, the reference's own examples and both ends.
            (EV3Parameter.lc0(0), "00"), (.lc0(31), "1F"), (.lc0(-1), "3F"), (.lc0(-5), "3B"), (.lc0(-10), "36"),
            (.lc0(-30), "22"), (.lc0(-32), "20"), (.lc0(1), "01"), (.lc0(20), "14"),
            (.lc1(0), "81 00"), (.lc1(50), "81 32"), (.lc1(127), "81 7F"), (.lc1(-128), "81 80"), (.lc1(-1), "81 FF"),
            (.lc2(440), "82 B8 01"), (.lc2(1000), "82 E8 03"), (.lc2(900), "82 84 03"), (.lc2(-32768), "82 00 80"),
            (.lc2(32767), "82 FF 7F"), (.lc2(-1), "82 FF FF"),
            (.lc4(0x7FFF_FFFF), "83 FF FF FF 7F"), (.lc4(.min), "83 00 00 00 80"), (.lc4(1), "83 01 00 00 00"),
            (.lc4(-2), "83 FE FF FF FF"),
            (.lcs(""), "84 00"), (.lcs("EV3"), "84 45 56 33 00"),
            (.lcs("ui/Startup"), "84 75 69 2F 53 74 61 72 74 75 70 00"),
            (.lv0(0), "40"), (.lv0(31), "5F"), (.lv1(32), "C1 20"), (.lv2(0x0102), "C2 02 01"),
            (.lv4(0x0102_0304), "C3 04 03 02 01"),
            (.gv0(0), "60"), (.gv0(4), "64"), (.gv0(31), "7F"), (.gv1(0), "E1 00"), (.gv1(32), "E1 20"),
            (.gv1(255), "E1 FF"),
            (.gv2(256), "E2 00 01"), (.gv2(1021), "E2 FD 03"), (.gv4(65536), "E3 00 00 01 00"),
        ])
    func roundTrip(parameter: EV3Parameter, encoded: String) throws {
        let bytes = try parameter.encoded()
        #expect(hex(bytes) == encoded)
        var index = 0
        #expect(try EV3Parameter.decode(bytes, at: &index) == parameter)
        #expect(index == bytes.count)
    }

    @Test(
        "constants take the shortest form, LC0 only for −32…31",
        arguments: [
            (0, "00"), (31, "1F"), (-32, "20"), (32, "81 20"), (-33, "81 DF"), (50, "81 32"), (127, "81 7F"),
            (-128, "81 80"), (128, "82 80 00"), (-129, "82 7F FF"), (440, "82 B8 01"), (32767, "82 FF 7F"),
            (-32768, "82 00 80"), (32768, "83 00 80 00 00"), (-32769, "83 FF 7F FF FF"),
            (Int(Int32.max), "83 FF FF FF 7F"), (Int(Int32.min), "83 00 00 00 80"),
        ])
    func shortestConstant(value: Int, encoded: String) throws {
        #expect(hex(try EV3Parameter.constant(Int32(value)).encoded()) == encoded)
        #expect(EV3Parameter.constant(Int32(value)).constantValue == Int32(value))
    }

    @Test(
        "global and local offsets take the shortest form",
        arguments: [
            (0, "60", "40"), (31, "7F", "5F"), (32, "E1 20", "C1 20"), (255, "E1 FF", "C1 FF"),
            (256, "E2 00 01", "C2 00 01"), (65535, "E2 FF FF", "C2 FF FF"), (65536, "E3 00 00 01 00", "C3 00 00 01 00"),
        ])
    func shortestOffsets(offset: UInt32, global: String, local: String) throws {
        #expect(hex(try EV3Parameter.global(offset).encoded()) == global)
        #expect(hex(try EV3Parameter.local(offset).encoded()) == local)
        #expect(EV3Parameter.global(offset).globalOffset == offset)
    }

    @Test(
        "short forms out of range and strings with a NUL are refused",
        arguments: [
            (EV3Parameter.lc0(32), EV3EncodingError.outOfRange("LC0", value: 32, allowed: -32...31)),
            (.lc0(-33), .outOfRange("LC0", value: -33, allowed: -32...31)),
            (.lc0(127), .outOfRange("LC0", value: 127, allowed: -32...31)),
            (.gv0(32), .outOfRange("GV0", value: 32, allowed: 0...31)),
            (.lv0(32), .outOfRange("LV0", value: 32, allowed: 0...31)),
            (.lcs("a\u{0}b"), .invalidString("LCS", reason: "contains a NUL byte")),
        ])
    func refused(parameter: EV3Parameter, error: EV3EncodingError) {
        #expect(throws: error) { try parameter.encoded() }
        var bytes: [UInt8] = [0xAA]
        #expect(throws: error) { try parameter.encode(into: &bytes) }
        #expect(bytes == [0xAA])
    }

    @Test("every one-byte parameter decodes and encodes back to the same byte", arguments: 0...0x7F)
    func shortForms(byte: Int) throws {
        var index = 0
        let parameter = try EV3Parameter.decode([UInt8(byte)], at: &index)
        #expect(try parameter.encoded() == [UInt8(byte)])
    }

    @Test("the older `80` string form reads as a string")
    func oldStringForm() throws {
        var index = 1
        #expect(try EV3Parameter.decode(hex("FF 80 41 42 00 60"), at: &index) == .lcs("AB"))
        #expect(index == 5)
    }

    @Test(
        "truncated and unsupported parameters are errors, the index unmoved",
        arguments: [
            ("", EV3DecodingError.truncated(needed: 1, got: 0)), ("81", .truncated(needed: 2, got: 1)),
            ("82 01", .truncated(needed: 3, got: 2)), ("83 01 02 03", .truncated(needed: 5, got: 4)),
            ("E2 00", .truncated(needed: 3, got: 2)), ("84 41 42", .unterminatedString(offset: 0)),
            ("90", .unsupportedParameter(0x90, offset: 0)), ("88 00", .unsupportedParameter(0x88, offset: 0)),
            ("A1 00", .unsupportedParameter(0xA1, offset: 0)), ("85 00", .unsupportedParameter(0x85, offset: 0)),
            ("C4 00", .unsupportedParameter(0xC4, offset: 0)), ("E0", .unsupportedParameter(0xE0, offset: 0)),
        ])
    func decodingErrors(input: String, error: EV3DecodingError) {
        var index = 0
        #expect(throws: error) { try EV3Parameter.decode(hex(input), at: &index) }
        #expect(index == 0)
    }
}
