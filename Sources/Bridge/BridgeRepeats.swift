import BridgeCore
import FoundationEssentials
import Logging
import Support

/// Floods stay readable: repeated warnings and `bridge/event`s of one kind from one source are let through a
/// few at a time and summarised per window, so journald's rate limit never hides the line that matters.
extension BridgeService {
    /// Logs a warning unless this kind from this source already filled its window; then it is counted.
    func warnRepeated(
        _ kind: String, source: String, _ message: String, metadata: Logger.Metadata = [:], count: Int = 1
    ) {
        let now = ContinuousClock.now
        let passed = summarizer.admit(.init(kind: kind, source: source), count: count, at: now)
        // Many sources at once (random topics) are capped together as well.
        if passed > 0, summarizer.admit(.init(kind: kind, source: Self.allSources), count: passed, burst: 50, at: now) > 0 {
            logger.warning("\(message)", metadata: metadata)
        }
        scheduleSummaries()
    }

    /// Publishes a `bridge/event` unless this type from this source already filled its window.
    func publishRepeatedEvent(_ type: String, source: String, _ data: [String: JSONValue]) {
        let now = ContinuousClock.now
        let kind = Self.eventKind + type
        let passed = summarizer.admit(.init(kind: kind, source: source), at: now)
        if passed > 0, summarizer.admit(.init(kind: kind, source: Self.allSources), count: passed, burst: 50, at: now) > 0 {
            publishEvent(type, data)
        }
        scheduleSummaries()
    }

    /// Broker messages the inbox refused at the door: logged per topic, summarised like any other repeat.
    func reportRefusals(_ refusals: [InboxRefusal]) {
        for refusal in refusals {
            refusedMessages += refusal.count
            let source = refusal.topic ?? "other topics"
            warnRepeated(
                "refused messages", source: source, "MQTT messages refused: \(refusal.reason.rawValue)",
                metadata: ["mqtt.topic": "\(source)", "count": "\(refusal.count)"], count: refusal.count)
        }
    }

    /// Emits the summaries that fell due and schedules the next flush.
    func flushSummaries() {
        summaryFlushScheduled = false
        for summary in summarizer.due(at: .now) {
            let seconds = summary.window.inSeconds
            if summary.key.kind.hasPrefix(Self.eventKind) {
                publishEvent(
                    "events_suppressed",
                    [
                        "event": .string(String(summary.key.kind.dropFirst(Self.eventKind.count))),
                        "source": .string(summary.key.source), "count": .number(Double(summary.suppressed)),
                        "seconds": .number(seconds),
                    ])
            } else {
                logger.warning(
                    "… \(summary.suppressed) more \(summary.key.kind) for \(summary.key.source) in the last \(DecimalText.string(seconds, maxFractionDigits: 1)) s")
            }
        }
        scheduleSummaries()
    }

    private func scheduleSummaries() {
        guard !summaryFlushScheduled, let due = summarizer.nextDue else { return }
        summaryFlushScheduled = true
        schedule(.flushSummaries, after: max(due - .now, .milliseconds(1)))
    }

    private static let eventKind = "event:"
    private static let allSources = "all sources together"
}
