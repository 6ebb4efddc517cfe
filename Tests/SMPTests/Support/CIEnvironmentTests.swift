import SMPTestSupport
import XCTest

/// What the `CI` environment variable must say for tests to fail instead of skipping: CI systems
/// set `true`, `1`, `yes` or their own name.
final class CIEnvironmentTests: XCTestCase {
    func testWhatCISystemsSetMeansCI() {
        for value in ["true", "TRUE", "True", "1", "yes", "woodpecker", " true "] {
            XCTAssertTrue(ExternalTool.meansCI(value), value)
        }
    }

    func testUnsetEmptyFalseAndZeroDoNotMeanCI() {
        XCTAssertFalse(ExternalTool.meansCI(nil))
        for value in ["", " ", "false", "FALSE", "False", "0", " 0 "] {
            XCTAssertFalse(ExternalTool.meansCI(value), "'\(value)'")
        }
    }
}
