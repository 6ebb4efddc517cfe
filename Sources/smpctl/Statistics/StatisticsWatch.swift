import Foundation
import SMP

/// Reads statistics groups once, or again and again with `--watch`, and prints them: a table
/// (redrawn in place on a terminal, repeated blocks otherwise) or JSON (one document, or one
/// line per draw when watching).
struct StatisticsWatch {
    let names: [String]
    let options: StatWatchOptions
    let output: Output

    /// Reads and prints until done: once, `--count` times, or until Ctrl-C (which ends with success).
    func run(_ client: SMPClient) async throws {
        guard let seconds = options.watch else {
            let sample = StatisticsSample(groups: try await Self.read(names, client), at: .now)
            output.emit(.object([("groups", .array(sample.groups.map { $0.json() }))]), human: sample.table(since: nil))
            return
        }
        let (names, count, output) = (names, options.count, output)
        try await Interruption.cancellingOnSignals {
            try await Self.watch(names: names, every: seconds, count: count, output: output, client: client)
        }
    }

    private static func read(_ names: [String], _ client: SMPClient) async throws -> [StatisticsGroupData] {
        var groups: [StatisticsGroupData] = []
        for name in names {
            do {
                groups.append(try await client.send(StatisticsRead(name: name)))
            } catch {
                if case .device(let device, _) = error, device.legacyReturnCode == .noEntry || device.legacyReturnCode == .invalidValue {
                    var failure = CLIError(error)
                    failure.hint = "`smpctl stat list` shows the device's statistics groups (names are case-sensitive)"
                    throw failure
                }
                throw error
            }
        }
        return groups
    }

    private static func watch(
        names: [String], every seconds: Double, count: Int?, output: Output, client: SMPClient
    ) async throws {
        let interval = Duration.seconds(seconds)
        let start = ContinuousClock.now
        let inPlace = !output.json && isatty(STDOUT_FILENO) == 1
        var previous: StatisticsSample?
        var linesOnScreen = 0
        var draws = 0
        do {
            while true {
                let sample = StatisticsSample(groups: try await read(names, client), at: .now)
                draws += 1
                if output.json {
                    var members: [(String, JSONValue)] = [("draw", .int(Int64(draws))), ("elapsedSeconds", .double(sample.seconds(since: start)))]
                    members.append(("groups", .array(sample.groups.map { $0.json(previous: previous?.group($0.name), seconds: previous.map(sample.seconds(since:))) })))
                    Output.write(JSONValue.object(members).serialized() + "\n", to: .standardOutput)
                } else {
                    let table = sample.table(since: previous)
                    var text = inPlace && linesOnScreen > 0 ? "\u{1B}[\(linesOnScreen)A\u{1B}[J" : (draws > 1 ? "\n" : "")
                    text += table + "\n"
                    linesOnScreen = table.split(separator: "\n", omittingEmptySubsequences: false).count
                    Output.write(text, to: .standardOutput)
                }
                previous = sample
                if let count, draws >= count { return }
                try await Task.sleep(for: interval)
            }
        } catch is CancellationError {
            return
        } catch SMPError.cancelled {
            return
        }
    }
}
