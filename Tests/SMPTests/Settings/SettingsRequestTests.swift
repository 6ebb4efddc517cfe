import CBOR
import SMP
import XCTest

/// The settings requests and the read answer.
final class SettingsRequestTests: XCTestCase {
    func testRequests() {
        let read = SettingsRead("bt/name", maximumSize: 8).request
        XCTAssertEqual([read.command, read.operation.rawValue], [0, SMPOperation.read.rawValue])
        XCTAssertEqual(read.payload, ["name": "bt/name", "max_size": 8])
        XCTAssertEqual(SettingsRead("a").request.payload, ["name": "a"])
        let write = SettingsWrite("a/b", value: [1, 2]).request
        XCTAssertEqual(write.operation, .write)
        XCTAssertEqual(write.payload, ["name": "a/b", "val": .bytes([1, 2])])
        XCTAssertEqual(SettingsDelete("a/b").request.command, 1)
        XCTAssertFalse(SettingsDelete("a/b").request.isRetrySafe)
        XCTAssertEqual(SettingsCommit().request.command, 2)
        XCTAssertEqual(SettingsLoad().request.operation, .read)
        XCTAssertEqual(SettingsSave().request.payload, [:])
        XCTAssertEqual(SettingsSave(subtree: "bt").request.payload, ["name": "bt"])
        XCTAssertTrue([read, write].allSatisfy { $0.group == .settings })
    }

    func testReadAnswer() throws {
        let read = SettingsRead("x")
        XCTAssertEqual(try read.decodeResponse(["val": .bytes([1])]), SettingsValue(bytes: [1]))
        XCTAssertEqual(try read.decodeResponse(["val": .bytes([1]), "max_size": 4]), SettingsValue(bytes: [1], deviceMaximumSize: 4))
        XCTAssertEqual(decodeFailure(read, ["val": "text"]), "field \"val\" should be a byte string but is text string")
        XCTAssertEqual(decodeFailure(read, [:]), "the response has no \"val\" field")
    }
}
