import XCTest
final class SMPKitTestsPlaceholder: XCTestCase { func testNothing() {} }
