import CBOR

/// Make the device crash on purpose (crash command 0, Mynewt `crash_test`).
///
/// The device resets at once, so the answer usually never comes; an unknown kind is answered rc 3.
public struct CrashTest: SMPCommand {
    /// How to crash.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Divide by zero.
        case divideByZero = "div0"
        /// Jump to address 0.
        case jumpToZero = "jump0"
        /// Dereference a null pointer.
        case nullReference = "ref0"
        /// Fail an assertion.
        case assertion = "assert"
        /// Stop feeding the watchdog.
        case watchdog = "wdog"
    }

    /// The crash to cause.
    public var kind: Kind

    /// Creates the request.
    public init(_ kind: Kind) { self.kind = kind }

    public var request: SMPRequest {
        SMPRequest(group: .crash, command: 0, operation: .write, payload: ["t": .text(kind.rawValue)], name: "crash test \(kind.rawValue)")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) {}
}
