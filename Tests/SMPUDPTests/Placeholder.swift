import XCTest
final class SMPUDPTestsPlaceholder: XCTestCase { func testNothing() {} }
