import AsyncHTTPClient
import Foundation

/// One plain request as a browser or probe sends it, with the answer's status, headers (by lowercased name) and body.
enum HTTPProbe {
    static func get(_ url: String, headers: [(String, String)] = []) async throws -> (status: UInt, headers: [String: String], body: String) {
        var request = HTTPClientRequest(url: url)
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        do {
            let response = try await client.execute(request, timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 8 << 20)
            try await client.shutdown()
            let fields = Dictionary(response.headers.map { ($0.name.lowercased(), $0.value) }) { first, _ in first }
            return (response.status.code, fields, String(buffer: body))
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}
