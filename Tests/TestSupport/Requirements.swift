import Foundation
public import Testing

/// A program outside the package that some tests run: Tests/run.sh installs each, a developer's machine may lack them.
public enum Requirement: Sendable, CaseIterable {
    /// `mosquitto`, the broker the integration tests start (Debian's mosquitto).
    case broker
    /// `dbus-daemon`, for a private bus.
    case bus
    /// `dbus-daemon` and Debian's `/usr/bin/python3` with python-dbusmock, for the BlueZ stand-in and other mock services.
    case busMock
    /// Chromium and chromedriver, for the tests that drive the page in a browser.
    case browser
    /// The Home Assistant 2024.1 and 2025.4 schema checkers' venvs (Tests/ha-schema/setup.sh).
    case homeAssistant
    /// `apparmor_parser`, which checks the add-on's AppArmor profile.
    case apparmor

    /// Whether the whole suite must run: Tests/run.sh (and so CI) sets `THINGS2MQTT_FULL_TESTS=1`, and there a
    /// missing program fails the tests that need it instead of skipping them.
    public static let fullTests = ProcessInfo.processInfo.environment["THINGS2MQTT_FULL_TESTS"] == "1"

    /// Whether the program is installed where the harness looks for it; found once per test run.
    public var isInstalled: Bool { Self.installed[self] ?? false }

    /// What to install: the Debian packages, or the script that makes the venvs.
    public var hint: String {
        switch self {
        case .broker: "mosquitto (apt install mosquitto)"
        case .bus: "dbus-daemon (apt install dbus-daemon)"
        case .busMock: "dbus-daemon and python-dbusmock (apt install dbus-daemon python3-dbusmock)"
        case .browser: "Chromium (apt install chromium chromium-driver)"
        case .homeAssistant: "the Home Assistant checkers (Tests/ha-schema/setup.sh 2024 and 2025)"
        case .apparmor: "apparmor_parser (apt install apparmor)"
        }
    }

    private static let installed: [Requirement: Bool] = Dictionary(uniqueKeysWithValues: allCases.map { ($0, $0.probe()) })

    /// Looks for the program the way the harness does when it starts it.
    private func probe() -> Bool {
        switch self {
        case .broker: (try? Broker.locateMosquitto()) != nil
        case .bus: (try? TestTools.locate("dbus-daemon", package: "dbus-daemon")) != nil
        case .busMock: Requirement.bus.probe() && Self.pythonImports("dbusmock")
        case .browser:
            (try? WebDriver.find("chromedriver", in: WebDriver.chromedriverPaths)) != nil
                && (try? WebDriver.find("chromium", in: WebDriver.chromiumPaths)) != nil
        case .homeAssistant:
            HomeAssistantChecker.Release.allCases.allSatisfy { FileManager.default.isExecutableFile(atPath: $0.venv + "/bin/python") }
        case .apparmor: (try? TestTools.locate("apparmor_parser", package: "apparmor")) != nil
        }
    }

    /// Whether Debian's python3, which DBusMock runs, can import `module`.
    private static func pythonImports(_ module: String) -> Bool {
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", "import \(module)"]
        python.standardOutput = FileHandle.nullDevice
        python.standardError = FileHandle.nullDevice
        guard (try? python.run()) != nil else { return false }
        python.waitUntilExit()
        return python.terminationStatus == 0
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test where every one of `requirements` is installed and skips it, saying what to install, where one
    /// is not; under Tests/run.sh (`THINGS2MQTT_FULL_TESTS=1`) it always runs, so a missing program fails it.
    public static func needs(_ requirements: Requirement...) -> Self {
        let missing = requirements.filter { !$0.isInstalled }
        let comment = "needs " + missing.map(\.hint).joined(separator: ", ")
        return .enabled(if: Requirement.fullTests || missing.isEmpty, Comment(rawValue: comment))
    }
}
