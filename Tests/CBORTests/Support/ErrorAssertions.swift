import CBOR
import XCTest

/// Asserts that decoding `bytes` fails with exactly this reason at exactly this offset.
func assertDecodingFails(
    _ bytes: [UInt8],
    _ reason: CBORDecodingError.Reason,
    at offset: Int,
    decoder: CBORDecoder = CBORDecoder(),
    _ message: String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    do {
        let item = try decoder.decode(bytes)
        XCTFail("\(bytes.hex) decoded to \(item) \(message)", file: file, line: line)
    } catch {
        XCTAssertEqual(error, CBORDecodingError(offset: offset, reason: reason), "\(bytes.hex) \(message)", file: file, line: line)
    }
}

/// The error decoding `bytes` fails with, or nil (and a test failure) when it decodes.
func decodingError(
    _ bytes: [UInt8],
    decoder: CBORDecoder = CBORDecoder(),
    file: StaticString = #filePath,
    line: UInt = #line
) -> CBORDecodingError? {
    do {
        let item = try decoder.decode(bytes)
        XCTFail("\(bytes.hex) decoded to \(item)", file: file, line: line)
        return nil
    } catch {
        return error
    }
}
