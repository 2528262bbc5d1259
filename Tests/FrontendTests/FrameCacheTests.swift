import Bridge
@testable import Frontend
import NIOCore
import Testing

@Suite("Frames built once for every socket")
struct FrameCacheTests {
    @Test("a message's frame is its topic and its payload as JSON, an empty payload as \"\"")
    func frameText() {
        let state = TapMessage(topic: "kitchen", payload: Array(#"{"state":"ON"}"#.utf8), retained: true, sequence: 1)
        #expect(String(decoding: Frames.bytes(state), as: UTF8.self) == #"{"topic":"kitchen","payload":{"state":"ON"}}"#)
        let cleared = TapMessage(topic: "a\"b", payload: [], retained: true, sequence: 2)
        #expect(String(decoding: Frames.bytes(cleared), as: UTF8.self) == #"{"topic":"a\"b","payload":""}"#)
    }

    @Test("the same message gives the same frame; past the capacity the oldest are built again")
    func reuse() {
        let cache = FrameCache(capacity: 2)
        let messages = (1...3).map { TapMessage(topic: "t\($0)", payload: Array("\($0)".utf8), retained: false, sequence: UInt64($0)) }
        let first = cache.frame(messages[0])
        #expect(cache.frame(messages[0]) == first)
        _ = cache.frame(messages[1])
        _ = cache.frame(messages[2])
        #expect(cache.frame(messages[0]) == first)
        #expect(String(buffer: cache.frame(messages[2])) == #"{"topic":"t3","payload":3}"#)
    }

    @Test("the cache is bounded in bytes as well as in frames")
    func byteBound() {
        let cache = FrameCache(capacity: 1000, maxBytes: 10_000)
        for sequence in 1...100 {
            _ = cache.frame(TapMessage(topic: "big", payload: Array(repeating: 0x31, count: 1000), retained: false, sequence: UInt64(sequence)))
        }
        #expect(cache.size.bytes <= 10_000)
        #expect(cache.size.count < 10)
    }
}
