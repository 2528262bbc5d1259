import Bridge
import NIOCore
import Synchronization

/// Each of the bridge's messages as a frame, built once for every socket: the sockets get the same messages
/// from the tap, so twenty pages cost one encoding, and the frame's bytes are shared, not copied. Holds the
/// last `capacity` frames; a socket further behind than that builds its own again.
final class FrameCache: Sendable {
    private struct State {
        var frames: [UInt64: ByteBuffer] = [:]
        var order: [UInt64] = []
        var next = 0
    }

    private let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int = 4096) { self.capacity = capacity }

    /// The frame's text for `message`, from the cache or built now.
    func frame(_ message: TapMessage) -> ByteBuffer {
        if let frame = state.withLock({ $0.frames[message.sequence] }) { return frame }
        let frame = ByteBuffer(bytes: Frames.bytes(message))
        state.withLock { state in
            guard state.frames[message.sequence] == nil else { return }
            if state.order.count < capacity {
                state.order.append(message.sequence)
            } else {
                state.frames[state.order[state.next]] = nil
                state.order[state.next] = message.sequence
                state.next = (state.next + 1) % capacity
            }
            state.frames[message.sequence] = frame
        }
        return frame
    }
}
