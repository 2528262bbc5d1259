import Foundation
import TestSupport
import Testing

/// Full Foundation brings FoundationInternationalization and ICU (tens of MB of code and data) into the daemon; its
/// modules and dependencies use FoundationEssentials. Only the tools around it (the benchmark and its harness, the
/// simulators, the build-time page embedder) may import Foundation.
@Suite struct FoundationImportTests {
    /// The shared libraries of full Foundation, which a debug build links when any module of the daemon imports it.
    static let fullFoundation = ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"]

    @Test func noModuleOfTheDaemonImportsFullFoundation() throws {
        let closure = try ModuleGraph.closure(of: "things2mqtt")
        #expect(closure.contains { $0.name == "BridgeConfig" } && closure.contains { $0.name == "Frontend" })
        var offenders: [String] = []
        for target in closure where target.path.hasPrefix("Sources/") {
            let imports = try ModuleGraph.allImports(under: target.path)
            if imports.contains("Foundation") || imports.contains("FoundationInternationalization") { offenders.append(target.name) }
        }
        #expect(offenders.isEmpty, "\(offenders)")
    }

    @Test func theDaemonLinksNoFullFoundation() throws {
        // The debug build links the Swift libraries as shared ones, so what the daemon pulls in shows in its
        // DT_NEEDED entries (the static release binary carries it inside instead).
        let binary = BridgeProcess.packageRoot + "/.build/debug/things2mqtt"
        let needed = try ELFFile.neededLibraries(binary)
        #expect(needed.contains("libswiftCore.so"), "\(binary) does not link the Swift runtime as a shared library: \(needed)")
        let linked = needed.filter { Self.fullFoundation.contains($0) }
        #expect(linked.isEmpty, "\(binary) links \(linked)")
    }
}

/// Reads an ELF64 little-endian file's DT_NEEDED entries: the shared libraries it names.
enum ELFFile {
    static func neededLibraries(_ path: String) throws -> [String] {
        guard let file = FileHandle(forReadingAtPath: path) else { throw TestFailure("cannot open \(path)") }
        defer { try? file.close() }
        func read(_ offset: UInt64, _ count: Int) throws -> [UInt8] {
            try file.seek(toOffset: offset)
            let bytes = [UInt8](try file.read(upToCount: count) ?? Data())
            guard bytes.count == count else { throw TestFailure("\(path) ends early") }
            return bytes
        }
        func number(_ bytes: [UInt8], _ at: Int, _ size: Int) -> UInt64 {
            (0..<size).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * $1) }
        }
        let header = try read(0, 64)
        guard header[0..<4] == [0x7F, 0x45, 0x4C, 0x46], header[4] == 2, header[5] == 1 else {
            throw TestFailure("\(path) is not a 64-bit little-endian ELF file")
        }
        let sectionsAt = number(header, 0x28, 8), sectionSize = Int(number(header, 0x3A, 2))
        let sectionCount = Int(number(header, 0x3C, 2))
        let sections = try (0..<sectionCount).map { try read(sectionsAt + UInt64($0 * sectionSize), 64) }
        // SHT_DYNAMIC; its sh_link is the string table the entries point into.
        guard let dynamic = sections.first(where: { number($0, 4, 4) == 6 }) else { return [] }
        let strings = sections[Int(number(dynamic, 0x28, 4))]
        let table = try read(number(strings, 0x18, 8), Int(number(strings, 0x20, 8)))
        let entries = try read(number(dynamic, 0x18, 8), Int(number(dynamic, 0x20, 8)))
        var names: [String] = []
        for entry in stride(from: 0, to: entries.count - 15, by: 16) where number(entries, entry, 8) == 1 {
            let start = Int(number(entries, entry + 8, 8))
            let end = table[start...].firstIndex(of: 0) ?? table.endIndex
            names.append(String(decoding: table[start..<end], as: UTF8.self))
        }
        return names
    }
}
