/// An instruction whose results land in global memory, with how to read them back typed.
/// Add it to an `EV3Batch`, which assigns the offsets and hands back an `EV3Handle` for the reply.
public struct EV3Query<Value: Sendable>: Sendable {
    /// The instruction, its outputs still unplaced.
    public let instruction: EV3Instruction
    let decode: @Sendable ([ArraySlice<UInt8>]) -> Value

    init(_ instruction: EV3Instruction, decode: @escaping @Sendable ([ArraySlice<UInt8>]) -> Value) {
        self.instruction = instruction
        self.decode = decode
    }
}

/// Where a query's results sit in one batch's reply; read them with `EV3Batch.read(_:from:)`.
public struct EV3Handle<Value: Sendable>: Sendable {
    /// The query's slots among the batch's.
    let slots: Range<Int>
    /// The slots' shapes, so a handle used with another batch is refused rather than misread.
    let shape: [EV3GlobalSlot]
    let decode: @Sendable ([ArraySlice<UInt8>]) -> Value
}

/// Readers of global memory. The firmware writes sentinels where a port has no value (`80`,
/// `00 00 00 80`, NaN), and those become `nil`.
enum EV3Values {
    /// A DATA8; `80` (DATA8_NAN) is no value.
    static func int8(_ bytes: ArraySlice<UInt8>) -> Int8? {
        let value = Int8(bitPattern: bytes[bytes.startIndex])
        return value == .min ? nil : value
    }

    /// A DATA8 the firmware never leaves empty (percentages, flags, types, modes).
    static func byte(_ bytes: ArraySlice<UInt8>) -> Int8 { Int8(bitPattern: bytes[bytes.startIndex]) }

    /// A DATA16; `00 80` (DATA16_NAN) is no value.
    static func int16(_ bytes: ArraySlice<UInt8>) -> Int16? {
        let value = readLittleEndian(Int16.self, bytes)
        return value == .min ? nil : value
    }

    /// A DATA32; `00 00 00 80` (DATA32_NAN) is no value.
    static func int32(_ bytes: ArraySlice<UInt8>) -> Int32? {
        let value = readLittleEndian(Int32.self, bytes)
        return value == .min ? nil : value
    }

    /// A DATAF (IEEE 754 single, little-endian); any NaN is no value.
    static func float(_ bytes: ArraySlice<UInt8>) -> Float? {
        let value = Float(bitPattern: readLittleEndian(UInt32.self, bytes))
        return value.isNaN ? nil : value
    }

    /// A string buffer cut at its first NUL: the reply buffer is never cleared, so whatever follows
    /// the NUL is left over from earlier commands. A buffer without a NUL is taken whole.
    static func string(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}

extension EV3Query {
    /// A query with one output.
    static func single(
        _ name: String, _ parts: [EV3Part], _ slot: EV3GlobalSlot,
        _ read: @escaping @Sendable (ArraySlice<UInt8>) -> Value
    ) -> EV3Query {
        EV3Query(EV3Instruction(name, parts + [.output(0)], outputs: [slot])) { read($0[0]) }
    }
}
