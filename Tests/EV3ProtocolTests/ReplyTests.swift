import EV3Protocol
import TestSupport
import Testing

@Suite("EV3 direct replies")
struct ReplyTests {
    @Test(
        "ok, error with globals and the short error form parse",
        arguments: [
            ("07 00 2A 00 02 01 00 00 00", 0x2A, EV3DirectReply.Status.ok, "01 00 00 00"),
            ("04 00 2A 00 02 64", 0x2A, .ok, "64"),
            ("03 00 01 00 02", 1, .ok, ""),
            ("03 00 2B 00 04", 0x2B, .error, ""),
            ("05 00 FF FF 04 80 7E", 0xFFFF, .error, "80 7E"),
        ])
    func parses(frame: String, counter: Int, status: EV3DirectReply.Status, globals: String) throws {
        let reply = try EV3DirectReply(frame: hex(frame))
        #expect(reply.counter == UInt16(counter))
        #expect(reply.status == status)
        #expect(hex(reply.globals) == globals)
        #expect(try EV3Reply(frame: hex(frame)) == .direct(reply))
        #expect(try EV3Reply(frame: hex(frame)).counter == UInt16(counter))
        #expect(hex(reply.bytes) == frame)
    }

    @Test(
        "short frames, wrong length fields and unknown types are errors",
        arguments: [
            ("", EV3DecodingError.truncated(needed: 5, got: 0)),
            ("03 00 2B 00", .truncated(needed: 5, got: 4)),
            ("04 00 2B 00 04", .lengthMismatch(field: 4, actual: 3)),
            ("03 00 2B 00 04 00", .lengthMismatch(field: 3, actual: 4)),
            ("FF FF 2B 00 02", .lengthMismatch(field: 65535, actual: 3)),
            ("03 00 2B 00 00", .unknownType(0x00)),
            ("03 00 2B 00 01", .unknownType(0x01)),
            ("03 00 2B 00 06", .unknownType(0x06)),
            ("03 00 2B 00 80", .unknownType(0x80)),
            ("04 00 2B 00 03 99", .truncated(needed: 7, got: 6)),
        ])
    func malformed(frame: String, error: EV3DecodingError) {
        #expect(throws: error) { try EV3Reply(frame: hex(frame)) }
    }

    @Test("a system reply is not a direct reply")
    func notDirect() {
        #expect(throws: EV3DecodingError.unknownType(0x03)) {
            try EV3DirectReply(frame: hex("06 00 01 00 03 92 00 00"))
        }
    }

    @Test(
        "a reply answers a command with its counter and its memory, or the short error",
        arguments: [
            ("07 00 2A 00 02 01 00 00 00", nil as EV3DecodingError?),
            ("07 00 2A 00 04 01 00 00 00", nil),
            ("03 00 2A 00 04", nil),
            ("07 00 2B 00 02 01 00 00 00", .counterMismatch(expected: 42, got: 43)),
            ("04 00 2A 00 02 01", .globalsSize(expected: 4, got: 1)),
            ("03 00 2A 00 02", .globalsSize(expected: 4, got: 0)),
            ("04 00 2A 00 04 00", .globalsSize(expected: 4, got: 1)),
        ])
    func answers(frame: String, error: EV3DecodingError?) throws {
        let command = try EV3DirectCommand(counter: 42, replyRequested: true, globalSize: 4, bytecode: [0x01])
        let reply = try EV3DirectReply(frame: hex(frame))
        if let error {
            #expect(throws: error) { try reply.check(answering: command) }
        } else {
            try reply.check(answering: command)
        }
    }
}
