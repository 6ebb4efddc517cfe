import CBOR
import SMP

/// Mynewt's crash test group (5, docs/protocol/groups.md §8): `{"t": "div0"|"jump0"|"ref0"|"assert"|"wdog"}` crashes the
/// device, which then resets and stays silent for its boot time (the OS reset machinery, so
/// ``VirtualDevice/resets`` reports it). An unknown kind is answered rc 3.
public struct CrashGroup: SimulatedGroup {
    public var group: SMPGroup { .crash }

    /// The crashes asked for, in order.
    public private(set) var crashes: [CrashTest.Kind] = []

    /// Creates the group.
    public init() {}

    public func implements(command: UInt8) -> Bool { command == 0 }

    public mutating func handle(
        _ request: SimulatedRequest, context: inout SimulatedDeviceContext
    ) throws(SimulatedError) -> CBORMap {
        guard request.command == 0, request.operation == .write else { throw .notSupported }
        guard let name = try request.fields(["t": .text]).text("t"), let kind = CrashTest.Kind(rawValue: name) else {
            throw .invalidValue
        }
        crashes.append(kind)
        context.requestReset(force: true, bootMode: nil)
        return [:]
    }
}
