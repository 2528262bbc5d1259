import BLEFormats

/// Bytes from hex text with optional spaces: `hex("40 02 C4 09")`.
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace })
    return stride(from: 0, to: digits.count - 1, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16) ?? 0 }
}

/// A small deterministic random generator, so fuzz rounds are reproducible from their seed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) } }
}

extension Decoded {
    /// The failure, if undecodable.
    var failure: DecodeFailure? {
        if case .undecodable(let failure) = self { return failure }
        return nil
    }
}

extension Reading {
    /// The number under a key.
    func number(_ key: String) -> Double? { self[key]?.number }
}
