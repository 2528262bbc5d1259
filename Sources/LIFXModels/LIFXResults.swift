/// The per-light outcome of a write: `ok`, `timed_out` or `offline`.
public struct LIFXResult: Sendable, Equatable, Decodable {
    public var id: String
    public var label: String?
    public var status: String
    /// Reported by toggle.
    public var power: String?

    /// Whether the light applied the change.
    public var succeeded: Bool { status == "ok" || status == "accepted" }
}

/// `{"results": [...]}` from single-selector writes.
public struct LIFXResults: Sendable, Equatable, Decodable {
    public var results: [LIFXResult]
}

/// `{"results": [{"operation": …, "results": [...], "error": …}]}` from `PUT /lights/states`.
public struct LIFXBatchResults: Sendable, Decodable {
    /// One operation's outcome.
    public struct Operation: Sendable, Decodable {
        public var results: [LIFXResult]?
        public var error: String?
    }
    public var results: [Operation]
}

/// The API's error body: `{"error": "…", "errors": [{"field": …, "message": [...]}]}`.
public struct LIFXErrorBody: Sendable, Decodable {
    /// One field's complaint.
    public struct FieldError: Sendable, Decodable {
        public var field: String?
        public var message: [String]?
    }
    public var error: String?
    public var errors: [FieldError]?

    /// A one-line summary.
    public var summary: String {
        let fields = (errors ?? []).map { "\($0.field ?? "?") \(($0.message ?? []).joined(separator: ", "))" }
        return ([error].compactMap { $0 } + fields).joined(separator: "; ")
    }
}
