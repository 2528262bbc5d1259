import Bridge
import BridgeCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import ServiceLifecycle

/// One page's websocket at `api`: the token first when one is set, then every retained message the bridge
/// holds under its base and every publish after them, while the page's frames go to the bridge's inbox as
/// the same MQTT messages would.
struct APISession {
    let link: FrontendLink
    let frames: FrameCache
    let gate: SocketGate
    /// The sockets still to show their token: bounded apart from `gate`, and each for `authTimeout` at most.
    let waiting = SocketGate(limit: 16)
    let token: String?
    let authTimeout: Duration
    let logger: Logger
    /// The shortest time between two wake-ups of a page's writer.
    var pace: Duration = .milliseconds(20)

    /// The close code of a missing or wrong token, as zigbee2mqtt's frontend uses it.
    static let unauthorized: UInt16 = 4401

    /// Serves one page; `user` is the Home Assistant user ingress named, if any. A page takes one of the gate's
    /// places only once its token is right: sockets that have not shown one hold none (only one of the few
    /// `waiting` places, for at most `authTimeout`), so they cannot keep the pages that have one out.
    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, channel: any Channel, user: String? = nil) async throws {
        var messages = inbound.messages(maxSize: link.inbox.limits.payloadBytes + 4096).makeAsyncIterator()
        if let token {
            guard waiting.enter() else {
                logger.debug("Refused a frontend websocket: too many waiting for their token", metadata: ["limit": "\(waiting.limit)"])
                return try await outbound.close(.unknown(1013), reason: "Too many pages")
            }
            let authenticated: Bool
            do {
                authenticated = try await authenticate(&messages, outbound: outbound, token: token)
            } catch {
                waiting.leave()
                throw error
            }
            waiting.leave()
            guard authenticated else { return }
        }
        guard gate.enter() else {
            logger.warning("Refused a frontend websocket: too many pages open", metadata: ["limit": "\(gate.limit)"])
            // 1013: try again later.
            return try await outbound.close(.unknown(1013), reason: "Too many pages")
        }
        var subscription: TapSubscription?
        defer {
            // The place first: once a page's subscription has ended (the pages the metrics count), a new page gets in.
            gate.leave()
            subscription?.cancel()
        }
        let logger = self.logger
        let (snapshot, subscribed) = link.tap.subscribe {
            // The socket cannot take a close frame while it is stalled: closing the channel ends both loops.
            logger.warning("Closed a frontend websocket that fell behind the bridge's publishes")
            channel.close(promise: nil)
        }
        subscription = subscribed
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // At shutdown the server sends each page a close frame; a page that does not read would hold the
                // daemon's exit behind its full socket, so its channel is closed a moment later.
                try await gracefulShutdown()
                try await Task.sleep(for: .seconds(1))
                channel.close(promise: nil)
            }
            group.addTask {
                var start = snapshot.startIndex
                while start < snapshot.endIndex {
                    let end = snapshot.index(start, offsetBy: Self.batch, limitedBy: snapshot.endIndex) ?? snapshot.endIndex
                    try await send(snapshot[start..<end], on: channel)
                    start = end
                }
                // A page wakes at most every `pace` and then takes all that waits: under a stream of publishes the
                // bridge's threads serve a few wake-ups a second per page instead of one per message.
                while let message = await subscribed.next() {
                    var batch = [message]
                    while batch.count < Self.batch, let more = subscribed.poll() { batch.append(more) }
                    try await send(batch[...], on: channel)
                    try await Task.sleep(for: pace)
                }
            }
            while let message = try await messages.next() { try await receive(message, outbound: outbound, user: user) }
            group.cancelAll()
        }
    }

    /// Frames a page takes in one write.
    static let batch = 256

    /// The bridge's messages as text frames whose bytes every socket shares, written with one flush (one
    /// `writev` for the batch, where the websocket writer flushes every frame) and awaited until the socket took
    /// them: a page that stops reading holds its writer here, and the tap's bound then closes it.
    private func send(_ messages: ArraySlice<TapMessage>, on channel: any Channel) async throws {
        let data = messages.map(frames.frame)
        try await channel.eventLoop.flatSubmit {
            var written = channel.eventLoop.makeSucceededVoidFuture()
            for frame in data { written = channel.write(WebSocketFrame(fin: true, opcode: .text, data: frame)) }
            channel.flush()
            return written
        }.get()
    }

    /// Waits for `{"auth": token}` as the first frame; a wrong one, another frame, or none in time closes with 4401.
    private func authenticate(
        _ messages: inout WebSocketInboundMessageStream.AsyncIterator, outbound: WebSocketOutboundWriter, token: String
    ) async throws -> Bool {
        let timeout = authTimeout
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await Task.sleep(for: timeout)
                try await outbound.close(.unknown(Self.unauthorized), reason: "Unauthorized")
            }
            let first = try await messages.next()
            group.cancelAll()
            if case .text(let text)? = first, case .auth(let given)? = try? Frames.parse(text), Self.same(given, token) {
                return true
            }
            if first != nil {
                logger.notice("Refused a frontend websocket: wrong token")
                try? await outbound.close(.unknown(Self.unauthorized), reason: "Unauthorized")
            }
            return false
        }
    }

    private func receive(_ message: WebSocketMessage, outbound: WebSocketOutboundWriter, user: String?) async throws {
        guard case .text(let text) = message else {
            return try await outbound.write(.text(Frames.error(FrameError("frames are JSON text"))))
        }
        let parsed: ClientMessage
        do { parsed = try Frames.parse(text) } catch { return try await outbound.write(.text(Frames.error(error))) }
        // A page sends its token first whether or not one is set; later ones change nothing.
        guard case .publish(let frame) = parsed else { return }
        // Behind ingress every change says who made it; the topic only, as a payload may carry a secret.
        if let user {
            logger.info("Change from the page", metadata: ["user": "\(user)", "topic": "\(LogText.escaped(frame.topic))"])
        }
        if !link.deliver(frame) {
            let error = FrameError("the bridge's queue is full; the message was dropped")
            try await outbound.write(.text(Frames.error(error, topic: frame.topic)))
        }
    }

    /// Compares without stopping at the first difference, so the time taken tells nothing about the token.
    static func same(_ given: String, _ token: String) -> Bool {
        let left = Array(given.utf8)
        let right = Array(token.utf8)
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<max(left.count, right.count) {
            difference |= (index < left.count ? left[index] : 0) ^ (index < right.count ? right[index] : 0)
        }
        return difference == 0
    }
}
