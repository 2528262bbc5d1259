import EV3Protocol

/// A queue entry encoded with its counter, and how to check the reply against it.
struct Command {
    enum Kind {
        case direct(EV3DirectCommand)
        case system(EV3SystemCommand)
    }

    let kind: Kind

    init(_ entry: EV3SendQueue<PendingRequest>.Entry, counter: UInt16) throws(EV3EncodingError) {
        switch entry {
        case .request(let request):
            switch request.work {
            case .direct(let batch): kind = .direct(try batch.command(counter: counter))
            case .system(let command):
                kind = .system(try EV3SystemCommand(counter: counter, code: command.code, payload: command.payload))
            }
        case .motor(let port, let motor):
            var batch = EV3Batch()
            for instruction in try motor.instructions(for: port) { batch.append(instruction) }
            kind = .direct(try batch.command(counter: counter))
        case .stop(let ports, let brake):
            var batch = EV3Batch()
            batch.append(try .outputStop(ports, brake: brake))
            kind = .direct(try batch.command(counter: counter))
        }
    }

    /// The frame to write.
    var frame: [UInt8] {
        switch kind {
        case .direct(let command): command.bytes
        case .system(let command): command.bytes
        }
    }

    /// Checks that a reply with the right counter is of the right kind and size.
    func check(_ reply: EV3Reply) throws(EV3LinkError) {
        switch (kind, reply) {
        case (.direct(let command), .direct(let reply)):
            do {
                try reply.check(answering: command)
            } catch {
                throw .malformedReply(error.description)
            }
        case (.system(let command), .system(let reply)):
            guard reply.code == command.code else {
                throw .malformedReply("a reply to system command \(reply.code.rawValue), not \(command.code.rawValue)")
            }
        case (.direct, .system): throw .malformedReply("a system reply to a direct command")
        case (.system, .direct): throw .malformedReply("a direct reply to a system command")
        }
    }
}

extension EV3SendQueue.Entry {
    /// What the entry was, for `commandFailed` events: `motor A run(speed 50)`, `stop A+B`.
    var summary: String {
        switch self {
        case .request: "request"
        case .motor(let port, let command): "motor \(port.asInput): \(command)"
        case .stop(let ports, let brake):
            "stop " + EV3OutputPort.allCases.filter { ports.contains($0.set) }.map { "\($0.asInput)" }.joined(separator: "+")
                + (brake ? " (brake)" : "")
        }
    }
}
