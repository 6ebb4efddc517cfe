import CBOR
import XCTest
@testable import SMP

/// Checks a command whose response carries nothing (its decoder returns `Void`) through a client
/// and a scripted device: an empty answer and one with `rc: 0` and a field the command does not
/// read both succeed, the device receives the command's request, and an `rc` error comes back as
/// the device error of that request.
func assertAcknowledgedOnly<Command: SMPCommand>(
    _ command: Command, file: StaticString = #filePath, line: UInt = #line
) async where Command.Response == Void {
    let request = command.request
    for answer: CBORMap in [[:], ["rc": 0, "unread": "ignored"]] {
        let device = MockDevice { _, _ in .answer(answer) }
        let client = makeClient(device)
        do {
            try await client.send(command)
        } catch {
            XCTFail("answer \(answer) is a success, got \(error)", file: file, line: line)
        }
        let received = await device.requests(group: request.group, command: request.command)
        XCTAssertEqual(received.map(\.payload), [request.payload], "the request the device received", file: file, line: line)
        XCTAssertEqual(received.first?.header.operation, request.operation, file: file, line: line)
        await client.close()
    }
    let device = MockDevice { _, _ in .answer(["rc": 3]) }
    let client = makeClient(device)
    let error = await thrownError({ () async throws(SMPError) in try await client.send(command) }, file: file, line: line)
    guard case .device(let deviceError, let failed)? = error else {
        return XCTFail("expected a device error, got \(String(describing: error))", file: file, line: line)
    }
    XCTAssertEqual(deviceError, .returnCode(.invalidValue, group: request.group.rawValue, reason: nil), file: file, line: line)
    XCTAssertEqual(failed.name, request.name, file: file, line: line)
    XCTAssertEqual(failed.command, request.command, file: file, line: line)
    await client.close()
}
