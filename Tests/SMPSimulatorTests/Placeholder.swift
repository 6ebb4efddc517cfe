import XCTest
final class SMPSimulatorTestsPlaceholder: XCTestCase { func testNothing() {} }
