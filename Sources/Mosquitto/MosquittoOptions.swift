/// A message to publish (will, final message).
public struct MQTTMessage: Sendable, Equatable {
    public var topic: String
    public var payload: [UInt8]
    public var qos: Int
    public var retain: Bool

    /// Creates a message.
    public init(topic: String, payload: [UInt8], qos: Int = 1, retain: Bool = true) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }
}

/// How to reach and talk to a broker.
public struct MosquittoOptions: Sendable {
    /// MQTT protocol versions libmosquitto speaks.
    public enum ProtocolVersion: Sendable { case v311, v5 }

    /// TLS material and policy.
    public struct TLS: Sendable {
        public var caFile: String?
        public var certFile: String?
        public var keyFile: String?
        /// Skips certificate and host name checks.
        public var insecure: Bool
        /// Creates TLS options.
        public init(caFile: String? = nil, certFile: String? = nil, keyFile: String? = nil, insecure: Bool = false) {
            self.caFile = caFile
            self.certFile = certFile
            self.keyFile = keyFile
            self.insecure = insecure
        }
    }

    public var host: String
    public var port: Int
    public var clientID: String
    public var keepaliveSeconds: Int
    public var username: String?
    public var password: String?
    public var protocolVersion: ProtocolVersion
    public var tls: TLS?
    /// The last will, published by the broker if the connection dies.
    public var will: MQTTMessage?
    /// Published (and awaited) on graceful shutdown, before disconnecting.
    public var finalMessage: MQTTMessage?
    /// Reconnect back-off bounds in seconds.
    public var reconnectDelay: ClosedRange<Double>
    /// Unwritten or unacknowledged messages from which the client reports itself backlogged.
    public var backlogLimit: Int

    /// Creates options; only the address and client id are required.
    public init(
        host: String, port: Int, clientID: String, keepaliveSeconds: Int = 60, username: String? = nil,
        password: String? = nil, protocolVersion: ProtocolVersion = .v311, tls: TLS? = nil,
        will: MQTTMessage? = nil, finalMessage: MQTTMessage? = nil, reconnectDelay: ClosedRange<Double> = 0.5...30,
        backlogLimit: Int = 64
    ) {
        self.host = host
        self.port = port
        self.clientID = clientID
        self.keepaliveSeconds = keepaliveSeconds
        self.username = username
        self.password = password
        self.protocolVersion = protocolVersion
        self.tls = tls
        self.will = will
        self.finalMessage = finalMessage
        self.reconnectDelay = reconnectDelay
        self.backlogLimit = backlogLimit
    }
}
