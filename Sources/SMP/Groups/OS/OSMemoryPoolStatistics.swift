import CBOR

/// Memory pool statistics (OS command 3, Mynewt; Zephyr answers "not supported").
public struct OSMemoryPoolStatistics: SMPCommand {
    /// One pool's figures.
    public struct Pool: Sendable, Hashable {
        /// Pool name.
        public var name: String
        /// Block size in bytes.
        public var blockSize: Int64?
        /// Number of blocks.
        public var blocks: Int64?
        /// Free blocks.
        public var free: Int64?
        /// Lowest number of free blocks seen.
        public var minimumFree: Int64?

        /// Creates an entry.
        public init(name: String, blockSize: Int64? = nil, blocks: Int64? = nil, free: Int64? = nil, minimumFree: Int64? = nil) {
            self.name = name
            self.blockSize = blockSize
            self.blocks = blocks
            self.free = free
            self.minimumFree = minimumFree
        }
    }

    /// Creates the request.
    public init() {}

    public var request: SMPRequest {
        SMPRequest(group: .os, command: OSCommandID.memoryPoolStatistics, operation: .read, name: "os memory pool statistics")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> [Pool] {
        // Mynewt answers {"mpools": {...}}; the protocol text shows the pools at the top level.
        let pools = payload["mpools"]?.mapValue ?? payload
        var result: [Pool] = []
        for entry in pools where entry.key.stringValue != "rc" {
            guard let name = entry.key.stringValue, let fields = entry.value.mapValue else {
                throw SMPResponseError("memory pool entry \(entry.key.diagnosticDescription) is not a named map")
            }
            result.append(Pool(
                name: name, blockSize: try fields.optionalInteger("blksiz"), blocks: try fields.optionalInteger("nblks"),
                free: try fields.optionalInteger("nfree"), minimumFree: try fields.optionalInteger("min")))
        }
        return result
    }
}
