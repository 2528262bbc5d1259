/// One light as `GET /lights/:selector` describes it. Decoding is lenient: everything but `id` is optional,
/// and numbers may be strings, as in older API payloads.
public struct LIFXLight: Sendable, Equatable, Decodable {
    /// Hue (degrees), saturation (0–1) and kelvin.
    public struct Color: Sendable, Equatable {
        public var hue: Double
        public var saturation: Double
        public var kelvin: Int
        /// Creates a colour.
        public init(hue: Double, saturation: Double, kelvin: Int) {
            self.hue = hue
            self.saturation = saturation
            self.kelvin = kelvin
        }
    }

    /// A group or location reference.
    public struct Reference: Sendable, Equatable, Decodable {
        public var id: String
        public var name: String
    }

    /// What the product can do.
    public struct Capabilities: Sendable, Equatable {
        public var hasColor = true
        public var hasVariableColorTemp = true
        public var hasMultizone = false
        public var hasMatrix = false
        public var hasChain = false
        public var minKelvin = 2500
        public var maxKelvin = 9000
        /// A colour bulb with the full kelvin range.
        public init() {}
    }

    /// The product model.
    public struct Product: Sendable, Equatable {
        public var name: String
        public var identifier: String?
        public var company: String?
        public var productID: Int?
        public var capabilities: Capabilities
    }

    public var id: String
    public var uuid: String?
    public var label: String
    public var connected: Bool
    public var power: Bool
    public var color: Color
    /// 0–1.
    public var brightness: Double
    public var effect: String?
    public var group: Reference?
    public var location: Reference?
    public var product: Product?
    public var lastSeen: String?
    public var secondsSinceSeen: Double?

    enum CodingKeys: String, CodingKey {
        case id, uuid, label, connected, power, color, brightness, effect, group, location, product
        case lastSeen = "last_seen", secondsSinceSeen = "seconds_since_seen"
    }

    enum ColorKeys: String, CodingKey { case hue, saturation, kelvin }

    enum ProductKeys: String, CodingKey {
        case name, identifier, company, capabilities, productID = "product_id"
    }

    enum CapabilityKeys: String, CodingKey {
        case hasColor = "has_color", hasVariableColorTemp = "has_variable_color_temp"
        case hasMultizone = "has_multizone", hasMatrix = "has_matrix", hasChain = "has_chain"
        case minKelvin = "min_kelvin", maxKelvin = "max_kelvin"
    }

    /// Decodes leniently.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        uuid = try? container.decodeIfPresent(String.self, forKey: .uuid)
        label = (try? container.decodeIfPresent(String.self, forKey: .label)) ?? id
        connected = container.lenientBool(.connected) ?? true
        power = ((try? container.decodeIfPresent(String.self, forKey: .power)) ?? "off").lowercased() == "on"
        brightness = container.lenientDouble(.brightness) ?? 0
        let colorContainer = try? container.nestedContainer(keyedBy: ColorKeys.self, forKey: .color)
        color = Color(
            hue: colorContainer?.lenientDouble(.hue) ?? 0, saturation: colorContainer?.lenientDouble(.saturation) ?? 0,
            kelvin: colorContainer?.lenientInt(.kelvin, in: 0...100_000) ?? 3500)
        effect = try? container.decodeIfPresent(String.self, forKey: .effect)
        group = try? container.decodeIfPresent(Reference.self, forKey: .group)
        location = try? container.decodeIfPresent(Reference.self, forKey: .location)
        product = Self.decodeProduct(container)
        lastSeen = try? container.decodeIfPresent(String.self, forKey: .lastSeen)
        secondsSinceSeen = container.lenientDouble(.secondsSinceSeen)
    }

    private static func decodeProduct(_ container: KeyedDecodingContainer<CodingKeys>) -> Product? {
        guard let product = try? container.nestedContainer(keyedBy: ProductKeys.self, forKey: .product) else { return nil }
        var capabilities = Capabilities()
        if let caps = try? product.nestedContainer(keyedBy: CapabilityKeys.self, forKey: .capabilities) {
            capabilities.hasColor = caps.lenientBool(.hasColor) ?? true
            capabilities.hasVariableColorTemp = caps.lenientBool(.hasVariableColorTemp) ?? true
            capabilities.hasMultizone = caps.lenientBool(.hasMultizone) ?? false
            capabilities.hasMatrix = caps.lenientBool(.hasMatrix) ?? false
            capabilities.hasChain = caps.lenientBool(.hasChain) ?? false
            capabilities.minKelvin = caps.lenientInt(.minKelvin, in: 1000...20_000) ?? 2500
            capabilities.maxKelvin = caps.lenientInt(.maxKelvin, in: 1000...20_000) ?? 9000
        }
        return Product(
            name: (try? product.decodeIfPresent(String.self, forKey: .name)) ?? "LIFX light",
            identifier: try? product.decodeIfPresent(String.self, forKey: .identifier),
            company: try? product.decodeIfPresent(String.self, forKey: .company),
            productID: product.lenientInt(.productID, in: 0...1_000_000), capabilities: capabilities)
    }

    /// Creates a light (for tests and the optimistic state store).
    public init(
        id: String, label: String, connected: Bool = true, power: Bool, color: Color, brightness: Double,
        group: Reference? = nil, location: Reference? = nil, product: Product? = nil
    ) {
        self.id = id
        self.label = label
        self.connected = connected
        self.power = power
        self.color = color
        self.brightness = brightness
        self.group = group
        self.location = location
        self.product = product
    }

    /// Capabilities, assuming a colour bulb when the payload has no product.
    public var capabilities: Capabilities { product?.capabilities ?? Capabilities() }
}

extension LIFXLight.Reference {
    /// Creates a reference.
    public init(id: String, name: String, _ unused: Void = ()) {
        self.id = id
        self.name = name
    }
}

extension LIFXLight.Product {
    /// Creates a product description.
    public init(name: String, identifier: String? = nil, capabilities: LIFXLight.Capabilities) {
        self.init(name: name, identifier: identifier, company: "LIFX", productID: nil, capabilities: capabilities)
    }
}
