import Bridge
import BridgeCore
import Synchronization
import Testing
import TestSupport

@Suite("Publish tap: the bridge's publishes for in-process readers, bounded per reader", .timeLimit(.minutes(1)))
struct PublishTapTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("in a cluster the bridge's own API under bridge/<id>/ reads as bridge/, as a bridge alone has it")
    func clusterAPI() async {
        let tap = PublishTap(base: "t2m", bridgeID: "kitchen")
        tap.record(topic: "t2m/bridge/kitchen/state", payload: Self.bytes("{\"state\":\"online\"}"), retain: true)
        tap.record(topic: "t2m/bridge/kitchen/info", payload: Self.bytes("{}"), retain: true)
        tap.record(topic: "t2m/_cluster/bridges/kitchen", payload: Self.bytes("{}"), retain: true)
        tap.record(topic: "t2m/sensor", payload: Self.bytes("{}"), retain: true)
        let (snapshot, subscription) = tap.subscribe()
        #expect(snapshot.map(\.topic) == ["bridge/state", "bridge/info", "_cluster/bridges/kitchen", "sensor"])
        tap.record(topic: "t2m/bridge/kitchen/response/health_check", payload: Self.bytes("{}"), retain: false)
        #expect(await subscription.next()?.topic == "bridge/response/health_check")
        // Another bridge's id is not this bridge's API.
        tap.record(topic: "t2m/bridge/kitchenette/info", payload: Self.bytes("{}"), retain: false)
        #expect(await subscription.next()?.topic == "bridge/kitchenette/info")
        subscription.cancel()
    }

    @Test("a new reader gets the retained messages under the base, bridge topics first, then every publish")
    func snapshotThenLive() async {
        let tap = PublishTap(base: "t2m")
        tap.record(topic: "t2m/kitchen", payload: Self.bytes("{\"state\":\"ON\"}"), retain: true)
        tap.record(topic: "t2m/bridge/info", payload: Self.bytes("{}"), retain: true)
        tap.record(topic: "t2m/bridge/state", payload: Self.bytes("{\"state\":\"online\"}"), retain: true)
        tap.record(topic: "homeassistant/light/x/config", payload: Self.bytes("{}"), retain: true)
        tap.record(topic: "t2m/gone", payload: Self.bytes("{}"), retain: true)
        tap.record(topic: "t2m/gone", payload: [], retain: true)
        tap.record(topic: "t2m/bridge/event", payload: Self.bytes("{}"), retain: false)
        let (snapshot, subscription) = tap.subscribe()
        #expect(snapshot.map(\.topic) == ["bridge/state", "bridge/info", "kitchen"])
        tap.record(topic: "t2m/kitchen", payload: Self.bytes("{\"state\":\"OFF\"}"), retain: true)
        let next = await subscription.next()
        #expect(next?.topic == "kitchen" && next?.payload == Self.bytes("{\"state\":\"OFF\"}") && next?.retained == true)
        #expect(next?.sequence == 8)
        #expect(snapshot.map(\.sequence) == [3, 2, 1])
        #expect(tap.publishedCount == 8)
        subscription.cancel()
        #expect(await subscription.next() == nil)
        #expect(tap.readerCount == 0)
    }

    @Test("a retained message replaces its topic's waiting one in place: the newest state wins, events are kept")
    func newestStateWins() async {
        let tap = PublishTap(base: "t2m")
        let (_, subscription) = tap.subscribe()
        for step in 1...100 { tap.record(topic: "t2m/lamp", payload: Self.bytes("{\"b\":\(step)}"), retain: true) }
        tap.record(topic: "t2m/bridge/event", payload: Self.bytes("{\"type\":\"a\"}"), retain: false)
        tap.record(topic: "t2m/bridge/event", payload: Self.bytes("{\"type\":\"b\"}"), retain: false)
        tap.record(topic: "t2m/lamp", payload: Self.bytes("{\"b\":101}"), retain: true)
        var received: [String] = []
        for _ in 0..<3 { if let message = await subscription.next() { received.append(message.topic + " " + String(decoding: message.payload, as: UTF8.self)) } }
        #expect(received == ["lamp {\"b\":101}", "bridge/event {\"type\":\"a\"}", "bridge/event {\"type\":\"b\"}"])
        subscription.cancel()
    }

    @Test("a stalled reader of states only stays within its bound: at the bound the newest state of each topic replaces the older ones")
    func stalledStatesStay() async {
        let tap = PublishTap(base: "t2m", limits: TapLimits(messages: 10, bytes: 1 << 20))
        let (_, stalled) = tap.subscribe()
        for step in 1...100 {
            tap.record(topic: "t2m/lamp\(step % 3)", payload: Self.bytes("{\"b\":\(step)}"), retain: true)
        }
        #expect(!stalled.overflowed)
        var received: [String] = []
        while let message = stalled.poll() { received.append(message.topic + " " + String(decoding: message.payload, as: UTF8.self)) }
        #expect(received == ["lamp1 {\"b\":100}", "lamp2 {\"b\":98}", "lamp0 {\"b\":99}"])
        stalled.cancel()
    }

    @Test("a reader that falls past its bound is dropped and told once; the others and the snapshot go on")
    func overflow() async {
        let tap = PublishTap(base: "t2m", limits: TapLimits(messages: 10, bytes: 1 << 20))
        let told = Mutex(0)
        let (_, stalled) = tap.subscribe { told.withLock { $0 += 1 } }
        let (_, reading) = tap.subscribe()
        for index in 0..<11 {
            tap.record(topic: "t2m/bridge/event", payload: Self.bytes("{\"n\":\(index)}"), retain: false)
            #expect(await reading.next()?.payload == Self.bytes("{\"n\":\(index)}"))
        }
        #expect(told.withLock { $0 } == 1)
        #expect(stalled.overflowed)
        #expect(await stalled.next() == nil)
        tap.record(topic: "t2m/bridge/event", payload: Self.bytes("{}"), retain: false)
        #expect(told.withLock { $0 } == 1)
        #expect(tap.readerCount == 1)
        #expect(await reading.next()?.payload == Self.bytes("{}"))
        reading.cancel()
    }

    @Test("the byte bound counts too")
    func byteBound() {
        let tap = PublishTap(base: "t2m", limits: TapLimits(messages: 1000, bytes: 1000))
        let (_, subscription) = tap.subscribe()
        tap.record(topic: "t2m/a", payload: Array(repeating: 0x20, count: 900), retain: false)
        #expect(!subscription.overflowed)
        tap.record(topic: "t2m/b", payload: Array(repeating: 0x20, count: 200), retain: false)
        #expect(subscription.overflowed)
    }

    @Test("a waiting reader is woken by the next publish, and by cancelling its task")
    func waiting() async throws {
        let tap = PublishTap(base: "t2m")
        let (_, subscription) = tap.subscribe()
        async let next = subscription.next()
        try await Task.sleep(for: .milliseconds(50))
        tap.record(topic: "t2m/x", payload: Self.bytes("1"), retain: false)
        #expect(await next?.topic == "x")
        let task = Task { await subscription.next() }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        #expect(await task.value == nil)
        subscription.cancel()
    }

    @Test("the bridge's publishes reach the tap; a message offered to the inbox acts as the same MQTT message")
    func throughTheBridge() async throws {
        let tap = PublishTap(base: "t2m")
        var options = BridgeOptions.fastForTests()
        options.publishTap = tap
        let bridge = try await MemoryBridge.start(options: options)
        bridge.driver().announce(Fixtures.colorLight(), state: ["state": "OFF"])
        _ = try await bridge.waitForPublish("t2m/lifx_d073d5000001")
        let (snapshot, subscription) = tap.subscribe()
        #expect(snapshot.contains { $0.topic == "bridge/state" })
        #expect(snapshot.contains { $0.topic == "lifx_d073d5000001" })
        let offered = bridge.inbox.offer(
            InboundMessage(topic: "t2m/lifx_d073d5000001/set", payload: Self.bytes("{\"state\":\"ON\"}"), retained: false))
        #expect(offered)
        let command = try await bridge.driver().waitForCommand()
        #expect(command.device == Fixtures.colorLight().id)
        bridge.driver().emit(.state(Fixtures.colorLight().id, ["state": "ON"]))
        while let message = await subscription.next() {
            if message.topic == "lifx_d073d5000001", String(decoding: message.payload, as: UTF8.self).contains("\"ON\"") { break }
        }
        #expect(bridge.inbox.counts.received >= 1)
        subscription.cancel()
        await bridge.stop()
    }
}
