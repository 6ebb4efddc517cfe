import SMP

extension FileSystemDownload {
    /// Downloads the file to the local file `destination` through a ``PartialDownloadFile``,
    /// calling `progress` after every answer and `warning` with what the caller should know (a
    /// `.part` file that is not continued).
    public func download(
        to destination: String, warning: @Sendable (String) -> Void = { _ in }, progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }
    ) async throws -> Result {
        let part = try PartialDownloadFile(destination: destination)
        if let ignored = part.ignoredPart { warning(ignored) }
        return try await download(resuming: part, progress: progress)
    }
}
