import XCTest

// Fixtures behind the bridges labs use: ser2net in raw mode, socat.

/// The real `native_sim/serial_bigrx` firmware exposed as a raw TCP port by the real ser2net (`serial:tcp://`).
final class NativeSimSerialBigRXViaSer2NetConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "native_sim", config: "serial_bigrx", route: .ser2net,
        areas: [.os, .reset, .limits, .statistics, .fileSystem, .shell, .enumeration])

    func testOS() async throws { try await Self.suite.run(.os, in: self) }
    func testResetAndReconnect() async throws { try await Self.suite.run(.reset, in: self) }
    func testOversizeRequests() async throws { try await Self.suite.run(.limits, in: self) }
    func testStatistics() async throws { try await Self.suite.run(.statistics, in: self) }
    func testFileSystem() async throws { try await Self.suite.run(.fileSystem, in: self) }
    func testShell() async throws { try await Self.suite.run(.shell, in: self) }
    func testEnumeration() async throws { try await Self.suite.run(.enumeration, in: self) }
}

/// The real `mps2_an385/serial_recovery` firmware through a socat pty (what works without serial over TCP).
final class MPS2SerialRecoveryViaSocatConformanceTests: XCTestCase {
    static let suite = ConformanceSuite(
        target: "mps2_an385", config: "serial_recovery", route: .socat,
        areas: [.os, .reset, .image, .recovery])

    func testOS() async throws { try await Self.suite.run(.os, in: self) }
    func testResetAndReconnect() async throws { try await Self.suite.run(.reset, in: self) }
    func testImage() async throws { try await Self.suite.run(.image, in: self) }
    func testSerialRecovery() async throws { try await Self.suite.run(.recovery, in: self) }
}
