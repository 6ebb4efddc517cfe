#if canImport(Glibc)
import Glibc
#endif
import DescriptorIO
import SMP
import Synchronization

/// A connected UDP socket to one device, as ``UDPTransport`` and ``DTLSTransport`` use it: the
/// endpoint's name and checks, the host resolved, received datagrams as a stream, and an ICMP
/// "port unreachable" (nothing listening) turned into a clear link error at once.
///
/// The socket is a `DescriptorChannel` (the project's one I/O design: a poll() thread owns the
/// descriptor), so a UDP client starts no event loop group.
final class UDPSocket: Sendable {
    /// Where the socket goes, for messages (`udp:HOST:PORT`).
    let endpoint: String
    /// Received datagrams; the stream finishes when the socket closes and throws an
    /// ``SMPTransportError`` when it fails. It is iterated once.
    let datagrams: AsyncThrowingStream<[UInt8], any Error>
    /// The bytes of IP and UDP headers each datagram carries on this socket.
    let ipAndUDPHeaders: Int

    private let channel: DescriptorChannel
    private let received = ReceivedFlag()
    private let forwarder: Task<Void, Never>

    private init(endpoint: String, ipAndUDPHeaders: Int, channel: DescriptorChannel) {
        self.endpoint = endpoint
        self.ipAndUDPHeaders = ipAndUDPHeaders
        self.channel = channel
        let received = received
        let (stream, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        datagrams = stream
        forwarder = Task { [endpoint] in
            do {
                for try await chunk in channel.reads {
                    received.value.store(true, ordering: .relaxed)
                    continuation.yield(chunk.bytes)
                }
                continuation.finish()
            } catch DescriptorChannel.End.readFailed(let code) where code == ECONNREFUSED {
                continuation.finish(throwing: Self.refused(endpoint))
            } catch {
                continuation.finish(throwing: SMPTransportError(.io, "\(endpoint): \(error)"))
            }
        }
    }

    deinit {
        forwarder.cancel()
    }

    /// Whether any datagram has come from the device.
    var hasReceived: Bool { received.value.load(ordering: .relaxed) }

    /// `udp:HOST:PORT`, brackets around an IPv6 address.
    static func endpoint(host: String, port: Int) -> String {
        "udp:\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// Looks up a host's addresses as getaddrinfo(3) does (`host`, `service`, `hints`, the list it
    /// sets); the list it sets is freed with freeaddrinfo(3).
    typealias AddressLookup = @Sendable (
        _ host: String, _ service: String, _ hints: UnsafePointer<addrinfo>, _ list: UnsafeMutablePointer<UnsafeMutablePointer<addrinfo>?>
    ) -> Int32

    /// The system resolver: getaddrinfo(3).
    static let systemLookup: AddressLookup = { getaddrinfo($0, $1, $2, $3) }

    /// Checks the port and the MTU, resolves `host` and opens a connected UDP socket to it. Resolving
    /// a name may block, so it runs on a thread of its own (a numeric address needs no resolver).
    /// `lookup` resolves the name: the system resolver, or in tests one that sends no DNS query.
    static func open(host: String, port: Int, mtu: Int, lookup: @escaping AddressLookup = systemLookup) async throws(SMPTransportError) -> UDPSocket {
        let endpoint = endpoint(host: host, port: port)
        guard (1...65_535).contains(port) else {
            throw SMPTransportError(.notFound, "\(endpoint): port \(port) is out of range 1–65535")
        }
        guard mtu >= 128 else {
            throw SMPTransportError(.unavailable, "\(endpoint): an MTU of \(mtu) bytes is too small (at least 128)")
        }
        let opened: ConnectedDescriptor
        do {
            opened = try await PollingThread.run { _ throws(SMPTransportError) in try connect(host: host, port: port, endpoint: endpoint, lookup: lookup) }
        } catch let error as SMPTransportError {
            throw error
        } catch {
            throw SMPTransportError(.io, "\(endpoint): cannot open a UDP socket: \(error)")
        }
        do {
            let channel = try DescriptorChannel(owning: opened.descriptor, readMode: .continuous, readSize: 65_536)
            return UDPSocket(endpoint: endpoint, ipAndUDPHeaders: opened.family == AF_INET6 ? 48 : 28, channel: channel)
        } catch {
            throw SMPTransportError(.io, "\(endpoint): cannot open a UDP socket: \(error)")
        }
    }

    /// Sends one datagram.
    func send(_ datagram: [UInt8]) async throws(SMPTransportError) {
        do {
            try await channel.write([datagram])
        } catch .failed(let code) where code == ECONNREFUSED {
            throw Self.refused(endpoint)
        } catch .ended(.readFailed(let code)) where code == ECONNREFUSED {
            throw Self.refused(endpoint)
        } catch {
            throw SMPTransportError(.io, "\(endpoint): sending failed: \(error)")
        }
    }

    /// Closes the socket; ``datagrams`` finishes. Idempotent.
    func close() async {
        channel.close()
        await channel.closed()
    }

    static func refused(_ endpoint: String) -> SMPTransportError {
        SMPTransportError(
            .refused, "\(endpoint): nothing is listening there (connection refused)",
            hint: "check the address and port, and that the device runs an SMP UDP server (CONFIG_MCUMGR_TRANSPORT_UDP)")
    }

    /// Resolves `host` (the first address it has) and connects a non-blocking datagram socket to it.
    private static func connect(host: String, port: Int, endpoint: String, lookup: AddressLookup) throws(SMPTransportError) -> ConnectedDescriptor {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        guard lookup(host, String(port), &hints, &list) == 0, let address = list?.pointee else {
            throw SMPTransportError(
                .notFound, "\(endpoint): cannot resolve host \"\(host)\"",
                hint: "check the spelling, or give an IPv4/IPv6 address (an IPv6 link-local address needs its interface, e.g. fe80::1%eth0)")
        }
        defer { freeaddrinfo(list) }
        let descriptor = socket(address.ai_family, address.ai_socktype | Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), address.ai_protocol)
        guard descriptor >= 0 else {
            throw SMPTransportError(.io, "\(endpoint): cannot open a UDP socket: \(String(cString: strerror(errno)))")
        }
        guard Glibc.connect(descriptor, address.ai_addr, address.ai_addrlen) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw SMPTransportError(.io, "\(endpoint): cannot open a UDP socket: \(reason)")
        }
        return ConnectedDescriptor(descriptor: descriptor, family: address.ai_family)
    }
}

/// Whether a datagram has arrived, set by the task that forwards them.
private final class ReceivedFlag: Sendable {
    let value = Atomic(false)
}

/// A connected datagram socket and its address family.
private struct ConnectedDescriptor: Sendable {
    var descriptor: Int32
    var family: Int32
}
