import Bridge
public import BridgeConfig
import BridgeCore
public import Mosquitto
public import ServiceLifecycle

/// Runs the MQTT client as a service: on graceful shutdown it publishes `offline` and disconnects.
public struct MQTTService: Service {
    let client: MosquittoClient

    /// Wraps a client.
    public init(client: MosquittoClient) { self.client = client }

    /// Runs until graceful shutdown, then publishes the final message and returns only after the DISCONNECT
    /// has been flushed (or 2 s have passed), so the process never exits with it still queued.
    public func run() async throws {
        async let loop: Void = client.run()
        try? await gracefulShutdown()
        await client.shutdown(timeout: .seconds(2))
        await loop
    }
}

extension MosquittoOptions {
    /// Options for the bridge's broker connection, with `bridge/state` offline as will and final message; in a
    /// cluster, the bridge's presence offline (the other bridges take its devices over when it fires).
    public init(_ config: Configuration) {
        let settings = config.mqtt
        let topic =
            config.cluster.map { "\($0.clusterTopic(base: settings.baseTopic))/bridges/\($0.bridgeID)" }
            ?? Topics(base: settings.baseTopic).bridgeState
        // With a cluster secret the will is signed now, when it is handed to the broker: it is older than the
        // window when it fires, and counts only once the bridge's presence is overdue (see `ClusterAuth`).
        let state: JSONValue = ["state": "offline"]
        let payload = BridgeService.makeClusterAuth(config).map { $0.sign(state, topic: topic, at: BridgeService.wallMilliseconds) } ?? state
        let offline = MQTTMessage(topic: topic, payload: payload.jsonBytes, qos: 1, retain: true)
        self.init(
            host: settings.host, port: settings.port, clientID: config.clientID,
            keepaliveSeconds: settings.keepalive.seconds, username: settings.username, password: settings.password?.value,
            protocolVersion: settings.version == .v5 ? .v5 : .v311,
            tls: settings.usesTLS
                ? TLS(caFile: settings.tls?.caFile, certFile: settings.tls?.certFile, keyFile: settings.tls?.keyFile,
                    insecure: settings.tls?.insecure ?? false) : nil,
            will: offline, finalMessage: offline)
    }
}
