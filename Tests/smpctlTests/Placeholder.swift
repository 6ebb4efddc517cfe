import XCTest
final class smpctlTestsPlaceholder: XCTestCase { func testNothing() {} }
