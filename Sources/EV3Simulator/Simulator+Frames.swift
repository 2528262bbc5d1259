import EV3Protocol
import Glibc
import Support

extension EV3BrickSimulator {
    /// Handles one frame as the firmware does and returns the reply to send, if any. Runs on a connection's
    /// thread and blocks it while a blocking opcode waits, so the next frame waits too.
    func handle(_ frame: [UInt8], on thread: SimThread) -> [UInt8]? {
        let (fault, print) = control.withLock { control in
            control.received.append(frame)
            control.arrivals.append(.now)
            if control.received.count > Self.historyLimit {
                control.received.removeFirst()
                control.arrivals.removeFirst()
            }
            return (control.fault, control.printFrames)
        }
        if print { logger.info("received \(Hex.string(frame, uppercase: true, separator: " "))") }
        guard fault != .stall, frame.count >= 5 else { return nil }
        let reply: [UInt8]?
        switch frame[4] {
        case 0x00, 0x80: reply = direct(frame, on: thread)
        case 0x01, 0x81: reply = system(frame)
        default: reply = nil  // daisy-chain "with busy" commands and unknown types: not for a host
        }
        guard var reply else { return nil }
        switch fault {
        case .delay(let duration): thread.sleep(milliseconds: Int32(clamping: Int(seconds(duration) * 1000)))
        case .garbage: reply = [0xFF, 0xFF] + Array(reply.dropFirst(2))
        case .wrongCounter: reply[2] &+= 1
        case .none, .stall: break
        }
        control.withLock { control in
            control.replies.append(reply)
            if control.replies.count > Self.historyLimit { control.replies.removeFirst() }
        }
        if print { logger.info("replied  \(Hex.string(reply, uppercase: true, separator: " "))") }
        return reply
    }

    /// A direct command: header checks, the validator over the whole command, then each instruction in turn.
    private func direct(_ frame: [UInt8], on thread: SimThread) -> [UInt8]? {
        let wantsReply = frame[4] == 0x00
        let counter = UInt16(frame[2]) | UInt16(frame[3]) << 8
        // `cComDirectCommand`: a command without code or with too much memory gets the short error.
        guard frame.count > 7, (Int(frame[5]) | Int(frame[6] & 0x03) << 8) <= EV3DirectCommand.maxGlobals else {
            return wantsReply ? EV3DirectReply(counter: counter, status: .error, globals: []).bytes : nil
        }
        let globals = Int(frame[5]) | Int(frame[6] & 0x03) << 8
        var status = EV3DirectReply.Status.ok
        switch SimDecoder.decode(Array(frame[7...])) {
        case .failure(let refusal):
            logger.debug("refused a command", metadata: ["reason": "\(refusal)"])
            status = .error
        case .success(let instructions):
            var locals = [UInt8](repeating: 0, count: SimDecoder.localMemory)
            run: for instruction in instructions {
                while true {
                    let now = ContinuousClock.now
                    switch brick.withLock({ $0.execute(instruction, locals: &locals, now: now) }) {
                    case .done: continue run
                    case .failed:
                        status = .error
                        break run
                    case .blocked:
                        if thread.isStopping { return nil }
                        thread.sleep(milliseconds: 2)
                    }
                }
            }
        }
        guard wantsReply else { return nil }
        let memory = brick.withLock { Array($0.memory.prefix(globals)) }
        return EV3DirectReply(counter: counter, status: status, globals: memory).bytes
    }

    /// System commands: LIST_FILES on the sound folder, CLOSE_FILEHANDLE; others fail with UNKNOWN_ERROR.
    private func system(_ frame: [UInt8]) -> [UInt8]? {
        guard frame[4] == 0x01, frame.count >= 6 else { return nil }
        let counter = UInt16(frame[2]) | UInt16(frame[3]) << 8
        let code = EV3SystemCommandCode(rawValue: frame[5])
        func reply(_ status: EV3SystemStatus, _ payload: [UInt8] = []) -> [UInt8] {
            EV3SystemReply(counter: counter, isError: status != .success && status != .endOfFile, code: code, status: status, payload: payload).bytes
        }
        switch code {
        case .listFiles:
            guard frame.count >= 9 else { return reply(.sizeError) }
            let path = String(decoding: frame[8...].prefix { $0 != 0 }, as: UTF8.self)
            guard path.hasSuffix("ui") || path.hasSuffix("ui/") else { return reply(.illegalPath) }
            let listing = Array(Self.sounds.map { "\(String(repeating: "0", count: 32)) 00000400 \($0).rsf\n" }.joined().utf8)
            let size = UInt32(listing.count)
            return reply(.endOfFile, (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) } + [0] + listing)
        case .closeFileHandle: return reply(.success)
        default: return reply(.unknownError)
        }
    }

    /// The sound files the simulated brick has in `ui/`.
    static let sounds = ["Click", "Download", "DownloadSucces", "GeneralAlarm", "OverpowerAlert", "PowerDown", "Startup"]
}
