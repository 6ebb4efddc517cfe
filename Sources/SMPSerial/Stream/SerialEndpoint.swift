/// Where a serial link's bytes go: a device node, or a TCP server that carries a serial line.
///
/// It is written as a path: `/dev/ttyACM0`, `tcp://HOST:PORT` (a raw server: ser2net's `tcp`
/// accepter, QEMU's `-chardev socket`, socat) or `rfc2217://HOST:PORT` (telnet with RFC 2217
/// port control: ser2net's `telnet(rfc2217)` accepter, labgrid's exporters); IPv6 hosts in
/// brackets (`tcp://[::1]:5000`).
public enum SerialEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// A tty or pseudo-terminal.
    case device(path: String)
    /// A serial server on the network.
    case server(SerialServerAddress)

    /// The endpoint a path names: `tcp://` or `rfc2217://` a server, anything else a device path.
    /// Nil for a server path without a valid host and port.
    public init?(path: String) {
        guard let kind = SerialServerAddress.Kind.allCases.first(where: { path.hasPrefix($0.scheme) }) else {
            self = .device(path: path)
            return
        }
        guard let server = SerialServerAddress(kind: kind, address: path.dropFirst(kind.scheme.count)) else { return nil }
        self = .server(server)
    }

    /// Whether the bytes cross a network: the server has no line rate of its own, and nothing about
    /// the device behind it can be known for sure.
    public var isServer: Bool {
        if case .server = self { return true }
        return false
    }

    /// The path form.
    public var description: String {
        switch self {
        case .device(let path): return path
        case .server(let server): return server.description
        }
    }
}

/// A serial server's address and the protocol it speaks: `tcp://HOST:PORT` or `rfc2217://HOST:PORT`.
public struct SerialServerAddress: Sendable, Hashable, CustomStringConvertible {
    /// What the server speaks.
    public enum Kind: Sendable, Hashable, CaseIterable {
        /// The UART's bytes and nothing else.
        case raw
        /// Telnet with RFC 2217's COM-PORT-OPTION: the client sets the line and the server
        /// confirms each setting.
        case rfc2217

        /// `tcp://` or `rfc2217://`.
        public var scheme: String {
            switch self {
            case .raw: "tcp://"
            case .rfc2217: "rfc2217://"
            }
        }
    }

    /// The protocol.
    public var kind: Kind
    /// A host name or address (IPv6 without brackets).
    public var host: String
    /// The TCP port.
    public var port: Int

    /// Creates an address.
    public init(kind: Kind, host: String, port: Int) {
        self.kind = kind
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT` (`[IPv6]:PORT`) after the scheme; nil without a host or a port from 1
    /// to 65535.
    init?(kind: Kind, address: Substring) {
        guard let colon = address.lastIndex(of: ":") else { return nil }
        var host = address[..<colon]
        if host.hasPrefix("[") && host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        let portText = address[address.index(after: colon)...]
        guard !host.isEmpty, !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = Int(portText), (1...65_535).contains(port)
        else { return nil }
        self.init(kind: kind, host: String(host), port: port)
    }

    /// `tcp://HOST:PORT` or `rfc2217://HOST:PORT`, an IPv6 host in brackets.
    public var description: String {
        kind.scheme + (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }
}
