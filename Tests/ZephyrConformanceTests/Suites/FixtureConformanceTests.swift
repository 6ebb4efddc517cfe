import XCTest

// One class per fixture of ../shared/zephyr-fixtures/manifest.json, one test method per area
// (generated from the manifest; ManifestCoverageTests checks that every fixture has its class).

/// The real `mps2_an385/serial_recovery` firmware (serial, buf_size 384×4) through its TCP UART (`serial:tcp://`).
final class MPS2AN385SerialRecoveryConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "mps2_an385", config: "serial_recovery",
        areas: [.os, .reset, .limits, .image, .recovery, .statistics, .settings, .fileSystem, .shell, .enumeration, .zephyrBasic])

    func testConformance() async { await Self.suite.runAll(in: self) }
}

/// The real `native_sim/serial` firmware (serial, buf_size 384×4) through its pty.
final class NativeSimSerialConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "native_sim", config: "serial",
        areas: [.os, .reset, .limits, .statistics, .settings, .fileSystem, .shell, .enumeration, .zephyrBasic])

    func testConformance() async { await Self.suite.runAll(in: self) }
}

/// The real `native_sim/serial_bigrx` firmware (serial, buf_size 384×4) through its pty.
final class NativeSimSerialBigRXConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "native_sim", config: "serial_bigrx",
        areas: [.os, .reset, .limits, .statistics, .settings, .fileSystem, .shell, .enumeration, .zephyrBasic])

    func testConformance() async { await Self.suite.runAll(in: self) }
}

/// The real `native_sim/serial_buf1024` firmware (serial, buf_size 1024×4) through its pty.
final class NativeSimSerialBuf1024ConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "native_sim", config: "serial_buf1024",
        areas: [.os, .reset, .limits, .statistics, .enumeration])

    func testConformance() async { await Self.suite.runAll(in: self) }
}

/// The real `native_sim/serial_buf2048` firmware (serial, buf_size 2048×4) through its pty.
final class NativeSimSerialBuf2048ConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "native_sim", config: "serial_buf2048",
        areas: [.os, .reset, .limits, .statistics, .enumeration])

    func testConformance() async { await Self.suite.runAll(in: self) }
}

/// The real `native_sim/serial_buf256` firmware (serial, buf_size 256×4) through its pty.
final class NativeSimSerialBuf256ConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "native_sim", config: "serial_buf256",
        areas: [.os, .reset, .limits, .statistics, .enumeration])

    func testConformance() async { await Self.suite.runAll(in: self) }
}

/// The real `native_sim/serial_buf96` firmware (serial, buf_size 96×4) through its pty.
final class NativeSimSerialBuf96ConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "native_sim", config: "serial_buf96",
        areas: [.os, .reset, .limits, .statistics, .enumeration])

    func testConformance() async { await Self.suite.runAll(in: self) }
}

/// The real `native_sim/serial_fs` firmware (serial, buf_size 1024×4) through its pty.
final class NativeSimSerialFSConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "native_sim", config: "serial_fs",
        areas: [.os, .reset, .limits, .statistics, .fileSystem, .enumeration])

    func testConformance() async { await Self.suite.runAll(in: self) }
}

/// The real `native_sim/serial_line512` firmware (serial, buf_size 2048×4) through its pty.
final class NativeSimSerialLine512ConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "native_sim", config: "serial_line512",
        areas: [.os, .reset, .limits, .statistics, .enumeration])

    func testConformance() async { await Self.suite.runAll(in: self) }
}

/// The real `native_sim/serial_noparams` firmware (serial, buf_size 384×4) through its pty.
final class NativeSimSerialNoparamsConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "native_sim", config: "serial_noparams",
        areas: [.os, .reset, .limits, .statistics, .enumeration])

    func testConformance() async { await Self.suite.runAll(in: self) }
}

/// The real `native_sim/serial_raw` firmware (serial_raw, buf_size 384×4) through its pty.
final class NativeSimSerialRawConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "native_sim", config: "serial_raw",
        // No Zephyr basic group: the manifest lists it, the firmware does not have it.
        areas: [.os, .reset, .limits, .statistics, .settings, .shell, .enumeration])

    func testConformance() async { await Self.suite.runAll(in: self) }
}

/// The real `native_sim/shell` firmware (shell, buf_size 384×4) through its pty.
final class NativeSimShellConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "native_sim", config: "shell",
        areas: [.os, .reset, .limits, .statistics, .enumeration])

    func testConformance() async { await Self.suite.runAll(in: self) }
}

/// The real `native_sim/udp` firmware (udp, buf_size 2048×2) through UDP.
final class NativeSimUDPConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "native_sim", config: "udp",
        areas: [.os, .reset, .limits, .statistics, .settings, .fileSystem, .shell, .enumeration, .zephyrBasic])

    func testConformance() async { await Self.suite.runAll(in: self) }
}

/// The real `native_sim/udp6` firmware (udp, buf_size 2048×2) through UDP.
final class NativeSimUDP6ConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "native_sim", config: "udp6",
        areas: [.os, .reset, .limits, .statistics, .enumeration])

    func testConformance() async { await Self.suite.runAll(in: self) }
}

/// The real `qemu_cortex_m0/serial` firmware (serial, buf_size 384×4) through its TCP UART (`serial:tcp://`).
final class QEMUCortexM0SerialConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "qemu_cortex_m0", config: "serial",
        areas: [.os, .reset, .limits, .image, .statistics, .enumeration])

    func testConformance() async { await Self.suite.runAll(in: self) }
}

/// The real `mps2_an385/serial_recovery_raw` firmware (serial_raw, buf_size 384×4) through its TCP UART (`serial:tcp://`).
final class MPS2AN385SerialRecoveryRawConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "mps2_an385", config: "serial_recovery_raw",
        areas: [.os, .reset, .limits, .image, .recovery, .statistics, .settings, .fileSystem, .shell, .enumeration, .zephyrBasic])

    func testConformance() async { await Self.suite.runAll(in: self) }
}
