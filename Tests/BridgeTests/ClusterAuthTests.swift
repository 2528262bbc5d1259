import Bridge
import BridgeConfig
import BridgeCore
import Foundation
import Mosquitto
import Testing
import TestSupport
import Things2MQTTApp

/// `cluster.secret`: how a message is signed and checked, and how the secret is read and kept out of sight.
@Suite("Cluster messages authenticated with cluster.secret", .timeLimit(.minutes(1)))
struct ClusterAuthTests {
    static let secret = "correct-horse-battery-staple-42"
    static let auth = ClusterAuth(secret: secret, window: .seconds(70))
    static let topic = "t2m/_cluster/bridges/a"
    static let presence: JSONValue = ["state": "online", "epoch": 5]
    static let t = Int64(1_700_000_000_000)

    @Test("the MAC is HMAC-SHA256 over topic, time and the sorted JSON, as any other HMAC computes it")
    func knownValue() {
        let signed = Self.auth.sign(Self.presence, topic: Self.topic, at: Self.t)
        // Python: hmac.new(key, topic + b"\0" + b"1700000000000" + b"\0" + b'{"epoch":5,"state":"online"}', sha256)
        #expect(signed["auth"]?["mac"] == "e2b83645e9513c5d7c2d4c53d8830d4316bbd33001963763e496a982e88720dd")
        #expect(signed["auth"]?["t"] == .number(Double(Self.t)))
        #expect(signed["state"] == "online" && signed["epoch"] == 5)
    }

    @Test("a message verifies with its topic, payload and secret, fresh within the window and stale outside it")
    func verifies() throws {
        let signed = Self.auth.sign(Self.presence, topic: Self.topic, at: Self.t)
        // Through the bytes, as the broker carries it.
        let carried = try JSONValue.parse(signed.jsonBytes, limits: .payload)
        #expect(Self.auth.verify(carried, topic: Self.topic, at: Self.t) == .fresh(Self.presence))
        #expect(Self.auth.verify(carried, topic: Self.topic, at: Self.t + 70_000) == .fresh(Self.presence))
        #expect(Self.auth.verify(carried, topic: Self.topic, at: Self.t - 70_000) == .fresh(Self.presence))
        #expect(Self.auth.verify(carried, topic: Self.topic, at: Self.t + 70_001) == .stale(Self.presence))
        #expect(Self.auth.verify(carried, topic: Self.topic, at: Self.t - 3_600_000) == .stale(Self.presence))
    }

    @Test(
        "anything else is unauthenticated: no auth, another topic, a changed field or time, another secret, a bad MAC",
        arguments: [
            "unsigned", "topic", "field", "added", "time", "secret", "short", "case", "nonobject", "empty",
        ])
    func refuses(_ change: String) throws {
        var payload: JSONValue? = Self.auth.sign(Self.presence, topic: Self.topic, at: Self.t)
        var topic = Self.topic
        func edit(_ key: String, _ value: JSONValue?) {
            guard case .object(var fields)? = payload else { return }
            fields[key] = value
            payload = .object(fields)
        }
        let mac = payload?["auth"]?["mac"]?.stringValue ?? ""
        switch change {
        case "unsigned": payload = Self.presence
        case "topic": topic = "t2m/_cluster/bridges/b"
        case "field": edit("epoch", 6)
        case "added": edit("slots", 0)
        case "time": edit("auth", ["t": .number(Double(Self.t + 1)), "mac": .string(mac)])
        case "secret": payload = ClusterAuth(secret: "another-secret-of-some-length", window: .seconds(70)).sign(Self.presence, topic: Self.topic, at: Self.t)
        case "short": edit("auth", ["t": .number(Double(Self.t)), "mac": .string(String(mac.prefix(32)))])
        case "case": edit("auth", ["t": .number(Double(Self.t)), "mac": .string(String(mac.dropLast()) + (mac.hasSuffix("0") ? "1" : "0"))])
        case "nonobject": payload = ["a", "b"]
        default: payload = nil
        }
        #expect(Self.auth.verify(payload, topic: topic, at: Self.t) == .unauthenticated)
    }

    @Test("the secret comes from the config, ${ENV} or secret_file, is at least 16 characters, and reads *** in bridge/info")
    func config() throws {
        func parse(_ cluster: String, environment: [String: String] = [:], baseDirectory: String = ".") throws(ConfigErrors) -> Configuration {
            try ConfigLoader.parse(
                yaml: TestConfig.yaml(port: 1883, extra: "cluster:\n  bridge_id: a\n" + cluster), file: "test.yaml",
                families: Families.sections, baseDirectory: baseDirectory, environment: environment)
        }
        #expect(try parse("").cluster?.secret == nil)
        let inline = try parse("  secret: \(Self.secret)\n")
        #expect(inline.cluster?.secret?.value == Self.secret)
        #expect(try parse("  secret: ${CLUSTER_SECRET}\n", environment: ["CLUSTER_SECRET": Self.secret]).cluster?.secret?.value == Self.secret)
        let folder = try TemporaryDirectory(prefix: "cluster")
        defer { folder.remove() }
        _ = try folder.write("cluster.key", Self.secret + "\n")
        #expect(try parse("  secret_file: cluster.key\n", baseDirectory: folder.path).cluster?.secret?.value == Self.secret)
        #expect(throws: ConfigErrors.self) { try parse("  secret: short\n") }
        #expect(throws: ConfigErrors.self) { try parse("  secret: \(Self.secret)\n  secret_file: cluster.key\n", baseDirectory: folder.path) }
        #expect(inline.redactedJSON["cluster"]?["secret"] == "***")
        #expect(!inline.redactedJSON.jsonString.contains(Self.secret))
        #expect(!"\(inline.cluster!)".contains(Self.secret))
        // The will the broker holds is signed, and carries no secret.
        let will = try #require(MosquittoOptions(inline).will)
        #expect(!String(decoding: will.payload, as: UTF8.self).contains(Self.secret))
        let auth = try #require(BridgeService.makeClusterAuth(inline))
        guard case .stale(let body) = auth.verify(JSONValue.parse(will.payload), topic: will.topic, at: BridgeService.wallMilliseconds + 3_600_000) else {
            Issue.record("the will does not verify")
            return
        }
        #expect(body == ["state": "offline"])
    }
}
