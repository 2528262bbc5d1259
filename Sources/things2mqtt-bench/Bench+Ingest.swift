import Harness

extension Bench {
    /// Advert ingest: the C sender's bursts for 100 devices, taken by the bare C receiver and by the daemon.
    func ingest(_ broker: Broker) async throws {
        let tools = try await BareC.build()
        defer { tools.directory.remove() }
        let kinds: [(AdvertIngest.Kind, String)] = [
            (.rssi, "RSSI only, devices admitted by a ble.connect rule"),
            (.pvvx, "RSSI and pvvx service data, passive thermometers, each advert a new temperature"),
            (.mibeacon, "RSSI and encrypted MiBeacon v5 temperatures, decrypted with each device's bindkey"),
        ]
        let chosen = Set(ingestKinds.split(separator: ",").map { String($0).filter { !$0.isWhitespace } })
        let unknown = chosen.subtracting(kinds.map(\.0.rawValue))
        guard unknown.isEmpty else { throw BenchError("unknown ingest kinds: \(unknown.sorted()); known: rssi, pvvx, mibeacon") }
        let trialCount = max(1, ingestTrials)
        for (kind, what) in kinds where chosen.contains(kind.rawValue) {
            print("BLE advert ingest, 100 devices, \(what); the C sender owns org.bluez on a private bus;")
            print("  bare C libdbus receiver and daemon (until every device's final value is published) each alone on the bus;")
            print("  the sender's rate is how fast the bus takes the burst in, so the bus bounds the bare receiver too:")
            print("  each burst size \(trialCount) times, bare and daemon in turn; the trial with the median ratio is shown:")
            for count in [20_000, 100_000] {
                var trials: [AdvertIngest.Figures] = []
                for _ in 0..<trialCount { trials.append(try await AdvertIngest(broker: broker, tools: tools, kind: kind).run(count: count)) }
                // One run's ratio swings by tens of percent with what else the two cores do at that moment.
                trials.sort { $0.ratio < $1.ratio }
                let run = trials[trials.count / 2]
                print(
                    String(
                        format: "  %6d signals: sender %.0f/s (bare run) %.0f/s (daemon run); bare C %.0f/s; daemon %.0f/s (%.0f %% of bare C, %d state messages, %@ signals dropped)",
                        count, run.senderForBare, run.senderForDaemon, run.bare, run.daemon, run.ratio, run.published,
                        run.dropped == 0 ? "no" : "≥\(run.dropped)"))
                print(
                    String(
                        format: "          CPU per 1,000 signals: daemon %.4f s (its D-Bus thread %.4f s, MQTT thread %.4f s), bare C %.4f s; daemon RSS %.1f MiB before, %.1f MiB peak, %.1f MiB after (%d s later)",
                        run.daemonCPU, run.dbusThreadCPU, run.mqttThreadCPU, run.bareCPU, run.rssBefore, run.rssPeak, run.rssAfter,
                        Int(settleBeforeRSS.components.seconds)))
                print(
                    String(
                        format: "          after the sender's last signal: bare C had every signal in %.1f ms; the daemon had published every final value in %.1f ms",
                        run.bareTail, run.daemonTail))
                let all = trials.map { String(format: "%.0f %%", $0.ratio) }.joined(separator: ", ")
                let dropped = trials.map(\.dropped).max() ?? 0
                let peak = trials.map(\.rssPeak).max() ?? .nan
                print(
                    String(
                        format: "          all trials: %@ of bare C; daemon CPU per 1,000 %.4f–%.4f s; peak RSS up to %.1f MiB; %@ signals dropped in any",
                        all, trials.map(\.daemonCPU).min() ?? .nan, trials.map(\.daemonCPU).max() ?? .nan, peak,
                        dropped == 0 ? "no" : "≥\(dropped)"))
            }
        }
    }

    /// Advert ingest under sustained load: each rate from the C sender, paced, for the bare receiver and the daemon.
    func sustained(_ broker: Broker) async throws {
        let tools = try await BareC.build()
        defer { tools.directory.remove() }
        let rates = sustainedRates.split(separator: ",").compactMap { Int($0.filter { !$0.isWhitespace }) }
        guard !rates.isEmpty, rates.allSatisfy({ $0 > 0 }) else { throw BenchError("--sustained-rates: positive numbers, comma-separated") }
        print("BLE advert ingest under sustained load, default config: \(SustainedIngest.devices) pvvx thermometers (values steady, RSSI moving)")
        print("  paced by the C sender for \(sustainedSeconds) s per rate, a probe every 250 ms (a BTHome button press, or a new")
        print("  temperature of one of ten probe thermometers), timed from the sender's write to the MQTT message; the daemon's")
        print("  CPU (after the devices appeared and \(SustainedIngest.warmUp) more) against the bare C libdbus receiver's on the same feed:")
        for rate in rates {
            let run = try await SustainedIngest(broker: broker, tools: tools, rate: rate, seconds: sustainedSeconds).run()
            print(
                String(
                    format: "  %6d/s: sender %.0f/s (bare run) %.0f/s (daemon run); CPU bare C %.3f s/s, daemon %.3f s/s (%.2f ×); %@ signals dropped",
                    rate, run.senderRateBare, run.senderRateDaemon, run.bareCPU, run.daemonCPU, run.cpuRatio,
                    run.dropped == 0 ? "no" : "≥\(run.dropped)"))
            print(
                String(
                    format: "          button press to …/event: p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d timed, %d missing)",
                    run.button.percentile(50), run.button.percentile(99), run.button.values.max() ?? .nan, run.button.values.count,
                    run.buttonMissing))
            print(
                String(
                    format: "          new value to state: p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d timed, %d missing); daemon RSS %.1f MiB, peak %.1f MiB",
                    run.value.percentile(50), run.value.percentile(99), run.value.values.max() ?? .nan, run.value.values.count,
                    run.valueMissing, run.rss, run.rssPeak))
            print("          daemon CPU by thread (s/s): " + run.threads.prefix(5).map { String(format: "%@ %.3f", $0.name, $0.cpu) }.joined(separator: ", "))
        }
    }
}
