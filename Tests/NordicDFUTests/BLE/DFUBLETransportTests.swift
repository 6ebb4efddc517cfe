import NordicDFU
import SMP
import SMPSimulator
import XCTest

/// Secure and legacy DFU over a Bluetooth LE link (``SecureDFUBLETransport``,
/// ``LegacyDFUBLETransport``), in front of the virtual bootloaders in memory: what crosses the
/// characteristics at each MTU.
final class DFUBLETransportTests: XCTestCase {
    let initPacket = testImage(200, seed: 7)
    let firmware = testImage(10 * 1024 + 100)

    private func secureTarget() -> SecureDFUTarget {
        SecureDFUTarget(configuration: SecureDFUTarget.Configuration { [firmware] _, _ in .accept(firmwareSize: firmware.count) })
    }

    private func sendSecure(over link: DFUGATTMemoryLink, interval: UInt16) async throws -> SecureDFUTransferReport {
        let transport = SecureDFUBLETransport(link: link, options: SecureDFUBLETransport.Options(objectPreparationDelay: .zero), logger: quiet)
        defer { Task { await transport.close() } }
        return try await SecureDFUEngine(transport: transport, options: SecureDFUEngine.Options(receiptNotificationInterval: interval), logger: quiet)
            .send(initPacket: initPacket, firmware: firmware, progress: { _ in })
    }

    func testWritesPerObjectFollowTheMTU() async throws {
        for mtu in [23, 247] {
            let link = DFUGATTMemoryLink(.secure(secureTarget()), mtu: mtu)
            let interval = 10
            let report = try await sendSecure(over: link, interval: UInt16(interval))
            guard case .secure(let target) = link.bootloader else { return XCTFail("the bootloader changed kind") }
            XCTAssertEqual(target.installed, [SecureDFUTarget.InstalledImage(initPacket: initPacket, firmware: firmware)], "MTU \(mtu)")
            XCTAssertEqual(link.counts.largestDataWrite, mtu - 3, "MTU \(mtu)")
            XCTAssertEqual(report.dataObjects, 3)
            for object in target.statistics.dataObjects {
                let writes = (object.size + mtu - 4) / (mtu - 3)
                XCTAssertEqual(object.writes, writes, "⌈\(object.size) / (MTU − 3)⌉ at MTU \(mtu)")
                XCTAssertLessThanOrEqual(object.controlRequests + object.notifications, 3 + (writes + interval - 1) / interval, "MTU \(mtu)")
            }
        }
    }

    func testALinkLostMidObjectIsAResumableDisconnect() async throws {
        let link = DFUGATTMemoryLink(.secure(secureTarget()), mtu: 247, dropAfterDataWrites: 30)
        do {
            _ = try await sendSecure(over: link, interval: 0)
            XCTFail("the transfer cannot have succeeded")
        } catch let error as SecureDFUError {
            XCTAssertEqual(error.kind, .disconnected)
            XCTAssertTrue(error.isTransient)
            XCTAssertTrue(error.message.contains("the Bluetooth link was lost"), error.message)
        }
    }

    func testASilentBootloaderIsNamedAfterTheTimeout() async throws {
        let link = DFUGATTMemoryLink(.legacy(LegacyDFUTarget(configuration: .init())), mtu: 23)
        let transport = SecureDFUBLETransport(
            link: link, options: SecureDFUBLETransport.Options(responseTimeout: .milliseconds(50), objectPreparationDelay: .zero), logger: quiet)
        do {
            // A legacy bootloader takes Select's op code (06) as Reset and says nothing.
            _ = try await transport.request(.select(.command))
            XCTFail("no answer can have come")
        } catch let error as SecureDFUError {
            XCTAssertEqual(error.kind, .noResponse)
            XCTAssertTrue(error.message.hasPrefix("BLE memory: no answer to"), error.message)
        }
        await transport.close()
    }

    func testALegacyImageGoesIn20BytePacketsWhateverTheMTU() async throws {
        let image = DFUUpgradeImage(type: .application, fileName: "app.bin", firmware: firmware, initPacket: legacyInitPacket(for: firmware))
        let link = DFUGATTMemoryLink(.legacy(LegacyDFUTarget(configuration: .init())), mtu: 247)
        let transport = LegacyDFUBLETransport(link: link, dfuVersion: 8, responseTimeout: .seconds(5))
        let report = try await LegacyDFUEngine(transport: transport, options: LegacyDFUEngine.Options(receiptNotificationInterval: 10), logger: quiet)
            .send(image, progress: { _ in })
        await transport.close()
        guard case .legacy(let target) = link.bootloader else { return XCTFail("the bootloader changed kind") }
        XCTAssertEqual(target.installed.last?.firmware, firmware)
        XCTAssertEqual(link.counts.largestDataWrite, 20)
        XCTAssertEqual(report.dataPackets, (firmware.count + 19) / 20)
    }
}
