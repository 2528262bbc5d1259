import BridgeCore
import Testing

@Suite("Name globs for BLE connect rules")
struct GlobTests {
    @Test(
        "matching",
        arguments: [
            ("Nova", "Nova", true), ("Nova", "nova", false), ("Nova*", "Nova 2", true), ("Nova*", "Nov", false),
            ("*", "", true), ("?", "", false), ("N?va", "Nova", true), ("*flash*", "my flash 3", true),
            ("a*b*c", "axxbyyc", true), ("a*b*c", "axxbyy", false), ("[NS]ova", "Sova", true), ("[!N]ova", "Nova", false),
            ("[^N]ova", "Xova", true), ("Sensor-[0-9]", "Sensor-7", true), ("Sensor-[0-9]", "Sensor-x", false),
            ("[]]", "]", true), ("[a-]", "-", true), ("\\*", "*", true), ("\\*", "x", false), ("**x", "abx", true),
            ("Temp ??", "Temp 21", true), ("Thermo*[0-9]", "Thermometer 5", true),
        ])
    func matching(pattern: String, name: String, expected: Bool) throws {
        #expect(try Glob(pattern).matches(name) == expected, "\(pattern) ~ \(name)")
    }

    @Test(
        "patterns that cannot be used are errors that name them",
        arguments: [("Nova[", "unclosed ["), ("[a-z", "unclosed ["), ("x\\", "ends with \\"), ("[z-a]", "reversed")])
    func errors(pattern: String, message: String) {
        #expect(throws: GlobError.self) { try Glob(pattern) }
        do {
            _ = try Glob(pattern)
        } catch {
            #expect(error.description.contains(message) && error.description.contains(pattern), "\(error)")
        }
    }

    @Test("many stars against a long name finish (no exponential backtracking)")
    func pathological() throws {
        let glob = try Glob(String(repeating: "a*", count: 30) + "b")
        #expect(!glob.matches(String(repeating: "a", count: 200)))
    }
}
