import CBOR
import XCTest
@testable import SMP

/// Checks a request's routing, retry safety and exact payload bytes (definite-length CBOR).
func assertRequest(
    _ request: SMPRequest, group: SMPGroup = .os, command: UInt8, operation: SMPOperation,
    payload expectedPayload: String, retrySafe: Bool, file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(request.group, group, "group", file: file, line: line)
    XCTAssertEqual(request.command, command, "command", file: file, line: line)
    XCTAssertEqual(request.operation, operation, "operation", file: file, line: line)
    XCTAssertEqual(request.isRetrySafe, retrySafe, "retry safety", file: file, line: line)
    XCTAssertNotNil(request.name, "a typed command has a name for messages", file: file, line: line)
    let encoded = SMPMessage(
        header: SMPHeader(operation: request.operation, length: 0, group: request.group, sequence: 0, command: request.command),
        payload: request.payload
    ).encoded()
    XCTAssertEqual(Hex.string(encoded.dropFirst(8), separator: " "), expectedPayload, "payload", file: file, line: line)
}

/// The detail of the error a command's response decoder throws for `payload`.
func decodeFailure<Command: SMPCommand>(
    _ command: Command, _ payload: CBORMap, file: StaticString = #filePath, line: UInt = #line
) -> String? {
    thrownError({ () throws(SMPResponseError) in try command.decodeResponse(payload) }, file: file, line: line)?.detail
}
