@testable import DBus
import Testing

@Suite("The loop thread's reuse of a signal's interface, member and path text")
struct SignalNamesTests {
    private func signal(_ interface: String, _ member: String) throws -> MessageRef {
        try MessageRef.signal(path: "/org/bluez/hci0", interface: interface, member: member, operation: "test")
    }

    @Test("each signal reads as its own names, whether they repeat the last ones or not")
    func namesFollowEachSignal() throws {
        var names = SignalNames()
        let sequence = [
            ("org.freedesktop.DBus.Properties", "PropertiesChanged"), ("org.freedesktop.DBus.Properties", "PropertiesChanged"),
            ("org.freedesktop.DBus.ObjectManager", "InterfacesAdded"), ("org.freedesktop.DBus.Properties", "InterfacesAdded"),
            ("org.freedesktop.DBus.Properties", "PropertiesChanged"),
        ]
        for (interface, member) in sequence {
            let read = try #require(names.read(try signal(interface, member)))
            #expect(read.interface == interface && read.member == member)
        }
    }

    @Test("each signal reads as its own path, also when more paths come than the table has slots")
    func pathsFollowEachSignal() throws {
        var names = SignalNames()
        // 3,000 devices, twice round: many share a slot, so a path is found again, replaced, and made again.
        let paths = (0..<3000).map { "/org/bluez/hci0/dev_A4_C1_38_00_\(String($0 / 256, radix: 16))_\(String($0 % 256, radix: 16))" }
        for path in paths + paths.reversed() + paths {
            let message = try MessageRef.signal(path: path, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", operation: "test")
            #expect(names.path(message) == path)
        }
    }
}
