import Bridge
import BridgeCore

/// A frame a page sent: a message for a topic relative to the base, as `{"topic", "payload"}`.
struct ClientFrame: Equatable {
    var topic: String
    var payload: [UInt8]
}

/// What a page's text frame is.
enum ClientMessage: Equatable {
    case auth(String)
    case publish(ClientFrame)
}

/// Why a page's frame is refused; sent back to the page as `{"error": …}`.
struct FrameError: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}

enum Frames {
    /// Parses a text frame: `{"auth": token}` or `{"topic": relative, "payload": JSON or text}`.
    static func parse(_ text: String) throws(FrameError) -> ClientMessage {
        guard let object = JSONValue.parse(Array(text.utf8))?.objectValue else {
            throw FrameError("a frame is a JSON object with topic and payload")
        }
        if let token = object["auth"] {
            guard let token = token.stringValue else { throw FrameError("auth must be text") }
            return .auth(token)
        }
        guard let topic = object["topic"]?.stringValue else { throw FrameError("a frame needs a topic") }
        if let problem = problem(with: topic) { throw FrameError("topic \"\(topic)\" \(problem)") }
        let payload: [UInt8] =
            switch object["payload"] {
            case .string(let text)?: Array(text.utf8)
            case let value?: value.jsonBytes
            case nil: []
            }
        return .publish(ClientFrame(topic: topic, payload: payload))
    }

    /// A relative topic must name one topic under the base: no wildcards, no empty levels.
    static func problem(with topic: String) -> String? {
        if topic.isEmpty { return "is empty" }
        if topic.contains(where: { $0 == "+" || $0 == "#" || $0 == "\0" }) { return "must not contain +, # or NUL" }
        if topic.hasPrefix("/") || topic.hasSuffix("/") || topic.contains("//") { return "must not have an empty level" }
        return nil
    }

    /// The frame for one of the bridge's publishes. The bridge publishes JSON (or an empty payload that clears
    /// a retained topic), so its bytes go in as they are, without a second parse for every socket.
    static func bytes(_ message: TapMessage) -> [UInt8] {
        var bytes: [UInt8] = Array(#"{"topic":"#.utf8)
        bytes += JSONValue.string(message.topic).jsonBytes
        bytes += Array(#","payload":"#.utf8)
        if message.payload.isEmpty { bytes += Array(#""""#.utf8) } else { bytes += message.payload }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// An error for the page.
    static func error(_ error: FrameError, topic: String? = nil) -> String {
        var object: [String: JSONValue] = ["error": .string(error.message)]
        if let topic { object["topic"] = .string(topic) }
        return JSONValue.object(object).jsonString
    }
}
