/// Where a ``FileDownloader`` writes: each answer's bytes at their offset, in whatever order the
/// answers arrive, then the final length.
public protocol DownloadSink: AnyObject {
    /// Writes `bytes` at `offset`.
    func write(_ bytes: [UInt8], at offset: UInt64) throws
    /// Called once every byte is written: the file is `length` bytes long (a sink holding more,
    /// from an earlier and longer version of the file, cuts the rest).
    func finish(length: UInt64) throws
}
