import Logging
import SMP
import SMPUDP

/// The one-line entry point for library users: a connection string in, a ready client out.
///
/// ```swift
/// let client = try await SMPConnection.open("udp:192.0.2.1")
/// print(try await client.send(OSEcho("hello")))
/// ```
public enum SMPConnection {
    /// Opens the transport a connection string names and returns a client on it.
    /// Options in the string (`timeout`, `retries`) override the configuration's.
    public static func open(
        _ connection: ConnectionString, configuration: SMPClientConfiguration = SMPClientConfiguration(),
        logger: Logger = Logger(label: "smp")
    ) async throws(SMPError) -> SMPClient {
        var configuration = configuration
        if let timeout = connection.options.timeout { configuration.timeout = .seconds(timeout) }
        if let retries = connection.options.retries { configuration.retries = retries }
        if let size = connection.options.bufferSize { configuration.assumedBufferSize = size }
        let transport = try await openTransport(connection, logger: logger)
        logger.debug("opened \(transport.endpoint)", metadata: ["maxMessageSize": .stringConvertible(transport.maximumMessageSize)])
        return SMPClient(transport: transport, configuration: configuration, logger: logger)
    }

    /// Parses a connection string and opens it.
    public static func open(
        _ text: String, configuration: SMPClientConfiguration = SMPClientConfiguration(),
        logger: Logger = Logger(label: "smp")
    ) async throws -> SMPClient {
        try await open(ConnectionString(parsing: text), configuration: configuration, logger: logger)
    }

    /// Opens the transport alone; `logger` gets the transport's events (a serial device gone and
    /// back, line pacing).
    public static func openTransport(
        _ connection: ConnectionString, logger: Logger = Logger(label: "smp")
    ) async throws(SMPError) -> any SMPTransport {
        switch connection.target {
        case .udp(let host, let port):
            do {
                return try await openUDP(host: host, port: port, options: connection.options, logger: logger)
            } catch {
                throw .transport(error)
            }
        case .serial(let selector):
            return try await openSerial(selector, options: connection.options, logger: logger)
        case .serialServer(let server):
            return try await openSerial(.server(server), known: nil, options: connection.options, logger: logger)
        case .ble(let selector):
            return try await openBLE(selector, options: connection.options)
        case .labgridPlace(let place):
            throw .transport(place.notAcquired)
        }
    }
}
