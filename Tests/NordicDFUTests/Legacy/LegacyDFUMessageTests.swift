import NordicDFU
import XCTest

/// Every legacy DFU request, response and notification, as bytes and back.
final class LegacyDFUMessageTests: XCTestCase {
    func testEveryRequestEncodesAsTheSDKReadsItAndParsesBack() {
        let expected: [(LegacyDFURequest, [UInt8])] = [
            (.start(mode: 4), [0x01, 0x04]), (.start(mode: 3), [0x01, 0x03]), (.startVersion1, [0x01]),
            (.initializeBegin, [0x02, 0x00]), (.initializeComplete, [0x02, 0x01]), (.receiveFirmware, [0x03]), (.validate, [0x04]),
            (.activateAndReset, [0x05]), (.reset, [0x06]), (.reportReceivedSize, [0x07]),
            (.receiptNotificationRequest(10), [0x08, 0x0A, 0x00]), (.receiptNotificationRequest(0x0102), [0x08, 0x02, 0x01]),
        ]
        for (request, bytes) in expected {
            XCTAssertEqual(request.bytes, bytes, "\(request)")
            XCTAssertEqual(LegacyDFURequest.parse(bytes), request, "\(bytes)")
        }
        XCTAssertEqual(Set(expected.map(\.0.opCode)), Set(LegacyDFUOpCode.allCases).subtracting([.response, .receiptNotification]))
    }

    func testMalformedRequestsAreRefused() {
        for bytes: [UInt8] in [[], [0x00], [0x09], [0x10, 0x01, 0x01], [0x01, 0x04, 0x00], [0x02], [0x02, 0x02], [0x03, 0x00], [0x08, 0x0A]] {
            XCTAssertNil(LegacyDFURequest.parse(bytes), "\(bytes)")
        }
    }

    func testStartSizesAreThreeLittleEndianWords() {
        XCTAssertEqual(
            LegacyDFURequest.startSizes(softDevice: 0x0102_0304, bootloader: 5, application: 0x100),
            [0x04, 0x03, 0x02, 0x01, 5, 0, 0, 0, 0x00, 0x01, 0, 0])
        XCTAssertEqual(LegacyDFURequest.startVersion1Size(5120), [0x00, 0x14, 0, 0])
    }

    func testEveryStatusOfEveryResponseParses() throws {
        for op in LegacyDFUOpCode.allCases where op != .response && op != .receiptNotification {
            for status in LegacyDFUStatus.allCases where !(op == .reportReceivedSize && status == .success) {
                let bytes: [UInt8] = [0x10, op.rawValue, status.rawValue]
                let parsed = try LegacyDFUNotification.parse(bytes).get()
                XCTAssertEqual(parsed, .response(LegacyDFUResponse(request: op, status: status)))
                XCTAssertEqual(parsed.bytes, bytes)
            }
        }
        let size = try LegacyDFUNotification.parse([0x10, 0x07, 0x01, 0x00, 0x14, 0, 0]).get()
        XCTAssertEqual(size, .response(LegacyDFUResponse(request: .reportReceivedSize, bytesReceived: 5120)))
        XCTAssertEqual(size.bytes, [0x10, 0x07, 0x01, 0x00, 0x14, 0, 0])
        let receipt = try LegacyDFUNotification.parse([0x11, 0xC8, 0, 0, 0]).get()
        XCTAssertEqual(receipt, .receipt(bytesReceived: 200))
        XCTAssertEqual(receipt.bytes, [0x11, 0xC8, 0, 0, 0])
    }

    func testMalformedNotificationsAreNamedNotTrusted() {
        let bad: [[UInt8]] = [
            [], [0x10], [0x10, 0x01], [0x10, 0x01, 0x07], [0x10, 0x01, 0x00], [0x10, 0x42, 0x01], [0x10, 0x01, 0x01, 0x00],
            [0x10, 0x07, 0x01], [0x10, 0x07, 0x01, 0, 0, 0], [0x11, 0, 0, 0], [0x11, 0, 0, 0, 0, 0], [0x60, 0x01, 0x01],
        ]
        for bytes in bad {
            guard case .failure(let error) = LegacyDFUNotification.parse(bytes) else { return XCTFail("\(bytes) parsed") }
            XCTAssertEqual(error.kind, .malformedResponse, "\(bytes)")
            XCTAssertFalse(error.isTransient)
        }
    }

    func testEveryStatusHasItsOwnNameAndAHint() {
        XCTAssertEqual(LegacyDFUStatus.allCases.map(\.rawValue), [1, 2, 3, 4, 5, 6])
        XCTAssertEqual(Set(LegacyDFUStatus.allCases.map(\.name)).count, LegacyDFUStatus.allCases.count)
        XCTAssertEqual(Set(LegacyDFUStatus.allCases.map(\.hint)).count, LegacyDFUStatus.allCases.count)
        XCTAssertEqual(LegacyDFUStatus.crcError.description, "CRC error (5)")
        XCTAssertTrue(LegacyDFUStatus.operationFailed.hint.contains("8 or less"))
    }

    func testTransientErrorsAreThoseARerunCanGetPast() {
        XCTAssertTrue(LegacyDFUError(.packetsLost, "").isTransient)
        XCTAssertTrue(LegacyDFUError(.interruptedUpdate, "").isTransient)
        XCTAssertTrue(LegacyDFUError(.noResponse, "").isTransient)
        XCTAssertTrue(LegacyDFUError(.disconnected, "").isTransient)
        XCTAssertTrue(LegacyDFUError(.refused(.crcError), "").isTransient)
        XCTAssertFalse(LegacyDFUError(.refused(.operationFailed), "").isTransient)
        XCTAssertFalse(LegacyDFUError(.refused(.notSupported), "").isTransient)
        XCTAssertFalse(LegacyDFUError(.invalidInput, "").isTransient)
    }

    func testOptionsClampTheReceiptInterval() {
        XCTAssertEqual(LegacyDFUEngine.Options().receiptNotificationInterval, 10)
        XCTAssertEqual(LegacyDFUEngine.Options(receiptNotificationInterval: 50).receiptNotificationInterval, 10)
        XCTAssertEqual(LegacyDFUEngine.Options(receiptNotificationInterval: 0).receiptNotificationInterval, 1)
        XCTAssertEqual(LegacyDFUEngine.Options(receiptNotificationInterval: 8).receiptNotificationInterval, 8)
    }
}
