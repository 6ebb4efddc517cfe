import CBOR
import SMP

/// Mynewt's run-time test group (7, docs/protocol/groups.md §8): list the test suites, start one or all.
/// An unknown suite is answered rc 5.
public struct RunGroup: SimulatedGroup {
    public var group: SMPGroup { .run }

    /// The suites the device has.
    public let tests: [String]
    /// The runs started, in order: suite (or `"all"`) and token.
    public private(set) var runs: [(testName: String, token: String?)] = []

    /// Creates the group.
    public init(tests: [String]) { self.tests = tests }

    public func implements(command: UInt8) -> Bool { command == RunCommandID.test || command == RunCommandID.list }

    public mutating func handle(
        _ request: SimulatedRequest, context: inout SimulatedDeviceContext
    ) throws(SimulatedError) -> CBORMap {
        switch (request.command, request.operation) {
        case (RunCommandID.list, .read):
            return ["run_list": .array(tests.map(CBOR.text))]
        case (RunCommandID.test, .write):
            let fields = try request.fields(["testname": .text, "token": .text])
            let name = fields.text("testname") ?? "all"
            guard name == "all" || tests.contains(name) else { throw .returnCode(.noEntry) }
            runs.append((name, fields.text("token")))
            return [:]
        default:
            throw .notSupported
        }
    }
}
