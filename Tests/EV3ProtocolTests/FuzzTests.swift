import EV3Protocol
import TestSupport
import Testing

@Suite("EV3 fuzzing: random and truncated input never crashes and never yields a bad frame")
struct FuzzTests {
    static let seeds: [UInt64] = [1, 2, 3, 0x5EED, 0xDEAD_BEEF]

    /// Valid replies of every kind, from the reference and beyond it.
    static let replies = [
        hex("07 00 2A 00 02 01 00 00 00"), hex("04 00 2A 00 02 00"), hex("08 00 2A 00 02 7E 7E 7E 7D 00"),
        hex("13 00 2A 00 02 56 31 2E 30 39 48 00 41 42 43 44 45 46 47 48 49"), hex("03 00 2B 00 04"),
        hex("05 00 FF FF 04 80 7E"), hex("06 00 01 00 03 92 00 00"), hex("05 00 01 00 05 9C 06"),
        hex("0D 00 01 00 03 99 08 03 00 00 00 01 61 2F 0A"),
    ]

    @Test("random frames parse or throw; what parses matches its length field and re-encodes", arguments: seeds)
    func randomReplies(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var parsed = 0
        for round in 0..<3_000 {
            var bytes = (0..<Int(random.next() % 24)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            // Most rounds get a right length field and a likely type, so the deeper checks are reached.
            if round % 4 != 0, bytes.count >= 5 {
                bytes[0] = UInt8(bytes.count - 2)
                bytes[1] = 0
                bytes[4] = [0x02, 0x03, 0x04, 0x05, bytes[4]][Int(random.next() % 5)]
            }
            if let reply = try? EV3Reply(frame: bytes) {
                parsed += 1
                #expect(Int(bytes[0]) | Int(bytes[1]) << 8 == bytes.count - 2, "\(hex(bytes))")
                switch reply {
                case .direct(let direct): #expect(direct.bytes == bytes)
                case .system(let system):
                    #expect(system.bytes == bytes)
                    _ = try? EV3FileList(reply: system)
                }
            }
            _ = try? EV3DirectReply(frame: bytes)
            _ = try? EV3SystemReply(frame: bytes)
        }
        #expect(parsed > 1_000, "the plausible rounds must reach the parsers' deeper checks")
    }

    @Test("every truncation of a valid reply is refused and framed as incomplete; the whole parses", arguments: replies)
    func truncations(frame: [UInt8]) throws {
        #expect(try EV3Reply(frame: frame).counter == UInt16(frame[2]) | UInt16(frame[3]) << 8)
        for length in 0..<frame.count {
            #expect(throws: EV3DecodingError.self) { try EV3Reply(frame: Array(frame.prefix(length))) }
            _ = try? EV3Reply(frame: Array(frame.dropFirst(length + 1)))
            var framer = EV3Framer()
            #expect(try framer.frames(after: frame.prefix(length)).isEmpty)
            #expect(try framer.frames(after: frame.dropFirst(length)) == [frame])
        }
    }

    @Test("random parameters decode or throw; what decodes re-encodes to the bytes read", arguments: seeds)
    func randomParameters(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        for _ in 0..<3_000 {
            // Zeros are frequent, so strings end and short offsets appear.
            let bytes = (0..<Int(random.next() % 8)).map { _ in
                random.next() % 4 == 0 ? 0 : UInt8(truncatingIfNeeded: random.next())
            }
            var index = 0
            guard let parameter = try? EV3Parameter.decode(bytes, at: &index) else {
                #expect(index == 0)
                continue
            }
            #expect(index > 0 && index <= bytes.count)
            if case .lcs = parameter { continue }  // `80` strings and invalid UTF-8 do not come back byte for byte
            #expect(try parameter.encoded() == Array(bytes[0..<index]), "\(hex(bytes))")
        }
    }

    @Test("random global memory read through every kind of handle never traps", arguments: seeds)
    func randomGlobals(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var batch = EV3Batch()
        let reads: [@Sendable (EV3Batch, EV3DirectReply) throws -> Void] = [
            reading(batch.append(.typeMode(.sensor(1)!))), reading(batch.append(try .brickName(length: 13))),
            reading(batch.append(.outputRead(.b))), reading(batch.append(.batteryVoltage)),
            reading(batch.append(try .readySI(.sensor(2)!, values: 3))),
            reading(batch.append(try .deviceList(length: 8))),
            reading(batch.append(try .readyPct(.sensor(3)!, values: 2))), reading(batch.append(.move16(7))),
        ]
        for _ in 0..<1_000 {
            let size = random.next() % 4 == 0 ? Int(random.next() % 80) : batch.globalSize
            let globals = (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let reply = EV3DirectReply(counter: 0, status: random.next() % 5 == 0 ? .error : .ok, globals: globals)
            for read in reads {
                do { try read(batch, reply) } catch { #expect(size != batch.globalSize || reply.status == .error) }
            }
        }
    }
}

/// A read of `handle` whose value is dropped, so handles of any type fit in one list.
private func reading<Value>(_ handle: EV3Handle<Value>) -> @Sendable (EV3Batch, EV3DirectReply) throws -> Void {
    { batch, reply in _ = try batch.read(handle, from: reply) }
}
