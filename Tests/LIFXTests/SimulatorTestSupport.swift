import AsyncHTTPClient
import Foundation
import LIFXSimulator

/// An HTTP answer from the simulator, decoded for assertions.
struct SimulatorResponse {
    var status: Int
    var headers: [String: String]
    var body: String

    /// The body parsed with JSONSerialization.
    var json: Any? {
        try? JSONSerialization.jsonObject(with: Data(body.utf8), options: [.fragmentsAllowed])
    }

    /// The `results` array of a write answer.
    var results: [[String: Any]] {
        ((json as? [String: Any])?["results"] as? [[String: Any]]) ?? []
    }

    /// The `error` text of an error answer.
    var errorMessage: String? {
        (json as? [String: Any])?["error"] as? String
    }
}

/// Sends one request over a real socket.
func send(
    _ method: String,
    _ path: String,
    to simulator: LIFXCloudSimulator,
    token: String? = "token",
    body: String? = nil,
    contentType: String = "application/json",
    timeout: Int64 = 10
) async throws -> SimulatorResponse {
    var request = HTTPClientRequest(url: simulator.baseURL + path)
    request.method = .init(rawValue: method)
    if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
    if let body {
        request.headers.add(name: "Content-Type", value: contentType)
        let bytes = Array(body.utf8)
        request.body = .bytes(bytes, length: .known(Int64(bytes.count)))
    }
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(timeout))
    var collected: [UInt8] = []
    for try await chunk in response.body {
        collected += chunk.readableBytesView
    }
    var headers: [String: String] = [:]
    for header in response.headers { headers[header.name.lowercased()] = header.value }
    return SimulatorResponse(status: Int(response.status.code), headers: headers, body: String(decoding: collected, as: UTF8.self))
}

/// Runs `body` against a started simulator and always stops it afterwards.
func withRunning(
    _ simulator: LIFXCloudSimulator,
    _ body: (LIFXCloudSimulator) async throws -> Void
) async throws {
    _ = try await simulator.start()
    do {
        try await body(simulator)
    } catch {
        try await simulator.stop()
        throw error
    }
    try await simulator.stop()
}
