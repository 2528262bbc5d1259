import BridgeCore

/// `bridge/logging`: the process's log lines, live and never retained, as zigbee2mqtt publishes its own. At most
/// `loggingBatch` lines go out every `loggingInterval`, so a log storm costs the broker a bounded rate; what does
/// not fit the ring's queue is counted there and reported here as one line.
extension BridgeService {
    static let loggingBatch = 20
    static let loggingInterval: Duration = .milliseconds(200)

    /// Publishes the ring's new lines until cancelled; a child task of `run()`.
    func publishLogging(from ring: LogRing) async {
        for await _ in ring.appended {
            while true {
                let (records, dropped) = ring.takePending(limit: Self.loggingBatch)
                if records.isEmpty && dropped == 0 { break }
                for record in records {
                    publishLogLine(level: record.level.rawValue, message: record.message, namespace: record.namespace)
                }
                if dropped > 0 {
                    // Not through the logger: this line would queue behind the storm it reports.
                    publishLogLine(
                        level: "warning", message: "\(dropped) log lines were not published here: too many at once (the journal has them)",
                        namespace: "bridge")
                }
                guard (try? await Task.sleep(for: Self.loggingInterval)) != nil else { return }
            }
        }
    }

    private func publishLogLine(level: String, message: String, namespace: String) {
        let line: JSONValue = ["level": .string(level), "message": .string(message), "namespace": .string(namespace)]
        publishJSON(topics.bridge + "/logging", line, retain: false, qos: 0)
    }
}
