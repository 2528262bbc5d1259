import BridgeCore
@testable import EV3Driver
import Testing

@Suite("Which bricks a WiFi beacon brings in")
struct BeaconAdmissionTests {
    static let start = ContinuousClock.now

    static func at(_ seconds: Double) -> ContinuousClock.Instant { start + .seconds(seconds) }

    /// Beacons (serial, seconds), with the permit window opened at 100 s for 60 s, and the verdicts expected.
    static let rows: [(serial: String, time: Double, verdict: BeaconAdmission.Verdict)] = [
        ("0016533f0c1e", 0, .admitted),
        ("0016533F0C1E", 1, .admitted),
        ("deadbeef0001", 2, .refused(notice: 1)),
        ("deadbeef0002", 3, .refused(notice: nil)),
        ("deadbeef0003", 99, .refused(notice: nil)),
        ("deadbeef0004", 100, .admitted),
        ("deadbeef0005", 159.9, .admitted),
        ("deadbeef0006", 160, .refused(notice: nil)),
        ("deadbeef0007", 302, .refused(notice: 4)),
        ("deadbeef0008", 303, .refused(notice: nil)),
        ("0016533f0c1e", 304, .admitted),
    ]

    @Test("configured serials always, others only in the permit window; refusals told once per five minutes")
    func verdicts() {
        var admission = BeaconAdmission(configured: [DeviceID.ev3(serial: "0016533f0c1e")])
        var verdicts: [BeaconAdmission.Verdict] = []
        for row in Self.rows {
            if row.time == 100 { admission.permit(for: .seconds(60), at: Self.at(100)) }
            verdicts.append(admission.admit(serial: row.serial, at: Self.at(row.time)))
        }
        #expect(verdicts == Self.rows.map(\.verdict))
    }

    @Test("40 forged beacons with no window and nothing configured: none admitted, one notice")
    func forged() {
        var admission = BeaconAdmission(configured: [])
        let verdicts = (0..<40).map { admission.admit(serial: String(0xdead_0000_0000 + $0, radix: 16), at: Self.at(Double($0) / 10)) }
        #expect(!verdicts.contains(.admitted))
        #expect(verdicts.filter { $0 != .refused(notice: nil) } == [.refused(notice: 1)])
    }

    @Test("a window of 0 s closes it")
    func close() {
        var admission = BeaconAdmission(configured: [])
        admission.permit(for: .seconds(60), at: Self.at(0))
        #expect(admission.permitting(at: Self.at(30)))
        admission.permit(for: .zero, at: Self.at(31))
        #expect(!admission.permitting(at: Self.at(32)))
        #expect(admission.admit(serial: "deadbeef0001", at: Self.at(32)) == .refused(notice: 1))
    }
}
