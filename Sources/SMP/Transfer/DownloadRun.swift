/// The state of one download: which ranges are received, requested or still missing. Pure
/// bookkeeping, driven by ``FileDownloader``.
struct DownloadRun {
    /// A requested range.
    struct Range: Hashable, Sendable {
        var offset: UInt64
        var end: UInt64
    }

    let chunkSize: UInt64
    let window: Int
    let progress: @Sendable (UploadProgress) -> Void
    private let start = ContinuousClock.now
    private let resumedFrom: UInt64?

    /// The file's length (smaller than announced when the device reports the end earlier).
    private(set) var total: UInt64
    /// Where the next fresh range starts.
    private var next: UInt64
    /// Ranges an answer left short, to request again first.
    private var gaps: [Range] = []
    /// Ranges requested and not answered yet.
    private var live: [Range] = []
    private var received: UInt64
    /// Read requests sent, the first one (offset 0, which brought the length) included.
    private var requests = 1
    /// Bytes the requests asked for: the first one asked for what the device chose to send.
    private var bytesRequested: UInt64

    /// A run that already holds `[0, held)` (the first answer, or a resumed prefix); the first
    /// answer brought `chunkSize` bytes.
    init(total: UInt64, held: UInt64, chunkSize: Int, window: Int, resumedFrom: UInt64?, progress: @escaping @Sendable (UploadProgress) -> Void) {
        bytesRequested = UInt64(max(0, chunkSize))
        self.total = total
        self.chunkSize = UInt64(max(1, chunkSize))
        self.window = max(1, window)
        self.progress = progress
        self.resumedFrom = resumedFrom
        next = min(held, total)
        received = next
    }

    var isComplete: Bool { live.isEmpty && gaps.isEmpty && next >= total }

    /// How many leading bytes have arrived without a hole: what a later download can continue.
    var contiguous: UInt64 {
        (live + gaps).map(\.offset).reduce(min(next, total), min)
    }
    var elapsed: Double { (ContinuousClock.now - start).seconds }

    /// The ranges to request now to fill the window: missing pieces first, then fresh chunks.
    mutating func nextRanges() -> [Range] {
        var ranges: [Range] = []
        while live.count < window {
            let range: Range
            if !gaps.isEmpty {
                range = gaps.removeFirst()
            } else if next < total {
                range = Range(offset: next, end: min(total, next + chunkSize))
                next = range.end
            } else {
                break
            }
            live.append(range)
            ranges.append(range)
            requests += 1
            bytesRequested += range.end - range.offset
        }
        return ranges
    }

    /// Takes the answer to `range`: the bytes to write (those within the file), a request for
    /// the rest of a short answer, and the end of the file at an empty answer.
    mutating func receive(_ range: Range, data: [UInt8]) -> [UInt8] {
        guard let index = live.firstIndex(of: range) else { return [] }
        live.remove(at: index)
        guard range.offset < total else { return [] }
        guard !data.isEmpty else {
            endFile(at: range.offset)
            return []
        }
        let usable = Int(min(UInt64(data.count), total - range.offset))
        let end = range.offset + UInt64(usable)
        received += min(end, range.end) - range.offset
        if end < range.end { gaps.append(Range(offset: end, end: range.end)) }
        progress(report())
        return Array(data.prefix(usable))
    }

    /// Whether an error answer to `range` is harmless: the range lies past an end of file the
    /// device reported meanwhile.
    mutating func isPastEnd(_ range: Range) -> Bool {
        guard range.offset >= total else { return false }
        live.removeAll { $0 == range }
        return true
    }

    /// The progress now.
    func report() -> UploadProgress {
        let seconds = elapsed
        let own = received - min(received, resumedFrom ?? 0)
        return UploadProgress(
            acknowledged: received, total: total, bytesPerSecond: UploadProgress.rate(bytes: own, seconds: seconds, done: received == total), chunksSent: requests,
            bytesSent: bytesRequested, resumedFrom: resumedFrom)
    }

    /// The file ends at `offset`, before its announced length (it shrank while it was read).
    private mutating func endFile(at offset: UInt64) {
        total = offset
        next = min(next, total)
        gaps = gaps.filter { $0.offset < total }.map { Range(offset: $0.offset, end: min($0.end, total)) }
        received = min(received, total)
        progress(report())
    }
}
