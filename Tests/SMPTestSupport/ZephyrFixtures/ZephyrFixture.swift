import Foundation

/// One prebuilt firmware fixture as `manifest.json` in the fixtures folder describes it.
public struct ZephyrFixture: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The file that is the fixture (a native_sim executable, or the QEMU image's `.hex`).
    public var artifact: String
    /// The build configuration, e.g. `serial`, `serial_fs`, `udp`, `serial_recovery`.
    public var config: String
    /// The board: `native_sim`, `mps2_an385`, `qemu_cortex_m0`.
    public var target: String
    /// How SMP reaches it: `serial`, `serial_raw`, `shell` or `udp`.
    public var transport: String
    /// MCUmgr buffer size (CONFIG_MCUMGR_TRANSPORT_NETBUF_SIZE).
    public var bufSize: Int
    /// MCUmgr buffer count.
    public var bufCount: Int
    /// The UART receive line length, for serial transports.
    public var lineLengthMax: Int?
    /// The management groups compiled in (`os`, `img`, `stat`, `settings`, `fs`, `shell`, `enum`, `zbasic`).
    public var groups: [String]
    /// `ipv4` or `ipv6` for UDP fixtures.
    public var ipFamily: String?
    /// The UDP port of UDP fixtures (1337).
    public var udpPort: Int?
    /// Whether MCUboot runs before the application.
    public var mcuboot: Bool?
    /// Whether the bootloader offers serial recovery.
    public var serialRecovery: Bool?
    /// The buffer size MCUboot's serial recovery answers with.
    public var recoveryBufSize: Int?
    /// The buffer count MCUboot's serial recovery answers with.
    public var recoveryBufCount: Int?
    /// How to start a native_sim fixture (`./artifact`), relative to the fixtures folder.
    public var run: String?
    /// How to start a QEMU fixture; `<PORT>` stands for the TCP port of its UART.
    public var qemuCmd: String?

    enum CodingKeys: String, CodingKey {
        case artifact, config, target, transport, groups, run, mcuboot
        case bufSize = "buf_size", bufCount = "buf_count", lineLengthMax = "line_length_max", ipFamily = "ip_family"
        case udpPort = "udp_port", serialRecovery = "serial_recovery", recoveryBufSize = "recovery_buf_size"
        case recoveryBufCount = "recovery_buf_count", qemuCmd = "qemu_cmd"
    }

    /// `target/config`, unique in the manifest (e.g. `native_sim/serial`, `qemu_cortex_m0/serial`).
    public var name: String { "\(target)/\(config)" }

    public var description: String { name }

    /// Whether the fixture runs in QEMU (rather than as a native_sim program).
    public var isQEMU: Bool { qemuCmd != nil }

    /// Groups the manifest lists that the firmware does not have, by fixture name: the firmware is
    /// right. `native_sim/serial_raw` answers the Zephyr basic group with MGMT_ERR_ENOTSUP and
    /// leaves it out of `enum list`.
    static let absentFromFirmware: [String: Set<String>] = ["native_sim/serial_raw": ["zbasic"]]

    /// The management groups the firmware really has: the manifest's, less ``absentFromFirmware``.
    public var firmwareGroups: [String] {
        groups.filter { !(Self.absentFromFirmware[name]?.contains($0) ?? false) }
    }

    /// Whether the firmware offers a management group (manifest name: `os`, `img`, `fs`, …).
    public func offers(_ group: String) -> Bool { firmwareGroups.contains(group) }
}

/// The fixtures' `manifest.json`: a JSON array of ``ZephyrFixture``.
public enum ZephyrFixtureManifest {
    /// Decodes a manifest.
    public static func decode(_ data: Data) throws -> [ZephyrFixture] {
        try JSONDecoder().decode([ZephyrFixture].self, from: data)
    }
}
