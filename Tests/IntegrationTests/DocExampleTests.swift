import Foundation
import Testing
import TestSupport

/// The `mosquitto_pub`/`mosquitto_sub` lines of README.md and docs/*.md, run against the demo, so the docs
/// cannot drift from the code: a new line without an expectation, or a line that no longer does what its
/// expectation says, fails.
@Suite("README and docs examples against the demo", .tags(.integration, .process), .timeLimit(.minutes(4)))
struct DocExampleTests {
    @Test("every example line has exactly one expectation and every expectation an example")
    func coverage() throws {
        var misplaced: [String] = []
        let examples = try DocExamples.all(misplaced: &misplaced)
        #expect(misplaced.isEmpty, "examples outside a ```sh block: \(misplaced)")
        #expect(examples.count >= 40, "only \(examples.count) examples found: is the extraction broken?")
        for example in examples where DocExpectations.expectation(for: example.command) == nil {
            Issue.record("no expectation for example: \(example)")
        }
        let commands = DocExpectations.all.map(\.command)
        for command in Set(commands) where commands.filter({ $0 == command }).count > 1 {
            Issue.record("two expectations for: \(command)")
        }
        for command in commands where !examples.contains(where: { $0.command == command }) {
            Issue.record("expectation for a line no longer in the docs: \(command)")
        }
        for example in examples {
            if let expectation = DocExpectations.expectation(for: example.command), expectation.listens != example.listens {
                Issue.record("a mosquitto_sub line needs .receives, a mosquitto_pub line .effect: \(example)")
            }
        }
    }

    @Test("a comment starts at a # outside quotes at the start of a word; a final & runs in the background")
    func extraction() {
        var misplaced: [String] = []
        let text = """
            ```sh
            mosquitto_pub -t a/set -m '{"color":"#ff8800"}'   # a comment
            mosquitto_sub -v -t 'a/#' &
            ```
            ```json
            mosquitto_pub -t b -m x
            ```
            """
        let examples = DocExamples.extract(text, file: "x.md", misplaced: &misplaced)
        #expect(examples.map(\.command) == [##"mosquitto_pub -t a/set -m '{"color":"#ff8800"}'"##, "mosquitto_sub -v -t 'a/#'"])
        #expect(examples.map(\.background) == [false, true])
        #expect(misplaced == ["x.md:6 (in a ```json block): mosquitto_pub -t b -m x"])
    }

    @Test("every example, in document order in one demo run, has its documented effect", .needs(.broker, .busMock))
    func examplesRun() async throws {
        var misplaced: [String] = []
        let examples = try DocExamples.all(misplaced: &misplaced)
        let rows = try examples.map { example in
            guard let expectation = DocExpectations.expectation(for: example.command) else {
                throw TestFailure("no expectation for example: \(example)")
            }
            return (example, expectation)
        }
        #expect(try DemoRig.demoSimulatorLines() == DemoRig.mirroredSimulatorLines, "deploy/demo.sh starts other simulators than DemoRig")
        let rig = try await DemoRig.start()
        let client = try await TestClient.connect(to: rig.broker)
        try await client.subscribe("things2mqtt/#")
        let run = DemoRun(rig: rig, client: client)
        try await Self.waitForDemo(run)
        let folder = try TemporaryDirectory(prefix: "examples")
        defer { folder.remove() }
        var runner = DocExampleRunner(run: run, folder: folder)
        var block: (String, Int)?
        let started = ContinuousClock.now
        for (example, expectation) in rows {
            if let block, block != (example.file, example.block) { try await runner.finishListeners() }
            block = (example.file, example.block)
            try await runner.perform(example, expectation)
        }
        try await runner.finishListeners()
        print("ran \(rows.count) examples in \(ContinuousClock.now - started)")
        #expect(try await rig.stop() == 0)
        await client.close()
    }

    /// What a reader waits for after starting the demo: the lights polled, the brick found and ready, the
    /// closer Nova connected.
    static func waitForDemo(_ run: DemoRun) async throws {
        try await run.state("living_room/floor_lamp", "the floor lamp polled", timeout: .seconds(30)) { $0["state"] != nil }
        try await run.state("robot", "the brick ready", timeout: .seconds(30)) { $0["status"] == "ready" }
        try await run.state("ble_aabbccddee01", "the closer Nova connected", timeout: .seconds(30)) { $0["status"] == "ready" }
    }
}

extension Expectation {
    /// Whether this is the expectation of a `mosquitto_sub` line.
    var listens: Bool {
        if case .receives = self { true } else { false }
    }
}
