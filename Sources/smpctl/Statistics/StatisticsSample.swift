import SMP

/// The counters read at one moment.
struct StatisticsSample {
    let groups: [StatisticsGroupData]
    let at: ContinuousClock.Instant

    func group(_ name: String) -> StatisticsGroupData? { groups.first { $0.name == name } }

    /// Seconds from `earlier` to this sample.
    func seconds(since earlier: StatisticsSample) -> Double { seconds(since: earlier.at) }

    /// Seconds from `instant` to this sample.
    func seconds(since instant: ContinuousClock.Instant) -> Double { (at - instant).seconds }

    /// GROUP FIELD VALUE, plus DELTA and RATE/S when there is an earlier sample, plus a row for
    /// each group in `failures` (while watching, where the full errors follow at the end).
    func table(since previous: StatisticsSample?, failures: [ItemFailure] = []) -> String {
        if groups.isEmpty && failures.isEmpty { return "no statistics groups" }
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
        for failure in failures { table.add([failure.item, "(not read: \(failure.error.brief))"]) }
        return table.rendered
    }
}
