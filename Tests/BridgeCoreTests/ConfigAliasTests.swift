import TestSupport
import BridgeConfig
import BridgeCore
import Foundation
import Testing

@Suite("YAML anchors and aliases in the config")
struct ConfigAliasTests {
    /// Nine levels of nine-fold aliases: 342 bytes that expand to nearly 400 million nodes.
    static let billionLaughs = """
        a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
        b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
        c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
        d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
        e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
        f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
        g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
        h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
        i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]

        """

    /// Aliases that expand to 9,929 nodes, just under the bound; one more alias of `c` crosses it.
    static let nearTheBound = """
        devices:
          lifx_d073d5000001:
            homeassistant:
              a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
              b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
              c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
              d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
              e: [*c, *c]

        """

    @Test("billion laughs is refused at the alias that crosses the bound, with nothing expanded")
    func billionLaughs() throws {
        let issues = try refusal(Self.billionLaughs)
        #expect(issues.count == 1, "\(issues)")
        let issue = try #require(issues.first)
        #expect(issue.description == "bomb.yaml:5:8: YAML aliases expand to more than 10000 nodes (an alias bomb?); refusing to expand further")
    }

    @Test("a document just under the bound loads; the next alias is refused where it stands")
    func bound() throws {
        let config = try ConfigLoader.parse(yaml: Self.nearTheBound, file: "near.yaml")
        guard case .overrides(let overrides)? = config.devices[DeviceID("lifx_d073d5000001")!]?.homeassistant else {
            Issue.record("no overrides")
            return
        }
        #expect(overrides["e"] == overrides["c"].map { .array([$0, $0]) })
        let over = Self.nearTheBound.replacingOccurrences(of: "e: [*c, *c]", with: "e: [*c, *c, *c]")
        let issues = try refusal(over)
        #expect(issues.map(\.line) == [8])
        #expect(issues.map(\.column) == [19])
    }

    @Test("ordinary anchors, aliases and merge keys still load")
    func ordinaryAliases() throws {
        let yaml = """
            mqtt:
              server: &server mqtt://broker.lan:1883
              qos: &qos 0
            devices:
              lifx_d073d5000001: &quiet
                retain: false
                qos: *qos
              lifx_d073d5000002:
                <<: *quiet
                alias: hall
              lifx_d073d5000003: *quiet

            """
        let config = try ConfigLoader.parse(yaml: yaml, file: "aliases.yaml")
        #expect(config.mqtt.host == "broker.lan")
        let devices = (1...3).map { config.devices[DeviceID("lifx_d073d500000\($0)")!] }
        #expect(devices.map { $0?.retain } == [false, false, false])
        #expect(devices.map { $0?.qos } == [0, 0, 0])
        #expect(devices.map { $0?.alias } == [nil, "hall", nil])
    }

    private func refusal(_ yaml: String) throws -> [ConfigIssue] {
        do {
            _ = try ConfigLoader.parse(yaml: yaml, file: "bomb.yaml")
        } catch {
            return error.issues
        }
        Issue.record("the config was accepted")
        return []
    }
}
