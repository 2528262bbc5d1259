import EV3Protocol
import TestSupport
import Testing

@Suite("EV3 stream framing")
struct FramerTests {
    static let frames = [
        hex("07 00 2A 00 02 01 00 00 00"), hex("03 00 2B 00 04"), hex("06 00 01 00 03 92 00 00"),
        hex("13 00 2C 00 02 56 31 2E 30 39 48 00 41 42 43 44 45 46 47 48 49"),
    ]
    static let stream = frames.flatMap { $0 }

    @Test(
        "split and joined reads give the same frames",
        arguments: [
            [stream.count],
            Array(repeating: 1, count: stream.count),
            [1, 1, stream.count - 2],
            [2, stream.count - 2],
            [8, 2, 11, stream.count - 21],
            [10, stream.count - 10],
            [9, 5, 8, stream.count - 22],
            [3, 7, 4, 4, 4, 4, stream.count - 26],
        ])
    func chunks(sizes: [Int]) throws {
        var framer = EV3Framer()
        var out: [[UInt8]] = []
        var offset = 0
        for size in sizes {
            out += try framer.frames(after: Self.stream[offset..<offset + size])
            offset += size
        }
        #expect(out == Self.frames)
        #expect(framer.bufferedCount == 0)
    }

    @Test("a frame is held until its last byte arrives")
    func partial() throws {
        var framer = EV3Framer()
        #expect(try framer.frames(after: hex("07")).isEmpty)
        #expect(try framer.frames(after: hex("00 2A 00 02 01 00 00")).isEmpty)
        #expect(framer.bufferedCount == 8)
        #expect(try framer.frames(after: hex("00 03")) == [hex("07 00 2A 00 02 01 00 00 00")])
        #expect(framer.bufferedCount == 1)
        #expect(try framer.next() == nil)
    }

    @Test(
        "absurd length fields stop the framer until it is reset",
        arguments: [("00 00", 0), ("02 00", 2), ("FF 03", 1023), ("00 04", 1024), ("FF FF", 65535)])
    func absurd(field: String, length: Int) throws {
        var framer = EV3Framer()
        let error = EV3DecodingError.frameLength(length, allowed: 3...1022)
        #expect(throws: error) { try framer.frames(after: hex(field) + Self.stream) }
        #expect(throws: error) { try framer.next() }
        framer.reset()
        #expect(try framer.frames(after: Self.stream) == Self.frames)
    }

    @Test("the longest length field is accepted and waited for")
    func longest() throws {
        var framer = EV3Framer()
        #expect(try framer.frames(after: hex("FE 03") + [UInt8](repeating: 0, count: 1021)).isEmpty)
        #expect(try framer.frames(after: [0]).map(\.count) == [1024])
    }

    @Test("good frames before a bad length field come out first; the next call throws")
    func goodThenBad() throws {
        var framer = EV3Framer()
        let out = try framer.frames(after: Self.frames[0] + Self.frames[1] + hex("01 00 FF"))
        #expect(out == [Self.frames[0], Self.frames[1]])
        #expect(throws: EV3DecodingError.frameLength(1, allowed: 3...1022)) { try framer.frames(after: []) }
    }

    @Test("many frames through one framer, never drained to empty, stay whole across its compaction")
    func longRun() throws {
        var framer = EV3Framer()
        framer.append(Self.stream.prefix(1))
        // Each read ends one byte into the next frame, so the buffer never empties on its own.
        let read = Array(Self.stream.dropFirst()) + Self.stream.prefix(1)
        var count = 0
        for _ in 0..<2_000 {
            let out = try framer.frames(after: read)
            #expect(out == Self.frames)
            count += out.count
            #expect(framer.bufferedCount == 1)
        }
        #expect(count == 8_000)
    }
}

@Suite("EV3 USB reports")
struct USBReportTests {
    @Test("an output report is report number 0, the frame, and zeros up to 1025 bytes")
    func output() {
        let frame = hex("0C 00 01 00 00 04 00 3A 83 01 00 00 00 60")
        let report = EV3USBReport.output(frame)
        #expect(report.count == 1025)
        #expect(report[0] == 0 && Array(report[1...14]) == frame && report[15...].allSatisfy { $0 == 0 })
    }

    @Test(
        "an input report gives the frame its length field announces, whatever follows it",
        arguments: [
            ("07 00 01 00 02 01 00 00 00" + String(repeating: " EE", count: 1015), "07 00 01 00 02 01 00 00 00"),
            ("03 00 2B 00 04" + String(repeating: " 00", count: 1019), "03 00 2B 00 04"),
            ("FF FF 01 00 02", "-"), ("02 00 01 00", "-"), ("07 00 01 00 02", "-"), ("07", "-"),
        ])
    func input(report: String, expected: String) {
        #expect(EV3USBReport.frame(in: hex(report)).map { hex($0) } ?? "-" == expected)
    }
}
