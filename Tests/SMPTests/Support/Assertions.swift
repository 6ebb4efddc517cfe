import XCTest

/// Runs `body` and returns the error it throws, failing the test when it returns normally.
func thrownError<E: Error, T>(
    _ body: () throws(E) -> T, file: StaticString = #filePath, line: UInt = #line
) -> E? {
    do {
        let value = try body()
        XCTFail("expected an error, got \(value)", file: file, line: line)
        return nil
    } catch {
        return error
    }
}

/// Awaits `body` and returns the error it throws, failing the test when it returns normally.
func thrownError<E: Error, T>(
    _ body: () async throws(E) -> T, file: StaticString = #filePath, line: UInt = #line
) async -> E? {
    do {
        let value = try await body()
        XCTFail("expected an error, got \(value)", file: file, line: line)
        return nil
    } catch {
        return error
    }
}

/// Bytes from hex text such as "0a 00 00 09"; a malformed literal stops the test run.
func hex(_ hex: String) -> [UInt8] {
    let digits = hex.filter { !$0.isWhitespace }
    precondition(digits.count % 2 == 0, "odd number of hex digits in \(hex)")
    var result: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        guard let byte = UInt8(digits[index..<next], radix: 16) else { preconditionFailure("bad hex \(hex)") }
        result.append(byte)
        index = next
    }
    return result
}
