import CBOR
import SMP
import SMPSimulator

/// The simulator side of the test-only group (250): an echo that answers the group's typed
/// errors. Give it to a ``VirtualDevice`` with `groups: [TestGroupSimulated()]`.
public struct TestGroupSimulated: SimulatedGroup {
    public var group: SMPGroup { .testGroup }

    /// The longest text echoed; longer is `TEST_MGMT_ERR_TOO_LONG`.
    public var maximumLength: Int

    /// Creates the group.
    public init(maximumLength: Int = 16) { self.maximumLength = maximumLength }

    public func implements(command: UInt8) -> Bool { command == 0 }

    public mutating func handle(
        _ request: SimulatedRequest, context: inout SimulatedDeviceContext
    ) throws(SimulatedError) -> CBORMap {
        guard request.command == 0, request.operation == .read else { throw .notSupported }
        let text = try request.fields(["d": .text]).text("d") ?? ""
        guard !text.isEmpty else { throw .groupError(TestGroupError.empty) }
        guard text.count <= maximumLength else { throw .groupError(TestGroupError.tooLong) }
        return ["r": .text(text)]
    }
}
