import AsyncHTTPClient
public import BridgeCore
import Foundation
import NIOCore

/// Headless Chromium driven over W3C WebDriver: `chromedriver` on a free port of 127.0.0.1, one session,
/// JSON over HTTP. Enough for the frontend's tests: open a page, run a script, click, read the console.
public final class WebDriver: Sendable {
    let process: ChildProcess
    let client: HTTPClient
    let endpoint: String
    /// Chromium's own process, ended at `stop()` if quitting the session left it running.
    let browser: Int32?
    let profile: TemporaryDirectory

    /// Starts chromedriver and a Chromium session with a window of `width`×`height` CSS pixels.
    public static func start(width: Int = 1280, height: Int = 900) async throws -> WebDriver {
        let port = try LocalPorts.free()
        let profile = try TemporaryDirectory(prefix: "chromium")
        let process = try ChildProcess(
            executable: try Self.find("chromedriver", in: chromedriverPaths),
            arguments: ["--port=\(port)", "--allowed-ips=127.0.0.1"],
            stdoutPath: profile.file("chromedriver.out"), stderrPath: profile.file("chromedriver.err"))
        // The shared client needs no shutdown: a driver dropped on a failure path cannot end the test process
        // (a client of its own that is deinitialised without shutdown is a fatal error in AsyncHTTPClient).
        let client = HTTPClient.shared
        let endpoint = "http://127.0.0.1:\(port)"
        do {
            try await waitUntil("chromedriver on port \(port)", timeout: .seconds(20)) { LocalPorts.accepts(port: port) }
            let capabilities: JSONValue = [
                "capabilities": [
                    "alwaysMatch": [
                        "browserName": "chrome",
                        "goog:chromeOptions": [
                            "binary": .string(try Self.find("chromium", in: chromiumPaths)),
                            "args": .array([
                                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                "--no-first-run", "--disable-extensions", "--disable-background-networking",
                                "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                                .string("--window-size=\(width),\(height)"), .string("--user-data-dir=\(profile.path)/profile"),
                            ]),
                        ],
                        "goog:loggingPrefs": ["browser": "ALL"],
                    ]
                ]
            ]
            let answer = try await Self.call(client, "POST", endpoint + "/session", capabilities)
            guard let session = answer["value"]?["sessionId"]?.stringValue else {
                throw TestFailure("no WebDriver session: \(answer.jsonString)")
            }
            let browser = answer["value"]?["capabilities"]?["goog:processID"]?.doubleValue.map { Int32($0) }
            let driver = WebDriver(
                process: process, client: client, endpoint: endpoint + "/session/" + session, browser: browser, profile: profile)
            // The window's outer size includes no browser chrome in headless mode, so the viewport is exact.
            _ = try await driver.command("POST", "/window/rect", ["width": .number(Double(width)), "height": .number(Double(height))])
            return driver
        } catch {
            process.signal(SIGKILL)
            throw error
        }
    }

    private init(process: ChildProcess, client: HTTPClient, endpoint: String, browser: Int32?, profile: TemporaryDirectory) {
        self.process = process
        self.client = client
        self.endpoint = endpoint
        self.browser = browser
        self.profile = profile
    }

    /// Where Debian's chromium-driver and chromium put their programs.
    static let chromedriverPaths = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]
    static let chromiumPaths = ["/usr/lib/chromium/chromium", "/usr/bin/chromium"]

    static func find(_ name: String, in paths: [String]) throws -> String {
        guard let path = paths.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw TestFailure("\(name) is not installed (Tests/run.sh installs Debian's chromium and chromium-driver)")
        }
        return path
    }

    /// Ends the session and chromedriver.
    public func stop() async {
        _ = try? await Self.call(client, "DELETE", endpoint, nil)
        if let browser, kill(browser, 0) == 0 { kill(browser, SIGKILL) }
        process.signal(SIGTERM)
        _ = try? await process.waitForExit(timeout: .seconds(5))
        if process.isRunning { process.signal(SIGKILL) }
        profile.remove()
    }

    /// Sets the window's size in CSS pixels.
    public func resize(width: Int, height: Int) async throws {
        _ = try await command("POST", "/window/rect", ["width": .number(Double(width)), "height": .number(Double(height))])
    }

    /// Opens a URL and returns once it has loaded.
    public func open(_ url: String) async throws {
        _ = try await command("POST", "/url", ["url": .string(url)])
    }

    /// Runs `script` (a function body; `arguments` holds `args`) and returns what it returns.
    @discardableResult
    public func run(_ script: String, _ args: [JSONValue] = []) async throws -> JSONValue {
        try await command("POST", "/execute/sync", ["script": .string(script), "args": .array(args)])
    }

    /// Waits until `script` returns something other than null or false, and returns it.
    public func wait(
        _ what: String, for script: String, timeout: Duration = .seconds(10), every: Duration = .milliseconds(50)
    ) async throws -> JSONValue {
        try await waitForValue(what, timeout: timeout, every: every) {
            let value = try await self.run(script)
            return value == .null || value == false ? nil : value
        }
    }

    /// Clicks the element `selector` finds as a user would (scrolled into view, at its centre).
    public func click(_ selector: String) async throws {
        let element = try await find(selector)
        _ = try await command("POST", "/element/\(element)/click", [:])
    }

    /// Types into the element `selector` finds.
    public func type(_ selector: String, _ text: String) async throws {
        let element = try await find(selector)
        _ = try await command("POST", "/element/\(element)/clear", [:])
        _ = try await command("POST", "/element/\(element)/value", ["text": .string(text)])
    }

    private func find(_ selector: String) async throws -> String {
        let found = try await command("POST", "/element", ["using": "css selector", "value": .string(selector)])
        guard let id = found.objectValue?.values.first?.stringValue else { throw TestFailure("no element \(selector)") }
        return id
    }

    /// The browser console's entries since the last call, as (level, message).
    public func console() async throws -> [(level: String, message: String)] {
        let entries = try await command("POST", "/se/log", ["type": "browser"])
        guard case .array(let list) = entries else { return [] }
        return list.map { ($0["level"]?.stringValue ?? "", $0["message"]?.stringValue ?? "") }
    }

    /// Saves a screenshot of the viewport as PNG.
    public func screenshot(to path: String) async throws {
        let data = try await command("GET", "/screenshot", nil)
        guard let text = data.stringValue, let bytes = Data(base64Encoded: text) else { throw TestFailure("no screenshot") }
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    func command(_ method: String, _ path: String, _ body: JSONValue?) async throws -> JSONValue {
        let answer = try await Self.call(client, method, endpoint + path, body)
        if let error = answer["value"]?["error"]?.stringValue {
            throw TestFailure("WebDriver \(path): \(error): \(answer["value"]?["message"]?.stringValue ?? "")")
        }
        return answer["value"] ?? .null
    }

    static func call(_ client: HTTPClient, _ method: String, _ url: String, _ body: JSONValue?) async throws -> JSONValue {
        var request = HTTPClientRequest(url: url)
        request.method = .init(rawValue: method)
        request.headers.add(name: "Content-Type", value: "application/json")
        if let body { request.body = .bytes(ByteBuffer(bytes: body.jsonBytes)) }
        let response = try await client.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 64 << 20)
        guard let json = try? JSONValue.parse(Array(buffer: bytes), limits: JSONLimits(maxBytes: .max, maxDepth: 256)) else {
            throw TestFailure("WebDriver answered \(response.status) with no JSON")
        }
        return json
    }
}
