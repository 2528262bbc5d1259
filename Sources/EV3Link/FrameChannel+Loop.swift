import EV3Protocol
import Glibc

extension FrameChannel {
    /// The thread's loop: writes queued frames, reads and splits what arrives, until closed or the connection
    /// fails. Always closes the descriptor and reports why it stopped.
    func run(_ opened: Opened, framing: Framing) {
        let fd = opened.fd
        var reason = EV3LinkError.closed
        defer {
            Glibc.close(fd)
            continuation.yield(.closed(reason))
            continuation.finish()
        }
        var state = LoopState(fd: fd, framing: framing, isSocket: Posix.isSocket(fd))
        do throws(EV3LinkError) {
            try state.deliver(opened.leftover, to: self)
            while true {
                guard let frames = takeOutbox() else { return }
                state.queue(frames)
                try state.flush()
                var fds = [
                    pollfd(fd: fd, events: Int16(POLLIN) | (state.hasPendingWrites ? Int16(POLLOUT) : 0), revents: 0),
                    pollfd(fd: wakeup.readFD, events: Int16(POLLIN), revents: 0),
                ]
                if poll(&fds, 2, -1) < 0, errno != EINTR { throw Posix.error("poll", errno) }
                if fds[1].revents != 0 { wakeup.drain() }
                if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { try state.readAll(into: self) }
            }
        } catch {
            reason = error
        }
    }
}

/// The loop's own data: the framer and the bytes not yet written.
private struct LoopState {
    let fd: Int32
    let framing: Framing
    let isSocket: Bool
    var framer = EV3Framer()
    /// Whole writes not yet started: frames (stream) or output reports.
    var waiting: [[UInt8]] = []
    /// The rest of a stream write the descriptor did not take at once.
    var partial: ArraySlice<UInt8> = []

    init(fd: Int32, framing: Framing, isSocket: Bool) {
        self.fd = fd
        self.framing = framing
        self.isSocket = isSocket
    }

    var hasPendingWrites: Bool { !waiting.isEmpty || !partial.isEmpty }

    mutating func queue(_ frames: [[UInt8]]) {
        switch framing {
        case .stream: waiting += frames
        case .reports: waiting += frames.map(EV3USBReport.output)
        }
    }

    /// Writes until done or the descriptor is full. A report goes out in one write or not at all.
    mutating func flush() throws(EV3LinkError) {
        while true {
            if partial.isEmpty {
                guard !waiting.isEmpty else { return }
                partial = waiting.removeFirst()[...]
            }
            let written = try Posix.write(fd, partial, socket: isSocket)
            if written == 0 { return }
            if framing == .reports, written != partial.count {
                throw .system(call: "write", errno: EIO, message: "a report was cut after \(written) bytes")
            }
            partial = partial.dropFirst(written)
        }
    }

    /// Reads what is available (at most 64 reads, so a flood cannot keep the loop from its writes and from
    /// `close()`) and hands each whole frame to the channel's stream.
    mutating func readAll(into channel: FrameChannel) throws(EV3LinkError) {
        let size = framing == .stream ? 4096 : 2 * EV3USBReport.inputSize
        for _ in 0..<64 {
            guard let chunk = try Posix.read(fd, upTo: size) else { return }
            guard !chunk.isEmpty else { throw .closedByPeer }
            switch framing {
            case .stream: try deliver(chunk, to: channel)
            case .reports:
                // A report is whole by itself: a bad one is dropped and cannot throw the next out of step.
                if let frame = EV3USBReport.frame(in: chunk) {
                    channel.continuation.yield(.frame(frame))
                } else {
                    channel.logger.debug("Dropped a USB report without a frame", metadata: ["ev3.bytes": "\(chunk.count)"])
                }
            }
        }
    }

    /// Splits stream bytes into frames; a length field no brick sends ends the connection.
    mutating func deliver(_ bytes: [UInt8], to channel: FrameChannel) throws(EV3LinkError) {
        guard !bytes.isEmpty else { return }
        do {
            for frame in try framer.frames(after: bytes) { channel.continuation.yield(.frame(frame)) }
            // Frames before a bad length field came out first; the field is still there.
            if framer.bufferedCount >= 2 { _ = try framer.next().map { channel.continuation.yield(.frame($0)) } }
        } catch {
            throw .outOfStep(error)
        }
    }
}
