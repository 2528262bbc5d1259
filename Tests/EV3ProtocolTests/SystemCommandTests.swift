import EV3Protocol
import TestSupport
import Testing

@Suite("EV3 system commands")
struct SystemCommandTests {
    static let prjs = Array("/home/root/lms2012/prjs/".utf8)

    @Test(
        "frames as `c_com.h` lays them out",
        arguments: [
            (try EV3SystemCommand.listFiles(counter: 0x0102, path: "/home/root/lms2012/prjs/", maxBytes: 1012),
             "1F 00 02 01 01 99 F4 03 " + hex(prjs) + " 00"),
            (try .continueListFiles(counter: 3, handle: 0, maxBytes: 1012), "07 00 03 00 01 9A 00 F4 03"),
            (try .closeFileHandle(counter: 4, handle: 1), "05 00 04 00 01 98 01"),
            (try EV3SystemCommand(counter: 5, replyRequested: false, code: .enterFirmwareUpdate, payload: []),
             "04 00 05 00 81 A0"),
            // The BEGIN_DOWNLOAD example of `c_com.h`: a 160-byte "../apps/tst/tst.rbf".
            (try EV3SystemCommand(
                counter: 6, code: .beginDownload,
                payload: hex("A0 00 00 00") + Array("../apps/tst/tst.rbf".utf8) + [0]),
             "1C 00 06 00 01 92 A0 00 00 00 2E 2E 2F 61 70 70 73 2F 74 73 74 2F 74 73 74 2E 72 62 66 00"),
        ])
    func frames(command: EV3SystemCommand, bytes: String) {
        #expect(hex(command.bytes) == bytes)
    }

    @Test(
        "paths the brick cannot take and frames too long are refused",
        arguments: [
            ("", EV3EncodingError.invalidString("LIST_FILES path", reason: "empty")),
            ("a\u{0}b", .invalidString("LIST_FILES path", reason: "contains a NUL byte")),
        ])
    func refused(path: String, error: EV3EncodingError) {
        #expect(throws: error) { try EV3SystemCommand.listFiles(counter: 1, path: path, maxBytes: 100) }
    }

    @Test("a frame of 1024 bytes is the largest")
    func largest() throws {
        let fits = try EV3SystemCommand.listFiles(counter: 1, path: String(repeating: "x", count: 1015), maxBytes: 100)
        #expect(fits.bytes.count == 1024)
        #expect(throws: EV3EncodingError.tooLong(bytes: 1025, limit: 1024)) {
            try EV3SystemCommand.listFiles(counter: 1, path: String(repeating: "x", count: 1016), maxBytes: 100)
        }
    }

    @Test(
        "system replies parse and re-encode",
        arguments: [
            ("06 00 CC CC 03 92 00 00", false, EV3SystemCommandCode.beginDownload, EV3SystemStatus.success, "00"),
            ("05 00 01 00 05 9C 06", true, .deleteFile, .illegalPath, ""),
            ("06 00 01 00 03 98 00 01", false, .closeFileHandle, .success, "01"),
            ("05 00 01 00 03 F0 0D", false, EV3SystemCommandCode(rawValue: 0xF0), EV3SystemStatus(rawValue: 0x0D), ""),
        ])
    func replies(
        frame: String, isError: Bool, code: EV3SystemCommandCode, status: EV3SystemStatus, payload: String
    ) throws {
        guard case .system(let reply) = try EV3Reply(frame: hex(frame)) else {
            Issue.record("not a system reply")
            return
        }
        #expect(reply.isError == isError)
        #expect(reply.code == code)
        #expect(reply.status == status)
        #expect(hex(reply.payload) == payload)
        #expect(hex(reply.bytes) == frame)
    }

    @Test("a listing's first and later parts, and its entries")
    func listing() throws {
        let text = "ui/\n0123456789abcdef0123456789ABCDEF 000004D2 Startup.rsf\nnot an entry\n"
        let first = EV3SystemReply(
            counter: 9, isError: false, code: .listFiles, status: .endOfFile,
            payload: hex("47 00 00 00 02") + Array(text.utf8))
        let list = try EV3FileList(reply: try EV3SystemReply(frame: first.bytes))
        #expect(list.totalSize == 71)
        #expect(list.handle == 2)
        #expect(
            EV3FileList.entries(list.data) == [
                .folder("ui"), .file(name: "Startup.rsf", size: 1234, md5: "0123456789abcdef0123456789ABCDEF"),
            ])
        let next = EV3SystemReply(
            counter: 10, isError: false, code: .continueListFiles, status: .success, payload: [2, 0x41])
        let part = try EV3FileList(reply: next)
        #expect(part.totalSize == nil && part.handle == 2 && part.data == [0x41])
    }

    @Test(
        "listing replies with an error, a short payload or another command are refused",
        arguments: [
            (EV3SystemReply(
                counter: 1, isError: true, code: .listFiles, status: .unknownError, payload: hex("00 00 00 00 FF")),
             EV3DecodingError.systemError(code: 0x99, status: 0x0A)),
            (EV3SystemReply(counter: 1, isError: false, code: .listFiles, status: .unknownHandle, payload: []),
             .systemError(code: 0x99, status: 0x01)),
            (EV3SystemReply(counter: 1, isError: false, code: .listFiles, status: .success, payload: hex("00 00 00")),
             .truncated(needed: 12, got: 10)),
            (EV3SystemReply(counter: 1, isError: false, code: .continueListFiles, status: .success, payload: []),
             .truncated(needed: 8, got: 7)),
            (EV3SystemReply(counter: 1, isError: false, code: .beginDownload, status: .success, payload: [0]),
             .unknownType(0x92)),
        ])
    func listingRefused(reply: EV3SystemReply, error: EV3DecodingError) {
        #expect(throws: error) { try EV3FileList(reply: reply) }
    }
}
