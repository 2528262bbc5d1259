import Support
import Testing

@Suite("Bluetooth addresses")
struct BluetoothAddressTests {
    @Test(
        "addresses parse in any case and with either separator",
        arguments: [
            ("AA:BB:CC:DD:EE:FF", "AA:BB:CC:DD:EE:FF"), ("a4:c1:38:0a:0b:0c", "A4:C1:38:0A:0B:0C"),
            ("11-22-33-44-55-66", "11:22:33:44:55:66"), ("00:00:00:00:00:00", "00:00:00:00:00:00"),
        ])
    func addresses(text: String, canonical: String) throws {
        let address = try BluetoothAddress(text)
        #expect(address.description == canonical)
        #expect(address.compact == canonical.filter { $0 != ":" }.lowercased())
        #expect(BluetoothAddress(value: address.value) == address)
    }

    @Test(
        "malformed addresses are errors that quote them",
        arguments: [
            "", "AA:BB:CC:DD:EE", "AA:BB:CC:DD:EE:FF:00", "AA:BB:CC:DD:EE:GG", "AABBCCDDEEFF", "A:BB:CC:DD:EE:FFF",
            "AA:BB-CC:DD:EE:FF", "+A:BB:CC:DD:EE:FF", "AA::CC:DD:EE:FF", "AA:BB:CC:DD:EE:１２",
        ])
    func badAddresses(text: String) {
        #expect(throws: BluetoothAddressError.self) { try BluetoothAddress(text) }
        do {
            _ = try BluetoothAddress(text)
        } catch {
            #expect(error.description.contains("\"\(text)\""))
        }
    }

    @Test("addresses that are not six hex octets are refused", arguments: ["00:16:53", "00:16:53:3F:0C:1G", "0016533F0C1E", ""])
    func badAddress(text: String) {
        #expect(throws: BluetoothAddressError.self) { try BluetoothAddress(text) }
    }

    @Test("octets run first written first; order is numeric; only 48 bits are kept")
    func octetsAndOrder() throws {
        let address = try BluetoothAddress("00:16:53:3F:0C:1E")
        #expect(address.octets == [0x00, 0x16, 0x53, 0x3F, 0x0C, 0x1E])
        #expect(address < (try BluetoothAddress("00:16:53:3F:0C:1F")))
        #expect(BluetoothAddress(value: 0x1_0000_0000_0001).description == "00:00:00:00:00:01")
    }

    @Test("frames carry an address least significant octet first: read and appended that way, or as written")
    func littleEndianOctets() throws {
        let address = try BluetoothAddress("A4:C1:38:0A:0B:0C")
        #expect(BluetoothAddress(littleEndian: [0x0C, 0x0B, 0x0A, 0x38, 0xC1, 0xA4]) == address)
        var bytes: [UInt8] = [0xFF]
        address.append(to: &bytes, littleEndian: true)
        #expect(bytes == [0xFF, 0x0C, 0x0B, 0x0A, 0x38, 0xC1, 0xA4])
        address.append(to: &bytes)
        #expect(bytes.suffix(6) == [0xA4, 0xC1, 0x38, 0x0A, 0x0B, 0x0C])
        #expect(address.octets == [0xA4, 0xC1, 0x38, 0x0A, 0x0B, 0x0C])
    }
}
