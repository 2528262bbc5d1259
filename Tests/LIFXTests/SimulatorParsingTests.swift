import LIFXSimulator
import Testing

@Suite("Simulator colour strings")
struct SimulatorColorStringTests {
    static let valid: [(String, ParsedColor)] = [
        ("white", ParsedColor(saturation: 0)),
        ("red", ParsedColor(hue: 0, saturation: 1)),
        ("orange", ParsedColor(hue: 36, saturation: 1)),
        ("yellow", ParsedColor(hue: 60, saturation: 1)),
        ("green", ParsedColor(hue: 120, saturation: 1)),
        ("cyan", ParsedColor(hue: 180, saturation: 1)),
        ("blue", ParsedColor(hue: 250, saturation: 1)),
        ("purple", ParsedColor(hue: 280, saturation: 1)),
        ("pink", ParsedColor(hue: 325, saturation: 1)),
        ("hue:120", ParsedColor(hue: 120)),
        ("saturation:0.5", ParsedColor(saturation: 0.5)),
        ("brightness:0.25", ParsedColor(brightness: 0.25)),
        ("kelvin:5000", ParsedColor(saturation: 0, kelvin: 5000)),
        ("#ff0000", ParsedColor(hue: 0, saturation: 1, brightness: 1)),
        ("hex:#00ff00", ParsedColor(hue: 120, saturation: 1, brightness: 1)),
        ("rgb:0,0,255", ParsedColor(hue: 240, saturation: 1, brightness: 1)),
        ("rgb:255,255,0", ParsedColor(hue: 60, saturation: 1, brightness: 1)),
        ("#000000", ParsedColor(hue: 0, saturation: 0, brightness: 0)),
        ("blue saturation:0.5", ParsedColor(hue: 250, saturation: 0.5)),
        ("hue:180 saturation:1.0", ParsedColor(hue: 180, saturation: 1)),
        ("kelvin:2700 brightness:0.5", ParsedColor(saturation: 0, brightness: 0.5, kelvin: 2700)),
        ("  RED  ", ParsedColor(hue: 0, saturation: 1)),
    ]

    @Test("parses documented colour strings", arguments: valid)
    func parses(_ text: String, _ expected: ParsedColor) throws {
        #expect(try ColorString.parse(text) == expected)
    }

    @Test("rejects malformed colour strings", arguments: [
        "", "chartreuse", "hue:361", "hue:abc", "saturation:1.5", "brightness:-0.1",
        "kelvin:1000", "kelvin:9001", "#ff00", "hex:zzzzzz", "rgb:1,2", "rgb:256,0,0", "red bogus:1",
    ])
    func rejects(_ text: String) {
        #expect(throws: ColorStringError.self) { try ColorString.parse(text) }
    }

    @Test("random picks a saturated hue")
    func random() throws {
        let color = try ColorString.parse("random")
        #expect(color.saturation == 1)
        #expect((0..<360).contains(try #require(color.hue)))
    }
}

@Suite("Simulator selectors")
struct SimulatorSelectorTests {
    static let demo = LIFXCloudSimulator.demo(token: "token")
    static let livingRoom = "06e3ec50395511e9a0757200055bf1c0"
    static let bedroom = "1c8de82b81f445e7cfaafae49b259c71"
    static let home = "f2c1aa82395411e9a0757200055bf1c0"

    static let cases: [(String, [Int])] = [
        ("all", [1, 2, 3, 4, 5]),
        ("id:d073d5000003", [3]),
        ("id:D073D5000003", [3]),
        ("label:Ceiling", [1]),
        ("label:ceiling", []),
        ("group:Living Room", [1, 2, 3]),
        ("group_id:\(bedroom)", [4, 5]),
        ("location:Home", [1, 2, 3, 4, 5]),
        ("location_id:\(home)", [1, 2, 3, 4, 5]),
        ("scene_id:05bfb786-ec87-4766-a61a-8698b3e08b81", [1, 2, 4]),
        ("label:Ceiling,label:Bedside", [1, 4]),
        ("group:Bedroom,id:d073d5000001,id:d073d5000004", [1, 4, 5]),
        ("all|1-5", [1, 2, 3, 4, 5]),
        ("label:Nope", []),
        ("group_id:\(livingRoom),group:Nope", [1, 2, 3]),
    ]

    @Test("matches lights like the cloud", arguments: cases)
    func matches(_ selector: String, _ expected: [Int]) throws {
        let terms = try LightSelector.parseList(selector)
        let lights = Self.demo.lights()
        let indices = LightSelector.resolve(terms, in: lights, scenes: Self.demo.scenes())
        let serials = indices.map { Int(lights[$0].id.dropFirst(6), radix: 16) ?? -1 }
        #expect(serials == expected)
    }

    @Test("rejects malformed selectors", arguments: [
        "bogus", "colour:red", "id:", "all:", "", "label:a,", Array(repeating: "all", count: 26).joined(separator: ","),
    ])
    func rejects(_ selector: String) {
        #expect(throws: SelectorError.self) { try LightSelector.parseList(selector) }
    }

    @Test("random suffix picks one light of the group")
    func random() throws {
        let terms = try LightSelector.parseList("group:Living Room:random")
        #expect(terms == [LightSelector(kind: .group, value: "Living Room", random: true)])
        let lights = Self.demo.lights()
        let picked = LightSelector.resolve(terms, in: lights)
        #expect(picked.count == 1)
        #expect(picked.allSatisfy { lights[$0].groupName == "Living Room" })
    }

    @Test("labels may contain colons")
    func labelWithColon() throws {
        #expect(try LightSelector.parseList("label:Desk:random") == [LightSelector(kind: .label, value: "Desk:random")])
    }
}
