import FoundationEssentials
import Synchronization

/// A spinner with the elapsed time on standard error while something is waited for (the device
/// restarting, an erase, a swap, the first chunk of an upload): redrawn in place every 100 ms,
/// fitted to the terminal's width, and wiped when the wait ends. Drawn only in the bar mode
/// (``ProgressDisplay``); otherwise the step lines say what is under way.
final class WaitSpinner: Sendable {
    private struct State {
        var active = true
        var drew = false
        var frame = 0
        var ticker: Task<Void, Never>?
    }

    private let text: String
    private let started = ContinuousClock.now
    private let state = Mutex(State())

    /// Starts spinning with `text` when the display is a bar; a spinner that does not draw is
    /// harmless to stop.
    init(_ text: String, mode: ProgressMode = ProgressDisplay.mode) {
        self.text = text
        guard mode == .bar else {
            state.withLock { $0.active = false }
            return
        }
        let ticker = Task { [weak self] in
            while !Task.isCancelled {
                // The first frame after a short pause: a wait that ends at once leaves nothing to wipe.
                try? await Task.sleep(for: .milliseconds(100))
                self?.draw()
            }
        }
        state.withLock { $0.ticker = ticker }
    }

    deinit {
        state.withLock { $0.ticker?.cancel() }
    }

    /// Stops spinning and wipes the spinner's line.
    func stop() {
        state.withLock { state in
            guard state.active else { return }
            state.active = false
            state.ticker?.cancel()
            state.ticker = nil
            if state.drew { Output.write("\r\u{1B}[K", to: .standardError) }
        }
    }

    private func draw() {
        state.withLock { state in
            guard state.active else { return }
            let elapsed = ContinuousClock.now - started
            let width = TerminalWidth.columns() ?? TerminalWidth.fallback
            let line = ProgressLayout.spinner(frame: state.frame, text: text, elapsed: elapsed.seconds, width: width)
            state.frame += 1
            state.drew = true
            Output.write("\r" + line + "\u{1B}[K", to: .standardError)
        }
    }

    /// Runs `body` with a spinner showing `text` (none with `--json`), wiped when it ends.
    @discardableResult
    static func around<T>(_ text: String, json: Bool, _ body: () async throws -> T) async rethrows -> T {
        let spinner = json ? nil : WaitSpinner(text)
        defer { spinner?.stop() }
        return try await body()
    }
}
