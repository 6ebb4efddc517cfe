import XCTest
@testable import SMPKit

/// Parses `text`, failing the test (and returning nil) when it is rejected.
func parsed(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> ConnectionString? {
    do {
        return try ConnectionString(parsing: text)
    } catch {
        XCTFail("\"\(text)\" was rejected: \(error)", file: file, line: line)
        return nil
    }
}

/// The error for `text`, failing the test when it parses.
func rejection(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> ConnectionStringError? {
    do {
        let connection = try ConnectionString(parsing: text)
        XCTFail("\"\(text)\" was accepted as \(connection)", file: file, line: line)
        return nil
    } catch {
        return error
    }
}

/// Checks that `text` is rejected, that the error blames `part`, and that its description quotes
/// the input and names the part (and, when given, the problem).
func assertRejected(
    _ text: String, part: String, problem: String? = nil, file: StaticString = #filePath, line: UInt = #line
) {
    guard let error = rejection(text, file: file, line: line) else { return }
    XCTAssertEqual(error.input, text, "input", file: file, line: line)
    XCTAssertEqual(error.part, part, "part of \"\(text)\"", file: file, line: line)
    XCTAssertTrue(error.description.hasPrefix("invalid connection string \"\(text)\": "), error.description, file: file, line: line)
    if !part.isEmpty {
        XCTAssertTrue(error.description.contains("\"\(part)\": "), "description names the part: \(error.description)",
                      file: file, line: line)
    }
    if let problem {
        XCTAssertTrue(error.problem.contains(problem), "problem \"\(error.problem)\" mentions \"\(problem)\"",
                      file: file, line: line)
    }
    XCTAssertFalse(error.hint.isEmpty, "a hint is given", file: file, line: line)
}
