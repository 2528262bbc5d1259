import Foundation
import LIFXSimulator
import Testing

@Suite("LIFX cloud simulator endpoints")
struct SimulatorEndpointTests {
    @Test("colour validation answers nulls for unset components and 422 for nonsense")
    func color() async throws {
        try await withRunning(.demo(token: "token")) { simulator in
            let valid = try await send("GET", "/color?string=kelvin%3A2700%20brightness%3A0.5", to: simulator)
            #expect(valid.status == 200)
            #expect(valid.body == #"{"hue":null,"saturation":0.0,"brightness":0.5,"kelvin":2700}"#)
            let invalid = try await send("GET", "/color?string=chartreuse", to: simulator)
            #expect(invalid.status == 422)
            #expect(simulator.requests().map(\.uri) == [
                "/v1/color?string=kelvin%3A2700%20brightness%3A0.5", "/v1/color?string=chartreuse",
            ])
        }
    }

    @Test("unknown routes and selectors matching nothing answer 404", arguments: [
        ("GET", "/lights/id:d073d5ffffff"), ("GET", "/nothing"), ("POST", "/lights/all/effects/explode"),
        ("DELETE", "/lights/all"), ("PUT", "/scenes/scene_id:unknown/activate"),
    ])
    func notFound(_ method: String, _ path: String) async throws {
        try await withRunning(.demo(token: "token")) { simulator in
            let response = try await send(method, path, to: simulator)
            #expect(response.status == 404)
            #expect(response.errorMessage?.isEmpty == false)
        }
    }

    @Test("effects mark the light and off clears it")
    func effects() async throws {
        try await withRunning(.demo(token: "token")) { simulator in
            let breathe = try await send("POST", "/lights/id:d073d5000004/effects/breathe", to: simulator,
                                         body: #"{"color":"red","period":2,"cycles":3}"#)
            #expect(breathe.status == 207)
            #expect(simulator.light(id: "d073d5000004")?.effect == "BREATHE")
            #expect(simulator.light(id: "d073d5000004")?.power == true)
            let off = try await send("POST", "/lights/id:d073d5000004/effects/off", to: simulator,
                                     body: #"{"power_off":true}"#)
            #expect(off.status == 207)
            let light = try #require(simulator.light(id: "d073d5000004"))
            #expect(light.effect == "OFF")
            #expect(!light.power)
        }
    }

    @Test("delta rotates hue and clips brightness and kelvin")
    func delta() async throws {
        try await withRunning(.demo(token: "token")) { simulator in
            simulator.updateLight(id: "d073d5000001") { light in
                light.hue = 350
                light.brightness = 0.9
                light.kelvin = 8800
            }
            let response = try await send("POST", "/lights/id:d073d5000001/state/delta", to: simulator,
                                          body: #"{"hue":20,"brightness":0.5,"kelvin":1000}"#)
            #expect(response.status == 207)
            let light = try #require(simulator.light(id: "d073d5000001"))
            #expect(abs(light.hue - 10) < 0.01)
            #expect(light.brightness == 1)
            #expect(light.kelvin == 9000)
        }
    }

    @Test("a white-only bulb keeps saturation 0 and its kelvin range")
    func whiteOnly() async throws {
        try await withRunning(.demo(token: "token")) { simulator in
            let response = try await send("PUT", "/lights/id:d073d5000003/state", to: simulator,
                                          body: #"{"color":"red kelvin:9000"}"#)
            #expect(response.status == 207)
            let light = try #require(simulator.light(id: "d073d5000003"))
            #expect(!light.hasColor)
            #expect(light.saturation == 0)
            #expect(light.kelvin == 6500)
        }
    }

    @Test("stop closes the port and start can bind again")
    func restart() async throws {
        // A private token: should a parallel test rebind the freed port, it answers 401, not 200.
        let token = "restart-\(UInt64.random(in: 0...UInt64.max))"
        let simulator = LIFXCloudSimulator.demo(token: token)
        let port = try await simulator.start()
        #expect(simulator.baseURL == "http://127.0.0.1:\(port)/v1")
        #expect(try await send("GET", "/scenes", to: simulator, token: token).status == 200)
        try await simulator.stop()
        // The client keeps retrying a refused connection until its deadline, so keep that short.
        let afterStop = try? await send("GET", "/scenes", to: simulator, token: token, timeout: 1)
        #expect(afterStop == nil || afterStop?.status == 401)
        _ = try await simulator.start()
        let again = try await send("GET", "/scenes", to: simulator, token: token)
        try await simulator.stop()
        #expect(again.status == 200)
        #expect(simulator.requests().count == 2)
    }
}
