/// A local address to serve a virtual device on over UDP: `HOST:PORT`, `[IPv6]:PORT`, or `HOST`
/// (port ``defaultPort``). Port 0 lets the system pick a free port.
public struct SimulatorBindAddress: Sendable, Hashable {
    /// The port when none is given.
    public static let defaultPort = 1337

    /// The address to bind (an IPv6 address without its brackets).
    public var host: String
    /// The port, 0 for any free one.
    public var port: Int

    /// An address and port.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`, `[IPv6]:PORT`, `[IPv6]` or `HOST` (a bare IPv6 address has no port).
    public init(parsing text: String) throws(SimulatorBindAddressError) {
        var host = Substring(text)
        var port: Substring = Substring(String(Self.defaultPort))
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw SimulatorBindAddressError(text: text, problem: .expectedBracketedIPv6) }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if rest.hasPrefix(":") {
                port = rest.dropFirst()
            } else if !rest.isEmpty {
                throw SimulatorBindAddressError(text: text, problem: .expectedBracketedIPv6)
            }
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard !host.isEmpty else { throw SimulatorBindAddressError(text: text, problem: .noAddress) }
        guard port.allSatisfy(\.isASCII), let number = Int(port), (0...65_535).contains(number), port.first != "+" else {
            throw SimulatorBindAddressError(text: text, problem: .badPort)
        }
        self.host = String(host)
        self.port = number
    }
}

/// Why a text is not a ``SimulatorBindAddress``.
public struct SimulatorBindAddressError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Sendable, Hashable {
        /// A `[` without its `]`, or something other than `:PORT` after the `]`.
        case expectedBracketedIPv6
        /// No address before the port.
        case noAddress
        /// The port is not a number from 0 to 65535.
        case badPort
    }

    /// The text given.
    public var text: String
    /// What is wrong with it.
    public var problem: Problem

    /// An error about `text`.
    public init(text: String, problem: Problem) {
        self.text = text
        self.problem = problem
    }

    /// `TEXT: what is wrong`.
    public var description: String {
        switch problem {
        case .expectedBracketedIPv6: "\(text): expected [IPv6]:PORT"
        case .noAddress: "\(text): no address given"
        case .badPort: "\(text): the port must be a number from 0 to 65535"
        }
    }
}
