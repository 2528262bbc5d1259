import CSimPTY
import EV3Protocol
import Glibc

extension EV3BrickSimulator {
    /// How frames arrive on a descriptor.
    enum SimFraming {
        /// A byte stream, reassembled by the length field as the brick does (`c_bt.c` `DecodeMode1`).
        case stream
        /// USB: each read one 1025-byte output report (report number, frame, padding); each reply one
        /// 1024-byte input report.
        case reports
    }

    /// Serves frames on `fd`, one command at a time, until it closes, the simulator stops or connections are
    /// dropped. A pty's master reads EIO while nothing has the other side open: then it waits for the next.
    func serve(_ fd: Int32, framing: SimFraming, socket: Bool, pty: Bool = false, thread: SimThread) {
        let generation = control.withLock { $0.dropGeneration }
        func current() -> Bool { control.withLock { $0.dropGeneration == generation } }
        var framer = EV3Framer()
        while !thread.isStopping, current() {
            guard thread.wait(for: fd, milliseconds: 50), let chunk = SimIO.read(fd, upTo: 4096) else { continue }
            if chunk.isEmpty {
                guard pty else { return }
                framer.reset()
                thread.sleep(milliseconds: 20)
                continue
            }
            let frames: [[UInt8]]
            switch framing {
            case .stream:
                do {
                    frames = try framer.frames(after: chunk)
                } catch {
                    // Out of step: start over with the next read, as the brick's decoder does.
                    framer.reset()
                    frames = []
                }
            case .reports:
                // The brick's endpoint takes whole 1024-byte reports; hidraw prefixes the report number, 0.
                guard chunk.count == EV3USBReport.outputSize, chunk[0] == 0 else {
                    logger.warning("ignored a USB write that is not a 1025-byte report 0", metadata: ["bytes": "\(chunk.count)"])
                    continue
                }
                frames = EV3USBReport.frame(in: Array(chunk.dropFirst())).map { [$0] } ?? []
            }
            for frame in frames {
                guard current(), let reply = handle(frame, on: thread) else { continue }
                let bytes = framing == .reports ? Self.report(reply) : reply
                if !SimIO.writeAll(fd, bytes, socket: socket), !pty { return }
            }
        }
    }

    /// A reply as a 1024-byte input report; the bytes after the frame are left over, as on the brick.
    static func report(_ reply: [UInt8]) -> [UInt8] {
        reply + [UInt8](repeating: 0xEE, count: max(0, EV3USBReport.inputSize - reply.count))
    }

    /// Serves a descriptor that keeps report boundaries as the brick's USB side (for tests: one end of a
    /// `SOCK_SEQPACKET` pair; the other end goes to the link). The simulator closes it when done.
    public func attachUSB(descriptor: Int32) {
        SimIO.nonBlocking(descriptor)
        adopt(SimThread(name: "ev3-sim usb") { [self] thread in
            serve(descriptor, framing: .reports, socket: true, thread: thread)
            close(descriptor)
        })
    }

    /// Serves the brick's Bluetooth serial side (a byte stream) on any descriptor: one end of a socket pair,
    /// a pipe pair's joined ends. The simulator closes it when done.
    public func attachStream(descriptor: Int32) {
        SimIO.nonBlocking(descriptor)
        adopt(SimThread(name: "ev3-sim stream") { [self] thread in
            var status = stat()
            let socket = fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK
            serve(descriptor, framing: .stream, socket: socket, thread: thread)
            close(descriptor)
        })
    }

    /// Opens a pseudo-terminal and serves the brick's Bluetooth serial side on it; returns the path to open
    /// (as one would `/dev/rfcomm0`). The terminal starts in its default cooked mode: a client that does not
    /// put it into raw mode gets echo and line editing, as it would on a real tty.
    public func startPTY() throws(EV3SimulatorError) -> String {
        var name = [CChar](repeating: 0, count: 128)
        let master = CSimPTY_open_master(&name, name.count)
        guard master >= 0 else { throw SimIO.failure("posix_openpt/grantpt/unlockpt/ptsname_r") }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        adopt(SimThread(name: "ev3-sim pty") { [self] thread in
            while !thread.isStopping { serve(master, framing: .stream, socket: false, pty: true, thread: thread) }
            close(master)
        })
        return path
    }
}
