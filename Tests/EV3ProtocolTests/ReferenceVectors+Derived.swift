import EV3Protocol

extension ReferenceVector {
    /// Section 5.3: derived from the encoding rules and library code. The string replies carry stale
    /// bytes after the NUL, as a brick's never-cleared reply buffer does.
    static let derived: [ReferenceVector] = [
        ReferenceVector(
            number: "8", counter: 0x2A, command: "09 00 2A 00 00 10 00 81 0A 10 60",
            reply: "13 00 2A 00 02 56 31 2E 30 39 48 00 41 42 43 44 45 46 47 48 49", value: "V1.09H"
        ) { batch in reader(batch.append(try .firmwareVersion(length: 16)), describe) },
        ReferenceVector(
            number: "8b", style: .legoev3, command: "0B 00 cc cc 00 10 00 81 0A 81 10 E1 00",
            reply: "13 00 cc cc 02 56 31 2E 30 39 48 00 00 00 00 00 00 00 00 00 00", value: "V1.09H"
        ) { batch in reader(batch.append(try .firmwareVersion(length: 16)), describe) },
        ReferenceVector(
            number: "9", counter: 0x2A, command: "08 00 2A 00 00 01 00 81 12 60", reply: "04 00 2A 00 02 64",
            value: "100"
        ) { batch in reader(batch.append(.batteryPercent), describe) },
        ReferenceVector(
            number: "10", counter: 0x2A, command: "0A 00 2A 00 00 20 00 D3 0D 81 20 60",
            reply: "23 00 2A 00 02 45 56 33 00" + String(repeating: " 72", count: 28), value: "EV3"
        ) { batch in reader(batch.append(try .brickName(length: 32)), describe) },
        ReferenceVector(
            number: "11", counter: 0x2A, replyRequested: false, command: "0D 00 2A 00 80 00 00 A4 00 06 81 32 A6 00 06"
        ) { batch in try powerAndStart(&batch) },
        ReferenceVector(
            number: "11b", style: .legoev3, replyRequested: false,
            command: "11 00 cc cc 80 00 00 A4 81 00 81 06 81 32 A6 81 00 81 06"
        ) { batch in try powerAndStart(&batch) },
        ReferenceVector(
            number: "12", counter: 0x2A, replyRequested: false, command: "09 00 2A 00 80 00 00 A3 00 06 01"
        ) { batch in
            batch.append(try .outputStop([.b, .c], brake: true))
            return nil
        },
        ReferenceVector(
            number: "13", counter: 0x2A, command: "09 00 2A 00 00 04 00 B3 00 01 60",
            reply: "07 00 2A 00 02 A6 FF FF FF",
            value: "-90"
        ) { batch in reader(batch.append(.outputGetCount(.b)), describe) },
        ReferenceVector(
            number: "13b", counter: 0x2A, command: "0D 00 2A 00 00 04 00 99 1D 00 10 07 00 01 60",
            reply: "07 00 2A 00 02 00 00 B5 42", value: "90.5"
        ) { batch in
            reader(batch.append(try .readySI(EV3OutputPort.a.asInput, type: .largeMotor, mode: 0)), describe)
        },
        ReferenceVector(
            number: "14", counter: 0x2B, command: "06 00 2B 00 00 00 00 00", reply: "03 00 2B 00 04", status: .error
        ) { batch in
            batch.append(.error)
            return nil
        },
    ]

    /// Vector 11: B and C at power 50, then started.
    static func powerAndStart(_ batch: inout EV3Batch) throws -> Reader? {
        batch.append(try .outputPower([.b, .c], power: 50))
        batch.append(try .outputStart([.b, .c]))
        return nil
    }
}
