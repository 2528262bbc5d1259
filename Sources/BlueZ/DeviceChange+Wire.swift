import BLEModels
import DBus

extension DeviceChange {
    /// Reads a device's `PropertiesChanged` body (`sa{sv}as`) from its wire form, when it holds nothing but
    /// what an advert carries, each property of its usual type: `RSSI` and `TxPower` (`n`), `ServiceData`
    /// (`a{sv}` of `ay`) and `ManufacturerData` (`a{qv}` of `ay`). Anything else (another interface, property
    /// or type) gives nil, and the body is read with `init(reading:)` instead, to the same result.
    init?(wire body: inout DBusWireReader) {
        guard let interface = body.string(), Self.equal(interface, "org.bluez.Device1"),
            let end = body.array(alignment: 8)
        else { return nil }
        while body.element(alignment: 8, end: end) {
            guard let name = body.string(), let type = body.signature() else { return nil }
            if Self.equal(name, "RSSI"), Self.equal(type, "n"), let level = body.int16() {
                setRSSI(level)
            } else if Self.equal(name, "TxPower"), Self.equal(type, "n"), let level = body.int16() {
                other["TxPower"] = .int16(level)
            } else if Self.equal(name, "ServiceData"), Self.equal(type, "a{sv}") {
                var services = ServiceData()
                let read = Self.entries(&body, key: { $0.string().map(Self.uuid) }) { services[$0] = $1 }
                guard read else { return nil }
                setServiceData(services)
            } else if Self.equal(name, "ManufacturerData"), Self.equal(type, "a{qv}") {
                var companies: [UInt16: [UInt8]] = [:]
                let read = Self.entries(&body, key: { $0.uint16().map(Optional.some) }) { companies[$0] = $1 }
                guard read else { return nil }
                setManufacturerData(companies)
            } else {
                return nil
            }
        }
        guard body.offset == end, let names = body.array(alignment: 4) else { return nil }
        while body.element(alignment: 4, end: names) {
            guard let name = body.string() else { return nil }
            invalidated.insert(String(decoding: name, as: UTF8.self))
        }
        guard body.offset == names, body.isAtEnd else { return nil }
    }

    /// Reads a dictionary of byte blocks, handing `add` each entry in order; a key `readKey` reads as nil (a
    /// service data key that is no UUID) is skipped with its value, as `init(reading:)` skips it. False for a
    /// malformed dictionary or any value but `ay`.
    private static func entries<Key>(
        _ body: inout DBusWireReader, key readKey: (inout DBusWireReader) -> Key??, _ add: (Key, [UInt8]) -> Void
    ) -> Bool {
        guard let end = body.array(alignment: 8) else { return false }
        while body.element(alignment: 8, end: end) {
            guard let key = readKey(&body), let type = body.signature(), equal(type, "ay"), let bytes = body.bytesArray()
            else { return false }
            if let key { add(key, bytes) }
        }
        return body.offset == end
    }

    private static func uuid(_ bytes: UnsafeRawBufferPointer) -> BLEUUID? {
        bytes.withMemoryRebound(to: UInt8.self) { uuid($0) }
    }

    private static func equal(_ bytes: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
        bytes.elementsEqual(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
