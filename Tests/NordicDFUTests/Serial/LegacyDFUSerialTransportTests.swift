import Foundation
import NordicDFU
import SMPSimulator
import XCTest

/// The legacy serial transport against the virtual serial bootloader on a pseudo-terminal: the
/// sequence number learnt on opening, and a Secure DFU bootloader told apart.
final class LegacyDFUSerialTransportTests: XCTestCase {
    private func linkPath() -> String {
        (NSTemporaryDirectory() as NSString).appendingPathComponent("smpctl-\(getpid())-\(UUID().uuidString.prefix(8))-hci")
    }

    func testASecondHostPicksUpTheSequenceNumberWhereTheFirstLeftIt() async throws {
        let server = LegacyDFUSerialPTYServer(target: LegacyDFUTarget(), linkPath: linkPath())
        let path = try await server.start()
        addTeardownBlock { await server.stop() }
        let first = try await LegacyDFUSerialTransport.open(path: path, logger: quiet)
        for _ in 0..<4 { _ = try await first.send(.probe) }
        await first.close()
        let before = await server.link
        XCTAssertEqual(before.packetsTaken, 5, "the opening probe and four more")
        XCTAssertEqual(before.packetsNotTaken, 0)

        // The bootloader now expects 6; a new host starts at 1, and learns 6 from the acknowledgement.
        let second = try await LegacyDFUSerialTransport.open(path: path, logger: quiet)
        let delivery = try await second.send(.probe)
        await second.close()
        XCTAssertEqual(delivery, .taken)
        let after = await server.link
        XCTAssertEqual(after.packetsNotTaken, 1, "the opening probe was acknowledged with the expected number, not taken")
        XCTAssertEqual(after.packetsTaken, 6)
        let requests = await server.target.statistics.requests
        XCTAssertTrue(requests.isEmpty, "probes change nothing: \(requests)")
    }

    func testASecureDFUBootloaderIsToldApart() async throws {
        let server = SecureDFUPTYServer(target: SecureDFUTarget(configuration: SecureDFUValidation().configuration()), linkPath: linkPath())
        let path = try await server.start()
        addTeardownBlock { await server.stop() }
        do {
            _ = try await LegacyDFUSerialTransport.open(path: path, logger: quiet)
            XCTFail("a Secure DFU bootloader was taken for a legacy one")
        } catch let error as LegacyDFUError {
            XCTAssertEqual(error.kind, .otherProtocol, "\(error)")
            XCTAssertTrue(error.message.contains("a Secure DFU bootloader answers"), error.message)
        }
    }
}
