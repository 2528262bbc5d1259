/// How frames travel on a descriptor.
enum Framing: Sendable {
    /// A byte stream (TCP, RFCOMM, a tty): frames are reassembled by their length field whatever the reads
    /// look like.
    case stream
    /// USB HID reports: one frame per report, each read one whole report.
    case reports
}

