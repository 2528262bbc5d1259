import Foundation
import TestSupport
import Testing

/// Full Foundation brings ICU's 34 MB of data into the binary; the daemon's own modules use FoundationEssentials.
/// Only the tools around it (the benchmark and its harness, the simulators, the build-time page embedder) may import
/// Foundation.
@Suite struct FoundationImportTests {
    static let tools: Set = ["things2mqtt-bench", "things2mqtt-sim", "LIFXSimulator", "EV3Simulator", "embed-web", "EmbedWebPlugin", "Harness"]

    @Test func noDaemonModuleImportsFullFoundation() throws {
        let sources = BridgeProcess.packageRoot + "/Sources"
        var offenders: [String] = []
        for module in try FileManager.default.contentsOfDirectory(atPath: sources) where !Self.tools.contains(module) {
            guard let files = FileManager.default.enumerator(atPath: sources + "/" + module) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: sources + "/" + module + "/" + file, encoding: .utf8)
                if text.split(separator: "\n").contains(where: { $0 == "import Foundation" || $0 == "public import Foundation" }) {
                    offenders.append(module + "/" + file)
                }
            }
        }
        #expect(offenders.isEmpty, "\(offenders)")
    }
}
