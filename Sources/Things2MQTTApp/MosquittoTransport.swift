public import BridgeConfig
public import BridgeCore
import Logging
public import Mosquitto
public import ServiceLifecycle

/// Adapts the libmosquitto client to the bridge's transport protocol.
public struct MosquittoTransport: MQTTTransport {
    let client: MosquittoClient

    /// Wraps a client.
    public init(client: MosquittoClient) { self.client = client }

    /// Publishes through the client.
    public func publish(_ topic: String, payload: [UInt8], qos: Int, retain: Bool) {
        client.publish(topic, payload: payload, qos: qos, retain: retain)
    }

    /// Subscribes through the client.
    public func subscribe(_ filter: String, qos: Int) { client.subscribe(filter, qos: qos) }

    /// Unsubscribes through the client.
    public func unsubscribe(_ filter: String) { client.unsubscribe(filter) }

    /// Maps client events to the bridge's transport events.
    public static func forward(_ event: MQTTClientEvent, to handler: @Sendable (TransportEvent) -> Void) {
        switch event {
        case .connected: handler(.connected)
        case .disconnected(let reason): handler(.disconnected(reason: reason))
        case .message(let topic, let payload, let retained):
            handler(.message(InboundMessage(topic: topic, payload: payload, retained: retained)))
        }
    }
}

/// Runs the MQTT client as a service: on graceful shutdown it publishes `offline` and disconnects.
public struct MQTTService: Service {
    let client: MosquittoClient

    /// Wraps a client.
    public init(client: MosquittoClient) { self.client = client }

    /// Runs until graceful shutdown, then publishes the final message and disconnects.
    public func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            group.addTask {
                try? await gracefulShutdown()
                await client.shutdown()
            }
            await group.next()
            group.cancelAll()
        }
    }
}

extension MosquittoOptions {
    /// Options for the bridge's broker connection, with `bridge/state` offline as will and final message.
    public init(_ settings: MQTTSettings) {
        let offline = MQTTMessage(
            topic: Topics(base: settings.baseTopic).bridgeState, payload: Array(#"{"state":"offline"}"#.utf8), qos: 1,
            retain: true)
        self.init(
            host: settings.host, port: settings.port, clientID: settings.effectiveClientID,
            keepaliveSeconds: settings.keepalive.seconds, username: settings.username, password: settings.password,
            protocolVersion: settings.version == .v5 ? .v5 : .v311,
            tls: settings.usesTLS
                ? TLS(caFile: settings.tls?.caFile, certFile: settings.tls?.certFile, keyFile: settings.tls?.keyFile,
                    insecure: settings.tls?.insecure ?? false) : nil,
            will: offline, finalMessage: offline)
    }
}
