/// A shell-style name pattern for config rules: `*` any run, `?` one character, `[…]` a class (ranges
/// `a-z`, negation `!` or `^`), `\` escapes. Matching is over Unicode characters and linear in practice
/// for the short names it is used on.
public struct Glob: Sendable, Hashable, CustomStringConvertible {
    enum Token: Hashable {
        case literal(Character)
        case any
        case anyRun
        case set(negated: Bool, items: [ClosedRange<Character>])
    }

    /// The pattern as written.
    public let description: String
    let tokens: [Token]

    /// Compiles a pattern; an unclosed `[` or a trailing `\` is an error.
    public init(_ pattern: String) throws(GlobError) {
        description = pattern
        var tokens: [Token] = []
        var characters = Array(pattern)[...]
        while let character = characters.popFirst() {
            switch character {
            case "*": if tokens.last != .anyRun { tokens.append(.anyRun) }
            case "?": tokens.append(.any)
            case "\\":
                guard let escaped = characters.popFirst() else { throw GlobError("pattern \"\(pattern)\" ends with \\") }
                tokens.append(.literal(escaped))
            case "[": tokens.append(try Self.set(&characters, pattern: pattern))
            default: tokens.append(.literal(character))
            }
        }
        self.tokens = tokens
    }

    private static func set(_ characters: inout ArraySlice<Character>, pattern: String) throws(GlobError) -> Token {
        var negated = false
        if let first = characters.first, first == "!" || first == "^" {
            negated = true
            characters.removeFirst()
        }
        var items: [ClosedRange<Character>] = []
        var first = true
        while let character = characters.popFirst() {
            if character == "]", !first { return .set(negated: negated, items: items) }
            first = false
            var low = character
            if low == "\\" {
                guard let escaped = characters.popFirst() else { break }
                low = escaped
            }
            if characters.count >= 2, characters.first == "-", characters.dropFirst().first != "]" {
                characters.removeFirst()
                let high = characters.removeFirst()
                guard low <= high else { throw GlobError("range \(low)-\(high) in pattern \"\(pattern)\" is reversed") }
                items.append(low...high)
            } else {
                items.append(low...low)
            }
        }
        throw GlobError("unclosed [ in pattern \"\(pattern)\"")
    }

    /// Whether the whole of `text` matches.
    public func matches(_ text: String) -> Bool {
        let input = Array(text)
        var t = 0, i = 0
        var star: (token: Int, input: Int)?
        while i < input.count {
            if t < tokens.count, tokens[t] == .anyRun {
                star = (t, i)
                t += 1
            } else if t < tokens.count, Self.accepts(tokens[t], input[i]) {
                t += 1
                i += 1
            } else if let last = star {
                // Backtrack: let the last `*` take one more character.
                t = last.token + 1
                i = last.input + 1
                star = (last.token, last.input + 1)
            } else {
                return false
            }
        }
        while t < tokens.count, tokens[t] == .anyRun { t += 1 }
        return t == tokens.count
    }

    private static func accepts(_ token: Token, _ character: Character) -> Bool {
        switch token {
        case .literal(let literal): literal == character
        case .any: true
        case .anyRun: false
        case .set(let negated, let items): items.contains { $0.contains(character) } != negated
        }
    }
}

/// Why a glob pattern cannot be used.
public struct GlobError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the pattern.
    public let description: String

    init(_ description: String) { self.description = description }
}
