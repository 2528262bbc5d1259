public import Foundation
import Support

/// One bulb as the simulated LIFX cloud knows it.
public struct SimulatedLight: Sendable, Equatable {
    /// Serial number, used by `id:` selectors.
    public var id: String
    /// Cloud-assigned UUID.
    public var uuid: String
    /// User-visible name, used by `label:` selectors.
    public var label: String
    /// Whether the bulb is switched on.
    public var power: Bool
    /// Hue in degrees, 0...360.
    public var hue: Double
    /// Saturation, 0...1; 0 means white.
    public var saturation: Double
    /// Colour temperature in kelvin.
    public var kelvin: Int
    /// Brightness, 0...1.
    public var brightness: Double
    /// Whether the cloud can reach the bulb; offline bulbs ignore writes.
    public var connected: Bool
    /// Group identifier, used by `group_id:` selectors.
    public var groupID: String
    /// Group name, used by `group:` selectors.
    public var groupName: String
    /// Location identifier, used by `location_id:` selectors.
    public var locationID: String
    /// Location name, used by `location:` selectors.
    public var locationName: String
    /// Marketing name of the product, e.g. "LIFX A19".
    public var productName: String
    /// Product identifier, e.g. "lifx_a19".
    public var productIdentifier: String
    /// Numeric LIFX product id reported next to the identifier.
    public var productID: Int
    /// Whether the bulb can show colours; white-only bulbs keep saturation 0.
    public var hasColor: Bool
    /// Whether the bulb can change its colour temperature.
    public var hasVariableColorTemp: Bool
    /// Lowest supported kelvin.
    public var minKelvin: Int
    /// Highest supported kelvin.
    public var maxKelvin: Int
    /// "OFF" or the upper-case name of the running effect.
    public var effect: String
    /// When the cloud last heard from the bulb; reported for offline bulbs.
    public var lastSeen: Date

    /// Creates a light; most fields default to a connected colour A19 bulb.
    public init(
        id: String,
        uuid: String? = nil,
        label: String,
        power: Bool = false,
        hue: Double = 0,
        saturation: Double = 0,
        kelvin: Int = 3500,
        brightness: Double = 1,
        connected: Bool = true,
        groupID: String = "00000000000000000000000000000001",
        groupName: String = "Group",
        locationID: String = "00000000000000000000000000000100",
        locationName: String = "Home",
        productName: String = "LIFX A19",
        productIdentifier: String = "lifx_a19",
        productID: Int = 27,
        hasColor: Bool = true,
        hasVariableColorTemp: Bool = true,
        minKelvin: Int = 1500,
        maxKelvin: Int = 9000,
        effect: String = "OFF",
        lastSeen: Date = Date()
    ) {
        self.id = id
        self.uuid = uuid ?? SimulatedLight.uuid(forSerial: id)
        self.label = label
        self.power = power
        self.hue = Quantize.hue(hue)
        self.saturation = hasColor ? Quantize.unit(saturation) : 0
        self.kelvin = min(max(kelvin, minKelvin), maxKelvin)
        self.brightness = Quantize.unit(brightness)
        self.connected = connected
        self.groupID = groupID
        self.groupName = groupName
        self.locationID = locationID
        self.locationName = locationName
        self.productName = productName
        self.productIdentifier = productIdentifier
        self.productID = productID
        self.hasColor = hasColor
        self.hasVariableColorTemp = hasVariableColorTemp
        self.minKelvin = minKelvin
        self.maxKelvin = maxKelvin
        self.effect = effect
        self.lastSeen = lastSeen
    }

    /// Derives a stable UUID from the serial so fixtures stay reproducible across runs.
    static func uuid(forSerial serial: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in serial.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        // Each word's bytes most significant first, so the digits read as the number would.
        let bytes = [hash, hash &* 0x9e37_79b9_7f4a_7c15].flatMap { word in
            (0..<8).map { UInt8(truncatingIfNeeded: word >> (56 - 8 * $0)) }
        }
        var hex = Array(Hex.string(bytes))
        // Mark it as a version-4, RFC 4122 variant UUID so strict parsers accept it.
        hex[12] = "4"
        hex[16] = Array("89ab")[Int(hash & 3)]
        let parts = [hex[0..<8], hex[8..<12], hex[12..<16], hex[16..<20], hex[20..<32]]
        return parts.map { String($0) }.joined(separator: "-")
    }
}
