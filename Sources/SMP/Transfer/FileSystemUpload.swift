/// A file upload to the device's file system (docs/protocol/file-system.md §9.2) that never trusts upload state the device
/// kept from an earlier, interrupted upload, and ends verified after any resume.
///
/// Zephyr's fs_mgmt holds one file open between requests (until close, command 4, or
/// `CONFIG_MCUMGR_GRP_FS_FILE_AUTOMATIC_IDLE_CLOSE_TIME`, 4 s by default): a new upload of that
/// file at offset 0 truncates it but keeps counting from the old offset, so its answers name
/// offsets of bytes that were never sent (docs/file-system.md). So the upload first closes the
/// device's file, then continues a prefix the device holds only when the device's hash of it
/// matches the local file, and afterwards checks the whole file by hash when the upload was
/// not one unbroken pass from offset 0 (or always, with ``TransferVerification/always``). When the
/// device's file system is full (`FS_MGMT_ERR_FILE_WRITE_FAILED`), it first replaces the file by a
/// committed one-byte file, freeing the old file's blocks, and uploads from offset 0 once. On a
/// mismatch it uploads once more from offset 0, then fails with
/// ``TransferVerificationError/mismatch(what:type:device:local:length:attempts:)``. After an empty
/// file it asks the device whether the remote file is empty now (``Result/emptyFileConfirmed``).
public struct FileSystemUpload: Sendable {
    /// What the upload did.
    public struct Result: Sendable, Hashable {
        /// The last upload run (the one from offset 0 when the first did not verify).
        public var upload: UploadResult
        /// The device's hash of the whole file next to the local one, when it was checked and the
        /// device can hash (nil: not checked, or the device has no hash command).
        public var verification: RemoteFileHashComparison?
        /// Whether the device was asked to check the result (its answer is ``verification``).
        public var checked: Bool
        /// How many uploads it took (2: the first did not verify and was done again from 0).
        public var attempts: Int
        /// Whether the device's file system was full and the remote file was first replaced by a
        /// committed one-byte file to free the old contents' blocks.
        public var madeRoom = false
        /// After an empty file was put: whether the device reported the remote file empty (false:
        /// it did not report the size, so whether it is empty is not known); nil for a file with
        /// bytes. A remote file that kept its bytes fails the upload with
        /// ``TransferVerificationError/notEmptied(path:size:)``.
        public var emptyFileConfirmed: Bool?
    }

    /// The connection to the device.
    public let client: SMPClient
    /// The file's absolute path on the device.
    public let name: String
    /// Chunks in flight after the first (nil: the device's window).
    public var window: Int?
    /// Start at offset 0 even when the device holds a matching prefix.
    public var restart: Bool
    /// When to check the result by hash.
    public var verification: TransferVerification

    /// Creates an upload.
    public init(client: SMPClient, name: String, window: Int? = nil, restart: Bool = false, verification: TransferVerification = .afterResume) {
        self.client = client
        self.name = name
        self.window = window
        self.restart = restart
        self.verification = verification
    }

    /// Uploads `source`, calling `progress` after every acknowledged chunk.
    public func upload(from source: some UploadSource, progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }) async throws -> Result {
        var fromScratch = restart
        var attempt = 0
        var madeRoom = false
        while true {
            attempt += 1
            let resumeAt = fromScratch ? 0 : try await heldPrefix(source)
            let upload: UploadResult
            do {
                upload = try await pass(source, resumingAt: resumeAt, progress: progress)
            } catch SMPError.device(.groupError(.fs(.fileWriteFailed)), _) where !madeRoom && source.count > 0 {
                // The file system is full (LittleFS: `-ENOSPC`). A small LittleFS cannot hold the committed old file (or the part of an
                // interrupted upload) next to the new blocks: commit a one-byte file first.
                madeRoom = true
                try await makeRoom(source)
                fromScratch = true
                attempt -= 1
                continue
            }
            let wanted = verification == .always || upload.isIrregular || resumeAt > 0 || madeRoom
            guard wanted, let comparison = try await check(source) else {
                return try await finished(Result(upload: upload, verification: nil, checked: wanted, attempts: attempt, madeRoom: madeRoom), source)
            }
            if comparison.matches {
                return try await finished(Result(upload: upload, verification: comparison, checked: true, attempts: attempt, madeRoom: madeRoom), source)
            }
            guard attempt < 2 else {
                throw TransferVerificationError.mismatch(
                    what: name, type: comparison.type, device: comparison.device.output, local: comparison.local,
                    length: comparison.expectedLength, attempts: attempt)
            }
            fromScratch = true
        }
    }

    /// Replaces the remote file by its first byte, committed: an upload of one byte at offset 0
    /// with `len` 1 truncates the file and closes it at once, which frees the blocks of the old
    /// contents (LittleFS keeps them until the file is committed). Then a whole upload fits
    /// where one over the old contents (or appending to a committed part, which copies its last
    /// block) does not.
    private func makeRoom(_ source: some UploadSource) async throws {
        try await FileSystemClose.closeIgnoringUnsupported(client)
        _ = try await client.send(FileUploadChunk(name: name, offset: 0, data: try source.read(offset: 0, length: 1), length: 1))
        try await FileSystemClose.closeIgnoringUnsupported(client)
    }

    /// One upload: closes the device's open file first (so that its state is the file it
    /// stores, nothing held from an earlier upload) and after (a resumed upload never told the
    /// device the length, so it would hold the file open).
    private func pass(_ source: some UploadSource, resumingAt offset: UInt64, progress: @escaping @Sendable (UploadProgress) -> Void) async throws -> UploadResult {
        try await FileSystemClose.closeIgnoringUnsupported(client)
        let uploader = ChunkedUploader(client: client, target: FileUploadTarget(name: name), options: ChunkedUploadOptions(window: window))
        let result = try await uploader.upload(from: source, sha: nil, resumingAt: offset, progress: progress)
        try await FileSystemClose.closeIgnoringUnsupported(client)
        return result
    }

    /// How many leading bytes of the file the device already holds: its file's size when its hash
    /// of that part matches the local file's (0 when it holds nothing usable or cannot hash).
    /// The device's file is closed first, so that its size is what it stores.
    public func heldPrefix(_ source: some UploadSource) async throws -> UInt64 {
        try await FileSystemClose.closeIgnoringUnsupported(client)
        let size: UInt64
        do {
            size = try await client.send(FileStatus(name: name))
        } catch SMPError.device {
            return 0
        }
        guard size > 0, size <= UInt64(source.count) else { return 0 }
        do {
            return try await RemoteFileHashComparison.compare(client, name: name, local: source, length: size).matches ? size : 0
        } catch SMPError.device {
            return 0
        }
    }

    /// The device's hash of the whole file against `source`; nil when the device cannot hash
    /// (no hash command, or none of the types smpctl computes). An empty file is compared by its
    /// size (a device cannot hash an empty file): a non-empty remote file gets a mismatch.
    public func check(_ source: some UploadSource) async throws -> RemoteFileHashComparison? {
        try await Self.check(client, name: name, local: source)
    }

    /// The device's hash of the whole of `name` against `local` (see ``check(_:)``).
    public static func check(_ client: SMPClient, name: String, local: some UploadSource) async throws -> RemoteFileHashComparison? {
        guard local.count > 0 else {
            let size = try await client.send(FileStatus(name: name))
            let device = FileHash.Response(type: "size", offset: 0, length: size, output: [])
            return RemoteFileHashComparison(type: "size", device: device, local: [], expectedLength: 0)
        }
        do {
            return try await RemoteFileHashComparison.compare(client, name: name, local: local, length: UInt64(local.count))
        } catch SMPError.device(.returnCode(let code, _, _), _) where code == .notSupported {
            return nil
        } catch TransferVerificationError.noUsableHashType {
            return nil
        }
    }
}
