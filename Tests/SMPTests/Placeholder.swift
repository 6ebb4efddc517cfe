import XCTest
final class SMPTestsPlaceholder: XCTestCase { func testNothing() {} }
