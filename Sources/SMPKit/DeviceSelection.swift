/// What connection text names, wherever it is written (`-c`, `SMPCTL_CONNECTION`, a profile's
/// connection, a line of a targets file): one device, or a selector of possibly many.
///
/// ```swift
/// try DeviceSelection(parsing: "udp:192.0.2.1")          // .one(udp:192.0.2.1:1337)
/// try DeviceSelection(parsing: "udp:192.0.2.10-20")      // .many: 11 endpoints
/// try DeviceSelection(parsing: "serial:vid=2fe3?baud=1000000")  // .many: the ports a filter passes
/// ```
public enum DeviceSelection: Sendable, Hashable, CustomStringConvertible {
    /// One device: a plain connection string (docs/connection-strings.md).
    case one(ConnectionString)
    /// Possibly many devices: a selector (docs/many-devices.md).
    case many(DeviceSelector)

    /// Parses connection text (spaces and tabs around it ignored): a selector where the text has
    /// a selector form, else a connection string.
    ///
    /// - Throws: ``ConnectionTextError``, saying by its case whether the text was a selector with
    ///   a mistake of its own or a connection string with a mistake.
    public init(parsing text: String) throws(ConnectionTextError) {
        self = try ConnectionTextParser(String(text.trimmingSpaces)).selection()
    }

    /// The transport the device or devices are reached over.
    public var transport: Transport {
        switch self {
        case .one(let connection): return connection.transport
        case .many(let selector): return selector.transport
        }
    }

    /// The link options of the device, or of every device the selector matches.
    public var options: ConnectionOptions {
        switch self {
        case .one(let connection): return connection.options
        case .many(let selector): return selector.options
        }
    }

    /// The connection string, or the selector as written (secrets hidden).
    public var description: String {
        switch self {
        case .one(let connection): return connection.description
        case .many(let selector): return selector.description
        }
    }
}
