#if canImport(Glibc)
import Glibc
#endif
import DescriptorIO
import Logging
import SMP
import Synchronization

/// A serial port behind an RFC 2217 server (ser2net's `telnet(rfc2217)` accepter, labgrid's
/// exporters, pyserial's port server): a TCP connection that speaks telnet, over which the client
/// sets the remote UART.
///
/// Opening connects, agrees the telnet options and sets the line (see ``RFC2217Handshake``),
/// each setting checked against the server's answer, within ``answerTimeout`` per stage. After
/// that the stream carries SMP's bytes as telnet data: 0xFF doubled going out and undone coming
/// in, commands from the server taken out (a late option request is answered with the next
/// write; NOTIFY-LINESTATE and NOTIFY-MODEMSTATE are let pass). Closing asks the server to drop
/// what it has not yet sent to the device, as closing a local port does.
final class RFC2217ByteStream: SerialByteStream {
    /// How long the server has to answer each stage of the opening (the telnet options, then the
    /// settings). ser2net answers at once; one that cannot apply a setting never answers.
    static let answerTimeout = Duration.seconds(3)

    let path: String
    private let connection: TCPByteStream
    private let telnet: Mutex<TelnetSessionState>

    private init(path: String, connection: TCPByteStream, state: TelnetSessionState) {
        self.path = path
        self.connection = connection
        telnet = Mutex(state)
    }

    var descriptor: Int32 { connection.descriptor }

    /// Connects to `server` and opens its port with `options`' baud rate and flow control (8 data
    /// bits, no parity, 1 stop bit).
    ///
    /// - Throws: `SMPTransportError`: `.refused`/`.notFound`/`.io` as for a raw server; `.io` for a
    ///   server that does not speak RFC 2217 or cannot open its port; `.unsupportedSetting` for a
    ///   setting the server refused or did not confirm.
    static func connect(
        _ server: SerialServerAddress, options: SerialPortOptions, logger: Logger
    ) async throws(SMPTransportError) -> RFC2217ByteStream {
        let path = server.description
        let connection = try await TCPByteStream.connect(server, timeout: .seconds(5))
        let opened: Result<(TelnetSessionState, [String]), SMPTransportError>
        do {
            opened = try await PollingThread.run { thread in
                Result { () throws(SMPTransportError) in
                    try handshake(on: connection.descriptor, server: server, options: options, thread: thread)
                }
            }
        } catch {
            connection.close()
            throw SMPTransportError(.io, "serial:\(path): cannot open the port: \(error)")
        }
        switch opened {
        case .success(let (state, unconfirmed)):
            if !unconfirmed.isEmpty {
                // ser2net on a pseudo-terminal: nothing to raise, nothing wrong.
                logger.info("serial:\(path): the server did not confirm \(unconfirmed.joined(separator: ", ")); the port may not have those lines")
            }
            return RFC2217ByteStream(path: path, connection: connection, state: state)
        case .failure(let error):
            connection.close()
            throw error
        }
    }

    /// Runs the opening on the connected socket; blocks (on a ``PollingThread``).
    private static func handshake(
        on descriptor: Int32, server: SerialServerAddress, options: SerialPortOptions, thread: PollingThread
    ) throws(SMPTransportError) -> (TelnetSessionState, [String]) {
        let path = server.description
        var handshake = RFC2217Handshake(baudRate: options.baudRate, hardwareFlowControl: options.hardwareFlowControl)
        var buffer = [UInt8](repeating: 0, count: 4096)
        // A server that cannot open its port says so and closes, perhaps before our requests are
        // written: what it said is read before the failure is reported.
        func closedByServer() -> SMPTransportError {
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                guard count > 0 else { break }
                _ = handshake.receive(Array(buffer[..<count]))
            }
            return failure(.closed(String(decoding: handshake.serverText, as: UTF8.self)), server: server)
        }
        guard try sendAll(handshake.opening(), on: descriptor, path: path) else { throw closedByServer() }
        var deadline = ContinuousClock.now + answerTimeout
        while true {
            var waiting = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            switch thread.wait(&waiting, timeout: max(.zero, deadline - ContinuousClock.now)) {
            case .timedOut:
                throw failure(handshake.timedOut(after: answerTimeout), server: server)
            case .woken:
                throw SMPTransportError(.closed, "serial:\(path): the opening was cancelled")
            case .failed(let code):
                throw SMPTransportError(.io, "serial:\(path): waiting for the server failed: \(errorText(code))")
            case .ready:
                break
            }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                throw SMPTransportError(.io, "serial:\(path): reading from the server failed: \(errorText(errno))")
            }
            if count == 0 { throw closedByServer() }
            let settingsWereSent = handshake.settingsSent
            let step = handshake.receive(Array(buffer[..<count]))
            guard try sendAll(step.reply, on: descriptor, path: path) else { throw closedByServer() }
            if !settingsWereSent && handshake.settingsSent { deadline = ContinuousClock.now + answerTimeout }
            switch step.outcome {
            case .ready(let unconfirmed)?:
                return (TelnetSessionState(codec: handshake.codec, options: handshake.options), unconfirmed)
            case .failed(let refusal)?:
                throw failure(refusal, server: server)
            case nil:
                continue
            }
        }
    }

    /// Writes a few bytes of negotiation on the non-blocking socket (they fit its empty buffer);
    /// false when the server has closed the connection.
    private static func sendAll(_ bytes: [UInt8], on descriptor: Int32, path: String) throws(SMPTransportError) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                if errno == EPIPE || errno == ECONNRESET { return false }
                throw SMPTransportError(.io, "serial:\(path): writing to the server failed: \(errorText(errno))")
            }
            offset += written
        }
        return true
    }

    /// The error a refusal is reported as.
    static func failure(_ refusal: RFC2217Refusal, server: SerialServerAddress) -> SMPTransportError {
        let path = server.description
        let raw = SerialServerAddress(kind: .raw, host: server.host, port: server.port)
        switch refusal {
        case .noTelnet(let limit):
            return SMPTransportError(
                .io, "serial:\(path): the server sent no telnet negotiation within \(limit.components.seconds) s: it does not speak RFC 2217",
                hint: "for a raw TCP serial server use serial:\(raw); for ser2net, give the port an accepter telnet(rfc2217),tcp,PORT")
        case .noComPort:
            return SMPTransportError(
                .io, "serial:\(path): the server speaks telnet but refused RFC 2217 port control (COM-PORT-OPTION)",
                hint: "enable RFC 2217 on the server (ser2net: accepter telnet(rfc2217),tcp,PORT)")
        case .noBinary:
            return SMPTransportError(.io, "serial:\(path): the server refused telnet binary mode, which SMP's bytes need")
        case .settingRefused(_, let asked, let applied):
            return SMPTransportError(
                .unsupportedSetting, "serial:\(path): the server did not apply \(asked): it answered \(applied)",
                hint: "ask for a setting the port supports (?baud=, ?flow=)")
        case .settingUnconfirmed(let name, let value, let limit):
            return SMPTransportError(
                .unsupportedSetting, "serial:\(path): the server did not confirm \(name) (\(value)) within \(limit.components.seconds) s: its port cannot take it",
                hint: "ask for a setting the port supports (?baud=, ?flow=)")
        case .closed(let text):
            let said = text.split(whereSeparator: \.isNewline)
                .map { $0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed() }
                .last { !$0.isEmpty }.map { String($0) }
            return SMPTransportError(
                .io, "serial:\(path): the server closed the connection" + (said.map { ": \($0)" } ?? ""),
                hint: "the server could not open its serial port: check that the device is attached and that the server's configuration names it")
        }
    }

    func incoming(_ bytes: [UInt8]) -> [UInt8] {
        telnet.withLock { $0.receive(bytes) }
    }

    func outgoing(_ bytes: [UInt8]) -> [UInt8] {
        telnet.withLock { $0.send(bytes) }
    }

    /// Asks the server to drop what it has not yet written to the device (PURGE-DATA), as
    /// `tcflush(TCOFLUSH)` does on a local port; best effort, the socket closes next.
    func discardUnsentOutput() {
        let purge = TelnetCodec.subnegotiation(TelnetCodec.Option.comPort, [RFC2217Handshake.Code.purgeData, RFC2217Handshake.Purge.unsent])
        _ = purge.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }

    /// A network port is not held exclusively here (the server decides who may connect).
    func releaseExclusivity() {}

    func close() {
        connection.close()
    }

    func readCompleted() {
        connection.readCompleted()
    }
}

/// The telnet layer of an open RFC 2217 stream: the decoder (a command may be cut between two
/// reads), the options, and the answers to late requests, which go out before the next data.
struct TelnetSessionState: Sendable {
    var codec: TelnetCodec
    var options: TelnetOptionState
    var replies: [UInt8] = []

    /// The data in `bytes`; commands are answered (with the next write) or let pass.
    mutating func receive(_ bytes: [UInt8]) -> [UInt8] {
        let (data, commands) = codec.decode(bytes)
        for case .negotiation(let verb, let option) in commands {
            if case .reply(let answer) = options.answer(verb, option) { replies += answer }
        }
        return data
    }

    /// `bytes` as telnet data, after any answers owed.
    mutating func send(_ bytes: [UInt8]) -> [UInt8] {
        defer { replies = [] }
        return replies + TelnetCodec.escape(bytes)
    }
}
