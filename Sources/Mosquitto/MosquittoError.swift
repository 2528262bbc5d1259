import CMosquitto
import FoundationEssentials
import Glibc

/// A libmosquitto failure: the operation, the library's code and its explanation.
public struct MosquittoError: Error, Sendable, CustomStringConvertible {
    /// A `MOSQ_ERR_*` code.
    public let code: Int32
    /// What was being done, e.g. `subscribe`.
    public let operation: String
    /// The library's (or, for `MOSQ_ERR_ERRNO`, the system's) explanation.
    public let reason: String

    /// Builds an error from a return code, reading errno when the library says to.
    init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
        if code == Int32(MOSQ_ERR_ERRNO.rawValue) {
            reason = String(cString: strerror(errno))
        } else {
            reason = String(cString: mosquitto_strerror(code))
        }
    }

    /// Builds an error whose explanation the caller found out itself.
    init(code: Int32, operation: String, reason: String) {
        self.code = code
        self.operation = operation
        self.reason = reason
    }

    /// `operation: reason`.
    public var description: String { "\(operation): \(reason)" }

    /// The one funnel for libmosquitto return codes.
    static func check(_ code: Int32, _ operation: String) throws(MosquittoError) {
        guard code == Int32(MOSQ_ERR_SUCCESS.rawValue) else { throw MosquittoError(code: code, operation: operation) }
    }

    /// Explains a CONNACK code: MQTT 3.1.1 return codes and MQTT 5 reason codes are different tables.
    static func connackReason(_ code: Int32, version: MosquittoOptions.ProtocolVersion) -> String {
        switch version {
        case .v311: String(cString: mosquitto_connack_string(code))
        case .v5: String(cString: mosquitto_reason_string(code))
        }
    }
}
