import EV3Protocol
import TestSupport
import Testing

/// Reads a query's result from a reply and describes it, so one table can hold results of any type.
typealias Reader = @Sendable (EV3Batch, EV3DirectReply) throws -> String

/// One test vector of the EV3 reference (section 5): how the codec builds it, the bytes it must give,
/// and the reply with the value read back from it. `cc cc` in the hex stands for the counter.
struct ReferenceVector: Sendable, CustomTestStringConvertible {
    var number: String
    var counter: UInt16 = 0x0102
    var style = EV3EncodingStyle.compact
    var replyRequested = true
    var command: String
    var reply: String?
    var status = EV3DirectReply.Status.ok
    var value: String?
    var build: @Sendable (inout EV3Batch) throws -> Reader?

    var testDescription: String { "vector \(number)" }

    /// The hex with `cc cc` replaced by the counter's bytes.
    func bytes(_ text: String) -> [UInt8] {
        hex(text.replacing("cc cc", with: hex([UInt8(counter & 0xFF), UInt8(counter >> 8)])))
    }
}

/// `nil` or the value, for comparing described results.
func describe<T>(_ value: T?) -> String { value.map { "\($0)" } ?? "nil" }

/// A reader for one handle.
func reader<Value>(_ handle: EV3Handle<Value>, _ text: @escaping @Sendable (Value) -> String) -> Reader {
    { batch, reply in text(try batch.read(handle, from: reply)) }
}

@Suite("EV3 reference test vectors")
struct ReferenceVectorTests {
    @Test("every vector of the reference, byte for byte", arguments: ReferenceVector.all)
    func vector(_ vector: ReferenceVector) throws {
        var batch = EV3Batch()
        let read = try vector.build(&batch)
        let command = try batch.command(
            counter: vector.counter, replyRequested: vector.replyRequested, style: vector.style)
        #expect(hex(command.bytes) == hex(vector.bytes(vector.command)))
        guard let replyText = vector.reply else {
            #expect(!vector.replyRequested && read == nil)
            return
        }
        guard case .direct(let reply) = try EV3Reply(frame: vector.bytes(replyText)) else {
            Issue.record("not a direct reply")
            return
        }
        try reply.check(answering: command)
        #expect(reply.status == vector.status)
        #expect(reply.bytes == vector.bytes(replyText))
        if let read {
            #expect(try read(batch, reply) == vector.value)
        }
    }
}

extension ReferenceVector {
    static let all: [ReferenceVector] = firmware + developerKit + derived

    /// Section 5.1: from `c_com.h`.
    static let firmware: [ReferenceVector] = [
        ReferenceVector(
            number: "1", style: EV3EncodingStyle(constants: .declaredWidth, globals: .shortest),
            command: "0C 00 cc cc 00 04 00 3A 83 01 00 00 00 60", reply: "07 00 cc cc 02 01 00 00 00", value: "1"
        ) { batch in reader(batch.append(.move32(1)), describe) },
        ReferenceVector(number: "2", replyRequested: false, command: "0C 00 cc cc 80 00 00 A4 00 01 14 A6 00 01") {
            batch in
            batch.append(try .outputPower(.a, power: 20))
            batch.append(try .outputStart(.a))
            return nil
        },
        ReferenceVector(number: "3", replyRequested: false, command: "09 00 cc cc 80 00 00 A3 00 01 00") { batch in
            batch.append(try .outputStop(.a, brake: false))
            return nil
        },
        ReferenceVector(
            number: "4", command: "0B 00 cc cc 00 01 00 9A 00 00 00 00 60", reply: "04 00 cc cc 02 00", value: "0"
        ) { batch in reader(batch.append(try .inputRead(.sensor(1)!, mode: 0)), describe) },
        ReferenceVector(
            number: "5", command: "09 00 cc cc 00 05 00 98 04 60 64", reply: "08 00 cc cc 02 7E 7E 7E 7D 00",
            value: "[none, none, none, initializing] changed: false"
        ) { batch in
            reader(batch.append(try .deviceList(length: 4))) { list in
                "[" + list.types.map(typeName).joined(separator: ", ") + "] changed: \(list.changed)"
            }
        },
    ]

    /// Section 5.2: from the Communication Developer Kit.
    static let developerKit: [ReferenceVector] = [
        ReferenceVector(
            number: "6", replyRequested: false,
            command: "12 00 cc cc 80 00 00 AE 00 06 81 32 00 82 84 03 82 B4 00 01"
        ) { batch in
            let ramp = EV3Ramp(up: 0, constant: 900, down: 180)
            batch.append(try .outputStepSpeed([.b, .c], speed: 50, degrees: ramp, brake: true))
            return nil
        },
        ReferenceVector(
            number: "7", style: .legoev3, replyRequested: false,
            command: "0F 00 cc cc 80 00 00 94 01 81 02 82 E8 03 82 E8 03"
        ) { batch in
            batch.append(try .tone(volume: 2, frequency: 1000, milliseconds: 1000))
            return nil
        },
    ]
}

/// The name of a device type, for readable rows.
func typeName(_ type: EV3DeviceType) -> String {
    switch type {
    case .noDevice: "none"
    case .initializing: "initializing"
    case .largeMotor: "large motor"
    default: "\(type.rawValue)"
    }
}
