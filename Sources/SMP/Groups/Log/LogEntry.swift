/// One log entry as a Mynewt device reports it.
public struct LogEntry: Sendable, Hashable {
    /// What an entry holds.
    public enum Message: Sendable, Hashable {
        /// Text (`type` `"str"`, or no type with a text `msg`).
        case text(String)
        /// Raw bytes (`type` `"bin"`).
        case binary([UInt8])
        /// An encoded CBOR item (`type` `"cbor"`).
        case cbor([UInt8])
    }

    /// The entry's index in its log.
    public var index: UInt64
    /// Its timestamp (microseconds since boot, or since the epoch once the clock is set).
    public var timestamp: Int64
    /// Its level (see ``LogLevelList``).
    public var level: Int64
    /// Its module (see ``LogModuleList``).
    public var module: Int64
    /// What it says.
    public var message: Message
    /// The first bytes of the hash of the image that wrote it, when reported.
    public var imageHash: [UInt8]?

    /// Creates an entry.
    public init(index: UInt64, timestamp: Int64, level: Int64, module: Int64, message: Message, imageHash: [UInt8]? = nil) {
        self.index = index
        self.timestamp = timestamp
        self.level = level
        self.module = module
        self.message = message
        self.imageHash = imageHash
    }
}
