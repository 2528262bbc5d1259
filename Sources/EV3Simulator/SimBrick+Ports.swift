import EV3Protocol

extension SimBrick {
    /// The output opcodes; LAYER other than 0 names a daisy-chained brick that is not there, so nothing moves.
    mutating func output(
        _ name: String, _ args: [SimArgument], locals: inout [UInt8], now: ContinuousClock.Instant
    ) -> SimStep {
        func number(_ index: Int, width: Int = 1) -> Int32 { read(args[index], width: width, locals: locals) }
        let onThisBrick = number(0) == 0
        let selected = (0..<4).filter { onThisBrick && number(1) & (1 << $0) != 0 }
        switch name {
        case "OUTPUT_READ":
            let index = Int(number(1))
            let motor = onThisBrick && (0..<4).contains(index) ? motors[index] : nil
            store([UInt8(bitPattern: motor?.speed ?? 0)], args[2], locals: &locals)
            store(littleEndian(Int32(clamping: Int((motor?.tacho ?? 0).rounded(.towardZero))), bytes: 4), args[3], locals: &locals)
        case "OUTPUT_GET_COUNT":
            let index = Int(number(1))
            let tacho = onThisBrick && (0..<4).contains(index) ? motors[index].tacho : 0
            store(littleEndian(Int32(clamping: Int(tacho.rounded(.towardZero))), bytes: 4), args[2], locals: &locals)
        case "OUTPUT_TEST":
            store([selected.contains { motors[$0].isBusy } ? 1 : 0], args[2], locals: &locals)
        case "OUTPUT_READY":
            return selected.contains { motors[$0].isBusy } ? .blocked : .done
        case "OUTPUT_POWER", "OUTPUT_SPEED":
            for index in selected {
                motors[index].setPoint = Int(number(2))
                // A motor already running follows a new set-point at once.
                if let run = motors[index].running, case .none = run.limit {
                    motors[index].start(Int(number(2)), limit: .none, at: now)
                }
            }
        case "OUTPUT_START":
            for index in selected { motors[index].start(motors[index].setPoint, limit: .none, at: now) }
        case "OUTPUT_STOP":
            for index in selected { motors[index].stop(at: now) }
        case "OUTPUT_CLR_COUNT":
            for index in selected { motors[index].tacho = 0 }
        case "OUTPUT_POLARITY":
            let polarity = number(2)
            for index in selected { motors[index].polarity = polarity == 0 ? -motors[index].polarity : (polarity < 0 ? -1 : 1) }
        case "OUTPUT_TIME_POWER", "OUTPUT_TIME_SPEED":
            let milliseconds = Int64(number(3, width: 4)) + Int64(number(4, width: 4)) + Int64(number(5, width: 4))
            for index in selected { motors[index].start(Int(number(2)), limit: .until(now + .milliseconds(milliseconds)), at: now) }
        case "OUTPUT_STEP_POWER", "OUTPUT_STEP_SPEED":
            let degrees = Double(number(3, width: 4)) + Double(number(4, width: 4)) + Double(number(5, width: 4))
            for index in selected { motors[index].start(Int(number(2)), limit: .degrees(degrees), at: now) }
        case "OUTPUT_STEP_SYNC", "OUTPUT_TIME_SYNC":
            sync(name == "OUTPUT_STEP_SYNC", selected, speed: Int(number(2)), turn: Int(number(3, width: 2)), amount: Int64(number(4, width: 4)), now: now)
        default: break  // OUTPUT_RESET: position tracking for moves, which the simulator does not keep
        }
        return .done
    }

    /// Two motors in step: the second (turn > 0) or the first (turn < 0) slowed by |turn| percent, reversed past 100.
    private mutating func sync(_ byDegrees: Bool, _ selected: [Int], speed: Int, turn: Int, amount: Int64, now: ContinuousClock.Instant) {
        for (position, index) in selected.prefix(2).enumerated() {
            let slowed = (position == 1 && turn > 0) || (position == 0 && turn < 0)
            let value = slowed ? speed * (100 - abs(turn)) / 100 : speed
            let share = speed == 0 ? 0 : Double(amount) * Double(abs(value)) / Double(abs(speed))
            let limit: SimMotor.Limit = byDegrees ? .degrees(share) : .until(now + .milliseconds(amount))
            motors[index].start(value, limit: limit, at: now)
        }
    }

    /// The device on an input port: a sensor on 0–3, a motor read as a sensor on 16–19, nothing elsewhere.
    func device(layer: Int32, port: Int32) -> (type: EV3DeviceType, mode: Int8, values: [Float], names: [String])? {
        guard layer == 0 else { return nil }
        switch port {
        case 0...3:
            return sensors[Int(port)].map { ($0.type, $0.mode, $0.current, $0.names) }
        case 16...19:
            let motor = motors[Int(port) - 16]
            guard motor.type.isMotor else { return nil }
            return (motor.type, motor.sensorMode, motor.sensorValues, ["MOTOR-DEG", "MOTOR-ROT", "MOTOR-SPEED"])
        default: return nil
        }
    }

    /// Switches a device's mode for a read that asks for another one; false when the type or mode does not fit.
    mutating func select(layer: Int32, port: Int32, type: Int32, mode: Int32) -> Bool {
        guard let device = device(layer: layer, port: port) else { return false }
        if type != 0, type != Int32(device.type.rawValue) { return false }
        if mode == -1 || mode == Int32(device.mode) { return true }
        guard (0..<Int32(device.names.count)).contains(mode) else { return false }
        if port >= 16 { motors[Int(port) - 16].sensorMode = Int8(mode) } else { sensors[Int(port)]?.mode = Int8(mode) }
        return true
    }
}
