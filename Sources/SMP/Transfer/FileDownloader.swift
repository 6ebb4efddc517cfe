/// Downloads a file from the device's file system (docs/protocol/file-system.md §9.1), windowed.
///
/// The device chooses the chunk size: the first request (offset 0) brings the file's length and
/// the first chunk, whose length is taken as the chunk size. Then up to `window` read requests
/// are in flight at successive offsets; each answer is written at its offset into the sink (no
/// whole-file buffer). A short answer makes the rest of its range requested again; an empty
/// answer is the end of the file (which then shrank); lost answers are retried by the client (reads
/// are retry-safe). A download can continue a partial one: ``download(into:resumingAt:progress:)``
/// with the number of bytes the sink already holds.
public struct FileDownloader: Sendable {
    /// The connection to the device.
    public let client: SMPClient
    /// The file's absolute path on the device.
    public let name: String
    /// Window and close-first.
    public let options: FileDownloadOptions

    /// Creates a downloader.
    public init(client: SMPClient, name: String, options: FileDownloadOptions = FileDownloadOptions()) {
        self.client = client
        self.name = name
        self.options = options
    }

    /// Downloads the file into `sink`, calling `progress` after every answer. `resumingAt` is the
    /// number of leading bytes the sink already holds (checked by the caller), which are not read
    /// again; a file now shorter than that is downloaded whole.
    public func download(
        into sink: some DownloadSink, resumingAt held: UInt64 = 0, progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }
    ) async throws -> FileDownloadResult {
        // No line pacing is learned for a download: its requests take a line each, which the
        // pacing in force carries; the lines that matter flow from the device.
        if options.closeFirst { try await FileSystemClose.closeIgnoringUnsupported(client) }
        var window = options.window ?? 0
        if window < 1 { window = await client.parameters().window }
        let first = try await client.send(FileDownloadChunk(name: name, offset: 0))
        guard let total = first.length else { throw invalidResponse(at: 0, "the answer to offset 0 has no \"len\" field") }
        let data = Array(first.data.prefix(Int(clamping: total)))
        try sink.write(data, at: 0)
        let resumed = held > UInt64(data.count) && held <= total ? held : nil
        var run = DownloadRun(
            total: total, held: resumed ?? UInt64(data.count), chunkSize: data.count, window: window, resumedFrom: resumed, progress: progress)
        progress(run.report())
        if !run.isComplete && data.isEmpty { throw invalidResponse(at: 0, "the device announced \(total) bytes but sent none") }
        do {
            try await transfer(&run, into: sink)
        } catch {
            // Cut what arrived after a hole, so that the sink holds a prefix a resume can continue.
            try? sink.finish(length: run.contiguous)
            if Task.isCancelled { throw CancellationError() }
            throw error
        }
        try sink.finish(length: run.total)
        return FileDownloadResult(progress: run.report(), chunkSize: data.count, window: window, seconds: run.elapsed)
    }

    private func transfer(_ run: inout DownloadRun, into sink: some DownloadSink) async throws {
        let client = client
        let name = name
        // Requests leave in offset order; answers are taken as they arrive.
        try await client.withPipeline(of: (DownloadRun.Range, Result<FileDownloadChunk.Response, SMPError>).self) { pipeline in
            while !run.isComplete {
                for range in run.nextRanges() {
                    await pipeline.send(FileDownloadChunk(name: name, offset: range.offset)) { (range, $0) }
                }
                guard let (range, result) = await pipeline.next() else { break }
                try Task.checkCancellation()
                switch result {
                case .success(let answer):
                    guard answer.offset == range.offset else {
                        throw invalidResponse(at: range.offset, "asked for offset \(range.offset), the device answered offset \(answer.offset)")
                    }
                    try sink.write(run.receive(range, data: answer.data), at: range.offset)
                case .failure(let error):
                    if !run.isPastEnd(range) { throw error }
                }
            }
        }
    }

    /// A download answer at `offset` that does not make sense.
    private func invalidResponse(at offset: UInt64, _ detail: String) -> SMPError {
        .invalidResponse(SMPRequestSummary(FileDownloadChunk(name: name, offset: offset).request), SMPResponseError(detail))
    }
}
