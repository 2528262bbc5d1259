import EV3Protocol

/// A motor port: the attached motor (or none) and its motion. The tacho count advances with time while the
/// motor runs, computed when it is looked at, so nothing ticks in the background.
struct SimMotor {
    /// How a motion ends.
    enum Limit {
        /// Runs until stopped.
        case none
        /// A TIME_* move: stops at this instant.
        case until(ContinuousClock.Instant)
        /// A STEP_* move: stops after this many more degrees.
        case degrees(Double)
    }

    struct Run {
        var value: Int
        var since: ContinuousClock.Instant
        var limit: Limit
    }

    /// `largeMotor`, `mediumMotor`, or `noDevice` for an empty port.
    var type: EV3DeviceType
    /// Degrees turned since the count was last cleared.
    var tacho: Double = 0
    /// The power or speed set by OUTPUT_POWER/OUTPUT_SPEED, used by OUTPUT_START.
    var setPoint = 0
    /// 1 forward, −1 reversed.
    var polarity = 1
    var running: Run?
    /// The mode the port reports when read as a sensor: 0 degrees, 1 rotations, 2 speed.
    var sensorMode: Int8 = 0

    /// Degrees per second at 100 %: about 170 rpm for the large motor, 260 rpm for the medium one.
    var fullSpeed: Double { type == .mediumMotor ? 1560 : 1050 }

    /// Degrees per second at `value` percent, with the polarity applied.
    func rate(_ value: Int) -> Double { Double(value) / 100 * fullSpeed * Double(polarity) }

    /// Brings the tacho count up to `now` and ends a timed or stepped move that is over.
    mutating func advance(to now: ContinuousClock.Instant) {
        guard var run = running, type.isMotor else { return }
        let rate = rate(run.value)
        switch run.limit {
        case .none:
            tacho += rate * seconds(now - run.since)
        case .until(let end):
            tacho += rate * seconds(min(now, end) - run.since)
            if now >= end {
                running = nil
                return
            }
        case .degrees(let remaining):
            let travelled = abs(rate) * seconds(now - run.since)
            if travelled >= remaining, rate != 0 {
                tacho += rate < 0 ? -remaining : remaining
                running = nil
                return
            }
            tacho += rate * seconds(now - run.since)
            run.limit = .degrees(remaining - travelled)
        }
        run.since = now
        running = run
    }

    /// Speed in percent now, 0 when still.
    var speed: Int8 { running.map { Int8(clamping: $0.value * polarity) } ?? 0 }

    /// Whether a timed or stepped move is still going (what OUTPUT_TEST and OUTPUT_READY look at).
    var isBusy: Bool {
        guard let running else { return false }
        if case .none = running.limit { return false }
        return true
    }

    /// Starts a motion at `value` percent.
    mutating func start(_ value: Int, limit: Limit, at now: ContinuousClock.Instant) {
        advance(to: now)
        running = Run(value: value, since: now, limit: limit)
    }

    /// Stops at once.
    mutating func stop(at now: ContinuousClock.Instant) {
        advance(to: now)
        running = nil
    }

    /// The values the port gives when read as a sensor in its current mode.
    var sensorValues: [Float] {
        switch sensorMode {
        case 1: [Float(tacho / 360)]
        case 2: [Float(speed)]
        default: [Float(tacho.rounded(.towardZero))]
        }
    }
}

/// A duration in seconds.
func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
