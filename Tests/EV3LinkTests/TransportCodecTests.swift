@testable import EV3Link
import EV3Protocol
import Foundation
import Support
import TestSupport
import Testing

@Suite("EV3 transports: beacon, WiFi unlock, RFCOMM address, USB discovery")
struct TransportCodecTests {
    @Test(
        "beacons parse as the firmware writes them; anything else is not a beacon",
        arguments: [
            ("Serial-Number: 0016533f0c1e\r\nPort: 5555\r\nName: EV3\r\nProtocol: EV3\r\n", "0016533f0c1e 5555 EV3"),
            ("Serial-Number: 0016533F0C1E\nPort: 6000\nName: robot 1\nProtocol: EV3\n", "0016533f0c1e 6000 robot 1"),
            ("Protocol: EV3\r\nName:\r\nPort:5555\r\nSerial-Number:001653aabbcc\r\nExtra: x\r\n", "001653aabbcc 5555 "),
            ("Serial-Number: 0016533f0c1e\r\nPort: 5555\r\nName: EV3\r\nProtocol: NXT\r\n", "-"),
            ("Serial-Number: 0016533f0c1e\r\nPort: 0\r\nName: EV3\r\nProtocol: EV3\r\n", "-"),
            ("Serial-Number: 0016533f0c\r\nPort: 5555\r\nName: EV3\r\nProtocol: EV3\r\n", "-"),
            ("Port: 5555\r\nName: EV3\r\nProtocol: EV3\r\n", "-"),
            ("\u{FF}\u{00}garbage", "-"),
        ])
    func beacon(text: String, expected: String) {
        let parsed = EV3Beacon(datagram: Array(text.utf8))
        #expect(parsed.map { "\($0.serialNumber) \($0.port) \($0.name)" } ?? "-" == expected)
    }

    @Test("a beacon written back out is the firmware's 67 bytes and parses to itself")
    func beaconRoundTrip() {
        let beacon = EV3Beacon(serialNumber: "0016533f0c1e", port: 5555, name: "EV3")
        #expect(beacon.datagram.count == 67)
        #expect(EV3Beacon(datagram: beacon.datagram) == beacon)
    }

    @Test(
        "the unlock waits for Accept:EV340, keeps what follows it, refuses anything else",
        arguments: [
            ("", WiFiUnlock.Progress.waiting),
            ("Accept:EV3", .waiting),
            ("Accept:EV340\r\n\r\n", .accepted(leftover: [])),
            ("Accept:EV340\r\n\r\n\u{07}\u{00}", .accepted(leftover: [7, 0])),
            ("HTTP/1.1 404", .refused("unexpected answer \"HTTP/1.1 404\"")),
        ])
    func unlock(received: String, expected: WiFiUnlock.Progress) {
        #expect(WiFiUnlock.progress(Array(received.utf8)) == expected)
    }

    @Test("the unlock request is the brick software's own, with the serial when it is known")
    func unlockRequest() {
        #expect(String(decoding: WiFiUnlock.request(serial: "0016533f0c1e"), as: UTF8.self) == "GET /target?sn=0016533F0C1E VMTP1.0\nProtocol: EV3")
        #expect(String(decoding: WiFiUnlock.request(serial: nil), as: UTF8.self).contains("ET /target?sn="))
    }

    @Test(
        "sockaddr_rc holds family 31, the address least significant octet first, and channel 1, in 10 bytes",
        arguments: [
            ("00:16:53:3F:0C:1E", "1F 00 1E 0C 3F 53 16 00 01 00"),
            ("AA-BB-CC-DD-EE-FF", "1F 00 FF EE DD CC BB AA 01 00"),
            ("01:02:03:04:05:06", "1F 00 06 05 04 03 02 01 01 00"),
        ])
    func socketAddress(address: String, expected: String) throws {
        let parsed = try BluetoothAddress(address)
        #expect(hex(parsed.socketAddress.bytes) == expected)
        #expect(parsed.compact == address.filter { $0.isHexDigit }.lowercased())
    }

    @Test("the hand-declared struct has the C layout: offsets 0, 2 and 8, size 10")
    func socketAddressLayout() {
        #expect(MemoryLayout<SockaddrRC>.offset(of: \.family) == 0)
        #expect(MemoryLayout<SockaddrRC>.offset(of: \.bdaddr) == 2)
        #expect(MemoryLayout<SockaddrRC>.offset(of: \.channel) == 8)
        #expect(SockaddrRC.length == 10)
    }

    @Test("USB discovery finds hidraw devices with LEGO's ids in sysfs, and only those")
    func usbDiscovery() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ev3-sysfs-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let devices = [
            ("hidraw0", "DRIVER=hid-generic\nHID_ID=0003:0000046D:0000C52B\nHID_NAME=Logitech\n"),
            ("hidraw1", "DRIVER=hid-generic\nHID_ID=0003:00000694:00000005\nHID_NAME=LEGO Group EV3 brick\n"),
            ("hidraw10", "HID_ID=0003:00000694:00000005\n"),
            ("hidraw2", "HID_ID=0003:00000694:00000002\n"),
            ("hidraw3", "HID_NAME=no id\n"),
        ]
        for (name, uevent) in devices {
            let folder = "\(root)/class/hidraw/\(name)/device"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try uevent.write(toFile: folder + "/uevent", atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: "\(root)/class/hidraw/hidraw4", withIntermediateDirectories: true)
        #expect(EV3USBDiscovery.devices(sysfs: root, dev: "/dev") == ["/dev/hidraw1", "/dev/hidraw10"])
        #expect(EV3USBDiscovery.devices(sysfs: root + "/missing").isEmpty)
    }

    @Test(
        "transport defaults: 1 s for WiFi and USB, 2 s and 50 ms pacing for Bluetooth and its tty",
        arguments: [
            (EV3Endpoint.wifi(host: "ev3"), Duration.seconds(1), Duration.zero),
            (.usb(path: "/dev/hidraw0"), .seconds(1), .zero),
            (.serial(path: "/dev/rfcomm0"), .seconds(2), .milliseconds(50)),
            (.bluetooth(try! BluetoothAddress("00:16:53:3F:0C:1E")), .seconds(2), .milliseconds(50)),
        ])
    func defaults(endpoint: EV3Endpoint, timeout: Duration, interval: Duration) {
        let options = EV3LinkOptions.defaults(for: endpoint.transport)
        #expect(options.replyTimeout == timeout && options.minimumInterval == interval)
    }
}
