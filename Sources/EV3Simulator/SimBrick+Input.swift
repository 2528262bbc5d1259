import EV3Protocol

/// The firmware's "no value" bytes: an empty or bad port is not an error, its reads give these.
enum SimSentinel {
    static let int8: [UInt8] = [0x80]
    static let int32: [UInt8] = [0x00, 0x00, 0x00, 0x80]
    static let float: [UInt8] = littleEndian(Int32(bitPattern: Float.nan.bitPattern), bytes: 4)
}

extension SimBrick {
    /// The input opcodes (`99 …`, `98`, `9A`, `9D`). A read of a port set to fail (`failingPorts`) ends the
    /// command with an error, as a device that cannot be read does.
    mutating func input(_ name: String, _ args: [SimArgument], locals: inout [UInt8]) -> SimStep {
        func number(_ index: Int) -> Int32 { read(args[index], width: 1, locals: locals) }
        let reads = ["READY_PCT", "READY_RAW", "READY_SI", "INPUT_READ", "INPUT_READSI"]
        if reads.contains(name), number(0) == 0, failingPorts.contains(number(1)) { return .failed }
        switch name {
        case "GET_TYPEMODE":
            let device = device(layer: number(0), port: number(1))
            store([UInt8(bitPattern: device?.type.rawValue ?? EV3DeviceType.noDevice.rawValue)], args[2], locals: &locals)
            store([UInt8(bitPattern: device?.mode ?? 0)], args[3], locals: &locals)
        case "GET_NAME":
            let device = device(layer: number(0), port: number(1))
            let text = device.map { $0.names.indices.contains(Int($0.mode)) ? $0.names[Int($0.mode)] : "" } ?? "NONE"
            storeText(text, length: number(2), args[3], locals: &locals)
        case "GET_MODENAME":
            let names = device(layer: number(0), port: number(1))?.names ?? []
            let mode = Int(number(2))
            storeText(names.indices.contains(mode) ? names[mode] : "", length: number(3), args[4], locals: &locals)
        case "READY_PCT", "READY_RAW", "READY_SI":
            ready(name, args, locals: &locals)
        case "INPUT_READ", "INPUT_READSI":
            let selected = select(layer: number(0), port: number(1), type: number(2), mode: number(3))
            let device = selected ? device(layer: number(0), port: number(1)) : nil
            let value = device?.values.first
            if name == "INPUT_READ" {
                store(value.map { [UInt8(bitPattern: EV3SimulatedSensor.percent($0, type: device!.type))] } ?? SimSentinel.int8, args[4], locals: &locals)
            } else {
                store(value.map(float) ?? SimSentinel.float, args[4], locals: &locals)
            }
        case "INPUT_DEVICE_LIST":
            let count = max(0, Int(number(0)))
            let types = (0..<count).map { index -> UInt8 in
                UInt8(bitPattern: device(layer: 0, port: Int32(index))?.type.rawValue ?? EV3DeviceType.noDevice.rawValue)
            }
            store(types, args[1], locals: &locals)
            store([devicesChanged ? 1 : 0], args[2], locals: &locals)
            devicesChanged = false
        case "CLR_CHANGES":
            let port = Int(number(1))
            if number(0) == 0, (0..<4).contains(port) { clearBumps(port) }
        case "CLR_ALL":
            for port in 0..<4 { clearBumps(port) }
        default: break  // STOP_ALL: stops what sensors do on their own, which the simulator's do not
        }
        return .done
    }

    /// READY_PCT/RAW/SI: LAYER NO TYPE MODE VALUES, then one output per value.
    private mutating func ready(_ name: String, _ args: [SimArgument], locals: inout [UInt8]) {
        func number(_ index: Int) -> Int32 { read(args[index], width: 1, locals: locals) }
        let selected = select(layer: number(0), port: number(1), type: number(2), mode: number(3))
        let device = selected ? device(layer: number(0), port: number(1)) : nil
        for (index, output) in args.dropFirst(5).enumerated() {
            let value = device.flatMap { $0.values.indices.contains(index) ? $0.values[index] : nil }
            let bytes: [UInt8]
            switch name {
            case "READY_PCT": bytes = value.map { [UInt8(bitPattern: EV3SimulatedSensor.percent($0, type: device!.type))] } ?? SimSentinel.int8
            case "READY_RAW": bytes = value.map { littleEndian(Int32(clamping: Int($0.rounded())), bytes: 4) } ?? SimSentinel.int32
            default: bytes = value.map(float) ?? SimSentinel.float
            }
            store(bytes, output, locals: &locals)
        }
    }

    private mutating func clearBumps(_ port: Int) {
        guard sensors[port]?.type == .touch, sensors[port]?.values.count ?? 0 > 1 else { return }
        sensors[port]?.values[1] = [0]
    }
}
