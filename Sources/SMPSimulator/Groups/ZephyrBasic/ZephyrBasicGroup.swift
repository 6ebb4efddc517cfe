import CBOR
import SMP

/// The Zephyr basic group (63) (docs/protocol/groups.md §13): command 0 erases the storage partition, which holds the
/// settings group's saved values. The settings already loaded stay in RAM until the next reset.
public struct ZephyrBasicGroup: SimulatedGroup {
    public var group: SMPGroup { .zephyrBasic }

    /// The partition erase-storage wipes.
    public let storage: SimulatedStoragePartition

    /// Creates the group over the device's storage partition.
    public init(storage: SimulatedStoragePartition) {
        self.storage = storage
    }

    public func implements(command: UInt8) -> Bool { command == 0 }

    public mutating func handle(
        _ request: SimulatedRequest, context: inout SimulatedDeviceContext
    ) throws(SimulatedError) -> CBORMap {
        guard request.command == 0, request.operation == .write else { throw .notSupported }
        storage.erase()
        return [:]
    }
}
