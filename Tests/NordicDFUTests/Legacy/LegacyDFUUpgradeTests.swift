import NordicDFU
import SMP
import SMPFirmware
import SMPSimulator
import XCTest

/// Legacy packages through the whole upgrade (``NordicDFUUpgrade``, ``LegacyDFUBootloader``) on
/// the virtual legacy bootloader in memory.
final class LegacyDFUUpgradeTests: XCTestCase {
    private func images(_ name: String) throws -> [DFUUpgradeImage] {
        let set = try GeneratedNordicPackages.load()
        return try NordicDFUPackage(contentsOf: set.path(name)).images.map(DFUUpgradeImage.init)
    }

    func testALegacyPackageInstallsThroughTheUpgrade() async throws {
        let images = try images("legacy-0.7.zip")
        let link = LegacyDFUMemoryLink(LegacyDFUTarget.Configuration(softDeviceID: 0x88))
        let states = Journal()
        let upgrade = NordicDFUUpgrade(connect: { LegacyDFUBootloader(transport: link) }) { event in
            if case .inspected(let state) = event { states.append(state.summary) }
        }
        let report = try await upgrade.run(images)
        XCTAssertEqual(report.plan.summary, "plan (Nordic legacy DFU): 1 image")
        XCTAssertEqual(states.all, ["Nordic legacy DFU bootloader on memory: writes of 20 bytes"])
        XCTAssertEqual(report.uploads.map(\.progress.acknowledged), [2048])
        XCTAssertEqual(report.uploads.map(\.progress.chunksSent), [103])
        XCTAssertEqual(report.uploads.first?.match, true)
        let installed = await link.target.installed
        XCTAssertEqual(installed.map(\.firmware), images.map(\.firmware))
        XCTAssertEqual(installed.map(\.initPacket), images.map(\.initPacket))
    }

    func testTwoImagesGoInOrderWithTheBootloaderFoundAgainBetween() async throws {
        let images = try images("legacy-sdbl-0.5.zip") + images("legacy-0.7.zip")
        let link = LegacyDFUMemoryLink(LegacyDFUTarget.Configuration(softDeviceID: 0x8C))
        let connections = Journal()
        let upgrade = NordicDFUUpgrade(connect: {
            connections.append("connect")
            return LegacyDFUBootloader(transport: link, options: LegacyDFUEngine.Options(receiptNotificationInterval: 8))
        })
        let report = try await upgrade.run(images)
        XCTAssertEqual(report.uploads.count, 2)
        XCTAssertEqual(connections.all.count, 2)
        let installed = await link.target.installed
        XCTAssertEqual(installed.map(\.mode), [3, 4])
        XCTAssertEqual(installed.map(\.firmware), images.sorted { $0.type < $1.type }.map(\.firmware))
    }

    func testARefusalKeepsItsOwnHintAndALossAdvisesARerun() async throws {
        let images = try images("legacy-0.7.zip")
        let refusing = LegacyDFUMemoryLink(LegacyDFUTarget.Configuration(softDeviceID: 0x81))
        do {
            _ = try await NordicDFUUpgrade(connect: { LegacyDFUBootloader(transport: refusing) }).run(images)
            XCTFail("the bootloader refuses this package")
        } catch let error as UpgradeError {
            XCTAssertEqual((error.underlying as? LegacyDFUError)?.kind, .refused(.operationFailed), "\(error)")
            XCTAssertNil(error.hint, "a refusal keeps its own hint")
            XCTAssertTrue("\(error)".contains("operation failed"), "\(error)")
        }
        let lossy = LegacyDFUMemoryLink(LegacyDFUTarget.Configuration(softDeviceID: 0x88, faults: LegacyDFUTargetFaults(lostPackets: [30])))
        do {
            _ = try await NordicDFUUpgrade(connect: { LegacyDFUBootloader(transport: lossy) }).run(images)
            XCTFail("a packet was lost")
        } catch let error as UpgradeError {
            XCTAssertEqual((error.underlying as? LegacyDFUError)?.kind, .packetsLost, "\(error)")
            XCTAssertTrue(error.hint?.contains("sends the image again from its start") == true, "\(String(describing: error.hint))")
        }
        let report = try await NordicDFUUpgrade(connect: { LegacyDFUBootloader(transport: lossy) }).run(images)
        XCTAssertEqual(report.uploads.count, 1)
    }
}
