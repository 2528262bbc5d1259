import CDBus

/// Writes values into a message through libdbus iterators (the variadic `dbus_message_append_args` is not
/// available to Swift). Every value is checked against its type first: libdbus aborts on invalid input.
enum MessageWriter {
    /// libdbus refuses (by aborting) arrays longer than 64 MiB.
    static let maximumArrayBytes = 67_108_864

    static func append(_ values: [DBusValue], signature: DBusSignature?, to message: OpaquePointer) throws(DBusError) {
        var types: [DBusType] = []
        if let signature {
            types = try signature.types()
            guard types.count == values.count else {
                throw failure("signature \(signature) lists \(types.count) types for \(values.count) values")
            }
        } else {
            for value in values { types.append(try DBusType.parseSingle(value.signatureText)) }
        }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        for (index, (value, type)) in zip(values, types).enumerated() {
            try write(value, as: type, into: &iter, at: "argument \(index)")
        }
    }

    static func failure(_ message: String) -> DBusError { DBusError(.invalidArgument, message, operation: "encode") }

    private static func mismatch(_ value: DBusValue, _ type: DBusType, _ place: String) -> DBusError {
        failure("\(place): a value of type \(value.signatureText) cannot be written as \(type.signature)")
    }

    static func write(
        _ value: DBusValue, as type: DBusType, into iter: inout DBusMessageIter, at place: String
    ) throws(DBusError) {
        switch (type, value) {
        case (.byte, .byte(let v)): try basic(v, T2M_DBUS_TYPE_BYTE, &iter)
        case (.bool, .bool(let v)): try basic(dbus_bool_t(v ? 1 : 0), T2M_DBUS_TYPE_BOOLEAN, &iter)
        case (.int16, .int16(let v)): try basic(v, T2M_DBUS_TYPE_INT16, &iter)
        case (.uint16, .uint16(let v)): try basic(v, T2M_DBUS_TYPE_UINT16, &iter)
        case (.int32, .int32(let v)): try basic(v, T2M_DBUS_TYPE_INT32, &iter)
        case (.uint32, .uint32(let v)): try basic(v, T2M_DBUS_TYPE_UINT32, &iter)
        case (.int64, .int64(let v)): try basic(v, T2M_DBUS_TYPE_INT64, &iter)
        case (.uint64, .uint64(let v)): try basic(v, T2M_DBUS_TYPE_UINT64, &iter)
        case (.double, .double(let v)): try basic(v, T2M_DBUS_TYPE_DOUBLE, &iter)
        case (.string, .string(let v)):
            try Validate.string(v, "encode \(place)")
            try text(v, T2M_DBUS_TYPE_STRING, &iter)
        case (.objectPath, .objectPath(let v)):
            try Validate.path(v, "encode \(place)")
            try text(v, T2M_DBUS_TYPE_OBJECT_PATH, &iter)
        case (.signature, .signature(let v)):
            _ = try v.types()
            try text(v.rawValue, T2M_DBUS_TYPE_SIGNATURE, &iter)
        case (.array(.byte), .bytes(let bytes)): try byteArray(bytes, &iter)
        case (.array(let element), .array(_, let items)):
            try container(T2M_DBUS_TYPE_ARRAY, element.signature, &iter) { (sub) throws(DBusError) in
                for (index, item) in items.enumerated() {
                    try write(item, as: element, into: &sub, at: "\(place)[\(index)]")
                }
            }
        case (.dictionary(let keyType, let valueType), .dictionary(_, _, let entries)):
            let signature = "{" + keyType.signature + valueType.signature + "}"
            try container(T2M_DBUS_TYPE_ARRAY, signature, &iter) { (sub) throws(DBusError) in
                for entry in entries {
                    try container(T2M_DBUS_TYPE_DICT_ENTRY, nil, &sub) { (pair) throws(DBusError) in
                        try write(entry.key, as: keyType, into: &pair, at: "\(place) key")
                        try write(entry.value, as: valueType, into: &pair, at: "\(place)[\(entry.key)]")
                    }
                }
            }
        case (.structure(let fieldTypes), .structure(let fields)):
            guard fieldTypes.count == fields.count else { throw mismatch(value, type, place) }
            try container(T2M_DBUS_TYPE_STRUCT, nil, &iter) { (sub) throws(DBusError) in
                for (index, (field, fieldType)) in zip(fields, fieldTypes).enumerated() {
                    try write(field, as: fieldType, into: &sub, at: "\(place).\(index)")
                }
            }
        case (.variant, _):
            // A plain value written where a variant is expected is wrapped, so `a{sv}` entries need no ceremony.
            let inner = if case .variant(let wrapped) = value { wrapped } else { value }
            let innerType = try DBusType.parseSingle(inner.signatureText)
            try container(T2M_DBUS_TYPE_VARIANT, innerType.signature, &iter) { (sub) throws(DBusError) in
                try write(inner, as: innerType, into: &sub, at: place)
            }
        default:
            throw mismatch(value, type, place)
        }
    }

    private static func basic<T>(_ value: T, _ code: Int32, _ iter: inout DBusMessageIter) throws(DBusError) {
        var copy = value
        let ok = withUnsafePointer(to: &copy) { dbus_message_iter_append_basic(&iter, code, $0) }
        guard ok != 0 else { throw DBusError(.noMemory, "cannot append a value", operation: "encode") }
    }

    private static func text(_ value: String, _ code: Int32, _ iter: inout DBusMessageIter) throws(DBusError) {
        let ok = value.withCString { chars in
            var pointer: UnsafePointer<CChar>? = chars
            return withUnsafePointer(to: &pointer) { dbus_message_iter_append_basic(&iter, code, $0) }
        }
        guard ok != 0 else { throw DBusError(.noMemory, "cannot append a string", operation: "encode") }
    }

    private static func byteArray(_ bytes: [UInt8], _ iter: inout DBusMessageIter) throws(DBusError) {
        guard bytes.count <= maximumArrayBytes else { throw failure("a byte array is longer than 64 MiB") }
        try container(T2M_DBUS_TYPE_ARRAY, "y", &iter) { (sub) throws(DBusError) in
            guard !bytes.isEmpty else { return }
            let ok = bytes.withUnsafeBufferPointer { buffer in
                var base = buffer.baseAddress
                return withUnsafePointer(to: &base) {
                    dbus_message_iter_append_fixed_array(&sub, T2M_DBUS_TYPE_BYTE, $0, Int32(buffer.count))
                }
            }
            guard ok != 0 else { throw DBusError(.noMemory, "cannot append bytes", operation: "encode") }
        }
    }

    /// Opens a container, fills it and closes it; on failure the container is abandoned so the message stays
    /// consistent until it is released.
    private static func container(
        _ code: Int32, _ signature: String?, _ iter: inout DBusMessageIter,
        _ fill: (inout DBusMessageIter) throws(DBusError) -> Void
    ) throws(DBusError) {
        var sub = DBusMessageIter()
        guard dbus_message_iter_open_container(&iter, code, signature, &sub) != 0 else {
            throw DBusError(.noMemory, "cannot open a container", operation: "encode")
        }
        do {
            try fill(&sub)
        } catch {
            dbus_message_iter_abandon_container(&iter, &sub)
            throw error
        }
        guard dbus_message_iter_close_container(&iter, &sub) != 0 else {
            throw DBusError(.noMemory, "cannot close a container", operation: "encode")
        }
    }
}
