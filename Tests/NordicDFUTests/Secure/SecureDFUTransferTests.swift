import NordicDFU
import SMP
import SMPSimulator
import Synchronization
import XCTest

/// The engine and the serial transport against the virtual bootloader, over a real pseudo-terminal.
final class SecureDFUTransferTests: XCTestCase {
    let initPacket = testImage(200, seed: 99)
    let firmware = testImage(10 * 1024)

    func testAWholeTransferInstallsExactlyTheImage() async throws {
        let bench = try await SecureDFUPTYBench.start(firmwareSize: firmware.count)
        let reports = Mutex<[UploadProgress]>([])
        let report = try await bench.send(initPacket: initPacket, firmware: firmware) { progress in reports.withLock { $0.append(progress) } }
        let target = await bench.server.target
        await bench.stop()
        XCTAssertEqual(target.installed, [SecureDFUTarget.InstalledImage(initPacket: initPacket, firmware: firmware)])
        XCTAssertEqual(target.statistics.dataBytesReceived, firmware.count)
        XCTAssertEqual(target.statistics.commandBytesReceived, initPacket.count)
        XCTAssertEqual(report.dataObjects, 3)
        XCTAssertEqual(report.objectSize, 4096)
        XCTAssertNil(report.resumedFrom)
        XCTAssertFalse(report.initPacketSkipped)
        let progress = reports.withLock { $0 }
        // A report after each write, and after each object's CRC confirmed what the device holds.
        XCTAssertEqual(progress.count, (firmware.count + 63) / 64 + 3)
        XCTAssertEqual(Set(progress.map(\.acknowledged)), [0, 4096, 8192, UInt64(firmware.count)])
        XCTAssertEqual(progress.last?.acknowledged, UInt64(firmware.count))
        XCTAssertEqual(progress.last?.bytesSent, UInt64(firmware.count))
        XCTAssertEqual(progress.last?.chunksSent, (firmware.count + 63) / 64)
        XCTAssertEqual(progress.last?.total, UInt64(firmware.count))
    }

    func testWritesAndControlRequestsPerObject() async throws {
        let bench = try await SecureDFUPTYBench.start(firmwareSize: firmware.count)
        let interval = 5
        let report = try await bench.send(
            initPacket: initPacket, firmware: firmware, options: SecureDFUEngine.Options(receiptNotificationInterval: UInt16(interval)))
        let statistics = await bench.server.target.statistics
        await bench.stop()
        let writeSize = SecureDFUSerialTransport.maximumWriteSize(mtu: 131)
        XCTAssertEqual(writeSize, 64)
        XCTAssertEqual(statistics.dataObjects.map(\.size), [4096, 4096, 2048])
        for object in statistics.dataObjects {
            let writes = (object.size + writeSize - 1) / writeSize
            XCTAssertEqual(object.writes, writes)
            XCTAssertTrue(object.executed)
            // Create, Calculate Checksum, Execute, and a notification every `interval` writes.
            XCTAssertEqual(object.controlRequests, 3)
            XCTAssertEqual(object.notifications, writes / interval)
            XCTAssertLessThanOrEqual(object.controlRequests + object.notifications, 3 + (writes + interval - 1) / interval)
        }
        XCTAssertEqual(report.receiptNotifications, statistics.notifications)
        XCTAssertEqual(statistics.installs, 1)
    }

    func testADisconnectMidObjectIsResumedResendingAtMostOneObject() async throws {
        let bench = try await SecureDFUPTYBench.start(
            firmwareSize: firmware.count, faults: SecureDFUTargetFaults(disconnectAfterDataBytes: 6000))
        do {
            _ = try await bench.send(initPacket: initPacket, firmware: firmware)
            XCTFail("the link was dropped: the transfer cannot have finished")
        } catch let error as SecureDFUError {
            XCTAssertTrue([.disconnected, .noResponse].contains(error.kind), "\(error)")
        }
        let afterFirst = await bench.server.target.statistics
        XCTAssertEqual(afterFirst.disconnects, 1)
        XCTAssertEqual(afterFirst.installs, 0)
        let report = try await bench.send(initPacket: initPacket, firmware: firmware)
        let target = await bench.server.target
        await bench.stop()
        XCTAssertTrue(report.initPacketSkipped)
        XCTAssertNotNil(report.resumedFrom)
        XCTAssertEqual(target.installed.last?.firmware, firmware)
        XCTAssertLessThanOrEqual(target.statistics.dataBytesReceived, firmware.count + 4096)
        XCTAssertEqual(target.statistics.commandBytesReceived, initPacket.count)
    }

    func testACancelledTransferIsResumedByTheNextRun() async throws {
        let bench = try await SecureDFUPTYBench.start(firmwareSize: firmware.count)
        let transfer = Task { [initPacket, firmware] in
            try await bench.send(initPacket: initPacket, firmware: firmware) { progress in
                // Ctrl-C once the first object is confirmed and 5000 bytes are out: the progress
                // report runs in the transferring task, which is cancelled.
                if progress.acknowledged >= 4096 && progress.bytesSent >= 5000 { withUnsafeCurrentTask { $0?.cancel() } }
            }
        }
        let outcome = await transfer.result
        XCTAssertThrowsError(try outcome.get()) { XCTAssertTrue($0 is CancellationError, "\($0)") }
        let held = await bench.server.target.receivedFirmware
        // The first object was confirmed; how much of the second one arrived depends on when the
        // cancellation came.
        XCTAssertGreaterThanOrEqual(held.count, 4096)
        XCTAssertLessThan(held.count, firmware.count)
        XCTAssertEqual(held, Array(firmware.prefix(held.count)))
        let report = try await bench.send(initPacket: initPacket, firmware: firmware)
        let target = await bench.server.target
        await bench.stop()
        // The bootloader may have taken a few more writes after `held` was read.
        XCTAssertGreaterThanOrEqual(report.resumedFrom ?? 0, held.count)
        XCTAssertEqual(target.installed.last?.firmware, firmware)
        XCTAssertLessThanOrEqual(target.statistics.dataBytesReceived, firmware.count + 4096)
    }

    func testACorruptedObjectIsSentAgain() async throws {
        let bench = try await SecureDFUPTYBench.start(firmwareSize: firmware.count, faults: SecureDFUTargetFaults(corruptedWrites: [3, 150]))
        let report = try await bench.send(initPacket: initPacket, firmware: firmware)
        let target = await bench.server.target
        await bench.stop()
        XCTAssertEqual(report.objectRetries, 2)
        XCTAssertEqual(target.statistics.corruptedWrites, 2)
        XCTAssertEqual(target.statistics.dataObjects.map(\.offset), [0, 0, 4096, 4096, 8192])
        XCTAssertEqual(target.installed.last?.firmware, firmware)
    }

    func testALostWriteIsFoundByTheObjectsChecksumAndTheObjectSentAgain() async throws {
        let bench = try await SecureDFUPTYBench.start(firmwareSize: firmware.count, faults: SecureDFUTargetFaults(lostWrites: [10]))
        let report = try await bench.send(initPacket: initPacket, firmware: firmware)
        let target = await bench.server.target
        await bench.stop()
        XCTAssertEqual(report.objectRetries, 1)
        XCTAssertEqual(target.statistics.lostWrites, 1)
        XCTAssertEqual(target.statistics.dataObjects.first?.writes, 63)
        XCTAssertEqual(target.statistics.dataObjects.first?.executed, false)
        XCTAssertEqual(target.installed.last?.firmware, firmware)
    }

    func testACorruptionSeenByAReceiptNotificationStopsTheObjectEarly() async throws {
        let bench = try await SecureDFUPTYBench.start(firmwareSize: firmware.count, faults: SecureDFUTargetFaults(corruptedWrites: [2]))
        let report = try await bench.send(
            initPacket: initPacket, firmware: firmware, options: SecureDFUEngine.Options(receiptNotificationInterval: 4))
        let target = await bench.server.target
        await bench.stop()
        XCTAssertEqual(report.objectRetries, 1)
        XCTAssertEqual(target.statistics.dataObjects.first?.writes, 4)
        XCTAssertEqual(target.installed.last?.firmware, firmware)
    }

    func testPersistentCorruptionFailsWithTheObjectAndOffset() async throws {
        let bench = try await SecureDFUPTYBench.start(
            firmwareSize: firmware.count, faults: SecureDFUTargetFaults(seed: 7, corruptedWriteFraction: 1))
        do {
            _ = try await bench.send(initPacket: initPacket, firmware: firmware)
            XCTFail("every write is damaged: the transfer cannot succeed")
        } catch let error as SecureDFUError {
            XCTAssertEqual(error.kind, .checksumMismatch)
            XCTAssertEqual(error.object, .data)
            XCTAssertEqual(error.offset, 0)
            XCTAssertTrue(error.message.contains("3 times"), error.message)
            XCTAssertNotNil(error.hint)
        }
        let statistics = await bench.server.target.statistics
        await bench.stop()
        XCTAssertEqual(statistics.dataObjects.count, 3)
        XCTAssertEqual(statistics.installs, 0)
    }

    func testEachExtendedErrorOfTheInitPacketCheckSurfacesWithItsNameAndHint() async throws {
        for extended in SecureDFUExtendedError.allCases {
            let bench = try await SecureDFUPTYBench.start(firmwareSize: firmware.count, initPacketCheck: { _, _ in .refuse(.extended(extended)) })
            do {
                _ = try await bench.send(initPacket: initPacket, firmware: firmware)
                XCTFail("\(extended): the init packet was refused")
            } catch let error as SecureDFUError {
                XCTAssertEqual(error.extendedError, extended)
                XCTAssertEqual(error.request, .execute)
                XCTAssertEqual(error.object, .command)
                XCTAssertTrue(error.message.contains(extended.name), error.message)
                XCTAssertEqual(error.hint, extended.hint)
            }
            let statistics = await bench.server.target.statistics
            await bench.stop()
            XCTAssertEqual(statistics.dataBytesReceived, 0)
        }
    }

    func testAnImageThatFailsVerificationIsNotInstalled() async throws {
        let bench = try await SecureDFUPTYBench.start(firmwareSize: firmware.count) { _, _ in .extended(.verificationFailed) }
        do {
            _ = try await bench.send(initPacket: initPacket, firmware: firmware)
            XCTFail("the image was refused")
        } catch let error as SecureDFUError {
            XCTAssertEqual(error.extendedError, .verificationFailed)
            XCTAssertEqual(error.object, .data)
            XCTAssertEqual(error.offset, UInt32(firmware.count))
        }
        let target = await bench.server.target
        await bench.stop()
        XCTAssertEqual(target.installed, [])
    }

    func testAnInitPacketLargerThanTheBootloaderTakesIsRefusedBeforeSending() async throws {
        let bench = try await SecureDFUPTYBench.start(firmwareSize: firmware.count)
        do {
            _ = try await bench.send(initPacket: testImage(300), firmware: firmware)
            XCTFail("256 bytes at most")
        } catch let error as SecureDFUError {
            XCTAssertEqual(error.kind, .invalidInput)
            XCTAssertTrue(error.message.contains("256"), error.message)
        }
        let statistics = await bench.server.target.statistics
        await bench.stop()
        XCTAssertEqual(statistics.commandBytesReceived, 0)
    }

    /// The figure for docs/protocol/nordic-secure-dfu.md: 100 KB over the pseudo-terminal.
    func testAHundredKilobyteTransfer() async throws {
        let image = testImage(100 * 1024)
        let bench = try await SecureDFUPTYBench.start(firmwareSize: image.count)
        let started = ContinuousClock.now
        let report = try await bench.send(initPacket: initPacket, firmware: image, options: SecureDFUEngine.Options(receiptNotificationInterval: 8))
        let elapsed = ContinuousClock.now - started
        let target = await bench.server.target
        await bench.stop()
        XCTAssertEqual(target.installed.last?.firmware, image)
        XCTAssertEqual(report.dataObjects, 25)
        print("100 KB over a pty: \(elapsed), \(report.writes) writes, \(report.controlRequests) control requests, \(report.receiptNotifications) notifications")
    }
}
