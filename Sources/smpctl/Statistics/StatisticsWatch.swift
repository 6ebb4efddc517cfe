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
        let interval = Duration.milliseconds(Int64(seconds * 1000))
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

/// The counters read at one moment.
struct StatisticsSample {
    let groups: [StatisticsGroupData]
    let at: ContinuousClock.Instant

    func group(_ name: String) -> StatisticsGroupData? { groups.first { $0.name == name } }

    /// Seconds from `earlier` to this sample.
    func seconds(since earlier: StatisticsSample) -> Double { seconds(since: earlier.at) }

    func seconds(since instant: ContinuousClock.Instant) -> Double {
        let (whole, fraction) = (at - instant).components
        return Double(whole) + Double(fraction) / 1e18
    }

    /// GROUP FIELD VALUE, plus DELTA and RATE/S when there is an earlier sample.
    func table(since previous: StatisticsSample?) -> String {
        if groups.isEmpty { return "no statistics groups" }
        let elapsed = previous.map(seconds(since:))
        var headers = ["GROUP", "FIELD", "VALUE"]
        if previous != nil { headers += ["DELTA", "RATE/S"] }
        var table = Table(headers, alignments: [.left, .left, .right, .right, .right])
        for group in groups {
            if group.fields.isEmpty { table.add([group.name, "(no counters)"]) }
            for field in group.fields {
                var row = [group.name, field.name, String(field.value)]
                if let previous {
                    if let old = previous.group(group.name)?.value(of: field.name) {
                        let delta = StatisticsGroupData.delta(from: old, to: field.value)
                        row += [delta >= 0 ? "+\(delta)" : String(delta), elapsed.map { StatisticsGroupData.rate(delta, $0) } ?? "-"]
                    } else {
                        row += ["-", "-"]
                    }
                }
                table.add(row)
            }
        }
        return table.rendered
    }
}

extension StatisticsGroupData {
    /// `{"name", "fields": {name: value}}`, plus `deltas` and `ratesPerSecond` against an earlier reading.
    func json(previous: StatisticsGroupData? = nil, seconds: Double? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("name", .string(name)), ("fields", .object(fields.map { ($0.name, .uint($0.value)) })),
        ]
        if let previous, let seconds {
            let deltas = fields.compactMap { field in
                previous.value(of: field.name).map { (field.name, Self.delta(from: $0, to: field.value)) }
            }
            members.append(("deltas", .object(deltas.map { ($0.0, .int($0.1)) })))
            members.append(("ratesPerSecond", .object(deltas.map { ($0.0, seconds > 0 ? .double(Double($0.1) / seconds) : .null) })))
        }
        return .object(members)
    }

    /// The change of a counter (negative when it went back, e.g. after a reset), saturated to 64 bits.
    static func delta(from old: UInt64, to new: UInt64) -> Int64 {
        new >= old ? Int64(clamping: new - old) : -Int64(clamping: old - new)
    }

    /// "2.5": a change per second with one decimal.
    static func rate(_ delta: Int64, _ seconds: Double) -> String {
        seconds > 0 ? String(format: "%.1f", Double(delta) / seconds) : "-"
    }
}
