/// A value per passive format, for the one or two formats a device sends: a short list searched in order.
/// A dictionary would hash the format for every advert, twice when a value is read and written back.
public struct FormatTable<Value: Sendable>: Sendable, ExpressibleByDictionaryLiteral {
    private var entries: [(format: PassiveFormat, value: Value)] = []

    /// An empty table.
    public init() {}

    /// The listed values; of two for one format, the later wins.
    public init(dictionaryLiteral elements: (PassiveFormat, Value)...) {
        for (format, value) in elements { self[format] = value }
    }

    /// The value of `format`; setting nil removes it.
    public subscript(format: PassiveFormat) -> Value? {
        get { entries.first { $0.format == format }?.value }
        set {
            let index = entries.firstIndex { $0.format == format }
            switch (index, newValue) {
            case (let index?, let value?): entries[index].value = value
            case (let index?, nil): entries.remove(at: index)
            case (nil, let value?): entries.append((format, value))
            case (nil, nil): break
            }
        }
    }

    /// Changes the value of `format` where it is stored (made from `initial` first if there is none), returning
    /// what `change` returns.
    public mutating func update<Result>(
        _ format: PassiveFormat, initial: @autoclosure () -> Value, _ change: (inout Value) -> Result
    ) -> Result {
        if let index = entries.firstIndex(where: { $0.format == format }) { return change(&entries[index].value) }
        entries.append((format, initial()))
        return change(&entries[entries.count - 1].value)
    }

    /// Whether no format has a value.
    public var isEmpty: Bool { entries.isEmpty }
}
