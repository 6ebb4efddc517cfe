import XCTest
@testable import SMP

/// Paths on the device: only absolute ones are sent, a file's name and folder, and which failed
/// transfers a rerun can continue.
final class RemoteFilePathTests: XCTestCase {
    func testOnlyAbsolutePathsAreAccepted() throws {
        XCTAssertNoThrow(try RemoteFilePath.validate("/lfs1/data.bin"))
        for path in ["lfs1/data.bin", "", "./a"] {
            XCTAssertThrowsError(try RemoteFilePath.validate(path)) { error in
                XCTAssertEqual(error as? RemoteFilePathError, .notAbsolute(path))
                XCTAssertEqual(
                    "\(error)", "the remote path \"\(path)\" is not absolute: give the whole path from the mount point, e.g. /lfs1/data.bin")
            }
        }
    }

    func testFileNameAndParent() {
        for (path, name, parent) in [
            ("/lfs1/dir/log.txt", "log.txt", "/lfs1/dir"), ("/lfs1/dir/", "dir", "/lfs1"), ("/a.bin", "a.bin", "/"), ("/", "", "/"),
            ("/lfs1//", "lfs1", "/"),
        ] {
            XCTAssertEqual(RemoteFilePath.fileName(of: path), name, path)
            XCTAssertEqual(RemoteFilePath.parent(of: path), parent, path)
        }
    }

    func testInterruptionsAndLostLinksCanBeContinuedRefusalsCannot() {
        let request = SMPRequestSummary(FileStatus(name: "/lfs1/a").request)
        XCTAssertTrue(TransferInterruption.canContinue(after: CancellationError()))
        XCTAssertTrue(TransferInterruption.canContinue(after: SMPError.cancelled(request)))
        XCTAssertTrue(TransferInterruption.canContinue(after: SMPError.timeout(request, after: .seconds(1), attempts: 3, lastDiscarded: nil, elapsed: .seconds(3))))
        XCTAssertTrue(TransferInterruption.canContinue(after: SMPError.transport(SMPTransportError(.closed, "closed"))))
        XCTAssertFalse(TransferInterruption.canContinue(after: SMPError.device(.groupError(SMPGroupError(group: 8, code: 3)), request: request)))
        XCTAssertFalse(TransferInterruption.canContinue(after: FileAccessError(path: "/tmp/x", operation: "write", code: 28)))
    }
}
