import Foundation

extension LIFXCloudSimulator {
    private static let livingRoomID = "06e3ec50395511e9a0757200055bf1c0"
    private static let bedroomID = "1c8de82b81f445e7cfaafae49b259c71"
    private static let homeID = "f2c1aa82395411e9a0757200055bf1c0"

    /// A small home: "Living Room" (3 lights, one white-only), "Bedroom" (2 lights), and the scene "Evening".
    public static func demo(token: String, rateLimit: Int = 120) -> LIFXCloudSimulator {
        func light(
            _ serial: Int, _ label: String, inLivingRoom: Bool, power: Bool,
            hue: Double = 0, saturation: Double = 0, kelvin: Int = 3500, brightness: Double
        ) -> SimulatedLight {
            SimulatedLight(
                id: String(format: "d073d5%06x", serial), label: label, power: power,
                hue: hue, saturation: saturation, kelvin: kelvin, brightness: brightness,
                groupID: inLivingRoom ? livingRoomID : bedroomID,
                groupName: inLivingRoom ? "Living Room" : "Bedroom",
                locationID: homeID, locationName: "Home"
            )
        }
        var miniWhite = light(3, "Reading Lamp", inLivingRoom: true, power: false, kelvin: 2700, brightness: 0.6)
        miniWhite.productName = "LIFX Mini White"
        miniWhite.productIdentifier = "lifx_mini_white"
        miniWhite.productID = 50
        miniWhite.hasColor = false
        miniWhite.minKelvin = 2700
        miniWhite.maxKelvin = 6500
        var strip = light(5, "Dresser", inLivingRoom: false, power: false, hue: 250, saturation: 1,
                          brightness: 0.4)
        strip.productName = "LIFX Color 1000"
        strip.productIdentifier = "lifx_color_a19"
        strip.productID = 22
        strip.minKelvin = 2500
        let lights = [
            light(1, "Ceiling", inLivingRoom: true, power: true, kelvin: 3500, brightness: 0.8),
            light(2, "Floor Lamp", inLivingRoom: true, power: true, hue: 36, saturation: 0.7, brightness: 0.5),
            miniWhite,
            light(4, "Bedside", inLivingRoom: false, power: false, hue: 280, saturation: 0.5, brightness: 0.3),
            strip,
        ]
        let evening = SimulatedScene(
            uuid: "05bfb786-ec87-4766-a61a-8698b3e08b81",
            name: "Evening",
            states: [
                SimulatedSceneState(selector: "id:d073d5000001", power: true, brightness: 0.4,
                                    hue: 0, saturation: 0, kelvin: 2700),
                SimulatedSceneState(selector: "id:d073d5000002", power: true, brightness: 0.3,
                                    hue: 36, saturation: 0.8, kelvin: 3500),
                SimulatedSceneState(selector: "id:d073d5000004", power: false),
            ]
        )
        return LIFXCloudSimulator(token: token, lights: lights, scenes: [evening], rateLimit: rateLimit)
    }

    /// `count` lights spread round-robin over `groups` groups, for load tests; ids are "d073d5" plus 6 hex digits.
    ///
    /// The rate limit defaults far above LIFX's 120/min so that throughput, not the budget, is measured.
    public static func generated(
        count: Int, groups: Int = 10, token: String, rateLimit: Int = 1_000_000
    ) -> LIFXCloudSimulator {
        let groupCount = max(1, groups)
        let lights = (0..<max(0, count)).map { index in
            let group = index % groupCount
            return SimulatedLight(
                id: String(format: "d073d5%06x", index + 1),
                label: "Light \(index + 1)",
                power: index % 2 == 0,
                hue: Double(index * 37 % 360),
                saturation: index % 3 == 0 ? 0 : 1,
                kelvin: 2500 + index * 100 % 6500,
                brightness: Double(index % 100 + 1) / 100,
                groupID: String(format: "%032x", group + 1),
                groupName: "Group \(group + 1)",
                locationID: homeID,
                locationName: "Home"
            )
        }
        return LIFXCloudSimulator(token: token, lights: lights, rateLimit: rateLimit)
    }
}
