import EV3Driver
import BLEModels
import LIFXModels
import BridgeCore
import Testing

@Suite("AliasRules and base topics")
struct AliasRulesTests {
    @Test(
        "usable aliases",
        arguments: ["kitchen", "kitchen/floor_light", "Küche", "desk lamp", "2", "a/b/c", "x/bridge", "lamp_2", "settings"])
    func accepted(alias: String) {
        #expect(AliasRules.problem(with: alias) == nil)
    }

    static let refused: [(String, String)] = [
        ("", "must not be empty"),
        ("a+b", "must not contain + or #"),
        ("+", "must not contain + or #"),
        ("kitchen#1", "must not contain + or #"),
        ("#", "must not contain + or #"),
        ("/kitchen", "must not start or end with /"),
        ("kitchen/", "must not start or end with /"),
        ("a//b", "empty level"),
        ("bridge", "must not be or start with bridge"),
        ("bridge/lamp", "must not be or start with bridge"),
        ("lamp/set", "must not contain the level \"set\""),
        ("get/lamp", "must not contain the level \"get\""),
        ("lamp/availability", "must not contain the level \"availability\""),
        ("lamp/2", "must not end with /<number>"),
        ("tab\there", "control characters"),
        ("nul\u{0}", "control characters"),
        ("del\u{7f}", "control characters"),
        ("c1\u{85}next", "control characters"),
        (String(repeating: "a/", count: 200) + "a", "longer than 128 bytes"),
        ("a/b/c/d/e/f/g/h/i", "more than 8 levels"),
        (String(repeating: "x", count: 129), "longer than 128 bytes"),
        (String(repeating: "ü", count: 65), "longer than 128 bytes"),
        ("lamp\u{202E}pmal", "invisible format characters"),
        ("zero\u{200B}width", "invisible format characters"),
    ]

    @Test("the longest and deepest aliases allowed", arguments: ["a/b/c/d/e/f/g/h", String(repeating: "x", count: 128)])
    func atTheBound(alias: String) {
        #expect(AliasRules.problem(with: alias) == nil)
    }

    static let clustered: [(String, Bool)] = [
        ("_cluster", false), ("_cluster/bridges/attic", false), ("_cluster/claims/ble_a4c138aabbcc", false),
        ("_clusters", true), ("kitchen/_cluster", true), ("cluster", true),
    ]

    @Test("no alias falls inside the cluster's topic", arguments: clustered)
    func clusterTopic(alias: String, allowed: Bool) {
        let device = DeviceID("lifx_d073d5000001")!
        let problem = AliasRules.problem(with: alias, for: device, topics: Topics(base: "t2m"), reserved: ["t2m/_cluster"])
        #expect((problem == nil) == allowed, "\(problem ?? "nil")")
    }

    @Test("refused aliases", arguments: refused)
    func refusedAlias(alias: String, reason: String) throws {
        let problem = try #require(AliasRules.problem(with: alias))
        #expect(problem.contains(reason), "\(problem)")
    }

    static let bases: [(String, String?)] = [
        ("things2mqtt", nil), ("home/things", nil), ("", "must not be empty"), ("a/+/b", "must not contain +, # or NUL"),
        ("a/#", "must not contain +, # or NUL"), ("/t2m", "must not start or end with /"),
        ("t2m/", "must not start or end with /"), ("a//b", "empty level"),
    ]

    @Test("base topic validation", arguments: bases)
    func base(topic: String, reason: String?) {
        let problem = Topics.validateBase(topic)
        if let reason {
            #expect(problem?.contains(reason) == true, "\(problem ?? "nil")")
        } else {
            #expect(problem == nil)
        }
    }

    static let ids: [(String, Bool)] = [
        ("lifx_d073d5000001", true), ("ble_a4c138aabbcc", true), ("ev3_0016533f0c1e", true), ("lifx_group_abc", true),
        // Families are open: any lowercase prefix is well formed; the config refuses unregistered ones.
        ("lifx_", false), ("zigbee_123", true), ("_123", false), ("1x_123", false), ("LIFX_abc", false), ("lifx_ABC", false), ("lifx-abc", false),
        ("lifx", false), ("", false), ("ble_a4:c1", false),
    ]

    @Test("device id syntax", arguments: ids)
    func deviceID(text: String, valid: Bool) {
        #expect((DeviceID(text) != nil) == valid)
    }

    @Test("device id constructors clean native ids")
    func constructors() {
        #expect(DeviceID.ble(mac: "A4:C1:38:AA:BB:CC").rawValue == "ble_a4c138aabbcc")
        #expect(DeviceID.lifx(light: "d073d5000001").rawValue == "lifx_d073d5000001")
        #expect(DeviceID.lifx(group: "1c8de82b").rawValue == "lifx_group_1c8de82b")
        #expect(DeviceID.ev3(serial: "0016533F0C1E").integration == .ev3)
    }
}

@Suite("Aliases shaped like device ids")
struct GeneratedIDAliasTests {
    static let own = DeviceID("lifx_d073d5000001")!

    @Test("generated ids of other devices are reserved; names that only start with a prefix are not", arguments: [
        ("lifx_d073d5000002", false), ("lifx_group_06e3ec50395511e9a0757200055bf1c0", false),
        ("ble_a4c138aabbcc", false), ("ev3_0016533f0c1e", false), ("lifx_d073d5000001", true),
        ("lifx_scenes", true), ("lifx_kitchen", true), ("ble_fridge", true), ("lifx_cafe", true),
    ])
    func reserved(alias: String, allowed: Bool) {
        #expect((AliasRules.problem(with: alias, for: Self.own) == nil) == allowed, "\(alias)")
    }
}
