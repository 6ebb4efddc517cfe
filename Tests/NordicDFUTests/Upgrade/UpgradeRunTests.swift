@testable import NordicDFU
import SMP
import SMPFirmware
import Synchronization
import XCTest

/// The upgrade's step loop against a bootloader that records what it is asked: the protocol
/// engines are tested against the virtual targets elsewhere.
final class UpgradeRunTests: XCTestCase {
    /// A bootloader in memory: each connection is one instance, all writing to one journal.
    final class RecordingBootloader: NordicDFUBootloader {
        let log: Journal
        let refuse: DFUFirmwareType?

        init(log: Journal, refuse: DFUFirmwareType? = nil) {
            self.log = log
            self.refuse = refuse
        }

        func inspect() async throws -> NordicDFUDeviceState {
            log.append("inspect")
            return NordicDFUDeviceState(dfuProtocol: .secure, link: "memory", writeSize: 64, maximumObjectSize: 4096)
        }

        func send(_ image: DFUUpgradeImage, progress: @escaping @Sendable (UploadProgress) -> Void) async throws -> UploadResult {
            log.append("send \(image.type.manifestKey)")
            if image.type == refuse { throw TestRefusal() }
            let total = UInt64(image.firmware.count)
            let done = UploadProgress(acknowledged: total, total: total, bytesPerSecond: 0, chunksSent: 1, bytesSent: total)
            progress(done)
            return UploadResult(progress: done, match: true, window: 1, seconds: 0)
        }

        func close() async { log.append("close") }
    }

    struct TestRefusal: Error, CustomStringConvertible {
        var description: String { "refused" }
    }

    private let images = [
        DFUUpgradeImage(type: .application, fileName: "app.bin", firmware: [1, 2, 3], initPacket: [9]),
        DFUUpgradeImage(type: .bootloader, fileName: "bl.bin", firmware: [4, 5], initPacket: [8]),
    ]

    func testEachImageIsSentAndTheBootloaderIsFoundAgainBetweenThem() async throws {
        let log = Journal()
        let connections = Mutex(0)
        let events = Journal()
        let upgrade = NordicDFUUpgrade(connect: {
            let number = connections.withLock { $0 += 1; return $0 }
            // The bootloader is not back at once after the first image.
            if number == 2 { throw TestRefusal() }
            return RecordingBootloader(log: log)
        }) { event in
            switch event {
            case .stepStarted(let step, let index, let count): events.append("[\(index)/\(count)] \(step.name)")
            case .uploadProgress(let upload, let progress): events.append("\(upload.label) \(progress.acknowledged)/\(progress.total)")
            case .planned(let plan): events.append(plan.summary)
            default: break
            }
        }
        let report = try await upgrade.run(images)
        XCTAssertEqual(log.all, ["inspect", "send bootloader", "close", "inspect", "send application", "close"])
        XCTAssertEqual(connections.withLock { $0 }, 3, "the failed attempt was retried")
        XCTAssertEqual(events.all, [
            "plan (Nordic Secure DFU): 2 images", "[1/3] upload", "bootloader 2/2", "[2/3] wait", "[3/3] upload", "application 3/3",
        ])
        XCTAssertEqual(report.uploads.count, 2)
        XCTAssertEqual(report.steps.map(\.step.name), ["upload", "wait", "upload"])
    }

    func testAFailedImageNamesItsStepAndSaysToRunAgain() async throws {
        let log = Journal()
        let upgrade = NordicDFUUpgrade(connect: { RecordingBootloader(log: log, refuse: .application) })
        do {
            _ = try await upgrade.run(images)
            XCTFail("the refused image must fail the upgrade")
        } catch let error as UpgradeError {
            XCTAssertEqual(error.step, "upload")
            XCTAssertEqual(error.stage, "send the application app.bin (3 bytes) and its init packet [2/2]")
            XCTAssertEqual(error.hint, "run the same command again: it continues the image where the bootloader's objects stop")
            XCTAssertTrue(error.underlying is TestRefusal)
        }
        XCTAssertEqual(log.all.last, "close", "the link is closed after a failure")
    }

    func testABootloaderThatNeverAnswersFailsTheConnectStage() async throws {
        let upgrade = NordicDFUUpgrade(connect: { throw TestRefusal() })
        do {
            _ = try await upgrade.plan(images)
            XCTFail("no bootloader, no plan")
        } catch {
            XCTAssertEqual(error.stage, NordicDFUUpgrade.connectStage)
            XCTAssertEqual(error.description, "upgrade failed (connect to the bootloader): refused")
        }
    }

    func testTheBootloaderNotComingBackEndsTheWaitStep() async throws {
        let log = Journal()
        let connections = Mutex(0)
        let upgrade = NordicDFUUpgrade(connect: {
            let number = connections.withLock { $0 += 1; return $0 }
            if number > 1 { throw TestRefusal() }
            return RecordingBootloader(log: log)
        }, reconnectTimeout: .zero)
        do {
            _ = try await upgrade.run(images)
            XCTFail("the bootloader never came back")
        } catch let error as UpgradeError {
            XCTAssertEqual(error.step, "wait")
            XCTAssertEqual(error.hint, "check that the device came back in its bootloader, then run the same command again")
        }
        XCTAssertEqual(log.all, ["inspect", "send bootloader", "close"])
    }
}
