// Brick instructions without results: LED, sound, name, sensor housekeeping. SOUND_READY (`96`) and the
// button waits are left out on purpose: they block every channel of the brick until they end.

extension EV3Instruction {
    /// LED (`82 1B`): the brick's light pattern.
    public static func led(_ pattern: EV3LEDPattern) -> Self {
        Self("LED", [.code(0x82), .code(0x1B), .int8(pattern.rawValue)])
    }

    /// TONE (`94 01`): a tone at `volume` 0–100 %, `frequency` 250–10000 Hz (the sound driver's range)
    /// for `milliseconds` 0–32767.
    public static func tone(volume: Int, frequency: Int, milliseconds: Int) throws(EV3EncodingError) -> Self {
        let volume = try checked(volume, 0...100, "TONE volume")
        let frequency = try checked(frequency, 250...10_000, "TONE frequency")
        let duration = try checked(milliseconds, 0...Int(Int16.max), "TONE duration")
        let arguments: [EV3Part] = [.int8(Int8(volume)), .int16(Int16(frequency)), .int16(Int16(duration))]
        return Self("TONE", [.code(0x94), .code(0x01)] + arguments)
    }

    /// PLAY (`94 02`): a sound file on the brick, named without `.rsf`, relative to `lms2012/sys`.
    public static func playSound(volume: Int, file: String) throws(EV3EncodingError) -> Self {
        try sound("PLAY", 0x02, volume: volume, file: file)
    }

    /// REPEAT (`94 03`): a sound file played in a loop until BREAK.
    public static func repeatSound(volume: Int, file: String) throws(EV3EncodingError) -> Self {
        try sound("REPEAT", 0x03, volume: volume, file: file)
    }

    /// BREAK (`94 00`): stop any tone or sound.
    public static var stopSound: Self { Self("BREAK", [.code(0x94), .code(0x00)]) }

    /// SET_BRICKNAME (`D4 08`): rename the brick, 1–12 bytes.
    public static func setBrickName(_ name: String) throws(EV3EncodingError) -> Self {
        let name = try string(name, "SET_BRICKNAME name", maxBytes: 12)
        return Self("SET_BRICKNAME", [.code(0xD4), .code(0x08), .string(name)])
    }

    /// CLR_CHANGES (`99 1A`): reset a port's change counters (touch bumps and the like).
    public static func inputClearChanges(_ port: EV3InputPort) -> Self {
        Self("CLR_CHANGES", [.code(0x99), .code(0x1A), layer, port.part])
    }

    /// CLR_ALL (`99 0A`): reset every port's change counters.
    public static var inputClearAll: Self { Self("CLR_ALL", [.code(0x99), .code(0x0A), layer]) }

    /// opNOP (`01`): does nothing.
    public static var nop: Self { Self("NOP", [.code(0x01)]) }

    /// opERROR (`00`): ends the command with an error status, so the reply is `04`; for tests.
    public static var error: Self { Self("ERROR", [.code(0x00)]) }

    private static func sound(
        _ name: String, _ command: UInt8, volume: Int, file: String
    ) throws(EV3EncodingError) -> Self {
        let volume = try checked(volume, 0...100, "\(name) volume")
        // vmFILENAMESIZE is 120 bytes including the NUL.
        let file = try string(file, "\(name) file", maxBytes: 119)
        return Self(name, [.code(0x94), .code(command), .int8(Int8(volume)), .string(file)])
    }

    private static func string(_ text: String, _ what: String, maxBytes: Int) throws(EV3EncodingError) -> String {
        let count = text.utf8.count
        guard count > 0 else { throw .invalidString(what, reason: "empty") }
        guard count <= maxBytes else { throw .invalidString(what, reason: "\(count) bytes, more than \(maxBytes)") }
        guard !text.utf8.contains(0) else { throw .invalidString(what, reason: "contains a NUL byte") }
        return text
    }
}
