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
        let eta = progress.secondsRemaining.map { "ETA " + TransferProgressRenderer.seconds($0) } ?? ""
        var optional: [(name: String, text: String)] = [
            ("label", label), ("bytes", sizes(progress)), ("speed", speed(progress)), ("eta", eta),
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
    /// (shortened with `…` to fit; none under a step's line, which says it: `| 3.2s`) and the
    /// elapsed time.
    static func spinner(frame: Int, text: String, elapsed: Double, width: Int) -> String {
        let columns = max(0, width - 1)
        let glyph = spinnerFrames[frame % spinnerFrames.count]
        let time = String(printf: "%.1fs", max(0, elapsed))
        if text.isEmpty { return String((glyph + " " + time).prefix(columns)) }
        let fixed = 2 + 2 + time.count
        guard columns >= fixed + 2 else { return String((glyph + " " + time).prefix(columns)) }
        return glyph + " " + shortened(text, to: columns - fixed) + "  " + time
    }

    /// A plain line of a transfer (no bar): `45%  90.0/200.0 KiB  120.0 KiB/s`; the speed only
    /// once there is one.
    static func plain(_ progress: UploadProgress) -> String {
        let percent = String(printf: "%3ld%%", Int(progress.fraction * 100))
        return ([percent, sizes(progress), speed(progress)].filter { !$0.isEmpty }).joined(separator: "  ")
    }

    /// `90.0/200.0 KiB`: bytes below 1 KiB (`11/11 B`), MiB from 10 MiB on, by the total.
    static func sizes(_ progress: UploadProgress) -> String {
        switch progress.total {
        case ..<1024: return "\(progress.acknowledged)/\(progress.total) B"
        case ..<(10 << 20): return "\(scaled(progress.acknowledged, 10))/\(scaled(progress.total, 10)) KiB"
        default: return "\(scaled(progress.acknowledged, 20))/\(scaled(progress.total, 20)) MiB"
        }
    }

    /// The speed, or nothing before there is one.
    private static func speed(_ progress: UploadProgress) -> String {
        progress.bytesPerSecond > 0 ? TransferProgressRenderer.rate(progress.bytesPerSecond) : ""
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

    private static func scaled(_ bytes: UInt64, _ shift: Int) -> String {
        String(printf: "%.1f", Double(bytes) / Double(1 << shift))
    }
}
