import Bridge
import BridgeCore
import Foundation
import Testing

@Suite("Bridge inbox: bounded, coalescing, never blocking")
struct InboxTests {
    static let lamp = DeviceID("lifx_d073d5000001")!
    static let other = DeviceID("lifx_d073d5000002")!

    private func drain(_ inbox: BridgeInbox, _ count: Int) async -> [BridgeInput] {
        var iterator = inbox.inputs.makeAsyncIterator()
        var inputs: [BridgeInput] = []
        for _ in 0..<count { if let input = await iterator.next() { inputs.append(input) } }
        return inputs
    }

    private func message(_ topic: String, _ text: String = "{}", retained: Bool = false) -> InboundMessage {
        InboundMessage(topic: topic, payload: Array(text.utf8), retained: retained)
    }

    @Test("driver state for one device merges while it waits: latest value wins, a later null still deletes")
    func coalescing() async {
        let inbox = BridgeInbox()
        for step in 1...1000 { inbox.deviceSink.send(.state(Self.lamp, ["brightness": .number(Double(step))])) }
        inbox.deviceSink.send(.state(Self.other, ["state": "ON"]))
        inbox.deviceSink.send(.state(Self.lamp, ["effect": "pulse"]))
        inbox.deviceSink.send(.state(Self.lamp, ["effect": .null]))
        let inputs = await drain(inbox, 2)
        guard case .device(.state(let first, let values)) = inputs[0], case .device(.state(let second, _)) = inputs[1] else {
            Issue.record("expected two state inputs, got \(inputs)")
            return
        }
        #expect(first == Self.lamp)
        #expect(values == ["brightness": 1000, "effect": .null])
        #expect(second == Self.other)
    }

    @Test("another event for the device closes its waiting state, so order across events is kept")
    func coalescingKeepsOrder() async {
        let inbox = BridgeInbox()
        inbox.deviceSink.send(.state(Self.lamp, ["state": "ON"]))
        inbox.deviceSink.send(.status(Self.lamp, .unavailable))
        inbox.deviceSink.send(.state(Self.lamp, ["state": "OFF"]))
        let inputs = await drain(inbox, 3)
        guard case .device(.state(_, let before)) = inputs[0], case .device(.status) = inputs[1],
            case .device(.state(_, let after)) = inputs[2]
        else {
            Issue.record("unexpected order \(inputs)")
            return
        }
        #expect(before == ["state": "ON"])
        #expect(after == ["state": "OFF"])
    }

    @Test("a flood on one topic is capped per topic; other topics still get in; refusals are counted and reported")
    func perTopicBound() async {
        let inbox = BridgeInbox(limits: InboxLimits(messages: 100, messagesPerTopic: 8))
        var accepted = 0
        for _ in 0..<5000 where inbox.offer(message("t2m/lamp/set")) { accepted += 1 }
        #expect(accepted == 8)
        #expect(inbox.offer(message("t2m/other/set")))
        let inputs = await drain(inbox, 10)
        let topics = inputs.compactMap { input -> String? in
            if case .transport(.message(let message)) = input { return message.topic }
            return nil
        }
        #expect(topics == Array(repeating: "t2m/lamp/set", count: 8) + ["t2m/other/set"])
        guard case .refused(let refusals) = inputs[8] else {
            Issue.record("expected the refusal report after the accepted messages, got \(inputs[8])")
            return
        }
        #expect(refusals == [InboxRefusal(topic: "t2m/lamp/set", reason: .queueFull, count: 4992)])
    }

    @Test("the total bound holds across many topics, and room comes back as the bridge takes messages")
    func totalBound() async {
        let inbox = BridgeInbox(limits: InboxLimits(messages: 50, messagesPerTopic: 8, refusalTopics: 4))
        var accepted = 0
        for index in 0..<1000 where inbox.offer(message("t2m/random_\(index)/set")) { accepted += 1 }
        #expect(accepted == 50)
        _ = await drain(inbox, 10)
        #expect(inbox.offer(message("t2m/late/set")))
        let rest = await drain(inbox, 41)
        guard case .refused(let refusals) = rest.last else {
            Issue.record("expected a refusal report, got \(String(describing: rest.last))")
            return
        }
        #expect(refusals.reduce(0) { $0 + $1.count } == 950)
        #expect(refusals.count == 5, "4 topics one by one, then the rest together")
        #expect(refusals.contains { $0.topic == nil && $0.count == 946 })
    }

    @Test("driver events and control inputs are never refused, however full the message queue is")
    func controlNeverRefused() async {
        let inbox = BridgeInbox(limits: InboxLimits(messages: 1, messagesPerTopic: 1))
        #expect(inbox.offer(message("t2m/a/set")))
        #expect(!inbox.offer(message("t2m/b/set")))
        inbox.deviceSink.send(.status(Self.lamp, .ready))
        inbox.send(.reloadFailed("x"))
        let inputs = await drain(inbox, 4)
        #expect(inputs.count == 4)
        guard case .device(.status) = inputs[2], case .reloadFailed = inputs[3] else {
            Issue.record("control inputs missing: \(inputs)")
            return
        }
    }

    @Test("a payload over the size bound is queued without its bytes, so its sender can still be told")
    func oversized() async {
        let inbox = BridgeInbox(limits: InboxLimits(payloadBytes: 1024))
        #expect(inbox.offer(InboundMessage(topic: "t2m/lamp/set", payload: Array(repeating: 0x5b, count: 1 << 20), retained: false)))
        let inputs = await drain(inbox, 1)
        guard case .transport(.message(let message)) = inputs.first else {
            Issue.record("expected the message, got \(inputs)")
            return
        }
        #expect(message.payload.isEmpty)
        #expect(message.droppedPayloadSize == 1 << 20)
    }

    @Test("a waiting consumer is woken by a producer on another thread, and ends when cancelled")
    func waiting() async throws {
        let inbox = BridgeInbox()
        let consumer = Task { await drain(inbox, 1) }
        try await Task.sleep(for: .milliseconds(20))
        Thread.detachNewThread { inbox.send(.reloadFailed("from a thread")) }
        let inputs = await consumer.value
        #expect(inputs.count == 1)
        let idle = Task { await drain(inbox, 1) }
        try await Task.sleep(for: .milliseconds(20))
        idle.cancel()
        #expect(await idle.value.isEmpty)
    }

    @Test("a driver's batch goes in together: a waiting consumer wakes for it, states merge, order across events is kept")
    func batch() async throws {
        let inbox = BridgeInbox()
        let consumer = Task { await drain(inbox, 4) }
        try await Task.sleep(for: .milliseconds(20))
        let events: [DeviceEvent] = [
            .state(Self.lamp, ["brightness": 1]), .state(Self.other, ["state": "ON"]), .state(Self.lamp, ["brightness": 2]),
            .status(Self.lamp, .unavailable), .state(Self.lamp, ["brightness": 3]),
        ]
        inbox.deviceSink.send(contentsOf: events)
        let inputs = await consumer.value
        guard inputs.count == 4, case .device(.state(let lamp, let first)) = inputs[0],
            case .device(.state(let other, _)) = inputs[1], case .device(.status(let down, .unavailable, _, _)) = inputs[2],
            case .device(.state(let again, let last)) = inputs[3], [lamp, down, again] == [Self.lamp, Self.lamp, Self.lamp],
            other == Self.other
        else {
            Issue.record("unexpected inputs \(inputs)")
            return
        }
        #expect(first == ["brightness": 2], "merged while it waited in the batch")
        #expect(last == ["brightness": 3])
        #expect(inbox.counts.depth == 0)
    }
}
