import BLEModels
import BridgeCore
import TestSupport
import Testing

@Suite("Nova PWM mapping")
struct NovaMixTests {
    /// The examples of docs/ble.md: brightness, kelvin, warm and cool duties.
    static let examples: [(Int, Int, UInt8, UInt8)] = [
        (255, 2700, 0xFF, 0x00), (255, 3000, 0xFF, 0x41), (255, 3500, 0xFF, 0xA4), (255, 3815, 0xFF, 0xFF),
        (255, 5000, 0x45, 0xFF), (255, 6500, 0x00, 0xFF), (128, 2700, 0xA0, 0x00), (128, 3500, 0xA0, 0x67),
        (128, 4000, 0x80, 0xA0), (128, 5000, 0x41, 0xA0), (64, 3500, 0x70, 0x48), (64, 5000, 0x00, 0x70),
        (1, 2700, 0x41, 0x00), (1, 3500, 0x41, 0x41), (1, 6500, 0x00, 0x41),
    ]

    @Test("brightness and colour temperature become duties (the table in docs/ble.md)", arguments: examples)
    func mapping(brightness: Int, kelvin: Int, warm: UInt8, cool: UInt8) {
        let pwm = NovaMix.pwm(brightness: brightness, kelvin: kelvin)
        #expect(pwm.warm == warm && pwm.cool == cool)
    }

    @Test(
        "a lit bank is never below 0x41, across the whole grid",
        arguments: Array(stride(from: 2700, through: 6500, by: 20)))
    func neverBelowMinimum(kelvin: Int) {
        var lastMajor: UInt8 = 0
        for brightness in 1...255 {
            let pwm = NovaMix.pwm(brightness: brightness, kelvin: kelvin)
            for duty in [pwm.warm, pwm.cool] {
                #expect(duty == 0 || duty >= NovaMix.minimumLitPWM, "\(brightness) at \(kelvin) K: \(pwm)")
            }
            let major = max(pwm.warm, pwm.cool)
            #expect(major >= lastMajor, "brightness never dims the light")
            lastMajor = major
            let state = NovaLightState(isOn: true, brightness: brightness, kelvin: kelvin)
            guard case .light(let warm, let cool, _) = state.command else {
                Issue.record("a lit state must send a light frame")
                continue
            }
            #expect((warm == 0 || warm >= 0x41) && (cool == 0 || cool >= 0x41))
        }
        #expect(NovaMix.pwm(brightness: 1, kelvin: kelvin) != NovaMix.pwm(brightness: 255, kelvin: kelvin))
    }

    @Test(
        "presets show as the brightness and colour temperature they are",
        arguments: [
            (NovaPreset.gentle, 0x7F, 0x00, 84, 2700), (.warm, 0xFF, 0x00, 255, 2700), (.bright, 0xFF, 0xFF, 255, 3815),
            (.neutral, 0x7F, 0x7F, 84, 3815),
        ])
    func presets(preset: NovaPreset, warm: UInt8, cool: UInt8, brightness: Int, kelvin: Int) {
        let state = NovaLightState().applying(LightCommand(effect: preset.rawValue))
        #expect(state.isOn && state.effect == preset)
        #expect(state.command == .light(warm: warm, cool: cool, timeout: 0x05DC))
        #expect(state.brightness == brightness && state.kelvin == kelvin)
        #expect(NovaFrame(id: 1, command: state.command).description == "(01:L,\(hex(warm)),\(hex(cool)),05DC)")
        let mixed = NovaMix.pwm(brightness: brightness, kelvin: kelvin)
        #expect(abs(Int(mixed.warm) - Int(warm)) <= 1 && abs(Int(mixed.cool) - Int(cool)) <= 1, "close to the preset")
    }
}

private func hex(_ byte: UInt8) -> String {
    let text = String(byte, radix: 16, uppercase: true)
    return text.count == 1 ? "0" + text : text
}
