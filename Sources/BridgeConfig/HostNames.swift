/// Host names and addresses as the web frontend tells them apart: which are this machine's loopback, which are IP
/// literals, and the name in a `Host` header. Pure, so one table of cases says what each answer is; the config's
/// check of where the page listens and the frontend's checks of each request share it.
public enum HostNames {
    /// Whether `name` is this machine's loopback: an IPv4 literal in 127.0.0.0/8, `::1` (bare, as a peer address, or
    /// bracketed, as in a `Host` header; an IPv4-mapped 127.x too), or `localhost`. A name that only starts like
    /// one (`127.0.0.1.attacker.example`) is not: anyone can make such a name resolve here.
    public static func isLoopback(_ name: String) -> Bool {
        let lowered = name.lowercased()
        if lowered == "localhost" { return true }
        if let quad = ipv4(Substring(lowered)) { return quad[0] == 127 }
        guard let groups = ipv6(unbracketed(lowered)) else { return false }
        if groups == [0, 0, 0, 0, 0, 0, 0, 1] { return true }
        // ::ffff:127.x.x.x, an IPv4 loopback client seen on an IPv6 socket.
        return groups[0..<5].allSatisfy { $0 == 0 } && groups[5] == 0xffff && groups[6] >> 8 == 127
    }

    /// Whether `name` is an IP literal (dotted IPv4, or IPv6 bare or in brackets) rather than a name that DNS resolves.
    public static func isIPLiteral(_ name: String) -> Bool {
        ipv4(Substring(name)) != nil || ipv6(unbracketed(name)) != nil
    }

    /// The name of a `Host` header without its port, lowercased (`[::1]:8080` → `[::1]`, `Pi.local` → `pi.local`);
    /// nil when the header is not a host with an optional numeric port.
    public static func name(ofHost header: String) -> String? {
        let lowered = header.lowercased()
        var name = Substring(lowered)
        var port: Substring?
        if lowered.hasPrefix("[") {
            guard let close = lowered.firstIndex(of: "]") else { return nil }
            name = lowered[...close]
            let rest = lowered[lowered.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                port = rest.dropFirst()
            }
            guard ipv6(unbracketed(String(name))) != nil else { return nil }
        } else if let colon = lowered.firstIndex(of: ":") {
            name = lowered[..<colon]
            port = lowered[lowered.index(after: colon)...]
        }
        if let port, port.isEmpty || port.count > 5 || !port.allSatisfy({ $0.isASCII && $0.isNumber }) { return nil }
        let allowed = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-._[]:".contains($0)) }
        guard !name.isEmpty, allowed else { return nil }
        return String(name)
    }

    /// The four bytes of a dotted IPv4 literal: four decimal parts of 0 to 255, no leading zeros (which some
    /// resolvers read as octal), nothing else.
    static func ipv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }),
                part == "0" || !part.hasPrefix("0"), let value = UInt8(part)
            else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    /// The eight groups of an IPv6 literal (`::` for a run of zeros, a dotted IPv4 tail allowed), or nil.
    static func ipv6(_ text: Substring) -> [UInt16]? {
        guard text.contains(":"), text.count <= 45 else { return nil }
        let halves = text.split(separator: "::", maxSplits: 2, omittingEmptySubsequences: false)
        guard halves.count <= 2 else { return nil }
        func groups(_ half: Substring) -> [UInt16]? {
            if half.isEmpty { return [] }
            var result: [UInt16] = []
            let pieces = half.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index == pieces.count - 1, piece.contains("."), let quad = ipv4(piece) {
                    result += [UInt16(quad[0]) << 8 | UInt16(quad[1]), UInt16(quad[2]) << 8 | UInt16(quad[3])]
                    continue
                }
                guard (1...4).contains(piece.count), piece.allSatisfy(\.isHexDigit), let value = UInt16(piece, radix: 16) else { return nil }
                result.append(value)
            }
            return result
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 8 ? head : nil }
        guard let tail = groups(halves[1]), head.count + tail.count < 8 else { return nil }
        return head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    }

    /// An address without the brackets a `Host` header puts around IPv6.
    private static func unbracketed(_ text: String) -> Substring {
        text.hasPrefix("[") && text.hasSuffix("]") ? text.dropFirst().dropLast() : Substring(text)
    }
}
