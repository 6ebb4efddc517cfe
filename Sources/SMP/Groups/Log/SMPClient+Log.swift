extension SMPClient {
    /// Reads log entries, asking again from the answer's `next_index` while the device keeps
    /// sending entries (its response buffer cuts long logs), until an answer brings none, the
    /// index stops advancing, or `limit` entries have been read.
    ///
    /// Logs with the same name are merged across answers, in the order first seen.
    public func readLog(_ query: LogShow, limit: Int? = nil) async throws(SMPError) -> LogShow.Response {
        var merged = LogShow.Response(nextIndex: query.index ?? 0, logs: [])
        var next = query
        var total = 0
        while true {
            let answer = try await send(next)
            var received = 0
            for log in answer.logs {
                let room = limit.map { max(0, $0 - total - received) } ?? log.entries.count
                let entries = Array(log.entries.prefix(room))
                received += entries.count
                if let position = merged.logs.firstIndex(where: { $0.name == log.name }) {
                    merged.logs[position].entries += entries
                } else {
                    merged.logs.append(LogShow.Log(name: log.name, type: log.type, entries: entries))
                }
            }
            total += received
            let advanced = answer.nextIndex > (next.index ?? 0) || next.index == nil
            merged.nextIndex = max(merged.nextIndex, answer.nextIndex)
            if received == 0 || !advanced || limit.map({ total >= $0 }) == true { return merged }
            next.index = answer.nextIndex
        }
    }
}
