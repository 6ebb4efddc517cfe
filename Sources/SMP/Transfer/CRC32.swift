/// The IEEE CRC-32 as zlib computes it (reflected, polynomial 0xEDB88320, initial and final
/// value 0xFFFFFFFF): the file system group's `crc32` checksum (docs/protocol/file-system.md §9.4).
public struct CRC32: Sendable, Hashable {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    private var state: UInt32 = 0xFFFF_FFFF

    /// A checksum of nothing yet.
    public init() {}

    /// Adds `bytes`.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { state = Self.table[Int((state ^ UInt32(byte)) & 0xFF)] ^ (state >> 8) }
    }

    /// The checksum of everything added.
    public var value: UInt32 { state ^ 0xFFFF_FFFF }

    /// The checksum of `bytes`.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }
}
