import Foundation
import SMPTestSupport
import XCTest

/// A bare application for `upgrade --bare`: 3,000 bytes (whole words), written as a `.bin` and,
/// by Python's intelhex (an encoder we did not write), as a `.hex` at 0x1C000.
enum BareApplication {
    /// The application's bytes.
    static let firmware: [UInt8] = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }

    /// `app.bin` and `app.hex` in a folder of their own, removed after `test`.
    static func files(in test: XCTestCase) throws -> (bin: String, hex: String) {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("smpctl-bare-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let bin = folder.appendingPathComponent("app.bin").path
        let hex = folder.appendingPathComponent("app.hex").path
        try Data(firmware).write(to: URL(fileURLWithPath: bin))
        let script = "import sys\nfrom intelhex import IntelHex\nh = IntelHex()\nh.loadbin(sys.argv[1], offset=0x1C000)\nh.write_hex_file(sys.argv[2])\n"
        let run = try ProcessRunner.run(ExternalTool.python, ["-c", script, bin, hex], timeout: 60)
        XCTAssertEqual(run.status, 0, run.stderr)
        return (bin, hex)
    }
}
