extension MCUbootImage {
    /// A RAM-load image whose code is linked for other addresses than the RAM its header loads
    /// it into (``MCUbootImage/loadAddressMismatch``): MCUboot would copy it to ``loadAddress``
    /// and start a reset handler that is not there.
    public struct LoadAddressMismatch: Sendable, Hashable {
        /// The header's load address (`ih_load_addr`).
        public var loadAddress: UInt32
        /// Where the copy ends: the load address plus header, body and TLVs (exclusive).
        public var loadEnd: UInt64
        /// The reset handler's address, from the body's vector table (Thumb bit cleared).
        public var resetHandler: UInt32
        /// The file offset of the reset vector (the header size plus 4).
        public var resetVectorOffset: Int
    }

    /// For a RAM-load image built for Arm Cortex-M, whose body starts with the vector table:
    /// the mismatch when its reset, NMI and HardFault handlers all lie outside the RAM that
    /// MCUboot copies the image to (header, body and TLVs from the load address), as when
    /// `imgtool sign --load-addr` was given another address than the one the application is
    /// linked for. Nil when they lie inside; when the image is not RAM-load, or encrypted or
    /// compressed; or when the body does not start like a Cortex-M vector table (a word-aligned
    /// stack pointer, then three Thumb handler addresses within one body's size of each other).
    public var loadAddressMismatch: LoadAddressMismatch? {
        let flags = header.flags
        let compressed: MCUbootImageFlags = [.compressedLZMA1, .compressedLZMA2]
        guard flags.contains(.ramLoad), !flags.isEncrypted, flags.isDisjoint(with: compressed), leadingBodyWords.count == 4 else { return nil }
        let stackPointer = leadingBodyWords[0]
        let handlerWords = leadingBodyWords.dropFirst()
        guard stackPointer != 0, stackPointer % 4 == 0, handlerWords.allSatisfy({ $0 & 1 == 1 }) else { return nil }
        let handlers = handlerWords.map { UInt64($0 & ~1) }
        guard let lowest = handlers.min(), let highest = handlers.max(), highest - lowest < UInt64(header.imageSize) else { return nil }
        let start = UInt64(header.loadAddress)
        let end = start + UInt64(totalSize)
        guard handlers.allSatisfy({ $0 < start || $0 >= end }) else { return nil }
        return LoadAddressMismatch(
            loadAddress: header.loadAddress, loadEnd: end, resetHandler: leadingBodyWords[1] & ~1, resetVectorOffset: header.headerSize + 4)
    }

    /// Throws ``MCUbootImageError/loadAddressMismatch(_:)`` for a RAM-load image whose code is
    /// linked for other addresses than its header loads it to (``loadAddressMismatch``).
    public func verifyLoadAddress() throws(MCUbootImageError) {
        if let loadAddressMismatch { throw .loadAddressMismatch(loadAddressMismatch) }
    }
}
