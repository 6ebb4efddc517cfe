import Foundation

extension BackgroundProcess {
    /// Waits until standard error holds a complete line that `match` accepts, and returns it; nil
    /// when the process ended or `timeout` passed first.
    func waitForErrorLine(timeout: TimeInterval = 20, where match: (String) -> Bool) async -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let text = stderr
            let complete = text.split(separator: "\n").dropLast(text.hasSuffix("\n") ? 0 : 1)
            if let line = complete.first(where: { match(String($0)) }) { return String(line) }
            if !isRunning { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }
}
