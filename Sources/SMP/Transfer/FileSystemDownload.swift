/// A file download from the device's file system (docs/protocol/file-system.md §9.1) that
/// survives interruptions and ends verified after any resume.
///
/// The bytes go to a ``ResumableDownloadSink`` (SMPLocalFiles' `PartialDownloadFile` writes
/// `destination.part` and renames it to `destination` when complete). Bytes left by an
/// interrupted download are continued when the device's hash of their length matches them
/// (``restart`` starts afresh); a failure discards them unless a rerun can continue them
/// (``TransferInterruption/canContinue(after:)``). A continued download (with
/// ``TransferVerification/always``, any) is checked against the device's hash of the whole file
/// before it is committed: on a mismatch it is downloaded once more from offset 0, then the bytes
/// are discarded and the download fails with
/// ``TransferVerificationError/mismatch(what:type:device:local:length:attempts:)``.
public struct FileSystemDownload: Sendable {
    /// What the download did.
    public struct Result: Sendable, Hashable {
        /// The last download run (the one from offset 0 when the first did not verify).
        public var download: FileDownloadResult
        /// The device's hash of the whole file next to the local one, when it was checked and the
        /// device can hash (nil: not checked, or the device has no hash command).
        public var verification: RemoteFileHashComparison?
        /// Whether the device was asked to check the result (its answer is ``verification``).
        public var checked: Bool
        /// How many downloads it took (2: the first did not verify and was done again from 0).
        public var attempts: Int

        /// Creates a result.
        public init(download: FileDownloadResult, verification: RemoteFileHashComparison?, checked: Bool, attempts: Int) {
            self.download = download
            self.verification = verification
            self.checked = checked
            self.attempts = attempts
        }
    }

    /// The connection to the device.
    public let client: SMPClient
    /// The file's absolute path on the device.
    public let name: String
    /// Requests in flight after the first (nil: the device's window).
    public var window: Int?
    /// Start at offset 0 even when a `.part` file holds a matching prefix.
    public var restart: Bool
    /// When to check the result by hash.
    public var verification: TransferVerification

    /// Creates a download.
    public init(client: SMPClient, name: String, window: Int? = nil, restart: Bool = false, verification: TransferVerification = .afterResume) {
        self.client = client
        self.name = name
        self.window = window
        self.restart = restart
        self.verification = verification
    }

    /// The windowed downloader this download runs.
    private var downloader: FileDownloader {
        FileDownloader(client: client, name: name, options: FileDownloadOptions(window: window))
    }

    /// Downloads the file into a stream (standard output, a device, a FIFO): once, from offset 0,
    /// unchecked (a stream cannot be read back nor continued).
    public func download(into sink: some DownloadSink, progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }) async throws -> Result {
        let result = try await downloader.download(into: sink, progress: progress)
        return Result(download: result, verification: nil, checked: false, attempts: 1)
    }

    /// Downloads the file into `part`, continuing what it holds when the device's hash of it
    /// matches, and commits it once complete; calls `progress` after every answer.
    public func download(resuming part: some ResumableDownloadSink, progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }) async throws -> Result {
        let downloader = downloader
        var fromScratch = restart
        var attempt = 0
        while true {
            attempt += 1
            var held = fromScratch ? 0 : part.initialSize
            if held > 0 {
                do {
                    let comparison = try await RemoteFileHashComparison.compare(client, name: name, local: part.contents(), length: held)
                    if !comparison.matches { held = 0 }
                } catch SMPError.device {
                    held = 0
                }
            }
            if held == 0 { try part.truncate(to: 0) }
            let result: FileDownloadResult
            do {
                result = try await downloader.download(into: part, resumingAt: held, progress: progress)
            } catch {
                part.abandon(keepingProgress: TransferInterruption.canContinue(after: error))
                throw error
            }
            let wanted = verification == .always || held > 0
            let comparison = wanted ? try await FileSystemUpload.check(client, name: name, local: part.contents()) : nil
            if let comparison, !comparison.matches {
                guard attempt < 2 else {
                    part.abandon(keepingProgress: false)
                    throw TransferVerificationError.mismatch(
                        what: name, type: comparison.type, device: comparison.device.output, local: comparison.local,
                        length: comparison.expectedLength, attempts: attempt)
                }
                fromScratch = true
                continue
            }
            do {
                try part.commit()
            } catch {
                part.abandon(keepingProgress: false)
                throw error
            }
            return Result(download: result, verification: comparison, checked: wanted, attempts: attempt)
        }
    }
}
