/// A finished download.
public struct FileDownloadResult: Sendable, Hashable {
    /// The last progress report (`acknowledged` = bytes received = `total`).
    public var progress: UploadProgress
    /// The chunk size the device chose (the data length of its first answer).
    public var chunkSize: Int
    /// The window used after the first request.
    public var window: Int
    /// How long the download took, in seconds.
    public var seconds: Double

    /// Creates a result.
    public init(progress: UploadProgress, chunkSize: Int, window: Int, seconds: Double) {
        self.progress = progress
        self.chunkSize = chunkSize
        self.window = window
        self.seconds = seconds
    }
}
