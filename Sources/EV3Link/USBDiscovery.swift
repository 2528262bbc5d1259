import FoundationEssentials

/// Finds EV3 bricks on USB: hidraw devices whose HID id is LEGO's vendor `0694` and the EV3's product `0005`,
/// read from sysfs (`/sys/class/hidraw/hidrawN/device/uevent`, line `HID_ID=0003:00000694:00000005`).
public enum EV3USBDiscovery {
    /// LEGO's USB vendor id.
    public static let vendorID: UInt32 = 0x0694
    /// The EV3 brick's product id.
    public static let productID: UInt32 = 0x0005

    /// The device paths of every EV3 brick, sorted; `sysfs` and `dev` can point at a fake tree for tests.
    public static func devices(sysfs: String = "/sys", dev: String = "/dev") -> [String] {
        let folder = sysfs + "/class/hidraw"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names.filter { name in
            guard name.hasPrefix("hidraw"),
                let uevent = try? String(contentsOfFile: "\(folder)/\(name)/device/uevent", encoding: .utf8)
            else { return false }
            return uevent.split(whereSeparator: \.isNewline).contains { isEV3(hidID: $0) }
        }
        .sorted { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }
        .map { "\(dev)/\($0)" }
    }

    /// Whether a uevent line `HID_ID=bus:vendor:product` (hex) names an EV3.
    static func isEV3(hidID line: Substring) -> Bool {
        guard line.hasPrefix("HID_ID=") else { return false }
        let parts = line.dropFirst(7).split(separator: ":")
        guard parts.count == 3, let vendor = UInt32(parts[1], radix: 16), let product = UInt32(parts[2], radix: 16) else {
            return false
        }
        return vendor == vendorID && product == productID
    }
}
