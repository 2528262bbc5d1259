/// The EV3's USB reports as Linux hidraw passes them (`hidraw.rst`; hidapi's convention): a write is the report
/// number (0, the brick uses none) and the 1024-byte report, the frame at its start and zeros after; a read is
/// the 1024-byte report alone, the frame at its start and whatever the brick left after it.
public enum EV3USBReport {
    /// Bytes written per output report: the report number and the report.
    public static let outputSize = 1025
    /// Bytes read per input report.
    public static let inputSize = 1024

    /// The output report carrying `frame` (at most 1024 bytes, as every frame is).
    public static func output(_ frame: [UInt8]) -> [UInt8] {
        var report = [UInt8](repeating: 0, count: outputSize)
        report.replaceSubrange(1..<1 + min(frame.count, inputSize), with: frame.prefix(inputSize))
        return report
    }

    /// The frame at the start of an input report; nil when its length field is not one a brick sends or the
    /// report is shorter than the frame it announces.
    public static func frame(in report: [UInt8]) -> [UInt8]? {
        guard report.count >= 2 else { return nil }
        let length = Int(report[0]) | Int(report[1]) << 8
        guard EV3Framer.lengths.contains(length), report.count >= 2 + length else { return nil }
        return Array(report.prefix(2 + length))
    }
}
