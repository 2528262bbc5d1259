/// Splits a byte stream (Bluetooth, WiFi) into frames by their length field, whatever the reads look
/// like: a read may end mid-frame or carry several frames. Pure: feed it chunks, take frames out.
///
/// A length field no brick sends (shorter than a reply's counter and type, or longer than the
/// message buffer) means the stream is out of step; nothing after it can be trusted, so the framer
/// stops there and keeps throwing until `reset()`, and the transport should reconnect. It never
/// holds more than what the caller appended and has not taken.
public struct EV3Framer: Sendable {
    /// The length fields accepted: at least counter and type, at most `MAX_MSG_SIZE` minus the field.
    public static let lengths: ClosedRange<Int> = 3...(EV3DirectCommand.maxFrameBytes - 2)

    private var buffer: [UInt8] = []
    /// Bytes before this index were already handed out; compacted now and then, not per frame.
    private var start = 0

    /// An empty framer.
    public init() {}

    /// Bytes appended and not yet handed out as frames.
    public var bufferedCount: Int { buffer.count - start }

    /// Adds the bytes of one read.
    public mutating func append(_ chunk: some Sequence<UInt8>) {
        buffer += chunk
    }

    /// The next whole frame, length field included, or `nil` until more bytes arrive. Throws when the
    /// next length field is out of range.
    public mutating func next() throws(EV3DecodingError) -> [UInt8]? {
        guard bufferedCount >= 2 else { return nil }
        let length = Int(buffer[start]) | Int(buffer[start + 1]) << 8
        guard Self.lengths.contains(length) else { throw .frameLength(length, allowed: Self.lengths) }
        guard bufferedCount >= 2 + length else { return nil }
        let frame = Array(buffer[start..<start + 2 + length])
        start += 2 + length
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 4096 {
            buffer.removeFirst(start)
            start = 0
        }
        return frame
    }

    /// Appends a read and returns every frame now complete. A bad length field after good frames
    /// returns those frames first; the next call throws, since the bad field is still at the front.
    public mutating func frames(after chunk: some Sequence<UInt8>) throws(EV3DecodingError) -> [[UInt8]] {
        append(chunk)
        var frames: [[UInt8]] = []
        while true {
            do {
                guard let frame = try next() else { return frames }
                frames.append(frame)
            } catch {
                if frames.isEmpty { throw error }
                return frames
            }
        }
    }

    /// Drops everything buffered, for a new connection.
    public mutating func reset() {
        buffer.removeAll()
        start = 0
    }
}
