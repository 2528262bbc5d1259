import Foundation
import Testing
import TestSupport

/// The ICU data the static binary links (Sources/ICUData) is the subset the generator makes from the toolchain
/// installed here, so a toolchain with other ICU data cannot leave a stale package behind unnoticed.
@Suite("ICU's data for the static binary")
struct ICUDataTests {
    @Test("the committed package is what make-icu-data.py writes from this toolchain's ICU")
    func upToDate() async throws {
        let logs = try TemporaryDirectory(prefix: "icu-data")
        defer { logs.remove() }
        let script = BridgeProcess.packageRoot + "/Sources/ICUData/make-icu-data.py"
        try await TestTools.run(try TestTools.locate("python3", package: "python3"), [script, "--check"], logs: logs)
    }

    @Test("the package holds the root and English locales and the time zones, and far less than ICU's whole data")
    func contents() throws {
        let folder = BridgeProcess.packageRoot + "/Sources/ICUData"
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix("l.dat") })
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        let text = String(decoding: data, as: UTF8.self)
        for item in ["/root.res", "/en_US_POSIX.res", "/zoneinfo64.res", "/uts46.nrm", "/cnvalias.icu", "zone/root.res"] {
            #expect(text.contains(item), "\(item) is missing")
        }
        #expect(!text.contains("/de.res") && !text.contains("cjdict.dict"))
        #expect(data.count < 5_000_000)
    }
}
