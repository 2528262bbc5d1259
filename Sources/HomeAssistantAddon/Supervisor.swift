import AsyncHTTPClient
import NIOCore

/// Asks Home Assistant's Supervisor for its MQTT broker: the one call the add-on makes to it.
public enum Supervisor {
    /// `GET <base>/services/mqtt` with the add-on's token; `base` is `http://supervisor` inside Home Assistant.
    public static func mqtt(base: String, token: String, timeout: Duration = .seconds(10)) async throws(AddonError) -> SupervisorMQTT {
        var request = HTTPClientRequest(url: base + "/services/mqtt")
        request.headers.add(name: "Authorization", value: "Bearer " + token)
        let status: Int
        let body: [UInt8]
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: TimeAmount(timeout))
            status = Int(response.status.code)
            var buffer = try await response.body.collect(upTo: 64 * 1024)
            body = buffer.readBytes(length: buffer.readableBytes) ?? []
        } catch {
            throw AddonError("the Supervisor at \(base) did not answer (\(error)); set mqtt_server in the add-on's options")
        }
        return try SupervisorMQTT.parse(body, status: status)
    }
}
