/// The file fs_mgmt holds open between requests: one, device-wide, for an upload or a download.
struct SimulatedOpenFile: Sendable, Hashable {
    enum Direction: Sendable, Hashable {
        case upload
        case download
    }

    var name: String
    var direction: Direction
    /// Upload: the next expected offset.
    var offset: UInt64
    /// Upload: the announced length (unknown when the file was reopened mid-upload); download:
    /// the size captured when the file was opened.
    var length: UInt64?
    /// When the last request used the file.
    var lastUsed: Duration
}
