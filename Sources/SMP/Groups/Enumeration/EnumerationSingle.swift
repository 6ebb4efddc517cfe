import CBOR

/// The group at one index of the device's group list (enumeration command 2).
///
/// An index past the last group is answered `ENUM_MGMT_ERR_INDEX_TOO_LARGE`.
public struct EnumerationSingle: SMPCommand {
    /// The group found, and whether it is the last one.
    public struct Entry: Sendable, Hashable {
        /// The group at the index.
        public var group: SMPGroup
        /// Whether the device marked it as the last (`"end": true`).
        public var isLast: Bool

        /// Creates an entry.
        public init(group: SMPGroup, isLast: Bool) {
            self.group = group
            self.isLast = isLast
        }
    }

    /// The index, from 0.
    public var index: UInt64

    /// Creates the request.
    public init(index: UInt64) { self.index = index }

    public var request: SMPRequest {
        SMPRequest(
            group: .enumeration, command: EnumerationCommandID.single, operation: .read,
            payload: ["index": .unsigned(index)], name: "enum single \(index)")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> Entry {
        Entry(group: try SMPGroup(reportedID: payload.unsigned("group")), isLast: try payload.optionalBool("end") ?? false)
    }
}
