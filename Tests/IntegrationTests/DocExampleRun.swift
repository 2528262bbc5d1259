import BridgeCore
import EV3Simulator
import Foundation
import LIFXSimulator
import Testing
import TestSupport

/// The running demo as the doc examples meet it: the rig, and a client that has followed every topic under
/// `things2mqtt/` since before the first example.
struct DemoRun: Sendable {
    let rig: DemoRig
    let client: TestClient

    /// Where everything stood before an example ran, so its checks look only at what came after.
    struct Mark: Sendable {
        let message: Int
        let ev3Events: Int
        let ev3Frames: Int
        let lifxRequests: Int
    }

    /// Now.
    func mark() -> Mark {
        Mark(
            message: client.mark, ev3Events: rig.ev3.events().count, ev3Frames: rig.ev3.receivedFrames().count,
            lifxRequests: rig.lifx.requests().count)
    }

    /// A device's state as last published (before `mark` when given); nil when none came or it was cleared.
    func latest(_ alias: String, before mark: Mark? = nil) -> JSONValue? {
        let messages = client.messages(on: "things2mqtt/" + alias).filter { $0.index < (mark?.message ?? .max) }
        guard let last = messages.last, !last.payload.isEmpty else { return nil }
        return last.json
    }

    /// Waits for a device's state, as last published, to satisfy `predicate`.
    @discardableResult
    func state(
        _ alias: String, _ what: String, timeout: Duration = .seconds(15), _ predicate: @Sendable (JSONValue) -> Bool
    ) async throws -> JSONValue {
        do {
            return try await waitForValue("things2mqtt/\(alias): \(what)", timeout: timeout) {
                // Optional(…): JSONValue takes `nil` as its own null, which would end the wait at once.
                latest(alias).flatMap { predicate($0) ? Optional($0) : Optional<JSONValue>.none }
            }
        } catch let failure as TestFailure {
            throw TestFailure("\(failure.message); last state: \(latest(alias)?.jsonString ?? "nothing")")
        }
    }

    /// Waits for the first response on `bridge/response/<name>` after `mark` and requires `status: ok`.
    @discardableResult
    func response(_ name: String, after mark: Mark) async throws -> JSONValue {
        let message = try await client.waitForMessage(topic: "things2mqtt/bridge/response/" + name, after: mark.message, timeout: .seconds(15))
        guard let json = message.json, json["status"] == "ok" else { throw TestFailure("response to \(name) is not ok: \(message.text)") }
        return json
    }

    /// Waits for the EV3 brick to have done something after `mark` that satisfies `predicate`.
    func ev3Event(after mark: Mark, _ what: String, _ predicate: @escaping @Sendable (EV3SimulatorEvent) -> Bool) async throws {
        try await waitUntil("the brick to see \(what); it saw \(rig.ev3.events().dropFirst(mark.ev3Events))", timeout: .seconds(15)) {
            rig.ev3.events().dropFirst(mark.ev3Events).contains(where: predicate)
        }
    }

    /// Waits for a frame to the brick after `mark` whose first opcode is `opcode`.
    func ev3Frame(after mark: Mark, opcode: UInt8, _ what: String) async throws {
        try await waitUntil("a frame \(what) to the brick", timeout: .seconds(15)) {
            rig.ev3.receivedFrames().dropFirst(mark.ev3Frames).contains { $0.count > 7 && $0[7] == opcode }
        }
    }

    /// Waits for a request to the LIFX cloud after `mark` that satisfies `predicate`.
    func lifxRequest(after mark: Mark, _ what: String, _ predicate: @escaping @Sendable (RecordedRequest) -> Bool) async throws {
        try await waitUntil("a LIFX cloud request \(what)", timeout: .seconds(15)) {
            rig.lifx.requests().dropFirst(mark.lifxRequests).contains(where: predicate)
        }
    }

    /// The `command_failed` events published after `mark`.
    func failures(after mark: Mark) -> [String] {
        client.messages(on: "things2mqtt/bridge/event").filter { $0.index >= mark.message && $0.json?["type"] == "command_failed" }
            .map(\.text)
    }
}
