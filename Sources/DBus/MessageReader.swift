import CDBus
import Glibc

/// Reads a message body into values through libdbus iterators. libdbus has already checked the wire
/// format (signatures, UTF-8, object paths), so reading never meets malformed data; a value of a type this
/// module does not carry (a Unix fd) is reported as a decoding error.
enum MessageReader {
    static func read(_ message: OpaquePointer) throws(DBusError) -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return [] }
        return try readAll(&iter)
    }

    private static func failure(_ message: String) -> DBusError { DBusError(.decoding, message, operation: "decode") }

    /// Reads from the iterator's position to the end of its container.
    private static func readAll(_ iter: inout DBusMessageIter) throws(DBusError) -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iter) != T2M_DBUS_TYPE_INVALID {
            values.append(try readOne(&iter))
            dbus_message_iter_next(&iter)
        }
        return values
    }

    static func readOne(_ iter: inout DBusMessageIter) throws(DBusError) -> DBusValue {
        let code = dbus_message_iter_get_arg_type(&iter)
        var basic = DBusBasicValue()
        switch code {
        case T2M_DBUS_TYPE_ARRAY: return try readArray(&iter)
        case T2M_DBUS_TYPE_STRUCT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .structure(try readAll(&sub))
        case T2M_DBUS_TYPE_VARIANT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            guard dbus_message_iter_get_arg_type(&sub) != T2M_DBUS_TYPE_INVALID else { throw failure("empty variant") }
            return .variant(try readOne(&sub))
        default:
            // get_basic on anything but a basic type is an argument error, which libdbus answers by aborting.
            guard dbus_type_is_basic(code) != 0 else { throw failure("unknown type code \(code)") }
            dbus_message_iter_get_basic(&iter, &basic)
        }
        switch code {
        case T2M_DBUS_TYPE_BYTE: return .byte(basic.byt)
        case T2M_DBUS_TYPE_BOOLEAN: return .bool(basic.bool_val != 0)
        case T2M_DBUS_TYPE_INT16: return .int16(basic.i16)
        case T2M_DBUS_TYPE_UINT16: return .uint16(basic.u16)
        case T2M_DBUS_TYPE_INT32: return .int32(basic.i32)
        case T2M_DBUS_TYPE_UINT32: return .uint32(basic.u32)
        case T2M_DBUS_TYPE_INT64: return .int64(Int64(basic.i64))
        case T2M_DBUS_TYPE_UINT64: return .uint64(UInt64(basic.u64))
        case T2M_DBUS_TYPE_DOUBLE: return .double(basic.dbl)
        case T2M_DBUS_TYPE_STRING: return .string(String(cString: basic.str))
        case T2M_DBUS_TYPE_OBJECT_PATH: return .objectPath(String(cString: basic.str))
        case T2M_DBUS_TYPE_SIGNATURE: return .signature(DBusSignature(String(cString: basic.str)))
        case T2M_DBUS_TYPE_UNIX_FD:
            // libdbus hands over a duplicate that the reader owns; nothing here uses it, so it is closed.
            if basic.fd >= 0 { close(basic.fd) }
            throw failure("Unix file descriptors are not supported")
        default:
            throw failure("unknown type code \(code)")
        }
    }

    private static func readArray(_ iter: inout DBusMessageIter) throws(DBusError) -> DBusValue {
        let elementCode = dbus_message_iter_get_element_type(&iter)
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        if elementCode == T2M_DBUS_TYPE_BYTE {
            var start: UnsafeRawPointer?
            var count: Int32 = 0
            withUnsafeMutablePointer(to: &start) { dbus_message_iter_get_fixed_array(&sub, $0, &count) }
            guard let start, count > 0 else { return .bytes([]) }
            return .bytes(Array(UnsafeRawBufferPointer(start: start, count: Int(count))))
        }
        // The element signature is what keeps an empty array typed.
        guard let raw = dbus_message_iter_get_signature(&iter) else {
            throw DBusError(.noMemory, "cannot read an array's signature", operation: "decode")
        }
        let text = String(cString: raw)
        dbus_free(raw)
        switch try Self.arrayType(text) {
        case .dictionary(let key, let value):
            var entries: [DBusDictEntry] = []
            while dbus_message_iter_get_arg_type(&sub) == T2M_DBUS_TYPE_DICT_ENTRY {
                var pair = DBusMessageIter()
                dbus_message_iter_recurse(&sub, &pair)
                let entryKey = try readOne(&pair)
                guard dbus_message_iter_next(&pair) != 0 else { throw failure("dictionary entry without a value") }
                entries.append(DBusDictEntry(key: entryKey, value: try readOne(&pair)))
                dbus_message_iter_next(&sub)
            }
            return .dictionary(key: DBusSignature(key.signature), value: DBusSignature(value.signature), entries)
        case .array(let element):
            return .array(DBusSignature(element.signature), try readAll(&sub))
        default:
            throw failure("array with signature \(text)")
        }
    }

    /// The array signatures BlueZ's signals carry in nearly every message (property dictionaries, interface
    /// lists), parsed once: an advert burst would otherwise parse the same text thousands of times a second.
    private static let common: [(text: String, type: DBusType)] = ["a{sv}", "as", "a{qv}", "a{sa{sv}}", "ao"].map {
        ($0, try! DBusType.parseSingle($0))
    }

    private static func arrayType(_ text: String) throws(DBusError) -> DBusType {
        if let known = common.first(where: { $0.text == text }) { return known.type }
        return try DBusType.parseSingle(text)
    }
}
