import BridgeCore
import CMosquitto
import FoundationEssentials
import Glibc
import Logging
import Support

extension MosquittoClient {
    /// Applies credentials, protocol version, TLS and the will before the first connect.
    func configure() throws(MosquittoError) {
        let pointer = handle.pointer
        try MosquittoError.check(mosquitto_threaded_set(pointer, true), "enable threading")
        // Small packets (a PUBACK, then a response) must not wait for the broker's delayed ACK.
        try MosquittoError.check(mosquitto_int_option(pointer, MOSQ_OPT_TCP_NODELAY, 1), "disable Nagle's algorithm")
        if options.protocolVersion == .v5 {
            try MosquittoError.check(
                mosquitto_int_option(pointer, MOSQ_OPT_PROTOCOL_VERSION, Int32(MQTT_PROTOCOL_V5)), "select MQTT 5")
        }
        if let username = options.username {
            try MosquittoError.check(mosquitto_username_pw_set(pointer, username, options.password), "set credentials")
        }
        if let will = options.will {
            let rc = will.payload.withUnsafeBytes { bytes in
                mosquitto_will_set(pointer, will.topic, Int32(bytes.count), bytes.baseAddress, Int32(will.qos), will.retain)
            }
            try MosquittoError.check(rc, "set last will")
        }
        if let tls = options.tls {
            // Without a CA file, trust the system's certificate store: Debian's bundle where there is one (the
            // image carries only that file), else the hashed certificate directory.
            let bundle = "/etc/ssl/certs/ca-certificates.crt"
            let caFile = tls.caFile ?? (access(bundle, R_OK) == 0 ? bundle : nil)
            let capath: String? = caFile == nil ? "/etc/ssl/certs" : nil
            try MosquittoError.check(
                mosquitto_tls_set(pointer, caFile, capath, tls.certFile, tls.keyFile, nil), "configure TLS")
            if tls.caFile == nil {
                _ = mosquitto_int_option(pointer, MOSQ_OPT_TLS_USE_OS_CERTS, 1)
            }
            if tls.insecure {
                try MosquittoError.check(mosquitto_tls_opts_set(pointer, 0, nil, nil), "disable TLS verification")
                try MosquittoError.check(mosquitto_tls_insecure_set(pointer, true), "disable TLS host check")
            }
        }
    }

    /// The network thread: connect, loop, and on any loss wait with capped exponential back-off. After each
    /// loop turn it acts on the connection events the callbacks enqueued. Once a stop is asked for, it keeps
    /// looping only until the DISCONNECT is written or the stop deadline passes.
    func networkLoop() {
        let pointer = handle.pointer
        var backoff = Backoff(
            initial: .milliseconds(Int64(options.reconnectDelay.lowerBound * 1000)),
            maximum: .milliseconds(Int64(options.reconnectDelay.upperBound * 1000)))
        var first = true
        while !stopRequested {
            let rc =
                first
                ? mosquitto_connect_async(pointer, options.host, Int32(options.port), Int32(options.keepaliveSeconds))
                : mosquitto_reconnect_async(pointer)
            first = false
            var failure = MosquittoError(code: rc, operation: "connect to \(options.host):\(options.port)")
            if rc == 0 {
                state.withLock { $0.connectedSinceAttempt = false }
                let attemptStarted = ContinuousClock.now
                var loopRC: Int32 = 0
                repeat {
                    // Publishes from other threads wake the loop through libmosquitto's socket pair, so a long
                    // timeout costs no latency; it only bounds how often an idle bridge wakes up.
                    loopRC = mosquitto_loop(pointer, stopRequested ? 50 : 1000, 1)
                    processControlEvents()
                    if let deadline = state.withLock({ $0.stopDeadline }),
                        !isConnected || ContinuousClock.now >= deadline
                    {
                        break
                    }
                    guard loopRC == 0, !state.withLock({ $0.connectedSinceAttempt }) else { continue }
                    // libmosquitto retries a failed non-blocking TLS connect forever without sleeping, so a
                    // refused or silent broker is detected here instead of spinning.
                    if let reason = pendingSocketError() {
                        failure = MosquittoError(code: rc, operation: "connect to \(options.host):\(options.port)", reason: reason)
                        break
                    }
                    if ContinuousClock.now - attemptStarted > .seconds(15) {
                        failure = MosquittoError(code: rc, operation: "connect to \(options.host):\(options.port)", reason: "no answer within 15 s")
                        break
                    }
                } while loopRC == 0
                if loopRC != 0 {
                    failure = MosquittoError(code: loopRC, operation: "connection to \(options.host):\(options.port)")
                }
                if state.withLock({ $0.connectedSinceAttempt }) { backoff.reset() }
            }
            if stopRequested { break }
            let delay = backoff.next()
            logger.warning(
                "MQTT connection failed; retrying",
                metadata: ["error": "\(failure)", "retry_in": "\(DecimalText.string(delay.inSeconds, maxFractionDigits: 2))s"])
            sleepUnlessStopped(seconds: delay.inSeconds)
        }
        processControlEvents()
    }

    /// A connect that failed at the socket level (refused, unreachable): the socket hung up without ever
    /// getting a peer. Plain connects report this through the loop; TLS connects do not.
    private func pendingSocketError() -> String? {
        let fd = mosquitto_socket(handle.pointer)
        guard fd >= 0 else { return nil }
        var events = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&events, 1, 0) == 1, events.revents & Int16(POLLHUP | POLLERR) != 0 else { return nil }
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let connected = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) == 0 }
        }
        guard !connected else { return nil }
        var error: Int32 = 0
        var errorLength = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &errorLength)
        return error != 0 ? String(cString: strerror(error)) : "connection refused or reset"
    }

    /// Asks the network thread to end after flushing a DISCONNECT, giving up after `limit`.
    func requestStop(within limit: Duration) {
        state.withLock { state in
            state.stopRequested = true
            let deadline = ContinuousClock.now + max(limit, .zero)
            state.stopDeadline = min(state.stopDeadline ?? deadline, deadline)
        }
        mosquitto_disconnect(handle.pointer)
    }

    var stopRequested: Bool { state.withLock { $0.stopRequested } }

    private func sleepUnlessStopped(seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, !stopRequested { usleep(20_000) }
    }
}
