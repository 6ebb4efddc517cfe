#if canImport(Glibc)
import Glibc
#endif

/// The width (and height) of the terminal on a descriptor, asked afresh on every call (`TIOCGWINSZ`), so that
/// a resized window is followed at the next redraw.
enum TerminalWidth {
    /// The width used when the descriptor is no terminal or reports none (a bar forced with `--progress bar`).
    static let fallback = 80

    /// The columns of the terminal on `descriptor`, or nil when it is not one or reports 0.
    static func columns(of descriptor: Int32 = STDERR_FILENO) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// The rows of the terminal on `descriptor`, or nil when it is not one or reports 0.
    static func rows(of descriptor: Int32 = STDERR_FILENO) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return nil }
        return Int(size.ws_row)
    }
}
