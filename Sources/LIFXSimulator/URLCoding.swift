import Support

/// Percent-decoding for path segments, query strings and form bodies.
enum URLCoding {
    /// Decodes `%XX` escapes; with `plusIsSpace` also `+` (query and form syntax). Nil on malformed input.
    static func percentDecode(_ text: some StringProtocol, plusIsSpace: Bool = false) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(Hex.digit),
                      let low = iterator.next().flatMap(Hex.digit) else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Splits `a=1&b=2` into decoded pairs, skipping malformed pieces.
    static func queryItems(_ query: some StringProtocol) -> [(String, String)] {
        query.split(separator: "&", omittingEmptySubsequences: true).compactMap { piece in
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = percentDecode(parts[0], plusIsSpace: true),
                  let value = percentDecode(parts.count > 1 ? parts[1] : "", plusIsSpace: true)
            else { return nil }
            return (name, value)
        }
    }

}

/// Form bodies (`application/x-www-form-urlencoded`) as sent by the docs' curl examples.
enum FormDecoding {
    /// Decoded name/value pairs in body order.
    static func fields(_ body: String) -> [(String, String)] {
        URLCoding.queryItems(body.trimmingWhitespace())
    }
}

extension String {
    /// Drops leading and trailing spaces and newlines without needing Foundation.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }),
              let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }
}
