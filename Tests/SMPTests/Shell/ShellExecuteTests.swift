import CBOR
import SMP
import XCTest

/// The shell exec request and the two forms of its answer.
final class ShellExecuteTests: XCTestCase {
    func testRequest() {
        let request = ShellExecute(["echo", "hi"]).request
        XCTAssertEqual(request.group, .shell)
        XCTAssertEqual(request.command, 0)
        XCTAssertEqual(request.operation, .write)
        XCTAssertFalse(request.isRetrySafe)
        XCTAssertEqual(request.payload, ["argv": ["echo", "hi"]])
    }

    func testRetAndLegacyRc() throws {
        let command = ShellExecute(["x"])
        XCTAssertEqual(try command.decodeResponse(["o": "out", "ret": -8]), ShellOutput(output: "out", returnCode: -8))
        XCTAssertEqual(
            try command.decodeResponse(["o": "out", "rc": 3]), ShellOutput(output: "out", returnCode: 3, isLegacyReturnCode: true))
        XCTAssertEqual(try command.decodeResponse(["o": "", "ret": 0, "rc": 0]).returnCode, 0, "ret wins over a legacy rc 0")
        XCTAssertEqual(decodeFailure(command, ["o": "out"]), "the response has neither \"ret\" nor \"rc\" (the command's return code)")
        XCTAssertEqual(decodeFailure(command, ["ret": 0]), "the response has no \"o\" field")
    }
}
