import NordicDFU
import SMP
import SMPSimulator
import Synchronization
import XCTest

/// The engine against the virtual legacy bootloader, through an in-memory link.
final class LegacyDFUTransferTests: XCTestCase {
    private func application(_ size: Int, initPacket: Bool = true) -> DFUUpgradeImage {
        let firmware = testImage(size)
        return DFUUpgradeImage(
            type: .application, fileName: "app.bin", firmware: firmware, initPacket: initPacket ? legacyInitPacket(for: firmware) : [])
    }

    private func packageImage(_ name: String) throws -> DFUUpgradeImage {
        let set = try GeneratedNordicPackages.load()
        let package = try NordicDFUPackage(contentsOf: set.path(name))
        XCTAssertEqual(package.images.count, 1)
        return DFUUpgradeImage(try XCTUnwrap(package.images.first))
    }

    @discardableResult
    private func send(
        _ image: DFUUpgradeImage, to link: LegacyDFUMemoryLink, interval: UInt16 = 10,
        progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }
    ) async throws -> LegacyDFUTransferReport {
        try await LegacyDFUEngine(transport: link, options: LegacyDFUEngine.Options(receiptNotificationInterval: interval), logger: quiet)
            .send(image, progress: progress)
    }

    private func failure(_ image: DFUUpgradeImage, to link: LegacyDFUMemoryLink, interval: UInt16 = 10) async -> LegacyDFUError? {
        do {
            _ = try await send(image, to: link, interval: interval)
            XCTFail("the transfer cannot have succeeded")
            return nil
        } catch let error as LegacyDFUError {
            return error
        } catch {
            XCTFail("\(error)")
            return nil
        }
    }

    // MARK: Packages

    func testAnApplicationWithItsInitPacketInstallsExactly() async throws {
        let image = try packageImage("legacy-0.7.zip")
        let link = LegacyDFUMemoryLink(LegacyDFUTarget.Configuration(installedApplicationVersion: 1, softDeviceID: 0x8C))
        let report = try await send(image, to: link)
        let target = await link.target
        XCTAssertEqual(target.installed, [LegacyDFUTarget.InstalledImage(mode: 4, initPacket: image.initPacket, firmware: image.firmware)])
        XCTAssertEqual(target.state, .idle)
        XCTAssertTrue(report.initPacketSent)
        XCTAssertFalse(report.usedVersion1Start)
        XCTAssertEqual(report.dataPackets, 2048 / 20 + 1)
        let requests = await link.requests
        XCTAssertEqual(requests, [
            .receiptNotificationRequest(10), .start(mode: 4), .initializeBegin, .initializeComplete, .receiveFirmware, .validate,
            .activateAndReset,
        ])
        let sizes = await link.packets.first
        XCTAssertEqual(sizes, LegacyDFURequest.startSizes(softDevice: 0, bootloader: 0, application: 2048))
    }

    func testASoftDeviceAndBootloaderStartsWithBothSizes() async throws {
        let image = try packageImage("legacy-sdbl-0.5.zip")
        XCTAssertEqual(image.softDeviceSize, 2000)
        let link = LegacyDFUMemoryLink()
        try await send(image, to: link)
        let target = await link.target
        XCTAssertEqual(target.installed.map(\.mode), [3])
        XCTAssertEqual(target.installed.first?.firmware, image.firmware)
        let sizes = await link.packets.first
        XCTAssertEqual(sizes, LegacyDFURequest.startSizes(softDevice: 2000, bootloader: 1000, application: 0))
    }

    func testAnImageNotAMultipleOf4IsRefusedAsTheSDKDoesUnlessTheTargetAllowsIt() async throws {
        let image = try packageImage("legacy-0.5.zip")
        XCTAssertEqual(image.firmware.count, 3001)
        let strict = LegacyDFUMemoryLink()
        let error = await failure(image, to: strict)
        XCTAssertEqual(error?.kind, .refused(.notSupported))
        XCTAssertEqual(error?.request, .start)
        XCTAssertEqual(error?.isTransient, false)
        XCTAssertTrue(error?.hint?.contains("multiples of 4") == true, "\(String(describing: error))")
        let strictRequests = await strict.requests
        XCTAssertFalse(strictRequests.contains(.reset), "a refused Start leaves the bootloader idle: no Reset")
        let strictTarget = await strict.target
        XCTAssertEqual(strictTarget.state, .idle)
        XCTAssertTrue(strictTarget.installed.isEmpty)

        let lenient = LegacyDFUMemoryLink(LegacyDFUTarget.Configuration(requiresWordSizedImages: false))
        try await send(image, to: lenient)
        let installed = await lenient.target.installed
        XCTAssertEqual(installed.map(\.firmware), [image.firmware])
    }

    // MARK: Without an init packet, version 1

    func testABareApplicationGoesToAVersion1BootloaderAfterTheFallback() async throws {
        let image = application(1000, initPacket: false)
        let link = LegacyDFUMemoryLink(LegacyDFUTarget.Configuration(version1: true))
        let report = try await send(image, to: link)
        XCTAssertTrue(report.usedVersion1Start)
        XCTAssertFalse(report.initPacketSent)
        let requests = await link.requests
        XCTAssertEqual(requests, [
            .receiptNotificationRequest(10), .start(mode: 4), .startVersion1, .receiveFirmware, .validate, .activateAndReset,
        ])
        let target = await link.target
        XCTAssertEqual(target.installed.map(\.firmware), [image.firmware])
        XCTAssertEqual(target.statistics.refusals[.start], 1)
    }

    func testAVersion1BootloaderTakesAnApplicationWithoutItsInitPacket() async throws {
        let image = application(1000)
        let link = LegacyDFUMemoryLink(LegacyDFUTarget.Configuration(version1: true))
        let report = try await send(image, to: link)
        XCTAssertTrue(report.usedVersion1Start)
        XCTAssertFalse(report.initPacketSent)
        let target = await link.target
        XCTAssertEqual(target.installed, [LegacyDFUTarget.InstalledImage(mode: 4, initPacket: [], firmware: image.firmware)])
    }

    func testAVersion1BootloaderRefusesASoftDevice() async throws {
        let firmware = testImage(400)
        let image = DFUUpgradeImage(type: .softDevice, fileName: "sd.bin", firmware: firmware, initPacket: legacyInitPacket(for: firmware))
        let link = LegacyDFUMemoryLink(LegacyDFUTarget.Configuration(version1: true))
        let error = await failure(image, to: link)
        XCTAssertEqual(error?.kind, .refused(.notSupported))
        let requests = await link.requests
        XCTAssertFalse(requests.contains(.startVersion1))
    }

    /// An SDK 11 bootloader takes Start with a mode, so it stores nothing without an init packet:
    /// a bare application stops there, before its firmware, and the bootloader is reset.
    func testABareApplicationStopsAtAnSDK11BootloaderBeforeItsFirmware() async throws {
        let link = LegacyDFUMemoryLink()
        let error = await failure(application(1000, initPacket: false), to: link)
        XCTAssertEqual(error?.kind, .invalidInput)
        XCTAssertTrue(error?.message.contains("the bootloader took Start with a mode (nRF5 SDK 7–11): it takes no image without an init packet") == true, "\(String(describing: error))")
        let requests = await link.requests
        XCTAssertFalse(requests.contains(.receiveFirmware), "\(requests)")
        let target = await link.target
        XCTAssertEqual(target.statistics.dataBytesReceived, 0)
        XCTAssertEqual(target.state, .idle, "the engine reset the bootloader")
    }

    // MARK: Receipt notifications

    func testReceiptNotificationsComeAfterEveryNthPacketButTheLast() async throws {
        for (size, interval) in [(5120, 10), (200, 10), (220, 10), (4000, 8), (1000, 1), (20, 10), (2048, 3)] {
            let link = LegacyDFUMemoryLink()
            let report = try await send(application(size), to: link, interval: UInt16(interval))
            let target = await link.target
            let packets = (size + 19) / 20
            // The SDK answers the last packet with the Receive firmware response instead.
            XCTAssertEqual(target.statistics.notifications, (packets - 1) / interval, "\(size) bytes at PRN \(interval)")
            XCTAssertEqual(report.receiptNotifications, target.statistics.notifications)
            XCTAssertEqual(report.dataPackets, packets)
            XCTAssertEqual(target.statistics.dataPackets, packets)
            XCTAssertEqual(target.installed.count, 1)
        }
    }

    func testAFiveKilobyteImageAtPRN10() async throws {
        let image = application(5120)
        let link = LegacyDFUMemoryLink()
        let reports = Mutex<[UploadProgress]>([])
        let report = try await send(image, to: link) { progress in reports.withLock { $0.append(progress) } }
        XCTAssertEqual(image.initPacket.count, 52)
        XCTAssertEqual(report.dataPackets, 256)
        XCTAssertEqual(report.receiptNotifications, 25)
        // PRN, Start, Init ×2, Receive firmware, Validate, Activate.
        XCTAssertEqual(report.controlPointWrites, 7)
        // Sizes, the init packet in 3, the image in 256.
        XCTAssertEqual(report.packetWrites, 1 + 3 + 256)
        // Start, Init, Receive firmware, Validate.
        XCTAssertEqual(report.responses, 4)
        let progress = reports.withLock { $0 }
        XCTAssertEqual(progress.count, 256 + 25 + 1)
        XCTAssertEqual(progress.last?.acknowledged, 5120)
        XCTAssertEqual(progress.last?.bytesSent, 5120)
        XCTAssertEqual(progress.last?.chunksSent, 256)
        XCTAssertEqual(Set(progress.map(\.acknowledged)).count, 27)
    }

    // MARK: Failures

    func testALostPacketIsFoundByTheReceivedCountAndNamed() async throws {
        let link = LegacyDFUMemoryLink(LegacyDFUTarget.Configuration(faults: LegacyDFUTargetFaults(lostPackets: [15])))
        let image = application(2000)
        let error = await failure(image, to: link)
        XCTAssertEqual(error?.kind, .packetsLost)
        XCTAssertEqual(error?.isTransient, true)
        XCTAssertTrue(error?.message.contains("400 bytes were sent") == true, "\(String(describing: error))")
        XCTAssertTrue(error?.message.contains("received 380") == true, "\(String(describing: error))")
        let requests = await link.requests
        XCTAssertEqual(requests.suffix(2), [.reportReceivedSize, .reset])
        let target = await link.target
        XCTAssertEqual(target.statistics.lostPackets, 1)
        XCTAssertEqual(target.state, .idle)
        // The loss was packet 15 of the target's life: the next run gets everything.
        try await send(image, to: link)
        let installed = await link.target.installed
        XCTAssertEqual(installed.map(\.firmware), [image.firmware])
    }

    func testAReceiptNotificationWithAnotherCountFailsAtOnce() async throws {
        let link = LegacyDFUMemoryLink(receiptShortfall: 20)
        let error = await failure(application(2000), to: link)
        XCTAssertEqual(error?.kind, .packetsLost)
        XCTAssertTrue(error?.message.contains("200 bytes were sent (10 packets), the bootloader received 180 (its receipt notification)") == true, "\(String(describing: error))")
        let requests = await link.requests
        XCTAssertEqual(requests.last, .reset)
        XCTAssertFalse(requests.contains(.reportReceivedSize))
    }

    func testRandomLossesFailTheTransferAsLostPackets() async throws {
        let link = LegacyDFUMemoryLink(LegacyDFUTarget.Configuration(faults: LegacyDFUTargetFaults(seed: 7, lostPacketFraction: 0.02)))
        let error = await failure(application(8000), to: link)
        XCTAssertEqual(error?.kind, .packetsLost)
        let target = await link.target
        XCTAssertGreaterThan(target.statistics.lostPackets, 0)
        XCTAssertTrue(target.installed.isEmpty)
    }

    func testAnImageThatDiffersFromItsInitPacketIsACRCErrorAtValidate() async throws {
        var image = application(2000)
        image.firmware[1000] ^= 0xFF
        let link = LegacyDFUMemoryLink()
        let error = await failure(image, to: link)
        XCTAssertEqual(error?.kind, .refused(.crcError))
        XCTAssertEqual(error?.request, .validate)
        XCTAssertTrue(error?.message.contains("refused Validate: CRC error (5)") == true, "\(String(describing: error))")
        XCTAssertTrue(error?.hint?.contains(".dat and .bin") == true)
        let target = await link.target
        XCTAssertTrue(target.installed.isEmpty)
        XCTAssertEqual(target.state, .idle)
    }

    func testTheInitPacketChecksRefuseWithOperationFailed() async throws {
        let image = try packageImage("legacy-0.7.zip")
        for configuration in [
            LegacyDFUTarget.Configuration(deviceType: 0x0052, softDeviceID: 0x8C),
            LegacyDFUTarget.Configuration(deviceRevision: 1, softDeviceID: 0x8C),
            LegacyDFUTarget.Configuration(installedApplicationVersion: 2, softDeviceID: 0x8C),
            LegacyDFUTarget.Configuration(softDeviceID: 0x81),
        ] {
            let link = LegacyDFUMemoryLink(configuration)
            let error = await failure(image, to: link)
            XCTAssertEqual(error?.kind, .refused(.operationFailed))
            XCTAssertEqual(error?.request, .initialize)
            let target = await link.target
            XCTAssertEqual(target.statistics.refusedInitPackets, 1)
            XCTAssertEqual(target.statistics.dataPackets, 0)
        }
    }

    func testAnIntervalAboveTheAdafruitLimitOverflowsItsBuffers() async throws {
        let image = application(2000)
        let adafruit = LegacyDFUTarget.Configuration(maximumReceiptNotificationInterval: 8)
        let link = LegacyDFUMemoryLink(adafruit)
        let error = await failure(image, to: link, interval: 10)
        XCTAssertEqual(error?.kind, .refused(.operationFailed))
        XCTAssertEqual(error?.request, .receiveFirmware)
        XCTAssertTrue(error?.message.contains("after 200 bytes") == true, "\(String(describing: error))")
        let overflows = await link.target.statistics.overflows
        XCTAssertEqual(overflows, 1)
        let good = LegacyDFUMemoryLink(adafruit)
        try await send(image, to: good, interval: 8)
        let installed = await good.target.installed
        XCTAssertEqual(installed.map(\.firmware), [image.firmware])
    }

    func testAnInterruptedUpdateIsResetAndTheNextRunSucceeds() async throws {
        let link = LegacyDFUMemoryLink()
        // An earlier client started and went away.
        await link.drive(controlPoint: [0x01, 0x04], packet: LegacyDFURequest.startSizes(softDevice: 0, bootloader: 0, application: 400))
        let before = await link.target.state
        XCTAssertEqual(before, .ready)
        let image = application(1000)
        let error = await failure(image, to: link)
        XCTAssertEqual(error?.kind, .interruptedUpdate)
        XCTAssertEqual(error?.isTransient, true)
        try await send(image, to: link)
        let installed = await link.target.installed
        XCTAssertEqual(installed.map(\.firmware), [image.firmware])
    }

    func testACancelledTransferLeavesTheBootloaderIdleAndTheNextRunStartsOver() async throws {
        let link = LegacyDFUMemoryLink()
        let image = application(5120)
        let engine = LegacyDFUEngine(transport: link, logger: quiet)
        let transfer = Task { [image] in
            try await engine.send(image) { progress in
                if progress.acknowledged >= 2000 { withUnsafeCurrentTask { $0?.cancel() } }
            }
        }
        let outcome = await transfer.result
        XCTAssertThrowsError(try outcome.get()) { XCTAssertTrue($0 is CancellationError, "\($0)") }
        let cancelled = await link.target
        XCTAssertEqual(cancelled.state, .idle)
        XCTAssertEqual(cancelled.statistics.resets, 1)
        XCTAssertTrue(cancelled.installed.isEmpty)
        let partial = cancelled.statistics.dataBytesReceived
        XCTAssertGreaterThanOrEqual(partial, 2000)
        XCTAssertLessThan(partial, 5120)
        let requests = await link.requests
        XCTAssertEqual(requests.last, .reset)

        let report = try await send(image, to: link)
        let target = await link.target
        XCTAssertEqual(target.installed.map(\.firmware), [image.firmware])
        // Started over: the whole image went again.
        XCTAssertEqual(report.dataBytesWritten, 5120)
        XCTAssertEqual(target.statistics.dataBytesReceived, partial + 5120)
    }

    func testAnEmptyImageIsNotSent() async {
        let link = LegacyDFUMemoryLink()
        let error = await failure(DFUUpgradeImage(type: .application, fileName: "app.bin", firmware: [], initPacket: []), to: link)
        XCTAssertEqual(error?.kind, .invalidInput)
        let requests = await link.requests
        XCTAssertTrue(requests.isEmpty)
    }
}
