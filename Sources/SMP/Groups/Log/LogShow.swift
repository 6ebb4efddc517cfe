import CBOR

/// Show log entries (log command 0, Mynewt): one log or all, from an index or newer than a timestamp.
///
/// The device stops adding entries when its response buffer is full; `SMPClient.readLog(_:)`
/// asks again from ``Response/nextIndex`` until everything has been read.
public struct LogShow: SMPCommand {
    /// One log and the entries the response held.
    public struct Log: Sendable, Hashable {
        /// The log's name.
        public var name: String
        /// Its type (Mynewt: 0 console, 1 storage, 2 stream…).
        public var type: Int64
        /// Its entries, oldest first.
        public var entries: [LogEntry]

        /// Creates a log.
        public init(name: String, type: Int64, entries: [LogEntry]) {
            self.name = name
            self.type = type
            self.entries = entries
        }
    }

    /// What one answer holds.
    public struct Response: Sendable, Hashable {
        /// The index to ask from for the entries that come next.
        public var nextIndex: UInt64
        /// The logs, with the entries that fitted.
        public var logs: [Log]

        /// Creates a response.
        public init(nextIndex: UInt64, logs: [Log]) {
            self.nextIndex = nextIndex
            self.logs = logs
        }
    }

    /// The log to read; nil reads every log.
    public var logName: String?
    /// Only entries from this index on.
    public var index: UInt64?
    /// Only entries newer than this timestamp.
    public var timestamp: Int64?

    /// Creates the request.
    public init(logName: String? = nil, index: UInt64? = nil, timestamp: Int64? = nil) {
        self.logName = logName
        self.index = index
        self.timestamp = timestamp
    }

    public var request: SMPRequest {
        var payload = CBORMap()
        if let logName { payload["log_name"] = .text(logName) }
        if let index { payload["index"] = .unsigned(index) }
        if let timestamp { payload["ts"] = .int(timestamp) }
        return SMPRequest(group: .log, command: LogCommandID.show, operation: .read, payload: payload, name: "log show")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> Response {
        var logs: [Log] = []
        for map in try payload.mapArray("logs") {
            let name = try map.text("name")
            var entries: [LogEntry] = []
            for (position, entry) in try map.mapArray("entries").enumerated() {
                do {
                    entries.append(try Self.entry(entry))
                } catch {
                    throw SMPResponseError("entry \(position) of log \"\(name)\": \(error.detail)")
                }
            }
            logs.append(Log(name: name, type: try map.optionalInteger("type") ?? 0, entries: entries))
        }
        return Response(nextIndex: try payload.unsigned("next_index"), logs: logs)
    }

    private static func entry(_ map: CBORMap) throws(SMPResponseError) -> LogEntry {
        let message: LogEntry.Message
        let raw = try map.field("msg")
        switch (try map.optionalText("type"), raw) {
        case ("cbor", .bytes(let bytes)): message = .cbor(bytes)
        case ("bin", .bytes(let bytes)): message = .binary(bytes)
        case (_, .text(let text)): message = .text(text)
        case (_, .bytes(let bytes)): message = String(validating: bytes, as: UTF8.self).map(LogEntry.Message.text) ?? .binary(bytes)
        default: throw SMPResponseError("field \"msg\" should be text or bytes but is \(raw.typeName)")
        }
        var imageHash: [UInt8]?
        if let hash = map["imghash"] {
            guard let bytes = hash.bytesValue else { throw SMPResponseError("field \"imghash\" should be bytes but is \(hash.typeName)") }
            imageHash = bytes
        }
        return LogEntry(
            index: try map.unsigned("index"), timestamp: try map.integer("ts"), level: try map.optionalInteger("level") ?? 0,
            module: try map.optionalInteger("module") ?? 0, message: message, imageHash: imageHash)
    }
}
