/// Xiaomi product ids and what they are, as the MiBeacon header names them (the ids of xiaomi-ble's device
/// table). Only these are read: phones, bands and other Xiaomi gadgets send `FE95` frames too, and must not
/// appear as sensors.
enum MiBeaconModels {
    /// Model and kind by product id.
    static let table: [UInt16: (model: String, name: String)] = [
        0x0C3C: ("CGC1", "Alarm Clock"),
        0x0576: ("CGD1", "3-in-1 Alarm Clock"),
        0x066F: ("CGDK2", "Temperature/Humidity Sensor"),
        0x0347: ("CGG1", "Temperature/Humidity Sensor"),
        0x0B48: ("CGG1-ENCRYPTED", "Temperature/Humidity Sensor"),
        0x03D6: ("CGH1", "Door/Window Sensor"),
        0x0A83: ("CGPR1", "Motion/Light Sensor"),
        0x03BC: ("GCLS002", "Grow Care Garden"),
        0x0098: ("HHCCJCY01", "Plant Sensor"),
        0x015D: ("HHCCPOT002", "Smart Flower Pot"),
        0x02DF: ("JQJCY01YM", "Formaldehyde Sensor"),
        0x0997: ("JTYJGD03MI", "Smoke Detector"),
        0x1568: ("K9B-1BTN", "Switch (single button)"),
        0x1569: ("K9B-2BTN", "Switch (double button)"),
        0x0DFD: ("K9B-3BTN", "Switch (triple button)"),
        0x1C10: ("K9BB-1BTN", "Switch (single button)"),
        0x3A61: ("KS1", "Switch (quadruple button)"),
        0x3E17: ("KS1BP", "Switch (quadruple button)"),
        0x1889: ("MS1BB(MI)", "Door/Window Sensor"),
        0x2AEB: ("HS1BB(MI)", "Motion Sensor"),
        0x3F0F: ("RS1BB(MI)", "Flood and Rain Sensor"),
        0x3F4C: ("PS1BB", "Seat Pressure Sensor"),
        0x01AA: ("LYWSDCGQ", "Temperature/Humidity Sensor"),
        0x045B: ("LYWSD02", "Temperature/Humidity Sensor"),
        0x16E4: ("LYWSD02MMC", "Temperature/Humidity Sensor"),
        0x2542: ("LYWSD02MMC", "Temperature/Humidity Sensor"),
        0x055B: ("LYWSD03MMC", "Temperature/Humidity Sensor"),
        0x2832: ("MJWSD05MMC", "Temperature/Humidity Sensor"),
        0x4C47: ("MJWSD05MMC", "Temperature/Humidity Sensor"),
        0x55B5: ("MJWSD06MMC", "Temperature/Humidity Sensor"),
        0x5BEA: ("MJWSD06MMC", "Temperature/Humidity Sensor"),
        0x5DB1: ("MBS17", "Temperature/Humidity Sensor"),
        0x78DB: ("ESM787", "Temperature/Humidity Sensor"),
        0x098B: ("MCCGQ02HL", "Door/Window Sensor"),
        0x06D3: ("MHO-C303", "Alarm Clock"),
        0x0387: ("MHO-C401", "Temperature/Humidity Sensor"),
        0x07F6: ("MJYD02YL", "Nightlight"),
        0x04E9: ("MJZNMSQ01YD", "Door Lock"),
        0x00DB: ("MMC-T201-1", "Baby Thermometer"),
        0x0391: ("MMC-W505", "Body Thermometer"),
        0x03DD: ("MUE4094RT", "Nightlight"),
        0x0489: ("M1S-T500", "Smart Toothbrush"),
        0x0806: ("T700", "Smart Toothbrush"),
        0x1790: ("T700", "Smart Toothbrush"),
        0x0A8D: ("RTCGQ02LM", "Motion Sensor"),
        0x3531: ("XMPIRO2SXS", "Motion Sensor"),
        0x4C60: ("XMPIRO2GSXS", "Motion Sensor"),
        0x4683: ("XMOSB01XS", "Occupancy Sensor"),
        0x0863: ("SJWS01LM", "Flood Detector"),
        0x6375: ("SJWS02LM", "Water Leak Sensor 2"),
        0x04E1: ("XMMF01JQD", "Magic Cube"),
        0x1203: ("XMWSDJ04MMC", "Thermometer"),
        0x1949: ("XMWXKG01YL", "Switch (double button)"),
        0x2387: ("XMWXKG01LM", "Button"),
        0x098C: ("XMZNMST02YD", "Door Lock"),
        0x0599: ("MJZNMS03LM", "Door Lock"),
        0x0784: ("XMZNMS04LM", "Door Lock"),
        0x0E39: ("XMZNMS08LM", "Door Lock"),
        0x07BF: ("YLAI003", "Wireless Switch"),
        0x38BB: ("PTX_YK1_QMIMB", "Wireless Switch"),
        0x0153: ("YLYK01YL", "Remote Control"),
        0x068E: ("YLYK01YL-FANCL", "Fan Remote Control"),
        0x04E6: ("YLYK01YL-VENFAN", "Ventilator Fan Remote Control"),
        0x03BF: ("YLYB01YL-BHFRC", "Bathroom Heater Remote"),
        0x03B6: ("YLKG07YL/YLKG08YL", "Dimmer Switch"),
        0x069E: ("ZNMS16LM", "Door Lock"),
        0x069F: ("ZNMS17LM", "Door Lock"),
        0x0380: ("DSL-C08", "Door Lock"),
        0x11C2: ("Lockin-SV40", "Door Lock"),
        0x4F59: ("CGDK3", "Temperature/Humidity Sensor"),
        0x50FB: ("ES3", "Human Presence Sensor"),
        0x520B: ("KS2BB", "Temperature/Humidity Sensor with Button"),
        0x5968: ("XMWS01XS", "Switch (double button)"),
        0x6A0F: ("ES5BB", "Human Presence Sensor"),
    ]
    /// Makers other than Xiaomi, by product id.
    static let makers: [UInt16: String] = [
        0x3F4C: "Linptech",
        0x78DB: "Yanmi",
        0x50FB: "Linptech",
        0x520B: "Linptech",
        0x6A0F: "Linptech",
    ]

    /// Each listed product's model, made once: it is looked up for every frame.
    private static let models: [UInt16: SensorModel] = table.reduce(into: [:]) { models, entry in
        models[entry.key] = SensorModel(
            manufacturer: makers[entry.key] ?? "Xiaomi", model: entry.value.model, kind: entry.value.name)
    }

    /// The model of a product id; nil for an id this table does not list.
    static func model(_ product: UInt16) -> SensorModel? { models[product] }
}
