import Bridge
import NIOCore
import Synchronization

/// Each of the bridge's messages as a frame, built once for every socket: the sockets get the same messages
/// from the tap, so twenty pages cost one encoding, and the frame's bytes are shared, not copied. Holds the
/// newest frames up to a count and a size; a socket further behind than that builds its own again.
final class FrameCache: Sendable {
    private struct State {
        var frames: [UInt64: ByteBuffer] = [:]
        /// Sequences in the order they were cached, from `head` on.
        var order: [UInt64] = []
        var head = 0
        var bytes = 0

        mutating func evictOldest() {
            let sequence = order[head]
            head += 1
            bytes -= frames.removeValue(forKey: sequence)?.readableBytes ?? 0
            if head >= 1024, head * 2 >= order.count {
                order.removeFirst(head)
                head = 0
            }
        }
    }

    private let capacity: Int
    private let maxBytes: Int
    private let state = Mutex(State())

    init(capacity: Int = 4096, maxBytes: Int = 8 << 20) {
        self.capacity = capacity
        self.maxBytes = maxBytes
    }

    /// The frame's text for `message`, from the cache or built now.
    func frame(_ message: TapMessage) -> ByteBuffer {
        if let frame = state.withLock({ $0.frames[message.sequence] }) { return frame }
        let frame = ByteBuffer(bytes: Frames.bytes(message))
        state.withLock { state in
            guard state.frames[message.sequence] == nil else { return }
            state.frames[message.sequence] = frame
            state.order.append(message.sequence)
            state.bytes += frame.readableBytes
            while state.order.count - state.head > capacity || (state.bytes > maxBytes && state.order.count - state.head > 1) {
                state.evictOldest()
            }
        }
        return frame
    }

    /// Frames held and their bytes.
    var size: (count: Int, bytes: Int) { state.withLock { ($0.frames.count, $0.bytes) } }
}
