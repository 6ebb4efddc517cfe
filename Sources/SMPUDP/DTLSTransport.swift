import SMP

/// SMP over DTLS 1.2 on UDP, as Zephyr serves it with `CONFIG_MCUMGR_TRANSPORT_UDP_DTLS`: one SMP
/// message per DTLS record, one record per datagram, to port 1337 by default.
///
/// ``connect(host:port:mtu:credentials:handshakeTimeout:)`` returns once the handshake is
/// complete: its flights are sent again when lost (after 1 s, then doubling) until
/// `handshakeTimeout` has passed. ``maximumMessageSize`` takes the record's overhead out of the
/// datagram. ``close()`` sends close_notify, so that a device that serves one peer at a time
/// (Zephyr) is free for the next at once. A fatal alert or close_notify from the device ends the
/// link with an error saying so.
public final class DTLSTransport: SMPTransport {
    public let maximumMessageSize: Int
    public let inbound: AsyncThrowingStream<[UInt8], any Error>
    public var endpoint: String { socket.endpoint }

    /// Zephyr's defaults with the UDP transport enabled: 2048-byte buffers, 2 of them.
    public var defaultParameters: MCUmgrParameters { UDPTransport.zephyrParameters }

    /// A reset ends the device's DTLS session: it then drops this link's records without a word.
    public var sessionEndsWithDeviceReset: Bool { true }

    /// The cipher suite the handshake agreed, e.g. `ECDHE-ECDSA-AES128-GCM-SHA256`.
    public let cipherSuite: String
    /// How long the handshake took.
    public let handshakeDuration: Duration

    private let socket: UDPSocket
    private let link: DTLSLink

    private init(socket: UDPSocket, link: DTLSLink, established: DTLSLink.Established, mtu: Int,
                 inbound: AsyncThrowingStream<[UInt8], any Error>) {
        self.socket = socket
        self.link = link
        self.inbound = inbound
        cipherSuite = established.cipherSuite
        handshakeDuration = established.duration
        maximumMessageSize = min(UDPTransport.maximumMessageSize(mtu: mtu, socket: socket), established.maximumPlaintext)
    }

    /// Loads the credentials, resolves `host`, opens a connected UDP socket to it and runs the
    /// DTLS handshake.
    ///
    /// - Parameters:
    ///   - host: an IPv4 or IPv6 address (`fe80::1%eth0` for a scoped link-local one) or a host name.
    ///   - port: the device's SMP port.
    ///   - mtu: the link MTU; a record, with its message, stays below it minus the IP and UDP headers.
    ///   - credentials: a pre-shared key, or certificates (with the CA and the name the device's
    ///     certificate must carry, unless it is not to be verified).
    ///   - handshakeTimeout: how long the handshake may take, retransmissions included.
    /// - Throws: ``SMPTransportError``: `.unsupportedSetting` for credential files that cannot be
    ///   used; otherwise what went wrong in the handshake, in words that say what to check.
    public static func connect(
        host: String, port: Int = UDPTransport.defaultPort, mtu: Int = UDPTransport.defaultMTU, credentials: DTLSClientCredentials,
        handshakeTimeout: Duration = defaultHandshakeTimeout
    ) async throws(SMPTransportError) -> DTLSTransport {
        let wording = DTLSFailureWording(endpoint: UDPSocket.endpoint(host: host, port: port), host: host, credentials: credentials)
        let context: DTLSContext
        do {
            context = try DTLSContext(client: credentials)
        } catch {
            throw credentialsFailure(error, host: host, port: port)
        }
        let socket = try await UDPSocket.open(host: host, port: port, mtu: mtu)
        let (inbound, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        do {
            let link = try DTLSLink(context: context, mtu: mtu - socket.ipAndUDPHeaders, socket: socket, wording: wording, messages: continuation)
            let datagrams = socket.datagrams
            Task { await link.read(datagrams) }
            let established = try await link.handshake(within: handshakeTimeout)
            return DTLSTransport(socket: socket, link: link, established: established, mtu: mtu, inbound: inbound)
        } catch {
            continuation.finish()
            await socket.close()
            throw error
        }
    }

    /// The handshake's time limit when none is given.
    public static let defaultHandshakeTimeout = Duration.seconds(10)

    /// The link error for DTLS credentials that cannot be used (a key file that cannot be read,
    /// is not hex, or a PEM file that is not what it should be), naming the file, never its contents.
    public static func credentialsFailure(_ error: DTLSCredentialsError, host: String, port: Int) -> SMPTransportError {
        DTLSFailureWording.credentialsError(error, endpoint: UDPSocket.endpoint(host: host, port: port))
    }

    public func send(_ message: [UInt8]) async throws {
        try await link.send(message)
    }

    /// Sends close_notify and closes the socket; ``inbound`` finishes. Idempotent.
    public func close() async {
        await link.close()
        await socket.close()
    }
}

/// The DTLS session of one ``DTLSTransport`` and the socket under it: the handshake, then records
/// in both directions. An actor, since a ``DTLSSession`` serves one caller at a time.
actor DTLSLink {
    /// What a completed handshake gives.
    struct Established: Sendable {
        var cipherSuite: String
        var maximumPlaintext: Int
        var duration: Duration
    }

    private let session: DTLSSession
    private let socket: UDPSocket
    private let wording: DTLSFailureWording
    private let messages: AsyncThrowingStream<[UInt8], any Error>.Continuation
    /// The handshake loop, waiting for a datagram or its timer.
    private var waiter: CheckedContinuation<Void, Never>?
    /// Whether a datagram came since the handshake loop last looked.
    private var newInput = false
    /// Why the socket failed (ICMP port unreachable), for the handshake loop.
    private var socketFailure: SMPTransportError?
    private var established = false
    private var closed = false

    init(
        context: DTLSContext, mtu: Int, socket: UDPSocket, wording: DTLSFailureWording,
        messages: AsyncThrowingStream<[UInt8], any Error>.Continuation
    ) throws(SMPTransportError) {
        do {
            session = try DTLSSession(context: context, mtu: mtu)
        } catch {
            throw wording.error(for: error, duringHandshake: true)
        }
        self.socket = socket
        self.wording = wording
        self.messages = messages
    }

    /// Runs the handshake to its end: sends each flight, waits for the device's answer or the
    /// flight's timer (then sends it again), until it is complete, fails, or `limit` has passed.
    func handshake(within limit: Duration) async throws(SMPTransportError) -> Established {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + limit
        while true {
            if let socketFailure { throw socketFailure }
            let progress: DTLSHandshakeProgress
            do {
                progress = try session.handshake()
            } catch {
                try? await flush()
                throw wording.error(for: error, duringHandshake: true)
            }
            try await flush()
            if progress == .complete { break }
            let now = clock.now
            guard now < deadline else { throw wording.error(for: session.unansweredHandshake, duringHandshake: true) }
            if let left = session.nextTimeout, left <= .zero {
                do {
                    try session.handleTimeout()
                } catch {
                    throw wording.error(for: error, duringHandshake: true)
                }
                continue
            }
            await waitForInput(upTo: min(session.nextTimeout ?? .seconds(1), deadline - now))
        }
        established = true
        await openRecords()
        return Established(cipherSuite: session.cipherSuite ?? "", maximumPlaintext: session.maximumPlaintext, duration: clock.now - start)
    }

    /// Hands each received datagram to the session until the socket closes or fails.
    func read(_ datagrams: AsyncThrowingStream<[UInt8], any Error>) async {
        do {
            for try await datagram in datagrams {
                session.receive(datagram)
                if established { await openRecords() } else { wake(input: true) }
            }
            messages.finish()
        } catch {
            let failure = error as? SMPTransportError ?? SMPTransportError(.io, "\(wording.endpoint): \(error)")
            socketFailure = failure
            wake(input: false)
            messages.finish(throwing: failure)
        }
    }

    /// Seals one message into a record and sends it.
    func send(_ message: [UInt8]) async throws(SMPTransportError) {
        if let socketFailure { throw socketFailure }
        guard !closed else { throw SMPTransportError(.closed, "\(wording.endpoint): the DTLS link is closed") }
        do {
            try session.seal(message)
        } catch {
            throw wording.error(for: error, duringHandshake: false)
        }
        try await flush()
    }

    /// Sends close_notify once.
    func close() async {
        guard !closed else { return }
        closed = true
        session.close()
        try? await flush()
    }

    /// Passes the messages of the received records on; a failure, an alert or close_notify from
    /// the device ends the link.
    private func openRecords() async {
        guard !closed else { return }
        do {
            for message in try session.open() { messages.yield(message) }
        } catch {
            return end(with: wording.error(for: error, duringHandshake: false))
        }
        do {
            try await flush()
        } catch {
            return end(with: error)
        }
        if session.isClosedByPeer { end(with: wording.error(for: .closed, duringHandshake: false)) }
    }

    private func end(with failure: SMPTransportError) {
        closed = true
        messages.finish(throwing: failure)
    }

    /// Sends what the session has written, each datagram as it is.
    private func flush() async throws(SMPTransportError) {
        for datagram in session.takeOutgoing() { try await socket.send(datagram) }
    }

    /// Waits until a datagram comes or the socket fails, or `duration` has passed.
    private func waitForInput(upTo duration: Duration) async {
        if newInput || socketFailure != nil {
            newInput = false
            return
        }
        let timer = Task { [weak self] in
            do { try await Task.sleep(for: duration) } catch { return }
            await self?.wake(input: false)
        }
        await withCheckedContinuation { waiter = $0 }
        timer.cancel()
        newInput = false
    }

    private func wake(input: Bool) {
        if input { newInput = true }
        waiter?.resume()
        waiter = nil
    }
}
