import SMP

/// SMP over UDP: one message per datagram, to port 1337 by default.
///
/// The socket is connected, so an ICMP "port unreachable" (nothing listening) ends the link at once
/// with a clear error instead of a timeout. IPv4, IPv6 (with `%scope`) and host names are accepted.
/// A device that never answers may require DTLS (``DTLSTransport``): the link's diagnosis of a
/// timeout says so.
public final class UDPTransport: SMPTransport, SMPLinkDiagnosing {
    /// Zephyr's default SMP UDP port.
    public static let defaultPort = 1337
    /// The link MTU assumed when none is given.
    public static let defaultMTU = 1500

    public let maximumMessageSize: Int
    public var endpoint: String { socket.endpoint }
    public var inbound: AsyncThrowingStream<[UInt8], any Error> { socket.datagrams }

    /// Zephyr's defaults with the UDP transport enabled: 2048-byte buffers, 2 of them.
    public var defaultParameters: MCUmgrParameters { Self.zephyrParameters }

    /// Zephyr's defaults with the UDP transport enabled, plain or DTLS.
    static let zephyrParameters = MCUmgrParameters(bufferSize: 2048, bufferCount: 2)

    private let socket: UDPSocket

    private init(socket: UDPSocket, mtu: Int) {
        self.socket = socket
        self.maximumMessageSize = Self.maximumMessageSize(mtu: mtu, socket: socket)
    }

    /// The largest SMP message one datagram of `mtu` bytes carries on `socket`.
    static func maximumMessageSize(mtu: Int, socket: UDPSocket) -> Int {
        min(mtu - socket.ipAndUDPHeaders, 65_535 + SMPHeader.size)
    }

    /// Resolves `host` and opens a connected UDP socket to it.
    ///
    /// - Parameters:
    ///   - host: an IPv4 or IPv6 address (`fe80::1%eth0` for a scoped link-local one) or a host name.
    ///   - port: the device's SMP port.
    ///   - mtu: the link MTU; messages are kept below it minus the IP and UDP headers.
    public static func connect(host: String, port: Int = defaultPort, mtu: Int = defaultMTU) async throws(SMPTransportError) -> UDPTransport {
        UDPTransport(socket: try await UDPSocket.open(host: host, port: port, mtu: mtu), mtu: mtu)
    }

    public func send(_ message: [UInt8]) async throws {
        try await socket.send(message)
    }

    public func close() async {
        await socket.close()
    }

    /// When nothing at all came back: the device may require DTLS, which drops plain datagrams.
    public func diagnosis() async -> String? {
        guard !socket.hasReceived else { return nil }
        return "nothing came back from \(endpoint): check that the device is powered, reachable and runs an SMP UDP server; "
            + "if the device requires DTLS (CONFIG_MCUMGR_TRANSPORT_UDP_DTLS), add dtls=1 and its credentials"
    }
}
