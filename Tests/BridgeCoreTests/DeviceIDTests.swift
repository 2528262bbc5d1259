import BridgeCore
import Testing

@Suite("Device ids from native ids")
struct DeviceIDTests {
    @Test(
        "a native id is lowercased and keeps only ASCII letters, digits and underscores",
        arguments: [
            ("A4:C1:38:00:01:FF", "ble_a4c1380001ff"),
            ("d073d5000001", "ble_d073d5000001"),
            ("Hall-1 (spare)_2", "ble_hall1spare_2"),
            ("", "ble_"),
            ("Küche 2", "ble_kche2"),
            ("e\u{301}x", "ble_x"),
            ("İ7", "ble_7"),
            ("ÄB:CD", "ble_bcd"),
        ])
    func cleaned(native: String, expected: String) {
        #expect(DeviceID(integration: "ble", native: native).rawValue == expected)
    }
}
