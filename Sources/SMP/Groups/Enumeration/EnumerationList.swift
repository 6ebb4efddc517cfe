import CBOR

/// The IDs of every management group the device has (enumeration command 1), in its order.
public struct EnumerationList: SMPCommand {
    /// Creates the request.
    public init() {}

    public var request: SMPRequest {
        SMPRequest(group: .enumeration, command: EnumerationCommandID.list, operation: .read, name: "enum list")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> [SMPGroup] {
        try payload.unsignedArray("groups").map { id throws(SMPResponseError) in try SMPGroup(reportedID: id) }
    }
}

extension SMPGroup {
    /// A group ID as a device reported it; IDs above 65535 cannot be SMP groups.
    init(reportedID id: UInt64) throws(SMPResponseError) {
        guard let value = UInt16(exactly: id) else { throw SMPResponseError("group ID \(id) is larger than 65535") }
        self.init(rawValue: value)
    }
}
