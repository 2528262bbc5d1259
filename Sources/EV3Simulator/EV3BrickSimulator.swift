public import EV3Protocol
public import Logging
import Synchronization

/// Something wrong the simulated brick can be told to do.
public enum EV3SimulatorFault: Sendable, Hashable {
    /// Behave.
    case none
    /// Read frames but never run or answer them, like a hung brick.
    case stall
    /// Answer each command this much later (after it ran).
    case delay(Duration)
    /// Answer with bytes no brick sends: a length field beyond the message buffer.
    case garbage
    /// Answer with the counter of another message.
    case wrongCounter
}

/// A LEGO EV3 brick on stock firmware, in process, for demos, tests and the benchmark. It speaks the direct
/// command protocol as the firmware does: it validates a whole command before running any of it (one
/// unknown opcode or unaligned global, and the answer is `04` with nothing done), runs one command at a
/// time, lets blocking opcodes block everything behind them, never answers `80` commands, never clears its
/// reply memory, and answers reads of empty ports with the NaN sentinels. Motors turn while they run;
/// sensors sit on ports with settable readings. Over WiFi (beacon, unlock, TCP), a pseudo-terminal, or a
/// descriptor that keeps report boundaries (USB).
public final class EV3BrickSimulator: Sendable {
    let brick: Mutex<SimBrick>
    let control = Mutex(Control())
    let logger: Logger

    struct Control {
        var fault = EV3SimulatorFault.none
        var received: [[UInt8]] = []
        /// When each of `received` arrived.
        var arrivals: [ContinuousClock.Instant] = []
        var replies: [[UInt8]] = []
        var printFrames = false
        var poweredOff = false
        /// Bumped to close every open connection.
        var dropGeneration = 0
        var stopping = false
        var beaconAnswers = 0
        var servers: [SimThread] = []
    }

    /// Frames and replies kept for inspection, the oldest dropped beyond this.
    static let historyLimit = 10_000

    /// A brick built as `setup` says.
    public init(setup: EV3SimulatorSetup = EV3SimulatorSetup(), logger: Logger = Logger(label: "ev3-simulator")) {
        brick = Mutex(SimBrick(setup))
        self.logger = logger
    }

    /// Stops every transport and closes every connection.
    public func stop() {
        let servers = control.withLock { control in
            control.stopping = true
            defer { control.servers = [] }
            return control.servers
        }
        for server in servers { server.stop() }
    }

    // MARK: Inspection

    /// Every frame received, oldest first, exactly as it arrived.
    public func receivedFrames() -> [[UInt8]] { control.withLock { $0.received } }
    /// Every reply sent, oldest first.
    public func sentReplies() -> [[UInt8]] { control.withLock { $0.replies } }
    /// Every frame received since `index` (counting from the oldest kept) with the moment it was read, for
    /// latency figures.
    public func frameArrivals(from index: Int = 0) -> [(frame: [UInt8], at: ContinuousClock.Instant)] {
        control.withLock { control in
            guard index < control.received.count else { return [] }
            return Array(zip(control.received[index...], control.arrivals[index...]))
        }
    }

    /// Forgets the recorded frames and replies.
    public func clearFrames() { control.withLock { $0.received = []; $0.arrivals = []; $0.replies = [] } }
    /// LED, sound and name changes, oldest first.
    public func events() -> [EV3SimulatorEvent] { brick.withLock { $0.events } }
    /// How many beacon answers came back.
    public var beaconAnswers: Int { control.withLock { $0.beaconAnswers } }
    /// The brick's current name.
    public var name: String { brick.withLock { $0.name } }
    /// The LED pattern now.
    public var led: Int8 { brick.withLock { $0.led } }

    /// A motor's speed (percent), tacho count (degrees) and whether a timed or stepped move is going, now.
    public func motor(_ port: EV3OutputPort) -> (speed: Int8, tacho: Int32, busy: Bool) {
        brick.withLock { brick in
            brick.advance(to: .now)
            let motor = brick.motors[Int(port.rawValue)]
            return (motor.speed, Int32(clamping: Int(motor.tacho.rounded(.towardZero))), motor.isBusy)
        }
    }

    /// Polls every 10 ms until `count` received frames satisfy `predicate`; returns them.
    public func waitForFrames(
        count: Int, where predicate: @Sendable ([UInt8]) -> Bool = { _ in true }, timeout: Duration = .seconds(5)
    ) async throws -> [[UInt8]] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let matched = receivedFrames().filter(predicate)
            if matched.count >= count { return matched }
            guard ContinuousClock.now < deadline else { throw EV3SimulatorError.timedOut(expected: count, matched: matched.count) }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    // MARK: Control

    /// Makes the brick misbehave (or behave again).
    public func setFault(_ fault: EV3SimulatorFault) { control.withLock { $0.fault = fault } }

    /// Logs every frame and reply at info level (for `things2mqtt-sim ev3 --print-frames`).
    public func setPrintFrames(_ on: Bool) { control.withLock { $0.printFrames = on } }

    /// Closes every open connection, as switching the brick off does; `poweredOff` keeps new ones out.
    public func setPoweredOff(_ off: Bool) {
        control.withLock { control in
            control.poweredOff = off
            if off { control.dropGeneration += 1 }
        }
    }

    /// Closes every open connection; the brick stays on and takes the next one.
    public func dropConnections() { control.withLock { $0.dropGeneration += 1 } }

    /// Holds a brick button down, or lets it go.
    public func setButton(_ button: EV3Button, pressed: Bool) {
        brick.withLock { brick in
            if pressed { brick.buttons.insert(button) } else { brick.buttons.remove(button) }
        }
    }

    /// Plugs a sensor into port 1–4 (`noDevice` unplugs it); INPUT_DEVICE_LIST reports the change.
    public func plug(_ type: EV3DeviceType, intoSensorPort port: Int) {
        guard (1...4).contains(port) else { return }
        brick.withLock { brick in
            brick.sensors[port - 1] = EV3SimulatedSensor(type)
            brick.devicesChanged = true
        }
    }

    /// Plugs a motor into port A–D (`noDevice` unplugs it).
    public func plug(_ type: EV3DeviceType, intoMotorPort port: EV3OutputPort) {
        brick.withLock { brick in
            brick.motors[Int(port.rawValue)] = SimMotor(type: type)
            brick.devicesChanged = true
        }
    }

    /// Sets what the sensor on port 1–4 reads in `mode` (SI units).
    public func setSensorValues(port: Int, mode: Int8, _ values: [Float]) {
        guard (1...4).contains(port) else { return }
        brick.withLock { brick in
            guard var sensor = brick.sensors[port - 1], sensor.values.indices.contains(Int(mode)) else { return }
            sensor.values[Int(mode)] = values
            brick.sensors[port - 1] = sensor
        }
    }

    /// Makes every read of sensor port 1–4 fail the command that holds it (`04`, nothing done), as a device
    /// the firmware cannot read does; or read normally again.
    public func setReadsFail(sensorPort port: Int, _ failing: Bool) {
        guard (1...4).contains(port) else { return }
        brick.withLock { brick in
            if failing { brick.failingPorts.insert(Int32(port - 1)) } else { brick.failingPorts.remove(Int32(port - 1)) }
        }
    }

    /// The sensor on port 1–4, or nil.
    public func sensor(port: Int) -> EV3SimulatedSensor? {
        (1...4).contains(port) ? brick.withLock { $0.sensors[port - 1] } : nil
    }

    /// Registers a transport's thread so `stop()` ends it; stops it at once if the simulator already stopped.
    func adopt(_ server: SimThread) {
        let stopped = control.withLock { control in
            if !control.stopping { control.servers.append(server) }
            return control.stopping
        }
        if stopped { server.stop() }
    }
}
