import XCTest

// The same scenarios against our virtual device configured like a fixture: the simulator checked
// against what real firmware does.

/// Our virtual device (`smpctl simulate --serial-link`) configured like `native_sim/serial` (buf_size 384×4, its groups).
final class VirtualDeviceLikeSerialConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "native_sim", config: "serial", virtual: true,
        areas: [.os, .reset, .limits, .statistics, .fileSystem, .shell, .enumeration, .zephyrBasic])

    func testConformance() async { await Self.suite.runAll(in: self) }
}

/// Our virtual device (`smpctl simulate --serial-link`) configured like `mps2_an385/serial_recovery`: a RAM-load
/// application (buf_size 384×4, no bootloader info) with MCUboot serial recovery (1024×1, 4-byte writes) behind boot mode 1.
final class VirtualDeviceLikeMPS2SerialRecoveryConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "mps2_an385", config: "serial_recovery", virtual: true,
        areas: [.os, .reset, .limits, .image, .recovery, .statistics, .enumeration])

    func testConformance() async { await Self.suite.runAll(in: self) }
}

/// Our virtual device (`smpctl simulate --serial-link --framing raw`) configured like `mps2_an385/serial_recovery_raw`:
/// the same with the raw protocol for the application and MCUboot's recovery.
final class VirtualDeviceLikeMPS2SerialRecoveryRawConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "mps2_an385", config: "serial_recovery_raw", virtual: true,
        areas: [.os, .reset, .limits, .image, .recovery, .statistics, .enumeration])

    func testConformance() async { await Self.suite.runAll(in: self) }
}

/// Our virtual device (`smpctl simulate --serial-link`) configured like `native_sim/serial_fs` (buf_size 1024×4, its groups).
final class VirtualDeviceLikeSerialFSConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "native_sim", config: "serial_fs", virtual: true,
        areas: [.os, .reset, .limits, .statistics, .fileSystem, .enumeration])

    func testConformance() async { await Self.suite.runAll(in: self) }
}

/// Our virtual device (`smpctl simulate --serial-link`) configured like `native_sim/serial_buf96` (buf_size 96×4, its groups).
final class VirtualDeviceLikeSerialBuf96ConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "native_sim", config: "serial_buf96", virtual: true,
        areas: [.os, .reset, .limits, .statistics, .enumeration])

    func testConformance() async { await Self.suite.runAll(in: self) }
}

/// Our virtual device (`smpctl simulate --serial-link`) configured like `native_sim/serial_buf2048` (buf_size 2048×4, its groups).
final class VirtualDeviceLikeSerialBuf2048ConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "native_sim", config: "serial_buf2048", virtual: true,
        areas: [.os, .reset, .limits, .statistics, .enumeration])

    func testConformance() async { await Self.suite.runAll(in: self) }
}

/// Our virtual device (`smpctl simulate --serial-link`) configured like `native_sim/udp` (buf_size 2048×2, its groups).
final class VirtualDeviceLikeUDPConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "native_sim", config: "udp", virtual: true,
        areas: [.os, .reset, .limits, .statistics, .fileSystem, .shell, .enumeration, .zephyrBasic])

    func testConformance() async { await Self.suite.runAll(in: self) }
}
