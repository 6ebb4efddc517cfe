import ArgumentParser
import JSON
import SMPFleet
import Synchronization

/// What one device's command produced within a many-device run, kept as typed values: the JSON
/// documents and the text it emitted, its notes (warnings, announcements), and the failure it
/// reported. The command writes them through the ``Output`` it is handed (``Output/device``); the
/// run prints them under the device's name once all devices are done, puts the documents into the
/// device's `finished` event, and takes the failure for the summary and the report.
final class DeviceOutput: Sendable {
    /// The device.
    let target: DeviceTarget

    private let state = Mutex(State())

    private struct State {
        var documents: [JSONValue] = []
        var text: [String] = []
        var notes: [String] = []
        var failure: CLIError?
    }

    init(target: DeviceTarget) {
        self.target = target
    }

    /// Records a result document (`--json`).
    func record(document: JSONValue) {
        state.withLock { $0.documents.append(document) }
    }

    /// Records a result as text for people.
    func record(text: String) {
        state.withLock { $0.text.append(text) }
    }

    /// Records a note for standard error (a warning, an announcement).
    func record(note: String) {
        state.withLock { $0.notes.append(note) }
    }

    /// Records the failure the command reported; the last one reported stands for the device.
    func record(failure: CLIError) {
        state.withLock { $0.failure = failure }
    }

    /// The JSON documents, in the order emitted.
    var documents: [JSONValue] { state.withLock { $0.documents } }

    /// The failure for a command that ended with `exit` after reporting its outcome itself (a
    /// partial result): the failure it reported, or one naming the exit status.
    func failure(exitingWith exit: ExitCode) -> CLIError {
        let status = ExitStatus(rawValue: exit.rawValue) ?? .internalError
        guard var failure = state.withLock({ $0.failure }) else { return CLIError(status, "exited with status \(exit.rawValue)") }
        failure.status = status
        return failure
    }

    /// Prints the device's text and notes, each line after the device's name; its failure is left
    /// out (the summary names it).
    func printTagged() {
        let (text, notes) = state.withLock { ($0.text, $0.notes) }
        let name = TerminalText.visibleLine(target.name)
        for line in text.joined().split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            Output.write("\(name): \(TerminalText.visible(String(line)))\n", to: .standardOutput)
        }
        for note in notes {
            for line in note.split(separator: "\n") { Output.write("\(name): \(TerminalText.visible(String(line)))\n", to: .standardError) }
        }
    }
}
