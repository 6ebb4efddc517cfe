/// How a ``FileDownloader`` paces its requests.
public struct FileDownloadOptions: Sendable, Hashable {
    /// Read requests in flight after the first one; nil uses the device's
    /// ``MCUmgrParameters/window`` (`buf_count − 1`, at least 1).
    public var window: Int?
    /// Send close (command 4) first, so that the device does not serve a stale length from a file
    /// it still holds open (docs/protocol/file-system.md §9.1). A device without the command is not an error.
    public var closeFirst: Bool

    /// Creates options.
    public init(window: Int? = nil, closeFirst: Bool = true) {
        self.window = window
        self.closeFirst = closeFirst
    }
}
