import CSystemZlib

/// A strict reader of ZIP archives held in memory, over zlib: the end-of-central-directory
/// record, the central directory, each entry's local header and its data, stored (method 0) or
/// deflated (method 8). Every size and offset is checked against the data before it is used or
/// anything is allocated for it; CRC-32s and sizes are checked after reading.
///
/// ZIP64, encrypted entries and archives split over several files are refused. Errors are
/// ``FirmwarePackageError/corruptArchive(_:)``: ``PackageArchive`` adds the limits and the name checks.
struct ZipArchiveReader {
    /// One entry of the central directory.
    struct Entry {
        /// The entry's name: UTF-8 (invalid sequences replaced), as it is in the central directory.
        var name: String
        /// Whether the entry is a regular file (not a folder or a symbolic link).
        var isFile: Bool
        /// The compression method: 0 stored, 8 deflate.
        var method: UInt16
        /// The CRC-32 of the uncompressed content.
        var checksum: UInt32
        /// The size of the data in the archive.
        var compressedSize: Int
        /// The size of the content.
        var uncompressedSize: UInt64
        /// Where the entry's local header starts.
        var localHeaderOffset: Int
    }

    /// The archive's bytes.
    private let bytes: [UInt8]
    /// The entries in central-directory order.
    let entries: [Entry]

    /// The signature of the end-of-central-directory record.
    private static let endSignature: UInt32 = 0x0605_4B50
    /// The signature of the ZIP64 end-of-central-directory locator, just before the record in a ZIP64 archive.
    private static let zip64LocatorSignature: UInt32 = 0x0706_4B50
    private static let centralSignature: UInt32 = 0x0201_4B50
    private static let localSignature: UInt32 = 0x0403_4B50
    private static let endRecordSize = 22
    private static let centralHeaderSize = 46
    private static let localHeaderSize = 30

    /// Reads the central directory of the archive in `bytes`.
    ///
    /// - Parameter maximumEntryCount: more entries than this is ``FirmwarePackageError/tooManyEntries(limit:)``,
    ///   found before the entries are read.
    init(bytes: [UInt8], maximumEntryCount: Int) throws(FirmwarePackageError) {
        self.bytes = bytes
        let end = try Self.endRecord(in: bytes)
        if end >= 20, Self.uint32(bytes, at: end - 20) == Self.zip64LocatorSignature { throw Self.zip64 }
        let disk = Self.uint16(bytes, at: end + 4)
        let centralDisk = Self.uint16(bytes, at: end + 6)
        let diskEntries = Int(Self.uint16(bytes, at: end + 8))
        let count = Int(Self.uint16(bytes, at: end + 10))
        let centralSize = Int(Self.uint32(bytes, at: end + 12))
        let centralOffset = Int(Self.uint32(bytes, at: end + 16))
        if count == 0xFFFF || centralSize == 0xFFFF_FFFF || centralOffset == 0xFFFF_FFFF { throw Self.zip64 }
        guard disk == 0, centralDisk == 0, diskEntries == count else {
            throw .corruptArchive("archives split over several files are not supported")
        }
        guard count <= maximumEntryCount else { throw .tooManyEntries(limit: maximumEntryCount) }
        guard centralOffset <= end, centralSize <= end - centralOffset else {
            throw .corruptArchive("the central directory (\(centralSize) bytes at offset \(centralOffset)) is outside the archive")
        }
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        var offset = centralOffset
        let centralEnd = centralOffset + centralSize
        while offset < centralEnd {
            guard entries.count < count else { throw .corruptArchive("the central directory holds more than the \(count) entries it declares") }
            let (entry, next) = try Self.centralEntry(in: bytes, at: offset, end: centralEnd, dataEnd: centralOffset)
            entries.append(entry)
            offset = next
        }
        guard entries.count == count else {
            throw .corruptArchive("the central directory holds \(entries.count) entries instead of the declared \(count)")
        }
        self.entries = entries
    }

    /// The content of `entry`: its local header is checked, its data decompressed (at most
    /// `uncompressedSize` bytes, with no more allocated than is produced) and its CRC-32 checked.
    ///
    /// - Throws: ``FirmwarePackageError/entrySizeMismatch(name:declared:)`` when the data
    ///   decompresses to more than the declared size; ``FirmwarePackageError/corruptArchive(_:)``
    ///   for anything else that is wrong.
    func content(of entry: Entry) throws(FirmwarePackageError) -> [UInt8] {
        let name = FirmwarePackageError.quoted(entry.name)
        let header = entry.localHeaderOffset
        guard Self.uint32(bytes, at: header) == Self.localSignature else { throw .corruptArchive("\(name): no local file header at offset \(header)") }
        let start = header + Self.localHeaderSize + Int(Self.uint16(bytes, at: header + 26)) + Int(Self.uint16(bytes, at: header + 28))
        guard start <= bytes.count, entry.compressedSize <= bytes.count - start else {
            throw .corruptArchive("\(name): its \(entry.compressedSize) bytes of data run past the end of the archive")
        }
        let data = bytes[start..<start + entry.compressedSize]
        let content: [UInt8]
        switch entry.method {
        case 0:
            guard UInt64(data.count) == entry.uncompressedSize else {
                throw .corruptArchive("\(name): stored with \(data.count) bytes of data but a declared size of \(entry.uncompressedSize)")
            }
            content = Array(data)
        case 8:
            content = try Self.inflate(data, declared: entry.uncompressedSize, name: entry.name)
        default:
            throw .corruptArchive("\(name): unsupported compression method \(entry.method)")
        }
        guard UInt64(content.count) == entry.uncompressedSize else {
            throw .corruptArchive("\(name): \(content.count) bytes instead of the declared \(entry.uncompressedSize)")
        }
        let checksum = content.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        guard checksum == entry.checksum else { throw .corruptArchive("\(name): CRC-32 mismatch") }
        return content
    }

    /// Where the end-of-central-directory record starts: searched backwards from the end, over
    /// at most the largest comment (65,535 bytes); the last record whose comment fits the data.
    private static func endRecord(in bytes: [UInt8]) throws(FirmwarePackageError) -> Int {
        guard bytes.count >= endRecordSize else { throw .corruptArchive("no end of central directory record") }
        let last = bytes.count - endRecordSize
        for offset in stride(from: last, through: max(0, last - 0xFFFF), by: -1)
        where uint32(bytes, at: offset) == endSignature && Int(uint16(bytes, at: offset + 20)) <= last - offset {
            return offset
        }
        throw .corruptArchive("no end of central directory record")
    }

    /// The central-directory entry at `offset` and where the next one starts; `end` is the end
    /// of the central directory, `dataEnd` where the entries' data must end (its start).
    private static func centralEntry(in bytes: [UInt8], at offset: Int, end: Int, dataEnd: Int) throws(FirmwarePackageError) -> (Entry, Int) {
        guard centralHeaderSize <= end - offset, uint32(bytes, at: offset) == centralSignature else {
            throw .corruptArchive("damaged central directory entry at offset \(offset)")
        }
        let nameLength = Int(uint16(bytes, at: offset + 28))
        let next = offset + centralHeaderSize + nameLength + Int(uint16(bytes, at: offset + 30)) + Int(uint16(bytes, at: offset + 32))
        guard next <= end else { throw .corruptArchive("damaged central directory entry at offset \(offset)") }
        let nameStart = offset + centralHeaderSize
        let name = String(decoding: bytes[nameStart..<nameStart + nameLength], as: UTF8.self)
        let quoted = FirmwarePackageError.quoted(name)
        let flags = uint16(bytes, at: offset + 8)
        guard flags & 0x0001 == 0 else { throw .corruptArchive("\(quoted) is encrypted, which is not supported") }
        let compressedSize = uint32(bytes, at: offset + 20)
        let uncompressedSize = uint32(bytes, at: offset + 24)
        let localHeaderOffset = Int(uint32(bytes, at: offset + 42))
        if compressedSize == 0xFFFF_FFFF || uncompressedSize == 0xFFFF_FFFF || localHeaderOffset == 0xFFFF_FFFF { throw zip64 }
        guard localHeaderSize <= dataEnd - localHeaderOffset else {
            throw .corruptArchive("\(quoted): its local header offset \(localHeaderOffset) is outside the archive")
        }
        let entry = Entry(
            name: name, isFile: isFile(name: name, madeBy: uint16(bytes, at: offset + 4), attributes: uint32(bytes, at: offset + 38)),
            method: uint16(bytes, at: offset + 10), checksum: uint32(bytes, at: offset + 16), compressedSize: Int(compressedSize),
            uncompressedSize: UInt64(uncompressedSize), localHeaderOffset: localHeaderOffset)
        return (entry, next)
    }

    /// Whether an entry is a regular file: by its Unix mode when a Unix or macOS system made it,
    /// otherwise (and for a mode that is neither) by a name not ending in `/` and, from MS-DOS,
    /// the directory attribute not set.
    private static func isFile(name: String, madeBy: UInt16, attributes: UInt32) -> Bool {
        let fileType: UInt32 = 0o170000
        switch madeBy >> 8 {
        case 3, 19:
            switch (attributes >> 16) & fileType {
            case 0o100000: return true
            case 0o040000, 0o120000: return false
            default: return !name.hasSuffix("/")
            }
        case 0:
            return !name.hasSuffix("/") && attributes >> 4 != 0x01
        default:
            return !name.hasSuffix("/")
        }
    }

    /// Raw deflate data inflated, stopping as soon as the output passes `declared` bytes.
    private static func inflate(_ data: ArraySlice<UInt8>, declared: UInt64, name: String) throws(FirmwarePackageError) -> [UInt8] {
        let quoted = FirmwarePackageError.quoted(name)
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corruptArchive("\(quoted): zlib cannot start inflating")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let status: Int32 = data.withUnsafeBufferPointer { input in
            // zlib only reads through next_in.
            stream.next_in = input.baseAddress.map { UnsafeMutablePointer(mutating: $0) }
            stream.avail_in = uInt(input.count)
            var status = Z_OK
            while status == Z_OK {
                status = chunk.withUnsafeMutableBufferPointer { chunk in
                    stream.next_out = chunk.baseAddress
                    stream.avail_out = uInt(chunk.count)
                    return CSystemZlib.inflate(&stream, Z_NO_FLUSH)
                }
                output += chunk[..<(chunk.count - Int(stream.avail_out))]
                if UInt64(output.count) > declared { return Z_OK }
            }
            return status
        }
        if UInt64(output.count) > declared { throw .entrySizeMismatch(name: name, declared: declared) }
        switch status {
        case Z_STREAM_END:
            guard stream.avail_in == 0 else { throw .corruptArchive("\(quoted): \(stream.avail_in) bytes after the end of the deflate data") }
            return output
        case Z_BUF_ERROR:
            throw .corruptArchive("\(quoted): the deflate data ends early")
        default:
            let reason = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
            throw .corruptArchive("\(quoted): invalid deflate data (\(reason))")
        }
    }

    private static var zip64: FirmwarePackageError { .corruptArchive("ZIP64 archives are not supported") }

    /// The little-endian 16-bit number at `offset`; 0 when it is not within the data.
    private static func uint16(_ bytes: [UInt8], at offset: Int) -> UInt16 {
        guard offset >= 0, offset + 2 <= bytes.count else { return 0 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    /// The little-endian 32-bit number at `offset`; its halves that are not within the data are 0.
    private static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(uint16(bytes, at: offset)) | UInt32(uint16(bytes, at: offset + 2)) << 16
    }
}
