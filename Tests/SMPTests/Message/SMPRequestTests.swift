import CBOR
import XCTest
@testable import SMP

final class SMPRequestTests: XCTestCase {
    func testReadsAreRetrySafeAndWritesAreNotByDefault() {
        XCTAssertTrue(SMPRequest(group: .os, command: 0, operation: .read).isRetrySafe)
        XCTAssertFalse(SMPRequest(group: .os, command: 0, operation: .write).isRetrySafe)
    }

    func testRetrySafetyCanBeGiven() {
        XCTAssertTrue(SMPRequest(group: .os, command: 0, operation: .write, isRetrySafe: true).isRetrySafe)
        XCTAssertFalse(SMPRequest(group: .os, command: 0, operation: .read, isRetrySafe: false).isRetrySafe)
    }

    func testDefaults() {
        let request = SMPRequest(group: .image, command: 1, operation: .write)
        XCTAssertEqual(request.payload, [:])
        XCTAssertNil(request.timeout)
        XCTAssertNil(request.name)
    }

    func testSummaryDescription() {
        let named = SMPRequest(group: .os, command: 0, operation: .write, name: "os echo")
        XCTAssertEqual(SMPRequestSummary(named).description, "os echo (group 0 command 0 write)")
        let raw = SMPRequest(group: SMPGroup(rawValue: 64), command: 3, operation: .read)
        XCTAssertEqual(SMPRequestSummary(raw).description, "group 64 command 3 read")
    }

    func testResponseOperation() {
        XCTAssertEqual(SMPOperation.read.response, .readResponse)
        XCTAssertEqual(SMPOperation.write.response, .writeResponse)
        XCTAssertFalse(SMPOperation.read.isResponse)
        XCTAssertFalse(SMPOperation.write.isResponse)
        XCTAssertTrue(SMPOperation.readResponse.isResponse)
        XCTAssertTrue(SMPOperation.writeResponse.isResponse)
        XCTAssertNil(SMPOperation(rawValue: 4))
    }

    func testGroupNames() {
        XCTAssertEqual(SMPGroup(name: "os"), .os)
        XCTAssertEqual(SMPGroup(name: "IMAGE"), .image)
        XCTAssertEqual(SMPGroup(name: "fs"), .fileSystem)
        XCTAssertEqual(SMPGroup(name: "63"), .zephyrBasic)
        XCTAssertEqual(SMPGroup(name: "300")?.rawValue, 300)
        XCTAssertNil(SMPGroup(name: "nope"))
        XCTAssertEqual(SMPGroup.os.description, "os (0)")
        XCTAssertEqual(SMPGroup(rawValue: 77).description, "group 77")
        XCTAssertNil(SMPGroup(rawValue: 77).name)
        XCTAssertEqual(SMPGroup.known.first, .os)
        XCTAssertEqual(SMPGroup.known, SMPGroup.known.sorted())
    }
}
