import NordicDFU
import XCTest

final class SecureDFUMessageTests: XCTestCase {
    func testRequestBytes() {
        XCTAssertEqual(SecureDFURequest.create(.data, size: 0x1000).bytes, [0x01, 0x02, 0x00, 0x10, 0x00, 0x00])
        XCTAssertEqual(SecureDFURequest.setReceiptNotification(0x0102).bytes, [0x02, 0x02, 0x01])
        XCTAssertEqual(SecureDFURequest.select(.command).bytes, [0x06, 0x01])
        XCTAssertEqual(SecureDFURequest.calculateChecksum.bytes, [0x03])
        XCTAssertEqual(SecureDFURequest.execute.bytes, [0x04])
        XCTAssertEqual(SecureDFURequest.mtu.bytes, [0x07])
        XCTAssertEqual(SecureDFURequest.write([9, 8]).bytes, [0x08, 9, 8])
        XCTAssertEqual(SecureDFURequest.ping(7).bytes, [0x09, 7])
        XCTAssertEqual(SecureDFURequest.abort.bytes, [0x0C])
    }

    func testRequestsParseBackAndMalformedOnesSayWhichResult() throws {
        let requests: [SecureDFURequest] = [
            .protocolVersion, .create(.command, size: 200), .setReceiptNotification(12), .calculateChecksum, .execute, .select(.data),
            .mtu, .write([1, 2, 3]), .ping(200), .hardwareVersion, .firmwareVersion(image: 1), .abort,
        ]
        for request in requests { XCTAssertEqual(try SecureDFURequest.parse(request.bytes).get(), request) }
        XCTAssertEqual(failure(of: []), .empty)
        XCTAssertEqual(failure(of: [0x60]), .unknownOpCode(0x60))
        XCTAssertEqual(failure(of: [0x05]), .unknownOpCode(0x05))
        XCTAssertEqual(failure(of: [0x01, 0x02, 0x00]), .wrongLength(.create))
        XCTAssertEqual(failure(of: [0x08]), .wrongLength(.write))
        XCTAssertEqual(failure(of: [0x03, 0x00]), .wrongLength(.calculateChecksum))
        XCTAssertEqual(failure(of: [0x06, 0x03]), .unknownObjectType(.select, 3))
        XCTAssertEqual(failure(of: [0x06, 0x03])?.result, .unsupportedType)
        XCTAssertEqual(failure(of: [0x01, 0x02])?.result, .invalidParameter)
    }

    private func failure(of bytes: [UInt8]) -> SecureDFURequestParseFailure? {
        guard case .failure(let failure) = SecureDFURequest.parse(bytes) else { return nil }
        return failure
    }

    func testSelectChecksumMTUAndPingAnswers() throws {
        let select = try SecureDFUResponse.parse([0x60, 0x06, 0x01, 0x00, 0x10, 0, 0, 0x34, 0x12, 0, 0, 0x78, 0x56, 0x34, 0x12]).get()
        XCTAssertEqual(try select.selection(), SecureDFUSelection(maximumSize: 4096, checksum: SecureDFUChecksum(offset: 0x1234, crc: 0x1234_5678)))
        let crc = try SecureDFUResponse.parse([0x60, 0x03, 0x01, 0x40, 0, 0, 0, 0xEF, 0xBE, 0xAD, 0xDE]).get()
        XCTAssertEqual(try crc.checksum(), SecureDFUChecksum(offset: 64, crc: 0xDEAD_BEEF))
        XCTAssertEqual(try SecureDFUResponse.parse([0x60, 0x07, 0x01, 0x83, 0x00]).get().mtu(), 131)
        XCTAssertEqual(try SecureDFUResponse.parse([0x60, 0x09, 0x01, 0x2A]).get().pingID(), 42)
        // Built and parsed back.
        let built = SecureDFUResponse(request: .select, payload: SecureDFUSelection(maximumSize: 256, checksum: SecureDFUChecksum(offset: 3, crc: 4)).payload)
        XCTAssertEqual(try SecureDFUResponse.parse(built.bytes).get(), built)
    }

    func testShortPayloadsAreMalformedNotRead() throws {
        let short = try SecureDFUResponse.parse([0x60, 0x03, 0x01, 0x40, 0, 0, 0]).get()
        XCTAssertThrowsError(try short.checksum()) { error in
            XCTAssertEqual((error as? SecureDFUError)?.kind, .malformedResponse)
        }
        let cases: [(read: () throws -> Any, carried: Int, expected: Int)] = [
            ({ try SecureDFUResponse.parse([0x60, 0x06, 0x01, 1, 2, 3]).get().selection() }, 3, 12),
            ({ try SecureDFUResponse.parse([0x60, 0x07, 0x01, 1]).get().mtu() }, 1, 2),
            ({ try SecureDFUResponse.parse([0x60, 0x09, 0x01]).get().pingID() }, 0, 1),
        ]
        for (read, carried, expected) in cases {
            XCTAssertThrowsError(try read()) { error in
                let failure = error as? SecureDFUError
                XCTAssertEqual(failure?.kind, .malformedResponse, "\(error)")
                XCTAssertTrue(failure?.message.contains("carries \(carried) bytes after its result, expected \(expected)") == true, "\(error)")
            }
        }
    }

    func testFramesThatAreNotAnswers() {
        XCTAssertEqual(parseFailure([0x60, 0x03]), .tooShort(2))
        XCTAssertEqual(parseFailure([0x61, 0x03, 0x01]), .notAResponse(0x61))
        XCTAssertEqual(parseFailure([0x60, 0x05, 0x01]), .unknownRequest(0x05))
        XCTAssertEqual(parseFailure([0x60, 0x03, 0x09]), .unknownResult(.calculateChecksum, 0x09))
        XCTAssertEqual(parseFailure([0x60, 0x04, 0x0B]), .wrongLength(.execute, 3))
        XCTAssertEqual(parseFailure([0x60, 0x04, 0x0B, 0x05, 0x00]), .wrongLength(.execute, 5))
    }

    private func parseFailure(_ bytes: [UInt8]) -> SecureDFUResponseParseFailure? {
        guard case .failure(let failure) = SecureDFUResponse.parse(bytes) else { return nil }
        return failure
    }

    func testEveryResultCodeParsesAndFailuresCarryTheirNameAndHint() throws {
        XCTAssertEqual(SecureDFUResultCode.allCases.map(\.rawValue), [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x07, 0x08, 0x0A, 0x0B])
        for code in SecureDFUResultCode.allCases where code != .extendedError {
            let response = try SecureDFUResponse.parse([0x60, 0x01, code.rawValue]).get()
            XCTAssertEqual(response.result, code)
            let failure = response.failure(object: .data, offset: 8192)
            if code == .success {
                XCTAssertNil(failure)
                continue
            }
            let error = try XCTUnwrap(failure)
            XCTAssertEqual(error.kind, .refused(code, extendedErrorCode: nil))
            XCTAssertTrue(error.message.contains(code.name), error.message)
            XCTAssertTrue(error.message.contains("data object at offset 8192"), error.message)
            XCTAssertEqual(error.hint, code.hint)
            XCTAssertEqual(error.request, .create)
        }
    }

    func testEveryExtendedErrorParsesWithItsNameAndHint() throws {
        XCTAssertEqual(SecureDFUExtendedError.allCases.map(\.rawValue), Array(0x00...0x0E))
        for extended in SecureDFUExtendedError.allCases {
            let response = try SecureDFUResponse.parse([0x60, 0x04, 0x0B, extended.rawValue]).get()
            XCTAssertEqual(response.extendedError, extended)
            let error = try XCTUnwrap(response.failure(object: .command, offset: nil))
            XCTAssertEqual(error.extendedError, extended)
            XCTAssertTrue(error.message.contains(extended.name), error.message)
            XCTAssertEqual(error.hint, extended.hint)
        }
        XCTAssertTrue(SecureDFUExtendedError.firmwareVersionTooLow.hint.contains("fw_version"))
        XCTAssertTrue(SecureDFUExtendedError.softDeviceVersionMismatch.hint.contains("sd_req"))
        XCTAssertTrue(SecureDFUExtendedError.verificationFailed.hint.contains("another key"))
        let unknown = try SecureDFUResponse.parse([0x60, 0x04, 0x0B, 0x2F]).get()
        XCTAssertNil(unknown.extendedError)
        let error = try XCTUnwrap(unknown.failure(object: nil, offset: nil))
        XCTAssertEqual(error.kind, .refused(.extendedError, extendedErrorCode: 0x2F))
        XCTAssertTrue(error.message.contains("0x2F"), error.message)
    }
}
