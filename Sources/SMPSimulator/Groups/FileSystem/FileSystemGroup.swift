import CBOR
import Crypto
import SMP

/// The file system group (8) of Zephyr's fs_mgmt (docs/protocol/file-system.md §9): download and upload through one open
/// file context, file status, hash/checksum (crc32, sha256) over a range, the supported types, and
/// close, over an in-memory file system with mount points, directories and a capacity.
public struct FileSystemGroup: SimulatedGroup {
    public var group: SMPGroup { .fileSystem }

    /// The configuration the group was built with.
    public let configuration: SimulatedFileSystemConfiguration
    var fileSystem: SimulatedFileSystem
    /// The one open upload or download (device-wide).
    var openFile: SimulatedOpenFile?
    /// Chunks still to be stored corrupted (``SimulatedFileSystemConfiguration/corruptedChunks``).
    var corruptionsLeft: Int

    /// Creates the group with the configuration's mount points and files.
    public init(configuration: SimulatedFileSystemConfiguration = SimulatedFileSystemConfiguration()) {
        self.configuration = configuration
        fileSystem = SimulatedFileSystem(configuration: configuration)
        corruptionsLeft = max(0, configuration.corruptedChunks)
    }

    /// The files the device holds, by absolute path.
    public var files: [String: [UInt8]] { fileSystem.files }

    /// Whether an upload or download holds a file open.
    public var hasOpenFile: Bool { openFile != nil }

    public func implements(command: UInt8) -> Bool {
        (FileSystemCommandID.file...FileSystemCommandID.close).contains(command)
            && (command != FileSystemCommandID.close || configuration.closeSupported)
    }

    public mutating func handle(
        _ request: SimulatedRequest, context: inout SimulatedDeviceContext
    ) throws(SimulatedError) -> CBORMap {
        if let idle = configuration.idleCloseTime, let open = openFile, context.uptime - open.lastUsed >= idle { openFile = nil }
        switch (request.command, request.operation) {
        case (FileSystemCommandID.file, .read): return try download(request, context: context)
        case (FileSystemCommandID.file, .write): return try upload(request, context: context)
        case (FileSystemCommandID.status, .read): return try status(request)
        case (FileSystemCommandID.hash, .read): return try hash(request)
        case (FileSystemCommandID.supportedHashes, .read): return supportedTypes()
        case (FileSystemCommandID.close, .write) where configuration.closeSupported:
            openFile = nil
            return [:]
        default: throw .notSupported
        }
    }

    /// A reset loses the open file context, and with it what an open upload wrote: LittleFS
    /// keeps only what was committed (at close or sync), as after a power loss.
    public mutating func deviceDidReset(context: SimulatedDeviceContext) {
        if let open = openFile, open.direction == .upload, let committed = open.committed { fileSystem.restore(open.name, to: committed) }
        openFile = nil
    }

    /// Status (cmd 1): the file's size.
    private func status(_ request: SimulatedRequest) throws(SimulatedError) -> CBORMap {
        let fields = try request.fields(["name": .text])
        let name = try validName(fields)
        return ["len": .unsigned(UInt64(try existingFile(name).count))]
    }

    /// Hash/checksum (cmd 2) of `len` bytes (default: to the end) from `off`.
    private func hash(_ request: SimulatedRequest) throws(SimulatedError) -> CBORMap {
        let fields = try request.fields(["name": .text, "type": .text, "off": .unsigned, "len": .unsigned])
        let name = try validName(fields)
        let type = fields.text("type") ?? configuration.hashTypes.first ?? "crc32"
        guard configuration.hashTypes.contains(type), Self.hashSizes[type] != nil else { throw .groupError(FileSystemGroupError.checksumHashNotFound) }
        let file = try existingFile(name)
        let offset = fields.unsigned("off") ?? 0
        if fields.unsigned("len") == 0 { throw .invalidValue }
        guard !file.isEmpty else { throw .groupError(FileSystemGroupError.fileEmpty) }
        guard offset < UInt64(file.count) else { throw .groupError(FileSystemGroupError.fileOffsetLargerThanFile) }
        let end = min(UInt64(file.count), fields.unsigned("len").map { offset + $0 } ?? UInt64(file.count))
        let bytes = file[Int(offset)..<Int(end)]
        var response: CBORMap = ["type": .text(type)]
        if offset != 0 { response["off"] = .unsigned(offset) }
        response["len"] = .unsigned(end - offset)
        response["output"] = type == "crc32" ? .unsigned(UInt64(CRC32.checksum(bytes))) : .bytes(Array(SHA256.hash(data: Array(bytes))))
        return response
    }

    /// Supported types (cmd 3).
    private func supportedTypes() -> CBORMap {
        var types = CBORMap()
        for type in configuration.hashTypes {
            guard let size = Self.hashSizes[type] else { continue }
            types[type] = ["format": .unsigned(type == "crc32" ? 0 : 1), "size": .unsigned(UInt64(size))]
        }
        return ["types": .map(types)]
    }

    /// The `name` field, which must be a non-empty path within `MCUMGR_GRP_FS_PATH_LEN`.
    func validName(_ fields: SimulatedFields) throws(SimulatedError) -> String {
        guard let name = fields.text("name") else { throw .invalidValue }
        guard !name.isEmpty, name.utf8.count <= configuration.maximumPathLength else {
            throw .groupError(FileSystemGroupError.fileInvalidName)
        }
        return name
    }

    /// The output sizes of the types the group can compute.
    static let hashSizes = ["crc32": 4, "sha256": 32]
}
