import BridgeConfig
import Foundation
import HomeAssistantAddon
import TestSupport
import Testing

/// The add-on repository in deploy/home-assistant as Home Assistant's Supervisor reads it: its files, its
/// options against the command's, their translations, and its AppArmor profile.
@Suite struct AddonFolderTests {
    static let root = BridgeProcess.packageRoot + "/deploy/home-assistant"
    static let folder = root + "/things2mqtt"

    func yaml(_ path: String) throws -> [String: Any] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        guard let object = try YAMLComposer.compose(text).map(Self.value) as? [String: Any] else {
            throw TestFailure("\(path) is not a mapping")
        }
        return object
    }

    /// A node as the Supervisor reads it: mappings, lists, and plain `true`, `false` and whole numbers as such.
    static func value(_ node: YAMLNode) -> Any {
        switch node {
        case .scalar(let scalar):
            guard scalar.isPlain else { return scalar.text }
            if let flag = ["true": true, "false": false][scalar.text] { return flag }
            if let number = Int(scalar.text) { return number }
            return scalar.text
        case .mapping(let pairs, _):
            return Dictionary(pairs.map { ($0.key.scalar?.text ?? "", value($0.value)) }, uniquingKeysWith: { first, _ in first })
        case .sequence(let items, _):
            return items.map(value)
        }
    }

    @Test func theRepositoryHasEveryFileAnAddonNeeds() throws {
        let repository = try yaml(Self.root + "/repository.yaml")
        #expect(repository["name"] as? String == "things2mqtt")
        for name in [
            "config.yaml", "Dockerfile", "DOCS.md", "README.md", "CHANGELOG.md", "apparmor.txt", "icon.png", "logo.png",
            "translations/en.yaml",
        ] {
            #expect(FileManager.default.fileExists(atPath: Self.folder + "/" + name), "\(name)")
        }
        // build.yaml is retired: the Dockerfile names its base itself.
        #expect(!FileManager.default.fileExists(atPath: Self.folder + "/build.yaml"))
    }

    @Test func theSchemaListsExactlyTheOptionsTheCommandReads() throws {
        let config = try yaml(Self.folder + "/config.yaml")
        let schema = try #require(config["schema"] as? [String: Any])
        #expect(Set(schema.keys) == Set(AddonOptions.names))
        let options = try #require(config["options"] as? [String: Any])
        #expect(Set(options.keys).isSubset(of: schema.keys))
        // Every option may be left empty.
        for (name, type) in schema {
            let text = (type as? String) ?? ((type as? [Any])?.first as? String) ?? ""
            #expect(text.hasSuffix("?"), "\(name): \(type) must be optional")
        }
    }

    @Test func everyOptionHasATranslation() throws {
        let schema = try #require(try yaml(Self.folder + "/config.yaml")["schema"] as? [String: Any])
        let translations = try #require(try yaml(Self.folder + "/translations/en.yaml")["configuration"] as? [String: Any])
        #expect(Set(translations.keys) == Set(schema.keys))
        for (name, entry) in translations {
            let fields = entry as? [String: Any]
            #expect((fields?["name"] as? String)?.isEmpty == false, "\(name) has no name")
            #expect((fields?["description"] as? String)?.isEmpty == false, "\(name) has no description")
        }
    }

    @Test func theAddonAsksForLittleAndRatesSixOrMore() throws {
        let config = try yaml(Self.folder + "/config.yaml")
        #expect(config["ingress"] as? Bool == true)
        #expect(config["ingress_port"] as? Int == AddonConfig.ingressPort)
        #expect(Set(config["arch"] as? [String] ?? []) == ["amd64", "aarch64"])
        #expect(config["services"] as? [String] == ["mqtt:want"])
        #expect(config["host_dbus"] as? Bool == true)
        #expect(config["image"] == nil, "built from the Dockerfile in the folder")
        for risky in ["host_network", "host_pid", "full_access", "docker_api", "privileged", "hassio_api", "hassio_role", "apparmor"] {
            #expect(config[risky] == nil, "\(risky)")
        }
        #expect(Self.securityRating(config, ownProfile: true) >= 6)
    }

    /// The Supervisor's security rating, by its documented rules: 5, +1 for an AppArmor profile of the add-on's
    /// own, +2 for ingress, −1 for host networking or a risky capability, 1 with full or docker access.
    static func securityRating(_ config: [String: Any], ownProfile: Bool) -> Int {
        if config["full_access"] as? Bool == true || config["docker_api"] as? Bool == true { return 1 }
        var rating = 5
        if ownProfile { rating += 1 }
        if config["apparmor"] as? Bool == false { rating -= 2 }
        if config["ingress"] as? Bool == true { rating += 2 }
        let risky: Set = ["NET_ADMIN", "SYS_ADMIN", "SYS_RAWIO", "SYS_PTRACE", "SYS_MODULE", "DAC_READ_SEARCH"]
        if !risky.isDisjoint(with: config["privileged"] as? [String] ?? []) { rating -= 1 }
        if config["host_network"] as? Bool == true { rating -= 1 }
        if config["host_pid"] as? Bool == true { rating -= 2 }
        return min(8, max(1, rating))
    }

    @Test func theChangelogNamesTheVersion() throws {
        let version = try #require(try yaml(Self.folder + "/config.yaml")["version"] as? String)
        let changelog = try String(contentsOfFile: Self.folder + "/CHANGELOG.md", encoding: .utf8)
        #expect(changelog.contains("## " + version))
        let dockerfile = try String(contentsOfFile: Self.folder + "/Dockerfile", encoding: .utf8)
        #expect(dockerfile.contains("things2mqtt:" + version))
        #expect(dockerfile.contains("\"ha-addon\""))
    }

    @Test(.needs(.apparmor)) func theAppArmorProfileParses() async throws {
        let parser = try TestTools.locate("apparmor_parser", package: "apparmor")
        let logs = try TemporaryDirectory(prefix: "apparmor")
        defer { logs.remove() }
        // -Q: compile only, load nothing into the kernel; -T -K: no profile cache.
        try await TestTools.run(parser, ["-Q", "-T", "-K", Self.folder + "/apparmor.txt"], logs: logs)
        let profile = try String(contentsOfFile: Self.folder + "/apparmor.txt", encoding: .utf8)
        #expect(profile.contains("peer=(name=org.bluez)"))
        #expect(!profile.contains("\n  file,"), "no blanket file access")
        #expect(!profile.contains("dbus,"), "no blanket D-Bus access")
    }
}
