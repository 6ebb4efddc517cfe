import ArgumentParser
import FoundationEssentials
import Glibc
import JSON
import SMP

/// Reads statistics groups once, or again and again with `--watch`, and prints them: a table
/// (redrawn in place on a terminal, repeated blocks otherwise) or JSON (one document, or one
/// line per draw when watching).
///
/// A group the device refuses (an answer too large for its buffer, MGMT_ERR_EMSGSIZE, an unknown
/// name…) does not stop the others when several are read: what was read is printed, each failed
/// group is named with its error on standard error and in the document's `failures`, and the
/// command exits with the first failure's code. A single group that fails is a plain error.
///
/// `stat all` asks for what the device has: a group too large for the device's buffer there is a
/// limit of the device, which no request can get around, so it is a note (said once, also when
/// watching), not a failure, and does not change the exit status (docs/exit-codes.md, "Partial
/// results").
struct StatisticsWatch {
    let names: [String]
    let options: StatWatchOptions
    let output: Output
    /// Whether a group too large for the device's buffer is a note rather than a failure (`stat all`).
    var notesDeviceLimits = false

    /// Reads and prints until done: once, `--count` times, or until Ctrl-C (which ends with success).
    func run(_ client: SMPClient) async throws {
        guard let seconds = options.watch else {
            let (sample, failures) = try await Self.read(names, client)
            output.emit(
                .object([("groups", .array(sample.groups.map { $0.json() })), ("failures", .array(failures.map(\.json)))]),
                human: sample.groups.isEmpty && !failures.isEmpty ? "" : sample.table(since: nil))
            try finish(after: failures)
            return
        }
        let (names, count, output) = (names, options.count, output)
        let failures = try await Interruption.cancellingOnSignals {
            try await Self.watch(names: names, every: seconds, count: count, output: output, client: client)
        }
        try finish(after: failures)
    }

    /// Notes each group too large for the device (with ``notesDeviceLimits``), then reports the
    /// failures and exits with the first one's code.
    private func finish(after failures: [ItemFailure]) throws(ExitCode) {
        var others: [ItemFailure] = []
        for failure in failures {
            if notesDeviceLimits && failure.error.deviceError?.legacyReturnCode == .messageTooLarge {
                output.note("note: statistics group \(failure.item) not read: its counters do not fit in one answer of the device's SMP buffer "
                    + "(MGMT_ERR_EMSGSIZE); \(Self.tooLargeAdvice)")
            } else {
                others.append(failure)
            }
        }
        try ItemFailure.exit(after: others, noun: "statistics group", output: output)
    }

    /// What can be done about a group too large for the device's buffer.
    private static let tooLargeAdvice = "only firmware with a larger buffer (MCUMGR_TRANSPORT_NETBUF_SIZE; `smpctl os params` shows it) can report them"

    /// Reads every group: those read, and those the device refused (when more than one is read).
    private static func read(_ names: [String], _ client: SMPClient) async throws -> (StatisticsSample, [ItemFailure]) {
        let reading: StatisticsReading
        do {
            reading = try await client.readStatistics(names)
        } catch {
            throw failure(error)
        }
        let failures = reading.failures.map { ItemFailure(item: $0.name, error: failure($0.error)) }
        return (StatisticsSample(groups: reading.groups, at: .now), failures)
    }

    /// The CLI error for a group that could not be read, with a hint for the device's refusals.
    private static func failure(_ error: SMPError) -> CLIError {
        var failure = CLIError(error)
        if case .device(let device, _) = error {
            failure.hint = Self.hint(for: device.legacyReturnCode) ?? failure.hint
        }
        return failure
    }

    /// What to do about a group the device refused, when the error's own sentence is not enough.
    private static func hint(for code: SMPReturnCode) -> String? {
        switch code {
        case .noEntry, .invalidValue:
            return "`smpctl stat list` shows the device's statistics groups (names are case-sensitive)"
        case .messageTooLarge:
            return "a group's counters come in one answer: " + tooLargeAdvice
        default:
            return nil
        }
    }

    /// Draws until done; returns the failures of the last draw.
    private static func watch(
        names: [String], every seconds: Double, count: Int?, output: Output, client: SMPClient
    ) async throws -> [ItemFailure] {
        let interval = Duration.seconds(seconds)
        let start = ContinuousClock.now
        let inPlace = !output.json && TerminalText.allowsCursorMovement(on: STDOUT_FILENO)
        var previous: StatisticsSample?
        var linesOnScreen = 0
        var draws = 0
        var failures: [ItemFailure] = []
        do {
            while true {
                let (sample, failed) = try await read(names, client)
                failures = failed
                draws += 1
                if output.json {
                    var members: [(String, JSONValue)] = [("draw", .int(Int64(draws))), ("elapsedSeconds", .seconds(sample.seconds(since: start)))]
                    members.append(("groups", .array(sample.groups.map { $0.json(previous: previous?.group($0.name), seconds: previous.map(sample.seconds(since:))) })))
                    members.append(("failures", .array(failures.map(\.json))))
                    Output.write(JSONValue.object(members).documentLine(), to: .standardOutput)
                } else {
                    let table = sample.table(since: previous, failures: failures)
                    var text = inPlace && linesOnScreen > 0 ? "\u{1B}[\(linesOnScreen)A\u{1B}[J" : (draws > 1 ? "\n" : "")
                    text += table + "\n"
                    linesOnScreen = table.split(separator: "\n", omittingEmptySubsequences: false).count
                    Output.write(text, to: .standardOutput)
                }
                previous = sample
                if let count, draws >= count { return failures }
                // Nobody reads the output any more (`| head`): stop; the exit status says so.
                if StandardStream.standardOutput.failure != nil { return failures }
                try await Task.sleep(for: interval)
            }
        } catch is CancellationError {
            return failures
        } catch SMPError.cancelled {
            return failures
        }
    }
}
