#if canImport(Glibc)
import Glibc
#endif
import DescriptorIO
import SMP

/// A serial line reached over TCP: ser2net in raw mode, QEMU's `-chardev socket`, socat. The bytes
/// are the UART's bytes, with nothing added.
struct TCPByteStream: SerialByteStream {
    let path: String
    let descriptor: Int32

    /// Connects to the server within `timeout` (each address the name resolves to in turn), and
    /// leaves the socket non-blocking with Nagle's delay off. Resolving and connecting block, so
    /// they run on a ``PollingThread``; cancelling the task ends the wait.
    static func connect(_ server: SerialServerAddress, timeout: Duration) async throws(SMPTransportError) -> TCPByteStream {
        let (host, port, path) = (server.host, server.port, server.description)
        do {
            return try await PollingThread.run { thread throws(SMPTransportError) in
                try connect(host: host, port: port, path: path, timeout: timeout, on: thread)
            }
        } catch let error as SMPTransportError {
            throw error
        } catch {
            throw SMPTransportError(.io, "serial:\(path): cannot connect: \(error)")
        }
    }

    private static func connect(
        host: String, port: Int, path: String, timeout: Duration, on thread: PollingThread
    ) throws(SMPTransportError) -> TCPByteStream {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let first = list else {
            throw SMPTransportError(
                .notFound, "serial:\(path): cannot resolve \(host): \(String(cString: gai_strerror(resolved)))",
                hint: "check the host name, or give an address such as 127.0.0.1")
        }
        defer { freeaddrinfo(list) }
        var lastError = ECONNREFUSED
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            switch attempt(address.pointee, timeout: timeout, on: thread) {
            case .success(let descriptor): return TCPByteStream(path: path, descriptor: descriptor)
            case .failure(let failure): lastError = failure.code
            }
        }
        throw SMPTransportError(
            lastError == ECONNREFUSED ? .refused : .io,
            "serial:\(path): cannot connect: \(errorText(lastError))",
            hint: lastError == ECONNREFUSED
                ? "nothing listens on \(host):\(port): start the serial server (ser2net, QEMU -chardev socket, socat) first"
                : "check that the serial server runs and is reachable")
    }

    /// One connection attempt; the descriptor, or the errno that ended it.
    private static func attempt(_ address: addrinfo, timeout: Duration, on thread: PollingThread) -> Result<Int32, ConnectFailure> {
        let descriptor = socket(address.ai_family, address.ai_socktype | Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), address.ai_protocol)
        guard descriptor >= 0 else { return .failure(ConnectFailure(code: errno)) }
        if Glibc.connect(descriptor, address.ai_addr, address.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else {
                let code = errno
                Glibc.close(descriptor)
                return .failure(ConnectFailure(code: code))
            }
            var waiting = [pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)]
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            switch thread.wait(&waiting, timeout: timeout) {
            case .timedOut: failure = ETIMEDOUT
            case .woken: failure = ECANCELED
            case .failed(let code): failure = code
            case .ready:
                if getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length) != 0 { failure = errno }
            }
            guard failure == 0 else {
                Glibc.close(descriptor)
                return .failure(ConnectFailure(code: failure))
            }
        }
        var on: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        return .success(descriptor)
    }

    /// A socket keeps no unsent bytes that matter once it is closed.
    func discardUnsentOutput() {}

    /// A socket is not held exclusively.
    func releaseExclusivity() {}

    func close() {
        Glibc.close(descriptor)
    }

    /// Acknowledges what arrived at once rather than after Linux's delayed-ACK wait (up to 40 ms).
    ///
    /// A serial server that leaves Nagle's algorithm on (QEMU's `-chardev socket` without
    /// `nodelay=on`, ser2net by default) holds every small write back until its previous segment
    /// is acknowledged. A device writes its answer a few bytes at a time (MCUboot a character at a
    /// time), so with delayed ACKs each answer arrived ~40 ms after its first bytes: on MCUboot's
    /// serial recovery in QEMU that was 40 % of every chunk's round trip. Linux clears the flag
    /// again on its own, hence after every read.
    func readCompleted() {
        #if os(Linux)
        var on: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), Int32(TCP_QUICKACK), &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }
}

/// Why a connection attempt failed: its errno.
private struct ConnectFailure: Error {
    var code: Int32
}
