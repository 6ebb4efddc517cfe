import FoundationEssentials
import SMP

/// The lines of a live progress display, fitted to a terminal's width: pure functions of the
/// progress, the elapsed time and the width, each line at most `width - 1` columns long (the last
/// column stays free, so that no terminal wraps or scrolls when the line is redrawn).
enum ProgressLayout {
    /// The narrowest bar drawn (between the brackets); below it, parts are left out instead.
    static let minimumBar = 10
    /// The widest bar drawn.
    static let maximumBar = 40

    /// A transfer's line, e.g. `image 1/2  [#########-----------]  45%  90.0/200.0 KiB  120.0 KiB/s  ETA 1s`.
    ///
    /// As the width shrinks, the label, the byte counts, the speed and the ETA are left out in
    /// that order before the bar gets narrower than ``minimumBar``; on the narrowest terminals
    /// only the percentage is left.
    static func bar(_ progress: UploadProgress, label: String = "", width: Int) -> String {
        let columns = max(0, width - 1)
        let percent = String(printf: "%3ld%%", Int(progress.fraction * 100))
        let eta = "ETA " + (progress.secondsRemaining.map(TransferProgressRenderer.seconds) ?? "--")
        var optional: [(name: String, text: String)] = [
            ("label", label), ("bytes", "\(kibibytes(progress.acknowledged))/\(kibibytes(progress.total)) KiB"),
            ("speed", TransferProgressRenderer.rate(progress.bytesPerSecond)), ("eta", eta),
        ].filter { !$0.text.isEmpty }
        while true {
            let kept = Dictionary(optional.map { ($0.name, $0.text) }, uniquingKeysWith: { first, _ in first })
            let prefix = kept["label"].map { $0 + "  " } ?? ""
            let tail = ([percent] + ["bytes", "speed", "eta"].compactMap { kept[$0] }).joined(separator: "  ")
            let fixed = prefix.count + 3 + tail.count
            let room = columns - fixed
            if room >= minimumBar {
                return prefix + "[" + fill(progress.fraction, width: min(maximumBar, room)) + "] " + tail
            }
            if optional.isEmpty { return String(tail.drop { $0 == " " }.prefix(columns)) }
            optional.removeFirst()
        }
    }

    /// A wait's line, e.g. `| wait for the device to restart  3.2s`: the spinner's frame, the text
    /// (shortened with `…` to fit) and the elapsed time.
    static func spinner(frame: Int, text: String, elapsed: Double, width: Int) -> String {
        let columns = max(0, width - 1)
        let glyph = spinnerFrames[frame % spinnerFrames.count]
        let time = String(printf: "%.1fs", max(0, elapsed))
        let fixed = 2 + 2 + time.count
        guard columns >= fixed + 2 else { return String((glyph + " " + time).prefix(columns)) }
        return glyph + " " + shortened(text, to: columns - fixed) + "  " + time
    }

    /// A plain line of a transfer (no bar): `45%  90.0/200.0 KiB  120.0 KiB/s`.
    static func plain(_ progress: UploadProgress) -> String {
        let percent = String(printf: "%3ld%%", Int(progress.fraction * 100))
        return "\(percent)  \(kibibytes(progress.acknowledged))/\(kibibytes(progress.total)) KiB  \(TransferProgressRenderer.rate(progress.bytesPerSecond))"
    }

    /// The spinner's frames (ASCII: every terminal and font draws them).
    static let spinnerFrames = ["|", "/", "-", "\\"]

    /// `text`, cut to `limit` characters with a trailing `…` when longer.
    static func shortened(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        guard limit > 1 else { return String(text.prefix(limit)) }
        return text.prefix(limit - 1) + "…"
    }

    private static func fill(_ fraction: Double, width: Int) -> String {
        let filled = min(width, max(0, Int(fraction * Double(width))))
        return String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    }

    private static func kibibytes(_ bytes: UInt64) -> String {
        String(printf: "%.1f", Double(bytes) / 1024)
    }
}
