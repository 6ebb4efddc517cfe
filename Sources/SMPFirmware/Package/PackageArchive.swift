import FoundationEssentials

/// A ZIP archive read from bytes in memory: entries are looked up by exact name and never written
/// to the file system, names are checked, and sizes are bounded before and while decompressing.
/// Shared with NordicDFU's package reader (`package` access), which reads nRF5 SDK packages the same way.
package struct PackageArchive {
    private let archive: ZipArchiveReader
    private let entries: [String: ZipArchiveReader.Entry]
    private let limits: PackageLimits
    private var totalRead = 0

    /// Opens the archive in `data` and checks every entry name.
    package init(data: Data, limits: PackageLimits) throws(FirmwarePackageError) {
        archive = try ZipArchiveReader(bytes: [UInt8](data), maximumEntryCount: limits.maximumEntryCount)
        var entries: [String: ZipArchiveReader.Entry] = [:]
        for entry in archive.entries {
            guard Self.isSafe(entry.name) else { throw .unsafeEntryName(entry.name) }
            guard entries.updateValue(entry, forKey: entry.name) == nil else { throw .duplicateEntry(entry.name) }
        }
        self.entries = entries
        self.limits = limits
    }

    /// Whether the archive has an entry named exactly `name`.
    package func contains(_ name: String) -> Bool { entries[name] != nil }

    /// Whether `name` is an entry that is a regular file.
    func isFile(_ name: String) -> Bool { entries[name]?.isFile ?? false }

    /// The content of the regular-file entry named exactly `name`, or nil if there is none.
    /// The declared size is checked against the limits before anything is read.
    package mutating func read(_ name: String) throws(FirmwarePackageError) -> [UInt8]? {
        guard let entry = entries[name], entry.isFile else { return nil }
        let declared = entry.uncompressedSize
        guard declared <= UInt64(max(0, limits.maximumEntrySize)) else {
            throw .entryTooLarge(name: name, size: declared, limit: limits.maximumEntrySize)
        }
        guard declared <= UInt64(max(0, limits.maximumTotalSize - totalRead)) else { throw .archiveTooLarge(limit: limits.maximumTotalSize) }
        let content = try archive.content(of: entry)
        totalRead += content.count
        return content
    }

    /// A relative name without `..` components, backslashes, NUL or a drive letter.
    package static func isSafe(_ name: String) -> Bool {
        guard !name.isEmpty, !name.hasPrefix("/"), !name.contains("\\"), !name.contains("\0") else { return false }
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        if components.contains(where: { $0 == ".." }) { return false }
        if let first = components.first, first.count == 2, first.hasSuffix(":") { return false }
        return true
    }
}
