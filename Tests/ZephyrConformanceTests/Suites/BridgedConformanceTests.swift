import XCTest

// Fixtures behind the bridges labs use: ser2net in raw mode, socat.

/// The real `native_sim/serial_bigrx` firmware exposed as a raw TCP port by the real ser2net (`serial:tcp://`).
final class NativeSimSerialBigRXViaSer2NetConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "native_sim", config: "serial_bigrx", route: .ser2net,
        areas: [.os, .reset, .limits, .statistics, .fileSystem, .shell, .enumeration])

    func testConformance() async { await Self.suite.runAll(in: self) }
}

/// The real `mps2_an385/serial_recovery` firmware through a socat pty (what works without serial over TCP).
final class MPS2SerialRecoveryViaSocatConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "mps2_an385", config: "serial_recovery", route: .socat,
        areas: [.os, .reset, .image, .recovery])

    func testConformance() async { await Self.suite.runAll(in: self) }
}
