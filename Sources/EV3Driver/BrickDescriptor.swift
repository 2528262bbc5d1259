import BridgeCore
import EV3Link
import EV3Protocol

/// A brick's description for `bridge/devices` and Home Assistant.
enum BrickDescriptor {
    /// Device `ev3_<serial>`, labelled with the brick's name, its versions once it has answered, and the
    /// exposes of what is plugged in.
    static func make(id: DeviceID, endpoint: EV3Endpoint, info: EV3BrickInfo?, model: BrickModel) -> DeviceDescriptor {
        var details: [String: JSONValue] = [
            "transport": .string(transportName(endpoint.transport)), "endpoint": .string(endpoint.description),
        ]
        if let build = info?.firmwareBuild, !build.isEmpty { details["firmware_build"] = .string(build) }
        let serial = id.rawValue.dropFirst("ev3_".count)
        return DeviceDescriptor(
            id: id, kind: "brick", manufacturer: "LEGO", model: "EV3", modelID: "45500",
            serialNumber: serial.count == 12 ? String(serial) : nil,
            softwareVersion: info.flatMap { $0.firmwareVersion.isEmpty ? nil : $0.firmwareVersion },
            hardwareVersion: info.flatMap { $0.hardwareVersion.isEmpty ? nil : $0.hardwareVersion },
            label: model.state["name"]?.stringValue ?? info?.name, exposes: model.exposes, details: details)
    }

    static func transportName(_ transport: EV3Endpoint.Transport) -> String {
        switch transport {
        case .wifi: "wifi"
        case .bluetooth: "bluetooth"
        case .usb: "usb"
        }
    }
}
