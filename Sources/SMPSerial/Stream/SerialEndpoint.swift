/// Where a serial link's bytes go: a device node, or a TCP server that carries a serial line
/// (ser2net in raw mode, QEMU's `-chardev socket`, socat).
///
/// It is written as a path: `/dev/ttyACM0`, or `tcp://HOST:PORT` (`tcp://[::1]:5000` for IPv6).
public enum SerialEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// A tty or pseudo-terminal.
    case device(path: String)
    /// A raw TCP byte stream.
    case tcp(host: String, port: Int)

    /// The endpoint a path names: `tcp://HOST:PORT` is TCP, anything else a device path. Nil for
    /// a `tcp://` path without a valid host and port.
    public init?(path: String) {
        guard path.hasPrefix("tcp://") else {
            self = .device(path: path)
            return
        }
        let rest = path.dropFirst("tcp://".count)
        guard let colon = rest.lastIndex(of: ":") else { return nil }
        var host = rest[..<colon]
        if host.hasPrefix("[") && host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        let portText = rest[rest.index(after: colon)...]
        guard !host.isEmpty, !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = Int(portText), (1...65_535).contains(port)
        else { return nil }
        self = .tcp(host: String(host), port: port)
    }

    /// The path form.
    public var description: String {
        switch self {
        case .device(let path): return path
        case .tcp(let host, let port): return host.contains(":") ? "tcp://[\(host)]:\(port)" : "tcp://\(host):\(port)"
        }
    }
}
