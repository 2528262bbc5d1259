import CDBus

/// Checks names, paths and strings before they reach libdbus: its argument checks abort the process, and a
/// bad name must be the caller's typed error instead.
enum Validate {
    static func path(_ value: String, _ operation: @autoclosure () -> String) throws(DBusError) {
        try check(value, "object path", operation()) { dbus_validate_path($0, nil) }
    }

    static func interface(_ value: String, _ operation: @autoclosure () -> String) throws(DBusError) {
        try check(value, "interface name", operation()) { dbus_validate_interface($0, nil) }
    }

    static func member(_ value: String, _ operation: @autoclosure () -> String) throws(DBusError) {
        try check(value, "member name", operation()) { dbus_validate_member($0, nil) }
    }

    static func busName(_ value: String, _ operation: @autoclosure () -> String) throws(DBusError) {
        try check(value, "bus name", operation()) { dbus_validate_bus_name($0, nil) }
    }

    /// D-Bus strings are NUL-terminated on the way into libdbus, so an embedded NUL would silently cut them.
    static func string(_ value: String, _ operation: @autoclosure () -> String) throws(DBusError) {
        guard !value.utf8.contains(0) else {
            throw DBusError(.invalidArgument, "string contains a NUL character", operation: operation())
        }
    }

    private static func check(
        _ value: String, _ kind: String, _ operation: String, _ validate: (UnsafePointer<CChar>) -> dbus_bool_t
    ) throws(DBusError) {
        let valid = !value.utf8.contains(0) && value.withCString { validate($0) != 0 }
        guard valid else { throw DBusError(.invalidArgument, "\"\(value)\" is not a valid \(kind)", operation: operation) }
    }
}
