import FoundationEssentials
import ZIPFoundation
#if canImport(Glibc)
import Glibc
#endif

/// A ZIP archive read from bytes in memory: entries are looked up by exact name and never written
/// to the file system, names are checked, and sizes are bounded before and while decompressing.
/// Shared with NordicDFU's package reader (`package` access), which reads nRF5 SDK packages the same way.
package struct PackageArchive {
    private let archive: Archive
    private let entries: [String: Entry]
    private let limits: PackageLimits
    private var totalRead = 0

    /// Opens the archive in `data` and checks every entry name.
    package init(data: Data, limits: PackageLimits) throws(FirmwarePackageError) {
        archive = try Self.open(data)
        var entries: [String: Entry] = [:]
        for entry in archive {
            guard entries.count < limits.maximumEntryCount else { throw .tooManyEntries(limit: limits.maximumEntryCount) }
            let name = entry.path
            guard Self.isSafe(name) else { throw .unsafeEntryName(name) }
            guard entries.updateValue(entry, forKey: name) == nil else { throw .duplicateEntry(name) }
        }
        self.entries = entries
        self.limits = limits
    }

    /// Whether the archive has an entry named exactly `name`.
    package func contains(_ name: String) -> Bool { entries[name] != nil }

    /// Whether `name` is an entry that is a regular file.
    func isFile(_ name: String) -> Bool { entries[name]?.type == .file }

    /// The content of the regular-file entry named exactly `name`, or nil if there is none.
    package mutating func read(_ name: String) throws(FirmwarePackageError) -> [UInt8]? {
        guard let entry = entries[name], entry.type == .file else { return nil }
        let declared = entry.uncompressedSize
        guard declared <= UInt64(max(0, limits.maximumEntrySize)) else {
            throw .entryTooLarge(name: name, size: declared, limit: limits.maximumEntrySize)
        }
        guard declared <= UInt64(max(0, limits.maximumTotalSize - totalRead)) else { throw .archiveTooLarge(limit: limits.maximumTotalSize) }
        var content = Data()
        content.reserveCapacity(Int(declared))
        let checksum: CRC32
        do {
            checksum = try archive.extract(entry, skipCRC32: false) { chunk in
                guard UInt64(content.count + chunk.count) <= declared else { throw SizeExceeded() }
                content.append(chunk)
            }
        } catch is SizeExceeded {
            throw .entrySizeMismatch(name: name, declared: declared)
        } catch {
            throw .corruptArchive("\(FirmwarePackageError.quoted(name)): \(Self.describe(error))")
        }
        guard UInt64(content.count) == declared else {
            throw .corruptArchive("\(FirmwarePackageError.quoted(name)): \(content.count) bytes instead of the declared \(declared)")
        }
        guard checksum == entry.checksum else { throw .corruptArchive("\(FirmwarePackageError.quoted(name)): CRC-32 mismatch") }
        totalRead += content.count
        return [UInt8](content)
    }

    /// Opens `data` as an archive through an anonymous temporary file.
    ///
    /// ZIPFoundation's in-memory archives (`Archive(data:)`) trap when an offset in the archive
    /// points past the end of the data (weichsel/ZIPFoundation#394, unreleased); a file-backed
    /// archive reads nothing there and reports the archive as damaged. The file (`tmpfile()`) has
    /// no name and disappears when the archive is closed; it is opened again as `/dev/fd/N`.
    ///
    /// The copy ends in ``endPadding`` zero bytes. ZIPFoundation inflates an entry until the
    /// deflate stream ends, not until its compressed size is read; at the end of the file it gets
    /// no more input and loops for ever (a 541-byte package found by the fuzzer hung
    /// `package info`). Zeros instead make inflate fail or produce output, which the size check
    /// of ``read(_:)`` stops; the end-of-central-directory scan passes over them.
    private static func open(_ data: Data) throws(FirmwarePackageError) -> Archive {
        guard let file = tmpfile() else {
            throw .unreadable(path: "a temporary copy of the archive", reason: String(cString: strerror(errno)))
        }
        defer { fclose(file) }
        let padding = [UInt8](repeating: 0, count: endPadding)
        let written = data.withUnsafeBytes { buffer in buffer.isEmpty ? 0 : fwrite(buffer.baseAddress, 1, buffer.count, file) }
            + padding.withUnsafeBytes { buffer in fwrite(buffer.baseAddress, 1, buffer.count, file) }
        guard written == data.count + endPadding, fflush(file) == 0 else {
            throw .unreadable(path: "a temporary copy of the archive", reason: String(cString: strerror(errno)))
        }
        do {
            return try Archive(url: URL(fileURLWithPath: "/dev/fd/\(fileno(file))"), accessMode: .read)
        } catch {
            throw .corruptArchive(describe(error))
        }
    }

    /// Zero bytes after the archive in its temporary copy (see ``open(_:)``).
    static let endPadding = 64 * 1024

    /// Thrown from the extraction consumer when an entry grows past its declared size.
    private struct SizeExceeded: Error {}

    /// A relative name without `..` components, backslashes, NUL or a drive letter.
    package static func isSafe(_ name: String) -> Bool {
        guard !name.isEmpty, !name.hasPrefix("/"), !name.contains("\\"), !name.contains("\0") else { return false }
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        if components.contains(where: { $0 == ".." }) { return false }
        if let first = components.first, first.count == 2, first.hasSuffix(":") { return false }
        return true
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case Archive.ArchiveError.missingEndOfCentralDirectoryRecord: return "no end of central directory record"
        case Archive.ArchiveError.unreadableArchive: return "unreadable archive"
        case Archive.ArchiveError.invalidCompressionMethod: return "unsupported compression method"
        default: return "\(error)"
        }
    }
}
