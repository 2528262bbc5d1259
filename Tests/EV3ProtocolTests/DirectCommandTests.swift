import EV3Protocol
import TestSupport
import Testing

@Suite("EV3 direct command framing")
struct DirectCommandTests {
    @Test(
        "the variable header packs locals above the globals' top two bits",
        arguments: [
            (0, 0, "00 00"), (1, 0, "01 00"), (4, 0, "04 00"), (16, 0, "10 00"), (255, 0, "FF 00"), (256, 0, "00 01"),
            (1021, 0, "FD 03"), (0, 1, "00 04"), (0, 63, "00 FC"), (1021, 63, "FD FF"), (300, 5, "2C 15"),
        ])
    func variableHeader(globals: Int, locals: Int, header: String) throws {
        let command = try EV3DirectCommand(
            counter: 0x1234, replyRequested: true, globalSize: globals, localSize: locals, bytecode: [0x01])
        #expect(hex(command.variableHeader) == header)
        #expect(hex(command.bytes) == "06 00 34 12 00 " + header + " 01")
    }

    @Test("length, counter and type come first; no reply is type 80")
    func frame() throws {
        let command = try EV3DirectCommand(
            counter: 0xBEEF, replyRequested: false, globalSize: 0, bytecode: [0x01, 0x01])
        #expect(hex(command.bytes) == "07 00 EF BE 80 00 00 01 01")
        #expect(command.type == 0x80)
    }

    @Test("the largest frame the brick takes is 1024 bytes with its length field")
    func largest() throws {
        let command = try EV3DirectCommand(
            counter: 1, replyRequested: true, globalSize: 0, bytecode: Array(repeating: 0x01, count: 1017))
        #expect(command.bytes.count == 1024)
        #expect(Array(command.bytes.prefix(2)) == [0xFE, 0x03])
    }

    @Test(
        "limits the firmware enforces are refused before a frame exists",
        arguments: [
            (1022, 0, 1, EV3EncodingError.tooManyGlobals(1022, limit: 1021)),
            (-1, 0, 1, .tooManyGlobals(-1, limit: 1021)),
            (0, 64, 1, .tooManyLocals(64, limit: 63)),
            (0, 0, 0, .empty),
            (0, 0, 1018, .tooLong(bytes: 1025, limit: 1024)),
        ])
    func limits(globals: Int, locals: Int, bytecodeLength: Int, error: EV3EncodingError) {
        #expect(throws: error) {
            try EV3DirectCommand(
                counter: 1, replyRequested: true, globalSize: globals, localSize: locals,
                bytecode: Array(repeating: 0x01, count: bytecodeLength))
        }
    }

    @Test("errors say what was wrong")
    func messages() {
        #expect(
            EV3EncodingError.outOfRange("OUTPUT_POWER power", value: 120, allowed: -100...100).description
                == "OUTPUT_POWER power 120 is outside -100...100")
        #expect(EV3DecodingError.unknownType(0x07).description == "unknown reply type 0x07")
        #expect(
            EV3DecodingError.frameLength(0xFFFF, allowed: 3...1022).description
                == "length field 65535 outside 3...1022")
    }
}
