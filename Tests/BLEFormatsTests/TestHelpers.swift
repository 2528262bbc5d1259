import BLEFormats



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
