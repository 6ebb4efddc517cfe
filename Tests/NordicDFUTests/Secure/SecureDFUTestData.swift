import Logging

/// `count` bytes that differ from one offset to the next (an image or an init packet).
func testImage(_ count: Int, seed: UInt8 = 0) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8 &+ Int(seed)) }
}

/// A logger that prints nothing.
let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
