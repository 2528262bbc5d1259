import ArgumentParser
import Foundation
import Logging
import Harness

/// Prints the performance figures of things2mqtt: `swift build -c release && .build/release/things2mqtt-bench`.
@main
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "things2mqtt-bench", abstract: "Measure things2mqtt.")

    @Option(help: "Latency samples per measurement.")
    var samples = 200

    @Option(help: "Simulated LIFX lights for the memory figure.")
    var lights = 1000

    @Option(help: "Hostile messages in the burst.")
    var burst = 20_000

    @Flag(help: "Only the figures measured from an external client.")
    var externalOnly = false

    @Flag(help: "Only the BLE figures.")
    var bleOnly = false

    @Flag(help: "Only the BLE advert ingest figures (C sender, bare C receiver, daemon).")
    var ingestOnly = false

    @Option(help: "Times each ingest burst is taken by the bare receiver and by the daemon; the median is shown.")
    var ingestTrials = 3

    @Option(help: "Which ingest bursts to run, comma-separated: rssi, pvvx, mibeacon.")
    var ingestKinds = "rssi,pvvx,mibeacon"

    @Flag(help: "Only the sustained-load ingest figures (1,000 thermometers paced by the C sender, default config).")
    var sustainedOnly = false

    @Option(help: "Signals a second of each sustained-load run, comma-separated.")
    var sustainedRates = "2000,10000,30000"

    @Option(help: "Seconds each sustained-load run sends.")
    var sustainedSeconds = 60

    @Flag(help: "Only the cluster figures (three bridges, each with its own BlueZ stand-in).")
    var clusterOnly = false

    @Option(help: "Sensors every bridge of the cluster hears.")
    var clusterDevices = 300

    @Option(help: "Hand-overs of a moving connected Nova timed in the cluster figures.")
    var clusterHandOvers = 10

    @Flag(help: "Only the EV3 figures.")
    var ev3Only = false

    @Flag(help: "Only the pure decode cost of each BLE advert format.")
    var decodeOnly = false

    @Flag(help: "Only the web frontend's fan-out figures.")
    var webOnly = false

    @Option(help: "State changes a second per light in the web frontend's fan-out.")
    var webRate = 10

    @Option(help: "Pages on the websocket in the web frontend's fan-out (0 shows the same load without them).")
    var webPages = 20

    func run() async throws {
        LoggingSystem.bootstrap { _ in SwiftLogNoOpLogHandler() }
        if decodeOnly { return try decode() }
        let broker = try await Broker.start()
        print("things2mqtt benchmark (mosquitto on 127.0.0.1:\(broker.port), daemon \(try BridgeProcess.binaryPath()))")
        if ingestOnly { return try await ingest(broker) }
        if sustainedOnly { return try await sustained(broker) }
        if bleOnly { return try await ble(broker) }
        if ev3Only { return try await ev3(broker) }
        if clusterOnly { return try await cluster(broker) }
        if webOnly { return try await web(broker) }
        try await external(broker)
        if externalOnly { return }
        try await ble(broker)
        try await ev3(broker)
        try await web(broker)
        let spine = SpineBench(broker: broker)
        let rtt = try await spine.brokerRoundTrip(samples: samples)
        print("broker round trip (publish → receive, QoS 1):   \(rtt.summary)")
        let dispatch = try await spine.setToDispatch(samples: samples)
        print("/set → driver dispatch (in-process bridge):     \(dispatch.summary)")
        let (startup, idle) = try await spine.startup(runs: 5, idleSeconds: 5)
        print("start → retained bridge/state online:           \(startup.summary)")
        print("idle RSS, no devices:                           \(idle.map(String.init(describing:)) ?? "unread")")
        let lifx = LIFXBench(broker: broker)
        let request = try await lifx.setToRequest(samples: min(samples, 40))
        print("LIFX /set → request at the simulator:           \(request.summary)")
        let burst = try await lifx.burstCost()
        print("LIFX slider burst (25 updates in 0.5 s):        \(burst.slider) write requests, final value applied: \(burst.sliderFinal)")
        print("LIFX 10 lights changed at once:                 \(burst.tenLights) write request(s)")
        let rss = try await lifx.memory(lights: lights)
        print(String(format: "RSS with %d simulated LIFX lights:            %.1f MiB", lights, rss))
    }

    /// The pure decode cost per advert of every BLE format, decryption included.
    private func decode() throws {
        print("BLE advert decode, pure (best of 5 runs of 20,000):")
        for (name, nanoseconds) in try DecodeBench().run(iterations: 20_000) {
            print("  " + name.padding(toLength: 26, withPad: " ", startingAt: 0) + String(format: "%8.0f ns/advert", nanoseconds))
        }
    }

    /// BLE: advert ingest against the bare C receiver, memory with 1,000 devices, passive sensors, the Nova, the
    /// decode cost of each format.
    private func ble(_ broker: Broker) async throws {
        try decode()
        try await ingest(broker)
        let bench = BLEBench(broker: broker)
        let thousand = try await bench.memory(devices: 1000)
        print("RSS with 1,000 BLE devices in range and published: \(thousand.map(String.init(describing:)) ?? "unread")")
        try await passive(broker)
        let nova = try await NovaBench(broker: broker).run(samples: min(samples, 100))
        print("Nova, external MQTT client → release daemon → BlueZ stand-in, same client and run:")
        print("  broker echo, QoS 1:                       \(nova.echo.summary)")
        print(
            "  /set → Nova frame at the flash, QoS 1     \(nova.setToFrame.summary)  \(nova.setToFrame.added(over: nova.echo))")
    }

    /// EV3: `/set` → frame at the brick next to the broker echo, stop behind a full queue, polls, memory.
    private func ev3(_ broker: Broker) async throws {
        let bench = EV3Bench(broker: broker)
        let figures = try await bench.run(samples: min(samples, 200))
        print("EV3, external MQTT client → release daemon → 2 simulated bricks over TCP, same client and run:")
        print("  broker echo, QoS 1:                       \(figures.echo.summary)")
        print(
            "  /set → motor frame at the brick, QoS 1    \(figures.setToFrame.summary)  \(figures.setToFrame.added(over: figures.echo))")
        let jumped = figures.jumped.isEmpty ? 0 : Double(figures.jumped.reduce(0, +)) / Double(figures.jumped.count)
        print(
            "  stop → frame, 31 LED changes queued on a brick taking 10 ms a command: \(figures.stopWhileFull.summary);"
                + String(format: " %.1f LED changes on average went out after the stop", jumped))
        let link = try await EV3LinkBench.pollsPerSecond(seconds: 3)
        print(
            String(
                format: "  polls one link sustains over TCP (3 motors, 4 sensors, battery, name, buttons; %d-byte command, %d-byte reply): %.0f/s",
                link.command, link.reply, link.rate))
        let rates = try await bench.pollRate(seconds: 5)
        print(
            "  daemon at poll_interval 100ms, 2 bricks: "
                + rates.map { String(format: "%.1f", $0) }.joined(separator: " and ") + " polls/s")
        print(String(format: "  daemon RSS with 2 bricks connected and polled: %.1f MiB", figures.rss))
    }

    /// The web frontend: 20 pages on the websocket while 100 lights change 10 times a second, and a stalled page.
    private func web(_ broker: Broker) async throws {
        let figures = try await FanoutBench(broker: broker).run(pages: webPages, loaded: 100, rate: webRate, samples: samples * 5)
        print("Web frontend, \(webPages) pages on the api websocket, 100 lights changing \(webRate) times a second, one page stalled:")
        print("  broker echo, QoS 1:                       \(figures.echo.summary)")
        print(
            "  /set → state of another light, QoS 1      \(figures.setToState.summary)  \(figures.setToState.added(over: figures.echo))")
        print("  load generator: \(Int(figures.loadRate)) /set a second sent (target \(100 * webRate)); LIFX cloud simulator in its own process")
        // The yardstick: the same load and probes answered by a C program on libmosquitto, no daemon.
        let bare = try await FanoutBench(broker: broker).runBare(loaded: 100, rate: webRate, samples: samples * 5)
        print("  the same load answered by the bare C responder (libmosquitto, one thread, no daemon):")
        print("    broker echo, QoS 1:                     \(bare.echo.summary)")
        print(
            "    /set → state, QoS 1                     \(bare.setToState.summary)  \(bare.setToState.added(over: bare.echo))")
        print(String(format: "    load generator: %.0f /set a second sent; responder CPU %.0f %% of one core", bare.loadRate, bare.cpuShare * 100))
        print("  frames each page received: \(figures.frames.min() ?? 0) to \(figures.frames.max() ?? 0)")
        print(String(format: "  daemon CPU under the load: %.0f %% of one core", figures.cpuShare * 100))
        print(
            String(
                format: "  daemon RSS %.1f MiB before, peak %.1f MiB under load, %.1f MiB after; the stalled page was %@",
                figures.rssBefore, figures.rssPeak, figures.rssAfter,
                figures.stalledClosed ? "closed past its bound" : "kept (newest state per topic, within its bound)"))
    }

    /// Passive sensors: memory, a 10 Hz advertiser's publishes.
    private func passive(_ broker: Broker) async throws {
        let bench = PassiveBench(broker: broker)
        let memory = try await bench.memory(count: 1000)
        print(
            String(
                format: "RSS idle %.1f MiB; with 1,000 BTHome sensors %.1f MiB; after 1,000 random addresses too %.1f MiB (retained topics %d before, %d after); once BlueZ has forgotten them %.1f MiB",
                memory.idle, memory.sensors, memory.random, memory.topicsBefore, memory.topicsAfter, memory.expired))
        let published = try await bench.chatty(seconds: 60)
        print("A 10 Hz BTHome advertiser with unchanging values for 60 s (default intervals): \(published) state publishes")
    }

    /// The figures users feel, from an external client against the daemon, next to the broker's own echo.
    private func external(_ broker: Broker) async throws {
        let bench = ExternalBench(broker: broker)
        try await bench.withDaemon { client, process in
            print("external MQTT client (own process, TCP_NODELAY) → release daemon; broker echo from the same client, same run")
            let trips = try await bench.roundTrips(client, samples: samples)
            let rows: [(String, LatencySample, LatencySample)] = [
                ("health_check request → response, QoS 0", trips.request0, trips.echo0),
                ("health_check request → response, QoS 1", trips.request1, trips.echo1),
                ("/set → optimistic state, QoS 1", trips.setToState, trips.echo1),
            ]
            print("  broker echo, QoS 0:                       \(trips.echo0.summary)")
            print("  broker echo, QoS 1:                       \(trips.echo1.summary)")
            for (name, sample, echo) in rows {
                print("  \(name.padding(toLength: 41, withPad: " ", startingAt: 0)) \(sample.summary)  \(sample.added(over: echo))")
            }
            let paced = try await bench.hostilePaced(client, rate: 5_000, duration: .seconds(5))
            print(
                "  hostile mix paced at 5,000 msg/s for 5 s: \(paced.sent) sent, \(paced.refused) refused at the inbox;"
                    + " another light's /set → state meanwhile \(paced.legit.summary)")
            let burst = try await bench.hostileBurst(client, process: process, count: burst)
            let handled = self.burst - burst.refused
            print(
                String(
                    format: "  hostile mix burst of %d: all through in %.2f s; %d handled (%.0f msg/s), %d refused at the inbox;"
                        + " daemon RSS %.1f MiB before, %.1f MiB after", self.burst, burst.seconds, handled,
                    Double(handled) / burst.seconds, burst.refused, burst.rssBefore, burst.rssAfter))
        }
        // The same round trips against a broker left at mosquitto's default, to show what that setting costs.
        let plain = try await Broker.start(tcpNoDelay: false)
        try await ExternalBench(broker: plain).withDaemon { client, _ in
            let trips = try await ExternalBench(broker: plain).roundTrips(client, samples: min(samples, 50))
            print("  with mosquitto's default set_tcp_nodelay false instead (same client and daemon):")
            print("    broker echo, QoS 1:                     \(trips.echo1.summary)")
            print("    health_check request → response, QoS 1  \(trips.request1.summary)")
            print("    /set → optimistic state, QoS 1          \(trips.setToState.summary)")
        }
    }
}

extension Bench {
    /// Three bridges hearing the same sensors, against one bridge alone.
    func cluster(_ broker: Broker) async throws {
        let bench = ClusterBench(broker: broker, devices: clusterDevices)
        let figures = try await bench.run()
        print("Cluster: 3 bridges (each its own BlueZ stand-in), \(clusterDevices) sensors heard by all three (−60/−70/−80 dBm ±3),")
        let asked = Double(clusterDevices) / 2
        print(String(format: "  an advert per sensor and stand-in every 2 s: %.0f/s asked of each stand-in; sent %.0f/s (alone), %.0f/s (three)",
            asked, figures.aloneAdvertRate, figures.advertRate))
        print(String(format: "  MQTT messages per device per minute: one bridge alone %.2f; the cluster %.2f (%.2f of them on the cluster topic), %.2f× alone (target ≤ 1.5×)",
            figures.alonePerDeviceMinute, figures.clusterPerDeviceMinute, figures.clusterSharePerDeviceMinute,
            figures.clusterPerDeviceMinute / figures.alonePerDeviceMinute))
        print("  fail-over after kill -9 of b1 (−60 dBm): \(figures.claimed) of the \(figures.ownedByKilled) sensors it owned claimed again; from the kill: \(figures.failover.summary)")
        let move = try await HandOverBench(rounds: clusterHandOvers).run()
        print("  hand-over of a connected Nova moving between 2 bridges (−55 ↔ −85 dBm in one step, default timings):")
        print("    move → new owner's claim      \(move.claimed.summary)")
        print("    move → new owner connected    \(move.connected.summary)  (both connected at once: \(move.overlaps) polls)")
    }
}

