import EV3Protocol
import TestSupport
import Testing

@Suite("EV3 stream fuzzing: frames always match their length fields and the stream")
struct StreamFuzzTests {
    @Test("random streams in random reads: frames match their length fields and the stream", arguments: FuzzTests.seeds)
    func randomStreams(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var stopped = 0
        for _ in 0..<300 {
            // Plausible frames with random bodies, now and then a random byte run to knock the stream out of step.
            var stream: [UInt8] = []
            while stream.count < 400 {
                if random.next() % 8 == 0 {
                    stream += (0..<Int(random.next() % 6)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                } else {
                    let length = 3 + Int(random.next() % 40)
                    stream += [UInt8(length), 0] + (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                }
            }
            var framer = EV3Framer()
            var frames: [UInt8] = []
            var appended = 0
            do {
                while appended < stream.count {
                    let size = min(stream.count - appended, 1 + Int(random.next() % 64))
                    appended += size
                    for frame in try framer.frames(after: stream[(appended - size)..<appended]) {
                        #expect(Int(frame[0]) | Int(frame[1]) << 8 == frame.count - 2)
                        frames += frame
                    }
                }
            } catch {
                // Stopped at a length field out of range: exactly what follows the frames handed out.
                stopped += 1
                let next = Int(stream[frames.count]) | Int(stream[frames.count + 1]) << 8
                #expect(!EV3Framer.lengths.contains(next))
            }
            #expect(Array(stream.prefix(frames.count)) == frames)
            #expect(frames.count + framer.bufferedCount == appended)
        }
        #expect(stopped > 0, "some streams must go out of step")
    }

    @Test("valid frames in random reads come out whole and in order", arguments: FuzzTests.seeds)
    func validStreams(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let frames = (0..<500).map { _ in FuzzTests.replies[Int(random.next() % UInt64(FuzzTests.replies.count))] }
        let stream = frames.flatMap { $0 }
        var framer = EV3Framer()
        var out: [[UInt8]] = []
        var offset = 0
        while offset < stream.count {
            let size = min(stream.count - offset, 1 + Int(random.next() % 40))
            out += try framer.frames(after: stream[offset..<offset + size])
            offset += size
        }
        #expect(out == frames)
        #expect(try out.map { try EV3Reply(frame: $0).counter } == frames.map { UInt16($0[2]) | UInt16($0[3]) << 8 })
    }
}
