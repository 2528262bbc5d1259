@testable import DBus
import Testing

@Suite("The loop thread's reuse of a signal's interface and member text")
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
}
