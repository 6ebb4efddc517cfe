/// One memory pool as reported by Mynewt's memory pool statistics (OS command 3).
public struct SimulatedMemoryPool: Sendable, Hashable {
    /// Pool name.
    public var name: String
    /// Block size in bytes.
    public var blockSize: UInt64
    /// Number of blocks.
    public var blocks: UInt64
    /// Free blocks.
    public var free: UInt64
    /// Lowest number of free blocks seen.
    public var minimumFree: UInt64

    /// Creates a pool.
    public init(name: String, blockSize: UInt64, blocks: UInt64, free: UInt64, minimumFree: UInt64) {
        self.name = name
        self.blockSize = blockSize
        self.blocks = blocks
        self.free = free
        self.minimumFree = minimumFree
    }

    /// Pools like those of a Mynewt application.
    public static let mynewtDefaults: [SimulatedMemoryPool] = [
        SimulatedMemoryPool(name: "msys_1", blockSize: 292, blocks: 12, free: 10, minimumFree: 7),
        SimulatedMemoryPool(name: "ble_hci_ev", blockSize: 70, blocks: 16, free: 16, minimumFree: 14),
    ]
}
