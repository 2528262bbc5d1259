@testable import EV3Link
import EV3Protocol
import TestSupport
import Testing

@Suite("EV3 link: message counters and the send queue")
struct CounterAndQueueTests {
    @Test(
        "counters count up, wrap after 65535 and never hand out 0",
        arguments: [
            (UInt16(0), [UInt16(1), 2, 3]), (65533, [65534, 65535, 1, 2]), (65535, [1, 2]), (41, [42, 43]),
        ] as [(UInt16, [UInt16])])
    func counters(last: UInt16, expected: [UInt16]) {
        var counter = EV3MessageCounter(last: last)
        #expect(expected.map { _ in counter.next() } == expected)
    }

    @Test("a full cycle hands out each of 1…65535 once")
    func fullCycle() {
        var counter = EV3MessageCounter()
        var seen = Set<UInt16>()
        for _ in 0..<65535 { seen.insert(counter.next()) }
        #expect(seen.count == 65535 && !seen.contains(0))
        #expect(counter.next() == 1)
    }

    /// A step applied to a queue of named requests.
    enum Step: Sendable, CustomTestStringConvertible {
        case request(String)
        case motor(EV3OutputPort, Int)
        case stop(EV3OutputPorts, brake: Bool)
        var testDescription: String { "\(self)" }
    }

    /// What comes out, written short: `r:poll`, `m:A=30`, `s:0F/coast`.
    static func drain(_ queue: inout EV3SendQueue<String>) -> [String] {
        var out: [String] = []
        while let entry = queue.popFirst() {
            switch entry {
            case .request(let name): out.append("r:\(name)")
            case .motor(let port, .run(.speed(let speed))): out.append("m:\(port.asInput)=\(speed)")
            case .motor(let port, let other): out.append("m:\(port.asInput)=\(other)")
            case .stop(let ports, let brake): out.append("s:\(ports.rawValue)/\(brake ? "brake" : "coast")")
            }
        }
        return out
    }

    @Test(
        "queue order: set-points coalesce in place, stops jump ahead and drop their ports' set-points",
        arguments: [
            ([.request("a"), .request("b")], ["r:a", "r:b"]),
            ([.motor(.a, 10), .request("poll"), .motor(.a, 20), .motor(.a, 30)], ["m:A=30", "r:poll"]),
            ([.motor(.a, 10), .motor(.b, 10), .motor(.a, -5)], ["m:A=-5", "m:B=10"]),
            ([.request("poll"), .motor(.a, 50), .stop(.all, brake: false)], ["s:15/coast", "r:poll"]),
            ([.motor(.a, 50), .motor(.b, 50), .stop(.a, brake: true)], ["s:1/brake", "m:B=50"]),
            ([.stop(.a, brake: false), .stop(.b, brake: false), .stop(.c, brake: true)], ["s:3/coast", "s:4/brake"]),
            ([.request("x"), .stop(.a, brake: false), .motor(.a, 40)], ["s:1/coast", "r:x", "m:A=40"]),
        ] as [([Step], [String])])
    func order(steps: [Step], expected: [String]) {
        var queue = EV3SendQueue<String>(limit: 8)
        for step in steps {
            switch step {
            case .request(let name): _ = queue.push(name)
            case .motor(let port, let speed): queue.setMotor(port, .run(.speed(speed)))
            case .stop(let ports, let brake): queue.stop(ports, brake: brake)
            }
        }
        #expect(Self.drain(&queue) == expected)
        #expect(queue.isEmpty)
    }

    @Test("requests are bounded; set-points and stops never push a request out", arguments: [1, 3, 32])
    func bounded(limit: Int) {
        var queue = EV3SendQueue<Int>(limit: limit)
        let accepted = (0..<limit).map { queue.push($0) }
        #expect(accepted.allSatisfy { $0 })
        let overflow = queue.push(limit)
        #expect(!overflow)
        for port in EV3OutputPort.allCases { queue.setMotor(port, .run(.power(1))) }
        for port in EV3OutputPort.allCases { queue.setMotor(port, .run(.power(2))) }
        queue.stop(.a, brake: true)
        queue.stop(.b, brake: false)
        #expect(queue.count == limit + 2 + 2)
        _ = queue.popFirst()
        let stillFull = queue.push(99)
        #expect(!stillFull)
        while let entry = queue.popFirst(), case .stop = entry {}
        let roomAgain = queue.push(99)
        #expect(roomAgain)
    }

    @Test("draining for a lost connection returns the requests and drops every motion")
    func drain() {
        var queue = EV3SendQueue<String>(limit: 4)
        _ = queue.push("poll")
        queue.setMotor(.c, .timed(.power(50), milliseconds: 500, brake: true))
        queue.stop(.d, brake: false)
        _ = queue.push("led")
        #expect(queue.drain() == ["poll", "led"])
        #expect(queue.isEmpty && queue.popFirst() == nil)
        let refilled = (0..<4).map { queue.push("\($0)") }
        #expect(refilled.allSatisfy { $0 })
    }

    @Test(
        "motor commands become the catalogue's instructions, or refuse values the brick does not take",
        arguments: [
            (EV3MotorCommand.run(.power(50)), EV3OutputPort.b, "A4 00 02 81 32 A6 00 02"),
            (.run(.speed(-20)), .a, "A5 00 01 2C A6 00 01"),
            (.timed(.speed(30), milliseconds: 1000, brake: true), .c, "AF 00 04 1E 00 82 E8 03 00 01"),
            (.step(.power(-100), degrees: 360, brake: false), .d, "AC 00 08 81 9C 00 82 68 01 00 00"),
            (.run(.speed(101)), .a, "OUTPUT_SPEED speed 101 is outside -100...100"),
            (.step(.speed(10), degrees: -1, brake: true), .a, "OUTPUT_STEP_SPEED constant phase -1 is outside 0...2147483647"),
        ])
    func motorInstructions(command: EV3MotorCommand, port: EV3OutputPort, expected: String) {
        do {
            let bytes = try command.instructions(for: port).flatMap { $0.bytes() }
            #expect(hex(bytes) == expected)
        } catch {
            #expect(error.description == expected)
        }
    }
}
