import CBOR

extension SMPGroup {
    /// File system.
    public static let fileSystem = SMPGroup(rawValue: 8)
}

extension SMPGroupDescriptor {
    /// The file system group (8).
    public static let fileSystem = SMPGroupDescriptor(
        group: .fileSystem, name: "fs", title: "file system", firmwareName: "fs mgmt",
        enablingOption: "CONFIG_MCUMGR_GRP_FS (status: CONFIG_MCUMGR_GRP_FS_FILE_STATUS; hashes: CONFIG_MCUMGR_GRP_FS_CHECKSUM_HASH)",
        commands: [
            .init(FileSystemCommandID.file, "file", [FileDownloadChunk.self, FileUploadChunk.self]),
            .init(FileSystemCommandID.status, "status", [FileStatus.self]),
            .init(FileSystemCommandID.hash, "hash", [FileHash.self]),
            .init(FileSystemCommandID.supportedHashes, "supportedHashes", [FileHashTypes.self]),
            .init(FileSystemCommandID.close, "close", [FileClose.self]),
        ],
        errors: FileSystemGroupError.self,
        probe: SMPRequest(
            group: .fileSystem, command: FileSystemCommandID.status, operation: .read, payload: ["name": .text("/")],
            name: "probe fs"))
}
