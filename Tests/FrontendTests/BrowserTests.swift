import BridgeCore
import Foundation
import Testing
import TestSupport

/// The page in headless Chromium against the real daemon on the demo (broker, BlueZ stand-in, LIFX and EV3
/// simulators). Serialized: each test runs a whole demo and a browser, and the machine is small.
@Suite("Frontend in Chromium, on the demo", .serialized, .timeLimit(.minutes(3)), .needs(.broker, .busMock, .browser))
struct BrowserTests {
    /// The demo with every family's devices listed, a browser at `width`×`height`, and the page open.
    static func start(width: Int = 1280, height: Int = 900, token: String? = nil) async throws -> (DemoRig, WebDriver) {
        let rig = try await DemoRig.start(frontendToken: token)
        do {
            // The demo's devices come in over a few seconds (LIFX poll, EV3 beacon, BLE adverts).
            _ = try await rig.broker.waitForRetained("things2mqtt/bridge/devices", timeout: .seconds(30)) { message in
                let ids = message.json.flatMap { value -> [String]? in
                    guard case .array(let list) = value else { return nil }
                    return list.compactMap { $0["id"]?.stringValue }
                } ?? []
                return ids.contains { $0.hasPrefix("ev3_") } && ids.contains { $0.hasPrefix("ble_") } && ids.contains { $0.hasPrefix("lifx_") }
            }
            let browser = try await WebDriver.start(width: width, height: height)
            return (rig, browser)
        } catch {
            _ = try? await rig.stop()
            throw error
        }
    }

    static func stop(_ rig: DemoRig, _ browser: WebDriver) async {
        await browser.stop()
        _ = try? await rig.stop()
    }

    /// One demo and one browser for the checks that need no token, in an order none of them disturbs: each
    /// demo is a broker, a BlueZ stand-in, two simulators and the daemon, too heavy to start for every check.
    @Test("on the demo: the devices page, a light and rename, the brick's motors, the logs, the permit window, a path prefix, 360×640")
    func onTheDemo() async throws {
        let (rig, browser) = try await Self.start()
        do {
            try await Self.devicesPage(rig, browser)
            try await Self.lightAndRename(rig, browser)
            try await Self.brickMotors(rig, browser)
            try await Self.logsPage(rig, browser)
            try await Self.permitWindow(rig, browser)
            try await Self.pathPrefix(rig, browser)
            try await Self.narrowScreen(rig, browser)
        } catch {
            await Self.stop(rig, browser)
            throw error
        }
        await Self.stop(rig, browser)
    }

    static func deviceIDs(_ rig: DemoRig) async throws -> [String] {
        guard case .array(let list)? = try await rig.broker.retainedJSON("things2mqtt/bridge/devices") else { return [] }
        return list.compactMap { $0["id"]?.stringValue }
    }

    /// the devices page lists every demo device within 2 s, with no console error and no request to another host.
    static func devicesPage(_ rig: DemoRig, _ browser: WebDriver) async throws {
        let url = "http://127.0.0.1:\(rig.frontendPort)/"
        let ids = try await Self.deviceIDs(rig)
        let started = ContinuousClock.now
        try await browser.open(url)
        let script = "const ids = arguments[0]; return ids.every((id) => document.querySelector(`[data-id=\"${id}\"]`));"
        _ = try await waitForValue("every device on the page", timeout: .seconds(5), every: .milliseconds(20)) {
            try await browser.run(script, [.array(ids.map(JSONValue.string))]) == true ? true : nil
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed < .seconds(2), "the page listed the devices after \(elapsed)")
        // A card titled by the device's own name shows its id too: the demo's two flashes are both "Nova".
        let cards = try await browser.run(
            """
            return [...document.querySelectorAll('#devices [data-id]')].map((card) => [card.dataset.id,
              card.querySelector('.name').textContent, card.querySelector('.meta').textContent]);
            """)
        guard case .array(let rows) = cards else { throw TestFailure("no cards: \(cards)") }
        let named = rows.compactMap { row -> (id: String, name: String, meta: String)? in
            guard case .array(let cells) = row, cells.count == 3, let id = cells[0].stringValue, let name = cells[1].stringValue,
                let meta = cells[2].stringValue
            else { return nil }
            return (id, name, meta)
        }
        #expect(named.count == ids.count)
        #expect(named.filter { $0.name == "Nova" }.count == 2, "the demo's two flashes, both named Nova: \(named)")
        for card in named where card.name != card.id { #expect(card.meta.contains(card.id), "\(card)") }
        let resources = try await browser.run("return performance.getEntriesByType('resource').map((entry) => entry.name);")
        guard case .array(let names) = resources else { throw TestFailure("no resource list") }
        for name in names.compactMap(\.stringValue) { #expect(name.hasPrefix(url), "request to \(name)") }
        let errors = try await browser.console().filter { $0.level == "SEVERE" || $0.level == "WARNING" }
        #expect(errors.isEmpty, "console: \(errors)")
    }

    /// a light: MQTT changes show within 1 s; switched on from the page, MQTT and the cloud follow; rename keeps the HA id.
    static func lightAndRename(_ rig: DemoRig, _ browser: WebDriver) async throws {
        let mqtt = try await TestClient.connect(to: rig.broker)
        try await browser.open("http://127.0.0.1:\(rig.frontendPort)/#/device/lifx_d073d5000002")
        _ = try await browser.wait("the light's controls", for: "return document.querySelector('#light-state');")
        _ = try await browser.wait("its Home Assistant light", for: "return /light/.test(document.querySelector('#ha-entities')?.textContent);")
        // A change made over MQTT.
        mqtt.publish("things2mqtt/living_room/floor_lamp/set", #"{"state":"ON","brightness":77}"#)
        let shown = ContinuousClock.now
        _ = try await browser.wait("brightness 77 on the page", for: "return document.querySelector('[data-key=\"brightness\"]')?.textContent === '77';", timeout: .seconds(5), every: .milliseconds(20))
        #expect(ContinuousClock.now - shown < .seconds(1))
        mqtt.publish("things2mqtt/living_room/floor_lamp/set", #"{"state":"OFF"}"#)
        _ = try await browser.wait("Off on the page", for: "return document.querySelector('#light-state').getAttribute('aria-pressed') === 'false';")
        // The page's button sends the same `/set` MQTT would.
        try await browser.click("#light-state")
        _ = try await rig.broker.waitForRetained("things2mqtt/living_room/floor_lamp", timeout: .seconds(10)) { $0.json?["state"] == "ON" }
        try await waitUntil("the simulated bulb on", timeout: .seconds(20)) { rig.lifx.light(id: "d073d5000002")?.power == true }
        _ = try await browser.wait("On confirmed on the page", for: "return document.querySelector('#light-state').getAttribute('aria-pressed') === 'true';")
        // Rename with the Home Assistant entity.
        let configs = try await rig.broker.retainedMessages(under: "homeassistant/light/#")
        let discovery = try #require(configs.first { $0.value.json?["state_topic"] == "things2mqtt/living_room/floor_lamp" }?.key)
        let before = try await rig.broker.retainedJSON(discovery)?["unique_id"]
        try await browser.type("#rename-to", "den/lamp")
        try await browser.click("#rename button[type=submit]")
        _ = try await rig.broker.waitForRetained("things2mqtt/den/lamp", timeout: .seconds(10))
        try await rig.broker.waitForNoRetained("things2mqtt/living_room/floor_lamp", timeout: .seconds(10))
        _ = try await browser.wait("the new name on the page", for: "return document.querySelector('#device-name')?.textContent === 'den/lamp';")
        let after = try await rig.broker.waitForRetained(discovery, timeout: .seconds(10)) { $0.json?["state_topic"] == "things2mqtt/den/lamp" }
        #expect(before != nil && after.json?["unique_id"] == before)
        await mqtt.close()
    }

    /// the EV3 brick: a motor slider runs the simulated motor, STOP stops it, a stepped move turns another.
    static func brickMotors(_ rig: DemoRig, _ browser: WebDriver) async throws {
        try await browser.open("http://127.0.0.1:\(rig.frontendPort)/#/device/ev3_0016533f0c1e")
        _ = try await browser.wait("motor controls", for: "return document.querySelector('#control-motor_a-speed') && document.querySelector('#stop-all');")
        try await browser.run("""
            const slider = document.querySelector('#control-motor_a-speed');
            slider.value = 40;
            slider.dispatchEvent(new Event('input'));
            slider.dispatchEvent(new Event('change'));
            """)
        try await waitUntil("motor A running", timeout: .seconds(10)) { rig.ev3.motor(.a).speed == 40 }
        try await browser.click("#stop-all")
        try await waitUntil("motor A stopped", timeout: .seconds(10)) { rig.ev3.motor(.a).speed == 0 }
        // A stepped move: the values that are only sent go together in one command.
        let start = rig.ev3.motor(.b).tacho
        try await browser.type("#control-motor_b-power", "30")
        try await browser.type("#control-motor_b-degrees", "180")
        try await browser.click("#send-motor_b")
        try await waitUntil("motor B stepped", timeout: .seconds(10)) { abs(rig.ev3.motor(.b).tacho - start) >= 90 }
    }

    /// the Logs page: the lines held before it opened, a line the bridge logs now shows live, the level filter hides it.
    static func logsPage(_ rig: DemoRig, _ browser: WebDriver) async throws {
        try await browser.open("http://127.0.0.1:\(rig.frontendPort)/#/logs")
        _ = try await browser.wait(
            "the start-up line from the daemon's ring",
            for: "return [...document.querySelectorAll('#log-lines .logline')].some((line) => /Starting things2mqtt/.test(line.textContent));")
        let changed = "return [...document.querySelectorAll('#log-lines .logline')].some((line) => line.dataset.level === 'notice' && /Log level changed log_level=debug/.test(line.textContent));"
        #expect(try await browser.run(changed) == false)
        try await browser.run("""
            const select = document.querySelector('#logs-level');
            select.value = 'debug';
            select.dispatchEvent(new Event('change'));
            """)
        let sent = ContinuousClock.now
        _ = try await browser.wait("the level change logged, live", for: changed, timeout: .seconds(5), every: .milliseconds(20))
        #expect(ContinuousClock.now - sent < .seconds(2))
        try await browser.run("""
            const show = document.querySelector('#logs-show');
            show.value = 'warning';
            show.dispatchEvent(new Event('change'));
            """)
        _ = try await browser.wait("the notice hidden by the filter", for: "return !(() => { \(changed) })();")
        let levels = try await browser.run("return [...document.querySelectorAll('#log-lines .logline')].map((line) => line.dataset.level);")
        guard case .array(let shown) = levels else { throw TestFailure("no levels") }
        #expect(shown.allSatisfy { ["warning", "error", "critical"].contains($0.stringValue ?? "") }, "\(shown)")
        // Back as it was, for the checks after this one.
        try await browser.run("""
            const show = document.querySelector('#logs-show');
            show.value = 'trace';
            show.dispatchEvent(new Event('change'));
            const select = document.querySelector('#logs-level');
            select.value = 'info';
            select.dispatchEvent(new Event('change'));
            """)
        _ = try await rig.broker.waitForRetained("things2mqtt/bridge/info", timeout: .seconds(10)) { $0.json?["log_level"] == "info" }
    }

    /// the BLE page lists the demo's phone, not admitted, among what is nearby with its signal; opening the permit
    /// window lets it in, and it appears as a device with a countdown running, and leaves the nearby list.
    static func permitWindow(_ rig: DemoRig, _ browser: WebDriver) async throws {
        let phone = "ble_5a1122334455"
        #expect(try await !Self.deviceIDs(rig).contains(phone))
        try await browser.open("http://127.0.0.1:\(rig.frontendPort)/#/ble")
        _ = try await browser.wait("the BLE page", for: "return document.querySelector('#permit-open');")
        for flash in ["ble_aabbccddee01", "ble_aabbccddee02"] {
            _ = try await browser.wait(
                "\(flash) listed with its id",
                for: "return document.querySelector('#ble-devices [data-id=\"\(flash)\"]')?.textContent.includes('\(flash)');")
        }
        let nearby = "document.querySelector('#ble-nearby [data-address=\"5A:11:22:33:44:55\"]')"
        let entry = try await browser.wait(
            "the phone nearby with its signal",
            for: "const entry = \(nearby); return entry && /Phone/.test(entry.textContent) && /-\\d+ dBm/.test(entry.textContent) ? entry.textContent : null;",
            timeout: .seconds(10))
        #expect(entry.stringValue?.contains("5A:11:22:33:44:55") == true)
        try await browser.click("#permit-open")
        _ = try await browser.wait("the countdown", for: "return /left/.test(document.querySelector('#permit-countdown').textContent);")
        _ = try await browser.wait(
            "the phone on the page", for: "return document.querySelector('#ble-devices [data-id=\"\(phone)\"]');", timeout: .seconds(20))
        _ = try await browser.wait("the phone no longer nearby", for: "return !\(nearby);", timeout: .seconds(15))
    }

    /// at 360×640 nothing scrolls sideways on any page.
    static func narrowScreen(_ rig: DemoRig, _ browser: WebDriver) async throws {
        try await browser.resize(width: 360, height: 640)
        let pages = [
            "#/devices", "#/device/lifx_d073d5000002", "#/device/ev3_0016533f0c1e",
            "#/device/lifx_account_cc7e033643c84f00b874830690884adc", "#/ble", "#/bridge", "#/logs",
        ]
        for page in pages {
            try await browser.open("http://127.0.0.1:\(rig.frontendPort)/\(page)")
            _ = try await browser.wait("\(page) drawn", for: "return document.querySelector('main h1');")
            try await Task.sleep(for: .milliseconds(300))
            let widths = try await browser.run("return [document.documentElement.scrollWidth, document.documentElement.clientWidth, window.innerWidth];")
            guard case .array(let values) = widths, values.count == 3 else { throw TestFailure("no widths") }
            #expect(values[0] == values[1], "\(page) scrolls sideways: \(values)")
            #expect(values[2] == 360)
            // Nothing is cut off at the right edge either (the page hides sideways overflow, so measure it).
            let wide = try await browser.run("""
                return [...document.querySelectorAll('body *')].filter((element) => element.getClientRects().length
                  && element.getBoundingClientRect().right > window.innerWidth + 0.5).map((element) => element.tagName + '.' + element.className + ' ' + (element.textContent || '').slice(0, 40));
                """)
            #expect(wide == [], "\(page) is wider than the screen: \(wide)")
        }
        try await browser.open("http://127.0.0.1:\(rig.frontendPort)/#/devices")
        _ = try await browser.wait("devices", for: "return document.querySelectorAll('[data-id]').length > 3;")
        try await browser.screenshot(to: NSTemporaryDirectory() + "things2mqtt-devices-360.png")
    }

    @Test("a wrong token gets the login form; the right one opens the page; logout returns to the form")
    func login() async throws {
        let (rig, browser) = try await Self.start(token: "demo-secret")
        try await browser.open("http://127.0.0.1:\(rig.frontendPort)/")
        _ = try await browser.wait("the login form", for: "return !document.querySelector('#login').hidden;")
        try await browser.type("#token", "wrong")
        try await browser.click("#login button[type=submit]")
        _ = try await browser.wait("wrong token said", for: "return document.querySelector('#login-error').textContent === 'Wrong token';")
        try await browser.type("#token", "demo-secret")
        try await browser.click("#login button[type=submit]")
        _ = try await browser.wait("the devices", for: "return document.querySelector('#login').hidden && document.querySelectorAll('[data-id]').length > 3;")
        try await browser.click("#logout")
        _ = try await browser.wait("the login form again", for: "return !document.querySelector('#login').hidden;")
        await Self.stop(rig, browser)
    }

    /// served under a path prefix, as ingress does, every file and the websocket load.
    static func pathPrefix(_ rig: DemoRig, _ browser: WebDriver) async throws {
        let url = "http://127.0.0.1:\(rig.frontendPort)/api/hassio_ingress/t0k3n/"
        try await browser.open(url)
        _ = try await browser.wait("the devices", for: "return document.querySelectorAll('[data-id]').length > 3;")
        let resources = try await browser.run("return performance.getEntriesByType('resource').map((entry) => entry.name);")
        guard case .array(let names) = resources else { throw TestFailure("no resource list") }
        #expect(names.count >= 5)
        for name in names.compactMap(\.stringValue) { #expect(name.hasPrefix(url), "\(name) is not under the prefix") }
    }
}

@Suite("Frontend in Chromium with many devices", .timeLimit(.minutes(2)), .needs(.browser))
struct ManyDevicesBrowserTests {
    @Test("with 200 devices the page lists them all and filters them within 2 s of load")
    func twoHundredDevices() async throws {
        let frontend = try await FrontendHarness.start(lights: 200)
        let browser = try await WebDriver.start()
        let started = ContinuousClock.now
        try await browser.open(frontend.url + "/")
        _ = try await browser.wait("200 devices", for: "return document.querySelectorAll('[data-id]').length === 200;", every: .milliseconds(20))
        try await browser.type("#view input[type=search]", "Light 19")
        _ = try await browser.wait("the filter applied", for: "return document.querySelectorAll('[data-id]').length === 11;", every: .milliseconds(20))
        let elapsed = ContinuousClock.now - started
        #expect(elapsed < .seconds(2), "listed and filtered after \(elapsed)")
        await browser.stop()
        await frontend.stop()
    }
}

@Suite("The Cluster card in Chromium", .timeLimit(.minutes(2)), .needs(.broker, .busMock, .browser))
struct ClusterBrowserTests {
    @Test("a bridge of a cluster: its Bridge page lists it in the Cluster card with its room and adapter")
    func clusterCard() async throws {
        let broker = try await Broker.start()
        let standIn = try await BlueZStandIn.start()
        let port = try LocalPorts.free()
        let config = TestConfig.yaml(
            port: broker.port,
            extra: "ble:\n  enabled: true\ncluster:\n  bridge_id: kitchen\n  room: kitchen\nfrontend:\n  enabled: true\n  port: \(port)\n")
        let bridge = try BridgeProcess.start(config: config, environment: standIn.environment)
        try await broker.waitForRetained("t2m/_cluster/bridges/kitchen", timeout: .seconds(15)) { $0.json?["adapters"] == ["hci0"] }
        let browser = try await WebDriver.start()
        try await browser.open("http://127.0.0.1:\(port)/#/bridge")
        let row = try await browser.wait(
            "the kitchen's row", for: "const row = document.querySelector('tr[data-bridge=\"kitchen\"]'); return row ? row.textContent : null;")
        #expect(row.stringValue?.contains("kitchen (this one)") == true, "\(row)")
        #expect(row.stringValue?.contains("hci0") == true, "\(row)")
        await browser.stop()
        #expect(try await bridge.terminate() == 0)
    }
}
