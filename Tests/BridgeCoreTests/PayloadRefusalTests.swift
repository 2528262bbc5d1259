import BridgeCore
import Testing

/// A `/set` or `/get` payload and the exact message its refusal must carry.
struct RefusedPayload: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var attribute: String? = nil
    var verb: CommandTopic.Verb = .set
    var message: String
    var testDescription: String { name }
}

@Suite("Refused payloads say why")
struct PayloadRefusalTests {
    static let deep = Array((String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)).utf8)

    static let cases: [RefusedPayload] = [
        RefusedPayload(name: "5,000 nested arrays", bytes: deep, message: "payload is not valid JSON: nesting deeper than 32 levels at byte 33"),
        RefusedPayload(
            name: "nesting after leading whitespace", bytes: Array(" \n".utf8) + deep,
            message: "payload is not valid JSON: nesting deeper than 32 levels at byte 35"),
        RefusedPayload(
            name: "out-of-range number", bytes: Array(#"{"brightness":1e999}"#.utf8),
            message: "payload is not valid JSON: number out of range at byte 15"),
        RefusedPayload(
            name: "invalid UTF-8", bytes: Array(#"{"state":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8),
            message: "payload is not valid JSON: invalid UTF-8 at byte 11"),
        RefusedPayload(
            name: "unterminated object", bytes: Array(#"{"state":"ON""#.utf8), message: "payload is not valid JSON: JSON ends early at byte 14"),
        RefusedPayload(
            name: "oversized plain text", bytes: Array(repeating: UInt8(ascii: "x"), count: 70_000),
            message: "payload larger than 65536 bytes"),
        RefusedPayload(
            name: "plain text keeps its message", bytes: Array("dim please".utf8), message: "payload is not a JSON object: dim please"),
        RefusedPayload(
            name: "JSON that is not an object", bytes: Array("[1,2]".utf8), message: "payload is not a JSON object: [1,2]"),
        RefusedPayload(
            name: "attribute value", bytes: Array("[1e999]".utf8), attribute: "brightness",
            message: "payload is not valid JSON: number out of range at byte 2"),
        RefusedPayload(name: "get", bytes: Array("{".utf8), verb: .get, message: "payload is not valid JSON: JSON ends early at byte 2"),
        RefusedPayload(
            name: "get with plain text", bytes: Array("state".utf8), verb: .get,
            message: "get payload must be a JSON object such as {\"state\":\"\"}"),
    ]

    @Test("the message names what was refused and where", arguments: cases)
    func refused(_ payload: RefusedPayload) {
        let device = Devices.colorLight
        #expect(throws: CommandError(payload.message)) {
            switch payload.verb {
            case .set: _ = try CommandParser.parseSet(payload: payload.bytes, attribute: payload.attribute, device: device)
            case .get: _ = try CommandParser.parseGet(payload: payload.bytes, attribute: payload.attribute, device: device)
            }
        }
    }

    @Test("plain text for an attribute is still taken as a string")
    func plainAttribute() throws {
        let command = try CommandParser.parseSet(payload: Array("  pulse\n".utf8), attribute: "effect", device: Devices.colorLight)
        #expect(command.light == LightCommand(effect: "pulse"))
    }
}
