import Foundation
import SMP
import XCTest

/// Files to send are regular files: a FIFO (even one no process writes to), a device or a
/// directory is refused at once, with what it is.
final class FileUploadSourceTests: XCTestCase {
    func testWhatIsNotARegularFileIsRefusedWithoutWaiting() throws {
        let folder = try LocalFilesTestFolder(self)
        let fifo = try folder.fifo("pipe")
        for (path, kind) in [(fifo, "a FIFO (named pipe)"), ("/dev/zero", "a character device"), (folder.path, "a directory")] {
            XCTAssertThrowsError(try FileUploadSource(path: path)) { error in
                XCTAssertTrue("\(error)".contains("it is \(kind), not a regular file"), "\(error)")
            }
        }
    }

    func testARegularFileIsReadByPosition() throws {
        let folder = try LocalFilesTestFolder(self)
        let source = try FileUploadSource(path: try folder.write("a.bin", [1, 2, 3, 4, 5]))
        XCTAssertEqual(source.count, 5)
        XCTAssertEqual(try source.read(offset: 3, length: 2), [4, 5])
    }
}
