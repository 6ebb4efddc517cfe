/// The file fs_mgmt holds open between requests: one, device-wide, for an upload or a download
/// (Zephyr's `fs_mgmt_ctxt`), until close, the idle timeout, the transfer's end or an error.
struct SimulatedOpenFile: Sendable, Hashable {
    enum Direction: Sendable, Hashable {
        case upload
        case download
    }

    var name: String
    var direction: Direction
    /// The next expected offset (Zephyr's `off`): an upload counts every byte written since the
    /// file was opened, also across a new upload of it at offset 0.
    var offset: UInt64
    /// Upload: the length announced at offset 0 (unknown when the file was opened mid-upload);
    /// download: the size captured when the file was opened.
    var length: UInt64?
    /// When the last request used the file.
    var lastUsed: Duration
    /// Upload: the file handle's position, where the next write lands unless it seeks (Zephyr
    /// seeks to the end of the file when it differs from the request's offset).
    var position: UInt64 = 0
    /// Upload: the file as the file system shows it to everyone else until the file is closed
    /// (LittleFS commits an open file's writes at sync or close): what status, hash and a new
    /// upload's size check see.
    var committed: [UInt8]?
}
