import CDBus
import Glibc

/// Reads a received message's body in place, value by value, for a sink that knows the shape of a hot
/// signal: no `DBusValue` tree is built and torn down for it. Valid only during the call it is handed to (it
/// points into the message). Every read checks the type first and returns nil, without moving on, for
/// anything else: received data is never trusted.
public struct DBusBodyReader {
    private var iter: DBusMessageIter
    /// The type code of the current value, read once per move: libdbus walks the signature for each look.
    private var code: Int32
    /// The current value was read: the move past it waits for the next look, so a reader dropped after its
    /// last read (a dictionary key, a variant's value) never pays libdbus for it.
    private var consumed = false
    /// The message, for a reader at the start of its body (`marshalled(_:)`); nil inside a container.
    let message: OpaquePointer?

    init(_ iter: DBusMessageIter, message: OpaquePointer? = nil) {
        var iter = iter
        code = dbus_message_iter_get_arg_type(&iter)
        self.iter = iter
        self.message = message
    }

    /// The type code of the current value, after the move a read left waiting.
    private mutating func current() -> Int32 {
        if consumed {
            consumed = false
            code = dbus_message_iter_next(&iter) != 0 ? dbus_message_iter_get_arg_type(&iter) : T2M_DBUS_TYPE_INVALID
        }
        return code
    }

    /// A reader at the start of `message`'s body (nil for an empty body).
    init?(message: OpaquePointer) {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return nil }
        self.init(iter, message: message)
    }

    /// Whether nothing is left in the current container.
    public var isAtEnd: Bool {
        mutating get { current() == T2M_DBUS_TYPE_INVALID }
    }

    /// Moves past the current value.
    public mutating func skip() {
        guard current() != T2M_DBUS_TYPE_INVALID else { return }
        consumed = true
    }

    private mutating func basic(_ expected: Int32) -> DBusBasicValue? {
        guard current() == expected else { return nil }
        var value = DBusBasicValue()
        dbus_message_iter_get_basic(&iter, &value)
        consumed = true
        return value
    }

    /// A string or object path.
    public mutating func readString() -> String? {
        readUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    /// A string or object path handed to `body` as its UTF-8 bytes, valid only during the call: for text that
    /// is only compared or parsed, no `String` is built.
    public mutating func readUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result?) -> Result? {
        let type = current()
        guard type == T2M_DBUS_TYPE_STRING || type == T2M_DBUS_TYPE_OBJECT_PATH, let value = basic(type), let text = value.str
        else { return nil }
        return UnsafeRawPointer(text).withMemoryRebound(to: UInt8.self, capacity: 1) { start in
            body(UnsafeBufferPointer(start: start, count: strlen(text)))
        }
    }

    /// Whether the current value is the string `expected`; moves past it if it is a string at all.
    public mutating func readString(equalTo expected: String) -> Bool {
        readUTF8 { $0.elementsEqual(expected.utf8) } ?? false
    }

    /// An `n`.
    public mutating func readInt16() -> Int16? { basic(T2M_DBUS_TYPE_INT16)?.i16 }

    /// A `q`.
    public mutating func readUInt16() -> UInt16? { basic(T2M_DBUS_TYPE_UINT16)?.u16 }

    /// An `ay`, as one block.
    public mutating func readBytes() -> [UInt8]? {
        guard current() == T2M_DBUS_TYPE_ARRAY, dbus_message_iter_get_element_type(&iter) == T2M_DBUS_TYPE_BYTE else {
            return nil
        }
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        var start: UnsafeRawPointer?
        var count: Int32 = 0
        withUnsafeMutablePointer(to: &start) { dbus_message_iter_get_fixed_array(&sub, $0, &count) }
        consumed = true
        guard let start, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: Int(count)))
    }

    /// Any value, as a `DBusValue` without its variant layer (for what a sink does not read typed).
    public mutating func readValue() -> DBusValue? {
        guard !isAtEnd, let value = try? MessageReader.readOne(&iter) else { return nil }
        consumed = true
        return value.unwrapped
    }

    /// Calls `body` for each element of the current array with a reader at that element (inside it for a
    /// dictionary entry, a struct or a variant), then moves on; false if the current value is not an array.
    public mutating func forEachElement(_ body: (inout DBusBodyReader) -> Void) -> Bool {
        guard current() == T2M_DBUS_TYPE_ARRAY else { return false }
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        var elements = DBusBodyReader(sub)
        while !elements.isAtEnd {
            var element = elements.contents() ?? elements
            body(&element)
            elements.skip()
        }
        consumed = true
        return true
    }

    /// Calls `body` for each entry of the current dictionary with a reader at its key and one at its value
    /// (inside the variant, for `a{sv}`), then moves on; false if the current value is not a dictionary.
    public mutating func forEachEntry(_ body: (inout DBusBodyReader, inout DBusBodyReader) -> Void) -> Bool {
        forEachElement { entry in
            var key = entry
            entry.skip()
            var value = entry.current() == T2M_DBUS_TYPE_VARIANT ? entry.contents() ?? entry : entry
            body(&key, &value)
        }
    }

    /// A reader inside the current container (a dictionary entry, a struct, a variant).
    private mutating func contents() -> DBusBodyReader? {
        let type = current()
        guard type == T2M_DBUS_TYPE_DICT_ENTRY || type == T2M_DBUS_TYPE_STRUCT || type == T2M_DBUS_TYPE_VARIANT
        else { return nil }
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        return DBusBodyReader(sub)
    }
}
