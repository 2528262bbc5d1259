import EV3Protocol
import Testing

@Suite("EV3 poll plans: one odd group cannot blank the others")
struct PollPlanTests {
    @Test("all groups travel together while that works")
    func together() {
        var plan = EV3PollPlan(groups: ["brick", "1", "2", "A"])
        #expect(plan.requests == [["brick", "1", "2", "A"]])
        plan.record(failed: [])
        #expect(plan.requests == [["brick", "1", "2", "A"]])
        #expect(!plan.isProbing && plan.isolated.isEmpty)
    }

    @Test("a failed shared request is probed group by group; groups failing alone are isolated")
    func isolates() {
        var plan = EV3PollPlan(groups: ["brick", "1", "2", "A"])
        plan.record(failed: [["brick", "1", "2", "A"]])
        #expect(plan.isProbing)
        #expect(plan.requests == [["brick"], ["1"], ["2"], ["A"]])
        plan.record(failed: [["2"]])
        #expect(!plan.isProbing && plan.isolated == ["2"])
        #expect(plan.requests == [["brick", "1", "A"], ["2"]])
        plan.record(failed: [["2"]])
        #expect(plan.requests == [["brick", "1", "A"], ["2"]])
        plan.readmit("2")
        #expect(plan.requests == [["brick", "1", "2", "A"]])
    }

    @Test("a transient error costs one probe cycle and isolates nothing")
    func transient() {
        var plan = EV3PollPlan(groups: [1, 2, 3])
        plan.record(failed: [[1, 2, 3]])
        #expect(plan.requests == [[1], [2], [3]])
        plan.record(failed: [])
        #expect(plan.requests == [[1, 2, 3]] && plan.isolated.isEmpty)
    }

    @Test("groups that vanish leave isolation; new groups join the shared request")
    func update() {
        var plan = EV3PollPlan(groups: [1, 2, 3])
        plan.record(failed: [[1, 2, 3]])
        plan.record(failed: [[2], [3]])
        #expect(plan.requests == [[1], [2], [3]])
        plan.update(groups: [1, 3, 4])
        #expect(plan.isolated == [3])
        #expect(plan.requests == [[1, 4], [3]])
        plan.update(groups: [3])
        #expect(plan.requests == [[3]])
        plan.update(groups: [])
        #expect(plan.requests.isEmpty)
    }

    @Test("with a brick that refuses any command holding GET_ID, the other groups keep their values")
    func withBatches() throws {
        // The groups a driver might build: the brick, a sensor port, and one the firmware rejects.
        let builders: [String: @Sendable (inout EV3Batch) throws -> Void] = [
            "brick": { $0.append(.batteryPercent) },
            "1": { $0.append(.typeMode(.sensor(1)!)) },
            "odd": { $0.append(try .bluetoothAddress(length: 13)) },
        ]
        var plan = EV3PollPlan(groups: ["brick", "1", "odd"])
        var answered: [[String]] = []
        for _ in 0..<3 {
            answered = []
            var failed: [[String]] = []
            for request in plan.requests {
                var batch = EV3Batch()
                for group in request { try builders[group]!(&batch) }
                if batch.names.contains("GET_ID") { failed.append(request) } else { answered.append(request) }
            }
            plan.record(failed: failed)
        }
        #expect(answered == [["brick", "1"]])
        #expect(plan.isolated == ["odd"])
    }
}
