import ArgumentParser

/// How transfers and waits show their progress on standard error (`--progress`).
enum ProgressMode: String, CaseIterable, Sendable, ExpressibleByArgument {
    /// A live bar (percent, bytes, speed, ETA) and a spinner with the elapsed time for waits,
    /// redrawn in place and fitted to the terminal's width.
    case bar
    /// Plain lines: one per 10 % of a transfer and one per phase; no carriage returns or escape codes.
    case plain
    /// No progress at all.
    case none
}
