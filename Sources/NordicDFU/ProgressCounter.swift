import SMP

/// Turns DFU writes into ``UploadProgress`` reports (Secure and legacy DFU engines).
struct ProgressCounter {
    let report: @Sendable (UploadProgress) -> Void
    /// The time since the transfer started.
    let elapsed: () -> Duration
    var progress: UploadProgress

    init(report: @escaping @Sendable (UploadProgress) -> Void, total: Int, clock: any Clock<Duration>) {
        self.report = report
        elapsed = Self.stopwatch(clock)
        progress = UploadProgress(acknowledged: 0, total: UInt64(total), bytesPerSecond: 0, chunksSent: 0, bytesSent: 0)
    }

    private static func stopwatch<C: Clock<Duration>>(_ clock: C) -> () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }

    mutating func resumed(from offset: Int) {
        progress.resumedFrom = UInt64(offset)
        progress.acknowledged = UInt64(offset)
    }

    mutating func restarted() {
        progress.restarts += 1
    }

    /// The device confirmed (by a CRC or a receipt notification) that it holds the image up to `offset`.
    mutating func confirmed(_ offset: Int) {
        progress.acknowledged = UInt64(offset)
        report(progress)
    }

    /// A write of `count` bytes went out.
    mutating func wrote(_ count: Int) {
        progress.chunksSent += 1
        progress.bytesSent += UInt64(count)
        let elapsed = elapsed()
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        progress.bytesPerSecond = seconds > 0 ? Double(progress.bytesSent) / seconds : 0
        report(progress)
    }
}
