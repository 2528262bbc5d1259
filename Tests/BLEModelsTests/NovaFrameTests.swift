import BLEModels
import TestSupport
import Testing

@Suite("Nova frames and acknowledgements")
struct NovaFrameTests {
    @Test(
        "frames are the SDKs' ASCII, uppercase hex, dark lights sent as off",
        arguments: [
            (0x01, NovaCommand.light(warm: 0xFF, cool: 0x00, timeout: 0x05DC), "(01:L,FF,00,05DC)"),
            (0x4A, .light(warm: 0x00, cool: 0xFF, timeout: 1500), "(4A:L,00,FF,05DC)"),
            (0x00, .light(warm: 0xAB, cool: 0xCD, timeout: 0x0A0B), "(00:L,AB,CD,0A0B)"),
            (0xFF, .light(warm: 0x41, cool: 0x41, timeout: 0xFFFF), "(FF:L,41,41,FFFF)"),
            (0x3C, .light(warm: 0x7F, cool: 0x00, timeout: 1), "(3C:L,7F,00,0001)"),
            (0x07, .off, "(07:O)"),
            (0x08, .ping, "(08:P)"),
            (0x10, .light(warm: 0, cool: 0, timeout: 1500), "(10:O)"),
            (0x11, .light(warm: 0x7F, cool: 0, timeout: 0), "(11:O)"),
            (0xA0, .light(warm: 0, cool: 0, timeout: 0), "(A0:O)"),
        ])
    func frames(id: Int, command: NovaCommand, text: String) {
        let frame = NovaFrame(id: UInt8(id), command: command)
        #expect(frame.description == text)
        #expect(frame.bytes == Array(text.utf8))
    }

    @Test("reference vectors, byte for byte")
    func referenceVectors() {
        let light = NovaFrame(id: 1, command: .light(warm: 0xFF, cool: 0x00, timeout: 0x05DC))
        let expected: [UInt8] = [
            0x28, 0x30, 0x31, 0x3A, 0x4C, 0x2C, 0x46, 0x46, 0x2C, 0x30, 0x30, 0x2C, 0x30, 0x35, 0x44, 0x43, 0x29,
        ]
        #expect(light.bytes == expected)
        #expect(NovaReply([0x28, 0x30, 0x31, 0x3A, 0x41, 0x29]) == .ack(id: 1))
    }

    @Test(
        "notifications: acks in either case, everything else typed as not an ack",
        arguments: [
            ("(01:A)", NovaReply.ack(id: 1)), ("(4A:A)", .ack(id: 0x4A)), ("(4a:A)", .ack(id: 0x4A)),
            ("(FF:A)", .ack(id: 0xFF)), ("(00:A)", .ack(id: 0)),
            ("", .notAnAck(.empty)), ("(01:A", .notAnAck(.wrongLength(5))), ("(01:A) ", .notAnAck(.wrongLength(7))),
            ("(01:L,FF,00,05DC)", .notAnAck(.wrongLength(17))), ("(01:a)", .notAnAck(.wrongShape)),
            ("[01:A]", .notAnAck(.wrongShape)), ("(01;A)", .notAnAck(.wrongShape)), ("(01:O)", .notAnAck(.wrongShape)),
            ("(ZZ:A)", .notAnAck(.idNotHex)), ("(0G:A)", .notAnAck(.idNotHex)), ("( 1:A)", .notAnAck(.idNotHex)),
        ])
    func replies(text: String, reply: NovaReply) {
        #expect(NovaReply(Array(text.utf8)) == reply)
    }

    @Test("every id's ack parses back to that id", arguments: 0...255)
    func everyAck(id: Int) {
        #expect(NovaReply(Array(ack(id, uppercase: true).utf8)).ackID == UInt8(id))
        #expect(NovaReply(Array(ack(id, uppercase: false).utf8)).ackID == UInt8(id))
    }

    @Test("every prefix of a frame or an ack is not an ack", arguments: ["(01:A)", "(7F:A)", "(01:L,FF,00,05DC)"])
    func truncated(text: String) {
        let bytes = Array(text.utf8)
        for length in 0..<bytes.count {
            #expect(NovaReply(bytes.prefix(length)).ackID == nil, "\(length) bytes of \(text)")
            #expect(NovaReply(bytes.suffix(length)).ackID == nil, "last \(length) bytes of \(text)")
        }
    }

    @Test("random bytes never crash and are an ack only when they spell one", arguments: [1, 2, 3, 0x5EED, 0xDEAD_BEEF])
    func fuzz(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let alphabet = Array("()0123456789ABCDEFabcdefA:LOPZ,".utf8)
        for round in 0..<2_000 {
            let length = Int(random.next() % 10)
            // Half the inputs draw from ack-like characters so the interesting branches are reached.
            let bytes = (0..<length).map { _ in
                round.isMultiple(of: 2)
                    ? UInt8(truncatingIfNeeded: random.next()) : alphabet[Int(random.next() % UInt64(alphabet.count))]
            }
            if let id = NovaReply(bytes).ackID {
                let text = String(decoding: bytes, as: UTF8.self)
                #expect(text == ack(Int(id), uppercase: true) || text == ack(Int(id), uppercase: false), "\(bytes)")
            }
        }
    }

    @Test(
        "request ids start at 1 and wrap from 255 to 0",
        arguments: [(0, [1, 2, 3]), (253, [254, 255, 0, 1]), (255, [0, 1])])
    func requestIDs(last: Int, expected: [Int]) {
        var ids = NovaRequestIDs(last: UInt8(last))
        #expect(expected.map { _ in Int(ids.next()) } == expected)
        #expect(ids.last == UInt8(expected.last!))
    }
}

/// The ack of an id, its hex digits in the given case.
private func ack(_ id: Int, uppercase: Bool) -> String {
    let hex = String(id, radix: 16, uppercase: uppercase)
    return "(" + (hex.count == 1 ? "0" + hex : hex) + ":A)"
}
