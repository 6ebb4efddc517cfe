/// A file upload to the device's file system (docs/protocol/file-system.md §9.2) that never trusts upload state the device
/// kept from an earlier, interrupted upload, and ends verified after any resume.
///
/// Zephyr's fs_mgmt holds one file open between requests (until close, command 4, or
/// `CONFIG_MCUMGR_GRP_FS_FILE_AUTOMATIC_IDLE_CLOSE_TIME`, 4 s by default): a new upload of that
/// file at offset 0 truncates it but keeps counting from the old offset, so its answers name
/// offsets of bytes that were never sent (docs/file-system.md). So the upload first closes the
/// device's file (unless file status reports no file at that path: fs_mgmt creates the file when
/// an upload starts, so none of it can be open), then continues a prefix the device holds only
/// when the device's hash of it matches the local file, and afterwards checks the whole file by
/// hash when the upload was not one unbroken pass from offset 0 (or always, with
/// ``TransferVerification/always``).
///
/// Requests, in order (docs/file-system.md, "Requests of a put"): file status (none when the
/// caller passes the answer it had, ``state``); for a file that exists, close, then for a resume
/// file status again and the hash of the part the device holds; the chunks; close after a
/// resumed pass or an empty file (a pass from offset 0 tells the device the length, and the device
/// closes the file at the last byte); the hash of the whole file when it is checked. When the
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
    /// What file status answered about ``name`` just before (nil: it was not asked, and the upload
    /// asks).
    public var state: RemotePathState?
    /// Chunks in flight after the first (nil: the device's window).
    public var window: Int?
    /// Start at offset 0 even when the device holds a matching prefix.
    public var restart: Bool
    /// When to check the result by hash.
    public var verification: TransferVerification

    /// Creates an upload.
    public init(
        client: SMPClient, name: String, state: RemotePathState? = nil, window: Int? = nil, restart: Bool = false,
        verification: TransferVerification = .afterResume
    ) {
        self.client = client
        self.name = name
        self.state = state
        self.window = window
        self.restart = restart
        self.verification = verification
    }

    /// Uploads `source`, calling `progress` after every acknowledged chunk.
    public func upload(from source: some UploadSource, progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }) async throws -> Result {
        var fromScratch = restart
        var attempt = 0
        var madeRoom = false
        var known = state
        while true {
            attempt += 1
            let (resumeAt, held) = try await prepare(source, fromScratch: fromScratch, known: known)
            // What a pass leaves on the device is not known: a later pass closes first.
            known = nil
            if let held, resumeAt == UInt64(source.count) {
                // The device holds the whole file, checked by its hash: nothing to send or check again.
                let total = resumeAt
                let progress = UploadProgress(acknowledged: total, total: total, bytesPerSecond: 0, chunksSent: 0, bytesSent: 0, resumedFrom: total)
                let upload = UploadResult(progress: progress, match: nil, window: window ?? 0, seconds: 0)
                return Result(upload: upload, verification: held, checked: true, attempts: attempt, madeRoom: madeRoom)
            }
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
    /// block) does not. (The next pass closes the file first, for a device that does not close
    /// it at the last byte.)
    private func makeRoom(_ source: some UploadSource) async throws {
        try await FileSystemClose.closeIgnoringUnsupported(client)
        _ = try await client.send(FileUploadChunk(name: name, offset: 0, data: try source.read(offset: 0, length: 1), length: 1))
    }

    /// Readies the device for a pass and returns the offset it starts at: closes the device's open
    /// file (so that its state is the file it stores, nothing held from an earlier upload) unless
    /// file status reports nothing at ``name`` (`known`, or asked now when a resume is possible),
    /// then finds the prefix the device holds (0 from scratch), with the hash comparison that
    /// showed it.
    private func prepare(
        _ source: some UploadSource, fromScratch: Bool, known: RemotePathState?
    ) async throws -> (offset: UInt64, held: RemoteFileHashComparison?) {
        var state = known
        if state == nil, !fromScratch { state = try await RemotePathState.query(client, path: name) }
        if state == .missing { return (0, nil) }
        try await FileSystemClose.closeIgnoringUnsupported(client)
        guard !fromScratch, let held = try await heldPrefix(source) else { return (0, nil) }
        return (held.expectedLength, held)
    }

    /// One upload from `offset`. A pass from offset 0 gives the device the length, and the device
    /// closes the file at its last byte; a resumed pass never told it the length, an empty file
    /// never reaches it, and after a rewind the device may have reopened the file without it, so
    /// then the file is closed afterwards.
    private func pass(_ source: some UploadSource, resumingAt offset: UInt64, progress: @escaping @Sendable (UploadProgress) -> Void) async throws -> UploadResult {
        let uploader = ChunkedUploader(client: client, target: FileUploadTarget(name: name), options: ChunkedUploadOptions(window: window))
        let result = try await uploader.upload(from: source, sha: nil, resumingAt: offset, progress: progress)
        if offset > 0 || source.count == 0 || result.isIrregular { try await FileSystemClose.closeIgnoringUnsupported(client) }
        return result
    }

    /// The leading bytes of the file the device already holds: its file's size, with the hash
    /// comparison that matched (nil when it holds nothing usable or cannot hash). The device's
    /// file must be closed, so that its size is what it stores.
    private func heldPrefix(_ source: some UploadSource) async throws -> RemoteFileHashComparison? {
        let size: UInt64
        do {
            size = try await client.send(FileStatus(name: name))
        } catch SMPError.device {
            return nil
        }
        guard size > 0, size <= UInt64(source.count) else { return nil }
        do {
            let comparison = try await RemoteFileHashComparison.compare(client, name: name, local: source, length: size)
            return comparison.matches ? comparison : nil
        } catch SMPError.device {
            return nil
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
