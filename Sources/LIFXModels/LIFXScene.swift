/// A scene from `GET /scenes`.
public struct LIFXScene: Sendable, Equatable, Decodable {
    /// One light's part of a scene.
    public struct State: Sendable, Equatable, Decodable {
        public var selector: String
        public var power: String?
        public var brightness: Double?
        public var hue: Double?
        public var saturation: Double?
        public var kelvin: Int?

        enum CodingKeys: String, CodingKey { case selector, power, brightness, color }
        enum ColorKeys: String, CodingKey { case hue, saturation, kelvin }

        /// Decodes leniently.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            selector = try container.decode(String.self, forKey: .selector)
            power = try? container.decodeIfPresent(String.self, forKey: .power)
            brightness = container.lenientDouble(.brightness)
            if let color = try? container.nestedContainer(keyedBy: ColorKeys.self, forKey: .color) {
                hue = color.lenientDouble(.hue)
                saturation = color.lenientDouble(.saturation)
                kelvin = color.lenientInt(.kelvin, in: 0...100_000)
            }
        }
    }

    /// The owning account.
    public struct Account: Sendable, Equatable, Decodable {
        public var uuid: String
    }

    public var uuid: String
    public var name: String
    public var account: Account?
    public var states: [State]

    enum CodingKeys: String, CodingKey { case uuid, name, account, states }

    /// Decodes leniently.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        uuid = try container.decode(String.self, forKey: .uuid)
        name = (try? container.decodeIfPresent(String.self, forKey: .name)) ?? uuid
        account = try? container.decodeIfPresent(Account.self, forKey: .account)
        states = (try? container.decodeIfPresent([State].self, forKey: .states)) ?? []
    }

    /// The light id a state's `id:` selector names, if it names one.
    public static func lightID(in selector: String) -> String? {
        selector.hasPrefix("id:") ? String(selector.dropFirst(3)) : nil
    }
}
