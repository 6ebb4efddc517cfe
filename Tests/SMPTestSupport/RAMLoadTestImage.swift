import SMPSimulator

/// A small RAM-load MCUboot image for Arm Cortex-M (flag `RAM_LOAD`, 32-byte header), whose body
/// starts with a vector table linked for one address while its header may load it at another:
/// what `imgtool sign --load-addr` with the wrong address makes.
public enum RAMLoadTestImage {
    /// The body's size: a vector table and room for the handlers.
    private static let bodySize = 1024
    /// Where each handler lies after the image's start: reset, NMI and HardFault.
    public static let handlerOffsets: [UInt32] = [0x120, 0x180, 0x1a0]

    /// A sound image of version 2.0.0 (its SHA-256 TLV matches) whose code is linked for `linkedAt` and whose
    /// header loads it at `loadAddress`; the vector table holds Thumb addresses.
    public static func file(linkedAt: UInt32, loadAddress: UInt32) -> [UInt8] {
        let vectors = [linkedAt + UInt32(bodySize) + 0x800] + handlerOffsets.map { (linkedAt + $0) | 1 }
        var body = vectors.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
        body += (body.count..<bodySize).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        return SimulatedImageHeader.soundImageFile(version: (2, 0, 0, 0), body: body, flags: ramLoadFlag, loadAddress: loadAddress)
    }

    /// `IMAGE_F_RAM_LOAD`.
    private static let ramLoadFlag: UInt32 = 0x20
}
