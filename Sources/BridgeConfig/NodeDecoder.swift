/// Decodes `Decodable` values from composed YAML nodes, resolving scalars as YAML 1.1 does (see ScalarResolution).
/// Sequence items appear in coding paths as `Index N`, which `ConfigLoader.keyPath` and `NodeLocator` read.
struct NodeDecoder: Decoder {
    let node: YAMLNode
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    /// Decodes a whole document.
    static func decode<T: Decodable>(_ type: T.Type, from node: YAMLNode, userInfo: [CodingUserInfoKey: Any]) throws -> T {
        try NodeDecoder(node: node, codingPath: [], userInfo: userInfo).decodeValue(type)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .mapping(let pairs, _) = node else { throw mismatch([String: YAMLNode].self) }
        return KeyedDecodingContainer(NodeKeyedContainer<Key>(decoder: self, pairs: pairs))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .sequence(let items, _) = node else { throw mismatch([YAMLNode].self) }
        return NodeUnkeyedContainer(decoder: self, items: items)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// A decoder one level down.
    func child(_ node: YAMLNode, key: any CodingKey) -> NodeDecoder {
        NodeDecoder(node: node, codingPath: codingPath + [key], userInfo: userInfo)
    }

    /// A plain empty, `~` or `null` scalar.
    func decodeNilValue() -> Bool {
        node.scalar?.isNull == true
    }

    /// Scalar types resolve from a scalar (a list or mapping is "not a single value"); others decode themselves.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        guard let scalarType = type as? any ScalarValue.Type else { return try T(from: self) }
        guard let scalar = node.scalar else { throw mismatch(YAMLScalar.self) }
        guard let value = scalarType.resolve(scalar) as? T else { throw mismatch(type) }
        return value
    }

    func mismatch(_ expected: Any.Type) -> DecodingError {
        let found = switch node {
        case .scalar: "a scalar"
        case .mapping: "a mapping"
        case .sequence: "a sequence"
        }
        return .typeMismatch(expected, DecodingError.Context(codingPath: codingPath, debugDescription: "found \(found)"))
    }
}

extension NodeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { decodeNilValue() }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}

/// A sequence item's key in coding paths: `Index 3`.
struct IndexKey: CodingKey {
    let index: Int
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
    init(index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init(intValue: Int) { index = intValue }
}
