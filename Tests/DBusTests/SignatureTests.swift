@testable import DBus
import Testing

/// Signature parsing and match-rule text, pure.
@Suite struct SignatureTests {
    @Test(
        "valid signatures parse into complete types and print back unchanged",
        arguments: [
            ("", 0), ("y", 1), ("ybnqiuxtdsogh", 13), ("v", 1), ("as", 1), ("a{sv}", 1), ("a{oa{sa{sv}}}", 1),
            ("(i)", 1), ("(ii)(s)", 2), ("aay", 1), ("a(ays)", 1), ("sa{sv}as", 3),
            (String(repeating: "a", count: 32) + "y", 1),
        ])
    func valid(signature: String, count: Int) throws {
        let types = try DBusType.parse(signature)
        #expect(types.count == count)
        #expect(types.map(\.signature).joined() == signature)
    }

    @Test(
        "malformed signatures are refused",
        arguments: [
            "a", "(", ")", "()", "a{s}", "a{svs}", "a{vs}", "{sv}", "a{(i)s}", "z", "(i", "a{sv",
            String(repeating: "a", count: 33) + "y", String(repeating: "y", count: 256),
            String(repeating: "(", count: 33) + "y" + String(repeating: ")", count: 33),
        ])
    func malformed(signature: String) {
        #expect(throws: DBusError.self) { try DBusType.parse(signature) }
    }

    @Test("a match rule lists its components in the daemon's syntax")
    func ruleText() throws {
        let rule = DBusMatchRule(
            sender: "org.bluez", interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
            pathNamespace: "/org/bluez")
        #expect(
            try rule.text()
                == "type='signal',sender='org.bluez',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path_namespace='/org/bluez'"
        )
        #expect(try DBusMatchRule().text() == "type='signal'")
    }

    @Test("an apostrophe in a value is escaped outside the quotes")
    func ruleQuoting() throws {
        #expect(try DBusMatchRule(arg0: "it's").text() == "type='signal',arg0='it'\\''s'")
    }

    @Test(
        "a rule with an invalid component is refused",
        arguments: [
            DBusMatchRule(sender: "not a name"), DBusMatchRule(interface: "nodots"), DBusMatchRule(member: "a.b"),
            DBusMatchRule(path: "relative"), DBusMatchRule(path: "/a", pathNamespace: "/a"),
            DBusMatchRule(arg0: "nul\u{0}"),
        ])
    func invalidRule(rule: DBusMatchRule) {
        #expect(throws: DBusError.self) { try rule.text() }
    }

    @Test(
        "path_namespace matches the path itself and everything below it",
        arguments: [
            ("/org/bluez", "/org/bluez", true), ("/org/bluez/hci0", "/org/bluez", true),
            ("/org/bluezz", "/org/bluez", false), ("/org", "/org/bluez", false), ("/anything", "/", true),
        ])
    func pathNamespace(path: String, namespace: String, matches: Bool) {
        #expect(DBusMatchRule.path(path, isIn: namespace) == matches)
    }
}
