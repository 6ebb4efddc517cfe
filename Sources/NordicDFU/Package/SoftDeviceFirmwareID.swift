/// The names of well-known SoftDevice firmware IDs, the values of `sd_req` (the list in the
/// help of pc-nrfutil's `pkg generate --sd-req`, nRF5 SDK 11–17 SoftDevices).
public enum SoftDeviceFirmwareID {
    /// What `id` means: a SoftDevice's name and version (`s132_nrf52_7.2.0`), `any SoftDevice`
    /// for 0xFFFE (the bootloader does not check), `no SoftDevice` for 0; nil for an ID not in the list.
    public static func name(_ id: UInt32) -> String? {
        switch id {
        case 0x0000: return "no SoftDevice"
        case 0xFFFE: return "any SoftDevice"
        default: return known[id]
        }
    }

    private static let known: [UInt32: String] = [
        0xA7: "s112_nrf52_6.0.0", 0xB0: "s112_nrf52_6.1.0", 0xB8: "s112_nrf52_6.1.1", 0xC4: "s112_nrf52_7.0.0",
        0xCD: "s112_nrf52_7.0.1", 0x103: "s112_nrf52_7.2.0", 0x126: "s112_nrf52_7.3.0",
        0xC3: "s113_nrf52_7.0.0", 0xCC: "s113_nrf52_7.0.1", 0x102: "s113_nrf52_7.2.0", 0x125: "s113_nrf52_7.3.0",
        0xEA: "s122_nrf52_8.0.0", 0x112: "s122_nrf52_8.1.1",
        0x67: "s130_nrf51_1.0.0", 0x80: "s130_nrf51_2.0.0", 0x87: "s130_nrf51_2.0.1",
        0x81: "s132_nrf52_2.0.0", 0x88: "s132_nrf52_2.0.1", 0x8C: "s132_nrf52_3.0.0", 0x91: "s132_nrf52_3.1.0",
        0x95: "s132_nrf52_4.0.0", 0x98: "s132_nrf52_4.0.2", 0x99: "s132_nrf52_4.0.3", 0x9E: "s132_nrf52_4.0.4",
        0x9F: "s132_nrf52_4.0.5", 0x9D: "s132_nrf52_5.0.0", 0xA5: "s132_nrf52_5.1.0", 0xA8: "s132_nrf52_6.0.0",
        0xAF: "s132_nrf52_6.1.0", 0xB7: "s132_nrf52_6.1.1", 0xC2: "s132_nrf52_7.0.0", 0xCB: "s132_nrf52_7.0.1",
        0x101: "s132_nrf52_7.2.0", 0x124: "s132_nrf52_7.3.0",
        0xA9: "s140_nrf52_6.0.0", 0xAE: "s140_nrf52_6.1.0", 0xB6: "s140_nrf52_6.1.1", 0xC1: "s140_nrf52_7.0.0",
        0xCA: "s140_nrf52_7.0.1", 0x100: "s140_nrf52_7.2.0", 0x123: "s140_nrf52_7.3.0",
        0xBC: "s212_nrf52_6.1.1", 0xBA: "s332_nrf52_6.1.1", 0xB9: "s340_nrf52_6.1.1",
    ]
}
