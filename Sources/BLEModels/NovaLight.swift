public import BridgeCore

/// The SDK presets a Nova light offers as effects.
public enum NovaPreset: String, Sendable, Hashable, CaseIterable {
    case gentle, warm, bright, neutral

    /// The preset's warm and cool duties.
    public var pwm: (warm: UInt8, cool: UInt8) {
        switch self {
        case .gentle: (0x7F, 0x00)
        case .warm: (0xFF, 0x00)
        case .bright: (0xFF, 0xFF)
        case .neutral: (0x7F, 0x7F)
        }
    }

    /// Every preset runs with the SDKs' 1500 ms timeout.
    public var timeout: UInt16 { NovaLight.defaultTimeout }
}

/// What a Nova flash looks like to the bridge: its exposes and how long a lit state lasts.
public enum NovaLight {
    /// The flash's own timeout when none is configured: the SDKs' 1500 ms (`05DC`).
    public static let defaultTimeout: UInt16 = 1500
    /// The timeouts the `timeout` attribute accepts, in milliseconds. The floor keeps renewals (every two thirds
    /// of it) from crowding the link; the ceiling is what the frame's four hex digits hold.
    public static let timeoutRange: ClosedRange<UInt16> = 500...UInt16.max

    /// A JSON light with brightness and colour temperature, the presets as effects, no transitions.
    public static let features = LightFeatures(
        colorModes: [.colorTemp], brightness: true, kelvinRange: NovaMix.kelvinRange,
        effects: NovaPreset.allCases.map(\.rawValue), transition: false)

    /// The light and its writable `timeout` (ms): how long the flash stays lit if the bridge stops renewing it.
    public static let exposes: [Expose] = [
        .light(features),
        .numeric(
            "timeout", name: "Timeout", access: [.state, .set], unit: "ms",
            range: Double(timeoutRange.lowerBound)...Double(timeoutRange.upperBound), step: 1, category: .config),
    ]

    /// How often a lit flash is renewed: at two thirds of its timeout, so a renewal that is written a little late
    /// still lands before the flash goes dark by itself.
    public static func renewalInterval(timeout: UInt16) -> Duration {
        .milliseconds(Int(timeout) * 2 / 3)
    }

    /// When to renew a lit flash whose last frame went out at `sent`; the clock starts at sending, not at the
    /// ack, because the flash starts its own timer on receipt, which is never earlier.
    public static func nextRenewal<Instant: InstantProtocol>(after sent: Instant, timeout: UInt16) -> Instant
    where Instant.Duration == Duration {
        sent.advanced(by: renewalInterval(timeout: timeout))
    }
}
