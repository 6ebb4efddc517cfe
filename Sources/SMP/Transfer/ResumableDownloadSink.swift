/// A ``DownloadSink`` that survives an interrupted download (``FileSystemDownload/download(resuming:progress:)``):
/// it may hold the first bytes of the file from an earlier run, which are continued once the
/// device's hash of them matches, and it takes the file's place only when complete and checked.
public protocol ResumableDownloadSink: DownloadSink {
    /// The bytes held when the sink was opened: what an interrupted download left (0: none).
    var initialSize: UInt64 { get }
    /// Cuts the held bytes to `length` (0: start afresh).
    func truncate(to length: UInt64) throws(FileAccessError)
    /// The bytes held, to hash them.
    func contents() throws(FileAccessError) -> FileUploadSource
    /// Makes the complete download final (e.g. renames it into place).
    func commit() throws(FileAccessError)
    /// After a failed download: discards the bytes unless `keepingProgress` and a later run can
    /// continue them.
    func abandon(keepingProgress: Bool)
}
