import BridgeCore
import Foundation
import LIFXModels
import Testing

/// The pure LIFX codecs and pacing logic, table by table.
@Suite("LIFX models")
struct LIFXModelTests {
    static let documentedBulb = """
        [{"id":"d073d5141876","uuid":"02a5b510-2d3d-46ea-92ac-c4533f75c24e","label":"Lamp","connected":true,"power":"on",
          "color":{"hue":59.997253376058595,"saturation":1,"kelvin":3500},"brightness":0.29999237048905164,"effect":"OFF",
          "group":{"id":"06e3ec50395511e9a0757200055bf1c0","name":"Loungeroom"},
          "location":{"id":"f2c1aa82395411e9a0757200055bf1c0","name":"Home"},
          "product":{"name":"Color 1000","identifier":"lifx_color_a19","company":"LIFX",
            "capabilities":{"has_color":true,"has_variable_color_temp":true,"has_ir":false,"has_chain":false,
              "has_multizone":false,"min_kelvin":2500,"max_kelvin":9000},"product_id":22,"vendor_id":1},
          "last_seen":"2019-02-25T23:40:40Z","seconds_since_seen":0}]
        """
    static let oldSample = """
        [{"id":"d3b2f2d97452","uuid":"8fa5f072","label":"Left Lamp","connected":"true","power":"off",
          "color":{"hue":"250.0","saturation":"0.5","kelvin":"3500"},"brightness":"0.5","infrared":"1.0",
          "group":{"id":"1c8de82b","name":"Lounge"},"location":{"id":"1d6fe8ef","name":"Home"},
          "last_seen":"2015-03-02T08:53:02.867+00:00","seconds_since_seen":0.002869418}]
        """
    static let multizone = """
        [{"id":"d073d5aabbcc","label":"Strip","connected":true,"power":"on","color":{"hue":0,"saturation":0,"kelvin":3500},
          "brightness":1,"zones":{"count":2,"zones":[{"brightness":0.3,"hue":0,"kelvin":3500,"saturation":1,"zone":0}]},
          "product":{"name":"LIFX Z","capabilities":{"has_color":true,"has_variable_color_temp":true,"has_multizone":true}}}]
        """

    @Test("documented, old and multizone payloads decode", arguments: [
        (documentedBulb, "Lamp", true, 0.29999237048905164, 59.997253376058595),
        (oldSample, "Left Lamp", false, 0.5, 250.0),
        (multizone, "Strip", true, 1.0, 0.0),
    ])
    func decodes(json: String, label: String, power: Bool, brightness: Double, hue: Double) throws {
        let lights = try JSONDecoder().decode([LIFXLight].self, from: Data(json.utf8))
        let light = try #require(lights.first)
        #expect(light.label == label)
        #expect(light.power == power)
        #expect(light.connected)
        #expect(light.brightness == brightness)
        #expect(light.color.hue == hue)
    }

    @Test("capabilities decide colour modes, kelvin range and effects")
    func features() throws {
        let multizone = try #require(try JSONDecoder().decode([LIFXLight].self, from: Data(Self.multizone.utf8)).first)
        #expect(LightStateMapping.features(for: multizone.capabilities).effects == ["breathe", "pulse", "move", "stop"])
        var white = LIFXLight.Capabilities()
        white.hasColor = false
        white.minKelvin = 2700
        white.maxKelvin = 6500
        let features = LightStateMapping.features(for: white)
        #expect(features.supportedColorModes == [.colorTemp])
        #expect(features.kelvinRange == 2700...6500)
        white.hasVariableColorTemp = false
        #expect(LightStateMapping.features(for: white).supportedColorModes == [.brightness])
    }

    @Test("state mapping: quantised values become Home Assistant's scales")
    func stateMapping() throws {
        let light = try #require(try JSONDecoder().decode([LIFXLight].self, from: Data(Self.documentedBulb.utf8)).first)
        let state = LightStateMapping.state(of: light)
        #expect(state["state"] == "ON")
        #expect(state["brightness"] == 76)
        #expect(state["color"] == ["h": 60, "s": 100])
        #expect(state["color_mode"] == "hs")
        #expect(state["color_temp"] == 3500)
        #expect(state["effect"] == .null)
        #expect(state["group"] == "Loungeroom")
    }

    static let noise: [(JSONValue, JSONValue, Bool)] = [
        (["brightness": 76, "color": ["h": 60, "s": 100]], ["brightness": 77, "color": ["h": 60.4, "s": 99.5]], true),
        (["brightness": 76], ["brightness": 80], false),
        (["color_temp": 3500], ["color_temp": 3503], true),
        (["state": "ON"], ["state": "OFF"], false),
        (["brightness": 76], ["brightness": 76, "label": "x"], false),
        (["state": "ON", "last_seen": "2026-11-21T14:39:24Z"], ["state": "ON", "last_seen": "2026-11-21T14:39:54Z"], true),
    ]

    @Test("noise tolerance", arguments: noise)
    func nearlyEqual(lhs: JSONValue, rhs: JSONValue, equal: Bool) {
        #expect(LightStateMapping.nearlyEqual(lhs.objectValue!, rhs.objectValue!) == equal)
    }

    static let commandBodies: [(LightCommand, Bool, JSONValue)] = [
        (LightCommand(power: .on), false, ["power": "on"]),
        (LightCommand(power: .toggle), true, ["power": "off"]),
        (LightCommand(power: .toggle), false, ["power": "on"]),
        (LightCommand(brightness: 0), true, ["brightness": 0]),
        (LightCommand(power: .on, brightness: 51, transition: 1.5), false, ["power": "on", "brightness": 0.2, "duration": 1.5]),
        (LightCommand(color: .init(hue: 240.5, saturation: 33.3)), true, ["color": "hue:240.5 saturation:0.333"]),
        (LightCommand(kelvin: 2700), true, ["color": "kelvin:2700"]),
    ]

    @Test("Home Assistant commands become API bodies", arguments: commandBodies)
    func bodies(command: LightCommand, currentPower: Bool, body: JSONValue) {
        #expect(LIFXStateChange(command, currentPower: currentPower).body() == body)
    }

    @Test("later changes win; colour and kelvin replace each other")
    func merging() {
        let first = LIFXStateChange(power: true, brightness: 0.1, hue: 10, saturation: 1)
        let merged = first.merged(with: LIFXStateChange(brightness: 0.9, kelvin: 3000))
        #expect(merged == LIFXStateChange(power: true, brightness: 0.9, kelvin: 3000))
        #expect(merged.merged(with: LIFXStateChange(hue: 20, saturation: 0.5)).colorString == "hue:20 saturation:0.5")
    }

    @Test("pending writes merge per selector and batch across selectors")
    func pendingWrites() {
        var pending = PendingWrites()
        for step in 1...25 { pending.enqueue(.state(LIFXStateChange(brightness: Double(step) / 25)), for: "id:a") }
        pending.enqueue(.state(LIFXStateChange(power: true)), for: "id:b")
        pending.enqueue(.effect(name: "pulse", body: [:]), for: "id:a")
        pending.enqueue(.state(LIFXStateChange(power: false)), for: "id:a")
        #expect(pending.contains("id:a") && pending.contains("id:b") && !pending.contains("id:c"))
        let first = pending.takeNext()
        #expect(first.map(\.selector) == ["id:a", "id:b"])
        #expect(first[0].operation == .state(LIFXStateChange(brightness: 1)))
        let second = pending.takeNext()
        #expect(second.count == 1 && second[0].operation == .effect(name: "pulse", body: [:]))
        pending.requeue(second)
        #expect(pending.takeNext()[0].operation == .effect(name: "pulse", body: [:]))
        #expect(pending.takeNext()[0].operation == .state(LIFXStateChange(power: false)))
        #expect(pending.isEmpty && !pending.contains("id:a"))
    }

    @Test("slow writes: a light counts as busy only once its write has waited the threshold, and is named once per wait")
    func slowWrites() {
        let start = ContinuousClock.now
        func at(_ milliseconds: Int64) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }
        var slow = SlowWrites(threshold: .seconds(1))
        var due = slow.takeDue(now: start)
        #expect(slow.nextDeadline == nil && due.isEmpty)
        // A wait begins once; a light already waiting keeps the moment its wait began.
        let began = [
            slow.note("a", waiting: true, now: at(0)), slow.note("a", waiting: true, now: at(500)),
            slow.note("b", waiting: true, now: at(300)),
        ]
        #expect(began == [true, false, true])
        #expect(slow.nextDeadline == at(1000))
        due = slow.takeDue(now: at(999))
        #expect(!slow.isSlow("a", now: at(999)) && due.isEmpty)
        #expect(slow.isSlow("a", now: at(1000)) && !slow.isSlow("b", now: at(1000)))
        due = slow.takeDue(now: at(1000))
        #expect(due == ["a"] && slow.nextDeadline == at(1300))
        due = slow.takeDue(now: at(2000))
        #expect(due == ["b"])
        due = slow.takeDue(now: at(3000))
        #expect(slow.nextDeadline == nil && due.isEmpty)
        // The write landed: the light is idle, and a later wait starts over.
        let landed = slow.note("a", waiting: false, now: at(3000))
        #expect(!landed && !slow.isSlow("a", now: at(3000)) && !slow.isSlow("c", now: at(3000)))
        let again = slow.note("a", waiting: true, now: at(4000))
        #expect(again && !slow.isSlow("a", now: at(4500)) && slow.nextDeadline == at(5000))
        // No threshold: busy from the first moment of a wait.
        var eager = SlowWrites(threshold: .zero)
        eager.note("a", waiting: true, now: start)
        due = eager.takeDue(now: start)
        #expect(eager.isSlow("a", now: start) && due == ["a"])
    }

    @Test("rate budget: polls yield first, writes stop at zero, a 429 blocks until the reset", arguments: [
        (120, 100.0, RateBudget.Purpose.poll, nil as Double?),
        (20, 100.0, .poll, 30.0),
        (20, 100.0, .write, nil),
        (0, 100.0, .write, 30.0),
        (5, 130.0, .poll, nil),
    ])
    func budget(remaining: Int, now: Double, purpose: RateBudget.Purpose, delay: Double?) {
        var budget = RateBudget()
        budget.update(limit: 120, remaining: remaining, reset: 130)
        #expect(budget.delay(for: purpose, now: now) == delay)
    }

    @Test("a hostile answer cannot trap a conversion", arguments: ["1e300", "-1e300", "\"inf\"", "\"nan\"", "null"])
    func hostileNumbers(value: String) throws {
        let json = "[{\"id\":\"x\",\"color\":{\"kelvin\":\(value)},\"product\":{\"name\":\"p\",\"product_id\":\(value),"
            + "\"capabilities\":{\"min_kelvin\":\(value),\"max_kelvin\":\(value)}}}]"
        let light = try #require(try JSONDecoder().decode([LIFXLight].self, from: Data(json.utf8)).first)
        #expect((0...100_000).contains(light.color.kelvin))
        _ = LightStateMapping.state(of: light)
        var budget = RateBudget()
        budget.rateLimited(reset: .infinity, now: 100)
        #expect(budget.delay(for: .write, now: 100) == 60)
    }

    @Test("after a 429 nothing may be sent before the reset")
    func blocked() {
        var budget = RateBudget()
        budget.rateLimited(reset: 200, now: 190)
        #expect(budget.delay(for: .write, now: 190) == 10)
        #expect(budget.delay(for: .write, now: 200) == nil)
        budget.spend(now: 201)
        #expect(budget.remaining == 119)
    }
}
