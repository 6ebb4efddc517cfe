import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Puts the terminal on standard input into raw mode (no echo, no line editing, no signal keys)
/// for the life of the value and always puts it back: on ``restore()``, and when SIGINT, SIGTERM,
/// SIGHUP or SIGQUIT end the process. Output processing stays on, so `\n` still starts a new line.
final class RawTerminal: @unchecked Sendable {
    private let descriptor: Int32
    private let original: termios
    private var signalSources: [any DispatchSourceSignal] = []
    private var restored = false

    /// Enters raw mode on `descriptor`; nil when it is not a terminal.
    init?(descriptor: Int32 = STDIN_FILENO) {
        var settings = termios()
        guard isatty(descriptor) == 1, tcgetattr(descriptor, &settings) == 0 else { return nil }
        self.descriptor = descriptor
        original = settings
        settings.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        settings.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR | IGNCR | ISTRIP | BRKINT)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(descriptor, TCSAFLUSH, &settings) == 0 else { return nil }
        let copy = original
        signalSources = [SIGINT, SIGTERM, SIGHUP, SIGQUIT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                var settings = copy
                tcsetattr(descriptor, TCSAFLUSH, &settings)
                _exit(128 + number)
            }
            source.resume()
            return source
        }
    }

    /// Puts the terminal back as it was (once) and stops watching signals.
    func restore() {
        guard !restored else { return }
        restored = true
        var settings = original
        tcsetattr(descriptor, TCSAFLUSH, &settings)
        for source in signalSources { source.cancel() }
        for number in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { signal(number, SIG_DFL) }
    }

    deinit { restore() }
}
