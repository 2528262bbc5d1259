import Foundation
import LIFXModels
import LIFXSimulator
import Testing

@Suite("LIFX cloud simulator over HTTP")
struct SimulatorTests {
    @Test("requests without a valid token get 401", arguments: [
        (nil, "Token required"), ("wrong", "Invalid token"),
    ] as [(String?, String)])
    func unauthorized(_ token: String?, _ message: String) async throws {
        try await withRunning(.demo(token: "token")) { simulator in
            let response = try await send("GET", "/lights/all", to: simulator, token: token)
            #expect(response.status == 401)
            #expect(response.errorMessage == message)
            #expect(simulator.requests().map(\.status) == [401])
        }
    }

    @Test("rotating the token locks out the old one")
    func rotatedToken() async throws {
        try await withRunning(.demo(token: "token")) { simulator in
            let before = try await send("GET", "/lights/all", to: simulator)
            simulator.setToken("fresh")
            let stale = try await send("GET", "/lights/all", to: simulator)
            let fresh = try await send("GET", "/lights/all", to: simulator, token: "fresh")
            let statuses = [before.status, stale.status, fresh.status]
            #expect(statuses == [200, 401, 200])
        }
    }

    @Test("every answer carries rate-limit headers and the budget ends in 429")
    func rateLimit() async throws {
        let simulator = LIFXCloudSimulator(token: "token", lights: LIFXCloudSimulator.demo(token: "x").lights(),
                                           rateLimit: 3, rateWindow: .seconds(60))
        try await withRunning(simulator) { simulator in
            let started = Int(Date().timeIntervalSince1970)
            var remaining: [String?] = []
            for _ in 0..<3 {
                let response = try await send("GET", "/lights/all", to: simulator)
                #expect(response.status == 200)
                #expect(response.headers["x-ratelimit-limit"] == "3")
                remaining.append(response.headers["x-ratelimit-remaining"])
            }
            #expect(remaining == ["2", "1", "0"])
            let refused = try await send("GET", "/lights/all", to: simulator)
            #expect(refused.status == 429)
            #expect(refused.errorMessage == "Rate limit exceeded")
            #expect(refused.headers["x-ratelimit-remaining"] == "0")
            let reset = try #require(refused.headers["x-ratelimit-reset"].flatMap { Int($0) })
            #expect(reset >= started + 59 && reset <= started + 62)
        }
    }

    @Test("a forced rate limit advertises its end as the reset epoch")
    func forcedRateLimit() async throws {
        try await withRunning(.demo(token: "token")) { simulator in
            let until = Date().addingTimeInterval(30).timeIntervalSince1970.rounded(.up)
            simulator.rateLimit(until: Date(timeIntervalSince1970: until))
            let response = try await send("PUT", "/lights/all/state", to: simulator, body: #"{"power":"on"}"#)
            #expect(response.status == 429)
            #expect(response.headers["x-ratelimit-remaining"] == "0")
            #expect(response.headers["x-ratelimit-reset"] == String(Int(until)))
        }
    }

    @Test("every answer carries a Date header; a clock offset shifts it and the reset alike")
    func skewedClock() async throws {
        try await withRunning(.demo(token: "token")) { simulator in
            let start = Date()
            let plain = try await send("GET", "/lights/all", to: simulator)
            let date = try #require(plain.headers["date"].flatMap(HTTPDate.parse))
            let until = Date().addingTimeInterval(30).timeIntervalSince1970.rounded(.up)
            simulator.setClockOffset(.seconds(-3600))
            simulator.rateLimit(until: Date(timeIntervalSince1970: until))
            let refused = try await send("GET", "/lights/all", to: simulator)
            // Whole seconds between the two answers, so a machine that stalls between them does not fail the test.
            let apart = Date().timeIntervalSince(start).rounded(.up)
            #expect(refused.status == 429)
            let skewedDate = try #require(refused.headers["date"].flatMap(HTTPDate.parse))
            let reset = try #require(refused.headers["x-ratelimit-reset"].flatMap { Double($0) })
            #expect(reset == until - 3600)
            #expect((3_599 - apart...3_600).contains(date - skewedDate), "the clock moved back an hour")
            #expect((29 - apart...31).contains(reset - skewedDate), "the reset is still about 30 s after the server's now")
        }
    }

    @Test("set state changes the light, quantised, and answers 207 results")
    func setState() async throws {
        try await withRunning(.demo(token: "token")) { simulator in
            let body = #"{"power":"on","color":"hue:60 saturation:1","brightness":0.3,"duration":2}"#
            let response = try await send("PUT", "/lights/id:d073d5000004/state", to: simulator, body: body)
            #expect(response.status == 207)
            #expect(response.results.count == 1)
            #expect(response.results.first?["id"] as? String == "d073d5000004")
            #expect(response.results.first?["status"] as? String == "ok")
            let light = try #require(simulator.light(id: "d073d5000004"))
            #expect(light.power)
            #expect(light.hue == 59.997253376058595)
            #expect(light.brightness == 0.29999237048905164)

            let listed = try await send("GET", "/lights/id:d073d5000004", to: simulator)
            // JSONSerialization on Linux rounds the last digits, so decode with JSONDecoder.
            struct Bulb: Decodable { var power: String; var brightness: Double }
            let bulbs = try JSONDecoder().decode([Bulb].self, from: Data(listed.body.utf8))
            #expect(bulbs.map(\.brightness) == [0.29999237048905164])
            #expect(bulbs.map(\.power) == ["on"])

            let recorded = try #require(simulator.requests().first)
            #expect(recorded.method == "PUT")
            #expect(recorded.uri == "/v1/lights/id:d073d5000004/state")
            #expect(recorded.status == 207)
            #expect((recorded.jsonBody() as? [String: Any])?["power"] as? String == "on")
        }
    }

    @Test("form bodies and percent-encoded selectors work")
    func formBody() async throws {
        try await withRunning(.demo(token: "token")) { simulator in
            let response = try await send("PUT", "/lights/group:Living%20Room/state", to: simulator,
                                          body: "power=off&brightness=0.5",
                                          contentType: "application/x-www-form-urlencoded")
            #expect(response.status == 207)
            #expect(response.results.compactMap { $0["id"] as? String }
                == ["d073d5000001", "d073d5000002", "d073d5000003"])
            #expect(simulator.lights().prefix(3).allSatisfy { !$0.power && $0.brightness == 32767.0 / 65535 })
            #expect(simulator.requests().first?.path == "/v1/lights/group:Living Room/state")
            #expect(simulator.requests().first?.jsonBody() as? [String: String] == ["power": "off", "brightness": "0.5"])
        }
    }

    @Test("offline lights are reported and left unchanged")
    func offline() async throws {
        try await withRunning(.demo(token: "token")) { simulator in
            simulator.updateLight(id: "d073d5000005") { $0.connected = false }
            let response = try await send("PUT", "/lights/group:Bedroom/state", to: simulator, body: #"{"power":"on"}"#)
            let statuses = response.results.map { "\($0["id"] ?? "")=\($0["status"] ?? "")" }
            #expect(statuses == ["d073d5000004=ok", "d073d5000005=offline"])
            #expect(simulator.light(id: "d073d5000004")?.power == true)
            #expect(simulator.light(id: "d073d5000005")?.power == false)
        }
    }

    @Test("invalid parameters answer 422 with per-field errors")
    func validation() async throws {
        try await withRunning(.demo(token: "token")) { simulator in
            let response = try await send("PUT", "/lights/all/state", to: simulator,
                                          body: #"{"power":"maybe","color":"chartreuse","brightness":2}"#)
            #expect(response.status == 422)
            let errors = try #require((response.json as? [String: Any])?["errors"] as? [[String: Any]])
            #expect(errors.compactMap { $0["field"] as? String } == ["power", "color", "brightness"])
            let breathe = try await send("POST", "/lights/all/effects/breathe", to: simulator, body: "{}")
            #expect(breathe.status == 422)
            #expect(breathe.errorMessage == "color is missing")
            #expect(simulator.lights() == LIFXCloudSimulator.demo(token: "x").lights().map { light in
                var same = light
                same.lastSeen = simulator.light(id: light.id)?.lastSeen ?? light.lastSeen
                return same
            })
        }
    }

    @Test("batch states merge defaults and report unmatched selectors")
    func batch() async throws {
        try await withRunning(.demo(token: "token")) { simulator in
            let body = """
                {"states":[{"selector":"group:Bedroom","power":"on"},{"selector":"id:d073d5999999","brightness":0.5}],
                 "defaults":{"duration":5.0,"brightness":0.2}}
                """
            let response = try await send("PUT", "/lights/states", to: simulator, body: body)
            #expect(response.status == 207)
            let operations = response.results
            #expect(operations.count == 2)
            let first = try #require(operations.first)
            #expect((first["operation"] as? [String: Any])?["duration"] as? Double == 5)
            #expect((first["results"] as? [[String: Any]])?.count == 2)
            #expect(operations.last?["error"] as? String == "not found")
            let bedside = try #require(simulator.light(id: "d073d5000004"))
            #expect(bedside.power && bedside.brightness == 13107.0 / 65535)
        }
    }

    @Test("fast mode answers 202 without a body but still applies")
    func fast() async throws {
        try await withRunning(.demo(token: "token")) { simulator in
            let response = try await send("PUT", "/lights/id:d073d5000004/state", to: simulator,
                                          body: #"{"power":"on","fast":true}"#)
            #expect(response.status == 202)
            #expect(response.body.isEmpty)
            #expect(simulator.light(id: "d073d5000004")?.power == true)
        }
    }

    @Test("toggle flips the whole selection and reports power")
    func toggle() async throws {
        try await withRunning(.demo(token: "token")) { simulator in
            let response = try await send("POST", "/lights/group:Living%20Room/toggle", to: simulator)
            #expect(response.results.compactMap { $0["power"] as? String } == ["off", "off", "off"])
            let again = try await send("POST", "/lights/group:Living%20Room/toggle", to: simulator)
            #expect(again.results.compactMap { $0["power"] as? String } == ["on", "on", "on"])
        }
    }

    @Test("injected failures come first, then normal service")
    func injectedFailures() async throws {
        try await withRunning(.demo(token: "token")) { simulator in
            simulator.failNext(2, status: 503)
            let statuses = try await [
                send("GET", "/lights/all", to: simulator).status,
                send("GET", "/lights/all", to: simulator).status,
                send("GET", "/lights/all", to: simulator).status,
            ]
            #expect(statuses == [503, 503, 200])
        }
    }

    @Test("latency delays answers without serialising connections")
    func latency() async throws {
        try await withRunning(.demo(token: "token")) { simulator in
            simulator.setLatency(.milliseconds(3000))
            let clock = ContinuousClock()
            let start = clock.now
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await send("GET", "/lights/all", to: simulator).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let elapsed = clock.now - start
            #expect(statuses == Array(repeating: 200, count: 8))
            #expect(elapsed >= .milliseconds(3000))
            // Long answers leave a wide margin: serialised answers would add 21 s, while a loaded machine has added
            // more than 10 (13.6 s in all, with the whole suite and two busy loops on two cores).
            #expect(elapsed < .milliseconds(20000), "8 × 3 s would take 24 s if answers were serialised")
        }
    }

    @Test("scene activation applies states with an empty body")
    func scene() async throws {
        try await withRunning(.demo(token: "token")) { simulator in
            let scenes = try await send("GET", "/scenes", to: simulator)
            let uuid = try #require((scenes.json as? [[String: Any]])?.first?["uuid"] as? String)
            let response = try await send("PUT", "/scenes/scene_id:\(uuid)/activate", to: simulator)
            #expect(response.status == 207)
            #expect(response.results.count == 3)
            #expect(simulator.light(id: "d073d5000001")?.kelvin == 2700)
            #expect(simulator.light(id: "d073d5000004")?.power == false)
        }
    }

    @Test("a thousand lights are listed in one response")
    func largeAccount() async throws {
        try await withRunning(.generated(count: 1000, token: "token")) { simulator in
            let response = try await send("GET", "/lights/all", to: simulator)
            #expect((response.json as? [Any])?.count == 1000)
            let waited = try await simulator.waitForRequests(count: 1, where: { $0.status == 200 }, timeout: .seconds(1))
            #expect(waited.count == 1)
        }
    }
}
