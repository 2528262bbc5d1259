/// A mapping's keys, found by their text whether written quoted or plain (`"3"` and `3` are the same key).
struct NodeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: NodeDecoder
    let pairs: [YAMLPair]

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        pairs.compactMap { $0.key.scalar.flatMap { Key(stringValue: $0.text) } }
    }

    func contains(_ key: Key) -> Bool { value(key.stringValue) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { try child(key).decodeNilValue() }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decodeValue(type) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { try child(AnyKey(stringValue: "super")) }

    func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }

    private func value(_ name: String) -> YAMLNode? {
        pairs.first { $0.key.scalar?.text == name }?.value
    }

    private func child(_ key: any CodingKey) throws -> NodeDecoder {
        guard let node = value(key.stringValue) else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "no value for \(key.stringValue)"))
        }
        return decoder.child(node, key: key)
    }
}

/// A sequence's items in order.
struct NodeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: NodeDecoder
    let items: [YAMLNode]
    private(set) var currentIndex = 0

    init(decoder: NodeDecoder, items: [YAMLNode]) {
        self.decoder = decoder
        self.items = items
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    /// True, and past the item, when it is null; otherwise the item stays to be decoded.
    mutating func decodeNil() throws -> Bool {
        guard try current(Never?.self).decodeNilValue() else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try current(type).decodeValue(type)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try current(type).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try current([YAMLNode].self).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = try current(YAMLNode.self)
        currentIndex += 1
        return decoder
    }

    private func current(_ type: Any.Type) throws -> NodeDecoder {
        let key = IndexKey(index: currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: codingPath + [key], debugDescription: "the list has no more items"))
        }
        return decoder.child(items[currentIndex], key: key)
    }
}
