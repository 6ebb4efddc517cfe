/// Where a transfer (an upload, or a file download) stands, reported after every acknowledged chunk.
public struct UploadProgress: Sendable, Hashable {
    /// Bytes the device has stored (its expected offset).
    public var acknowledged: UInt64
    /// The file's length.
    public var total: UInt64
    /// Bytes acknowledged per second in this run (resumed bytes excluded).
    public var bytesPerSecond: Double

    /// The rate of `bytes` in `seconds`: 0 (none yet) during the first 50 ms of a transfer that
    /// is not done, where the first answers alone would give a meaningless one.
    static func rate(bytes: UInt64, seconds: Double, done: Bool) -> Double {
        guard seconds > 0, done || seconds >= 0.05 else { return 0 }
        return Double(bytes) / seconds
    }
    /// Chunks sent so far (the first one included, the client's own retries not).
    public var chunksSent: Int
    /// Data bytes sent so far.
    public var bytesSent: UInt64
    /// The offset the device resumed from: it recognised the file's `sha` and answered the first
    /// chunk with an offset beyond that chunk's end. (An offset within the first chunk is a
    /// partial acknowledgement, not a resume: see ``UploadResult/learnedAlignment``.)
    public var resumedFrom: UInt64?
    /// How often the device lost its upload state (answered offset 0 mid-upload) and the upload
    /// started over. A lost answer to the last chunk counts too: the device forgets a finished upload.
    public var restarts: Int

    /// Creates a progress report.
    public init(
        acknowledged: UInt64, total: UInt64, bytesPerSecond: Double, chunksSent: Int, bytesSent: UInt64, resumedFrom: UInt64? = nil,
        restarts: Int = 0
    ) {
        self.restarts = restarts
        self.acknowledged = acknowledged
        self.total = total
        self.bytesPerSecond = bytesPerSecond
        self.chunksSent = chunksSent
        self.bytesSent = bytesSent
        self.resumedFrom = resumedFrom
    }

    /// The acknowledged fraction, 0…1 (1 for an empty file).
    public var fraction: Double { total == 0 ? 1 : Double(acknowledged) / Double(total) }

    /// Seconds left at the current rate, nil before a rate is known.
    public var secondsRemaining: Double? {
        bytesPerSecond > 0 ? Double(total - min(total, acknowledged)) / bytesPerSecond : nil
    }
}

/// A finished upload.
public struct UploadResult: Sendable, Hashable {
    /// The last progress report (acknowledged = total).
    public var progress: UploadProgress
    /// The device's hash check of the whole upload (nil when it did not report one).
    public var match: Bool?
    /// The window used after the first chunk.
    public var window: Int
    /// How long the upload took, in seconds.
    public var seconds: Double
    /// The device's flash write unit as learned from its partial acknowledgements (answers that
    /// stored only part of a chunk, as MCUboot's serial recovery gives): later chunks ended on
    /// multiples of it. Nil when every chunk was stored whole.
    public var learnedAlignment: Int?
    /// Whether the device answered other than in order from this upload's first chunk at offset
    /// 0: it resumed, rewound, lost its state or named an offset beyond what was sent. Only a hash
    /// of the result then shows what it holds.
    public var isIrregular: Bool

    /// Creates a result.
    public init(
        progress: UploadProgress, match: Bool?, window: Int, seconds: Double, learnedAlignment: Int? = nil, isIrregular: Bool = false
    ) {
        self.isIrregular = isIrregular
        self.progress = progress
        self.match = match
        self.window = window
        self.seconds = seconds
        self.learnedAlignment = learnedAlignment
    }
}
